/*
 * report.c - what every sink shares: the device's name, the summary line,
 * and which results a baseline makes known failures or fixed ones.
 */
#include "report/report.h"

#include <stdio.h>

#include "db/db.h"

const char *report_device(const struct run_context *rc)
{
	return db_device_label(rc->has_gpu ? rc->gpu.name : "");
}

int report_spread(const struct run_context *rc)
{
	return rc->has_gpu && rc->ndevices > 1 ? rc->ndevices : 0;
}

void report_summary_line(const struct run_summary *s, char *buf, size_t len)
{
	char known[32] = "", fixed[64] = "";

	if (s->known)
		snprintf(known, sizeof known, " (%d known)", s->known);
	if (s->fixed)
		snprintf(fixed, sizeof fixed, "; %d fixed, remove %s from the baseline", s->fixed,
			 s->fixed == 1 ? "it" : "them");
	snprintf(buf, len, "%d passed, %d failed%s, %d skipped%s", s->tally[TALLY_PASSED],
		 s->tally[TALLY_FAILED], known, s->tally[TALLY_SKIPPED], fixed);
}
