/*
 * db_sink.c - the database sink: a run row at the start, each result
 * committed as it arrives, the run closed at the end ("complete" or
 * "interrupted"), or "aborted" when a write error stopped it.
 *
 * What a write may meet, and what then happens:
 *   - Another process holding the lock (a script or a sqlite3 shell in a
 *     transaction, another conform migrating): the write is tried again
 *     every DB_BUSY_TIMEOUT_MS, for as long as it takes, with a line each
 *     time saying so; nothing is dropped.  There is no upper bound: the
 *     result in hand may have cost minutes of GPU time, the holder is a
 *     process the user can see and end, and its lock goes when it does.
 *     The run's stop flag (Ctrl-C) ends the wait, within one timeout: the
 *     result in hand is then not stored and the run stays "running".
 *   - Any other failure to store a result (a full disk, an I/O error,
 *     damage met while writing): no wait would cure it, so the run stops
 *     there.  It is marked "aborted" with the reason, the results committed
 *     before are kept, and the sink's failure stops the run with one line
 *     saying all that (or that the run could not be marked either).
 *   - kill -9 of conform: loses at most the case in flight and leaves the
 *     run "running", which is what it was.
 */
#include <stdio.h>
#include <string.h>

#include "common/text.h"
#include "db/db.h"
#include "session/db_sink.h"

int db_sink_wait(const struct db_state *st, double since, const char *what, char *err,
		 size_t len)
{
	char line[1024];

	if (st->stop && *st->stop) {
		snprintf(err, len, "%s: database is locked by another process: stopped while waiting "
			 "to record %s, which is not stored", db_filename(st->db), what);
		return 0;
	}
	snprintf(line, sizeof line, "%s: database is locked by another process; waiting to "
		 "record %s (%.0f s so far)", db_filename(st->db), what, text_now() - since);
	if (st->waiting)
		st->waiting(st->waiting_ctx, line);
	else
		fprintf(stderr, "conform: %s\n", line);
	return 1;
}

/* A result could not be stored, for a reason waiting will not cure: marks
 * the run aborted with that reason and rewrites err into the one line that
 * tells it all.  Returns -1, the sink's failure. */
static int abort_run(struct db_state *st, const char *case_name, char *err, size_t len)
{
	const char *path = db_filename(st->db);
	/* reason: why, " (at ", the case's name, ")". */
	char why[1024], reason[1024 + CASE_NAME_MAX + 8], err2[1024];
	size_t plen = strlen(path);

	snprintf(why, sizeof why, "%s", err);
	/* The reason as stored: the path is the database's own. */
	snprintf(reason, sizeof reason, "%s (at %s)",
		 strncmp(why, path, plen) == 0 && strncmp(why + plen, ": ", 2) == 0 ? why + plen + 2
										       : why,
		 case_name);
	if (db_run_abort(st->db, st->run_id, reason, err2, sizeof err2) == 0)
		snprintf(err, len, "%s; run %lld is marked aborted, keeping the results stored before "
			 "%s", why, (long long)st->run_id, case_name);
	else
		snprintf(err, len, "%s; run %lld could not be marked aborted either and stays "
			 "\"running\", keeping the results stored before %s", why,
			 (long long)st->run_id, case_name);
	return -1;
}

static int dbs_begin(void *ctx, const struct run_context *rc, char *err, size_t len)
{
	struct db_state *st = ctx;
	int64_t device_id = 0;
	double since = text_now();
	int r;

	if (rc->has_gpu) {
		while ((r = db_device_upsert(st->db, &rc->gpu, &device_id, err, len)) == DB_LOCKED &&
		       db_sink_wait(st, since, "the device", err, len))
			;
		if (r < 0)
			return -1;
	}
	st->device_id = device_id;
	/* The run's own GPU is known already: its results need no lookup. */
	st->nseen = 0;
	if (rc->has_gpu) {
		st->seen[0].ordinal = rc->gpu.index;
		st->seen[0].id = device_id;
		st->nseen = 1;
	}
	struct run_info ri = {
		.kind = rc->kind,
		.tag = rc->tag,
		.started_at = rc->started_at,
		.host = rc->host,
		.version = rc->version,
		.git_revision = rc->git_revision,
		.command_line = rc->command_line,
		.seed = rc->seed,
		.device_id = device_id,
	};
	while ((r = db_run_begin(st->db, &ri, &st->run_id, err, len)) == DB_LOCKED &&
	       db_sink_wait(st, since, "the start of the run", err, len))
		;
	return r < 0 ? -1 : 0;
}

/* The devices.id of the GPU a result ran on (0, the run's device, for
 * none), that device's row added the first time it is met (a run over
 * several devices; the run's own is met in begin).  Returns 0, DB_LOCKED
 * or -1. */
static int result_device(struct db_state *st, const struct result *r, int64_t *id, char *err,
			 size_t len)
{
	*id = 0;
	if (!r->gpu || st->nseen == DEVICE_SET_MAX)
		return 0;
	for (int k = 0; k < st->nseen; k++)
		if (st->seen[k].ordinal == r->gpu->index) {
			*id = st->seen[k].id;
			return 0;
		}
	int rc = db_device_upsert(st->db, r->gpu, id, err, len);
	if (rc == 0) {
		st->seen[st->nseen].ordinal = r->gpu->index;
		st->seen[st->nseen++].id = *id;
	}
	return rc;
}

static int dbs_result(void *ctx, const struct result *r, size_t index, size_t total,
		      char *err, size_t len)
{
	struct db_state *st = ctx;
	const char *name = r->c ? r->c->name : "a case";
	char what[CASE_NAME_MAX + 32];
	double since = text_now();
	int rc;

	(void)index; (void)total;
	snprintf(what, sizeof what, "the result of %s", name);
	struct result x = *r;
	while ((rc = result_device(st, r, &x.device_id, err, len)) == DB_LOCKED &&
	       db_sink_wait(st, since, what, err, len))
		;
	if (rc == 0)
		while ((rc = db_result_insert(st->db, st->run_id, &x, err, len)) == DB_LOCKED &&
		       db_sink_wait(st, since, what, err, len))
			;
	if (rc == 0)
		return 0;
	return rc == DB_LOCKED ? -1 : abort_run(st, name, err, len);
}

static int dbs_amend(void *ctx, const struct result_diagnosis *d, size_t index, char *err, size_t len)
{
	struct db_state *st = ctx;
	char what[CASE_NAME_MAX + 32];
	double since = text_now();
	int rc;

	(void)index;
	snprintf(what, sizeof what, "the diagnosis of %s", d->c->name);
	while ((rc = db_result_diagnose(st->db, st->run_id, d, err, len)) == DB_LOCKED &&
	       db_sink_wait(st, since, what, err, len))
		;
	if (rc == 0)
		return 0;
	return rc == DB_LOCKED ? -1 : abort_run(st, d->c->name, err, len);
}

static int dbs_end(void *ctx, const struct run_summary *s, char *err, size_t len)
{
	struct db_state *st = ctx;
	double since = text_now();
	int rc;

	while ((rc = db_run_end(st->db, st->run_id, s->interrupted ? "interrupted" : "complete",
				s->tally[TALLY_PASSED], s->tally[TALLY_FAILED],
				s->tally[TALLY_SKIPPED], err, len)) == DB_LOCKED &&
	       db_sink_wait(st, since, "the end of the run", err, len))
		;
	return rc < 0 ? -1 : 0;
}

void db_sink(struct report_sink *s, struct db_state *st)
{
	memset(s, 0, sizeof *s);
	s->begin = dbs_begin;
	s->result = dbs_result;
	s->amend = dbs_amend;
	s->end = dbs_end;
	s->ctx = st;
}
