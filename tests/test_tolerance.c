/*
 * test_tolerance.c - the error bounds a reduction's result is held to
 * (worker/tolerance.h).
 *
 * Expected values are worked out by hand (or are published test vectors),
 * never recomputed with the code under test.
 */
#include <float.h>

#include "common/dtype.h"
#include "tests/test.h"
#include "worker/tolerance.h"

static void test_tolerance(void)
{
	CHECK(tolerance_unit_roundoff(DTYPE_F32) == 0x1p-24);
	CHECK(tolerance_unit_roundoff(DTYPE_F64) == 0x1p-53);
	CHECK(tolerance_unit_roundoff(DTYPE_BF16) == 0x1p-8);
	CHECK(tolerance_unit_roundoff(DTYPE_I32) == 0.0);

	/* 6 * sqrt(100) * 2^-24 * 50 + FLT_MIN */
	CHECK_NEAR(tolerance_sum(DTYPE_F32, DTYPE_F32, 100, 50.0, 3.0), 3000.0 / 16777216.0 + FLT_MIN, 1e-15);
	CHECK_NEAR(tolerance_sum(DTYPE_F32, DTYPE_F32, 100, 50.0, 3.0), 1.78813934326171875e-4, 1e-15);
	/* 6 * sqrt(4) * 2^-53 * 3 + DBL_MIN */
	CHECK(tolerance_sum(DTYPE_F64, DTYPE_F64, 4, 3.0, 1.0) == 36.0 * 0x1p-53 + DBL_MIN);
	/* bf16 output adds 2^-8 |ref|: 6 * 1 * 2^-24 * 1 + FLT_MIN + 2^-8 * 2 */
	CHECK(tolerance_sum(DTYPE_F32, DTYPE_BF16, 1, 1.0, -2.0) == 6.0 * 0x1p-24 + FLT_MIN + 0x1p-7);
	CHECK(tolerance_sum(DTYPE_BF16, DTYPE_BF16, 16, 2.0, 0.5) == 6.0 * 4 * 0x1p-8 * 2 + FLT_MIN + 0x1p-9);
	CHECK(tolerance_sum(DTYPE_F32, DTYPE_F32, 0, 0.0, 0.0) == FLT_MIN);
	CHECK(tolerance_sum(DTYPE_I32, DTYPE_I32, 1000, 5e5, 17.0) == 0.0);
	CHECK(tolerance_sum(DTYPE_U32, DTYPE_U32, 10, 5.0, 5.0) == 0.0);
}

int main(void)
{
	test_tolerance();
	return TEST_END();
}
