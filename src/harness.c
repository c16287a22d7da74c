/*
 * harness.c - the harness.* family: host-only self-test cases.
 *
 * These need no GPU.  They exercise the runner the way a misbehaving kernel
 * would: one computes a correct sum, one a wrong one, one hangs forever and
 * one crashes, so that `make check` and a GPU-less CI can prove that
 * deadlines, crash isolation and result checking work.
 */
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "reference.h"
#include "rng.h"
#include "variant.h"

/* Requires: 1 <= n <= 2^24 (the sum runs on the host). */
static int harness_check(const struct case_args *a, char *msg, size_t len)
{
	if (a->n < 1 || a->n > (1 << 24)) {
		snprintf(msg, len, "harness cases need 1 <= n <= 2^24 (got %lld)", (long long)a->n);
		return -1;
	}
	return 0;
}

/* Sums the case's input on the host the way a one-thread kernel would, adds
 * `bias`, and checks the result against the reference. */
static void harness_sum(const struct case_args *a, struct case_result *r, int bias)
{
	size_t n = (size_t)a->n, es = dtype_size(a->dtype);
	void *in = malloc(n * es), *out = malloc(es);
	if (!in || !out) {
		free(in);
		free(out);
		case_result_set(r, OUTCOME_ERROR, "out of host memory");
		return;
	}
	struct rng g;
	rng_init(&g, a->seed);
	rng_fill(&g, a->dtype, in, n);
	check_poison(a->dtype, out, 1);

	double acc = 0;
	int64_t iacc = 0;
	for (size_t i = 0; i < n; i++) {
		if (a->dtype == DTYPE_I32)
			iacc += ((const int32_t *)in)[i];
		else if (a->dtype == DTYPE_F32)
			acc = (float)(acc + ((const float *)in)[i]);
		else
			acc += ((const double *)in)[i];
	}
	if (a->dtype == DTYPE_I32)
		*(int32_t *)out = (int32_t)(uint32_t)(iacc + bias);
	else if (a->dtype == DTYPE_F32)
		*(float *)out = (float)(acc + bias);
	else
		*(double *)out = acc + bias;

	double ref, tol;
	reference_segments(OP_SUM, a->dtype, a->dtype, a->dtype, in, n, n, &ref, &tol);
	check_values(a->dtype, out, &ref, &tol, 1, r);
	free(in);
	free(out);
}

static void harness_pass_run(const struct case_args *a, struct case_result *r)
{
	harness_sum(a, r, 0);
}

static void harness_wrong_run(const struct case_args *a, struct case_result *r)
{
	harness_sum(a, r, 1);
}

static void harness_hang_run(const struct case_args *a, struct case_result *r)
{
	(void)a;
	(void)r;
	for (;;)
		pause();
}

static void harness_crash_run(const struct case_args *a, struct case_result *r)
{
	(void)a;
	(void)r;
	raise(SIGSEGV);
	abort(); /* if SIGSEGV was somehow caught and returned */
}

#define HARNESS_DTYPES (DTYPE_BIT(DTYPE_F32) | DTYPE_BIT(DTYPE_F64) | DTYPE_BIT(DTYPE_I32))
#define HARNESS_CONTRACT "Requires: 1 <= n <= 2^24; runs on the host, no GPU."

static const struct variant harness_variants[] = {
	{"harness.pass", "host sum of n elements, checked like a kernel result",
	 HARNESS_CONTRACT, "", HARNESS_DTYPES, 0, harness_check, harness_pass_run, NULL},
	{"harness.wrong", "host sum plus one: a wrong result the checker must catch",
	 HARNESS_CONTRACT, "", HARNESS_DTYPES, 0, harness_check, harness_wrong_run, NULL},
	{"harness.hang", "never returns: the watchdog must kill it",
	 HARNESS_CONTRACT, "", HARNESS_DTYPES, 0, harness_check, harness_hang_run, NULL},
	{"harness.crash", "raises SIGSEGV: the runner must record a crash and go on",
	 HARNESS_CONTRACT, "", HARNESS_DTYPES, 0, harness_check, harness_crash_run, NULL},
};

const struct variant_table harness_table = {
	harness_variants, sizeof harness_variants / sizeof harness_variants[0],
};
