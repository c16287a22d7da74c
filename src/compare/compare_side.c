/*
 * compare_side.c - a side of conform compare read from the database
 * (compare_side.h).
 *
 * The database sorts a side's results by key, then by id (a result
 * cursor); the reader takes what the filter takes and, of each run of
 * equal keys, gives the last: the newest.  The filter applies before that
 * choice, as it always has: a case whose newest result the filter refuses
 * is compared by its newest result the filter takes.
 */
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/params.h"
#include "common/text.h"
#include "common/vec.h"
#include "compare/compare_side.h"

struct compare_reader {
	struct db_result_cursor *cursor;
	const struct compare_filter *filter;
	int done;                   /* the cursor has given its last row */
	int have;                   /* pending holds the newest entry of the key being read */
	struct db_result_row row;
	struct compare_entry read, pending, given;
};

/* A stored result as an entry: the op from its params ("op=sum"). */
static void entry_from_row(const struct db_result_row *row, struct compare_entry *e)
{
	memset(e, 0, sizeof *e);
	snprintf(e->case_name, sizeof e->case_name, "%s", row->case_name);
	snprintf(e->variant, sizeof e->variant, "%s", row->variant);
	snprintf(e->dtype, sizeof e->dtype, "%s", row->dtype);
	if (params_get(row->params, "op", e->op, sizeof e->op) != 0)
		e->op[0] = '\0';
	e->n = row->n;
	e->cols = row->cols;
	snprintf(e->params, sizeof e->params, "%s", row->params);
	e->status = row->status;
	if (expect_parse(row->expect, &e->expect) != 0)
		e->expect = EXPECT_PASS;
	snprintf(e->observed, sizeof e->observed, "%s", row->observed);
	e->timed = row->samples > 0 && row->status == STATUS_PASS && row->median_ms > 0;
	e->timing.median_ms = row->median_ms;
	e->timing.ci_low_ms = isnan(row->robust.ci_low_ms) ? 0 : row->robust.ci_low_ms;
	e->timing.ci_high_ms = isnan(row->robust.ci_high_ms) ? 0 : row->robust.ci_high_ms;
	e->timing.samples = row->samples;
	e->timing.timer = row->robust.timer;
	e->timing.energy = row->energy;
	e->result_id = row->id;
	e->run_id = row->run_id;
}

static int taken(const struct compare_filter *f, const struct compare_entry *e)
{
	return (!f->glob || fnmatch(f->glob, e->case_name, 0) == 0 || fnmatch(f->glob, e->variant, 0) == 0) &&
	       (!f->dtype || strcmp(f->dtype, e->dtype) == 0) && (!f->op || strcmp(f->op, e->op) == 0) &&
	       (!f->n || f->n == e->n);
}

int compare_reader_open(struct db *db, struct compare_side *s, const struct compare_filter *f,
			struct compare_reader **out, char *err, size_t len)
{
	struct compare_reader *r = calloc(1, sizeof *r);

	*out = NULL;
	if (!r) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	if (db_result_cursor_open(db, s->ids, s->nruns, &r->cursor, err, len) < 0) {
		free(r);
		return -1;
	}
	r->filter = f;
	/* Every text of the run and its results comes through db_column_text,
	 * printable already; the label holds the --tag the user typed. */
	text_sanitize(s->label);
	*out = r;
	return 0;
}

int compare_reader_next(struct compare_reader *r, const struct compare_entry **e, char *err, size_t len)
{
	for (;;) {
		/* A cursor stepped past its end would start again: done stops it. */
		int k = r->done ? 0 : db_result_cursor_next(r->cursor, &r->row, err, len);
		if (k < 0)
			return -1;
		if (k == 0) {
			r->done = 1;
			if (!r->have)
				return 0;
			r->given = r->pending;
			r->have = 0;
			break;
		}
		entry_from_row(&r->row, &r->read);
		if (!taken(r->filter, &r->read))
			continue;
		if (r->have && compare_key_cmp(&r->pending, &r->read) != 0) {
			r->given = r->pending; /* its key has ended */
			r->pending = r->read;
			break;
		}
		r->pending = r->read; /* within a key the newest comes last: it replaces */
		r->have = 1;
	}
	*e = &r->given;
	return 1;
}

void compare_reader_close(struct compare_reader *r)
{
	if (!r)
		return;
	db_result_cursor_close(r->cursor);
	free(r);
}

int compare_side_load(struct db *db, struct compare_side *s, const struct compare_filter *f, char *err,
		      size_t len)
{
	struct compare_reader *r;
	const struct compare_entry *e;
	int k;

	if (compare_reader_open(db, s, f, &r, err, len) < 0)
		return -1;
	while ((k = compare_reader_next(r, &e, err, len)) > 0) {
		if (vec_push(s->entries, s->count, s->cap, *e) < 0) {
			snprintf(err, len, "out of memory");
			k = -1;
			break;
		}
	}
	compare_reader_close(r);
	return k;
}

void compare_side_free(struct compare_side *s)
{
	vec_free(s->entries, s->count, s->cap);
}

int compare_side_of_run(struct db *db, int64_t id, struct compare_side *s, char *err, size_t len)
{
	s->ids[0] = id;
	s->nruns = 1;
	snprintf(s->label, sizeof s->label, "run %lld", (long long)id);
	return db_run_read(db, id, &s->run, err, len);
}
