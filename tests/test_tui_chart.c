/*
 * test_tui_chart.c - the chart's arithmetic (tui_chart_scale.h): the y
 * axis's round top and step, where values and sizes land, and the cells
 * that join two points into a line without gaps.
 */
#include <stdlib.h>

#include "tests/test.h"
#include "tui/tui_chart_scale.h"

static void test_scale_y(void)
{
	double step;
	/* The H100's best, 3146 GB/s, on the 11 rows of 80x24: 500 a tick,
	 * the top the first multiple above, not a fixed large range. */
	CHECK_NEAR(tui_chart_scale_y(3146, 11, &step), 3500, 1e-9);
	CHECK_NEAR(step, 500, 1e-9);
	/* More rows, a finer step and a closer top. */
	CHECK_NEAR(tui_chart_scale_y(3146, 37, &step), 3200, 1e-9);
	CHECK_NEAR(step, 100, 1e-9);
	/* A top on a multiple stays there. */
	CHECK_NEAR(tui_chart_scale_y(3000, 11, &step), 3000, 1e-9);
	/* Percentages, small values, nothing. */
	CHECK_NEAR(tui_chart_scale_y(103.3, 11, &step), 120, 1e-9);
	CHECK_NEAR(tui_chart_scale_y(0.037, 11, &step), 0.04, 1e-12);
	CHECK_NEAR(tui_chart_scale_y(0, 11, &step), 1, 1e-12);
}

static void test_scale_positions(void)
{
	CHECK_INT(tui_chart_scale_row(0, 3500, 11), 0);
	CHECK_INT(tui_chart_scale_row(3500, 3500, 11), 10);
	CHECK_INT(tui_chart_scale_row(1750, 3500, 11), 5);
	CHECK_INT(tui_chart_scale_row(9999, 3500, 11), 10); /* clamped */
	CHECK_INT(tui_chart_scale_col(20, 20, 30, 71), 0);
	CHECK_INT(tui_chart_scale_col(30, 20, 30, 71), 70);
	CHECK_INT(tui_chart_scale_col(24, 20, 30, 71), 28);
}

static void test_scale_line(void)
{
	struct tui_cell c[64];
	/* Flat: every column between, on the same row. */
	CHECK_INT(tui_chart_scale_line(0, 3, 5, 3, c, 64), 4);
	CHECK_INT(c[0].col, 1);
	CHECK_INT(c[3].col, 4);
	CHECK_INT(c[3].row, 3);
	/* Steep: one cell per row, so no gap however few columns. */
	size_t n = tui_chart_scale_line(0, 0, 2, 8, c, 64);
	CHECK_INT(n, 7);
	for (size_t k = 0; k < n; k++)
		CHECK_INT(c[k].row, (long long)k + 1);
	for (size_t k = 1; k < n; k++)
		CHECK(c[k].col - c[k - 1].col <= 1 && c[k].col >= c[k - 1].col);
	/* Going down to the left as well. */
	n = tui_chart_scale_line(6, 6, 0, 0, c, 64);
	CHECK_INT(n, 5);
	CHECK_INT(c[0].col, 5);
	CHECK_INT(c[0].row, 5);
	/* Neighbours and one point: nothing between; max is kept. */
	CHECK_INT(tui_chart_scale_line(0, 0, 1, 1, c, 64), 0);
	CHECK_INT(tui_chart_scale_line(2, 2, 2, 2, c, 64), 0);
	CHECK_INT(tui_chart_scale_line(0, 0, 40, 0, c, 3), 3);
}

int main(void)
{
	test_scale_y();
	test_scale_positions();
	test_scale_line();
	return TEST_END();
}
