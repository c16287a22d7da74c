/*
 * timing.c - the names of the timers (timing.h), one table for the
 * protocol, the database and the reports.
 */
#include <string.h>

#include "timing.h"

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
