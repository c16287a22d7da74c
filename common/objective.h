/*
 * objective.h - what "best" minimises: time, energy or their product, and
 * the Pareto front of time and energy.
 *
 * time is the rule of every "best" (timing_rank_cmp, timing.h): the lower
 * upper end of the median's 95 % interval.  energy ranks by the upper end
 * of the energy per launch's interval (joules x (1 + uncertainty),
 * energy.h), edp by the energy-delay product of those two bounds (J x s);
 * in both a result without an energy figure ranks after every result with
 * one, and equal keys fall back on time's rule.  Ranking by the upper ends
 * keeps repeated tunes in agreement, as it does for time.
 */
#ifndef CONFORM_OBJECTIVE_H
#define CONFORM_OBJECTIVE_H

#include <stddef.h>

#include "common/energy.h"

#ifdef __cplusplus
extern "C" {
#endif

enum objective { OBJECTIVE_TIME = 0, OBJECTIVE_ENERGY, OBJECTIVE_EDP };

/* "time", "energy", "edp". */
const char *objective_name(enum objective o);
/* The objective named `word`; -1 when none is. */
int objective_parse(const char *word, enum objective *out);

/* What a ranking reads of a timed result.  joules <= 0 (or NAN): not
 * measured; ci_high_ms <= 0 (or NAN): no interval (the median alone). */
struct objective_key {
	double median_ms, ci_high_ms;
	double joules, uncertainty;
};

/* What a ranking reads of a timed result: its median, the upper end of
 * the median's interval (NAN or 0: none) and its energy figure (joules 0
 * when not measured, energy.h).  The one statement of it for every row
 * type that carries a result (a tune row, a stored result, a tuned row). */
void objective_key_of(struct objective_key *k, double median_ms, double ci_high_ms,
		      const struct energy_stats *e);

/* The figure the objective minimises, as shown: ms, J per launch, or J x s
 * (point values: the median and the energy); -1 when the result has none
 * (energy or edp without an energy figure). */
double objective_value(enum objective o, const struct objective_key *k);

/* < 0 when a ranks before b, > 0 after, 0 when the rule cannot tell. */
int objective_rank_cmp(enum objective o, const struct objective_key *a,
		       const struct objective_key *b);

/* front[i] = 1 when k[i] has an energy figure and no other row is both no
 * slower (median) and no costlier (joules) and better in one; 0 otherwise.
 * Equal points are all on the front. */
void objective_pareto(const struct objective_key *k, size_t n, int *front);

#ifdef __cplusplus
}
#endif
#endif
