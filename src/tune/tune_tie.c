/*
 * tune_tie.c - ties between a variant's fastest configurations (see
 * tune_tie.h).  Which of them is best is timing_rank_cmp's to say, as
 * for every other "best".
 */
#include "tune/tune_tie.h"

#include <string.h>

#include "common/timing.h"

void tune_tie_interval(const struct timing_stats *t, double *lo, double *hi)
{
	if (t->ci_high_ms > 0) {
		*lo = t->ci_low_ms;
		*hi = t->ci_high_ms;
	} else {
		*lo = *hi = t->median_ms;
	}
}

void tune_tie_pick(struct tune_row *rows, size_t ntimed)
{
	if (ntimed == 0)
		return;
	size_t win = 0, tied = 0;
	double first_lo, first_hi;
	tune_tie_interval(&rows[0].timing, &first_lo, &first_hi);
	for (size_t i = 1; i < ntimed; i++) {
		double lo, hi;
		tune_tie_interval(&rows[i].timing, &lo, &hi);
		if (lo > first_hi || first_lo > hi) /* apart from the fastest */
			continue;
		rows[i].tied = 1;
		tied++;
		/* The rule every "best" follows; equals go to the first in order. */
		if (timing_rank_cmp(rows[i].timing.median_ms, rows[i].timing.ci_high_ms,
				    rows[win].timing.median_ms, rows[win].timing.ci_high_ms) < 0)
			win = i;
	}
	rows[0].tied = tied > 0;
	if (win > 0) {
		struct tune_row w = rows[win];
		memmove(rows + 1, rows, win * sizeof *rows);
		rows[0] = w;
	}
	rows[0].best = 1;
}
