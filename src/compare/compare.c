/*
 * compare.c - verdicts and changes between two runs, and their tallies
 * (compare.h).  The tallies keep copies of the best entries, never
 * pointers into a side, so that a streamed comparison, whose entries last
 * one item, and one made in memory count alike.
 */
#include <stdlib.h>
#include <string.h>

#include "common/energy.h"
#include "common/timing.h"
#include "common/vec.h"
#include "compare/compare.h"
#include "tune/tune_tie.h"

const char *compare_verdict_name(enum compare_verdict v)
{
	static const char *const names[] = {"SAME", "FASTER", "SLOWER"};
	return names[v];
}

const char *compare_energy_name(enum energy_verdict v)
{
	static const char *const names[] = {"not measured", "same", "less", "more"};
	return names[v];
}

enum energy_verdict compare_energy(const struct energy_stats *base, const struct energy_stats *cand,
				   double *ratio)
{
	*ratio = 0;
	if (!energy_measured(base) || !energy_measured(cand))
		return ENERGY_VERDICT_NONE;
	*ratio = cand->joules / base->joules;
	/* Each figure's own uncertainty, and what separates two measurements
	 * of one configuration beyond them. */
	double margin = base->uncertainty + cand->uncertainty + ENERGY_REPEAT;
	if (*ratio - 1 > margin)
		return ENERGY_VERDICT_MORE;
	if (*ratio - 1 < -margin)
		return ENERGY_VERDICT_LESS;
	return ENERGY_VERDICT_SAME;
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

/* Whether two entries time the same problem (the best's grouping). */
static int same_problem(const struct compare_entry *a, const struct compare_entry *b)
{
	return strcmp(a->variant, b->variant) == 0 && strcmp(a->dtype, b->dtype) == 0 &&
	       strcmp(a->op, b->op) == 0 && a->n == b->n && a->cols == b->cols;
}

/* Keeps e in *slot when it ranks before it (timing_rank_cmp, the rule of
 * every "best"): the first met of equals stays. */
static int best_keep(struct compare_entry **slot, const struct compare_entry *e)
{
	if (*slot && timing_rank_cmp(e->timing.median_ms, e->timing.ci_high_ms, (*slot)->timing.median_ms,
				     (*slot)->timing.ci_high_ms) >= 0)
		return 0;
	if (!*slot && !(*slot = malloc(sizeof **slot)))
		return -1;
	**slot = *e;
	return 0;
}

static int best_add(struct compare_result *r, const struct compare_entry *e, int cand)
{
	if (!e || !e->timed)
		return 0;
	for (size_t i = 0; i < r->nbest; i++) {
		struct compare_best *b = &r->best[i];
		const struct compare_entry *any = b->base ? b->base : b->cand;
		if (same_problem(any, e))
			return best_keep(cand ? &b->cand : &b->base, e);
	}
	struct compare_best b = {NULL, NULL};
	if (best_keep(cand ? &b.cand : &b.base, e) < 0)
		return -1;
	if (vec_push(r->best, r->nbest, r->capbest, b) < 0) {
		free(cand ? b.cand : b.base);
		return -1;
	}
	return 0;
}

int compare_pair_order(const struct compare_entry *base, const struct compare_entry *cand)
{
	return !base ? 1 : !cand ? -1 : compare_key_cmp(base, cand);
}

void compare_item_make(const struct compare_entry *base, const struct compare_entry *cand, double threshold,
		       struct compare_item *it)
{
	memset(it, 0, sizeof *it);
	it->base = base;
	it->cand = cand;
	it->change = compare_status(base, cand);
	it->timed = base && cand && base->timed && cand->timed;
	if (it->timed) {
		it->verdict = compare_timing(base, cand, threshold, &it->ratio, &it->lo, &it->hi);
		it->energy = compare_energy(&base->timing.energy, &cand->timing.energy, &it->energy_ratio);
	}
}

void compare_result_init(struct compare_result *r, struct compare_side *base, struct compare_side *cand,
			 double threshold)
{
	memset(r, 0, sizeof *r);
	r->base = base;
	r->cand = cand;
	r->threshold = threshold;
}

int compare_tally(struct compare_result *r, const struct compare_item *it)
{
	if (it->timed) {
		r->verdicts[it->verdict]++;
		r->mixed_timers |= it->base->timing.timer != it->cand->timing.timer;
		r->energy[it->energy]++;
		r->energy_seen += energy_measured(&it->base->timing.energy) || energy_measured(&it->cand->timing.energy);
		r->more_energy_slower += it->energy == ENERGY_VERDICT_MORE && it->verdict == VERDICT_SLOWER;
	}
	r->counts[it->change]++;
	r->reported += it->change != CHANGE_NONE || it->timed;
	r->nitems++;
	return best_add(r, it->base, 0) < 0 || best_add(r, it->cand, 1) < 0 ? -1 : 0;
}

int compare_run(struct compare_side *base, struct compare_side *cand, double threshold,
		struct compare_result *out)
{
	size_t i = 0, j = 0;

	compare_result_init(out, base, cand, threshold);
	for (;;) {
		const struct compare_entry *b = i < base->count ? &base->entries[i] : NULL;
		const struct compare_entry *c = j < cand->count ? &cand->entries[j] : NULL;
		struct compare_item it;
		if (!b && !c)
			return 0;
		int order = compare_pair_order(b, c);
		compare_item_make(order <= 0 ? b : NULL, order >= 0 ? c : NULL, threshold, &it);
		i += order <= 0;
		j += order >= 0;
		if (vec_reserve(out->items, out->nitems, out->capitems, 1) < 0)
			goto oom;
		out->items[out->nitems] = it;
		if (compare_tally(out, &it) < 0) /* which counts it into nitems */
			goto oom;
	}
oom:
	compare_result_free(out);
	return -1;
}

void compare_result_free(struct compare_result *r)
{
	for (size_t i = 0; i < r->nbest; i++) {
		free(r->best[i].base);
		free(r->best[i].cand);
	}
	vec_free(r->items, r->nitems, r->capitems);
	vec_free(r->best, r->nbest, r->capbest);
}

int compare_failures(const struct compare_result *r)
{
	int n = r->counts[CHANGE_REGRESSION] + r->verdicts[VERDICT_SLOWER];
	if (r->gate_energy)
		n += r->energy[ENERGY_VERDICT_MORE] - r->more_energy_slower;
	return n;
}

int compare_regressed(const struct compare_result *r)
{
	return compare_failures(r) > 0;
}

int compare_overlaps(const struct compare_result *r)
{
	return r->nitems > (size_t)(r->counts[CHANGE_NEW] + r->counts[CHANGE_REMOVED]);
}
