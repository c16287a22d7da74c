/*
 * softmax_driver.cu - check and run for the softmax variants (see
 * softmax_driver.cuh).
 *
 * check() and run() judge a case by the same softmax_shape(), so a case
 * that passes check() launches exactly the configuration it accepted.  The
 * reference and tolerances are computed before the launch; host memory is
 * the input, the output and two doubles per element (the largest suite
 * case, 2^20 rows of 128, takes the host a few seconds and 2.7 GB).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "softmax_driver.cuh"
#include "softmax_input.h"
#include "softmax_ref.h"

static int softmax_shape(const struct softmax_spec *s, const struct case_args *a,
			 struct reduce_launch *l, char *msg, size_t len)
{
	if (a->cols < 1) {
		snprintf(msg, len, "%s normalises rows: it needs cols >= 1", a->variant);
		return -1;
	}
	if (launch_prepare(a, l, msg, len) < 0)
		return -1;
	l->seg_len = l->seg_stride = a->cols;
	l->n_out = l->n;
	return s->shape(a, l, msg, len);
}

const struct variant_refs softmax_refs = {
	.copy = "device.copy", .copy_n = 1LL << 28, .baseline_rows = "softmax.cudnn",
};

int softmax_check(const struct softmax_spec *s, const struct case_args *a, char *msg, size_t len)
{
	struct reduce_launch l;

	return softmax_shape(s, a, &l, msg, len);
}

/*
 * The worker's one-entry cache of the last input and its reference, for
 * the reason reduce_driver.cu keeps one: the tuner checks every
 * configuration of a problem against the same draw, and drawing 2^27
 * elements and their reference takes the host seconds, far longer than
 * the kernel.  Process state on purpose: the worker runs one case at a
 * time, and conform never links this file.
 */
struct softmax_cache {
	uint64_t seed;
	enum dtype dtype;
	size_t rows, cols;
	int finite_only;
	void *in;
	double *ref, *tol;
};

static struct softmax_cache cache;

/* The input, reference and tolerances of the problem, drawn and computed
 * unless they are the cached ones.  Returns 0, or -1 when out of memory. */
static int cache_problem(uint64_t seed, enum dtype d, size_t rows, size_t cols, int finite_only)
{
	const size_t n = rows * cols;

	if (cache.in && cache.seed == seed && cache.dtype == d && cache.rows == rows &&
	    cache.cols == cols && cache.finite_only == finite_only)
		return 0;
	free(cache.in);
	free(cache.ref);
	free(cache.tol);
	cache.in = malloc(n * dtype_size(d));
	cache.ref = (double *)malloc(n * sizeof *cache.ref);
	cache.tol = (double *)malloc(n * sizeof *cache.tol);
	if (!cache.in || !cache.ref || !cache.tol) {
		free(cache.in);
		free(cache.ref);
		free(cache.tol);
		cache.in = NULL;
		cache.ref = cache.tol = NULL;
		return -1;
	}
	cache.seed = seed;
	cache.dtype = d;
	cache.rows = rows;
	cache.cols = cols;
	cache.finite_only = finite_only;
	softmax_input_fill(seed, d, cache.in, rows, cols, finite_only);
	softmax_reference(d, d, cache.in, rows, cols, cache.ref, cache.tol);
	return 0;
}

void softmax_run(const struct softmax_spec *s, const struct case_args *a, struct case_result *r)
{
	struct reduce_launch l;
	char msg[RESULT_MESSAGE_MAX];
	void *out;
	size_t n, rows, cols, esz;

	r->err_norm = -1;
	r->timing.result_spread = -1;
	if (softmax_shape(s, a, &l, msg, sizeof msg) < 0) {
		case_result_set(r, OUTCOME_INVALID, "%s", msg);
		return;
	}
	if (s->configure && s->configure(&l, r) < 0)
		return;
	n = (size_t)l.n;
	cols = (size_t)l.seg_len;
	rows = n / cols;
	esz = dtype_size(l.dtype);
	out = malloc(n * esz);
	if (!out || cache_problem(a->seed, l.dtype, rows, cols, s->finite_only) < 0) {
		case_result_set(r, OUTCOME_ERROR, "out of host memory");
		free(out);
		return;
	}
	if (reduce_execute(&l, s->launch, a->variant, cache.in, out, r) == 0) {
		check_values(l.dtype, out, cache.ref, cache.tol, n, r);
		/* Row sums are checked after wrong values too, for err_ratio. */
		if (softmax_check_row_sums(l.dtype, out, cache.tol, rows, cols, r) == 0 &&
		    r->outcome == OUTCOME_CORRECT && a->timing)
			(void)reduce_time(&l, s->launch, cache.in, a->timing, 2.0 * (double)n * (double)esz, r);
	}
	free(out);
}
