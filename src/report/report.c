/*
 * report.c - what every sink shares: the summary line.
 */
#include "report.h"

#include <stdio.h>

void report_summary_line(const struct run_summary *s, char *buf, size_t len)
{
	snprintf(buf, len, "%d passed, %d failed, %d skipped", s->tally[TALLY_PASSED],
		 s->tally[TALLY_FAILED], s->tally[TALLY_SKIPPED]);
}
