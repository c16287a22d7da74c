/*
 * catalog_client.c - reading the catalog from the worker (see
 * catalog_client.h).  The worker's --catalog mode touches no GPU.
 */
#include "catalog_client.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn.h"
#include "text.h"

static int parse_line(struct catalog *cat, char *line)
{
	char *f[9];
	int n = 0;
	line[strcspn(line, "\n")] = '\0';
	for (char *p = line; n < 9;) {
		f[n++] = p;
		char *tab = strchr(p, '\t');
		if (!tab)
			break;
		*tab = '\0';
		p = tab + 1;
	}
	if (n >= 2 && strcmp(f[0], "build") == 0) {
		cat->has_kernels = strcmp(f[1], "kernels") == 0;
		text_copy(cat->archs, sizeof cat->archs, n >= 3 ? f[2] : "");
		return 0;
	}
	if (n != 8 || strcmp(f[0], "variant") != 0)
		return -1;
	struct catalog_entry *grown = realloc(cat->v, (cat->count + 1) * sizeof *grown);
	if (!grown)
		return -1;
	cat->v = grown;
	struct catalog_entry *e = &cat->v[cat->count++];
	text_copy(e->name, sizeof e->name, f[1]);
	e->gpu = atoi(f[2]);
	text_copy(e->dtypes, sizeof e->dtypes, f[3]);
	text_copy(e->summary, sizeof e->summary, f[4]);
	text_copy(e->contract, sizeof e->contract, f[5]);
	text_copy(e->tunables, sizeof e->tunables, strcmp(f[6], "-") ? f[6] : "");
	text_copy(e->space, sizeof e->space, strcmp(f[7], "-") ? f[7] : "");
	return 0;
}

int catalog_load(struct catalog *cat, const char *worker_path, char *err, size_t len)
{
	memset(cat, 0, sizeof *cat);
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0) {
		snprintf(err, len, "pipe: %s", strerror(errno));
		return -1;
	}
	char *argv[] = {(char *)worker_path, "--catalog", NULL};
	struct spawn_request req = {.path = worker_path, .argv = argv, .stdin_fd = -1,
				    .stdout_fd = fds[1]};
	pid_t pid = spawn_start(&req, err, len);
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return -1;
	}
	FILE *f = fdopen(fds[0], "r");
	int bad = 0;
	char line[2048];
	while (f && fgets(line, sizeof line, f))
		if (parse_line(cat, line) < 0)
			bad = 1;
	if (f)
		fclose(f);
	else
		close(fds[0]);
	int status;
	if (spawn_wait(pid, &status) < 0 || bad || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(err, len, "%s --catalog failed", worker_path);
		catalog_free(cat);
		return -1;
	}
	return 0;
}

const struct catalog_entry *catalog_lookup(const struct catalog *cat, const char *name)
{
	for (size_t i = 0; i < cat->count; i++)
		if (strcmp(cat->v[i].name, name) == 0)
			return &cat->v[i];
	return NULL;
}

void catalog_free(struct catalog *cat)
{
	free(cat->v);
	memset(cat, 0, sizeof *cat);
}
