/*
 * result.h - one judged result: a case, what was observed, its status.
 */
#ifndef CONFORM_RESULT_H
#define CONFORM_RESULT_H

#include <stdint.h>

#include "common/case.h"
#include "common/gpu_info.h"
#include "common/status.h"
#include "common/timing.h"

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
	/* Run under compute-sanitizer (run --sanitize): what the tool said,
	 * "memcheck: 0 errors" or its first report; "" when not run under
	 * one.  Stored as results.sanitizer. */
	char finding[512];
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

/*
 * What the diagnosis after a run (session_diagnose.c) found for one failing
 * result, reported to the sinks (report_sink.amend) after every result:
 * facts of its group, the results of the same variant, dtype, operator and
 * configuration.  A NULL text is a fact not found or not searched.
 */
struct result_diagnosis {
	const struct case_spec *c;   /* the failing case it is about */
	int first;                   /* the first failing case of its group */
	const char *pattern;         /* "fails only at sizes that are not a power of two (...)" */
	const char *shrunk;          /* "smallest failing n = 97 (passes at n = 96); 14 probes" */
	const char *repro;           /* the command line that runs the smallest failing case */
	int64_t n, cols;             /* the smallest failing size found (with shrunk) */
	int64_t pass_n, pass_cols;   /* the size just below it that passed; -1: none run */
	int probes;                  /* cases the search ran */
	int cut_short;               /* its bounds stopped it before it ended */
};

/* The rule is the status's tally, the same that decides the exit code: a
 * baseline changes how a failure is counted, never what it is.
 *
 * A result of a case the run's baseline lists (result.baseline_reason)
 * that failed: it is reported as known and does not fail the run. */
static inline int result_known(const struct result *r)
{
	return r->baseline_reason && status_tally(r->status) == TALLY_FAILED;
}

/* One that passed: the baseline's entry for it can go. */
static inline int result_fixed(const struct result *r)
{
	return r->baseline_reason && status_tally(r->status) == TALLY_PASSED;
}

#endif
