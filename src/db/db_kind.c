/*
 * db_kind.c - the names of the kinds of run (runs.kind, db.h).
 */
#include <string.h>

#include "db/db.h"

static const char *const kind_names[RUN_KIND_COUNT] = {
	[RUN_CONFORMANCE] = "conformance",
	[RUN_TUNE] = "tune",
	[RUN_BENCH] = "bench",
	[RUN_SWEEP] = "sweep",
};

const char *run_kind_name(enum run_kind k)
{
	return (unsigned)k < RUN_KIND_COUNT ? kind_names[k] : "conformance";
}

int run_kind_parse(const char *word, enum run_kind *out)
{
	for (int k = 0; k < RUN_KIND_COUNT; k++)
		if (strcmp(word, kind_names[k]) == 0) {
			*out = (enum run_kind)k;
			return 0;
		}
	return -1;
}
