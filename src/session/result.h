/*
 * result.h - one judged result: a case, what was observed, its status.
 */
#ifndef CONFORM_RESULT_H
#define CONFORM_RESULT_H

#include <stdint.h>

#include "case.h"
#include "gpu_info.h"
#include "status.h"
#include "timing.h"

struct result {
	const struct case_spec *c;
	uint64_t seed;          /* the case's input seed (rng_case_seed) */
	enum outcome outcome;
	enum status status;
	double err_norm;        /* relative L2 error, -1 when not computed */
	int tolerated;          /* correct only within the case's tolerance=K, not
				 * within conform's own: a finding, reported as one */
	double duration_s;      /* wall time of the case, seconds */
	struct timing_stats timing; /* samples == 0 when not timed */
	char message[1024];
	/* The case is listed in the run's baseline (--baseline, baseline.h):
	 * the reason given there; NULL when not listed.  The status stays
	 * what was observed; a failure's message then starts with the
	 * baseline's note (baseline_note). */
	const char *baseline_reason;
	/* A user kernel's source hash (the catalog's), NULL for a built-in
	 * variant: stored with the result (results.source). */
	const char *source;
	/* The GPU the case ran on (its lane's device; what the worker that
	 * ran it greeted with), NULL when there was none.  device_id is its
	 * devices.id, set by the database's sink for the insert (0: the
	 * run's device). */
	const struct gpu_info *gpu;
	int64_t device_id;
};

#endif
