/*
 * db_read.c - reading runs and results back: the runs, results and timed
 * points "conform tui" browses (see db.h).
 *
 * Nothing here writes.  Reads go through the same connection, and so the
 * same policy, as the writes; WAL lets them see each result as soon as it
 * is committed, by this process or another.
 *
 * Each query is a compile-time string whose columns are read by one row
 * reader; a query and its reader sit next to each other, and the column
 * order is theirs alone.
 */
#include "db/db_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

/*
 * Steps a prepared, bound statement to the end and finalizes it, reading
 * every row into a malloc'd array of `size`-byte rows (grown by vec.h).
 * Returns the array (NULL when there are no rows) with *count, or NULL
 * with *count 0 and *failed set, nothing left allocated.
 */
static void *read_all(struct db *db, sqlite3_stmt *st, size_t size, db_row_reader read,
		      size_t *count, int *failed, const char *what, char *err, size_t len)
{
	char *buf = NULL;
	size_t n = 0, cap = 0;
	int rc;

	*count = 0;
	*failed = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (vec_grow(&buf, &cap, n + 1, size) < 0) {
			db_seterr_at(err, len, db->path, "%s: out of memory", what);
			free(buf);
			sqlite3_finalize(st);
			*failed = 1;
			return NULL;
		}
		read(st, buf + n * size);
		n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(buf);
		db_fail(db, what, rc, err, len);
		*failed = 1;
		return NULL;
	}
	*count = n;
	return buf;
}

/*
 * Runs.
 */

int db_run_latest(struct db *db, int64_t *id, char *err, size_t len)
{
	sqlite3_stmt *st;

	if (db_prepare(db, "SELECT id FROM runs ORDER BY id DESC LIMIT 1", &st, err, len) != 0)
		return -1;
	return db_read_one(db, st, db_read_id, id, "finding the newest run", err, len);
}

int db_run_adjacent(struct db *db, int64_t id, int dir, int64_t *out, char *err, size_t len)
{
	sqlite3_stmt *st;

	if (db_prepare(db, dir < 0 ? "SELECT id FROM runs WHERE id < ?1 ORDER BY id DESC LIMIT 1"
				   : "SELECT id FROM runs WHERE id > ?1 ORDER BY id LIMIT 1",
		       &st, err, len) != 0)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	return db_read_one(db, st, db_read_id, out, "finding the next run", err, len);
}

/* The columns read_run() reads. */
#define RUN_QUERY \
	"SELECT r.id, r.started_at, r.state, coalesce(r.passed, -1), coalesce(r.failed, -1), " \
	"coalesce(r.skipped, -1), coalesce(r.command_line, ''), coalesce(d.name, ''), " \
	"(SELECT count(*) FROM results x WHERE x.run_id = r.id), coalesce(r.reason, ''), " \
	"r.kind, coalesce(r.tag, ''), coalesce(r.device_id, 0), coalesce(r.git_revision, ''), " \
	"coalesce(r.seed, '') FROM runs r LEFT JOIN devices d ON d.id = r.device_id"

static void read_run(sqlite3_stmt *st, void *row)
{
	struct db_run_row *out = row;

	memset(out, 0, sizeof *out);
	out->id = sqlite3_column_int64(st, 0);
	db_column_text(st, 1, out->started_at, sizeof out->started_at);
	db_column_text(st, 2, out->state, sizeof out->state);
	out->passed = sqlite3_column_int(st, 3);
	out->failed = sqlite3_column_int(st, 4);
	out->skipped = sqlite3_column_int(st, 5);
	db_column_text(st, 6, out->command_line, sizeof out->command_line);
	db_column_text(st, 7, out->device, sizeof out->device);
	out->results = sqlite3_column_int(st, 8);
	db_column_text(st, 9, out->reason, sizeof out->reason);
	const char *kind = (const char *)sqlite3_column_text(st, 10);
	if (!kind || run_kind_parse(kind, &out->kind) < 0)
		out->kind = RUN_CONFORMANCE; /* a kind this build does not know */
	db_column_text(st, 11, out->tag, sizeof out->tag);
	out->device_id = sqlite3_column_int64(st, 12);
	db_column_text(st, 13, out->git_revision, sizeof out->git_revision);
	db_column_text(st, 14, out->seed, sizeof out->seed);
}

int db_run_read(struct db *db, int64_t id, struct db_run_row *out, char *err, size_t len)
{
	sqlite3_stmt *st;

	if (db_prepare(db, RUN_QUERY " WHERE r.id = ?1", &st, err, len) != 0)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	return db_read_one(db, st, read_run, out, "reading run", err, len);
}

int db_run_list(struct db *db, struct db_run_row **rows, size_t *count, char *err, size_t len)
{
	sqlite3_stmt *st;
	int failed;

	*rows = NULL;
	*count = 0;
	if (db_prepare(db, RUN_QUERY " ORDER BY r.id DESC", &st, err, len) != 0)
		return -1;
	*rows = read_all(db, st, sizeof **rows, read_run, count, &failed, "listing runs", err, len);
	return failed ? -1 : 0;
}

/*
 * Results.
 */

/* The columns read_result() reads. */
#define RESULT_QUERY \
	"SELECT id, run_id, case_name, variant, dtype, n, cols, params, expect, status, observed, " \
	"message, coalesce(seed, ''), created_at, err_norm, duration_ms, median_ms, gbps, noise, " \
	"coalesce(samples, 0), " DB_ROBUST_COLUMNS("results") ", coalesce(sanitizer, ''), " \
	"coalesce(shrunk, ''), " \
	"coalesce(repro, ''), coalesce(pattern, ''), coalesce(device_id, 0), " \
	"coalesce((SELECT d.name FROM devices d WHERE d.id = results.device_id), ''), " \
	"coalesce(source, ''), " DB_ENERGY_COLUMNS("results") " FROM results"

static void read_result(sqlite3_stmt *st, void *row)
{
	struct db_result_row *r = row;
	char status[16];

	memset(r, 0, sizeof *r);
	r->id = sqlite3_column_int64(st, 0);
	r->run_id = sqlite3_column_int64(st, 1);
	db_column_text(st, 2, r->case_name, sizeof r->case_name);
	db_column_text(st, 3, r->variant, sizeof r->variant);
	db_column_text(st, 4, r->dtype, sizeof r->dtype);
	r->n = sqlite3_column_int64(st, 5);
	r->cols = sqlite3_column_int64(st, 6);
	db_column_text(st, 7, r->params, sizeof r->params);
	db_column_text(st, 8, r->expect, sizeof r->expect);
	db_column_text(st, 9, status, sizeof status);
	if (status_parse(status, &r->status) < 0)
		r->status = STATUS_ERROR;
	db_column_text(st, 10, r->observed, sizeof r->observed);
	db_column_text(st, 11, r->message, sizeof r->message);
	db_column_text(st, 12, r->seed, sizeof r->seed);
	db_column_text(st, 13, r->created_at, sizeof r->created_at);
	r->err_norm = db_column_real(st, 14);
	r->duration_ms = db_column_real(st, 15);
	r->median_ms = db_column_real(st, 16);
	r->gbps = db_column_real(st, 17);
	r->noise = db_column_real(st, 18);
	r->samples = sqlite3_column_int(st, 19);
	db_robust_read(st, 20, r->samples > 0, &r->robust);
	db_column_text(st, 26, r->sanitizer, sizeof r->sanitizer);
	db_column_text(st, 27, r->shrunk, sizeof r->shrunk);
	db_column_text(st, 28, r->repro, sizeof r->repro);
	db_column_text(st, 29, r->pattern, sizeof r->pattern);
	r->device_id = sqlite3_column_int64(st, 30);
	db_column_text(st, 31, r->device, sizeof r->device);
	db_column_text(st, 32, r->source, sizeof r->source);
	db_energy_read(st, 33, &r->energy);
}

int db_run_results(struct db *db, int64_t run_id, struct db_result_row **rows, size_t *count,
		   char *err, size_t len)
{
	sqlite3_stmt *st;
	int failed;

	*rows = NULL;
	*count = 0;
	if (db_prepare(db, RESULT_QUERY " WHERE run_id = ?1 ORDER BY id", &st, err, len) != 0)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	*rows = read_all(db, st, sizeof **rows, read_result, count, &failed, "reading results", err,
			 len);
	return failed ? -1 : 0;
}

/*
 * The results of some runs a row at a time, in the order conform compare
 * pairs them, so that two runs of any size are compared in bounded memory:
 * SQLite sorts (spilling to a temporary file past its cache), and the
 * caller holds one row.
 */

/* The key as a db_result_row holds it (conform_text, db_column_text's
 * cut and sanitising as an SQL function), as a blob: SQLite's byte-wise
 * blob order is then strcmp's order on the strings the caller reads,
 * whatever the text stored. */
#define C_STRING_KEY(col, max) "conform_text(" col ", " max " + 1)"

/* ?1: the run ids as "11,12,13", split by the recursive CTE (a bound
 * value, not SQL text, however many runs a tag holds); ?2, ?3: the sizes
 * of the case name and params a row holds, less their NUL. */
#define SORTED_RESULTS_QUERY \
	"WITH RECURSIVE ids(id, rest) AS (SELECT NULL, ?1 || ',' UNION ALL " \
	"SELECT CAST(substr(rest, 1, instr(rest, ',') - 1) AS INTEGER), substr(rest, instr(rest, ',') + 1) " \
	"FROM ids WHERE rest <> '') " \
	RESULT_QUERY " WHERE run_id IN (SELECT id FROM ids WHERE id IS NOT NULL) " \
	"ORDER BY " C_STRING_KEY("case_name", "?2") ", " C_STRING_KEY("params", "?3") ", id"

struct db_result_cursor {
	struct db *db;
	sqlite3_stmt *st;
};

int db_result_cursor_open(struct db *db, const int64_t *run_ids, size_t nruns,
			  struct db_result_cursor **out, char *err, size_t len)
{
	struct db_result_cursor *c;
	struct db_result_row probe;
	char *ids = malloc(nruns * 21 + 1);
	size_t used = 0;

	*out = NULL;
	c = calloc(1, sizeof *c);
	if (!ids || !c) {
		free(ids);
		free(c);
		db_seterr_at(err, len, db->path, "reading results: out of memory");
		return -1;
	}
	ids[0] = '\0';
	for (size_t i = 0; i < nruns; i++)
		used += (size_t)sprintf(ids + used, "%s%lld", i ? "," : "", (long long)run_ids[i]);
	if (db_register_functions(db, err, len) != 0 ||
	    db_prepare(db, SORTED_RESULTS_QUERY, &c->st, err, len) != 0) {
		free(ids);
		free(c);
		return -1;
	}
	sqlite3_bind_text(c->st, 1, ids, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(c->st, 2, (int)sizeof probe.case_name - 1);
	sqlite3_bind_int(c->st, 3, (int)sizeof probe.params - 1);
	free(ids);
	c->db = db;
	*out = c;
	return 0;
}

int db_result_cursor_next(struct db_result_cursor *c, struct db_result_row *row, char *err,
			  size_t len)
{
	int rc = sqlite3_step(c->st);

	if (rc == SQLITE_ROW) {
		read_result(c->st, row);
		return 1;
	}
	if (rc == SQLITE_DONE)
		return 0;
	return db_fail(c->db, "reading results", rc, err, len);
}

void db_result_cursor_close(struct db_result_cursor *c)
{
	if (!c)
		return;
	sqlite3_finalize(c->st);
	free(c);
}

int db_snapshot_begin(struct db *db, char *err, size_t len)
{
	return db_exec(db, "BEGIN", err, len) != 0 ? -1 : 0;
}

void db_snapshot_end(struct db *db)
{
	char err[256];

	(void)db_exec(db, "COMMIT", err, sizeof err);
}

int db_result_read(struct db *db, int64_t id, struct db_result_row *out, char *err, size_t len)
{
	sqlite3_stmt *st;

	if (db_prepare(db, RESULT_QUERY " WHERE id = ?1", &st, err, len) != 0)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	return db_read_one(db, st, read_result, out, "reading a result", err, len);
}

int db_case_last(struct db *db, const char *case_name, struct db_result_row *out, char *err,
		 size_t len)
{
	sqlite3_stmt *st;

	if (db_prepare(db, RESULT_QUERY " WHERE case_name = ?1 ORDER BY id DESC LIMIT 1", &st, err,
		       len) != 0)
		return -1;
	sqlite3_bind_text(st, 1, case_name, -1, SQLITE_TRANSIENT);
	return db_read_one(db, st, read_result, out, "reading the last result of a case", err, len);
}

static void read_point(sqlite3_stmt *st, void *row)
{
	struct db_point_row *p = row;

	memset(p, 0, sizeof *p);
	db_column_text(st, 0, p->variant, sizeof p->variant);
	db_column_text(st, 1, p->dtype, sizeof p->dtype);
	p->n = sqlite3_column_int64(st, 2);
	p->gbps = sqlite3_column_double(st, 3);
	p->run_id = sqlite3_column_int64(st, 4);
	p->cols = sqlite3_column_int64(st, 5);
	db_column_text(st, 6, p->op, sizeof p->op);
	p->device_id = sqlite3_column_int64(st, 7);
}

int db_timed_points(struct db *db, struct db_point_row **rows, size_t *count, char *err,
		    size_t len)
{
	sqlite3_stmt *st;
	int failed;

	*rows = NULL;
	*count = 0;
	if (db_prepare(db, "SELECT variant, dtype, n, gbps, run_id, cols, coalesce(op, ''), "
			   "coalesce(device_id, 0) FROM results "
			   "WHERE gbps IS NOT NULL AND gbps > 0 ORDER BY variant, dtype, n, cols, id",
		       &st, err, len) != 0)
		return -1;
	*rows = read_all(db, st, sizeof **rows, read_point, count, &failed, "reading timed results",
			 err, len);
	return failed ? -1 : 0;
}

int db_count(struct db *db, struct db_counts *n, char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc;

	if ((rc = db_prepare(db, "SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM results), "
				 "(SELECT count(*) FROM devices)", &st, err, len)) != 0)
		return rc;
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(st);
		return db_fail(db, "counting runs", rc, err, len);
	}
	n->runs = sqlite3_column_int64(st, 0);
	n->results = sqlite3_column_int64(st, 1);
	n->devices = sqlite3_column_int64(st, 2);
	sqlite3_finalize(st);
	return 0;
}
