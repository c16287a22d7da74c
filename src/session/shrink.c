/*
 * shrink.c - the smallest failing problem below one that failed, asked
 * for one problem at a time (see shrink.h for the search and its rules).
 *
 * The state is a small machine per dimension: the ascent over the ladder,
 * bisection, then (rows problems) the next dimension or the confirming
 * run of (rows - 1) x cols.  shrink_want() says which size the machine
 * wants next; a size whose problem was already run (the original, or a
 * shape the rows search reached before the cols search) is answered from
 * the record without asking, which is what keeps every problem asked
 * once.
 */
#include "session/shrink.h"

#include <stdio.h>
#include <string.h>

#include "common/text.h"

enum shrink_stage {
	STAGE_ASCEND,  /* the ladder below f, ascending */
	STAGE_BISECT,  /* between lo and f */
	STAGE_CONFIRM, /* rows problems: (rows - 1) x cols at the shrunk shape */
	STAGE_DONE,
};

void shrink_init(struct shrink *s, int64_t n, int64_t cols, const struct shrink_limits *lim)
{
	memset(s, 0, sizeof *s);
	s->n = n;
	s->cols = cols;
	s->rows = cols > 0;
	s->stage = n > 0 && cols >= 0 ? STAGE_ASCEND : STAGE_DONE;
	s->max_probes = lim && lim->max_probes > 0 ? lim->max_probes : SHRINK_PROBES_DEFAULT;
	if (s->max_probes > SHRINK_PROBES_MAX)
		s->max_probes = SHRINK_PROBES_MAX;
	s->max_s = lim && lim->max_s > 0 ? lim->max_s : SHRINK_SECONDS_DEFAULT;
	/* The original failed: it is never asked again. */
	s->seen[0] = (struct shrink_seen){n, cols, SHRINK_FAIL};
	s->nseen = 1;
}

/* The smallest ladder size above x: 1, 2, 3, then 2^k - 1, 2^k, 2^k + 1
 * for k >= 2; INT64_MAX past 2^62 + 1. */
static int64_t ladder_next(int64_t x)
{
	if (x < 3)
		return x + 1;
	for (int k = 2; k <= 62; k++) {
		int64_t p = (int64_t)1 << k;
		if (p - 1 > x)
			return p - 1;
		if (p > x)
			return p;
		if (p + 1 > x)
			return p + 1;
	}
	return INT64_MAX;
}

/* The failing size of the dimension searched. */
static int64_t shrink_f(const struct shrink *s)
{
	return s->dim ? s->cols : s->n;
}

static void shrink_set_f(struct shrink *s, int64_t v)
{
	if (s->dim)
		s->cols = v;
	else
		s->n = v;
}

/* The problem whose searched dimension is v, the other as it is now. */
static void shrink_problem(const struct shrink *s, int64_t v, int64_t *n, int64_t *cols)
{
	*n = s->dim ? s->n : v;
	*cols = s->dim ? v : s->cols;
}

/* Where (n, cols) is in the record, or -1. */
static int shrink_find(const struct shrink *s, int64_t n, int64_t cols)
{
	for (int i = 0; i < s->nseen; i++)
		if (s->seen[i].n == n && s->seen[i].cols == cols)
			return i;
	return -1;
}

/* A search starting in dimension dim below its failing size. */
static void shrink_begin_dim(struct shrink *s, int dim)
{
	s->dim = dim;
	s->stage = STAGE_ASCEND;
	s->cand = 0;
	s->lo = 0;
}

/* The dimension's bisection ended: the next dimension, the confirming
 * run, or the end. */
static void shrink_dim_done(struct shrink *s)
{
	if (!s->rows)
		s->stage = STAGE_DONE;
	else if (s->dim == 0)
		shrink_begin_dim(s, 1);
	else if (s->n > 1) {
		s->dim = 0;
		s->stage = STAGE_CONFIRM;
	} else
		s->stage = STAGE_DONE;
}

/* The size the search wants run next, in the dimension s->dim: 1, or 0
 * when it is over. */
static int shrink_want(struct shrink *s, int64_t *v)
{
	for (;;) {
		int64_t f = shrink_f(s);
		switch (s->stage) {
		case STAGE_ASCEND: {
			int64_t c = ladder_next(s->cand);
			if (c < f) {
				*v = c;
				return 1;
			}
			/* No candidate failed: f stays, lo is the largest
			 * that passed. */
			s->stage = STAGE_BISECT;
			break;
		}
		case STAGE_BISECT:
			if (s->lo > 0 && f > s->lo + 1) {
				*v = s->lo + (f - s->lo) / 2;
				return 1;
			}
			shrink_dim_done(s);
			break;
		case STAGE_CONFIRM:
			*v = s->n - 1;
			return 1;
		default:
			return 0;
		}
	}
}

/* What the size v the search wanted did (asked, or found in the record). */
static void shrink_apply(struct shrink *s, int64_t v, enum shrink_outcome o)
{
	switch (s->stage) {
	case STAGE_ASCEND:
		s->cand = v;
		if (o == SHRINK_FAIL) {
			shrink_set_f(s, v);
			s->stage = STAGE_BISECT;
		} else if (o == SHRINK_PASS)
			s->lo = v;
		break;
	case STAGE_BISECT:
		/* An unknown mid moves lo as a pass would, and is never
		 * reported as passing (shrink_result reads the record). */
		if (o == SHRINK_FAIL)
			shrink_set_f(s, v);
		else
			s->lo = v;
		break;
	case STAGE_CONFIRM:
		if (o == SHRINK_FAIL) {
			/* A smaller shape at these cols: a new round. */
			s->n = v;
			shrink_begin_dim(s, 0);
		} else
			s->stage = STAGE_DONE;
		break;
	default:
		break;
	}
}

/* Stops the search at a limit, saying which: "48 probes", "60 s". */
static void shrink_cut(struct shrink *s, int by_probes)
{
	s->stage = STAGE_DONE;
	s->cut_short = 1;
	if (by_probes)
		snprintf(s->why_cut, sizeof s->why_cut, "%d probe%s", s->max_probes,
			 s->max_probes == 1 ? "" : "s");
	else
		snprintf(s->why_cut, sizeof s->why_cut, "%g s", s->max_s);
}

int shrink_next(struct shrink *s, double now, int64_t *n, int64_t *cols)
{
	if (s->pending) {
		*n = s->pend_n;
		*cols = s->pend_cols;
		return 1;
	}
	if (!s->started) {
		s->started = 1;
		s->started_at = now;
	}
	int64_t v;
	while (shrink_want(s, &v)) {
		int64_t pn, pc;
		shrink_problem(s, v, &pn, &pc);
		int i = shrink_find(s, pn, pc);
		if (i >= 0) {
			shrink_apply(s, v, s->seen[i].outcome);
			continue;
		}
		/* Limits are checked only when a new problem is wanted, so a
		 * search that ends on its last probe is not "cut short". */
		if (s->probes >= s->max_probes || now - s->started_at >= s->max_s) {
			shrink_cut(s, s->probes >= s->max_probes);
			return 0;
		}
		s->pending = 1;
		s->pend_n = *n = pn;
		s->pend_cols = *cols = pc;
		s->probes++;
		return 1;
	}
	return 0;
}

void shrink_tell(struct shrink *s, enum shrink_outcome outcome)
{
	if (!s->pending)
		return;
	if (outcome != SHRINK_PASS && outcome != SHRINK_FAIL)
		outcome = SHRINK_UNKNOWN;
	s->pending = 0;
	/* nseen <= probes + 1 <= SHRINK_PROBES_MAX + 1: room is certain. */
	s->seen[s->nseen++] = (struct shrink_seen){s->pend_n, s->pend_cols, outcome};
	shrink_apply(s, s->dim ? s->pend_cols : s->pend_n, outcome);
}

/* 1 when (n, cols) was run and passed. */
static int shrink_passed(const struct shrink *s, int64_t n, int64_t cols)
{
	int i = n > 0 && cols >= 0 ? shrink_find(s, n, cols) : -1;
	return i >= 0 && s->seen[i].outcome == SHRINK_PASS;
}

void shrink_result(const struct shrink *s, struct shrink_result *r)
{
	memset(r, 0, sizeof *r);
	r->n = s->n;
	r->cols = s->cols;
	r->pass_n = r->pass_cols = r->pass_fewer_rows = -1;
	if (!s->rows) {
		if (shrink_passed(s, s->n - 1, 0)) {
			r->pass_n = s->n - 1;
			r->pass_cols = 0;
		}
	} else {
		if (s->cols > 1 && shrink_passed(s, s->n, s->cols - 1)) {
			r->pass_n = s->n;
			r->pass_cols = s->cols - 1;
		}
		if (shrink_passed(s, s->n - 1, s->cols))
			r->pass_fewer_rows = s->n - 1;
	}
	r->probes = s->probes;
	r->cut_short = s->cut_short;
	snprintf(r->why_cut, sizeof r->why_cut, "%s", s->why_cut);
}

/* A size as conform writes sizes (text_count: 2^20, 97). */
static const char *shrink_size(char *buf, size_t len, int64_t v)
{
	text_count(buf, len, (long long)v);
	return buf;
}

void shrink_describe(const struct shrink_result *r, char *buf, size_t len)
{
	int rows = r->cols > 0;
	char probes[32], a[24], b[24];

	if (len == 0)
		return;
	buf[0] = '\0';
	snprintf(probes, sizeof probes, "%d probe%s", r->probes, r->probes == 1 ? "" : "s");
	if (r->cut_short)
		text_appendf(buf, len, "search cut short after %s: smallest failing found ", r->why_cut);
	else
		text_appendf(buf, len, "smallest failing %s ", rows ? "shape" : "size");
	if (rows)
		text_appendf(buf, len, "%s x %s", shrink_size(a, sizeof a, r->n), shrink_size(b, sizeof b, r->cols));
	else
		text_appendf(buf, len, "n = %s", shrink_size(a, sizeof a, r->n));

	/* Only the neighbours that were run and passed. */
	int npass = (r->pass_n >= 0) + (r->pass_fewer_rows >= 0);
	if (npass > 0)
		text_appendf(buf, len, " (passes at ");
	if (r->pass_n >= 0 && rows)
		text_appendf(buf, len, "%s x %s", shrink_size(a, sizeof a, r->pass_n),
			     shrink_size(b, sizeof b, r->pass_cols));
	else if (r->pass_n >= 0)
		text_appendf(buf, len, "n = %s", shrink_size(a, sizeof a, r->pass_n));
	if (npass == 2)
		text_appendf(buf, len, " and ");
	if (r->pass_fewer_rows >= 0)
		text_appendf(buf, len, "%s x %s", shrink_size(a, sizeof a, r->pass_fewer_rows),
			     shrink_size(b, sizeof b, r->cols));
	if (npass > 0)
		text_appendf(buf, len, ")");
	/* A search cut at its probe budget has said its count already. */
	if (!r->cut_short || strcmp(r->why_cut, probes) != 0)
		text_appendf(buf, len, "; %s", probes);
}
