/*
 * user_cases.h - the conformance cases of the user's kernel files: every
 * declared dtype and operator over a size ladder of the sizes that break
 * reductions, or the sizes the command line gives.
 *
 * The cases are built from the catalog's entries for the files (the
 * worker read them), so the expectation, requirements and deadline a
 * declaration sets are the cases' as a suite line's would be.  conform
 * run and the interface list the same cases.
 */
#ifndef CONFORM_USER_CASES_H
#define CONFORM_USER_CASES_H

#include <stddef.h>
#include <stdint.h>

#include "common/case.h"
#include "session/catalog_client.h"

#define USER_SIZES_MAX 32

/* What the command line narrows; zeros: the ladder, every dtype. */
struct user_case_request {
	int64_t n[USER_SIZES_MAX];     /* elements (reduce) or rows */
	size_t nn;
	int64_t cols[USER_SIZES_MAX];  /* columns (rows, softmax) */
	size_t ncols;
	int have_dtype;
	enum dtype dtype;
	double timeout_s;              /* the run's --timeout: a case past 2^31 elements
					* gets at least a minute */
	/* The kernel files whose variants get cases (catalog_entry.path); a
	 * suite's files are left to its own case lines. */
	const char *const *paths;
	size_t npaths;
};

/* The cases of every user variant of cat (entries with a kind) read from
 * one of q's paths, in
 * catalog order, allocated into *cases.  Returns 0, or -1 with a message
 * (a declaration's @requires or @expect that a case cannot take; a dtype
 * no user kernel declares; too many cases). */
int user_cases_make(const struct catalog *cat, const struct user_case_request *q,
		    struct case_spec **cases, size_t *count, char *err, size_t len);

#endif
