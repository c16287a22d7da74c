/*
 * paths.c - locating the worker and the suites; telling two paths apart
 * (see paths.h).
 */
#include "config.h"

#include "paths.h"

#include <limits.h>
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

/* The absolute form of a path whose last component need not exist: its
 * directory resolved (symlinks, "..") plus the name as given. */
static int resolve_parent(const char *path, char *buf, size_t len)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	size_t dl = slash ? (size_t)(slash - path) : 0;

	if (dl >= sizeof dir)
		return -1;
	if (slash) {
		memcpy(dir, path, dl);
		dir[dl] = '\0';
		if (!dl)
			strcpy(dir, "/");
	} else {
		strcpy(dir, ".");
	}
	if (!realpath(dir, real))
		return -1;
	int n = snprintf(buf, len, "%s/%s", real, name);
	return n >= 0 && (size_t)n < len ? 0 : -1;
}

int paths_is_database(const char *path, const char *db_path, const char **which)
{
	static const char *const db_files[] = {"", "-wal", "-shm", "-journal"};
	char sib[4200];

	for (size_t i = 0; i < sizeof db_files / sizeof db_files[0]; i++) {
		snprintf(sib, sizeof sib, "%s%s", db_path, db_files[i]);
		if (paths_same_file(path, sib)) {
			*which = db_files[i];
			return 1;
		}
	}
	return 0;
}

int paths_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
	char ra[2 * PATH_MAX], rb[2 * PATH_MAX];

	if (strcmp(a, b) == 0)
		return 1;
	if (ea && eb)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	if (ea != eb)
		return 0;
	/* Neither exists yet: the same name in the same directory. */
	return resolve_parent(a, ra, sizeof ra) == 0 && resolve_parent(b, rb, sizeof rb) == 0 &&
	       strcmp(ra, rb) == 0;
}
