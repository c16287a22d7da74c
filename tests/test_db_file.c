/*
 * test_db_file.c - the database file before SQLite sees it (db_file.c):
 * where it lives when no --db is given, the paths SQLite cannot take, and
 * the files and directories conform could read but not write.
 *
 * Everything happens in a fresh directory under $TMPDIR (else /tmp),
 * removed at the end (tests/db_fixture.h).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db/db.h"
#include "tests/db_fixture.h"
#include "tests/test.h"

static void test_default_path(void)
{
	char buf[PATH_MAX];

	setenv("CONFORM_DB", "/x/y/explicit.db", 1);
	setenv("XDG_DATA_HOME", "/xdg", 1);
	setenv("HOME", "/home/u", 1);
	CHECK_INT(db_default_path(buf, sizeof buf), 0);
	CHECK_STR(buf, "/x/y/explicit.db");

	unsetenv("CONFORM_DB");
	CHECK_INT(db_default_path(buf, sizeof buf), 0);
	CHECK_STR(buf, "/xdg/conform/conform.db");

	setenv("CONFORM_DB", "", 1); /* empty counts as unset */
	setenv("XDG_DATA_HOME", "relative/dir", 1); /* XDG: relative is ignored */
	CHECK_INT(db_default_path(buf, sizeof buf), 0);
	CHECK_STR(buf, "/home/u/.local/share/conform/conform.db");

	unsetenv("XDG_DATA_HOME");
	CHECK_INT(db_default_path(buf, sizeof buf), 0);
	CHECK_STR(buf, "/home/u/.local/share/conform/conform.db");
	CHECK_INT(db_default_path(buf, 8), -1);

	unsetenv("HOME");
	CHECK_INT(db_default_path(buf, sizeof buf), -1);
	unsetenv("CONFORM_DB");
}

static int ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), e = strlen(end);
	return n >= e && strcmp(s + n - e, end) == 0;
}

/* Builds under `dir` a path of exactly `want` characters (directories of
 * 100-character names, then the file's), without creating anything. */
static void long_path(char *buf, size_t len, const char *dir, size_t want)
{
	size_t n = (size_t)snprintf(buf, len, "%s", dir);

	while (n + 101 + 16 < want) {
		buf[n++] = '/';
		memset(buf + n, 'd', 100);
		n += 100;
	}
	buf[n++] = '/';
	while (n + 3 < want)
		buf[n++] = 'f';
	memcpy(buf + n, ".db", 4);
}

/* SQLite takes paths up to its VFS's limit less room for "-journal": one
 * of that length works, a longer one is refused before any directory is
 * made, and a path of nearly PATH_MAX characters still leaves the reason
 * whole in a 1024-byte message. */
static void test_long_paths(void)
{
	sqlite3_vfs *vfs = sqlite3_vfs_find(NULL);
	size_t max = (size_t)vfs->mxPathname - 8;
	char path[PATH_MAX], dir[PATH_MAX], msg[1024];
	struct db *db = NULL;

	path_in(dir, sizeof dir, "long-ok");
	long_path(path, sizeof path, dir, max);
	CHECK_INT(strlen(path), max);
	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	if (!db)
		fprintf(stderr, "db_open of %zu characters: %s\n", max, err);
	db_close(db);
	db = NULL;

	path_in(dir, sizeof dir, "long-refused");
	long_path(path, sizeof path, dir, max + 1);
	CHECK_INT(db_open(path, &db, err, sizeof err), -1);
	CHECK_CONTAINS(err, "path too long for SQLite");
	CHECK(one_line(err));
	CHECK(!exists(dir));

	long_path(path, sizeof path, dir, PATH_MAX - 1);
	CHECK_INT(db_open(path, &db, msg, sizeof msg), -1);
	CHECK(one_line(msg));
	CHECK_CONTAINS(msg, "...");
	CHECK_CONTAINS(msg, "path too long for SQLite");
	CHECK(ends_with(msg, "choose a shorter --db"));
	CHECK(!exists(dir));
}

/* A database conform could read but not write (the file, its directory, a
 * -shm left by another user) is refused before SQLite opens it, so the
 * refusal leaves no -wal or -shm behind and the next run, once the file is
 * writable, works.  Root writes read-only files, so this needs another
 * user. */
static void test_read_only(void)
{
	char dir[PATH_MAX], path[PATH_MAX + 16], side[PATH_MAX + 32];
	struct db *db = NULL;
	int64_t run;

	if (geteuid() == 0) {
		fprintf(stderr, "running as root, which may write read-only files: read-only "
				"refusals not checked\n");
		return;
	}
	path_in(dir, sizeof dir, "ro");
	snprintf(path, sizeof path, "%s/ro.db", dir);
	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	if (!db)
		return;
	CHECK_INT(db_run_begin(db, &plain_run, &run, err, sizeof err), 0);
	db_close(db);
	db = NULL;

	CHECK_INT(chmod(path, 0444), 0);
	expect_refused(path, "read-only (Permission denied), cannot record results");
	CHECK_INT(chmod(path, 0644), 0);
	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	db_close(db);
	db = NULL;

	CHECK_INT(chmod(dir, 0555), 0);
	expect_refused(path, "its directory is read-only");
	snprintf(side, sizeof side, "%s/new.db", dir);
	CHECK_INT(db_open(side, &db, err, sizeof err), -1);
	CHECK_CONTAINS(err, "its directory is read-only");
	CHECK(one_line(err));
	CHECK(!exists(side));
	CHECK_INT(chmod(dir, 0755), 0);

	snprintf(side, sizeof side, "%s-shm", path);
	CHECK_INT(write_file(side, "", 0), 0);
	CHECK_INT(chmod(side, 0444), 0);
	err[0] = '\0';
	CHECK_INT(db_open(path, &db, err, sizeof err), -1);
	CHECK_CONTAINS(err, "its -shm file is read-only");
	CHECK(one_line(err));
	CHECK_INT(remove(side), 0);
	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	db_close(db);
}

int main(void)
{
	if (db_fixture_begin("db-file") != 0)
		return 1;
	test_default_path();
	test_long_paths();
	test_read_only();
	db_fixture_end(&test_checks, &test_failures);
	return TEST_END();
}
