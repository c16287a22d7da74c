/*
 * db_tuned.c - the tuner's queries: the stored result of one configuration
 * (what lets a tune resume), the copy bandwidth of a device, and the best
 * configurations and their history ("conform best", "conform history"),
 * and every timed result a ranking by another objective chooses from
 * (db_timed_each: energy and edp are ranked in C, objective.h).
 *
 * A stored configuration belongs to a device and a build: db_tuned_find()
 * matches the run's device_id and git_revision, so a new build or another
 * GPU is measured afresh.  "Best" is timing_rank_cmp's rule (timing.h),
 * which best_configs (schema.sql) and the queries here follow in SQL;
 * db_best_each() only filters and orders the view.
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <string.h>

#include "common/dtype.h"

int db_tuned_find(struct db *db, const struct db_tuned_key *k, struct result *r, char *err,
		  size_t len)
{
	sqlite3_stmt *st;
	int rc;

	/* results_config narrows to the configuration; the run decides the
	 * device and the build. */
	if (db_prepare(db, "SELECT r.status, r.observed, r.message, r.err_norm, r.duration_ms, "
			   "r.median_ms, r.mean_ms, r.stddev_ms, r.min_ms, r.samples, r.noise, r.gbps, "
			   DB_ROBUST_COLUMNS("r") ", " DB_ENERGY_COLUMNS("r")
			   " FROM results r JOIN runs ON runs.id = r.run_id "
			   "WHERE r.variant = ?1 AND r.dtype = ?2 AND r.n = ?3 AND r.cols = ?4 "
			   "AND r.params = ?5 AND runs.device_id IS ?6 AND runs.git_revision IS ?7 "
			   "AND r.source IS ?8 "
			   "AND r.expect = 'pass' AND r.observed <> 'skipped' "
			   "AND (r.samples IS NOT NULL OR r.observed <> 'completed-correct') "
			   "ORDER BY r.id DESC LIMIT 1", &st, err, len) != 0)
		return -1;
	sqlite3_bind_text(st, 1, k->variant, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, dtype_name(k->dtype), -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 3, k->n);
	sqlite3_bind_int64(st, 4, k->cols);
	sqlite3_bind_text(st, 5, k->params, -1, SQLITE_TRANSIENT);
	db_bind_device(st, 6, k->device_id);
	db_bind_text(st, 7, k->git_revision, 1);
	db_bind_text(st, 8, k->source, 1);
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		sqlite3_finalize(st);
		return 0;
	}
	if (rc != SQLITE_ROW) {
		db_fail(db, "looking up a tuned configuration", rc, err, len);
		sqlite3_finalize(st);
		return -1;
	}
	const char *status = (const char *)sqlite3_column_text(st, 0);
	const char *observed = (const char *)sqlite3_column_text(st, 1);
	if (!status || !observed || status_parse(status, &r->status) != 0 ||
	    outcome_parse(observed, &r->outcome) != 0) {
		db_seterr_at(err, len, db->path,
			     "stored result with unknown status \"%s\" or outcome \"%s\"",
			     status ? status : "(null)", observed ? observed : "(null)");
		sqlite3_finalize(st);
		return -1;
	}
	db_column_text(st, 2, r->message, sizeof r->message);
	r->err_norm = sqlite3_column_type(st, 3) == SQLITE_NULL ? -1 : sqlite3_column_double(st, 3);
	r->duration_s = sqlite3_column_double(st, 4) / 1000.0;
	memset(&r->timing, 0, sizeof r->timing);
	if (sqlite3_column_type(st, 9) != SQLITE_NULL) {
		struct timing_stats *t = &r->timing;
		t->median_ms = sqlite3_column_double(st, 5);
		t->mean_ms = sqlite3_column_double(st, 6);
		t->stddev_ms = sqlite3_column_double(st, 7);
		t->min_ms = sqlite3_column_double(st, 8);
		t->samples = sqlite3_column_int(st, 9);
		t->noise = sqlite3_column_double(st, 10);
		/* Only the bandwidth is stored; the bytes follow from it. */
		t->bytes = sqlite3_column_double(st, 11) * 1e9 * t->median_ms * 1e-3;
		t->result_spread = -1;
		struct db_robust rb;
		db_robust_read(st, 12, 1, &rb);
		t->ci_low_ms = rb.ci_low_ms;
		t->ci_high_ms = rb.ci_high_ms;
		t->spread = rb.spread;
		t->noise_met = rb.noise_met;
		t->throttled = rb.throttled;
		t->timer = rb.timer;
		db_energy_read(st, 18, &t->energy);
	}
	sqlite3_finalize(st);
	return 1;
}

int db_bandwidth_get(struct db *db, int64_t device_id, const char *variant, double *gbps,
		     char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc, found = 0;

	if (db_prepare(db, "SELECT gbps FROM device_bandwidth WHERE device_id IS ?1 AND variant = ?2 "
			   "ORDER BY id DESC LIMIT 1", &st, err, len) != 0)
		return -1;
	db_bind_device(st, 1, device_id);
	sqlite3_bind_text(st, 2, variant, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*gbps = sqlite3_column_double(st, 0);
		found = 1;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_fail(db, "looking up copy bandwidth", rc, err, len);
	return found;
}

int db_bandwidth_only(struct db *db, int64_t device_id, double *gbps, char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc, found = 0;

	if (db_prepare(db, "SELECT count(DISTINCT variant), (SELECT gbps FROM device_bandwidth "
			   "WHERE device_id IS ?1 ORDER BY id DESC LIMIT 1) "
			   "FROM device_bandwidth WHERE device_id IS ?1", &st, err, len) != 0)
		return -1;
	db_bind_device(st, 1, device_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_int(st, 0) == 1) {
		*gbps = sqlite3_column_double(st, 1);
		found = 1;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return db_fail(db, "looking up copy bandwidth", rc, err, len);
	return found;
}

int db_bandwidth_put(struct db *db, const struct db_bandwidth *b, char *err, size_t len)
{
	sqlite3_stmt *st;
	char now[32];

	if (db_prepare(db, "INSERT INTO device_bandwidth (device_id, variant, bytes, median_ms, gbps, "
			   "measured_at, conform_version, git_revision) "
			   "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", &st, err, len) != 0)
		return -1;
	db_now_iso(now, sizeof now);
	db_bind_device(st, 1, b->device_id);
	sqlite3_bind_text(st, 2, b->variant, -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(st, 3, b->bytes);
	sqlite3_bind_double(st, 4, b->median_ms);
	sqlite3_bind_double(st, 5, b->gbps);
	sqlite3_bind_text(st, 6, now, -1, SQLITE_TRANSIENT);
	db_bind_text(st, 7, b->version, 0);
	db_bind_text(st, 8, b->git_revision, 1);
	return db_step_done(db, st, "recording copy bandwidth", err, len);
}

/* The tuned-row queries select these columns in this order; the last,
 * the rank's bound (timing_rank_bound: the interval's upper end, else the
 * median), is what they ranked by and is not read back. */
#define TUNED_ROW_COLUMNS (23 + DB_ENERGY_NCOLUMNS)
#define TUNED_RANK_BOUND(a) "coalesce(" a ".ci_high_ms, " a ".median_ms)"

static void tuned_row_read(sqlite3_stmt *st, struct db_tuned_row *row)
{
	memset(row, 0, sizeof *row);
	row->device_id = sqlite3_column_int64(st, 0);
	db_column_text(st, 1, row->device, sizeof row->device);
	db_column_text(st, 2, row->variant, sizeof row->variant);
	db_column_text(st, 3, row->dtype, sizeof row->dtype);
	db_column_text(st, 4, row->op, sizeof row->op);
	row->n = sqlite3_column_int64(st, 5);
	row->cols = sqlite3_column_int64(st, 6);
	db_column_text(st, 7, row->params, sizeof row->params);
	row->median_ms = sqlite3_column_double(st, 8);
	row->gbps = sqlite3_column_double(st, 9);
	row->noise = sqlite3_column_double(st, 10);
	row->result_id = sqlite3_column_int64(st, 11);
	row->run_id = sqlite3_column_int64(st, 12);
	db_column_text(st, 13, row->measured_at, sizeof row->measured_at);
	db_column_text(st, 14, row->git_revision, sizeof row->git_revision);
	db_robust_read(st, 15, 1, &row->robust);
	db_column_text(st, 21, row->source, sizeof row->source);
	db_energy_read(st, 22, &row->energy);
}

static int tuned_rows(struct db *db, sqlite3_stmt *st, db_tuned_fn fn, void *ctx, const char *what,
		      char *err, size_t len);

/* Binds a query's filters as ?1 pattern, ?2 dtype, ?3 op, ?4 device and,
 * when the statement has it, ?5 n (NULL for absent members), and hands
 * every row to fn. */
static int tuned_each(struct db *db, const char *sql, const struct db_tuned_query *q,
		      db_tuned_fn fn, void *ctx, const char *what, char *err, size_t len)
{
	sqlite3_stmt *st;

	if (db_prepare(db, sql, &st, err, len) != 0)
		return -1;
	if (sqlite3_column_count(st) != TUNED_ROW_COLUMNS) {
		db_seterr_at(err, len, db->path, "%s: query has %d columns", what, sqlite3_column_count(st));
		sqlite3_finalize(st);
		return -1;
	}
	db_bind_text(st, 1, q->pattern ? q->pattern : "*", 0);
	db_bind_text(st, 2, q->dtype, 1);
	db_bind_text(st, 3, q->op, 1);
	db_bind_text(st, 4, q->device, 1);
	if (sqlite3_bind_parameter_count(st) >= 5 && q->n > 0)
		sqlite3_bind_int64(st, 5, q->n);
	return tuned_rows(db, st, fn, ctx, what, err, len);
}

/* Steps a prepared tuned-row statement, handing every row to fn (non-zero
 * stops the walk), and finalizes it. */
static int tuned_rows(struct db *db, sqlite3_stmt *st, db_tuned_fn fn, void *ctx, const char *what,
		      char *err, size_t len)
{
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_tuned_row row;
		tuned_row_read(st, &row);
		if (fn(ctx, &row) != 0) {
			rc = SQLITE_DONE;
			break;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, what, rc, err, len);
	return 0;
}

int db_best_each(struct db *db, const struct db_tuned_query *q, db_tuned_fn fn, void *ctx,
		 char *err, size_t len)
{
	/* The view yields one row per group in a few index seeks each
	 * (schema.sql, best_configs); the filters and joins then work on those
	 * few rows, not on the results. */
	static const char sql[] =
		"SELECT coalesce(b.device_id, 0), coalesce(d.name, ''), b.variant, b.dtype, "
		"coalesce(b.op, ''), b.n, b.cols, b.params, b.median_ms, coalesce(b.gbps, 0), "
		"coalesce(b.noise, 0), b.result_id, b.run_id, b.measured_at, "
		"coalesce(runs.git_revision, ''), " DB_ROBUST_COLUMNS("x") ", coalesce(x.source, ''), "
		DB_ENERGY_COLUMNS("x") ", "
		TUNED_RANK_BOUND("x") " FROM best_configs b JOIN runs ON runs.id = b.run_id "
		"JOIN results x ON x.id = b.result_id "
		"LEFT JOIN devices d ON d.id = b.device_id "
		"WHERE b.variant GLOB ?1 AND (?2 IS NULL OR b.dtype = ?2) "
		"AND (?3 IS NULL OR b.op = ?3) AND b.op IS NOT NULL "
		"AND (?4 IS NULL OR coalesce(d.name, 'host') GLOB ?4) "
		"ORDER BY coalesce(d.name, ''), b.device_id, b.dtype, b.op, b.cols, b.n, b.variant";
	return tuned_each(db, sql, q, fn, ctx, "looking up best configurations", err, len);
}

/* The tuned-row columns of the results r, with their run and device, but
 * for the last (the rank's bound, which the query adds); `measured` is
 * what measured_at reads. */
#define TUNED_RESULT_COLUMNS(measured) \
	"SELECT coalesce(r.device_id, 0), coalesce(d.name, ''), r.variant, r.dtype, " \
	"coalesce(r.op, ''), r.n, r.cols, r.params, r.median_ms, coalesce(r.gbps, 0), " \
	"coalesce(r.noise, 0), r.id, r.run_id, " measured ", " \
	"coalesce(runs.git_revision, ''), " DB_ROBUST_COLUMNS("r") ", coalesce(r.source, ''), " \
	DB_ENERGY_COLUMNS("r") ", "
#define TUNED_RESULTS_FROM \
	"FROM results r JOIN runs ON runs.id = r.run_id " \
	"LEFT JOIN devices d ON d.id = r.device_id "

/* The tuned-row columns of the best result of each group (the query's
 * GROUP BY) by the rank's bound: SQLite takes a bare column from the row
 * that gave the one min().  Of two results with the same bound, either may
 * come: only results without an interval tie exactly, and then on the
 * median too. */
#define TUNED_FASTEST_FROM_RESULTS \
	TUNED_RESULT_COLUMNS("runs.started_at") "min(" TUNED_RANK_BOUND("r") ") " TUNED_RESULTS_FROM

int db_history_each(struct db *db, const struct db_tuned_query *q, db_tuned_fn fn, void *ctx,
		    char *err, size_t len)
{
	static const char sql[] =
		TUNED_FASTEST_FROM_RESULTS
		"WHERE r.status = 'PASS' AND r.median_ms IS NOT NULL AND r.variant GLOB ?1 "
		"AND (?2 IS NULL OR r.dtype = ?2) AND (?3 IS NULL OR r.op = ?3) AND r.op IS NOT NULL "
		"AND (?4 IS NULL OR coalesce(d.name, 'host') GLOB ?4) AND (?5 IS NULL OR r.n = ?5) "
		"GROUP BY r.run_id, r.dtype, r.op, r.n, r.cols "
		"ORDER BY coalesce(d.name, ''), r.device_id, r.dtype, r.op, r.n, r.cols, r.run_id";
	return tuned_each(db, sql, q, fn, ctx, "looking up tuning history", err, len);
}

int db_timed_each(struct db *db, const struct db_tuned_query *q, db_tuned_fn fn, void *ctx,
		  char *err, size_t len)
{
	/* best_configs' candidates, all of them: measured_at is the result's
	 * own time, as there.  The order is db_best_each's, then the
	 * configuration and the age, so a caller that keeps one row per
	 * problem sees each problem's rows together. */
	static const char sql[] =
		TUNED_RESULT_COLUMNS("r.created_at") TUNED_RANK_BOUND("r") " " TUNED_RESULTS_FROM
		"WHERE r.status = 'PASS' AND r.median_ms IS NOT NULL AND r.variant GLOB ?1 "
		"AND (?2 IS NULL OR r.dtype = ?2) AND (?3 IS NULL OR r.op = ?3) AND r.op IS NOT NULL "
		"AND (?4 IS NULL OR coalesce(d.name, 'host') GLOB ?4) "
		"ORDER BY coalesce(d.name, ''), r.device_id, r.dtype, r.op, r.cols, r.n, r.variant, "
		"r.params, r.id";
	return tuned_each(db, sql, q, fn, ctx, "looking up timed results", err, len);
}

int db_configs_each(struct db *db, const struct db_tuned_row *problem, db_tuned_fn fn, void *ctx,
		    char *err, size_t len)
{
	/* results_tuned leads with the problem's columns, so the group is one
	 * range of the index; min() picks each configuration's best row, and
	 * the configurations come best first. */
	static const char sql[] =
		TUNED_FASTEST_FROM_RESULTS
		"WHERE r.status = 'PASS' AND r.median_ms IS NOT NULL AND r.variant = ?1 "
		"AND r.dtype = ?2 AND coalesce(r.op, '') = ?3 AND r.n = ?4 AND r.cols = ?5 "
		"AND coalesce(r.device_id, 0) = ?6 "
		"GROUP BY r.params ORDER BY min(" TUNED_RANK_BOUND("r") "), r.median_ms, r.params";
	sqlite3_stmt *st;
	if (db_prepare(db, sql, &st, err, len) != 0)
		return -1;
	db_bind_text(st, 1, problem->variant, 0);
	db_bind_text(st, 2, problem->dtype, 0);
	db_bind_text(st, 3, problem->op, 0);
	sqlite3_bind_int64(st, 4, problem->n);
	sqlite3_bind_int64(st, 5, problem->cols);
	sqlite3_bind_int64(st, 6, problem->device_id);
	return tuned_rows(db, st, fn, ctx, "listing a problem's configurations", err, len);
}

int db_tuned_variants(struct db *db, char *buf, size_t buflen, char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc;
	size_t used = 0;

	if (buflen)
		buf[0] = '\0';
	if (db_prepare(db, "SELECT DISTINCT variant FROM results WHERE status = 'PASS' "
			   "AND median_ms IS NOT NULL AND op IS NOT NULL ORDER BY variant",
		       &st, err, len) != 0)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char v[256];
		db_column_text(st, 0, v, sizeof v);
		int n = snprintf(buf + used, buflen - used, "%s%s", used ? ", " : "", v);
		if (n < 0 || (size_t)n >= buflen - used) {
			/* Out of room: say so rather than cut a name in half. */
			if (buflen > used + 4)
				snprintf(buf + used, buflen - used, "%s...", used ? ", " : "");
			rc = SQLITE_DONE;
			break;
		}
		used += (size_t)n;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, "listing tuned variants", rc, err, len);
	return 0;
}

const char *db_device_label(const char *name)
{
	return name[0] ? name : "host";
}

const char *db_device_short(const char *name)
{
	return strncmp(name, "NVIDIA ", 7) == 0 && name[7] ? name + 7 : db_device_label(name);
}
