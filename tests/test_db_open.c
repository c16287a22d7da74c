/*
 * test_db_open.c - opening the store (db_open.c): the one connection
 * policy (WAL, so readers proceed under a write lock, and the busy wait
 * before "locked"), and the files it refuses - not SQLite, not ours, of a
 * schema it does not know, damaged - each left byte for byte as it was.
 *
 * Everything happens in a fresh directory under $TMPDIR (else /tmp),
 * removed at the end (tests/db_fixture.h).
 */
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db/db.h"
#include "tests/db_fixture.h"
#include "tests/test.h"

/* WAL: readers proceed while someone holds the write lock, and our writes
 * wait DB_BUSY_TIMEOUT_MS before saying "locked" (DB_LOCKED: nothing was
 * written, and the same call goes through once the lock is gone). */
static void test_concurrency(void)
{
	char path[PATH_MAX];
	struct db *db = NULL;
	struct case_spec c = mkcase("block.tree.sum.f32", "block.tree", DTYPE_F32, 10, 0, "",
				    EXPECT_PASS);
	struct result r;
	int64_t run = 0;
	int counts[STATUS_COUNT];
	sqlite3 *writer, *reader;
	double t0, dt;

	memset(&r, 0, sizeof r);
	r.c = &c;
	r.err_norm = -1;
	path_in(path, sizeof path, "concurrent.db");
	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	if (!db)
		return;
	CHECK_INT(db_run_begin(db, &plain_run, &run, err, sizeof err), 0);
	CHECK_INT(db_result_insert(db, run, &r, err, sizeof err), 0);

	writer = raw_open(path);
	reader = raw_open(path);
	CHECK(writer && reader);
	if (!writer || !reader)
		goto out;
	CHECK_INT(raw_exec(writer, "BEGIN IMMEDIATE"), SQLITE_OK);
	CHECK_INT(raw_exec(writer, "INSERT INTO runs (started_at, state) VALUES ('x', 'running')"),
		  SQLITE_OK);

	/* Readers see the last commit while the write is open. */
	CHECK_INT(raw_int(reader, "SELECT count(*) FROM runs"), 1);
	CHECK_INT(raw_int(writer, "SELECT count(*) FROM runs"), 2);
	CHECK_INT(status_counts(db, run, counts), 0);
	CHECK_INT(counts[STATUS_PASS], 1);
	/* Opening needs no write when there is nothing to migrate. */
	{
		struct db *db2 = NULL;
		CHECK_INT(db_open(path, &db2, err, sizeof err), 0);
		if (db2)
			CHECK_INT(db_schema_version(db2), db_schema_latest());
		db_close(db2);
	}

	t0 = now_ms();
	CHECK_INT(db_result_insert(db, run, &r, err, sizeof err), DB_LOCKED);
	dt = now_ms() - t0;
	CHECK_CONTAINS(err, "locked");
	CHECK_CONTAINS(err, path);
	CHECK(one_line(err));
	CHECK(waited_the_timeout(dt));

	CHECK_INT(raw_exec(writer, "COMMIT"), SQLITE_OK);
	CHECK_INT(db_result_insert(db, run, &r, err, sizeof err), 0);
	CHECK_INT(raw_int(reader, "SELECT count(*) FROM runs"), 2);
	CHECK_INT(raw_int(reader, "SELECT count(*) FROM results"), 2);
out:
	sqlite3_close(writer);
	sqlite3_close(reader);
	db_close(db);
}

static void test_refusals(void)
{
	char path[PATH_MAX], sub[PATH_MAX + 64];
	unsigned char junk[8192];
	uint32_t x = 12345;
	struct db *db = NULL;
	sqlite3 *h;

	for (size_t i = 0; i < sizeof junk; i++) {
		x = x * 1103515245u + 12345u;
		junk[i] = (unsigned char)(x >> 16);
	}

	/* Not SQLite at all: refused before SQLite opens it. */
	path_in(path, sizeof path, "garbage.db");
	CHECK_INT(write_file(path, junk, sizeof junk), 0);
	expect_refused(path, "not an SQLite database (left untouched)");
	path_in(path, sizeof path, "short.db");
	CHECK_INT(write_file(path, "hello\n", 6), 0);
	expect_refused(path, "not an SQLite database (left untouched)");

	/* The magic, then garbage. */
	path_in(path, sizeof path, "fakeheader.db");
	memcpy(junk, "SQLite format 3", 16);
	CHECK_INT(write_file(path, junk, 4096), 0);
	expect_refused(path, "left untouched");

	/* A real conform database with its first page's b-tree smashed. */
	path_in(path, sizeof path, "damaged.db");
	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	db_close(db);
	db = NULL;
	{
		size_t n = 0;
		unsigned char *buf = read_file(path, &n);
		CHECK(buf && n >= 4096);
		if (buf && n >= 4096) {
			memcpy(buf + 100, junk + 100, 4096 - 100);
			CHECK_INT(write_file(path, buf, n), 0);
			expect_refused(path, "left untouched");
		}
		free(buf);
	}

	/* Made by a newer conform. */
	path_in(path, sizeof path, "newer.db");
	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	db_close(db);
	db = NULL;
	h = raw_open(path);
	if (h) {
		CHECK_INT(raw_exec(h, "PRAGMA user_version = 99"), SQLITE_OK);
		sqlite3_close(h);
	}
	snprintf(sub, sizeof sub, "created by a newer conform (schema 99, this build knows %d)",
		 db_schema_latest());
	expect_refused(path, sub);
	CHECK_CONTAINS(err, "use that conform, or another --db");

	/* A version no conform writes. */
	h = raw_open(path);
	if (h) {
		CHECK_INT(raw_exec(h, "PRAGMA user_version = -1"), SQLITE_OK);
		sqlite3_close(h);
	}
	snprintf(sub, sizeof sub, "schema version -1, which no conform writes (this build knows 1 to %d)",
		 db_schema_latest());
	expect_refused(path, sub);

	/* Somebody else's database, with and without a user_version. */
	path_in(path, sizeof path, "other.db");
	h = raw_open(path);
	if (h) {
		CHECK_INT(raw_exec(h, "CREATE TABLE bookmarks (url TEXT)"), SQLITE_OK);
		sqlite3_close(h);
	}
	expect_refused(path, "another program");
	h = raw_open(path);
	if (h) {
		CHECK_INT(raw_exec(h, "PRAGMA user_version = 1"), SQLITE_OK);
		sqlite3_close(h);
	}
	expect_refused(path, "another program");

	/* A directory where the file should be, and a file where a directory
	 * should be. */
	CHECK_INT(db_open(tmpdir, &db, err, sizeof err), -1);
	CHECK_CONTAINS(err, "is a directory");
	CHECK(one_line(err));
	path_in(path, sizeof path, "plainfile");
	CHECK_INT(write_file(path, "x", 1), 0);
	snprintf(sub, sizeof sub, "%s/deeper/conform.db", path);
	CHECK_INT(db_open(sub, &db, err, sizeof err), -1);
	CHECK_CONTAINS(err, "cannot create directory");
	CHECK(one_line(err));
	snprintf(sub, sizeof sub, "%s/conform.db", path);
	CHECK_INT(db_open(sub, &db, err, sizeof err), -1);
	CHECK_CONTAINS(err, "cannot create directory");

	CHECK_INT(db_open("", &db, err, sizeof err), -1);
	CHECK(one_line(err));
	CHECK(db == NULL);
}

/* Overwrites `n` bytes, from `at` bytes before the end of the root page
 * of `table`, with 'A's.  Rows are kept at the end of a b-tree page and
 * its header at the start: the cells stop making sense while the header
 * still parses, so SQLite reads and writes around the damage unless it
 * checks.  Returns 0, or -1. */
static int damage_root_page(const char *path, const char *table, long at, size_t n)
{
	char sql[128];
	long long root, page;
	sqlite3 *h = raw_open(path);
	unsigned char *buf;
	size_t size = 0;
	int rc = -1;

	if (!h)
		return -1;
	snprintf(sql, sizeof sql, "SELECT rootpage FROM sqlite_master WHERE name = '%s'", table);
	root = raw_int(h, sql);
	page = raw_int(h, "PRAGMA page_size");
	sqlite3_close(h); /* the last connection: the WAL is folded in and removed */
	buf = read_file(path, &size);
	if (buf && root > 0 && page > at && (size_t)(root * page) <= size) {
		memset(buf + root * page - at, 'A', n);
		rc = write_file(path, buf, size);
	}
	free(buf);
	return rc;
}

/* A database whose pages do not hold together (quick_check fails) is
 * refused by every opener that records results, before it writes; a
 * lookup, which only reads, opens it unless it would have to migrate it. */
static void test_damaged(void)
{
	char path[PATH_MAX], buf[256];
	struct db *db = NULL;
	struct case_spec c = mkcase("block.tree.sum.f32", "block.tree", DTYPE_F32, 10, 0,
				    "block=256,op=sum", EXPECT_PASS);
	int64_t run = 0;
	sqlite3 *h;

	path_in(path, sizeof path, "damaged-results.db");
	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	if (!db)
		return;
	CHECK_INT(db_run_begin(db, &plain_run, &run, err, sizeof err), 0);
	for (int i = 0; i < 12; i++)
		put_result(db, run, &c, STATUS_PASS, OUTCOME_CORRECT, "", 1, 0, 0);
	db_close(db);
	CHECK_INT(damage_root_page(path, "results", 1000, 300), 0);
	h = raw_open(path);
	if (h) {
		CHECK(strcmp(raw_text(h, "PRAGMA quick_check", buf, sizeof buf), "ok") != 0);
		sqlite3_close(h);
	}

	expect_refused(path, "damaged database (On tree page ");
	CHECK_CONTAINS(err, ".recover");
	expect_refused(path, "left untouched: move it aside");
	{
		/* A lookup reads around the damage: nothing is written. */
		size_t nb = 0, na = 0;
		unsigned char *before = read_file(path, &nb), *after;
		CHECK_INT(db_open_lookup(path, &db, err, sizeof err), 0);
		db_close(db);
		db = NULL;
		after = read_file(path, &na);
		CHECK(before && after && na == nb && memcmp(before, after, nb) == 0);
		free(before);
		free(after);
	}

	/* With a WAL left by a writer that was killed: refusing folds
	 * nothing into the damaged file, and leaves the WAL as it was. */
	{
		char wal[PATH_MAX + 8];
		unsigned char *db0, *wal0, *db1, *wal1;
		size_t ndb0 = 0, nwal0 = 0, ndb1 = 0, nwal1 = 0;
		int status = 0;
		pid_t pid = fork();

		CHECK(pid >= 0);
		if (pid == 0) {
			sqlite3 *w = raw_open(path);
			if (!w || raw_exec(w, "INSERT INTO runs (started_at, state) VALUES ('x', "
					      "'running')") != SQLITE_OK)
				_exit(2);
			kill(getpid(), SIGKILL);
			_exit(3);
		}
		if (pid > 0)
			CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status));
		snprintf(wal, sizeof wal, "%s-wal", path);
		db0 = read_file(path, &ndb0);
		wal0 = read_file(wal, &nwal0);
		CHECK(wal0 && nwal0 > 0);
		CHECK_INT(db_open(path, &db, err, sizeof err), -1);
		CHECK_CONTAINS(err, "damaged database");
		db1 = read_file(path, &ndb1);
		wal1 = read_file(wal, &nwal1);
		CHECK(db0 && db1 && ndb0 == ndb1 && memcmp(db0, db1, ndb0) == 0);
		CHECK(wal0 && wal1 && nwal0 == nwal1 && memcmp(wal0, wal1, nwal0) == 0);
		free(db0);
		free(wal0);
		free(db1);
		free(wal1);
	}

	/* An old damaged database: a lookup would migrate it, so it checks
	 * first and refuses, at the old version. */
	path_in(path, sizeof path, "damaged-v2.db");
	CHECK_INT(db_open_at_version(path, 2, &db, err, sizeof err), 0);
	if (!db)
		return;
	for (int i = 0; i < 12; i++)
		CHECK_INT(old_run_begin(db, &plain_run, &run), 0);
	db_close(db);
	CHECK_INT(damage_root_page(path, "runs", 1000, 300), 0);
	expect_refused_by(db_open_lookup, path, "damaged database");
	h = raw_open(path);
	if (h) {
		CHECK_INT(raw_int(h, "PRAGMA user_version"), 2);
		sqlite3_close(h);
	}
}

int main(void)
{
	if (db_fixture_begin("db-open") != 0)
		return 1;
	test_concurrency();
	test_refusals();
	test_damaged();
	db_fixture_end(&test_checks, &test_failures);
	return TEST_END();
}
