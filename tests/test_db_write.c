/*
 * test_db_write.c - recording devices, runs and results (db_write.c), read
 * back through a separate raw sqlite3 connection, so the test checks the
 * file, not the store's view of it; and a writer killed outright, which
 * loses nothing it had inserted.
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

/* Round trip of devices, runs and results, in a nested directory that does
 * not exist yet. */
static void test_round_trip(void)
{
	static const enum outcome observed[STATUS_COUNT] = {
		[STATUS_PASS] = OUTCOME_CORRECT, [STATUS_FAIL] = OUTCOME_WRONG,
		[STATUS_TIMEOUT] = OUTCOME_HUNG, [STATUS_CRASH] = OUTCOME_CRASHED,
		[STATUS_ERROR] = OUTCOME_LAUNCH_ERROR, [STATUS_SKIP] = OUTCOME_SKIPPED,
		[STATUS_XFAIL] = OUTCOME_WRONG, [STATUS_XPASS] = OUTCOME_CORRECT,
	};
	char path[PATH_MAX], buf[256];
	struct db *db = NULL;
	struct gpu_info g = mkgpu("NVIDIA H100 80GB HBM3", "GPU-1234-abcd");
	struct gpu_info anon = mkgpu("Anonymous GPU", "");
	struct case_spec c;
	struct result r;
	struct run_info ri = plain_run;
	int64_t dev = 0, dev2 = 0, dev3 = 0, dev4 = 0, run = 0;
	int counts[STATUS_COUNT];
	sqlite3 *h;

	path_in(path, sizeof path, "a/b/c/conform.db");
	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	if (!db) {
		fprintf(stderr, "db_open: %s\n", err);
		return;
	}
	CHECK(exists(path));
	CHECK_INT(db_schema_version(db), db_schema_latest());

	CHECK_INT(db_device_upsert(db, &g, &dev, err, sizeof err), 0);
	CHECK_INT(db_device_upsert(db, &g, &dev2, err, sizeof err), 0);
	CHECK(dev > 0);
	CHECK_INT(dev2, dev);
	CHECK_INT(db_device_upsert(db, &anon, &dev3, err, sizeof err), 0);
	CHECK_INT(db_device_upsert(db, &anon, &dev4, err, sizeof err), 0);
	CHECK(dev3 != dev);
	CHECK_INT(dev4, dev3);

	ri.device_id = dev;
	ri.seed = UINT64_MAX; /* beyond SQLite's signed INTEGER */
	ri.started_at = "2025-06-01T12:00:00Z"; /* the session's, as its JUnit report says it */
	CHECK_INT(db_run_begin(db, &ri, &run, err, sizeof err), 0);
	CHECK(run > 0);

	c = mkcase("block.tree.sum.f32.n1000", "block.tree", DTYPE_F32, 1000, 0, "block=256,op=sum",
		   EXPECT_PASS);
	for (int s = 0; s < STATUS_COUNT; s++) {
		memset(&r, 0, sizeof r);
		r.c = &c;
		r.seed = 0x8000000000000001ULL;
		r.status = (enum status)s;
		r.outcome = observed[s];
		r.err_norm = s == STATUS_PASS ? 1.5e-7 : -1;
		r.duration_s = 0.25;
		if (s != STATUS_PASS)
			snprintf(r.message, sizeof r.message, "status %d says \"why\"; it's fine", s);
		CHECK_INT(db_result_insert(db, run, &r, err, sizeof err), 0);
	}
	c = mkcase("rows.warp.max.i32", "rows", DTYPE_I32, 64, 4096, "", EXPECT_HANG);
	r.c = &c;
	r.status = STATUS_XFAIL;
	r.outcome = OUTCOME_HUNG;
	CHECK_INT(db_result_insert(db, run, &r, err, sizeof err), 0);

	CHECK_INT(status_counts(db, run, counts), 0);
	for (int s = 0; s < STATUS_COUNT; s++)
		CHECK_INT(counts[s], s == STATUS_XFAIL ? 2 : 1);
	CHECK_INT(db_run_end(db, run, "complete", 3, 5, 1, err, sizeof err), 0);
	CHECK_INT(db_run_end(db, run, "finished", 3, 5, 1, err, sizeof err), -1);
	CHECK_CONTAINS(err, "complete or interrupted");
	CHECK_INT(db_run_end(db, run + 100, "complete", 0, 0, 0, err, sizeof err), -1);
	CHECK_CONTAINS(err, "no run");
	CHECK_INT(status_counts(db, run + 100, counts), 0);
	CHECK_INT(counts[STATUS_PASS], 0);

	/* Read it back from outside. */
	h = raw_open(path);
	CHECK(h != NULL);
	if (h) {
		CHECK_STR(raw_text(h, "PRAGMA journal_mode", buf, sizeof buf), "wal");
		CHECK_INT(raw_int(h, "PRAGMA user_version"), db_schema_latest());
		CHECK_INT(raw_int(h, "SELECT count(*) FROM devices"), 2);
		CHECK_STR(raw_text(h, "SELECT uuid FROM devices WHERE name = 'Anonymous GPU'", buf,
				   sizeof buf), "(null)");
		CHECK_INT(raw_int(h, "SELECT memory_bytes FROM devices WHERE uuid = 'GPU-1234-abcd'"),
			  85520809984LL);
		CHECK_INT(raw_int(h, "SELECT driver_version FROM devices WHERE uuid = 'GPU-1234-abcd'"),
			  13000);
		CHECK_INT(raw_int(h, "SELECT first_seen GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T"
				     "[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z' FROM devices LIMIT 1"), 1);

		CHECK_STR(raw_text(h, "SELECT state FROM runs", buf, sizeof buf), "complete");
		CHECK_STR(raw_text(h, "SELECT seed FROM runs", buf, sizeof buf), "18446744073709551615");
		CHECK_STR(raw_text(h, "SELECT started_at FROM runs", buf, sizeof buf),
			  "2025-06-01T12:00:00Z");
		CHECK_STR(raw_text(h, "SELECT git_revision FROM runs", buf, sizeof buf), "(null)");
		CHECK_STR(raw_text(h, "SELECT host || '|' || conform_version || '|' || command_line "
				      "FROM runs", buf, sizeof buf), "testhost|0.0-test|conform --suite x");
		CHECK_INT(raw_int(h, "SELECT device_id FROM runs"), dev);
		CHECK_INT(raw_int(h, "SELECT passed * 100 + failed * 10 + skipped FROM runs"), 351);
		CHECK_INT(raw_int(h, "SELECT ended_at >= started_at FROM runs"), 1);

		CHECK_INT(raw_int(h, "SELECT count(*) FROM results"), STATUS_COUNT + 1);
		CHECK_STR(raw_text(h, "SELECT kernel || '|' || variant || '|' || params || '|' || dtype "
				      "|| '|' || n || '|' || cols || '|' || expect || '|' || observed "
				      "FROM results WHERE status = 'PASS'", buf, sizeof buf),
			  "block|block.tree|block=256,op=sum|f32|1000|0|pass|completed-correct");
		CHECK_STR(raw_text(h, "SELECT kernel || '|' || dtype || '|' || n || '|' || cols || '|' "
				      "|| expect || '|' || observed || '|' || params FROM results "
				      "WHERE case_name = 'rows.warp.max.i32'", buf, sizeof buf),
			  "rows|i32|64|4096|hang|hung|");
		CHECK_STR(raw_text(h, "SELECT message FROM results WHERE status = 'PASS'", buf,
				   sizeof buf), "");
		CHECK_STR(raw_text(h, "SELECT message FROM results WHERE status = 'FAIL'", buf,
				   sizeof buf), "status 1 says \"why\"; it's fine");
		CHECK_NEAR((double)raw_int(h, "SELECT err_norm * 1e9 FROM results WHERE status = 'PASS'"),
			   150, 1);
		CHECK_STR(raw_text(h, "SELECT typeof(err_norm) FROM results WHERE status = 'FAIL'", buf,
				   sizeof buf), "null");
		CHECK_INT(raw_int(h, "SELECT min(duration_ms) = 250 AND max(duration_ms) = 250 "
				     "FROM results"), 1);
		CHECK_STR(raw_text(h, "SELECT seed FROM results LIMIT 1", buf, sizeof buf),
			  "9223372036854775809");
		CHECK_STR(raw_text(h, "SELECT typeof(median_ms) FROM results LIMIT 1", buf, sizeof buf),
			  "null");
		/* The schema, not only db.c, rejects a word outside the vocabulary. */
		CHECK(sqlite3_exec(h, "INSERT INTO results (run_id, case_name, kernel, variant, params, "
				      "dtype, n, cols, expect, status, observed, duration_ms, created_at) "
				      "VALUES (1, 'x', 'x', 'x', '', 'f32', 1, 0, 'pass', 'BOGUS', "
				      "'completed-correct', 0, 'now')", NULL, NULL, NULL) == SQLITE_CONSTRAINT);
		CHECK(sqlite3_exec(h, "INSERT INTO results (run_id, case_name, kernel, variant, params, "
				      "dtype, n, cols, expect, status, observed, duration_ms, created_at) "
				      "VALUES (9999, 'x', 'x', 'x', '', 'f32', 1, 0, 'pass', 'PASS', "
				      "'completed-correct', 0, 'now')", NULL, NULL, NULL) == SQLITE_OK);
		sqlite3_close(h);
	}
	/* db's own connection enforces foreign keys. */
	CHECK_INT(db_result_insert(db, 9999, &r, err, sizeof err), -1);
	CHECK_CONTAINS(err, "FOREIGN KEY");
	CHECK(one_line(err));
	db_close(db);

	/* Reopening an up-to-date database changes nothing and never downgrades. */
	CHECK_INT(db_open_at_version(path, 1, &db, err, sizeof err), 0);
	if (db) {
		CHECK_INT(db_schema_version(db), db_schema_latest());
		db_close(db);
	}

	/* An empty file (touch) is a new database. */
	path_in(path, sizeof path, "empty.db");
	CHECK_INT(write_file(path, "", 0), 0);
	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	if (db) {
		CHECK_INT(db_schema_version(db), db_schema_latest());
		db_close(db);
	}
}

/* A writer killed outright loses nothing it had inserted: each result is
 * its own transaction.  The run stays 'running'. */
static void test_killed_writer(void)
{
	char path[PATH_MAX], buf[32];
	struct db *db = NULL;
	int status = 0;
	sqlite3 *h;
	pid_t pid;

	path_in(path, sizeof path, "killed.db");
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		struct case_spec c = mkcase("block.tree.sum.f32", "block.tree", DTYPE_F32, 10, 0, "",
					    EXPECT_PASS);
		struct result r;
		int64_t run;

		memset(&r, 0, sizeof r);
		r.c = &c;
		r.err_norm = -1;
		if (db_open(path, &db, err, sizeof err) != 0 ||
		    db_run_begin(db, &plain_run, &run, err, sizeof err) != 0)
			_exit(2);
		for (int i = 0; i < 3; i++)
			if (db_result_insert(db, run, &r, err, sizeof err) != 0)
				_exit(3);
		kill(getpid(), SIGKILL);
		_exit(4);
	}
	if (pid < 0)
		return;
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	db_close(db);
	h = raw_open(path);
	if (!h)
		return;
	CHECK_INT(raw_int(h, "SELECT count(*) FROM results"), 3);
	CHECK_STR(raw_text(h, "SELECT state FROM runs", buf, sizeof buf), "running");
	CHECK_STR(raw_text(h, "SELECT ended_at FROM runs", buf, sizeof buf), "(null)");
	sqlite3_close(h);
}

int main(void)
{
	if (db_fixture_begin("db-write") != 0)
		return 1;
	test_round_trip();
	test_killed_writer();
	db_fixture_end(&test_checks, &test_failures);
	return TEST_END();
}
