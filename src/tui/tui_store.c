/*
 * tui_store.c - the TUI's reads of the results database (see tui_store.h).
 *
 * Every query binds its values.  Errors come back as -1 (with a message
 * where the caller has room for one); the TUI shows them and goes on, so a
 * read that fails never ends the program.
 */
#include "tui_store.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "text.h"

struct tui_store {
	sqlite3 *h;
};

static const char run_columns[] =
	"r.id, r.started_at, r.state, coalesce(r.passed, -1), coalesce(r.failed, -1), "
	"coalesce(r.skipped, -1), coalesce(r.command_line, ''), coalesce(d.name, ''), "
	"(select count(*) from results x where x.run_id = r.id) "
	"from runs r left join devices d on d.id = r.device_id";

static const char result_columns[] =
	"id, case_name, variant, dtype, n, cols, params, expect, status, observed, message, "
	"coalesce(seed, ''), created_at, err_norm, duration_ms, median_ms, gbps, noise, "
	"coalesce(samples, 0), run_id from results";

int tui_store_open(const char *path, struct tui_store **out, char *err, size_t len)
{
	struct tui_store *st = calloc(1, sizeof *st);
	if (!st) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	if (sqlite3_open_v2(path, &st->h, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		snprintf(err, len, "%s: %s", path, st->h ? sqlite3_errmsg(st->h) : "cannot open");
		sqlite3_close(st->h);
		free(st);
		return -1;
	}
	sqlite3_busy_timeout(st->h, 2000);
	*out = st;
	return 0;
}

void tui_store_close(struct tui_store *st)
{
	if (!st)
		return;
	sqlite3_close(st->h);
	free(st);
}

static void column_text(sqlite3_stmt *s, int i, char *buf, size_t len)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	text_copy(buf, len, t ? (const char *)t : "");
}

static double column_real(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ? NAN : sqlite3_column_double(s, i);
}

/* Runs a query that yields one id; 1 found, 0 none, -1 error. */
static int query_id(struct tui_store *st, const char *sql, int64_t arg, int64_t *out)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->h, sql, -1, &s, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_bind_parameter_count(s) > 0)
		sqlite3_bind_int64(s, 1, arg);
	int rc = sqlite3_step(s), found = 0;
	if (rc == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL) {
		*out = sqlite3_column_int64(s, 0);
		found = 1;
	}
	sqlite3_finalize(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? found : -1;
}

int tui_store_latest_run(struct tui_store *st, int64_t *id)
{
	return query_id(st, "select max(id) from runs", 0, id);
}

int tui_store_adjacent_run(struct tui_store *st, int64_t id, int dir, int64_t *out)
{
	return query_id(st, dir < 0 ? "select max(id) from runs where id < ?"
				    : "select min(id) from runs where id > ?", id, out);
}

int tui_store_run(struct tui_store *st, int64_t id, struct tui_run_row *out)
{
	char sql[512];
	sqlite3_stmt *s;
	snprintf(sql, sizeof sql, "select %s where r.id = ?", run_columns);
	if (sqlite3_prepare_v2(st->h, sql, -1, &s, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(s, 1, id);
	int rc = sqlite3_step(s), found = 0;
	if (rc == SQLITE_ROW) {
		memset(out, 0, sizeof *out);
		out->id = sqlite3_column_int64(s, 0);
		column_text(s, 1, out->started_at, sizeof out->started_at);
		column_text(s, 2, out->state, sizeof out->state);
		out->passed = sqlite3_column_int(s, 3);
		out->failed = sqlite3_column_int(s, 4);
		out->skipped = sqlite3_column_int(s, 5);
		column_text(s, 6, out->command_line, sizeof out->command_line);
		column_text(s, 7, out->device, sizeof out->device);
		out->results = sqlite3_column_int(s, 8);
		found = 1;
	}
	sqlite3_finalize(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? found : -1;
}

static void read_result(sqlite3_stmt *s, struct tui_result_row *r)
{
	char status[16];
	memset(r, 0, sizeof *r);
	r->id = sqlite3_column_int64(s, 0);
	column_text(s, 1, r->case_name, sizeof r->case_name);
	column_text(s, 2, r->variant, sizeof r->variant);
	column_text(s, 3, r->dtype, sizeof r->dtype);
	r->n = sqlite3_column_int64(s, 4);
	r->cols = sqlite3_column_int64(s, 5);
	column_text(s, 6, r->params, sizeof r->params);
	column_text(s, 7, r->expect, sizeof r->expect);
	column_text(s, 8, status, sizeof status);
	if (status_parse(status, &r->status) < 0)
		r->status = STATUS_ERROR;
	column_text(s, 9, r->observed, sizeof r->observed);
	column_text(s, 10, r->message, sizeof r->message);
	column_text(s, 11, r->seed, sizeof r->seed);
	column_text(s, 12, r->created_at, sizeof r->created_at);
	r->err_norm = column_real(s, 13);
	r->duration_ms = column_real(s, 14);
	r->median_ms = column_real(s, 15);
	r->gbps = column_real(s, 16);
	r->noise = column_real(s, 17);
	r->samples = sqlite3_column_int(s, 18);
}

int tui_store_results(struct tui_store *st, int64_t run_id, struct tui_result_row **rows,
		      size_t *count, char *err, size_t len)
{
	char sql[512];
	sqlite3_stmt *s;
	*rows = NULL;
	*count = 0;
	snprintf(sql, sizeof sql, "select %s where run_id = ? order by id", result_columns);
	if (sqlite3_prepare_v2(st->h, sql, -1, &s, NULL) != SQLITE_OK) {
		snprintf(err, len, "reading results: %s", sqlite3_errmsg(st->h));
		return -1;
	}
	sqlite3_bind_int64(s, 1, run_id);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (*count == cap) {
			cap = cap ? cap * 2 : 64;
			struct tui_result_row *grown = realloc(*rows, cap * sizeof *grown);
			if (!grown) {
				rc = SQLITE_NOMEM;
				break;
			}
			*rows = grown;
		}
		read_result(s, &(*rows)[(*count)++]);
	}
	if (rc != SQLITE_DONE) {
		snprintf(err, len, "reading results: %s", sqlite3_errstr(rc));
		sqlite3_finalize(s);
		return -1;
	}
	sqlite3_finalize(s);
	return 0;
}

int tui_store_last_result(struct tui_store *st, const char *case_name, struct tui_result_row *out,
			  int64_t *run_id)
{
	char sql[512];
	sqlite3_stmt *s;
	snprintf(sql, sizeof sql, "select %s where case_name = ? order by id desc limit 1",
		 result_columns);
	if (sqlite3_prepare_v2(st->h, sql, -1, &s, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(s, 1, case_name, -1, SQLITE_STATIC);
	int rc = sqlite3_step(s), found = 0;
	if (rc == SQLITE_ROW) {
		read_result(s, out);
		*run_id = sqlite3_column_int64(s, 19);
		found = 1;
	}
	sqlite3_finalize(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? found : -1;
}

int tui_store_timed(struct tui_store *st, struct tui_point_row **rows, size_t *count, char *err,
		    size_t len)
{
	sqlite3_stmt *s;
	*rows = NULL;
	*count = 0;
	if (sqlite3_prepare_v2(st->h,
			       "select variant, dtype, n, gbps, run_id from results "
			       "where gbps is not null and gbps > 0 order by variant, dtype, n, id",
			       -1, &s, NULL) != SQLITE_OK) {
		snprintf(err, len, "reading timed results: %s", sqlite3_errmsg(st->h));
		return -1;
	}
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (*count == cap) {
			cap = cap ? cap * 2 : 128;
			struct tui_point_row *grown = realloc(*rows, cap * sizeof *grown);
			if (!grown) {
				rc = SQLITE_NOMEM;
				break;
			}
			*rows = grown;
		}
		struct tui_point_row *p = &(*rows)[(*count)++];
		column_text(s, 0, p->variant, sizeof p->variant);
		column_text(s, 1, p->dtype, sizeof p->dtype);
		p->n = sqlite3_column_int64(s, 2);
		p->gbps = sqlite3_column_double(s, 3);
		p->run_id = sqlite3_column_int64(s, 4);
	}
	if (rc != SQLITE_DONE) {
		snprintf(err, len, "reading timed results: %s", sqlite3_errstr(rc));
		sqlite3_finalize(s);
		return -1;
	}
	sqlite3_finalize(s);
	return 0;
}
