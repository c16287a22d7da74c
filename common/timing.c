/*
 * timing.c - the names of the timers (timing.h), one table for the
 * protocol, the database and the reports; and the rule that ranks two
 * timed results (timing_rank_cmp), one function for every "best".
 */
#include <string.h>

#include "common/timing.h"

static const char *const timer_names[] = {
	[TIMER_NONE] = "-",
	[TIMER_CUPTI] = "cupti",
	[TIMER_EVENTS] = "events",
	[TIMER_HOST] = "host",
};

const char *timing_timer_name(enum timing_timer t)
{
	return (unsigned)t < sizeof timer_names / sizeof timer_names[0] ? timer_names[t] : "-";
}

int timing_timer_parse(const char *word, enum timing_timer *out)
{
	for (unsigned i = 0; i < sizeof timer_names / sizeof timer_names[0]; i++)
		if (strcmp(word, timer_names[i]) == 0) {
			*out = (enum timing_timer)i;
			return 0;
		}
	return -1;
}

double timing_rank_bound(double median_ms, double ci_high_ms)
{
	return ci_high_ms > 0 ? ci_high_ms : median_ms;
}

int timing_rank_cmp(double median_a, double ci_high_a, double median_b, double ci_high_b)
{
	double a = timing_rank_bound(median_a, ci_high_a), b = timing_rank_bound(median_b, ci_high_b);
	if (a != b)
		return a < b ? -1 : 1;
	if (median_a != median_b)
		return median_a < median_b ? -1 : 1;
	return 0;
}
