/*
 * test_db.c - the SQLite store: round trips, what the TUI reads back, WAL,
 * migration, locking, and refusal of files that are not (or not our)
 * databases.
 *
 * Everything happens in a fresh directory under $TMPDIR (else /tmp), removed
 * at the end.  What the store wrote is read back through a separate raw
 * sqlite3 connection, so the test checks the file, not the store's view of
 * it; the store's own reads (db_read.c, what the TUI shows) are then checked
 * against rows of known content and order.  Files that must be refused are
 * compared byte for byte before and after.
 */
#if !defined(_GNU_SOURCE) && !defined(_XOPEN_SOURCE)
#define _XOPEN_SOURCE 700
#endif

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db/db.h"
#include "db/db_internal.h" /* the connection itself, to cap its size (test_aborted) */
#include "report/report.h"
#include "session/db_sink.h"
#include "tests/test.h"

/* The store names dtypes through dtype_name(); this stand-in lets the test link
 * without dtype.c and gives way to the real one when that is linked. */
__attribute__((weak)) const char *dtype_name(enum dtype d)
{
	static const char *const names[DTYPE_COUNT] = { "f32", "f64", "i32", "u32", "bf16" };
	return (unsigned)d < DTYPE_COUNT ? names[d] : "?";
}

static char tmpdir[1024]; /* short, so every path built from it fits */
static char err[1024];

static void path_in(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", tmpdir, name);
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Whether a call that met a lock gave up after the store's one busy
 * timeout: not at once, and not long after. */
static int waited_the_timeout(double ms)
{
	return ms >= DB_BUSY_TIMEOUT_MS / 2 && ms < DB_BUSY_TIMEOUT_MS + 3000;
}

static int one_line(const char *s)
{
	return s[0] != '\0' && !strchr(s, '\n');
}

static int ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), e = strlen(end);
	return n >= e && strcmp(s + n - e, end) == 0;
}

static int write_file(const char *path, const void *buf, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	size_t w = fwrite(buf, 1, n, f);
	return fclose(f) == 0 && w == n ? 0 : -1;
}

/* The whole file, malloc'd; NULL if unreadable. */
static unsigned char *read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, got = 0, r;

	if (!f)
		return NULL;
	do {
		if (got == cap) {
			unsigned char *nb = realloc(buf, cap = cap ? 2 * cap : 65536);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		r = fread(buf + got, 1, cap - got, f);
		got += r;
	} while (r > 0);
	fclose(f);
	*n = got;
	return buf;
}

static int exists(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0;
}

static sqlite3 *raw_open(const char *path)
{
	sqlite3 *h = NULL;
	if (sqlite3_open(path, &h) != SQLITE_OK) {
		fprintf(stderr, "raw open %s: %s\n", path, sqlite3_errmsg(h));
		sqlite3_close(h);
		return NULL;
	}
	sqlite3_busy_timeout(h, 2000);
	return h;
}

static int raw_exec(sqlite3 *h, const char *sql)
{
	char *msg = NULL;
	int rc = sqlite3_exec(h, sql, NULL, NULL, &msg);
	if (rc != SQLITE_OK)
		fprintf(stderr, "raw exec \"%s\": %s\n", sql, msg ? msg : "?");
	sqlite3_free(msg);
	return rc;
}

/* First column of the first row as an integer; -999 when no row or error. */
static long long raw_int(sqlite3 *h, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -999;

	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "raw query \"%s\": %s\n", sql, sqlite3_errmsg(h));
		return v;
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* First column of the first row as text into buf; "(none)" when no row,
 * "(null)" for NULL. */
static const char *raw_text(sqlite3 *h, const char *sql, char *buf, size_t len)
{
	sqlite3_stmt *st;

	snprintf(buf, len, "(none)");
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "raw query \"%s\": %s\n", sql, sqlite3_errmsg(h));
		return buf;
	}
	if (sqlite3_step(st) == SQLITE_ROW) {
		const unsigned char *t = sqlite3_column_text(st, 0);
		snprintf(buf, len, "%s", t ? (const char *)t : "(null)");
	}
	sqlite3_finalize(st);
	return buf;
}

static int has_column(sqlite3 *h, const char *table, const char *column)
{
	char sql[128];
	snprintf(sql, sizeof sql, "SELECT count(*) FROM pragma_table_info('%s') WHERE name = '%s'",
		 table, column);
	return raw_int(h, sql) == 1;
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb, (void)flag, (void)ftw;
	return remove(path);
}

static struct case_spec mkcase(const char *name, const char *variant, enum dtype d, int64_t n,
			       int64_t cols, const char *params, enum expect e)
{
	struct case_spec c;
	memset(&c, 0, sizeof c);
	snprintf(c.name, sizeof c.name, "%s", name);
	snprintf(c.variant, sizeof c.variant, "%s", variant);
	snprintf(c.params, sizeof c.params, "%s", params);
	c.dtype = d;
	c.n = n;
	c.cols = cols;
	c.expect = e;
	return c;
}

static struct gpu_info mkgpu(const char *name, const char *uuid)
{
	struct gpu_info g;
	memset(&g, 0, sizeof g);
	snprintf(g.name, sizeof g.name, "%s", name);
	snprintf(g.uuid, sizeof g.uuid, "%s", uuid);
	g.cc_major = 9;
	g.cc_minor = 0;
	g.sm_count = 132;
	g.memory_bytes = 85520809984LL;
	g.driver_version = 13000;
	g.runtime_version = 12080;
	return g;
}

static const struct run_info plain_run = {
	.host = "testhost", .version = "0.0-test", .git_revision = "",
	.command_line = "conform --suite x", .seed = 42, .device_id = 0,
};

/* The results of a run counted per status (index: enum status) from its
 * listing, the read the interface shows a run by (db_run_results).
 * Returns 0, or -1 with err filled. */
static int status_counts(struct db *db, int64_t run, int counts[STATUS_COUNT])
{
	struct db_result_row *rows = NULL;
	size_t n = 0;

	memset(counts, 0, STATUS_COUNT * sizeof *counts);
	if (db_run_results(db, run, &rows, &n, err, sizeof err) != 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if ((unsigned)rows[i].status < STATUS_COUNT)
			counts[rows[i].status]++;
	free(rows);
	return 0;
}

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

/* Stores one result of case c in run `run`; timed when median_ms > 0, its
 * bandwidth then bytes / median. */
/* The source hash put_result stores (NULL: a built-in variant's). */
static const char *put_source;

static void put_result(struct db *db, int64_t run, const struct case_spec *c, enum status st,
		       enum outcome o, const char *message, uint64_t seed, double median_ms,
		       double bytes)
{
	struct result r;

	memset(&r, 0, sizeof r);
	r.c = c;
	r.source = put_source;
	r.status = st;
	r.outcome = o;
	r.seed = seed;
	r.err_norm = st == STATUS_PASS ? 1.5e-7 : -1;
	r.duration_s = 0.25;
	snprintf(r.message, sizeof r.message, "%s", message);
	if (median_ms > 0) {
		r.timing.samples = 10;
		r.timing.median_ms = median_ms;
		r.timing.mean_ms = median_ms * 1.05;
		r.timing.stddev_ms = median_ms * 0.05;
		r.timing.min_ms = median_ms * 0.95;
		r.timing.noise = 0.05;
		r.timing.bytes = bytes;
	}
	CHECK_INT(db_result_insert(db, run, &r, err, sizeof err), 0);
}

/* A run as a build before migration 7 began one (db_run_begin writes the
 * latest columns), for databases opened at an older version. */
static int old_run_begin(struct db *db, const struct run_info *ri, int64_t *id)
{
	char *sql = sqlite3_mprintf(
		"INSERT INTO runs (started_at, state, host, conform_version, git_revision, "
		"command_line, seed, device_id) VALUES ('2025-01-31T14:05:00Z', 'running', %Q, %Q, "
		"nullif(%Q, ''), %Q, '%llu', nullif(%lld, 0))",
		ri->host, ri->version, ri->git_revision, ri->command_line,
		(unsigned long long)ri->seed, (long long)ri->device_id);
	int rc = raw_exec(db->h, sql);
	sqlite3_free(sql);
	*id = sqlite3_last_insert_rowid(db->h);
	return rc == SQLITE_OK ? 0 : -1;
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

/* What the TUI reads back: runs in order and their headers, the results of
 * a run field by field and in recording order, the newest result of a case,
 * the plot's points in order; results written on another connection are
 * seen; a failed read says where and why and leaves nothing allocated. */
static void test_reads(void)
{
	char path[PATH_MAX];
	struct db *db = NULL, *other = NULL;
	struct gpu_info g = mkgpu("NVIDIA H100 80GB HBM3", "GPU-reads");
	struct case_spec tree = mkcase("block.tree.sum.f32.n1000", "block.tree", DTYPE_F32, 1000, 0,
				       "block=256,op=sum", EXPECT_PASS);
	struct case_spec small = mkcase("block.tree.sum.f32.n10", "block.tree", DTYPE_F32, 10, 0,
					"block=256,op=sum", EXPECT_PASS);
	struct case_spec shfl = mkcase("warp.shfl.max.i32.n32", "warp.shfl", DTYPE_I32, 32, 4,
				       "op=max", EXPECT_FAIL);
	struct case_spec v3 = mkcase("device.v3.sum.f32.n4096", "device.v3", DTYPE_F32, 4096, 0,
				     "op=sum", EXPECT_PASS);
	struct run_info ri = plain_run;
	struct db_run_row run, *list = NULL;
	struct db_result_row *rows = NULL, last;
	struct db_point_row *pts = NULL;
	size_t n = 0;
	int64_t dev = 0, run1 = 0, run2 = 0, id = 0;
	sqlite3 *h;

	path_in(path, sizeof path, "reads.db");
	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	if (!db)
		return;

	/* An empty database has nothing to show, and says so without error. */
	CHECK_INT(db_run_latest(db, &id, err, sizeof err), 0);
	CHECK_INT(db_run_read(db, 1, &run, err, sizeof err), 0);
	CHECK_INT(db_run_results(db, 1, &rows, &n, err, sizeof err), 0);
	CHECK(rows == NULL && n == 0);
	CHECK_INT(db_case_last(db, tree.name, &last, err, sizeof err), 0);
	CHECK_INT(db_timed_points(db, &pts, &n, err, sizeof err), 0);
	CHECK(pts == NULL && n == 0);
	CHECK_INT(db_run_list(db, &list, &n, err, sizeof err), 0);
	CHECK(list == NULL && n == 0);

	CHECK_INT(db_device_upsert(db, &g, &dev, err, sizeof err), 0);
	ri.device_id = dev;
	ri.command_line = "conform run --suite reads";
	CHECK_INT(db_run_begin(db, &ri, &run1, err, sizeof err), 0);
	put_result(db, run1, &tree, STATUS_PASS, OUTCOME_CORRECT, "", 7, 2.0, 4e6);
	put_result(db, run1, &shfl, STATUS_XFAIL, OUTCOME_WRONG, "wrong on lane 3", 9, 0, 0);
	put_result(db, run1, &v3, STATUS_PASS, OUTCOME_CORRECT, "", 11, 1.0, 8e6);
	CHECK_INT(db_run_end(db, run1, "complete", 2, 0, 1, err, sizeof err), 0);
	CHECK_INT(db_run_begin(db, &plain_run, &run2, err, sizeof err), 0);
	put_result(db, run2, &tree, STATUS_FAIL, OUTCOME_WRONG, "off by one", 8, 4.0, 4e6);
	/* Written by another conform: the reads must see it. */
	CHECK_INT(db_open(path, &other, err, sizeof err), 0);
	if (other)
		put_result(other, run2, &small, STATUS_PASS, OUTCOME_CORRECT, "", 12, 0.08, 4e4);
	db_close(other);

	/* Runs: newest, and a step either way until there is none. */
	CHECK_INT(db_run_latest(db, &id, err, sizeof err), 1);
	CHECK_INT(id, run2);
	CHECK_INT(db_run_adjacent(db, run2, -1, &id, err, sizeof err), 1);
	CHECK_INT(id, run1);
	CHECK_INT(db_run_adjacent(db, run1, -1, &id, err, sizeof err), 0);
	CHECK_INT(db_run_adjacent(db, run1, 1, &id, err, sizeof err), 1);
	CHECK_INT(id, run2);
	CHECK_INT(db_run_adjacent(db, run2, 1, &id, err, sizeof err), 0);

	CHECK_INT(db_run_read(db, run1, &run, err, sizeof err), 1);
	CHECK_INT(run.id, run1);
	CHECK_STR(run.state, "complete");
	CHECK_INT(run.passed, 2);
	CHECK_INT(run.failed, 0);
	CHECK_INT(run.skipped, 1);
	CHECK_STR(run.command_line, "conform run --suite reads");
	CHECK_STR(run.device, "NVIDIA H100 80GB HBM3");
	CHECK_INT(run.results, 3);
	CHECK(strlen(run.started_at) == 20 && run.started_at[10] == 'T');
	CHECK_INT(db_run_read(db, run2, &run, err, sizeof err), 1);
	CHECK_STR(run.state, "running");
	CHECK(run.passed == -1 && run.failed == -1 && run.skipped == -1);
	CHECK_STR(run.device, "");
	CHECK_INT(run.results, 2);
	CHECK_INT(db_run_read(db, run2 + 1, &run, err, sizeof err), 0);

	/* Every run, newest first, the running one included. */
	CHECK_INT(db_run_list(db, &list, &n, err, sizeof err), 0);
	CHECK_INT(n, 2);
	if (list && n == 2) {
		CHECK_INT(list[0].id, run2);
		CHECK_STR(list[0].state, "running");
		CHECK_INT(list[0].results, 2);
		CHECK_INT(list[1].id, run1);
		CHECK_INT(list[1].passed, 2);
		CHECK_INT(list[1].skipped, 1);
		CHECK_STR(list[1].device, "NVIDIA H100 80GB HBM3");
	}
	free(list);

	/* The results of a run, in the order they were recorded. */
	CHECK_INT(db_run_results(db, run1, &rows, &n, err, sizeof err), 0);
	CHECK_INT(n, 3);
	if (rows && n == 3) {
		const struct db_result_row *a = &rows[0], *b = &rows[1], *c = &rows[2];
		CHECK(a->id < b->id && b->id < c->id);
		CHECK(a->run_id == run1 && b->run_id == run1 && c->run_id == run1);
		CHECK_STR(a->case_name, tree.name);
		CHECK_STR(a->variant, "block.tree");
		CHECK_STR(a->dtype, "f32");
		CHECK_INT(a->n, 1000);
		CHECK_INT(a->cols, 0);
		CHECK_STR(a->params, "block=256,op=sum");
		CHECK_STR(a->expect, "pass");
		CHECK_INT(a->status, STATUS_PASS);
		CHECK_STR(a->observed, "completed-correct");
		CHECK_STR(a->message, "");
		CHECK_STR(a->seed, "7");
		CHECK(strlen(a->created_at) == 20);
		CHECK_NEAR(a->err_norm, 1.5e-7, 1e-12);
		CHECK_NEAR(a->duration_ms, 250, 1e-9);
		CHECK_NEAR(a->median_ms, 2.0, 1e-12);
		CHECK_NEAR(a->gbps, 2.0, 1e-9);
		CHECK_NEAR(a->noise, 0.05, 1e-12);
		CHECK_INT(a->samples, 10);

		CHECK_STR(b->case_name, shfl.name);
		CHECK_STR(b->dtype, "i32");
		CHECK_INT(b->n, 32);
		CHECK_INT(b->cols, 4);
		CHECK_STR(b->expect, "fail");
		CHECK_INT(b->status, STATUS_XFAIL);
		CHECK_STR(b->observed, "completed-wrong");
		CHECK_STR(b->message, "wrong on lane 3");
		CHECK_STR(b->seed, "9");
		CHECK(isnan(b->err_norm));
		CHECK(isnan(b->median_ms) && isnan(b->gbps) && isnan(b->noise));
		CHECK_INT(b->samples, 0);

		CHECK_STR(c->case_name, v3.name);
		CHECK_NEAR(c->gbps, 8.0, 1e-9);
	}
	free(rows);
	rows = NULL;
	CHECK_INT(db_run_results(db, run2 + 1, &rows, &n, err, sizeof err), 0);
	CHECK(rows == NULL && n == 0);

	/* The newest result of a case, whichever run it is in. */
	CHECK_INT(db_case_last(db, tree.name, &last, err, sizeof err), 1);
	CHECK_INT(last.run_id, run2);
	CHECK_INT(last.status, STATUS_FAIL);
	CHECK_STR(last.message, "off by one");
	CHECK_STR(last.seed, "8");
	CHECK_INT(db_case_last(db, shfl.name, &last, err, sizeof err), 1);
	CHECK_INT(last.run_id, run1);
	CHECK_INT(db_case_last(db, "no.such.case", &last, err, sizeof err), 0);

	/* The plot's points: timed only, by variant, dtype, n, cols, then age. */
	CHECK_INT(db_timed_points(db, &pts, &n, err, sizeof err), 0);
	CHECK_INT(n, 4);
	if (pts && n == 4) {
		CHECK_STR(pts[0].variant, "block.tree");
		CHECK_INT(pts[0].n, 10);
		CHECK_INT(pts[0].run_id, run2);
		CHECK_NEAR(pts[0].gbps, 0.5, 1e-9);
		CHECK_INT(pts[1].n, 1000);
		CHECK_INT(pts[1].run_id, run1);
		CHECK_NEAR(pts[1].gbps, 2.0, 1e-9);
		CHECK_INT(pts[2].n, 1000);
		CHECK_INT(pts[2].run_id, run2);
		CHECK_NEAR(pts[2].gbps, 1.0, 1e-9);
		CHECK_STR(pts[3].variant, "device.v3");
		CHECK_STR(pts[3].dtype, "f32");
		CHECK_NEAR(pts[3].gbps, 8.0, 1e-9);
		/* What keeps the plot's shapes, operators and devices apart. */
		CHECK_INT(pts[3].cols, 0);
		CHECK_STR(pts[3].op, "sum");
		CHECK_INT(pts[3].device_id, dev);
	}
	free(pts);
	pts = NULL;

	/* A device's copy bandwidth without naming the copy: only while one
	 * copy variant has measured it there. */
	double gbps = 0;
	struct db_bandwidth bw = {dev, "device.copy", 2e9, 0.7, 3000, "0.1", ""};
	CHECK_INT(db_bandwidth_only(db, dev, &gbps, err, sizeof err), 0);
	CHECK_INT(db_bandwidth_put(db, &bw, err, sizeof err), 0);
	bw.gbps = 3050;
	CHECK_INT(db_bandwidth_put(db, &bw, err, sizeof err), 0);
	CHECK_INT(db_bandwidth_only(db, dev, &gbps, err, sizeof err), 1);
	CHECK_NEAR(gbps, 3050, 1e-9); /* the newest */
	CHECK_INT(db_bandwidth_only(db, 0, &gbps, err, sizeof err), 0); /* another device: none */
	bw.variant = "other.copy";
	CHECK_INT(db_bandwidth_put(db, &bw, err, sizeof err), 0);
	CHECK_INT(db_bandwidth_only(db, dev, &gbps, err, sizeof err), 0);

	/* A read that fails says where and why, and hands back nothing. */
	h = raw_open(path);
	if (h) {
		CHECK_INT(raw_exec(h, "DROP VIEW best_configs; DROP TABLE results"), SQLITE_OK);
		sqlite3_close(h);
	}
	err[0] = '\0';
	CHECK_INT(db_run_results(db, run1, &rows, &n, err, sizeof err), -1);
	CHECK(rows == NULL && n == 0);
	CHECK_CONTAINS(err, path);
	CHECK_CONTAINS(err, "no such table");
	CHECK(one_line(err));
	CHECK_INT(db_timed_points(db, &pts, &n, err, sizeof err), -1);
	CHECK(pts == NULL && n == 0);
	CHECK_INT(db_case_last(db, tree.name, &last, err, sizeof err), -1);
	db_close(db);
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

/* A version-1 database keeps its rows and gains migration 2's columns;
 * a locked one is left at version 1 with a "locked" error. */
static void test_migration(void)
{
	char path[PATH_MAX], buf[64];
	struct db *db = NULL;
	int64_t run = 0;
	sqlite3 *h;
	double t0, dt;

	CHECK_INT(db_schema_latest(), 13);
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

static int keep_tuned_row(void *ctx, const struct db_tuned_row *row)
{
	*(struct db_tuned_row *)ctx = *row;
	return 1;
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
	CHECK_STR(run_kind_name(RUN_CONFORMANCE), "conformance");
	enum run_kind k;
	CHECK_INT(run_kind_parse("sweep", &k), 0);
	CHECK_INT(k, RUN_SWEEP);
	CHECK_INT(run_kind_parse("Sweep", &k), -1);
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

	CHECK_INT(db_schema_latest(), 13);
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

/* A result that cannot be stored for a reason waiting will not cure (here
 * the database at its size limit, SQLITE_FULL as from a full disk): the
 * database sink marks the run aborted with the reason, keeps every result
 * stored before, and fails with one line that says so. */
static void test_aborted(void)
{
	char path[PATH_MAX], buf[512];
	struct db *db = NULL;
	struct db_state st = {0};
	struct run_context rc = { .total = 1000, .seed = 5, .command_line = "conform --all",
				  .host = "test", .version = "0.0-test", .git_revision = "" };
	struct report_sink sink;
	static struct case_spec cases[1000];
	struct db_run_row row;
	int stored = 0, ret = 0;
	sqlite3 *h;

	path_in(path, sizeof path, "full.db");
	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	if (!db)
		return;
	st.db = db;
	db_sink(&sink, &st);
	CHECK_INT(sink.begin(sink.ctx, &rc, err, sizeof err), 0);
	/* The limit is the connection's own: nothing else can set it. */
	{
		char sql[64];
		long long pages = 0;
		int qrc;
		CHECK_INT(db_query_int(db, "PRAGMA page_count", &pages, &qrc), 0);
		snprintf(sql, sizeof sql, "PRAGMA max_page_count = %lld", pages + 3);
		CHECK_INT(sqlite3_exec(db->h, sql, NULL, NULL, NULL), SQLITE_OK);
	}
	for (int i = 0; i < 1000 && ret == 0; i++) {
		struct result r;
		char name[32];
		snprintf(name, sizeof name, "full.case%d", i);
		cases[i] = mkcase(name, "block.tree", DTYPE_F32, 10, 0, "", EXPECT_PASS);
		memset(&r, 0, sizeof r);
		r.c = &cases[i];
		r.status = STATUS_PASS;
		r.outcome = OUTCOME_CORRECT;
		r.err_norm = -1;
		memset(r.message, 'm', 900);
		ret = sink.result(sink.ctx, &r, (size_t)i, 1000, err, sizeof err);
		if (ret == 0)
			stored++;
	}
	CHECK_INT(ret, -1);
	CHECK(stored > 0);
	CHECK_CONTAINS(err, path);
	CHECK_CONTAINS(err, "recording result: the disk is full; run 1 is marked aborted, keeping the "
			    "results stored before full.case");
	CHECK(one_line(err));
	CHECK_INT(db_run_read(db, st.run_id, &row, err, sizeof err), 1);
	CHECK_STR(row.state, "aborted");
	snprintf(buf, sizeof buf, "recording result: the disk is full (at full.case%d)", stored);
	CHECK_STR(row.reason, buf);
	CHECK_INT(row.results, stored);
	db_close(db);

	h = raw_open(path);
	if (!h)
		return;
	CHECK_INT(raw_int(h, "SELECT count(*) FROM results"), stored);
	CHECK_STR(raw_text(h, "SELECT state || ' ' || (ended_at IS NOT NULL) || ' ' || "
			      "coalesce(passed, '-') FROM runs", buf, sizeof buf), "aborted 1 -");
	sqlite3_close(h);
}

typedef int (*db_opener)(const char *path, struct db **out, char *err, size_t len);

/* `open` on `path` must fail with `want` in the message and leave the file
 * exactly as it was, with no journal, -wal or -shm beside it. */
static void expect_refused_by(db_opener open, const char *path, const char *want)
{
	static const char *const sides[] = { "-journal", "-wal", "-shm" };
	struct db *db = NULL;
	unsigned char *before, *after;
	size_t nb = 0, na = 0;
	char side[PATH_MAX + 16];

	before = read_file(path, &nb);
	CHECK(before != NULL);
	err[0] = '\0';
	CHECK_INT(open(path, &db, err, sizeof err), -1);
	CHECK(db == NULL);
	CHECK_CONTAINS(err, want);
	CHECK_CONTAINS(err, path);
	CHECK(one_line(err));
	after = read_file(path, &na);
	CHECK(after != NULL);
	CHECK_INT(na, nb);
	CHECK(before && after && na == nb && memcmp(before, after, nb) == 0);
	for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++) {
		snprintf(side, sizeof side, "%s%s", path, sides[i]);
		CHECK(!exists(side));
	}
	free(before);
	free(after);
	db_close(db);
}

static void expect_refused(const char *path, const char *want)
{
	expect_refused_by(db_open, path, want);
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
	const char *base = getenv("TMPDIR");

	if (!base || !*base || strlen(base) > sizeof tmpdir - 32)
		base = "/tmp";
	snprintf(tmpdir, sizeof tmpdir, "%s/conform-test-db.XXXXXX", base);
	if (!mkdtemp(tmpdir)) {
		fprintf(stderr, "mkdtemp %s: %s\n", tmpdir, strerror(errno));
		return 1;
	}

	test_default_path();
	test_round_trip();
	test_concurrency();
	test_reads();
	test_killed_writer();
	test_migration();
	test_migration_3();
	test_migration_4();
	test_migration_5();
	test_migration_7();
	test_migration_8();
	test_migration_9();
	test_aborted();
	test_refusals();
	test_damaged();
	test_long_paths();
	test_read_only();

	if (nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS) != 0)
		fprintf(stderr, "cleaning %s: %s\n", tmpdir, strerror(errno));
	return TEST_END();
}
