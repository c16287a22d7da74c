/*
 * test.h - the few macros conform's C tests need.
 *
 * A test program runs its checks in order, prints each failure with file and
 * line, and exits 1 if any failed (0 otherwise, 77 to skip), as automake's
 * test driver expects.
 */
#ifndef CONFORM_TEST_H
#define CONFORM_TEST_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int test_failures;
static int test_checks;

#define CHECK(cond) do { \
	test_checks++; \
	if (!(cond)) { \
		test_failures++; \
		fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
	} \
} while (0)

#define CHECK_INT(got, want) do { \
	long long g_ = (long long)(got), w_ = (long long)(want); \
	test_checks++; \
	if (g_ != w_) { \
		test_failures++; \
		fprintf(stderr, "%s:%d: %s = %lld, want %lld\n", __FILE__, __LINE__, #got, g_, w_); \
	} \
} while (0)

#define CHECK_STR(got, want) do { \
	const char *g_ = (got), *w_ = (want); \
	test_checks++; \
	if (!g_ || strcmp(g_, w_) != 0) { \
		test_failures++; \
		fprintf(stderr, "%s:%d: %s = \"%s\", want \"%s\"\n", __FILE__, __LINE__, #got, g_ ? g_ : "(null)", w_); \
	} \
} while (0)

#define CHECK_CONTAINS(hay, needle) do { \
	const char *h_ = (hay), *n_ = (needle); \
	test_checks++; \
	if (!h_ || !strstr(h_, n_)) { \
		test_failures++; \
		fprintf(stderr, "%s:%d: \"%s\" does not contain \"%s\"\n", __FILE__, __LINE__, h_ ? h_ : "(null)", n_); \
	} \
} while (0)

#define CHECK_NEAR(got, want, tol) do { \
	double g_ = (got), w_ = (want), t_ = (tol); \
	test_checks++; \
	if (!(fabs(g_ - w_) <= t_)) { \
		test_failures++; \
		fprintf(stderr, "%s:%d: %s = %.17g, want %.17g +- %g\n", __FILE__, __LINE__, #got, g_, w_, t_); \
	} \
} while (0)

/* The conform-worker of this build ($top_builddir, as the test environment
 * sets it) in buf: 0, or 77 (skip) when there is none. */
#include <stdlib.h>
#include <unistd.h>
static inline int test_worker_path(char *buf, size_t len)
{
	const char *top = getenv("top_builddir");
	snprintf(buf, len, "%s/conform-worker", top ? top : ".");
	if (access(buf, X_OK) != 0) {
		fprintf(stderr, "no %s: skipped\n", buf);
		return 77;
	}
	return 0;
}

/* Ends main: reports and returns the exit status. */
#define TEST_END() ( \
	fprintf(stderr, "%d checks, %d failed\n", test_checks, test_failures), \
	(test_failures || test_checks == 0) ? 1 : 0)

#endif
