/*
 * db_write.c - recording: devices, runs and results.
 *
 * Invariants:
 *   - Each result is one autocommitted INSERT, so killing conform loses at
 *     most the case in flight; a run killed that way stays 'running'.
 *   - A run ends 'complete' or 'interrupted' (db_run_end), or 'aborted'
 *     with the reason when a write error stopped it (db_run_abort); the
 *     results it committed stay either way.
 *   - A device is looked up and inserted under the write lock, so two
 *     conforms meeting one new GPU make one row.
 *   - results.op mirrors the params' op= and results.device_id the run's
 *     device (schema.sql, migration 3): both are filled here, on insert.
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <string.h>

#include "common/dtype.h"
#include "common/params.h"
#include "common/text.h"

/* Seeds are 64-bit unsigned; SQLite integers are signed, so they are
 * stored as decimal text. */
static int bind_seed(sqlite3_stmt *st, int i, uint64_t seed)
{
	char buf[24];

	snprintf(buf, sizeof buf, "%llu", (unsigned long long)seed);
	return sqlite3_bind_text(st, i, buf, -1, SQLITE_TRANSIENT);
}

int db_device_upsert(struct db *db, const struct gpu_info *g, int64_t *id, char *err, size_t len)
{
	sqlite3_stmt *st;
	char now[32];
	int rc, found = 0;

	/* Under the write lock, so two conforms on one new GPU make one row. */
	if ((rc = db_exec(db, "BEGIN IMMEDIATE", err, len)) != 0)
		return rc;
	if (g->uuid[0]) {
		if ((rc = db_prepare(db, "SELECT id FROM devices WHERE uuid = ?1", &st, err, len)) != 0)
			goto rollback;
		sqlite3_bind_text(st, 1, g->uuid, -1, SQLITE_TRANSIENT);
	} else {
		if ((rc = db_prepare(db, "SELECT id FROM devices WHERE uuid IS NULL AND name = ?1 "
					 "ORDER BY id LIMIT 1", &st, err, len)) != 0)
			goto rollback;
		sqlite3_bind_text(st, 1, g->name, -1, SQLITE_TRANSIENT);
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		found = 1;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		rc = db_fail(db, "looking up device", rc, err, len);
		goto rollback;
	}

	if (!found) {
		if ((rc = db_prepare(db, "INSERT INTO devices (name, uuid, cc_major, cc_minor, "
					 "sm_count, memory_bytes, driver_version, runtime_version, "
					 "first_seen) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
				     &st, err, len)) != 0)
			goto rollback;
		db_now_iso(now, sizeof now);
		db_bind_text(st, 1, g->name, 0);
		db_bind_text(st, 2, g->uuid, 1);
		sqlite3_bind_int(st, 3, g->cc_major);
		sqlite3_bind_int(st, 4, g->cc_minor);
		sqlite3_bind_int(st, 5, g->sm_count);
		sqlite3_bind_int64(st, 6, g->memory_bytes);
		sqlite3_bind_int(st, 7, g->driver_version);
		sqlite3_bind_int(st, 8, g->runtime_version);
		sqlite3_bind_text(st, 9, now, -1, SQLITE_TRANSIENT);
		if ((rc = db_step_done(db, st, "inserting device", err, len)) != 0)
			goto rollback;
		*id = sqlite3_last_insert_rowid(db->h);
	}
	if ((rc = db_exec(db, "COMMIT", err, len)) != 0)
		goto rollback;
	return 0;
rollback:
	sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

int db_run_begin(struct db *db, const struct run_info *ri, int64_t *run_id, char *err, size_t len)
{
	sqlite3_stmt *st;
	char now[32], start[200];
	long pid;
	int rc;

	/* uuid: the run's name in every database it is merged into; pid and
	 * pid_start: the process that will end it (db_owner.c). */
	if ((rc = db_prepare(db, "INSERT INTO runs (started_at, state, host, conform_version, "
				 "git_revision, command_line, seed, device_id, kind, tag, uuid, pid, "
				 "pid_start) VALUES (?1, 'running', ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
				 "lower(hex(randomblob(16))), ?10, ?11)", &st, err, len)) != 0)
		return rc;
	db_owner_self(&pid, start, sizeof start);
	if (ri->started_at && ri->started_at[0])
		text_copy(now, sizeof now, ri->started_at);
	else
		db_now_iso(now, sizeof now);
	sqlite3_bind_text(st, 1, now, -1, SQLITE_TRANSIENT);
	db_bind_text(st, 2, ri->host, 0);
	db_bind_text(st, 3, ri->version, 0);
	db_bind_text(st, 4, ri->git_revision, 1);
	db_bind_text(st, 5, ri->command_line, 0);
	bind_seed(st, 6, ri->seed);
	db_bind_device(st, 7, ri->device_id);
	sqlite3_bind_text(st, 8, run_kind_name(ri->kind), -1, SQLITE_STATIC);
	db_bind_text(st, 9, ri->tag, 1);
	sqlite3_bind_int64(st, 10, pid);
	db_bind_text(st, 11, start, 1);
	if ((rc = db_step_done(db, st, "recording run", err, len)) != 0)
		return rc;
	*run_id = sqlite3_last_insert_rowid(db->h);
	return 0;
}

int db_run_end(struct db *db, int64_t run_id, const char *state, int passed, int failed,
	       int skipped, char *err, size_t len)
{
	sqlite3_stmt *st;
	char now[32];
	int rc;

	if (!state || (strcmp(state, "complete") != 0 && strcmp(state, "interrupted") != 0)) {
		db_seterr_at(err, len, db->path, "run state must be complete or interrupted, not \"%s\"",
			     state ? state : "(null)");
		return -1;
	}
	if ((rc = db_prepare(db, "UPDATE runs SET ended_at = ?1, state = ?2, passed = ?3, "
				 "failed = ?4, skipped = ?5 WHERE id = ?6", &st, err, len)) != 0)
		return rc;
	db_now_iso(now, sizeof now);
	sqlite3_bind_text(st, 1, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, state, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 3, passed);
	sqlite3_bind_int(st, 4, failed);
	sqlite3_bind_int(st, 5, skipped);
	sqlite3_bind_int64(st, 6, run_id);
	if ((rc = db_step_done(db, st, "ending run", err, len)) != 0)
		return rc;
	if (sqlite3_changes(db->h) != 1) {
		db_seterr_at(err, len, db->path, "no run %lld", (long long)run_id);
		return -1;
	}
	return 0;
}

int db_run_abort(struct db *db, int64_t run_id, const char *reason, char *err, size_t len)
{
	sqlite3_stmt *st;
	char now[32];
	int rc;

	/* Room first, where there is a chance of it: a checkpoint copies the
	 * WAL into the database, and the write below may then reuse the WAL
	 * from its start rather than grow it.  Whether it worked, the UPDATE
	 * says. */
	sqlite3_wal_checkpoint_v2(db->h, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
	if ((rc = db_prepare(db, "UPDATE runs SET ended_at = ?1, state = 'aborted', reason = ?2 "
				 "WHERE id = ?3", &st, err, len)) != 0)
		return rc;
	db_now_iso(now, sizeof now);
	sqlite3_bind_text(st, 1, now, -1, SQLITE_TRANSIENT);
	db_bind_text(st, 2, reason, 0);
	sqlite3_bind_int64(st, 3, run_id);
	if ((rc = db_step_done(db, st, "marking the run aborted", err, len)) != 0)
		return rc;
	if (sqlite3_changes(db->h) != 1) {
		db_seterr_at(err, len, db->path, "no run %lld", (long long)run_id);
		return -1;
	}
	return 0;
}

int db_result_insert(struct db *db, int64_t run_id, const struct result *r, char *err, size_t len)
{
	const struct case_spec *c = r->c;
	const char *dot;
	sqlite3_stmt *st;
	char now[32];
	int rc;

	if (!c) {
		db_seterr_at(err, len, db->path, "result without a case");
		return -1;
	}
	if ((rc = db_prepare(db, "INSERT INTO results (run_id, case_name, kernel, variant, params, dtype, "
			   "n, cols, expect, status, observed, message, err_norm, duration_ms, seed, "
			   "created_at, median_ms, mean_ms, stddev_ms, min_ms, samples, noise, gbps, op, "
			   "ci_low_ms, ci_high_ms, spread, noise_met, throttled, timer, source, device_id, "
			   "sanitizer, energy_j, power_w, power_sampled_w, energy_uncertainty, "
			   "energy_window_s, energy_launches, sm_mhz, mem_mhz, throttle_reasons) "
			   "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, "
			   "?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, "
			   "?25, ?26, ?27, ?28, ?29, ?30, ?31, "
			   "coalesce(?32, (SELECT device_id FROM runs WHERE id = ?1)), ?33, "
			   "?34, ?35, ?36, ?37, ?38, ?39, ?40, ?41, ?42)", &st, err, len)) != 0)
		return rc;
	db_now_iso(now, sizeof now);
	dot = strchr(c->variant, '.');
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, c->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, c->variant, dot ? (int)(dot - c->variant) : -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, c->variant, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, c->params, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 6, dtype_name(c->dtype), -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 7, c->n);
	sqlite3_bind_int64(st, 8, c->cols);
	sqlite3_bind_text(st, 9, expect_name(c->expect), -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 10, status_name(r->status), -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 11, outcome_name(r->outcome), -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 12, r->message, -1, SQLITE_TRANSIENT);
	if (r->finding[0])
		sqlite3_bind_text(st, 33, r->finding, -1, SQLITE_TRANSIENT);
	if (r->err_norm >= 0)
		sqlite3_bind_double(st, 13, r->err_norm);
	else
		sqlite3_bind_null(st, 13);
	sqlite3_bind_double(st, 14, r->duration_s * 1000.0);
	bind_seed(st, 15, r->seed);
	sqlite3_bind_text(st, 16, now, -1, SQLITE_TRANSIENT);
	const struct timing_stats *t = &r->timing;
	if (t->samples > 0) {
		/* Untimed results keep the timing columns NULL (bound as such by
		 * default), so "timed" is simply "samples IS NOT NULL". */
		sqlite3_bind_double(st, 17, t->median_ms);
		sqlite3_bind_double(st, 18, t->mean_ms);
		sqlite3_bind_double(st, 19, t->stddev_ms);
		sqlite3_bind_double(st, 20, t->min_ms);
		sqlite3_bind_int(st, 21, t->samples);
		sqlite3_bind_double(st, 22, t->noise);
		if (t->median_ms > 0 && t->bytes > 0)
			sqlite3_bind_double(st, 23, t->bytes / (t->median_ms * 1e-3) / 1e9);
		sqlite3_bind_double(st, 25, t->ci_low_ms);
		sqlite3_bind_double(st, 26, t->ci_high_ms);
		sqlite3_bind_double(st, 27, t->spread);
		sqlite3_bind_int(st, 28, t->noise_met);
		sqlite3_bind_int(st, 29, t->throttled);
		if (t->timer != TIMER_NONE)
			sqlite3_bind_text(st, 30, timing_timer_name(t->timer), -1, SQLITE_STATIC);
		db_energy_bind(st, 34, &t->energy);
	}
	db_bind_text(st, 31, r->source, 1);
	/* A result of a run over several devices names its own (unbound,
	 * NULL: the run's). */
	if (r->device_id > 0)
		sqlite3_bind_int64(st, 32, r->device_id);
	/* op mirrors params, and device_id the run's device or, in a run
	 * over several (run --devices), the one the result ran on
	 * (schema.sql, migration 3). */
	char op[16];
	if (params_get(c->params, "op", op, sizeof op) == 0)
		sqlite3_bind_text(st, 24, op, -1, SQLITE_TRANSIENT);
	return db_step_done(db, st, "recording result", err, len);
}

int db_result_diagnose(struct db *db, int64_t run_id, const struct result_diagnosis *d, char *err,
		       size_t len)
{
	sqlite3_stmt *st;
	int rc;

	if ((rc = db_prepare(db, "UPDATE results SET shrunk = ?1, repro = ?2, pattern = ?3 "
			   "WHERE run_id = ?4 AND case_name = ?5", &st, err, len)) != 0)
		return rc;
	db_bind_text(st, 1, d->shrunk, 1);
	db_bind_text(st, 2, d->repro, 1);
	db_bind_text(st, 3, d->pattern, 1);
	sqlite3_bind_int64(st, 4, run_id);
	sqlite3_bind_text(st, 5, d->c->name, -1, SQLITE_TRANSIENT);
	return db_step_done(db, st, "recording a failure's diagnosis", err, len);
}
