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
#include "worker/reference.h"

#include <math.h>
#include <stdlib.h>

#include "common/rng.h"
#include "worker/par.h"
#include "worker/tolerance.h"

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

/* A reduction of elements [lo, hi), in a form that combines with the
 * next chunk's (part_join) as if the two had been one loop. */
struct part {
	uint64_t isum;     /* integers: the sum modulo 2^64 */
	int64_t ibest;     /* integers: max or min */
	double sum;        /* floats: the sum in double */
	double best;       /* floats: max or min */
	double abs_sum;    /* floats: the sum of |x| (the tolerance's scale) */
	int nan;           /* floats: a NaN was met */
};

static struct part reduce_int(enum op o, enum dtype in, const void *buf, size_t lo, size_t hi)
{
	struct part p = {0, load_int(in, buf, lo), 0, 0, 0, 0};

	for (size_t i = lo; i < hi; i++) {
		int64_t x = load_int(in, buf, i);
		p.isum += (uint64_t)x; /* wraps modulo 2^64, like the hardware's adds */
		if ((o == OP_MAX && x > p.ibest) || (o == OP_MIN && x < p.ibest))
			p.ibest = x;
	}
	return p;
}

static struct part reduce_float(enum op o, enum dtype in, const void *buf, size_t lo, size_t hi)
{
	/* -0.0: the additive identity, so a sum of -0.0 terms stays -0.0. */
	struct part p = {0, 0, -0.0, reference_load(in, buf, lo), 0.0, 0};

	for (size_t i = lo; i < hi; i++) {
		double x = reference_load(in, buf, i);
		p.sum += x;
		p.abs_sum += fabs(x);
		if (isnan(x))
			p.nan = 1;
		else if ((o == OP_MAX && float_less(p.best, x)) || (o == OP_MIN && float_less(x, p.best)))
			p.best = x;
	}
	return p;
}

static struct part reduce_part(enum op o, enum dtype in, const void *buf, size_t lo, size_t hi)
{
	return dtype_is_float(in) ? reduce_float(o, in, buf, lo, hi) : reduce_int(o, in, buf, lo, hi);
}

/* a, then b: the part of a's elements followed by b's. */
static struct part part_join(enum op o, struct part a, const struct part *b)
{
	a.isum += b->isum;
	if ((o == OP_MAX && b->ibest > a.ibest) || (o == OP_MIN && b->ibest < a.ibest))
		a.ibest = b->ibest;
	a.sum += b->sum;
	a.abs_sum += b->abs_sum;
	a.nan |= b->nan;
	if ((o == OP_MAX && float_less(a.best, b->best)) || (o == OP_MIN && float_less(b->best, a.best)))
		a.best = b->best;
	return a;
}

/* The segment's reference value and tolerance from its part. */
static void segment_result(enum op o, enum dtype in, enum dtype acc, enum dtype out,
			   const struct part *p, size_t count, double *ref, double *tol)
{
	if (dtype_is_float(in))
		*ref = o == OP_SUM ? p->sum : p->nan ? NAN : p->best;
	else
		*ref = o == OP_SUM ? wrap_int(p->isum, out) : (double)p->ibest;
	/* Integer results and every max/min are exact (tolerance.h). */
	*tol = o == OP_SUM && dtype_is_float(in) ? tolerance_sum(acc, out, count, p->abs_sum, *ref) : 0.0;
}

struct ref_job {
	enum op o;
	enum dtype in, acc, out;
	const void *buf;
	size_t n, seg_len;
	double *ref, *tol;
	struct part *parts; /* one segment: a part per chunk */
};

/* Chunk k of the one segment. */
static void chunk_part(void *ctx, size_t k)
{
	struct ref_job *j = (struct ref_job *)ctx;
	size_t lo, hi;

	par_chunk_range(k, PAR_CHUNK, j->n, &lo, &hi);
	j->parts[k] = reduce_part(j->o, j->in, j->buf, lo, hi);
}

/* The segments that start in chunk k of PAR_CHUNK elements. */
static void chunk_segments(void *ctx, size_t k)
{
	struct ref_job *j = (struct ref_job *)ctx;
	size_t lo, hi;

	par_chunk_range(k, PAR_CHUNK, j->n, &lo, &hi);
	for (size_t s = (lo + j->seg_len - 1) / j->seg_len; s * j->seg_len < hi; s++) {
		size_t a = s * j->seg_len, b = j->n - a < j->seg_len ? j->n : a + j->seg_len;
		struct part p = reduce_part(j->o, j->in, j->buf, a, b);
		segment_result(j->o, j->in, j->acc, j->out, &p, b - a, &j->ref[s], &j->tol[s]);
	}
}

void reference_segments(enum op o, enum dtype in_dtype, enum dtype acc_dtype,
			enum dtype out_dtype, const void *in, size_t n, size_t seg_len,
			double *ref, double *tol)
{
	struct ref_job j = {o, in_dtype, acc_dtype, out_dtype, in, n, seg_len ? seg_len : n, ref, tol, NULL};
	const size_t chunks = par_chunks(n, PAR_CHUNK);

	if (n == 0)
		return;
	/* One segment: its chunks on every processor, joined in order (a
	 * float sum then depends on the chunk size, never on the thread
	 * count).  Several: each segment on one thread. */
	if (j.seg_len >= n && chunks > 1 && (j.parts = malloc(chunks * sizeof *j.parts)) != NULL) {
		par_for(chunks, chunk_part, &j);
		struct part p = j.parts[0];
		for (size_t k = 1; k < chunks; k++)
			p = part_join(o, p, &j.parts[k]);
		segment_result(o, in_dtype, acc_dtype, out_dtype, &p, n, &ref[0], &tol[0]);
		free(j.parts);
		return;
	}
	par_for(chunks, chunk_segments, &j);
}
