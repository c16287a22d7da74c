/*
 * best.c - picking the best configuration (see best.h).
 *
 * By time the database does the heavy part (one row per configuration
 * group out of however many results, through the best_configs view and its
 * index); by energy or edp the candidates stream through here, one row
 * kept per group.  The rows kept are few, grouped by device, dtype, op and
 * cols, and the choice of size and variant is made here, in one pass per
 * group.
 */
#include "tune/best.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "common/vec.h"

struct collect {
	struct db_tuned_row *rows;
	size_t count, cap;
	int oom;
	enum objective o;       /* collect_best_row: what ranks a problem's rows */
};

void best_row_key(const struct db_tuned_row *row, struct objective_key *k)
{
	objective_key_of(k, row->median_ms, row->robust.ci_high_ms, &row->energy);
}

static int ranks_before(enum objective o, const struct db_tuned_row *a, const struct db_tuned_row *b)
{
	struct objective_key ka, kb;
	best_row_key(a, &ka);
	best_row_key(b, &kb);
	return objective_rank_cmp(o, &ka, &kb) < 0;
}

static int collect_row(void *ctx, const struct db_tuned_row *row)
{
	struct collect *c = ctx;
	if (vec_push(c->rows, c->count, c->cap, *row) < 0) {
		c->oom = 1;
		return 1;
	}
	return 0;
}

static int same_group(const struct db_tuned_row *a, const struct db_tuned_row *b)
{
	return a->device_id == b->device_id && strcmp(a->dtype, b->dtype) == 0 &&
	       strcmp(a->op, b->op) == 0 && a->cols == b->cols;
}

/* 1 when a and b are results of one problem: a group's variant at one size
 * (best_configs' group). */
static int same_problem(const struct db_tuned_row *a, const struct db_tuned_row *b)
{
	return same_group(a, b) && strcmp(a->variant, b->variant) == 0 && a->n == b->n;
}

/* db_timed_each's rows come a problem at a time: each problem's best by
 * c->o, the first among equals, is kept. */
static int collect_best_row(void *ctx, const struct db_tuned_row *row)
{
	struct collect *c = ctx;
	struct db_tuned_row *last = c->count ? &c->rows[c->count - 1] : NULL;
	if (last && same_problem(last, row)) {
		if (ranks_before(c->o, row, last))
			*last = *row;
		return 0;
	}
	return collect_row(ctx, row);
}


/* How far size m is from n, in octaves. */
static double distance(int64_t m, int64_t n)
{
	return fabs(log2((double)m) - log2((double)n));
}

/* The best of rows[0..n), one group: nearest size, then the best there by
 * objective o (the first of equals). */
static const struct db_tuned_row *group_best(const struct db_tuned_row *rows, size_t n,
					     int64_t want, enum objective o)
{
	int64_t size = rows[0].n;
	for (size_t i = 1; i < n; i++) {
		double d = distance(rows[i].n, want), e = distance(size, want);
		if (d < e || (d == e && rows[i].n > size))
			size = rows[i].n;
	}
	const struct db_tuned_row *best = NULL;
	for (size_t i = 0; i < n; i++)
		if (rows[i].n == size && (!best || ranks_before(o, &rows[i], best)))
			best = &rows[i];
	return best;
}

/* The rows that each(db, q) calls back with, through keep (collect_row:
 * every one, in its order): best_rows and best_history. */
static int collect_rows(int (*each)(struct db *, const struct db_tuned_query *, db_tuned_fn, void *,
				    char *, size_t),
			db_tuned_fn keep, enum objective o, struct db *db,
			const struct db_tuned_query *q, struct db_tuned_row **out, size_t *count,
			char *err, size_t len)
{
	struct collect c = {.o = o};
	*out = NULL;
	*count = 0;
	if (each(db, q, keep, &c, err, len) < 0 || c.oom) {
		if (c.oom)
			snprintf(err, len, "out of memory");
		free(c.rows);
		return -1;
	}
	*out = c.rows;
	*count = c.count;
	return 0;
}

int best_rows(struct db *db, const struct db_tuned_query *q, enum objective o,
	      struct db_tuned_row **out, size_t *count, char *err, size_t len)
{
	if (o == OBJECTIVE_TIME)
		return collect_rows(db_best_each, collect_row, o, db, q, out, count, err, len);
	return collect_rows(db_timed_each, collect_best_row, o, db, q, out, count, err, len);
}

int best_history(struct db *db, const struct db_tuned_query *q, struct db_tuned_row **out,
		 size_t *count, char *err, size_t len)
{
	return collect_rows(db_history_each, collect_row, OBJECTIVE_TIME, db, q, out, count, err, len);
}

int best_lookup(struct db *db, const struct db_tuned_query *q, enum objective o,
		struct best_answer **out, size_t *count, char *err, size_t len)
{
	struct db_tuned_row *rows;
	size_t nrows;
	*out = NULL;
	*count = 0;
	if (best_rows(db, q, o, &rows, &nrows, err, len) < 0)
		return -1;
	struct best_answer *a = calloc(nrows ? nrows : 1, sizeof *a);
	if (!a) {
		snprintf(err, len, "out of memory");
		free(rows);
		return -1;
	}
	size_t n = 0;
	for (size_t i = 0; i < nrows;) {
		size_t j = i + 1;
		while (j < nrows && same_group(&rows[i], &rows[j]))
			j++;
		const struct db_tuned_row *b = group_best(&rows[i], j - i, q->n, o);
		a[n].row = *b;
		a[n].requested_n = q->n;
		a[n].exact = b->n == q->n;
		n++;
		i = j;
	}
	free(rows);
	*out = a;
	*count = n;
	return 0;
}

static int first_row(void *ctx, const struct db_tuned_row *row)
{
	(void)row;
	*(int *)ctx = 1;
	return 1;
}

void best_explain_none(struct db *db, const char *db_path, const struct db_tuned_query *q,
		       int n_filters, char *msg, size_t len)
{
	char tuned[512], err[256];
	if (db_tuned_variants(db, tuned, sizeof tuned, err, sizeof err) < 0) {
		snprintf(msg, len, "%s", err);
		return;
	}
	if (!tuned[0]) {
		snprintf(msg, len, "%s: no tuning results yet (conform tune stores them)", db_path);
		return;
	}
	struct db_tuned_query any = {.pattern = q->pattern};
	int found = 0;
	if (db_best_each(db, &any, first_row, &found, err, sizeof err) < 0) {
		snprintf(msg, len, "%s", err);
		return;
	}
	if (found) {
		char filters[256] = "", count[32] = "";
		if (n_filters && q->n > 0)
			text_count(count, sizeof count, q->n);
		snprintf(filters, sizeof filters, "%s%s%s%s%s%s%s%s", q->dtype ? " dtype=" : "",
			 q->dtype ? q->dtype : "", q->op ? " op=" : "", q->op ? q->op : "",
			 q->device ? " gpu=" : "", q->device ? q->device : "", count[0] ? " n=" : "",
			 count);
		snprintf(msg, len, "no tuning results for '%s' with%s", q->pattern, filters);
	} else
		snprintf(msg, len, "no tuning results for '%s' (tuned: %s)", q->pattern, tuned);
}
