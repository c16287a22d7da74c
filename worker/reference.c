/*
 * reference.c - host references for segmented sum, max and min.
 *
 * Floating sums are taken in double, which for the suites' sizes is exact
 * enough that the whole tolerance goes to the kernel's own rounding.  Integer
 * sums are taken modulo 2^64 and reduced to the output's 32 bits, matching
 * the GPU's wrapping adds bit for bit, so integer results are compared
 * exactly.  Max and min order -0.0 below +0.0, as fmaxf/fminf are allowed to
 * and the suites require; a NaN input makes the result NaN, which never
 * compares equal (check.h), since conformance inputs never contain one.
 */
#include "reference.h"

#include <math.h>

#include "rng.h"
#include "tolerance.h"

double reference_load(enum dtype d, const void *buf, size_t i)
{
	switch (d) {
	case DTYPE_F32: return ((const float *)buf)[i];
	case DTYPE_F64: return ((const double *)buf)[i];
	case DTYPE_I32: return ((const int32_t *)buf)[i];
	case DTYPE_U32: return ((const uint32_t *)buf)[i];
	case DTYPE_BF16: return bf16_to_float(((const uint16_t *)buf)[i]);
	default: return NAN;
	}
}

static int64_t load_int(enum dtype d, const void *buf, size_t i)
{
	return d == DTYPE_U32 ? (int64_t)((const uint32_t *)buf)[i]
			      : (int64_t)((const int32_t *)buf)[i];
}

/* The 64-bit two's-complement sum as the 32-bit output type holds it. */
static double wrap_int(uint64_t v, enum dtype out)
{
	uint32_t lo = (uint32_t)v;

	switch (out) {
	case DTYPE_I32: return lo >= 0x80000000u ? (double)lo - 0x1p32 : (double)lo;
	case DTYPE_U32: return (double)lo;
	default: return (double)(int64_t)v;
	}
}

/* a < b, with -0.0 < +0.0; neither is NaN. */
static int float_less(double a, double b)
{
	return a < b || (a == 0.0 && b == 0.0 && signbit(a) && !signbit(b));
}

static double reduce_int(enum op o, enum dtype in, enum dtype out, const void *buf,
			 size_t lo, size_t hi)
{
	uint64_t sum = 0;
	int64_t best = load_int(in, buf, lo);

	for (size_t i = lo; i < hi; i++) {
		int64_t x = load_int(in, buf, i);
		sum += (uint64_t)x; /* wraps modulo 2^64, like the hardware's adds */
		if ((o == OP_MAX && x > best) || (o == OP_MIN && x < best))
			best = x;
	}
	return o == OP_SUM ? wrap_int(sum, out) : (double)best;
}

static double reduce_float(enum op o, enum dtype in, const void *buf, size_t lo, size_t hi,
			   double *abs_sum)
{
	double sum = -0.0; /* the additive identity: a sum of -0.0 terms stays -0.0 */
	double best = reference_load(in, buf, lo);
	int nan = 0;

	*abs_sum = 0.0;
	for (size_t i = lo; i < hi; i++) {
		double x = reference_load(in, buf, i);
		sum += x;
		*abs_sum += fabs(x);
		if (isnan(x))
			nan = 1;
		else if ((o == OP_MAX && float_less(best, x)) || (o == OP_MIN && float_less(x, best)))
			best = x;
	}
	if (o == OP_SUM)
		return sum;
	return nan ? NAN : best;
}

void reference_segments(enum op o, enum dtype in_dtype, enum dtype acc_dtype,
			enum dtype out_dtype, const void *in, size_t n, size_t seg_len,
			double *ref, double *tol)
{
	if (seg_len == 0)
		seg_len = n;
	for (size_t lo = 0, k = 0; lo < n; lo += seg_len, k++) {
		size_t hi = n - lo < seg_len ? n : lo + seg_len;
		double abs_sum = 0.0;

		if (dtype_is_float(in_dtype))
			ref[k] = reduce_float(o, in_dtype, in, lo, hi, &abs_sum);
		else
			ref[k] = reduce_int(o, in_dtype, out_dtype, in, lo, hi);
		/* Integer results and every max/min are exact (tolerance.h). */
		tol[k] = o == OP_SUM && dtype_is_float(in_dtype)
			? tolerance_sum(acc_dtype, out_dtype, hi - lo, abs_sum, ref[k])
			: 0.0;
	}
}
