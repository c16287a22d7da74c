/*
 * test_reference.c - the host references: segment sums, maxima and minima
 * per element type, with their tolerances, joined from chunks for a long
 * segment (worker/reference.h).
 *
 * Expected values are worked out by hand (or are published test vectors),
 * never recomputed with the code under test.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/dtype.h"
#include "tests/test.h"
#include "worker/par.h"
#include "worker/reference.h"

static void test_reference(void)
{
	double ref[4], tol[4];

	const float f[] = { 1, 2, 3, 4, 5 };
	reference_segments(OP_SUM, DTYPE_F32, DTYPE_F32, DTYPE_F32, f, 5, 2, ref, tol);
	CHECK(ref[0] == 3 && ref[1] == 7 && ref[2] == 5);
	CHECK(tol[0] == 6.0 * sqrt(2.0) * 0x1p-24 * 3 + FLT_MIN);
	CHECK(tol[2] == 6.0 * 0x1p-24 * 5 + FLT_MIN);
	reference_segments(OP_MAX, DTYPE_F32, DTYPE_F32, DTYPE_F32, f, 5, 5, ref, tol);
	CHECK(ref[0] == 5 && tol[0] == 0);
	reference_segments(OP_SUM, DTYPE_F32, DTYPE_F32, DTYPE_F32, f, 5, 0, ref, tol);
	CHECK(ref[0] == 15); /* seg_len 0: one segment */

	/* The tolerance uses sum |x|, not |sum x|. */
	const float c[] = { 1.5f, -2.0f, 0.25f };
	reference_segments(OP_SUM, DTYPE_F32, DTYPE_F32, DTYPE_F32, c, 3, 3, ref, tol);
	CHECK(ref[0] == -0.25);
	CHECK(tol[0] == 6.0 * sqrt(3.0) * 0x1p-24 * 3.75 + FLT_MIN);
	reference_segments(OP_MIN, DTYPE_F32, DTYPE_F32, DTYPE_F32, c, 3, 3, ref, tol);
	CHECK(ref[0] == -2.0 && tol[0] == 0);
	reference_segments(OP_MAX, DTYPE_F32, DTYPE_F32, DTYPE_F32, c, 3, 2, ref, tol);
	CHECK(ref[0] == 1.5 && ref[1] == 0.25);

	/* Signed zeros: -0 orders below +0, in either position. */
	const float z1[] = { -0.0f, 0.0f }, z2[] = { 0.0f, -0.0f }, zz[] = { -0.0f, -0.0f };
	reference_segments(OP_MAX, DTYPE_F32, DTYPE_F32, DTYPE_F32, z1, 2, 2, ref, tol);
	CHECK(ref[0] == 0 && !signbit(ref[0]));
	reference_segments(OP_MAX, DTYPE_F32, DTYPE_F32, DTYPE_F32, z2, 2, 2, ref, tol);
	CHECK(ref[0] == 0 && !signbit(ref[0]));
	reference_segments(OP_MIN, DTYPE_F32, DTYPE_F32, DTYPE_F32, z1, 2, 2, ref, tol);
	CHECK(ref[0] == 0 && signbit(ref[0]));
	reference_segments(OP_MIN, DTYPE_F32, DTYPE_F32, DTYPE_F32, z2, 2, 2, ref, tol);
	CHECK(ref[0] == 0 && signbit(ref[0]));
	reference_segments(OP_SUM, DTYPE_F32, DTYPE_F32, DTYPE_F32, zz, 2, 2, ref, tol);
	CHECK(ref[0] == 0 && signbit(ref[0]));

	/* Infinities. */
	const float inf[] = { 1.0f, INFINITY, -5.0f, -INFINITY };
	reference_segments(OP_MAX, DTYPE_F32, DTYPE_F32, DTYPE_F32, inf, 4, 3, ref, tol);
	CHECK(ref[0] == INFINITY && ref[1] == -INFINITY);
	reference_segments(OP_MIN, DTYPE_F32, DTYPE_F32, DTYPE_F32, inf, 4, 4, ref, tol);
	CHECK(ref[0] == -INFINITY);
	reference_segments(OP_MIN, DTYPE_F32, DTYPE_F32, DTYPE_F32, inf, 3, 3, ref, tol);
	CHECK(ref[0] == -5.0);

	/* Integer sums wrap as 32-bit adds do. */
	const int32_t iw[] = { INT32_MAX, 1, -5, 3 };
	reference_segments(OP_SUM, DTYPE_I32, DTYPE_I32, DTYPE_I32, iw, 4, 2, ref, tol);
	CHECK(ref[0] == -2147483648.0 && ref[1] == -2.0 && tol[0] == 0 && tol[1] == 0);
	reference_segments(OP_SUM, DTYPE_I32, DTYPE_I32, DTYPE_I32, iw, 4, 4, ref, tol);
	CHECK(ref[0] == 2147483646.0); /* overflows midway, but the total fits */
	const int32_t neg[] = { INT32_MIN, -1 };
	reference_segments(OP_SUM, DTYPE_I32, DTYPE_I32, DTYPE_I32, neg, 2, 2, ref, tol);
	CHECK(ref[0] == 2147483647.0);
	reference_segments(OP_MAX, DTYPE_I32, DTYPE_I32, DTYPE_I32, iw, 4, 4, ref, tol);
	CHECK(ref[0] == 2147483647.0);
	reference_segments(OP_MIN, DTYPE_I32, DTYPE_I32, DTYPE_I32, iw, 4, 4, ref, tol);
	CHECK(ref[0] == -5.0);
	const uint32_t uw[] = { 0xFFFFFFFFu, 2, 7, 0x80000000u };
	reference_segments(OP_SUM, DTYPE_U32, DTYPE_U32, DTYPE_U32, uw, 4, 2, ref, tol);
	CHECK(ref[0] == 1.0 && ref[1] == 2147483655.0);
	reference_segments(OP_MAX, DTYPE_U32, DTYPE_U32, DTYPE_U32, uw, 4, 4, ref, tol);
	CHECK(ref[0] == 4294967295.0);
	reference_segments(OP_MIN, DTYPE_U32, DTYPE_U32, DTYPE_U32, uw, 4, 4, ref, tol);
	CHECK(ref[0] == 2.0);

	/* bf16 read as its float value, summed in f32, stored as bf16. */
	const uint16_t b[] = { 0x3F80, 0x4040, 0xBF00 }; /* 1, 3, -0.5 */
	reference_segments(OP_SUM, DTYPE_BF16, DTYPE_F32, DTYPE_BF16, b, 3, 3, ref, tol);
	CHECK(ref[0] == 3.5);
	CHECK(tol[0] == 6.0 * sqrt(3.0) * 0x1p-24 * 4.5 + FLT_MIN + 0x1p-8 * 3.5);

	/* f64 sums use the f64 roundoff. */
	const double dd[] = { 0.5, 0.25 };
	reference_segments(OP_SUM, DTYPE_F64, DTYPE_F64, DTYPE_F64, dd, 2, 2, ref, tol);
	CHECK(ref[0] == 0.75 && tol[0] == 6.0 * sqrt(2.0) * 0x1p-53 * 0.75 + DBL_MIN);

	CHECK(reference_load(DTYPE_F32, f, 3) == 4.0);
	CHECK(reference_load(DTYPE_U32, uw, 0) == 4294967295.0);
	CHECK(reference_load(DTYPE_I32, iw, 2) == -5.0);
	CHECK(reference_load(DTYPE_BF16, b, 2) == -0.5);
	CHECK(reference_load(DTYPE_F64, dd, 1) == 0.25);
}

/* One long segment's reference is joined from chunks: the same as one
 * loop for integers (exactly) and max/min, and for float sums up to the
 * double's rounding; a NaN or -0.0 anywhere still decides. */
static void test_reference_chunked(void)
{
	const size_t n = 3 * PAR_CHUNK + 17;
	int32_t *iv = malloc(n * sizeof *iv);
	float *fv = malloc(n * sizeof *fv);
	double ref[1], tol[1];
	CHECK(iv && fv);
	if (!iv || !fv)
		goto out;
	int64_t isum = 0;
	double fsum = 0.0;
	for (size_t i = 0; i < n; i++) {
		iv[i] = (int32_t)((i * 2654435761u) % 2001) - 1000;
		isum += iv[i];
		fv[i] = (float)iv[i] / 1024.0f;
		fsum += fv[i];
	}
	iv[2 * PAR_CHUNK + 3] = INT32_MAX; /* the max in the third chunk */
	isum = 0;
	for (size_t i = 0; i < n; i++)
		isum += iv[i];
	reference_segments(OP_SUM, DTYPE_I32, DTYPE_I32, DTYPE_I32, iv, n, 0, ref, tol);
	CHECK(ref[0] == (double)(int32_t)(uint32_t)(uint64_t)isum);
	reference_segments(OP_MAX, DTYPE_I32, DTYPE_I32, DTYPE_I32, iv, n, n, ref, tol);
	CHECK(ref[0] == (double)INT32_MAX);
	reference_segments(OP_SUM, DTYPE_F32, DTYPE_F32, DTYPE_F32, fv, n, 0, ref, tol);
	CHECK(fabs(ref[0] - fsum) <= 1e-9 * fabs(fsum) + 1e-9);
	CHECK(tol[0] > 0);
	fv[n - 1] = NAN; /* in the last, short chunk */
	reference_segments(OP_MAX, DTYPE_F32, DTYPE_F32, DTYPE_F32, fv, n, 0, ref, tol);
	CHECK(isnan(ref[0]));
	for (size_t i = 0; i < n; i++)
		fv[i] = -0.0f;
	reference_segments(OP_SUM, DTYPE_F32, DTYPE_F32, DTYPE_F32, fv, n, 0, ref, tol);
	CHECK(ref[0] == 0 && signbit(ref[0]));
	fv[PAR_CHUNK + 1] = 0.0f; /* +0 in the second chunk orders above -0 */
	reference_segments(OP_MAX, DTYPE_F32, DTYPE_F32, DTYPE_F32, fv, n, 0, ref, tol);
	CHECK(ref[0] == 0 && !signbit(ref[0]));
	/* Many segments, each crossing chunk boundaries or not. */
	double segs[4], segt[4];
	const size_t seg = PAR_CHUNK - 1000; /* four segments, the last short */
	for (size_t i = 0; i < n; i++)
		iv[i] = 1;
	reference_segments(OP_SUM, DTYPE_I32, DTYPE_I32, DTYPE_I32, iv, n, seg, segs, segt);
	CHECK(segs[0] == (double)seg && segs[1] == (double)seg && segs[2] == (double)seg);
	CHECK(segs[3] == (double)(n - 3 * seg));
out:
	free(iv);
	free(fv);
}

int main(void)
{
	test_reference();
	test_reference_chunked();
	return TEST_END();
}
