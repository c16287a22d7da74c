/*
 * softmax_driver.cu - check and run for the softmax variants (see
 * softmax_driver.cuh).
 *
 * check() and run() judge a case by the same softmax_shape(), so a case
 * that passes check() launches exactly the configuration it accepted.  The
 * reference and tolerances are computed before the launch; host memory is
 * the input, the output and two doubles per element.
 */
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
	memset(l, 0, sizeof *l);
	if (case_check_common(a, l, msg, len) < 0)
		return -1;
	if (a->cols < 1) {
		snprintf(msg, len, "%s normalises rows: it needs cols >= 1", a->variant);
		return -1;
	}
	l->seg_len = l->seg_stride = a->cols;
	l->n_out = l->n;
	return s->shape(a, l, msg, len);
}

int softmax_check(const struct softmax_spec *s, const struct case_args *a, char *msg, size_t len)
{
	struct reduce_launch l;

	return softmax_shape(s, a, &l, msg, len);
}

void softmax_run(const struct softmax_spec *s, const struct case_args *a, struct case_result *r)
{
	struct reduce_launch l;
	char msg[RESULT_MESSAGE_MAX];
	void *in = NULL, *out = NULL;
	double *ref = NULL, *tol = NULL;
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
	in = malloc(n * esz);
	out = malloc(n * esz);
	ref = (double *)malloc(n * sizeof *ref);
	tol = (double *)malloc(n * sizeof *tol);
	if (!in || !out || !ref || !tol) {
		case_result_set(r, OUTCOME_ERROR, "out of host memory");
		goto done;
	}
	softmax_input_fill(a->seed, l.dtype, in, rows, cols, s->finite_only);
	softmax_reference(l.dtype, l.dtype, in, rows, cols, ref, tol);

	if (reduce_execute(&l, s->launch, a->variant, in, out, r) < 0)
		goto done;
	check_values(l.dtype, out, ref, tol, n, r);
	if (r->outcome != OUTCOME_CORRECT || softmax_check_row_sums(l.dtype, out, tol, rows, cols, r) < 0)
		goto done;
	if (a->timing)
		(void)reduce_time(&l, s->launch, in, a->timing, 2.0 * (double)n * (double)esz, r);
done:
	free(in);
	free(out);
	free(ref);
	free(tol);
}
