/*
 * rows_op_ref.c - the rows.op family's inputs and double references (the
 * tolerances are derived in rows_op_ref.h).
 *
 * Statistics are taken in double, two-pass where it matters (the variance
 * around the double mean, the log-sum-exp around the double max), so the
 * whole tolerance is left to the kernel's f32 arithmetic.
 */
#include "kernels/rows/rows_op_ref.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "common/rng.h"
#include "worker/reference.h"
#include "worker/tolerance.h"

#define ROWS_LAMBDA 6.0

int rows_ref_outputs(enum rows_op op)
{
	return op == ROWS_OP_WELFORD || op == ROWS_OP_VAR_NAIVE ? 2 : 1;
}

enum dtype rows_ref_out_dtype(enum rows_op op)
{
	return op == ROWS_OP_ARGMAX ? DTYPE_I32 : DTYPE_F32;
}

void rows_ref_fill(enum rows_input kind, uint64_t seed, enum dtype d, void *buf, size_t n)
{
	struct rng g;

	rng_init(&g, seed);
	if (kind == ROWS_INPUT_UNIFORM) {
		rng_fill(&g, d, buf, n);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const double u = rng_uniform(&g, -1.0, 1.0);
		const float v = kind == ROWS_INPUT_OFFSET ? (float)(ROWS_OFFSET + u)
							  : (float)(floor(u * 4.0) / 4.0 + 0.125);
		if (d == DTYPE_BF16)
			((uint16_t *)buf)[i] = bf16_from_float(v);
		else
			((float *)buf)[i] = v;
	}
}

static double log2_ceil(size_t n)
{
	double k = 0;

	while (n > ((size_t)1 << (size_t)k))
		k++;
	return k;
}

double rows_ref_growth(size_t cols)
{
	return sqrt((double)cols) + log2_ceil(cols) + 1.0;
}

/* Mean and variance (ref[0], ref[1]) of one row, two-pass in double. */
static void row_moments(const double *x, size_t cols, double *ref, double *tol)
{
	const double u = tolerance_unit_roundoff(DTYPE_F32), gr = rows_ref_growth(cols);
	double sum = 0, ss = 0, amax = 0;

	for (size_t c = 0; c < cols; c++) {
		sum += x[c];
		amax = fmax(amax, fabs(x[c]));
	}
	const double mean = sum / (double)cols;
	for (size_t c = 0; c < cols; c++)
		ss += (x[c] - mean) * (x[c] - mean);
	const double var = ss / (double)cols;
	ref[0] = mean;
	ref[1] = var;
	tol[0] = ROWS_LAMBDA * u * gr * amax + FLT_MIN;
	tol[1] = 2 * ROWS_LAMBDA * u * gr * sqrt(var) * amax + FLT_MIN;
}

static void row_lse(const double *x, size_t cols, double *ref, double *tol)
{
	const double u = tolerance_unit_roundoff(DTYPE_F32);
	double m = x[0], s = 0;

	for (size_t c = 1; c < cols; c++)
		m = fmax(m, x[c]);
	for (size_t c = 0; c < cols; c++)
		s += exp(x[c] - m);
	*ref = m + log(s);
	*tol = u * (ROWS_LAMBDA * rows_ref_growth(cols) + 20 * (log2_ceil(cols) + 2) + 4 * fabs(*ref));
}

static void row_l2(const double *x, size_t cols, double *ref, double *tol)
{
	const double u = tolerance_unit_roundoff(DTYPE_F32);
	double ss = 0;

	for (size_t c = 0; c < cols; c++)
		ss += x[c] * x[c];
	const double tol_ss = tolerance_sum(DTYPE_F32, DTYPE_F32, cols, ss, ss);
	*ref = sqrt(ss);
	*tol = *ref > 0 ? tol_ss / (2 * *ref) + 2 * u * *ref : sqrt(tol_ss);
}

/* The first index of the maximum: only a strictly larger value moves it,
 * so -0 and +0 tie. */
static void row_argmax(const double *x, size_t cols, double *ref, double *tol)
{
	size_t best = 0;

	for (size_t c = 1; c < cols; c++)
		if (x[c] > x[best])
			best = c;
	*ref = (double)best;
	*tol = 0;
}

int rows_ref_compute(enum rows_op op, enum dtype d, const void *in, size_t rows, size_t cols,
		     double *ref, double *tol)
{
	const size_t k = (size_t)rows_ref_outputs(op);
	double *x = malloc(cols * sizeof *x);

	if (!x)
		return -1;
	for (size_t r = 0; r < rows; r++) {
		for (size_t c = 0; c < cols; c++)
			x[c] = reference_load(d, in, r * cols + c);
		switch (op) {
		case ROWS_OP_WELFORD:
		case ROWS_OP_VAR_NAIVE: row_moments(x, cols, ref + r * k, tol + r * k); break;
		case ROWS_OP_LSE: row_lse(x, cols, ref + r * k, tol + r * k); break;
		case ROWS_OP_L2: row_l2(x, cols, ref + r * k, tol + r * k); break;
		default: row_argmax(x, cols, ref + r * k, tol + r * k); break;
		}
	}
	free(x);
	return 0;
}
