/*
 * tune_tie.c - a variant's best by the objective, among the configurations
 * measurements cannot tell apart (see tune_tie.h).  Which of them is best
 * is objective_rank_cmp's to say, as for every other "best".
 */
#include "tune/tune_tie.h"

#include <stdint.h>
#include <string.h>

#include "common/energy.h"

void tune_tie_interval(const struct timing_stats *t, double *lo, double *hi)
{
	if (t->ci_high_ms > 0) {
		*lo = t->ci_low_ms;
		*hi = t->ci_high_ms;
	} else {
		*lo = *hi = t->median_ms;
	}
}

int tune_tie_objective_interval(enum objective o, const struct tune_row *r, double *lo, double *hi)
{
	const struct energy_stats *e = &r->timing.energy;
	tune_tie_interval(&r->timing, lo, hi);
	if (o == OBJECTIVE_TIME)
		return 0;
	if (!energy_measured(e))
		return -1;
	double u = e->uncertainty > 0 ? e->uncertainty : 0;
	double elo = u < 1 ? e->joules * (1 - u) : 0, ehi = e->joules * (1 + u);
	if (o == OBJECTIVE_EDP) {
		*lo = elo * *lo * 1e-3;
		*hi = ehi * *hi * 1e-3;
	} else {
		*lo = elo;
		*hi = ehi;
	}
	return 0;
}

void tune_row_key(const struct tune_row *r, struct objective_key *k)
{
	objective_key_of(k, r->timing.median_ms, r->timing.ci_high_ms, &r->timing.energy);
}

void tune_tie_pick(struct tune_row *rows, size_t ntimed, enum objective o)
{
	if (ntimed == 0)
		return;
	/* The objective judges when some row has its figure (then the winner
	 * is among those rows); else time does (objective_rank_cmp's
	 * fallback).  The reference: the lowest point figure, the first among
	 * equals, which by time is rows[0]. */
	enum objective by = OBJECTIVE_TIME;
	for (size_t i = 0; i < ntimed && by == OBJECTIVE_TIME; i++) {
		struct objective_key k;
		tune_row_key(&rows[i], &k);
		if (objective_value(o, &k) >= 0)
			by = o;
	}
	size_t ref = SIZE_MAX;
	double ref_value = 0;
	for (size_t i = 0; i < ntimed; i++) {
		struct objective_key k;
		tune_row_key(&rows[i], &k);
		double v = objective_value(by, &k);
		if (v >= 0 && (ref == SIZE_MAX || v < ref_value)) {
			ref = i;
			ref_value = v;
		}
	}
	if (ref == SIZE_MAX)
		ref = 0; /* by time, no median >= 0 (a damaged row): rows[0], the fastest */
	double ref_lo, ref_hi;
	tune_tie_objective_interval(by, &rows[ref], &ref_lo, &ref_hi);
	size_t win = ref, tied = 0;
	struct objective_key kw;
	tune_row_key(&rows[win], &kw);
	for (size_t i = 0; i < ntimed; i++) {
		double lo, hi;
		if (i == ref || tune_tie_objective_interval(by, &rows[i], &lo, &hi) < 0)
			continue;
		if (lo > ref_hi || ref_lo > hi) /* apart from the reference */
			continue;
		rows[i].tied = 1;
		tied++;
		/* The rule every "best" follows; equals go to the first in order. */
		struct objective_key k;
		tune_row_key(&rows[i], &k);
		if (objective_rank_cmp(o, &k, &kw) < 0 || (objective_rank_cmp(o, &k, &kw) == 0 && i < win)) {
			win = i;
			kw = k;
		}
	}
	rows[ref].tied = tied > 0;
	if (win > 0) {
		struct tune_row w = rows[win];
		memmove(rows + 1, rows, win * sizeof *rows);
		rows[0] = w;
	}
	rows[0].best = 1;
}
