/*
 * tune_failing.h - which tunable values a tune's failures go with, in one
 * line: "fails for vec = 4 (every configuration with it); passes with
 * vec ∈ {1, 2}".
 *
 * The input is the configurations a tune evaluated, each its parameter
 * text (params.h, "block=256,items=4,vec=4,op=sum") and its status,
 * counted as status_tally_expecting_pass says (status.h): PASS passed;
 * FAIL, TIMEOUT, CRASH, ERROR failed; SKIP (a configuration the contract
 * refuses) and the rest left out.
 *
 * For each key of the parameters, in the order they first appear (the
 * catalog's order of the tunables), the values seen in failing
 * configurations F and in passing ones P.  A key explains the failures
 * when F and P are disjoint: every configuration with a value in F fails
 * and every one with a value in P passes.  The first key that does is
 * said; when F's values are all numbers that are not powers of two and
 * P's all powers of two, the passing side says so.  A key that some
 * configuration lacks, or with more distinct values than
 * TUNE_FAILING_VALUES_MAX, explains nothing.
 * Invariant: the line states only what the evaluated configurations
 * showed; when no key explains the failures it says how many failed and
 * nothing more.
 */
#ifndef CONFORM_TUNE_FAILING_H
#define CONFORM_TUNE_FAILING_H

#include <stddef.h>

#include "common/status.h"
#include "common/tunable_limits.h"

/* The keys considered (the tunables, op and a suite line's template
 * variables); any past them, in order of appearance, are not. */
#define TUNE_FAILING_KEYS_MAX (TUNABLES_MAX + 8)
/* The distinct values of one key considered: a tunable's space at most. */
#define TUNE_FAILING_VALUES_MAX TUNABLE_SPACE_MAX

struct tune_failing_config {
	const char *params; /* "block=256,vec=4,op=sum" */
	enum status status;
};

/* The line for configs[0..n) in buf:
 *   "fails for K = V (every configuration with it); passes with K ∈ {A, B}",
 *   "fails for K ∈ {A, B} (every configuration with them); passes at every
 *    power of two ({C, D})",
 *   "fails at every configuration", or "fails at 3 of 10 configurations".
 * Returns 1; 0 with buf empty when none failed; -1 with buf saying which
 * when a configuration's parameters cannot be read. */
int tune_failing_describe(const struct tune_failing_config *configs, size_t n, char *buf, size_t len);

#endif
