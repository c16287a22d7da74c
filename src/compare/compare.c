/*
 * compare.c - verdicts and changes between two runs (compare.h).
 */
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "params.h"
#include "text.h"
#include "tune_tie.h"
#include "vec.h"

const char *compare_verdict_name(enum compare_verdict v)
{
	static const char *const names[] = {"SAME", "FASTER", "SLOWER"};
	return names[v];
}

const char *compare_change_name(enum compare_change c)
{
	static const char *const names[] = {"", "regression", "fixed", "status", "observed", "new", "removed"};
	return names[c];
}

enum compare_verdict compare_timing(const struct compare_entry *base, const struct compare_entry *cand,
				    double threshold, double *ratio, double *lo, double *hi)
{
	double blo, bhi, clo, chi;

	/* A median stored without an interval is its point, as for ties. */
	tune_tie_interval(&base->timing, &blo, &bhi);
	tune_tie_interval(&cand->timing, &clo, &chi);
	*ratio = cand->timing.median_ms / base->timing.median_ms;
	*lo = clo / bhi;
	*hi = chi / blo;
	if (*ratio > 1 + threshold && clo > bhi)
		return VERDICT_SLOWER;
	if (*ratio < 1 / (1 + threshold) && chi < blo)
		return VERDICT_FASTER;
	return VERDICT_SAME;
}

static int failing(enum status s)
{
	return status_tally(s) == TALLY_FAILED;
}

enum compare_change compare_status(const struct compare_entry *base, const struct compare_entry *cand)
{
	if (!base)
		return !cand ? CHANGE_NONE : failing(cand->status) ? CHANGE_REGRESSION : CHANGE_NEW;
	if (!cand)
		return CHANGE_REMOVED;
	if (failing(cand->status) && !failing(base->status))
		return CHANGE_REGRESSION;
	if (failing(base->status) && !failing(cand->status))
		return CHANGE_FIXED;
	if (base->status != cand->status)
		return CHANGE_STATUS;
	if (strcmp(base->observed, cand->observed) != 0)
		return CHANGE_OBSERVED;
	return CHANGE_NONE;
}

int compare_key_cmp(const struct compare_entry *a, const struct compare_entry *b)
{
	int c = strcmp(a->case_name, b->case_name);
	return c ? c : strcmp(a->params, b->params);
}

static int entry_cmp(const void *x, const void *y)
{
	const struct compare_entry *a = x, *b = y;
	int c = compare_key_cmp(a, b);
	if (c)
		return c;
	return a->result_id < b->result_id ? -1 : a->result_id > b->result_id;
}

size_t compare_dedupe(struct compare_entry *e, size_t n)
{
	size_t m = 0;

	if (n == 0) /* e may be NULL: a side with nothing the filter takes */
		return 0;
	qsort(e, n, sizeof *e, entry_cmp);
	for (size_t i = 0; i < n; i++) {
		/* Within a key the newest sorts last: it overwrites. */
		if (m > 0 && compare_key_cmp(&e[m - 1], &e[i]) == 0)
			e[m - 1] = e[i];
		else
			e[m++] = e[i];
	}
	return m;
}

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
	e->result_id = row->id;
	e->run_id = row->run_id;
}

static int taken(const struct compare_filter *f, const struct compare_entry *e)
{
	return (!f->glob || fnmatch(f->glob, e->case_name, 0) == 0 || fnmatch(f->glob, e->variant, 0) == 0) &&
	       (!f->dtype || strcmp(f->dtype, e->dtype) == 0) && (!f->op || strcmp(f->op, e->op) == 0) &&
	       (!f->n || f->n == e->n);
}

/* Every string of a side as a terminal may show it (text_sanitize): a
 * database is data, and one merged from elsewhere may hold escape
 * sequences in a case name, a tag or a message. */
static void side_sanitize(struct compare_side *s)
{
	char *const run_text[] = {s->run.started_at, s->run.state, s->run.reason, s->run.command_line,
				  s->run.device, s->run.tag, s->run.git_revision, s->run.source, s->label};

	for (size_t i = 0; i < sizeof run_text / sizeof run_text[0]; i++)
		text_sanitize(run_text[i]);
	for (size_t i = 0; i < s->count; i++) {
		struct compare_entry *e = &s->entries[i];
		text_sanitize(e->case_name);
		text_sanitize(e->variant);
		text_sanitize(e->dtype);
		text_sanitize(e->op);
		text_sanitize(e->params);
		text_sanitize(e->observed);
	}
}

int compare_side_load(struct db *db, struct compare_side *s, const struct compare_filter *f, char *err,
		      size_t len)
{
	for (size_t k = 0; k < s->nruns; k++) {
		struct db_result_row *rows = NULL;
		size_t n = 0;
		if (db_run_results(db, s->ids[k], &rows, &n, err, len) < 0)
			return -1;
		for (size_t i = 0; i < n; i++) {
			struct compare_entry e;
			entry_from_row(&rows[i], &e);
			if (!taken(f, &e))
				continue;
			if (vec_push(s->entries, s->count, s->cap, e) < 0) {
				free(rows);
				snprintf(err, len, "out of memory");
				return -1;
			}
		}
		free(rows);
	}
	s->count = compare_dedupe(s->entries, s->count);
	side_sanitize(s);
	return 0;
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

/* Whether two entries time the same problem (the best's grouping). */
static int same_problem(const struct compare_entry *a, const struct compare_entry *b)
{
	return strcmp(a->variant, b->variant) == 0 && strcmp(a->dtype, b->dtype) == 0 &&
	       strcmp(a->op, b->op) == 0 && a->n == b->n && a->cols == b->cols;
}

static int best_add(struct compare_result *r, const struct compare_entry *e, int cand)
{
	if (!e || !e->timed)
		return 0;
	for (size_t i = 0; i < r->nbest; i++) {
		struct compare_best *b = &r->best[i];
		const struct compare_entry *any = b->base ? b->base : b->cand;
		if (!same_problem(any, e))
			continue;
		const struct compare_entry **slot = cand ? &b->cand : &b->base;
		if (!*slot || e->timing.median_ms < (*slot)->timing.median_ms)
			*slot = e;
		return 0;
	}
	struct compare_best b = {cand ? NULL : e, cand ? e : NULL};
	return vec_push(r->best, r->nbest, r->capbest, b);
}

int compare_run(struct compare_side *base, struct compare_side *cand, double threshold,
		struct compare_result *out)
{
	size_t i = 0, j = 0;

	memset(out, 0, sizeof *out);
	out->base = base;
	out->cand = cand;
	out->threshold = threshold;
	while (i < base->count || j < cand->count) {
		struct compare_item it = {0};
		int c = i == base->count ? 1 : j == cand->count ? -1
								 : compare_key_cmp(&base->entries[i], &cand->entries[j]);
		it.base = c <= 0 ? &base->entries[i++] : NULL;
		it.cand = c >= 0 ? &cand->entries[j++] : NULL;
		it.change = compare_status(it.base, it.cand);
		it.timed = it.base && it.cand && it.base->timed && it.cand->timed;
		if (it.timed) {
			it.verdict = compare_timing(it.base, it.cand, threshold, &it.ratio, &it.lo, &it.hi);
			out->verdicts[it.verdict]++;
			out->mixed_timers |= it.base->timing.timer != it.cand->timing.timer;
		}
		out->counts[it.change]++;
		if (vec_push(out->items, out->nitems, out->capitems, it) < 0 ||
		    best_add(out, it.base, 0) < 0 || best_add(out, it.cand, 1) < 0) {
			compare_result_free(out);
			return -1;
		}
	}
	return 0;
}

void compare_result_free(struct compare_result *r)
{
	vec_free(r->items, r->nitems, r->capitems);
	vec_free(r->best, r->nbest, r->capbest);
}

int compare_regressed(const struct compare_result *r)
{
	return r->counts[CHANGE_REGRESSION] > 0 || r->verdicts[VERDICT_SLOWER] > 0;
}

int compare_overlaps(const struct compare_result *r)
{
	return r->nitems > (size_t)(r->counts[CHANGE_NEW] + r->counts[CHANGE_REMOVED]);
}
