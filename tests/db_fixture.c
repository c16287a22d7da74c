/*
 * db_fixture.c - what the database tests share (see db_fixture.h).
 */
#if !defined(_GNU_SOURCE) && !defined(_XOPEN_SOURCE)
#define _XOPEN_SOURCE 700
#endif

#include "tests/db_fixture.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "db/db_internal.h" /* the connection itself (old_run_begin) */
#include "tests/test.h"

char tmpdir[1024];
char err[1024];

void path_in(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", tmpdir, name);
}

double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Whether a call that met a lock gave up after the store's one busy
 * timeout: not at once, and not long after. */
int waited_the_timeout(double ms)
{
	return ms >= DB_BUSY_TIMEOUT_MS / 2 && ms < DB_BUSY_TIMEOUT_MS + 3000;
}

int one_line(const char *s)
{
	return s[0] != '\0' && !strchr(s, '\n');
}

int write_file(const char *path, const void *buf, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	size_t w = fwrite(buf, 1, n, f);
	return fclose(f) == 0 && w == n ? 0 : -1;
}

/* The whole file, malloc'd; NULL if unreadable. */
unsigned char *read_file(const char *path, size_t *n)
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

int exists(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0;
}

sqlite3 *raw_open(const char *path)
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

int raw_exec(sqlite3 *h, const char *sql)
{
	char *msg = NULL;
	int rc = sqlite3_exec(h, sql, NULL, NULL, &msg);
	if (rc != SQLITE_OK)
		fprintf(stderr, "raw exec \"%s\": %s\n", sql, msg ? msg : "?");
	sqlite3_free(msg);
	return rc;
}

/* First column of the first row as an integer; -999 when no row or error. */
long long raw_int(sqlite3 *h, const char *sql)
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
const char *raw_text(sqlite3 *h, const char *sql, char *buf, size_t len)
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

struct case_spec mkcase(const char *name, const char *variant, enum dtype d, int64_t n,
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

struct gpu_info mkgpu(const char *name, const char *uuid)
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

const struct run_info plain_run = {
	.host = "testhost", .version = "0.0-test", .git_revision = "",
	.command_line = "conform --suite x", .seed = 42, .device_id = 0,
};

/* The results of a run counted per status (index: enum status) from its
 * listing, the read the interface shows a run by (db_run_results).
 * Returns 0, or -1 with err filled. */
int status_counts(struct db *db, int64_t run, int counts[STATUS_COUNT])
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

const char *put_source;

void put_result(struct db *db, int64_t run, const struct case_spec *c, enum status st,
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
int old_run_begin(struct db *db, const struct run_info *ri, int64_t *id)
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

/* `open` on `path` must fail with `want` in the message and leave the file
 * exactly as it was, with no journal, -wal or -shm beside it. */
void expect_refused_by(db_opener open, const char *path, const char *want)
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

void expect_refused(const char *path, const char *want)
{
	expect_refused_by(db_open, path, want);
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb, (void)flag, (void)ftw;
	return remove(path);
}

int db_fixture_begin(const char *name)
{
	const char *base = getenv("TMPDIR");

	if (!base || !*base || strlen(base) > sizeof tmpdir - 64)
		base = "/tmp";
	snprintf(tmpdir, sizeof tmpdir, "%s/conform-test-%s.XXXXXX", base, name);
	if (!mkdtemp(tmpdir)) {
		fprintf(stderr, "mkdtemp %s: %s\n", tmpdir, strerror(errno));
		return -1;
	}
	return 0;
}

void db_fixture_end(int *checks, int *failures)
{
	if (nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS) != 0)
		fprintf(stderr, "cleaning %s: %s\n", tmpdir, strerror(errno));
	*checks += test_checks;
	*failures += test_failures;
}
