/*
 * huge_shape.c - the rows x cols problem past 32-bit indices (see
 * huge_shape.h).
 */
#include "common/huge_shape.h"

const int64_t huge_shape_cols[HUGE_SHAPE_CANDIDATES] = {
	1025, 4099, 1000, 32769, 32, 64, 128, 256, 512, 1024, 2048, 4096,
};

int64_t huge_shape_rows(int64_t cols)
{
	/* (INT32_MAX / cols + 1) * cols > INT32_MAX, and one row fewer is
	 * not: INT32_MAX / cols * cols <= INT32_MAX. */
	return INT32_MAX / cols + 2;
}

int64_t huge_shape_choose(int (*accepts)(void *ctx, int64_t rows, int64_t cols), void *ctx)
{
	for (int k = 0; k < HUGE_SHAPE_CANDIDATES; k++)
		if (accepts(ctx, huge_shape_rows(huge_shape_cols[k]), huge_shape_cols[k]))
			return huge_shape_cols[k];
	return huge_shape_cols[0];
}
