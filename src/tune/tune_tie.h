/*
 * tune_tie.h - which configuration of a variant wins when measurements
 * cannot tell the fastest ones apart.
 *
 * Each timed configuration carries a 95 % confidence interval of its median
 * (timing.h).  The configurations whose interval overlaps that of the
 * fastest median are tied with it; among them the one with the lowest upper
 * bound (ci_high_ms) wins, then the lower median, then the first in order:
 * timing_rank_cmp (timing.h), the rule of every "best".
 * Picking by upper bound rather than by median keeps repeated tunes in
 * agreement: two medians inside each other's noise swap places from run to
 * run, the bound of the tighter measurement much less.
 */
#ifndef CONFORM_TUNE_TIE_H
#define CONFORM_TUNE_TIE_H

#include <stddef.h>

#include "tune/tune.h"

/* The interval of a timed result's median; one stored before there were
 * intervals (ci_high_ms 0) is its median alone. */
void tune_tie_interval(const struct timing_stats *t, double *lo, double *hi);

/* rows[0..ntimed): one variant's timed rows, fastest median first.  Marks
 * the winner best and, when any other is tied with it, every tied row
 * (the winner too) tied; moves the winner to rows[0], the others keeping
 * their order. */
void tune_tie_pick(struct tune_row *rows, size_t ntimed);

#endif
