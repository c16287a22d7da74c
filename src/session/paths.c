/*
 * paths.c - locating the worker and the suites (see paths.h).
 */
#include "config.h"

#include "paths.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "text.h"

/* The directory of the running executable, from /proc/self/exe. */
static int exe_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	char *slash = strrchr(buf, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	return 0;
}

static int is_exec(const char *path)
{
	return access(path, X_OK) == 0;
}

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int paths_worker(char *buf, size_t len, char *err, size_t errlen)
{
	const char *env = getenv("CONFORM_WORKER");
	if (env && *env) {
		if (!is_exec(env)) {
			snprintf(err, errlen, "CONFORM_WORKER=%s: not an executable", env);
			return -1;
		}
		text_copy(buf, len, env);
		return 0;
	}
	char dir[4096];
	if (exe_dir(dir, sizeof dir) == 0) {
		snprintf(buf, len, "%s/conform-worker", dir);
		if (is_exec(buf))
			return 0;
	}
	snprintf(buf, len, "%s/conform-worker", PKGLIBEXECDIR);
	if (is_exec(buf))
		return 0;
	snprintf(err, errlen, "conform-worker not found next to conform or in %s (set CONFORM_WORKER)",
		 PKGLIBEXECDIR);
	return -1;
}

int paths_suites(char *buf, size_t len, char *err, size_t errlen)
{
	const char *env = getenv("CONFORM_SUITES");
	if (env && *env) {
		if (!is_dir(env)) {
			snprintf(err, errlen, "CONFORM_SUITES=%s: not a directory", env);
			return -1;
		}
		text_copy(buf, len, env);
		return 0;
	}
	char dir[4096];
	if (exe_dir(dir, sizeof dir) == 0) {
		/* A build tree (in or out of the source tree): the families'
		 * suites are in their folders under the source tree's kernels/. */
		char worker[4200];
		snprintf(worker, sizeof worker, "%s/conform-worker", dir);
		snprintf(buf, len, "%s/kernels", CONFORM_SRCDIR);
		if (is_exec(worker) && is_dir(buf))
			return 0;
	}
	snprintf(buf, len, "%s/suites", PKGDATADIR);
	if (is_dir(buf))
		return 0;
	snprintf(err, errlen, "no suites directory found (looked next to conform and in %s); set CONFORM_SUITES or use --suites DIR",
		 PKGDATADIR);
	return -1;
}
