/*
 * report_db.c - the database sink: a run row at the start, each result
 * committed as it arrives, the run closed at the end ("complete" or
 * "interrupted").  A kill -9 of conform loses at most the case in flight and
 * leaves the run "running", which is what it was.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "report.h"

static int dbs_begin(void *ctx, const struct run_context *rc, char *err, size_t len)
{
	struct db_state *st = ctx;
	int64_t device_id = 0;
	if (rc->has_gpu && db_device_upsert(st->db, &rc->gpu, &device_id, err, len) < 0)
		return -1;
	st->device_id = device_id;
	if (gethostname(st->host, sizeof st->host) != 0)
		strcpy(st->host, "unknown");
	st->host[sizeof st->host - 1] = '\0';
	struct run_info ri = {
		.host = st->host,
		.version = st->version,
		.git_revision = st->git_revision,
		.command_line = rc->command_line,
		.seed = rc->seed,
		.device_id = device_id,
	};
	return db_run_begin(st->db, &ri, &st->run_id, err, len);
}

static int dbs_result(void *ctx, const struct result *r, size_t index, size_t total,
		      char *err, size_t len)
{
	struct db_state *st = ctx;
	(void)index; (void)total;
	return db_result_insert(st->db, st->run_id, r, err, len);
}

static int dbs_end(void *ctx, const struct run_summary *s, char *err, size_t len)
{
	struct db_state *st = ctx;
	return db_run_end(st->db, st->run_id, s->interrupted ? "interrupted" : "complete",
			  s->tally[TALLY_PASSED], s->tally[TALLY_FAILED], s->tally[TALLY_SKIPPED],
			  err, len);
}

void db_sink(struct report_sink *s, struct db_state *st)
{
	memset(s, 0, sizeof *s);
	s->begin = dbs_begin;
	s->result = dbs_result;
	s->end = dbs_end;
	s->ctx = st;
}
