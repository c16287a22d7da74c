/*
 * test_db_migrate.c - the schema's numbered migrations (db_migrate.c):
 * databases written as older builds wrote them, at their old versions,
 * keep every row and gain each migration's columns, tables and views, and
 * what the store reads from them afterwards (the interface's reads, a
 * tune's resume, best_configs) is what those rows say; a migration that
 * fails or meets a lock changes nothing.
 *
 * Everything happens in a fresh directory under $TMPDIR (else /tmp),
 * removed at the end (tests/db_fixture.h).
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "db/db.h"
#include "db/db_internal.h" /* the connection itself, to write as older builds did */
#include "tests/db_fixture.h"
#include "tests/test.h"

static int has_column(sqlite3 *h, const char *table, const char *column)
{
	char sql[128];
	snprintf(sql, sizeof sql, "SELECT count(*) FROM pragma_table_info('%s') WHERE name = '%s'",
		 table, column);
	return raw_int(h, sql) == 1;
}

/* A result as a build before migration 5 stored it, for databases opened
 * at an older version (db_result_insert writes the latest columns):
 * timed when median_ms > 0.  Needs migration 3's columns. */
static void put_old_result(struct db *db, int64_t run, const struct case_spec *c,
			   const char *status, const char *observed, double median_ms)
{
	char median[32] = "NULL";
	if (median_ms > 0)
		snprintf(median, sizeof median, "%.17g", median_ms);
	char *sql = sqlite3_mprintf(
		"INSERT INTO results (run_id, case_name, kernel, variant, params, dtype, n, cols, "
		"expect, status, observed, duration_ms, created_at, median_ms, samples, op, device_id) "
		"VALUES (%lld, %Q, substr(%Q, 1, instr(%Q, '.') - 1), %Q, %Q, 'f32', %lld, %lld, 'pass', "
		"%Q, %Q, 250, '2025-01-31T14:05:09Z', %s, %s, 'sum', "
		"(SELECT device_id FROM runs WHERE id = %lld))",
		(long long)run, c->name, c->variant, c->variant, c->variant, c->params, (long long)c->n, (long long)c->cols,
		status, observed, median, median_ms > 0 ? "10" : "NULL", (long long)run);
	CHECK_INT(raw_exec(db->h, sql), SQLITE_OK);
	sqlite3_free(sql);
}

static int keep_tuned_row(void *ctx, const struct db_tuned_row *row)
{
	*(struct db_tuned_row *)ctx = *row;
	return 1;
}

/* A version-1 database keeps its rows and gains migration 2's columns;
 * a locked one is left at version 1 with a "locked" error. */
static void test_migration(void)
{
	char path[PATH_MAX], buf[64];
	struct db *db = NULL;
	int64_t run = 0;
	sqlite3 *h;
	double t0, dt;

	CHECK_INT(db_schema_latest(), 14);
	path_in(path, sizeof path, "old.db");
	CHECK_INT(db_open_at_version(path, 1, &db, err, sizeof err), 0);
	if (!db)
		return;
	CHECK_INT(db_schema_version(db), 1);
	CHECK_INT(old_run_begin(db, &plain_run, &run), 0);
	db_close(db);

	h = raw_open(path);
	if (!h)
		return;
	CHECK_INT(raw_int(h, "PRAGMA user_version"), 1);
	CHECK(!has_column(h, "results", "median_ms"));
	CHECK(!has_column(h, "runs", "passed"));

	/* A migration failing halfway (its last statement collides with an
	 * index put there by hand) is rolled back whole: version 1, no new
	 * columns. */
	CHECK_INT(raw_exec(h, "CREATE INDEX results_problem ON results(n)"), SQLITE_OK);
	CHECK_INT(db_open(path, &db, err, sizeof err), -1);
	CHECK(db == NULL);
	CHECK_CONTAINS(err, "migration 2");
	CHECK_CONTAINS(err, "already exists");
	CHECK(one_line(err));
	CHECK_INT(raw_int(h, "PRAGMA user_version"), 1);
	CHECK(!has_column(h, "results", "median_ms"));
	CHECK(!has_column(h, "runs", "passed"));
	CHECK_INT(raw_exec(h, "DROP INDEX results_problem"), SQLITE_OK);

	/* Migration under someone else's write lock: refused, nothing changed. */
	CHECK_INT(raw_exec(h, "BEGIN EXCLUSIVE"), SQLITE_OK);
	CHECK_INT(raw_exec(h, "UPDATE runs SET host = 'holder'"), SQLITE_OK);
	t0 = now_ms();
	CHECK_INT(db_open(path, &db, err, sizeof err), -1);
	dt = now_ms() - t0;
	CHECK(db == NULL);
	CHECK_CONTAINS(err, "locked");
	snprintf(buf, sizeof buf, "waited %d ms", DB_BUSY_TIMEOUT_MS);
	CHECK_CONTAINS(err, buf);
	CHECK(one_line(err));
	CHECK(waited_the_timeout(dt));
	CHECK_INT(raw_exec(h, "ROLLBACK"), SQLITE_OK);
	CHECK_INT(raw_int(h, "PRAGMA user_version"), 1);
	sqlite3_close(h);

	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	if (!db)
		return;
	CHECK_INT(db_schema_version(db), db_schema_latest());
	CHECK_INT(db_run_end(db, run, "interrupted", 1, 2, 3, err, sizeof err), 0);
	db_close(db);

	h = raw_open(path);
	if (!h)
		return;
	CHECK_INT(raw_int(h, "PRAGMA user_version"), db_schema_latest());
	CHECK_INT(raw_int(h, "PRAGMA application_id"), 0x636f6e66);
	CHECK_INT(raw_int(h, "SELECT count(*) FROM runs"), 1);
	CHECK_STR(raw_text(h, "SELECT host || ' ' || seed || ' ' || state FROM runs", buf, sizeof buf),
		  "testhost 42 interrupted");
	CHECK_INT(raw_int(h, "SELECT passed + failed + skipped FROM runs"), 6);
	{
		static const char *const cols[] = { "median_ms", "mean_ms", "stddev_ms", "min_ms",
						    "samples", "noise", "gbps" };
		for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++)
			CHECK(has_column(h, "results", cols[i]));
	}
	CHECK_INT(raw_int(h, "SELECT count(*) FROM sqlite_master WHERE type = 'index' "
			     "AND name IN ('results_run', 'results_case', 'results_problem')"), 3);
	sqlite3_close(h);
}

/* A version-2 database with results gains migration 3: the op and
 * device_id columns filled from params and the run, the copy bandwidth
 * table and the best_configs view, which picks the fastest correct timed
 * result per problem. */
static void test_migration_3(void)
{
	char path[PATH_MAX], buf[128];
	struct db *db = NULL;
	int64_t dev = 0, run = 0;
	sqlite3 *h;
	struct gpu_info g = mkgpu("NVIDIA H100 80GB HBM3", "GPU-mig3");

	path_in(path, sizeof path, "v2.db");
	CHECK_INT(db_open_at_version(path, 2, &db, err, sizeof err), 0);
	if (!db)
		return;
	CHECK_INT(db_device_upsert(db, &g, &dev, err, sizeof err), 0);
	struct run_info ri = plain_run;
	ri.device_id = dev;
	CHECK_INT(old_run_begin(db, &ri, &run), 0);
	db_close(db);

	h = raw_open(path);
	if (!h)
		return;
	CHECK(!has_column(h, "results", "op"));
	/* Written the way a version-2 conform wrote them. */
	static const struct { const char *params, *status, *median; } rows[] = {
		{"block=256,op=max", "PASS", "2.0"}, {"op=max,block=512", "PASS", "1.5"},
		{"block=64,op=max", "FAIL", "0.5"}, {"block=128", "PASS", "3.0"},
		{"", "PASS", "NULL"},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char sql[512];
		snprintf(sql, sizeof sql,
			 "INSERT INTO results (run_id, case_name, kernel, variant, params, dtype, n, cols, "
			 "expect, status, observed, duration_ms, created_at, median_ms) VALUES (%lld, "
			 "'c%zu', 'device', 'device.x', '%s', 'f32', 1024, 0, 'pass', '%s', "
			 "'completed-correct', 1, '2025-01-01T00:00:00Z', %s)", (long long)run, i,
			 rows[i].params, rows[i].status, rows[i].median);
		CHECK_INT(raw_exec(h, sql), SQLITE_OK);
	}
	sqlite3_close(h);

	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	if (!db)
		return;
	CHECK_INT(db_schema_version(db), db_schema_latest());
	db_close(db);
	h = raw_open(path);
	if (!h)
		return;
	CHECK(has_column(h, "results", "op"));
	CHECK(has_column(h, "results", "device_id"));
	CHECK_STR(raw_text(h, "SELECT group_concat(coalesce(op, '-'), ' ') FROM "
			      "(SELECT op FROM results ORDER BY id)", buf, sizeof buf), "max max max - -");
	CHECK_INT(raw_int(h, "SELECT count(*) FROM results WHERE device_id IS NOT NULL"), 5);
	CHECK_INT(raw_int(h, "SELECT count(*) FROM device_bandwidth"), 0);
	/* The fastest PASS with a time per problem: not the FAIL at 0.5 ms,
	 * not the untimed row; op=max and no op are different problems. */
	CHECK_INT(raw_int(h, "SELECT count(*) FROM best_configs"), 2);
	CHECK_STR(raw_text(h, "SELECT params || ' ' || median_ms FROM best_configs WHERE op = 'max'",
			   buf, sizeof buf), "op=max,block=512 1.5");
	CHECK_STR(raw_text(h, "SELECT params FROM best_configs WHERE op IS NULL", buf, sizeof buf),
		  "block=128");
	sqlite3_close(h);
}

/* A version-3 database gains migration 4, which rebuilds runs for the
 * 'aborted' state and its reason: every run keeps every column, no result
 * is lost (dropping the old runs with foreign keys on would have deleted
 * them all), a result that already lacked its run stays, and the rebuilt
 * table is referenced as before (deleting a run deletes its results). */
static void test_migration_4(void)
{
	char path[PATH_MAX], buf[256];
	struct db *db = NULL;
	struct gpu_info g = mkgpu("NVIDIA H100 80GB HBM3", "GPU-mig4");
	struct case_spec c = mkcase("block.tree.sum.f32", "block.tree", DTYPE_F32, 10, 0,
				    "block=256,op=sum", EXPECT_PASS);
	int64_t dev = 0, run1 = 0, run2 = 0, run3 = 0;
	struct run_info ri = plain_run;
	sqlite3 *h;

	path_in(path, sizeof path, "v3.db");
	CHECK_INT(db_open_at_version(path, 3, &db, err, sizeof err), 0);
	if (!db)
		return;
	CHECK_INT(db_device_upsert(db, &g, &dev, err, sizeof err), 0);
	ri.device_id = dev;
	CHECK_INT(old_run_begin(db, &ri, &run1), 0);
	for (int i = 0; i < 3; i++)
		put_old_result(db, run1, &c, "PASS", "completed-correct", 0);
	CHECK_INT(db_run_end(db, run1, "complete", 3, 0, 0, err, sizeof err), 0);
	CHECK_INT(old_run_begin(db, &plain_run, &run2), 0);
	put_old_result(db, run2, &c, "FAIL", "completed-wrong", 0);
	CHECK_INT(db_run_end(db, run2, "interrupted", 0, 1, 0, err, sizeof err), 0);
	CHECK_INT(old_run_begin(db, &plain_run, &run3), 0);
	put_old_result(db, run3, &c, "PASS", "completed-correct", 0);
	db_close(db);
	db = NULL;

	h = raw_open(path);
	if (!h)
		return;
	CHECK_INT(raw_int(h, "PRAGMA user_version"), 3);
	CHECK(!has_column(h, "runs", "reason"));
	CHECK(sqlite3_exec(h, "UPDATE runs SET state = 'aborted' WHERE id = 3", NULL, NULL, NULL) ==
	      SQLITE_CONSTRAINT);
	/* A result whose run is gone, as a script with foreign keys off can
	 * leave: the migration neither removes it nor fails over it. */
	CHECK_INT(raw_exec(h, "INSERT INTO results (run_id, case_name, kernel, variant, params, "
			      "dtype, n, cols, expect, status, observed, duration_ms, created_at) "
			      "VALUES (9999, 'x', 'x', 'x', '', 'f32', 1, 0, 'pass', 'PASS', "
			      "'completed-correct', 0, 'now')"), SQLITE_OK);
	CHECK_STR(raw_text(h, "SELECT group_concat(id || ' ' || state || ' ' || coalesce(passed, '-') "
			      "|| ' ' || coalesce(device_id, '-') || ' ' || seed || ' ' || host, ', ') "
			      "FROM (SELECT * FROM runs ORDER BY id)", buf, sizeof buf),
		  "1 complete 3 1 42 testhost, 2 interrupted 0 - 42 testhost, 3 running - - 42 testhost");
	sqlite3_close(h);

	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	if (!db) {
		fprintf(stderr, "migration 4: %s\n", err);
		return;
	}
	CHECK_INT(db_schema_version(db), db_schema_latest());
	CHECK_INT(db_run_abort(db, run3, "recording result: the disk is full (at x)", err, sizeof err),
		  0);
	/* db's connection has foreign keys on again after migrating. */
	put_result(db, run3, &c, STATUS_PASS, OUTCOME_CORRECT, "", 3, 0, 0);
	{
		struct result r;
		memset(&r, 0, sizeof r);
		r.c = &c;
		CHECK_INT(db_result_insert(db, 9998, &r, err, sizeof err), -1);
		CHECK_CONTAINS(err, "FOREIGN KEY");
	}
	db_close(db);

	h = raw_open(path);
	if (!h)
		return;
	CHECK(has_column(h, "runs", "reason"));
	CHECK_STR(raw_text(h, "SELECT group_concat(id || ' ' || state || ' ' || coalesce(passed, '-') "
			      "|| ' ' || coalesce(device_id, '-') || ' ' || seed || ' ' || host, ', ') "
			      "FROM (SELECT * FROM runs ORDER BY id)", buf, sizeof buf),
		  "1 complete 3 1 42 testhost, 2 interrupted 0 - 42 testhost, 3 aborted - - 42 testhost");
	CHECK_STR(raw_text(h, "SELECT reason FROM runs WHERE id = 3", buf, sizeof buf),
		  "recording result: the disk is full (at x)");
	CHECK_STR(raw_text(h, "SELECT ended_at IS NOT NULL FROM runs WHERE id = 3", buf, sizeof buf),
		  "1");
	CHECK_STR(raw_text(h, "SELECT group_concat(run_id, ' ') FROM (SELECT run_id FROM results "
			      "ORDER BY id)", buf, sizeof buf), "1 1 1 2 3 9999 3");
	CHECK_STR(raw_text(h, "SELECT \"table\" FROM pragma_foreign_key_list('results')", buf,
			   sizeof buf), "runs");
	CHECK_INT(raw_exec(h, "PRAGMA foreign_keys = ON"), SQLITE_OK);
	CHECK_INT(raw_exec(h, "DELETE FROM runs WHERE id = 1"), SQLITE_OK);
	CHECK_INT(raw_int(h, "SELECT count(*) FROM results WHERE run_id = 1"), 0);
	CHECK_INT(raw_int(h, "SELECT count(*) FROM results"), 4);
	sqlite3_close(h);
}

/* Migrations 5 and 6: a version-4 database keeps its timed results, whose
 * robust columns are NULL (read as missing: no interval, no noise verdict,
 * timed by events);
 * a timed result stored after them brings its interval, spread, noise_met,
 * throttled and timer back, from the TUI's reads, a tune's resume and
 * best_configs. */
static void test_migration_5(void)
{
	char path[PATH_MAX], buf[128];
	struct db *db = NULL;
	struct gpu_info g = mkgpu("NVIDIA H100 80GB HBM3", "GPU-5");
	struct case_spec old = mkcase("device.v.sum.f32.n1024", "device.v", DTYPE_F32, 1024, 0,
				      "block=128,op=sum", EXPECT_PASS);
	struct case_spec c = mkcase("device.v.sum.f32.n1024", "device.v", DTYPE_F32, 1024, 0,
				    "block=256,op=sum", EXPECT_PASS);
	struct run_info ri = plain_run;
	int64_t dev = 0, run1 = 0, run2 = 0;
	sqlite3 *h;

	path_in(path, sizeof path, "v4.db");
	CHECK_INT(db_open_at_version(path, 4, &db, err, sizeof err), 0);
	if (!db)
		return;
	CHECK_INT(db_device_upsert(db, &g, &dev, err, sizeof err), 0);
	ri.device_id = dev;
	CHECK_INT(old_run_begin(db, &ri, &run1), 0);
	put_old_result(db, run1, &old, "PASS", "completed-correct", 0.5);
	/* The host-timed family's old results were never timed by events. */
	struct case_spec host_old = mkcase("harness.spin.f32.n1024", "harness.spin", DTYPE_F32, 1024, 0,
					   "block=128,op=sum", EXPECT_PASS);
	put_old_result(db, run1, &host_old, "PASS", "completed-correct", 0.25);
	put_old_result(db, run1, &host_old, "FAIL", "completed-wrong", 0);
	db_close(db);
	db = NULL;
	h = raw_open(path);
	if (!h)
		return;
	CHECK(!has_column(h, "results", "spread"));
	sqlite3_close(h);

	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	if (!db) {
		fprintf(stderr, "migration 5: %s\n", err);
		return;
	}
	CHECK_INT(db_schema_version(db), db_schema_latest());
	CHECK_INT(db_run_begin(db, &ri, &run2, err, sizeof err), 0);
	struct result r;
	memset(&r, 0, sizeof r);
	r.c = &c;
	r.status = STATUS_PASS;
	r.outcome = OUTCOME_CORRECT;
	r.err_norm = 0;
	r.timing = (struct timing_stats){.samples = 40, .median_ms = 0.25, .mean_ms = 0.26,
					 .stddev_ms = 0.01, .min_ms = 0.24, .noise = 0.04,
					 .ci_low_ms = 0.248, .ci_high_ms = 0.253, .spread = 0.01,
					 .noise_met = 0, .throttled = 3, .timer = TIMER_CUPTI,
					 .bytes = 4096};
	CHECK_INT(db_result_insert(db, run2, &r, err, sizeof err), 0);

	struct db_result_row *rows = NULL;
	size_t n = 0;
	CHECK_INT(db_run_results(db, run1, &rows, &n, err, sizeof err), 0);
	CHECK_INT(n, 3);
	if (n == 3) {
		CHECK_NEAR(rows[0].median_ms, 0.5, 0);
		CHECK(isnan(rows[0].robust.spread) && isnan(rows[0].robust.ci_high_ms));
		CHECK_INT(rows[0].robust.noise_met, -1);
		CHECK_INT(rows[0].robust.timer, TIMER_EVENTS);
		CHECK_INT(rows[1].robust.timer, TIMER_HOST);
		CHECK_INT(rows[2].robust.timer, TIMER_NONE);
	}
	free(rows);
	CHECK_INT(db_run_results(db, run2, &rows, &n, err, sizeof err), 0);
	CHECK_INT(n, 1);
	if (n == 1) {
		CHECK_NEAR(rows[0].robust.ci_low_ms, 0.248, 0);
		CHECK_NEAR(rows[0].robust.ci_high_ms, 0.253, 0);
		CHECK_NEAR(rows[0].robust.spread, 0.01, 0);
		CHECK_INT(rows[0].robust.noise_met, 0);
		CHECK_INT(rows[0].robust.throttled, 3);
	}
	free(rows);

	struct db_tuned_key k = {.device_id = dev, .git_revision = plain_run.git_revision,
				 .variant = "device.v", .dtype = DTYPE_F32, .n = 1024,
				 .params = "block=256,op=sum"};
	struct result back;
	memset(&back, 0, sizeof back);
	CHECK_INT(db_tuned_find(db, &k, &back, err, sizeof err), 1);
	CHECK_NEAR(back.timing.ci_low_ms, 0.248, 0);
	CHECK_NEAR(back.timing.ci_high_ms, 0.253, 0);
	CHECK_NEAR(back.timing.spread, 0.01, 0);
	CHECK_INT(back.timing.noise_met, 0);
	CHECK_INT(back.timing.throttled, 3);
	CHECK_INT(back.timing.timer, TIMER_CUPTI);
	k.params = "block=128,op=sum";
	CHECK_INT(db_tuned_find(db, &k, &back, err, sizeof err), 1);
	CHECK(isnan(back.timing.ci_low_ms));
	CHECK(isnan(back.timing.ci_high_ms));
	CHECK_INT(back.timing.noise_met, -1);
	CHECK_INT(back.timing.timer, TIMER_EVENTS);
	struct db_tuned_query q = {.pattern = "device.v"};
	struct db_tuned_row best = {0};
	CHECK_INT(db_best_each(db, &q, keep_tuned_row, &best, err, sizeof err), 0);
	CHECK_STR(best.params, "block=256,op=sum");
	CHECK_NEAR(best.robust.ci_high_ms, 0.253, 0);
	CHECK_INT(best.robust.noise_met, 0);
	CHECK_INT(best.robust.throttled, 3);
	CHECK_INT(best.robust.timer, TIMER_CUPTI);
	db_close(db);

	h = raw_open(path);
	if (!h)
		return;
	CHECK_STR(raw_text(h, "SELECT group_concat(coalesce(spread, '-') || ' ' || "
			      "coalesce(noise_met, '-') || ' ' || coalesce(throttled, '-') || ' ' || "
			      "coalesce(timer, '-'), ', ') "
			      "FROM (SELECT * FROM results ORDER BY id)", buf, sizeof buf),
		  "- - - events, - - - host, - - - -, 0.01 0 3 cupti");
	sqlite3_close(h);
}

/* Migration 7: runs stored before it get their kind from their command
 * line (as conform tune, bench and the interface wrote it), and a run
 * begun after it keeps the kind and tag it was given. */
static void test_migration_7(void)
{
	char path[PATH_MAX], buf[256];
	struct db *db = NULL;
	struct run_info ri = plain_run;
	const char *lines[] = {"--all -v --seed 1", "tune --n 2^20 --dtype f32 device.atomic",
			       "bench --strategy anneal --budget 27", "conform tui: sweep of 1 variant, f32, seed 1",
			       "conform tui: tune of 2 variants, f32, seed 1", "conform tui --seed 3: a.b"};
	int64_t id = 0;
	struct db_run_row row;

	path_in(path, sizeof path, "v6.db");
	CHECK_INT(db_open_at_version(path, 6, &db, err, sizeof err), 0);
	if (!db)
		return;
	for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
		/* As a build before migration 7 recorded a run. */
		char *sql = sqlite3_mprintf("INSERT INTO runs (started_at, state, command_line) "
					    "VALUES ('2026-01-01T00:00:00Z', 'complete', %Q)", lines[i]);
		CHECK_INT(raw_exec(db->h, sql), SQLITE_OK);
		sqlite3_free(sql);
	}
	db_close(db);
	db = NULL;
	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	if (!db)
		return;
	sqlite3 *h = raw_open(path);
	if (h) {
		CHECK_STR(raw_text(h, "SELECT group_concat(kind || ':' || coalesce(tag, '-'), ' ') "
				      "FROM (SELECT * FROM runs ORDER BY id)", buf, sizeof buf),
			  "conformance:- tune:- bench:- sweep:- tune:- conformance:-");
		sqlite3_close(h);
	}
	ri.command_line = "bench --tag x";
	ri.kind = RUN_BENCH;
	ri.tag = "release/1.2";
	CHECK_INT(db_run_begin(db, &ri, &id, err, sizeof err), 0);
	CHECK_INT(db_run_read(db, id, &row, err, sizeof err), 1);
	CHECK_INT(row.kind, RUN_BENCH);
	CHECK_STR(row.tag, "release/1.2");
	ri.kind = RUN_SWEEP;
	ri.tag = NULL;
	CHECK_INT(db_run_begin(db, &ri, &id, err, sizeof err), 0);
	CHECK_INT(db_run_read(db, id, &row, err, sizeof err), 1);
	CHECK_INT(row.kind, RUN_SWEEP);
	CHECK_STR(row.tag, "");
	db_close(db);
}

/* A run for test_migration_8: begun with the given kind, tag, build and
 * device, ended in `state` (NULL: left running, as after kill -9). */
static int64_t views_run(struct db *db, enum run_kind kind, const char *tag, const char *rev,
			 int64_t dev, const char *state)
{
	struct run_info ri = plain_run;
	int64_t id = 0;

	ri.kind = kind;
	ri.tag = tag;
	ri.git_revision = rev;
	ri.device_id = dev;
	CHECK_INT(db_run_begin(db, &ri, &id, err, sizeof err), 0);
	if (state)
		CHECK_INT(db_run_end(db, id, state, 0, 0, 0, err, sizeof err), 0);
	return id;
}

/* Migration 9: a result stored before it has no source; a user kernel's
 * result keeps its source hash, and a tune reuses a measurement only of the
 * same source, so an edited file is measured again. */
static void test_migration_9(void)
{
	char path[PATH_MAX], buf[128];
	struct db *db = NULL;
	int64_t run = 0;
	struct case_spec old = mkcase("x.a.f32", "x.v", DTYPE_F32, 64, 0, "op=sum", EXPECT_PASS);
	struct case_spec user = mkcase("user.k.sum.f32.n64", "user.k", DTYPE_F32, 64, 0, "block=256,op=sum",
				       EXPECT_PASS);
	const char *hash = "1e4f0c5b2a7d9e8f1e4f0c5b2a7d9e8f1e4f0c5b2a7d9e8f1e4f0c5b2a7d9e8f";

	path_in(path, sizeof path, "v8.db");
	CHECK_INT(db_open_at_version(path, 8, &db, err, sizeof err), 0);
	if (!db)
		return;
	CHECK_INT(old_run_begin(db, &plain_run, &run), 0);
	put_old_result(db, run, &old, "PASS", "completed-correct", 0.5);
	db_close(db);
	db = NULL;
	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	if (!db)
		return;
	CHECK_INT(db_schema_version(db), db_schema_latest());
	sqlite3 *h = raw_open(path);
	if (h) {
		CHECK_STR(raw_text(h, "SELECT coalesce(source, 'NULL') FROM results", buf, sizeof buf), "NULL");
		sqlite3_close(h);
	}
	CHECK_INT(db_run_begin(db, &plain_run, &run, err, sizeof err), 0);
	put_source = hash;
	put_result(db, run, &user, STATUS_PASS, OUTCOME_CORRECT, "", 1, 0.25, 1e6);
	put_source = NULL;
	struct db_tuned_key k = {.git_revision = plain_run.git_revision, .variant = "user.k",
				 .dtype = DTYPE_F32, .n = 64, .params = "block=256,op=sum", .source = hash};
	struct result back;
	memset(&back, 0, sizeof back);
	CHECK_INT(db_tuned_find(db, &k, &back, err, sizeof err), 1);
	CHECK_NEAR(back.timing.median_ms, 0.25, 0);
	k.source = "0000000000000000000000000000000000000000000000000000000000000000";
	CHECK_INT(db_tuned_find(db, &k, &back, err, sizeof err), 0);
	k.source = NULL;
	CHECK_INT(db_tuned_find(db, &k, &back, err, sizeof err), 0);
	struct db_tuned_query q = {.pattern = "user.k"};
	struct db_tuned_row row = {0};
	CHECK_INT(db_history_each(db, &q, keep_tuned_row, &row, err, sizeof err), 0);
	CHECK_STR(row.source, hash);
	db_close(db);
}

/* Migration 8: a database with conformance runs on two GPUs and the host,
 * over two builds, a tune run, a run left running, statuses that change
 * and cases that flake, has the views for scripts, and each view holds
 * exactly the rows it should.  Migration 8 only adds views, so the rows are
 * written at the latest version (db_result_insert writes its columns).  Rows are "device:..." with '-' for
 * NULL; run ids are 1 to 9 in the order begun. */
static void test_migration_8(void)
{
	char path[PATH_MAX], buf[1024];
	struct db *db = NULL;
	struct gpu_info ga = mkgpu("GPU A", "GPU-views-a"), gb = mkgpu("GPU B", "GPU-views-b");
	struct case_spec a = mkcase("x.a.f32", "x.v", DTYPE_F32, 64, 0, "op=sum", EXPECT_PASS);
	struct case_spec b = mkcase("x.b.f32", "x.v", DTYPE_F32, 64, 0, "op=sum", EXPECT_PASS);
	struct case_spec c = mkcase("x.c.f32", "x.v", DTYPE_F32, 64, 0, "op=sum", EXPECT_PASS);
	/* The tuner stores each configuration under the case's name. */
	struct case_spec c64 = mkcase("x.c.f32", "x.v", DTYPE_F32, 64, 0, "block=64,op=sum", EXPECT_PASS);
	struct case_spec c128 = mkcase("x.c.f32", "x.v", DTYPE_F32, 64, 0, "block=128,op=sum", EXPECT_PASS);
	struct case_spec c256 = mkcase("x.c.f32", "x.v", DTYPE_F32, 64, 0, "block=256,op=sum", EXPECT_PASS);
	const enum status P = STATUS_PASS, F = STATUS_FAIL;
	const enum outcome ok = OUTCOME_CORRECT, wrong = OUTCOME_WRONG;
	int64_t da = 0, dbb = 0, r;
	sqlite3 *h;

	CHECK_INT(db_schema_latest(), 14);
	path_in(path, sizeof path, "v7.db");
	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	if (!db)
		return;
	CHECK_INT(db_device_upsert(db, &ga, &da, err, sizeof err), 0);
	CHECK_INT(db_device_upsert(db, &gb, &dbb, err, sizeof err), 0);
	CHECK_INT(da, 1);
	CHECK_INT(dbb, 2);

	r = views_run(db, RUN_CONFORMANCE, NULL, "r1", da, "complete");		/* 1 */
	put_result(db, r, &a, P, ok, "", 1, 0, 0);
	put_result(db, r, &b, P, ok, "", 1, 0, 0);
	put_result(db, r, &c, F, wrong, "", 1, 0, 0);
	r = views_run(db, RUN_CONFORMANCE, "nightly", "r1", da, "complete");	/* 2 */
	put_result(db, r, &a, P, ok, "", 1, 0, 0);
	put_result(db, r, &b, F, wrong, "", 1, 0, 0);	/* flaky: PASS in run 1, same build */
	put_result(db, r, &c, F, wrong, "", 1, 0, 0);
	r = views_run(db, RUN_CONFORMANCE, NULL, "r1", dbb, "complete");	/* 3 */
	put_result(db, r, &a, F, wrong, "", 1, 0, 0);
	put_result(db, r, &b, P, ok, "", 1, 0, 0);
	r = views_run(db, RUN_CONFORMANCE, NULL, "r2", da, NULL);		/* 4: killed */
	put_result(db, r, &a, STATUS_CRASH, OUTCOME_CRASHED, "", 1, 0, 0);
	r = views_run(db, RUN_CONFORMANCE, NULL, "r2", da, "interrupted");	/* 5 */
	put_result(db, r, &a, P, ok, "", 1, 0, 0);
	put_result(db, r, &c, P, ok, "", 1, 0, 0);
	r = views_run(db, RUN_TUNE, "t", "r2", da, "complete");		/* 6 */
	put_result(db, r, &c64, F, wrong, "", 1, 0, 0);	/* wrong: not timed */
	put_result(db, r, &c128, P, ok, "", 1, 2.0, 1e6);
	put_result(db, r, &c256, P, ok, "", 1, 1.5, 1e6);
	r = views_run(db, RUN_CONFORMANCE, NULL, "r1", dbb, "complete");	/* 7 */
	put_result(db, r, &a, P, ok, "", 1, 0, 0);
	put_result(db, r, &b, P, ok, "", 1, 0, 0);
	put_result(db, r, &c, P, ok, "", 1, 0, 0);
	r = views_run(db, RUN_CONFORMANCE, NULL, "", 0, "complete");		/* 8: host, unknown build */
	put_result(db, r, &a, P, ok, "", 1, 0, 0);
	r = views_run(db, RUN_CONFORMANCE, NULL, "", 0, "complete");		/* 9 */
	put_result(db, r, &a, F, wrong, "", 1, 0, 0);
	db_close(db);
	db = NULL;

	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	if (!db)
		return;
	CHECK_INT(db_schema_version(db), db_schema_latest());
	db_close(db);
	h = raw_open(path);
	if (!h)
		return;

	/* The newest per device and case: the tune run's last configuration
	 * for x.c.f32 on A, the run left running is older than run 5. */
	CHECK_STR(raw_text(h, "SELECT group_concat(coalesce(device_id, '-') || ':' || case_name || ':' || "
			      "run_id || ':' || status || ':' || kind || ':' || coalesce(tag, '-') || ':' || "
			      "coalesce(git_revision, '-') || ':' || params, ' ') FROM (SELECT * FROM "
			      "latest_results ORDER BY device_id, case_name)", buf, sizeof buf),
		  "-:x.a.f32:9:FAIL:conformance:-:-:op=sum "
		  "1:x.a.f32:5:PASS:conformance:-:r2:op=sum "
		  "1:x.b.f32:2:FAIL:conformance:nightly:r1:op=sum "
		  "1:x.c.f32:6:PASS:tune:t:r2:block=256,op=sum "
		  "2:x.a.f32:7:PASS:conformance:-:r1:op=sum "
		  "2:x.b.f32:7:PASS:conformance:-:r1:op=sum "
		  "2:x.c.f32:7:PASS:conformance:-:r1:op=sum");
	CHECK_INT(raw_int(h, "SELECT count(*) FROM latest_results l JOIN results r ON r.id = l.result_id "
			     "WHERE r.case_name = l.case_name AND r.run_id = l.run_id"), 7);

	/* Pairs A 1-2 and 2-5 (4 is still running), B 3-7, the host 8-9;
	 * the tune run pairs with nothing; x.a.f32 in 2-5 did not change. */
	CHECK_STR(raw_text(h, "SELECT group_concat(coalesce(device_id, '-') || ':' || run_before || '>' || "
			      "run_after || ':' || case_name || ':' || coalesce(status_before, '-') || '>' || "
			      "coalesce(status_after, '-') || ':' || coalesce(observed_before, '-') || '>' || "
			      "coalesce(observed_after, '-'), ' ') FROM status_changes", buf, sizeof buf),
		  "1:1>2:x.b.f32:PASS>FAIL:completed-correct>completed-wrong "
		  "1:2>5:x.b.f32:FAIL>-:completed-wrong>- "
		  "1:2>5:x.c.f32:FAIL>PASS:completed-wrong>completed-correct "
		  "2:3>7:x.a.f32:FAIL>PASS:completed-wrong>completed-correct "
		  "2:3>7:x.c.f32:->PASS:->completed-correct "
		  "-:8>9:x.a.f32:PASS>FAIL:completed-correct>completed-wrong");
	CHECK_STR(raw_text(h, "SELECT group_concat(case_name, ' ') FROM status_changes WHERE run_after = "
			      "(SELECT max(id) FROM runs WHERE kind = 'conformance' AND device_id = 1)",
			      buf, sizeof buf),
		  "x.b.f32 x.c.f32");

	/* The two timed configurations of the tune run, nothing else. */
	CHECK_STR(raw_text(h, "SELECT group_concat(device_id || ':' || variant || ':' || dtype || ':' || op || "
			      "':' || n || ':' || cols || ':' || params || ':' || run_id || ':' || kind || ':' || "
			      "tag || ':' || git_revision || ':' || median_ms || ':' || samples || ':' || "
			      "(started_at IS NOT NULL), ' ') FROM config_timing", buf, sizeof buf),
		  "1:x.v:f32:sum:64:0:block=128,op=sum:6:tune:t:r2:2.0:10:1 "
		  "1:x.v:f32:sum:64:0:block=256,op=sum:6:tune:t:r2:1.5:10:1");
	/* Migration 14's columns are there, NULL where nothing was measured
	 * (never 0). */
	CHECK_INT(raw_int(h, "SELECT count(*) FROM config_timing WHERE energy_j IS NULL AND power_w IS NULL "
			     "AND energy_uncertainty IS NULL AND sm_mhz IS NULL AND mem_mhz IS NULL "
			     "AND throttle_reasons IS NULL"), 2);
	CHECK_INT(raw_int(h, "SELECT count(*) FROM results WHERE energy_j = 0 OR power_w = 0 "
			     "OR power_sampled_w = 0 OR energy_launches = 0 OR sm_mhz = 0"), 0);

	/* x.b.f32 on A in build r1; x.a.f32 on A in r2 (the killed run's
	 * CRASH counts, its results are real); x.a.f32 on B in r1.  Not the
	 * tune run's wrong configuration of x.c.f32, not the host's runs of
	 * an unknown build. */
	CHECK_STR(raw_text(h, "SELECT group_concat(device_id || ':' || git_revision || ':' || case_name || ':' || "
			      "runs || ':' || statuses || ':' || first_run || '-' || last_run, ' ') FROM "
			      "(SELECT * FROM flaky_cases ORDER BY device_id, git_revision, case_name)",
			      buf, sizeof buf),
		  "1:r1:x.b.f32:2:PASS,FAIL:1-2 "
		  "1:r2:x.a.f32:2:PASS,CRASH:4-5 "
		  "2:r1:x.a.f32:2:PASS,FAIL:3-7");
	sqlite3_close(h);
}

int main(void)
{
	if (db_fixture_begin("db-migrate") != 0)
		return 1;
	test_migration();
	test_migration_3();
	test_migration_4();
	test_migration_5();
	test_migration_7();
	test_migration_8();
	test_migration_9();
	db_fixture_end(&test_checks, &test_failures);
	return TEST_END();
}
