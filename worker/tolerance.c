/*
 * tolerance.c - the accuracy a floating sum must reach (see tolerance.h).
 *
 * The bound depends only on the accumulation type, the number of terms and
 * sum |x_i|, never on the summation order, so one tolerance serves every
 * variant of a reduction.  bf16 as an accumulation type uses its own unit
 * roundoff 2^-8; kernels that read bf16 but add in f32 pass f32 here.
 */
#include "worker/tolerance.h"

#include <float.h>
#include <math.h>

/* Lambda of the Higham-Mary bound: failure probability below 1e-7. */
#define TOL_LAMBDA 6.0

double tolerance_unit_roundoff(enum dtype d)
{
	switch (d) {
	case DTYPE_F32: return 0x1p-24;
	case DTYPE_F64: return 0x1p-53;
	case DTYPE_BF16: return 0x1p-8;
	default: return 0.0;
	}
}

double tolerance_sum(enum dtype acc, enum dtype out, size_t n, double abs_sum, double ref)
{
	double u = tolerance_unit_roundoff(acc);

	if (u == 0.0)
		return 0.0;
	/* The smallest normal absorbs flushed denormals and an all-zero sum. */
	double tol = TOL_LAMBDA * sqrt((double)n) * u * abs_sum
		+ (acc == DTYPE_F64 ? DBL_MIN : FLT_MIN);
	if (out == DTYPE_BF16)
		tol += 0x1p-8 * fabs(ref);
	return tol;
}
