/*
 * test_warp_reference.c - the host references of the warp primitives
 * (kernels/warp/warp_reference.c) and the keys and heads they share with the
 * kernels (kernels/warp/warp_prim.h).
 *
 * Expected values are worked out by hand.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "kernels/warp/warp_reference.h"
#include "tests/test.h"
#include "worker/check.h"
#include "worker/tolerance.h"

#define W 32

static void test_keys_and_heads(void)
{
	CHECK_INT(warp_key(5, 2), 1);
	CHECK_INT(warp_key(-1, 2), 1);          /* 0xFFFFFFFF is odd */
	CHECK_INT(warp_key(-1, 1024), 1023);
	CHECK_INT(warp_key(1024, 1024), 0);
	CHECK_INT(warp_key(-1000, 1), 0);
	CHECK(warp_threshold_f32(900) == 0.9f);
	CHECK(warp_threshold_f32(0) == 0.0f);
	CHECK_INT(warp_level(7, 0), 7);
	CHECK_INT(warp_level(7, 4), 3);
	CHECK_INT(warp_level(-7, 4), -3);       /* truncating remainder */

	/* A head every 3 lanes, every lane, one per warp. */
	for (int lane = 0; lane < W; lane++) {
		CHECK_INT(warp_head(5, lane, 3), lane % 3 == 0);
		CHECK_INT(warp_head(5, lane, 1), 1);
		CHECK_INT(warp_head(5, lane, 32), lane == 0);
	}
	/* Cycling lengths: warp 0 runs 1, 2, ..., 7, then 8 cut to 4. */
	const int heads0[] = {0, 1, 3, 6, 10, 15, 21, 28};
	unsigned want = 0, got = 0;
	for (size_t h = 0; h < sizeof heads0 / sizeof heads0[0]; h++)
		want |= 1u << heads0[h];
	for (int lane = 0; lane < W; lane++)
		got |= (unsigned)warp_head(0, lane, 0) << lane;
	CHECK(got == want);
	/* Warp 30: 31 then 32; warp 31 (and 63): the whole warp; warp 32 as warp 0. */
	for (int lane = 0; lane < W; lane++) {
		CHECK_INT(warp_head(30, lane, 0), lane == 0 || lane == 31);
		CHECK_INT(warp_head(31, lane, 0), lane == 0);
		CHECK_INT(warp_head(63, lane, 0), lane == 0);
		CHECK_INT(warp_head(32, lane, 0), warp_head(0, lane, 0));
	}
}

static void test_scan(void)
{
	double ref[5], tol[5];
	const float f[] = {1, 2, 3, 4, 5};

	warp_ref_scan(DTYPE_F32, f, 5, 2, 0, ref, tol);
	CHECK(ref[0] == 1 && ref[1] == 3 && ref[2] == 3 && ref[3] == 7 && ref[4] == 5);
	CHECK(tol[1] == tolerance_sum(DTYPE_F32, DTYPE_F32, 2, 3.0, 3.0));
	CHECK(tol[1] == 6.0 * sqrt(2.0) * 0x1p-24 * 3 + FLT_MIN);
	warp_ref_scan(DTYPE_F32, f, 5, 2, 1, ref, tol);
	CHECK(ref[0] == 0 && ref[1] == 1 && ref[2] == 0 && ref[3] == 3 && ref[4] == 0);
	CHECK(tol[0] == FLT_MIN && tol[2] == FLT_MIN);
	CHECK(tol[3] == 6.0 * 0x1p-24 * 3 + FLT_MIN);

	/* The tolerance counts |x|: 1.5 - 2 + 0.25. */
	const float c[] = {1.5f, -2.0f, 0.25f};
	warp_ref_scan(DTYPE_F32, c, 3, 32, 0, ref, tol);
	CHECK(ref[2] == -0.25 && tol[2] == 6.0 * sqrt(3.0) * 0x1p-24 * 3.75 + FLT_MIN);

	/* i32 wraps modulo 2^32, exactly. */
	const int32_t iw[] = {INT32_MAX, 1, 5};
	warp_ref_scan(DTYPE_I32, iw, 3, 3, 0, ref, tol);
	CHECK(ref[0] == 2147483647.0 && ref[1] == -2147483648.0 && ref[2] == -2147483643.0);
	CHECK(tol[0] == 0 && tol[2] == 0);
	warp_ref_scan(DTYPE_I32, iw, 3, 3, 1, ref, tol);
	CHECK(ref[0] == 0 && ref[1] == 2147483647.0 && ref[2] == -2147483648.0);
	warp_ref_scan(DTYPE_I32, iw, 3, 1, 0, ref, tol);
	CHECK(ref[0] == 2147483647.0 && ref[1] == 1 && ref[2] == 5);
}

static void test_vote(void)
{
	int32_t in[40];
	double ref[40], tol[40];

	/* x > 0 where i % 3 == 0: warp 0 lanes 0, 3, 6 below k=7; warp 1
	 * (i = 32..39) lanes 1 and 4. */
	for (int i = 0; i < 40; i++)
		in[i] = i % 3 == 0 ? 5 : -5;
	warp_ref_vote(in, 40, 7, 0, VOTE_BALLOT, ref, tol);
	CHECK(ref[0] == 73 && ref[6] == 73 && tol[6] == 0);
	CHECK(tol[7] == CHECK_UNWRITTEN && tol[31] == CHECK_UNWRITTEN && tol[39] == CHECK_UNWRITTEN);
	CHECK(ref[32] == 18 && ref[38] == 18 && tol[38] == 0);
	warp_ref_vote(in, 40, 7, 0, VOTE_POPC, ref, tol);
	CHECK(ref[0] == 3 && ref[32] == 2);
	warp_ref_vote(in, 40, 7, 0, VOTE_FFS, ref, tol);
	CHECK(ref[0] == 1 && ref[32] == 2);
	warp_ref_vote(in, 40, 7, 5, VOTE_FFS, ref, tol); /* x > 5: none */
	CHECK(ref[0] == 0 && ref[32] == 0);
	warp_ref_vote(in, 40, 7, 0, VOTE_ANY, ref, tol);
	CHECK(ref[0] == 1 && ref[32] == 1);
	warp_ref_vote(in, 40, 1, 0, VOTE_ALL, ref, tol);
	CHECK(ref[0] == 1 && ref[32] == 0 && tol[1] == CHECK_UNWRITTEN);

	/* All vote yes: the full warp's ballot is -1 as an int; the short
	 * last warp's lanes past n vote no, so `all` fails there. */
	for (int i = 0; i < 40; i++)
		in[i] = 5;
	warp_ref_vote(in, 40, 32, 0, VOTE_BALLOT, ref, tol);
	CHECK(ref[0] == -1 && ref[32] == 255 && tol[39] == 0);
	warp_ref_vote(in, 40, 32, 0, VOTE_ALL, ref, tol);
	CHECK(ref[0] == 1 && ref[32] == 0);
}

static void test_match(void)
{
	int32_t in[W];
	double ref[W], tol[W];
	const int32_t m[] = {1, 2, 3, -1, 4}; /* keys mod 2: 1 0 1 1 0 */

	warp_ref_match(m, 5, 4, 2, 0, ref, tol);
	CHECK(ref[0] == 13 && ref[1] == 2 && ref[2] == 13 && ref[3] == 13);
	CHECK(tol[0] == 0 && tol[4] == CHECK_UNWRITTEN);
	warp_ref_match(m, 5, 32, 2, 0, ref, tol);
	CHECK(ref[1] == 18 && ref[4] == 18 && ref[0] == 13);
	warp_ref_match(m, 5, 4, 2, 1, ref, tol);
	CHECK(ref[0] == 0 && ref[3] == 0);
	warp_ref_match(m, 5, 5, 1, 1, ref, tol);
	CHECK(ref[0] == 31 && ref[4] == 31);
	/* Lanes past n hold WARP_KEY_NONE: not all equal any more. */
	warp_ref_match(m, 5, 32, 1, 1, ref, tol);
	CHECK(ref[0] == 0);
	for (int i = 0; i < W; i++)
		in[i] = 2 * i;
	warp_ref_match(in, W, 32, 1, 1, ref, tol);
	CHECK(ref[0] == -1 && ref[31] == -1);
}

static void test_histogram(void)
{
	const int32_t in[] = {0, 1, 2, 3, -1, 1024};
	double ref[1024], tol[1024];

	warp_ref_histogram(in, 6, 2, ref, tol);
	CHECK(ref[0] == 3 && ref[1] == 3 && tol[0] == 0 && tol[1] == 0);
	warp_ref_histogram(in, 6, 1024, ref, tol);
	CHECK(ref[0] == 2 && ref[1] == 1 && ref[2] == 1 && ref[3] == 1 && ref[4] == 0);
	CHECK(ref[1023] == 1 && tol[1023] == 0);
	warp_ref_histogram(in, 6, 1, ref, tol);
	CHECK(ref[0] == 6);
}

static void test_compact(void)
{
	float in[35];
	double ref[35 + 2], tol[35 + 2];

	/* Odd i kept: warp 0 keeps 1, 3, ..., 31 in order; warp 1 keeps 33. */
	for (int i = 0; i < 35; i++)
		in[i] = i % 2 ? (float)i : (float)-i;
	warp_ref_compact(DTYPE_F32, in, 35, 0.0, ref, tol);
	for (int s = 0; s < 16; s++)
		CHECK(ref[s] == 2 * s + 1 && tol[s] == 0);
	for (int s = 16; s < 32; s++)
		CHECK(tol[s] == CHECK_UNWRITTEN);
	CHECK(ref[32] == 33 && tol[32] == 0);
	CHECK(tol[33] == CHECK_UNWRITTEN && tol[34] == CHECK_UNWRITTEN);
	CHECK(ref[35] == 16 && ref[36] == 1 && tol[35] == 0 && tol[36] == 0);

	/* None kept: every slot unwritten, counts 0. */
	warp_ref_compact(DTYPE_F32, in, 35, 100.0, ref, tol);
	CHECK(tol[0] == CHECK_UNWRITTEN && tol[34] == CHECK_UNWRITTEN);
	CHECK(ref[35] == 0 && ref[36] == 0);

	const int32_t ii[] = {-3, 7, 7, 0, 9};
	warp_ref_compact(DTYPE_I32, ii, 5, 6.0, ref, tol);
	CHECK(ref[0] == 7 && ref[1] == 7 && ref[2] == 9 && tol[3] == CHECK_UNWRITTEN);
	CHECK(ref[5] == 3);
}

static void test_segmented(void)
{
	int32_t in[35];
	float f[W];
	double ref[35], tol[35];

	for (int i = 0; i < 35; i++)
		in[i] = i + 1;
	warp_ref_segmented(OP_SUM, DTYPE_I32, in, 35, 3, ref, tol);
	CHECK(ref[0] == 6 && ref[2] == 6 && ref[3] == 15 && tol[3] == 0);
	CHECK(ref[30] == 63 && ref[31] == 63);   /* the short last segment: 31 + 32 */
	CHECK(ref[32] == 102 && ref[34] == 102); /* warp 1 holds 3 elements */
	warp_ref_segmented(OP_MAX, DTYPE_I32, in, 35, 3, ref, tol);
	CHECK(ref[0] == 3 && ref[30] == 32 && ref[34] == 35);
	warp_ref_segmented(OP_SUM, DTYPE_I32, in, 35, 1, ref, tol);
	CHECK(ref[0] == 1 && ref[17] == 18 && ref[34] == 35);
	warp_ref_segmented(OP_SUM, DTYPE_I32, in, 35, 32, ref, tol);
	CHECK(ref[0] == 528 && ref[31] == 528 && ref[33] == 102);
	/* Cycling heads in warp 0: 0, 1, 3, 6, 10, 15, 21, 28. */
	warp_ref_segmented(OP_SUM, DTYPE_I32, in, 35, 0, ref, tol);
	CHECK(ref[0] == 1 && ref[1] == 5 && ref[2] == 5 && ref[3] == 15 && ref[5] == 15);
	CHECK(ref[28] == 29 + 30 + 31 + 32 && ref[31] == 122);
	/* Warp 1 starts 2, 3, ...: lanes 0..1, then lane 2. */
	CHECK(ref[32] == 33 + 34 && ref[33] == 67 && ref[34] == 35);

	for (int i = 0; i < W; i++)
		f[i] = i % 2 ? 0.5f : -0.25f;
	warp_ref_segmented(OP_SUM, DTYPE_F32, f, W, 4, ref, tol);
	CHECK(ref[0] == 0.5 && tol[0] == 6.0 * 2 * 0x1p-24 * 1.5 + FLT_MIN);
	warp_ref_segmented(OP_MAX, DTYPE_F32, f, W, 32, ref, tol);
	CHECK(ref[0] == 0.5 && tol[0] == 0);
}

static void test_argmax(void)
{
	int32_t in[35];
	double ref[70], tol[70];

	for (int i = 0; i < 35; i++)
		in[i] = i % 7 - 10;
	in[5] = in[9] = 7;           /* a tie for the maximum: lane 5 wins */
	in[32] = in[33] = -3;
	in[34] = -4;
	warp_ref_argmax(DTYPE_I32, in, 35, 0, ref, tol);
	CHECK(ref[0] == 7 && ref[31] == 7 && ref[35] == 5 && ref[35 + 31] == 5 && tol[35] == 0);
	CHECK(ref[32] == -3 && ref[35 + 34] == 0);
	/* levels=4: the others (-10..-4) leave remainders -3..0, so the 3s
	 * of lanes 5 and 9 tie for the maximum. */
	warp_ref_argmax(DTYPE_I32, in, 35, 4, ref, tol);
	CHECK(ref[0] == 3 && ref[35] == 5);
	warp_ref_argmax(DTYPE_I32, in, 35, 2, ref, tol);
	CHECK(ref[0] == 1 && ref[35] == 5); /* 7 % 2 = 1; -9 % 2 = -1 */

	/* Signed zeros tie (the lower lane's zero is the answer), -inf too. */
	const float z1[] = {-0.0f, 0.0f}, z2[] = {0.0f, -0.0f}, ninf[] = {-INFINITY, -INFINITY, -1.0f};
	warp_ref_argmax(DTYPE_F32, z1, 2, 0, ref, tol);
	CHECK(ref[0] == 0 && signbit(ref[0]) && ref[2] == 0 && ref[3] == 0);
	warp_ref_argmax(DTYPE_F32, z2, 2, 0, ref, tol);
	CHECK(ref[0] == 0 && !signbit(ref[0]) && ref[2] == 0);
	warp_ref_argmax(DTYPE_F32, ninf, 2, 0, ref, tol);
	CHECK(ref[0] == -INFINITY && ref[2] == 0 && ref[3] == 0);
	warp_ref_argmax(DTYPE_F32, ninf, 3, 0, ref, tol);
	CHECK(ref[0] == -1.0 && ref[3] == 2);
}

int main(void)
{
	test_keys_and_heads();
	test_scan();
	test_vote();
	test_match();
	test_histogram();
	test_compact();
	test_segmented();
	test_argmax();
	return TEST_END();
}
