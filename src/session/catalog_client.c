/*
 * catalog_client.c - reading the catalog from the worker (see
 * catalog_client.h).  The worker's --catalog mode touches no GPU.
 */
#include "session/catalog_client.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/text.h"
#include "common/vec.h"
#include "session/line_reader.h"
#include "session/spawn.h"

/* Adds one line's record to the catalog: exactly one build record, any
 * number of variants. */
static int add_line(struct catalog *cat, const char *line, char *err, size_t len)
{
	struct catalog_build b;
	struct catalog_entry e;
	switch (catalog_wire_parse(line, &b, &e, err, len)) {
	case CATALOG_WIRE_BUILD:
		if (cat->archs) {
			catalog_wire_free_build(&b);
			snprintf(err, len, "a second 'build' line");
			return -1;
		}
		cat->has_kernels = b.has_kernels;
		cat->archs = b.archs;
		return 0;
	case CATALOG_WIRE_VARIANT:
		if (vec_push(cat->v, cat->count, cat->cap, e) < 0) {
			catalog_wire_free_variant(&e);
			snprintf(err, len, "out of memory");
			return -1;
		}
		return 0;
	case CATALOG_WIRE_ERROR:
		/* The worker refused its input: its message is the answer. */
		if (!cat->refused)
			cat->refused = strdup(err);
		return 0;
	default:
		return -1;
	}
}

/* Reads the worker's answer until end of file, a bound, an unreadable
 * line or the deadline.  Returns the last wait result: WAIT_EOF when the
 * whole answer was read.  Past a bad line it goes on reading, so that the
 * worker is not cut off mid-write and its exit status still tells whether
 * it failed; *bad is the first bad line's number, why says what. */
static enum wait_result read_answer(struct catalog *cat, int fd, double deadline, int *lines,
				    int *bad, char *why, size_t wlen)
{
	struct line_reader rd;
	if (line_reader_open(&rd, CATALOG_WIRE_LINE_MAX - 1) < 0) { /* - 1: the newline */
		snprintf(why, wlen, "out of memory");
		return WAIT_IO_ERROR;
	}
	enum wait_result wr;
	char *line;
	size_t n, bytes = 0;
	while ((wr = line_reader_next(&rd, fd, deadline, NULL, &line, &n)) == WAIT_LINE) {
		++*lines;
		bytes += n + 1;
		if (*lines > CATALOG_LINES_MAX || bytes > CATALOG_BYTES_MAX) {
			if (*lines > CATALOG_LINES_MAX)
				snprintf(why, wlen, "more than %d lines", CATALOG_LINES_MAX);
			else
				snprintf(why, wlen, "more than %d bytes", CATALOG_BYTES_MAX);
			line_reader_close(&rd);
			return WAIT_TOO_LONG;
		}
		if (*bad)
			continue;
		if (memchr(line, '\0', n)) {
			snprintf(why, wlen, "a NUL byte inside the line");
			*bad = *lines;
		} else if (add_line(cat, line, why, wlen) < 0) {
			*bad = *lines;
		}
	}
	if (wr == WAIT_TOO_LONG)
		snprintf(why, wlen, "line %d: more than the %d bytes a catalog line may have",
			 *lines + 1, CATALOG_WIRE_LINE_MAX);
	line_reader_close(&rd);
	return wr;
}

/* What the worker was reading when it ran out of time: its built-in
 * catalog takes milliseconds, the kernel files (and what they include)
 * are what can take long, so the message names them: " while reading the
 * kernel file F", " while reading the kernel files F, G and 2 more", or
 * "" for none. */
static void kernels_named(const struct kernel_list *kl, char *buf, size_t len)
{
	size_t n = kl ? kl->n : 0, shown = 0, o;

	buf[0] = '\0';
	if (n == 0)
		return;
	o = (size_t)snprintf(buf, len, " while reading the kernel file%s", n > 1 ? "s" : "");
	/* A path is printable (kernel_list_add); as many as fit are named. */
	for (; shown < n && o < len; shown++) {
		int w = snprintf(buf + o, len - o, "%s%s", shown ? ", " : " ", kl->paths[shown]);
		if (w < 0 || o + (size_t)w + sizeof " and 999 more" > len)
			break;
		o += (size_t)w;
	}
	if (shown < n)
		snprintf(buf + o, len - o, " and %zu more", n - shown);
}

int catalog_load(struct catalog *cat, const char *worker_path, const struct kernel_list *kernels,
		 double timeout_s, char *err, size_t len)
{
	memset(cat, 0, sizeof *cat);
	double deadline = text_now() + timeout_s;
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0) {
		snprintf(err, len, "pipe: %s", strerror(errno));
		return -1;
	}
	char *argv[KERNEL_LIST_ARGV_MAX];
	kernel_list_argv(kernels, argv, worker_path, "--catalog");
	struct spawn_request req = {.path = worker_path, .argv = argv, .stdin_fd = -1, .stderr_fd = -1,
				    .stdout_fd = fds[1]};
	pid_t pid = spawn_start(&req, err, len);
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return -1;
	}
	int lines = 0, bad = 0;
	char why[512] = "";
	enum wait_result wr = read_answer(cat, fds[0], deadline, &lines, &bad, why, sizeof why);
	close(fds[0]);
	int status;
	char how[256] = "";
	if (wr == WAIT_EOF && spawn_wait_until(pid, deadline, &status) == 0) {
		spawn_describe_status(status, how, sizeof how);
	} else {
		spawn_kill(pid);
		if (wr == WAIT_EOF || wr == WAIT_TIMEOUT) {
			char named[1024];
			kernels_named(kernels, named, sizeof named);
			snprintf(err, len, "%s --catalog did not finish within %g s (killed)%s", worker_path,
				 timeout_s, named);
		} else if (wr == WAIT_TOO_LONG) {
			snprintf(err, len, "%s --catalog: %s (killed)", worker_path, why);
		} else {
			snprintf(err, len, "%s --catalog: cannot read its output%s%s", worker_path,
				 why[0] ? ": " : "", why);
		}
		catalog_free(cat);
		return -1;
	}
	if (cat->refused)
		snprintf(err, len, "%s", cat->refused);
	else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		snprintf(err, len, "%s --catalog failed (%s)", worker_path, how);
	else if (bad)
		snprintf(err, len, "%s --catalog: line %d: %s", worker_path, bad, why);
	else if (cat->count == 0)
		snprintf(err, len, "%s --catalog listed no variants", worker_path);
	else if (!cat->archs)
		snprintf(err, len, "%s --catalog: no 'build' line", worker_path);
	else
		return 0;
	catalog_free(cat);
	return -1;
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
	for (size_t i = 0; i < cat->count; i++)
		catalog_wire_free_variant(&cat->v[i]);
	vec_free(cat->v, cat->count, cat->cap);
	free((void *)cat->archs);
	free(cat->refused);
	memset(cat, 0, sizeof *cat);
}
