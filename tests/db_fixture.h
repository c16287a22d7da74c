/*
 * db_fixture.h - what the database tests (tests/test_db_*.c) share: a
 * fresh directory for their files, raw sqlite3 access to read back what
 * the store wrote, cases, devices and runs of known content, results
 * stored as this build and as older builds store them, and the check that
 * a refused file is left exactly as it was.
 *
 * A test's main brackets its tests with db_fixture_begin() and
 * db_fixture_end(), which also adds the checks the helpers here made (in
 * this file's copy of tests/test.h's counters) to the test's own.
 */
#ifndef CONFORM_TESTS_DB_FIXTURE_H
#define CONFORM_TESTS_DB_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "db/db.h"

/* The test's directory under $TMPDIR (else /tmp): short, so every path
 * built from it fits.  err takes every call's message. */
extern char tmpdir[1024];
extern char err[1024];

/* Makes tmpdir, named after the test.  Returns 0, or -1 said on stderr. */
int db_fixture_begin(const char *name);
/* Removes tmpdir and everything in it, and adds the fixture's checks and
 * failures to the test's. */
void db_fixture_end(int *checks, int *failures);

/* tmpdir/name in buf. */
void path_in(char *buf, size_t len, const char *name);

double now_ms(void);
/* Whether a call that met a lock gave up after the store's one busy
 * timeout: not at once, and not long after. */
int waited_the_timeout(double ms);
int one_line(const char *s);

int write_file(const char *path, const void *buf, size_t n);
/* The whole file, malloc'd; NULL if unreadable. */
unsigned char *read_file(const char *path, size_t *n);
int exists(const char *path);

/* A connection of its own, beside the store's, with a 2 s busy wait. */
sqlite3 *raw_open(const char *path);
int raw_exec(sqlite3 *h, const char *sql);
/* First column of the first row as an integer; -999 when no row or error. */
long long raw_int(sqlite3 *h, const char *sql);
/* First column of the first row as text into buf; "(none)" when no row,
 * "(null)" for NULL. */
const char *raw_text(sqlite3 *h, const char *sql, char *buf, size_t len);

struct case_spec mkcase(const char *name, const char *variant, enum dtype d, int64_t n,
			int64_t cols, const char *params, enum expect e);
/* An H100-like device of that name and uuid. */
struct gpu_info mkgpu(const char *name, const char *uuid);
/* A conformance run of no device and no build. */
extern const struct run_info plain_run;

/* The results of a run counted per status (index: enum status) from its
 * listing, the read the interface shows a run by (db_run_results).
 * Returns 0, or -1 with err filled. */
int status_counts(struct db *db, int64_t run, int counts[STATUS_COUNT]);

/* Stores (and checks it stored) one result of case c in run `run`, with
 * the source hash put_source (NULL: a built-in variant's); timed when
 * median_ms > 0, its bandwidth then bytes / median. */
extern const char *put_source;
void put_result(struct db *db, int64_t run, const struct case_spec *c, enum status st,
		enum outcome o, const char *message, uint64_t seed, double median_ms,
		double bytes);
/* A run as a build before migration 7 began one (db_run_begin writes the
 * latest columns), for databases opened at an older version. */
int old_run_begin(struct db *db, const struct run_info *ri, int64_t *id);

typedef int (*db_opener)(const char *path, struct db **out, char *err, size_t len);
/* `open` on `path` must fail with `want` in the message and leave the file
 * exactly as it was, with no journal, -wal or -shm beside it. */
void expect_refused_by(db_opener open, const char *path, const char *want);
/* The same through db_open. */
void expect_refused(const char *path, const char *want);

#endif
