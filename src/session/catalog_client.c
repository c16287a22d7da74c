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
#include "vec.h"

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
	default:
		return -1;
	}
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
	/* Read to the end even past a bad line, so the worker is not cut off
	 * mid-write and its exit status still tells whether it failed. */
	FILE *f = fdopen(fds[0], "r");
	char *line = NULL, why[512] = "";
	size_t cap = 0;
	int lineno = 0, bad = 0;
	while (f && getline(&line, &cap, f) >= 0) {
		lineno++;
		if (!bad && add_line(cat, line, why, sizeof why) < 0)
			bad = lineno;
	}
	free(line);
	if (f)
		fclose(f);
	else
		close(fds[0]);
	int status;
	char how[256] = "not waited for";
	int waited = spawn_wait(pid, &status) == 0;
	if (waited)
		spawn_describe_status(status, how, sizeof how);
	if (!waited || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		snprintf(err, len, "%s --catalog failed (%s)", worker_path, how);
	else if (!f)
		snprintf(err, len, "%s --catalog: cannot read its output", worker_path);
	else if (bad)
		snprintf(err, len, "%s --catalog: line %d: %s", worker_path, bad, why);
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
	memset(cat, 0, sizeof *cat);
}
