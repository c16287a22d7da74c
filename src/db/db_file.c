/*
 * db_file.c - the database file before SQLite sees it: where it lives when
 * no --db is given, its directory made when missing, and the refusals that
 * need no SQLite: a path SQLite cannot take, a file that is not an SQLite
 * database, and a database conform could not write to.
 *
 * Invariants: nothing here writes to the file itself, and every refusal
 * comes before SQLite opens the file, so a refused database gains no
 * journal, -wal or -shm beside it.  SQLite would happily turn an empty or
 * missing file into a database, but anything else must carry the SQLite
 * header or it is someone's data that we must not touch.
 */
#include "db/db_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <unistd.h>

/* SQLite makes the path absolute and names the journal by appending to
 * it: it refuses a database whose absolute path leaves no room for
 * "-journal" (8 characters) within its VFS's longest path, 512 on Unix.
 * Checked before any directory is made, so a path SQLite would refuse
 * creates nothing.  (Symbolic links SQLite resolves may lengthen the path;
 * then its own refusal, "cannot open", still comes.) */
static int check_length(const char *path, char *err, size_t len)
{
	sqlite3_vfs *vfs = sqlite3_vfs_find(NULL);
	size_t max = vfs && vfs->mxPathname > 8 ? (size_t)vfs->mxPathname - 8 : PATH_MAX - 1;
	size_t n = strlen(path);
	char cwd[PATH_MAX];

	if (path[0] != '/' && getcwd(cwd, sizeof cwd))
		n += strlen(cwd) + 1;
	if (n <= max)
		return 0;
	db_seterr_at(err, len, path, "path too long for SQLite (%zu characters%s, at most %zu): "
		     "choose a shorter --db", n, path[0] == '/' ? "" : " from /", max);
	return -1;
}

/* mkdir -p for the directory part of `path`. */
static int make_parent(const char *path, char *err, size_t len)
{
	char dir[PATH_MAX];
	char *slash, *p;
	struct stat sb;

	if (strlen(path) >= sizeof dir) {
		db_seterr_at(err, len, path, "path too long");
		return -1;
	}
	strcpy(dir, path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode))
		return 0;

	for (p = dir + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;
		*p = '\0';
		if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
			db_seterr_at(err, len, path, "cannot create directory (%s): %s",
				     strerror(errno), dir);
			return -1;
		}
		/* EEXIST says nothing of what exists: a file there is an error. */
		if (stat(dir, &sb) != 0) {
			db_seterr_at(err, len, path, "cannot create directory (%s): %s",
				     strerror(errno), dir);
			return -1;
		}
		if (!S_ISDIR(sb.st_mode)) {
			db_seterr_at(err, len, path, "cannot create directory (a file is in the way): %s",
				     dir);
			return -1;
		}
		*p = c;
		if (c == '\0')
			break;
	}
	return 0;
}

/* Refuses a database conform could read but not write: the file, its
 * directory (where SQLite creates the journal, -wal and -shm) or a -wal or
 * -shm left there by another user.  Refusing here, before SQLite opens it,
 * matters: a connection SQLite opens read-only leaves -wal and -shm behind
 * with the file's permissions, and those make the next run fail even once
 * the file is writable again. */
static int check_writable(const char *path, int exists, char *err, size_t len)
{
	static const char *const sides[] = { "-wal", "-shm" };
	char dir[PATH_MAX], side[PATH_MAX + 8];
	const char *slash = strrchr(path, '/');

	if (exists && access(path, R_OK | W_OK) != 0) {
		db_seterr_at(err, len, path, "read-only (%s), cannot record results", strerror(errno));
		return -1;
	}
	if (!slash)
		strcpy(dir, ".");
	else if (slash == path)
		strcpy(dir, "/");
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
	if (access(dir, W_OK | X_OK) != 0) {
		db_seterr_at(err, len, path, "its directory is read-only (%s), and SQLite keeps the "
			     "journal beside the database: choose another --db", strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++) {
		snprintf(side, sizeof side, "%s%s", path, sides[i]);
		if (access(side, F_OK) == 0 && access(side, R_OK | W_OK) != 0) {
			db_seterr_at(err, len, path, "its %s file is read-only (%s): remove it while "
				     "nothing has the database open", sides[i], strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* Whether the file at path starts with the SQLite header: 1, 0, or -1
 * with a message when it cannot be read. */
static int has_sqlite_header(const char *path, char *err, size_t len)
{
	static const char magic[16] = "SQLite format 3";
	char head[16];
	size_t got = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		db_seterr_at(err, len, path, "cannot read: %s", strerror(errno));
		return -1;
	}
	while (got < sizeof head) {
		ssize_t r = read(fd, head + got, sizeof head - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			db_seterr_at(err, len, path, "cannot read: %s", strerror(errno));
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	return got == sizeof head && memcmp(head, magic, sizeof head) == 0;
}

int db_file_on_readonly_fs(const char *path)
{
	struct statvfs vfs;
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && statvfs(path, &vfs) == 0 &&
	       (vfs.f_flag & ST_RDONLY);
}

int db_file_check(const char *path, int reading_only, char *err, size_t len)
{
	struct stat sb;
	int r;

	if (check_length(path, err, len) != 0)
		return -1;
	if (stat(path, &sb) != 0) {
		if (errno != ENOENT && errno != ENOTDIR) {
			db_seterr_at(err, len, path, "%s", strerror(errno));
			return -1;
		}
		if (make_parent(path, err, len) != 0)
			return -1;
		return check_writable(path, 0, err, len);
	}
	if (S_ISDIR(sb.st_mode)) {
		db_seterr_at(err, len, path, "is a directory, not a database file");
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		db_seterr_at(err, len, path, "not a regular file (left untouched)");
		return -1;
	}
	if (sb.st_size > 0) {
		if ((r = has_sqlite_header(path, err, len)) < 0)
			return -1;
		if (!r) {
			db_seterr_at(err, len, path, "not an SQLite database (left untouched)");
			return -1;
		}
	}
	return reading_only ? 0 : check_writable(path, 1, err, len);
}

int db_default_path(char *buf, size_t len)
{
	const char *s;
	int n;

	if ((s = getenv("CONFORM_DB")) && *s)
		n = snprintf(buf, len, "%s", s);
	else if ((s = getenv("XDG_DATA_HOME")) && *s == '/') /* relative: ignored, per XDG */
		n = snprintf(buf, len, "%s/conform/conform.db", s);
	else if ((s = getenv("HOME")) && *s)
		n = snprintf(buf, len, "%s/.local/share/conform/conform.db", s);
	else
		return -1;
	return n < 0 || (size_t)n >= len ? -1 : 0;
}
