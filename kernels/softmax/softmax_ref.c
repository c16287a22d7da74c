/*
 * softmax_ref.c - reference, tolerance and row-sum check of row softmax
 * (see softmax_ref.h for the error model).
 *
 * Everything is in double and reads the input through reference_load, so a
 * bf16 input is judged by the values the kernel reads.  Two passes per
 * row: the maximum, then e^(x - m) with its sum and weighted |d| sum; the
 * outputs and tolerances follow from those.
 */
#include "softmax_ref.h"

#include <math.h>
#include <stdio.h>

#include "reference.h"
#include "tolerance.h"

/* Below f32's smallest normal: what flushing or subnormal rounding loses. */
#define SOFTMAX_ABS_FLOOR 0x1p-125

/* Relative error of the f32 pipeline for an output, less its |d_i| part. */
static double row_relative_error(double a, size_t cols, double u)
{
	return u * (4.0 * a + 12.0 + 18.0 * sqrt((double)cols));
}

void softmax_reference(enum dtype in_dtype, enum dtype out_dtype, const void *in, size_t rows,
		       size_t cols, double *ref, double *tol)
{
	const double u = tolerance_unit_roundoff(DTYPE_F32);
	const double u_out = tolerance_unit_roundoff(out_dtype);

	for (size_t r = 0; r < rows; r++) {
		const size_t base = r * cols;
		double m = -INFINITY, s = 0.0, wd = 0.0;

		/* tol holds x_i, then |d_i| (-1 for -inf); ref holds e^(d_i). */
		for (size_t i = 0; i < cols; i++) {
			const double x = reference_load(in_dtype, in, base + i);
			tol[base + i] = x;
			m = x > m ? x : m;
		}
		for (size_t i = 0; i < cols; i++) {
			const double x = tol[base + i], d = x - m;

			if (isinf(x)) {
				ref[base + i] = 0.0;
				tol[base + i] = -1.0;
				continue;
			}
			/* e^d underflows double below -745: skip the call. */
			ref[base + i] = d < -746.0 ? 0.0 : exp(d);
			tol[base + i] = -d;
			s += ref[base + i];
			wd += ref[base + i] * -d;
		}
		const double rel = row_relative_error(wd / s, cols, u);
		for (size_t i = 0; i < cols; i++) {
			const double y = ref[base + i] / s;
			const double ad = tol[base + i];

			ref[base + i] = y;
			/* -inf inputs: exactly 0, bit for bit. */
			tol[base + i] = ad < 0.0 ? 0.0 : y * (u_out + rel + 4.0 * u * ad) + SOFTMAX_ABS_FLOOR;
		}
	}
}

int softmax_check_row_sums(enum dtype d, const void *got, const double *tol, size_t rows,
			   size_t cols, struct case_result *r)
{
	int bad = 0;
	for (size_t row = 0; row < rows; row++) {
		const size_t base = row * cols;
		/* The double reference itself sums to 1 within cols * 2^-52. */
		double sum = 0.0, bound = (double)cols * 0x1p-50;

		for (size_t i = 0; i < cols; i++) {
			sum += reference_load(d, got, base + i);
			bound += tol[base + i];
		}
		/* Every row is looked at, so err_ratio covers the sums too: a
		 * case's tolerance=K holds for both. */
		double ratio = fabs(sum - 1.0) / bound;
		if (!(ratio <= 1.0) && !bad) {
			bad = 1;
			if (r->outcome == OUTCOME_CORRECT)
				case_result_set(r, OUTCOME_WRONG, "row %zu sums to %.9g, not 1 within %.2g",
						row, sum, bound);
		}
		if (!isfinite(ratio))
			r->tol_checked = 0;
		else if (r->tol_checked && ratio > r->err_ratio)
			r->err_ratio = ratio;
	}
	if (!r->tol_checked)
		r->err_ratio = -1.0;
	return bad ? -1 : 0;
}
