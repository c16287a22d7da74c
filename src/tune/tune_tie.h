/*
 * tune_tie.h - which configuration of a variant wins, by the tune's
 * objective (common/objective.h), when measurements cannot tell the best
 * ones apart.
 *
 * Every figure a row is ranked by has an interval: the median's 95 %
 * confidence interval (timing.h; a result stored before there were
 * intervals is its median alone), the energy per launch's joules x (1 -
 * uncertainty) to joules x (1 + uncertainty) (energy.h), and the
 * energy-delay product's, the product of those two (J x s).  The
 * reference is the row with the lowest point figure: the fastest median,
 * the fewest joules, the least joules x median.  The rows whose interval
 * overlaps the reference's are tied with it; among the reference and its
 * ties the objective's rank (objective_rank_cmp, the rule of every "best")
 * picks the winner, the first in order among equals.
 *
 *   time    the lowest upper end of the median's interval, then the lower
 *           median: timing_rank_cmp
 *   energy  the lowest upper end of the energy's interval
 *   edp     the lowest product of the upper ends
 *
 * Picking by upper bound rather than by the point figure keeps repeated
 * tunes in agreement: two medians (or energies) inside each other's noise
 * swap places from run to run, the bound of the tighter measurement much
 * less.  By energy or edp a row without an energy figure is never tied with
 * one that has one, nor picked before it; only when no row has one does
 * time decide, as objective_rank_cmp falls back to it.
 */
#ifndef CONFORM_TUNE_TIE_H
#define CONFORM_TUNE_TIE_H

#include <stddef.h>

#include "common/objective.h"
#include "tune/tune.h"

/* The interval of a timed result's median; one stored before there were
 * intervals (ci_high_ms 0) is its median alone. */
void tune_tie_interval(const struct timing_stats *t, double *lo, double *hi);

/* The interval of r's figure by objective o (see above): ms, J per launch
 * or J x s.  Returns 0, or -1 when r has no such figure (energy or edp of
 * a row without an energy figure). */
int tune_tie_objective_interval(enum objective o, const struct tune_row *r, double *lo, double *hi);

/* What a row is ranked by: its median and interval, its energy per launch
 * and that figure's uncertainty. */
void tune_row_key(const struct tune_row *r, struct objective_key *k);

/* rows[0..ntimed): one variant's timed rows, fastest median first.  Marks
 * the winner by objective o best and, when any other is tied with the
 * reference, every tied row (the reference and the winner too) tied;
 * moves the winner to rows[0], the others keeping their order.  By time
 * the reference is rows[0]. */
void tune_tie_pick(struct tune_row *rows, size_t ntimed, enum objective o);

#endif
