/*
 * db_file.c - the database file before SQLite sees it: where it lives when
 * no --db is given, its directory made when missing, and the refusal of a
 * file that is not an SQLite database.
 *
 * Invariant: nothing here writes to the file itself.  SQLite would happily
 * turn an empty or missing file into a database, but anything else must
 * carry the SQLite header or it is someone's data that we must not touch.
 */
#include "db_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* mkdir -p for the directory part of `path`. */
static int make_parent(const char *path, char *err, size_t len)
{
	char dir[PATH_MAX];
	char *slash, *p;
	struct stat sb;

	if (strlen(path) >= sizeof dir) {
		db_seterr(err, len, "%s: path too long", path);
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
			db_seterr(err, len, "%s: cannot create directory %s: %s", path, dir,
				  strerror(errno));
			return -1;
		}
		/* EEXIST says nothing of what exists: a file there is an error. */
		if (stat(dir, &sb) != 0) {
			db_seterr(err, len, "%s: cannot create directory %s: %s", path, dir,
				  strerror(errno));
			return -1;
		}
		if (!S_ISDIR(sb.st_mode)) {
			db_seterr(err, len, "%s: cannot create directory %s: a file is in the way",
				  path, dir);
			return -1;
		}
		*p = c;
		if (c == '\0')
			break;
	}
	return 0;
}

int db_file_check(const char *path, char *err, size_t len)
{
	static const char magic[16] = "SQLite format 3";
	char head[16];
	struct stat sb;
	size_t got = 0;
	int fd;

	if (stat(path, &sb) != 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return make_parent(path, err, len);
		db_seterr(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(sb.st_mode)) {
		db_seterr(err, len, "%s: is a directory, not a database file", path);
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		db_seterr(err, len, "%s: not a regular file (left untouched)", path);
		return -1;
	}
	if (sb.st_size == 0)
		return 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		db_seterr(err, len, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	while (got < sizeof head) {
		ssize_t r = read(fd, head + got, sizeof head - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			db_seterr(err, len, "%s: cannot read: %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (got < sizeof head || memcmp(head, magic, sizeof head) != 0) {
		db_seterr(err, len, "%s: not an SQLite database (left untouched)", path);
		return -1;
	}
	return 0;
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
