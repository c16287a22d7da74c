/*
 * paths.c - locating the worker and the suites; telling two paths apart
 * (see paths.h).
 */
#include "config.h"

#include "session/paths.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/text.h"

int paths_self(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	if (n < 0)
		return -1;
	if (n == 0 || (size_t)n >= len - 1) {
		/* Empty, or perhaps cut short. */
		errno = ENAMETOOLONG;
		return -1;
	}
	buf[n] = '\0';
	return 0;
}

/* The directory of the running executable. */
static int exe_dir(char *buf, size_t len)
{
	if (paths_self(buf, len) < 0)
		return -1;
	char *slash = strrchr(buf, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	return 0;
}

/*
 * Where the installed directory `installed` (PKGLIBEXECDIR, PKGDATADIR) is
 * when the tree that holds the running binary has been moved since
 * configure (make install prefix=DIR, or a DESTDIR install copied
 * elsewhere).  BINDIR and `installed` share a root (the prefix): BINDIR's
 * part below it taken off the running binary's directory gives the root as
 * it now is, and `installed`'s part below it goes on that.  /usr/local/bin
 * and /usr/local/libexec/conform share /usr/local, so a binary in
 * /opt/c/bin finds /opt/c/libexec/conform.  Derived from the configured
 * directories, not a fixed "../libexec", so that --libexecdir and
 * --datadir hold too.  Returns -1 when the binary's directory does not end
 * in BINDIR's part (a build tree).
 */
static int relocated(const char *installed, char *buf, size_t len)
{
	const char *bin = BINDIR;
	char dir[4096];
	size_t root = 0, i = 0;

	if (exe_dir(dir, sizeof dir) < 0)
		return -1;
	/* The longest common prefix that ends at a directory boundary in both. */
	for (;; i++) {
		int a_end = bin[i] == '/' || bin[i] == '\0';
		int b_end = installed[i] == '/' || installed[i] == '\0';
		if (a_end && b_end)
			root = i;
		if (bin[i] != installed[i] || bin[i] == '\0')
			break;
	}
	const char *bin_part = bin + root, *rest = installed + root;
	size_t dl = strlen(dir), bl = strlen(bin_part);
	if (bl > dl || strcmp(dir + dl - bl, bin_part) != 0)
		return -1;
	int n = snprintf(buf, len, "%.*s%s", (int)(dl - bl), dir, rest);
	return n >= 0 && (size_t)n < len ? 0 : -1;
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

/* The worker beside the running binary, where a build tree has it. */
static int worker_beside(char *buf, size_t len)
{
	char dir[4096];
	if (exe_dir(dir, sizeof dir) < 0)
		return -1;
	snprintf(buf, len, "%s/conform-worker", dir);
	return 0;
}

/* The binary is in a build tree: its worker is beside it. */
static int in_build_tree(void)
{
	char worker[4200];
	return worker_beside(worker, sizeof worker) == 0 && is_exec(worker);
}

/*
 * paths_worker() and paths_suites() search the same way, one search each:
 * the environment's override, then the installed tree where the binary now
 * is, then the build tree the binary is in, then the directories configure
 * chose.  The moved tree comes before the configured one so that two
 * installs (an old one at the configured prefix) never mix one's binary
 * with the other's worker or suites.  found() says whether a candidate
 * will do.
 */
struct search {
	const char *env;              /* the override's variable */
	const char *refused;          /* what an override that will not do is not */
	int (*found)(const char *path);
	const char *installed;        /* the configured directory */
	const char *leaf;             /* the name below it */
	int (*build)(char *buf, size_t len); /* the build tree's candidate; -1: none */
	const char *missing;          /* the message when nothing will do */
};

static int search(const struct search *s, char *buf, size_t len, char *err, size_t errlen)
{
	const char *env = getenv(s->env);
	char dir[4096];
	if (env && *env) {
		if (!s->found(env)) {
			snprintf(err, errlen, "%s=%s: %s", s->env, env, s->refused);
			return -1;
		}
		text_copy(buf, len, env);
		return 0;
	}
	if (relocated(s->installed, dir, sizeof dir) == 0) {
		snprintf(buf, len, "%s/%s", dir, s->leaf);
		if (s->found(buf))
			return 0;
	}
	if (s->build(buf, len) == 0 && s->found(buf))
		return 0;
	snprintf(buf, len, "%s/%s", s->installed, s->leaf);
	if (s->found(buf))
		return 0;
	snprintf(err, errlen, "%s", s->missing);
	return -1;
}

/* A build tree (in or out of the source tree): the families' suites are in
 * their folders under the source tree's kernels/. */
static int suites_of_source(char *buf, size_t len)
{
	if (!in_build_tree())
		return -1;
	snprintf(buf, len, "%s/kernels", CONFORM_SRCDIR);
	return 0;
}

int paths_worker(char *buf, size_t len, char *err, size_t errlen)
{
	static const struct search worker = {
		.env = "CONFORM_WORKER",
		.refused = "not an executable",
		.found = is_exec,
		.installed = PKGLIBEXECDIR,
		.leaf = "conform-worker",
		.build = worker_beside,
		.missing = "conform-worker not found in the installed tree, next to conform or in " PKGLIBEXECDIR
			   " (set CONFORM_WORKER)",
	};
	return search(&worker, buf, len, err, errlen);
}

int paths_suites(char *buf, size_t len, char *err, size_t errlen)
{
	static const struct search suites = {
		.env = "CONFORM_SUITES",
		.refused = "not a directory",
		.found = is_dir,
		.installed = PKGDATADIR,
		.leaf = "suites",
		.build = suites_of_source,
		.missing = "no suites directory found (looked in the installed tree, next to conform and in " PKGDATADIR
			   "); set CONFORM_SUITES or use --suites DIR",
	};
	return search(&suites, buf, len, err, errlen);
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

/* A regular executable file (a directory is X_OK too). */
static int is_program(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && is_exec(path);
}

int paths_sanitizer(char *buf, size_t len, char *err, size_t errlen)
{
	const char *env = getenv("CONFORM_SANITIZER");
	if (env && *env) {
		if (!is_program(env)) {
			snprintf(err, errlen, "CONFORM_SANITIZER=%s: not an executable", env);
			return -1;
		}
		text_copy(buf, len, env);
		return 0;
	}
	const char *path = getenv("PATH");
	for (const char *p = path ? path : ""; *p;) {
		size_t l = strcspn(p, ":");
		if (l > 0) {
			snprintf(buf, len, "%.*s/compute-sanitizer", (int)l, p);
			if (is_program(buf))
				return 0;
		}
		p += l + (p[l] == ':');
	}
	/* Beside a toolkit: the one the environment names, the one the
	 * build found (its include directory's sibling), the usual place. */
	const char *homes[] = {getenv("CUDA_HOME"), getenv("CUDA_PATH"),
#ifdef CONFORM_CUDA_INCLUDE
			       CONFORM_CUDA_INCLUDE "/..",
#endif
			       "/usr/local/cuda"};
	for (size_t k = 0; k < sizeof homes / sizeof homes[0]; k++) {
		if (!homes[k] || !*homes[k])
			continue;
		snprintf(buf, len, "%s/bin/compute-sanitizer", homes[k]);
		if (is_program(buf))
			return 0;
	}
	snprintf(err, errlen, "compute-sanitizer not found on PATH, in $CUDA_HOME/bin or /usr/local/cuda/bin "
		 "(it comes with the CUDA toolkit; or set CONFORM_SANITIZER)");
	return -2;
}
