/*
 * kernel_list.c - collecting --kernel and --kernels (see kernel_list.h).
 */
#include "session/kernel_list.h"

#include "session/catalog_client.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/file_read.h"
#include "common/text.h"

/* A path as a message may show it (text_sanitize), into buf. */
static const char *shown(const char *path, char *buf, size_t len)
{
	text_copy(buf, len, path);
	text_sanitize(buf);
	return buf;
}

/* A path is printable when text_sanitize would leave it as it is: it
 * travels to the worker and back in the catalog's tab-separated lines, and
 * into messages, the database and reports, where a tab, a line break, an
 * escape sequence or a byte that is not UTF-8 would split a record or be
 * changed on the way, and the file would no longer match its own cases. */
static int printable(const char *path)
{
	char *copy = strdup(path);
	int ok = copy && text_sanitize(copy) == 0;

	free(copy);
	return ok;
}

int kernel_list_add(struct kernel_list *kl, const char *path, char *err, size_t len)
{
	struct stat st, other;
	char name[1024];
	const char *why;

	if (!printable(path)) {
		snprintf(err, len, "%s: a control character or a byte that is not UTF-8 in the file's "
			 "name (shown as '?'): rename it", shown(path, name, sizeof name));
		return -1;
	}
	if (stat(path, &st) < 0) {
		snprintf(err, len, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, len, "%s: a directory (use --kernels DIR for every .cu file of it)", path);
		return -1;
	}
	/* Every worker conform starts opens the file by its name (the
	 * catalog's, each run's, one started again after a crash): a pipe,
	 * /dev/fd/N from <(...) among them, would give its text to the first
	 * reader only, and a FIFO without a writer would keep a reader
	 * waiting. */
	if ((why = file_type_refusal(st.st_mode)) != NULL) {
		snprintf(err, len, "%s: cannot read: %s (a kernel file is read again by every worker: "
			 "save it to a file)", path, why);
		return -1;
	}
	/* Named twice, by any path (two suites, a suite and --kernel): read
	 * once, under the name it was first given. */
	for (size_t i = 0; i < kl->n; i++)
		if (stat(kl->paths[i], &other) == 0 && other.st_dev == st.st_dev && other.st_ino == st.st_ino)
			return 0;
	if (kl->n == KERNEL_LIST_MAX) {
		snprintf(err, len, "%s: at most %d kernel files", path, KERNEL_LIST_MAX);
		return -1;
	}
	if (!(kl->paths[kl->n] = strdup(path))) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	kl->n++;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int kernel_list_add_dir(struct kernel_list *kl, const char *dir, char *err, size_t len)
{
	DIR *d = opendir(dir);
	char *names[KERNEL_LIST_MAX + 1], shown_dir[1024];
	size_t n = 0;
	int rc = 0;

	shown(dir, shown_dir, sizeof shown_dir);
	if (!d) {
		snprintf(err, len, "%s: cannot read: %s", shown_dir, strerror(errno));
		return -1;
	}
	for (struct dirent *e; (e = readdir(d));) {
		size_t l = strlen(e->d_name);
		struct stat st;
		if (l < 4 || strcmp(e->d_name + l - 3, ".cu") != 0 || e->d_name[0] == '.')
			continue;
		if (n > KERNEL_LIST_MAX || !(names[n] = malloc(strlen(dir) + l + 2))) {
			snprintf(err, len, "%s: more than %d .cu files", shown_dir, KERNEL_LIST_MAX);
			rc = -1;
			break;
		}
		sprintf(names[n], "%s/%s", dir, e->d_name);
		/* A directory that happens to end in .cu holds no kernel; any
		 * other file is kernel_list_add's to judge, so that one that
		 * cannot be a kernel file is said, never left out. */
		if (stat(names[n], &st) == 0 && S_ISDIR(st.st_mode))
			free(names[n]);
		else
			n++;
	}
	closedir(d);
	if (rc == 0 && n == 0) {
		snprintf(err, len, "%s: no .cu file in it", shown_dir);
		rc = -1;
	}
	qsort(names, n, sizeof names[0], by_name);
	for (size_t i = 0; i < n; i++) {
		if (rc == 0 && kernel_list_add(kl, names[i], err, len) < 0)
			rc = -1;
		free(names[i]);
	}
	return rc;
}

void kernel_list_free(struct kernel_list *kl)
{
	for (size_t i = 0; i < kl->n; i++)
		free(kl->paths[i]);
	kl->n = 0;
}

void kernel_list_pin(struct kernel_list *kl, const struct catalog *cat)
{
	for (size_t i = 0; i < kl->n; i++) {
		kl->source[i] = NULL;
		for (size_t j = 0; j < cat->count; j++)
			if (cat->v[j].source[0] && strcmp(cat->v[j].path, kl->paths[i]) == 0)
				kl->source[i] = cat->v[j].source;
	}
}

void kernel_list_argv(const struct kernel_list *kl, char **argv, const char *prog, const char *first)
{
	size_t a = 0;

	argv[a++] = (char *)prog;
	if (first)
		argv[a++] = (char *)first;
	for (size_t i = 0; kl && i < kl->n; i++) {
		argv[a++] = "--kernel";
		argv[a++] = kl->paths[i];
		if (kl->source[i]) {
			argv[a++] = "--source";
			argv[a++] = (char *)kl->source[i];
		}
	}
	argv[a] = NULL;
}
