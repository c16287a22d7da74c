/*
 * test_tui_chart.c - the chart's arithmetic (tui_chart_scale.h): the y
 * axis's round labels on evenly spaced rows, the x axis's powers of two in
 * evenly spaced columns, where values and sizes land, how the series stand
 * side by side at a size, and the cells that join two points into a line
 * without gaps.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/test.h"
#include "tui/tui_chart_scale.h"

/* 1 when v is 1, 2 or 5 times a power of ten. */
static int is_round(double v)
{
	double m = v / pow(10, floor(log10(v) + 1e-9));
	return fabs(m - 1) < 1e-6 || fabs(m - 2) < 1e-6 || fabs(m - 5) < 1e-6;
}

/* Every label a multiple of the step on a row of its own, the same number
 * of rows apart, the top at or above ymax. */
static void check_y_even(double ymax, int rows)
{
	struct tui_yaxis ax;
	tui_chart_scale_y(ymax, rows, &ax);
	CHECK(is_round(ax.step));
	CHECK(ax.top >= ymax * (1 - 1e-9));
	CHECK_NEAR(ax.top, ax.per_row * (rows - 1), 1e-9 * ax.top);
	CHECK_NEAR(ax.step, ax.per_row * ax.rows_per_tick, 1e-9 * ax.step);
	CHECK(ax.ticks >= 1 && (ax.ticks - 1) * ax.rows_per_tick <= rows - 1);
	for (int k = 0; k < ax.ticks; k++)
		CHECK_INT(tui_chart_scale_row(k * ax.step, &ax, rows), k * ax.rows_per_tick);
	if (rows >= 7) {
		/* Room for three labels two rows apart: never fewer, never on
		 * neighbouring rows, never more than six rows apart. */
		CHECK(ax.ticks >= 3);
		CHECK(ax.rows_per_tick >= 2 && ax.rows_per_tick <= 6);
	}
}

static void test_scale_y(void)
{
	struct tui_yaxis ax;
	/* The H100's best, 3146 GB/s, on the 11 rows of 80x24: labels 0,
	 * 1000, 2000, 3000 three rows apart, a row a third of 1000; a step of
	 * 500 would need 14 rows for labels two apart. */
	tui_chart_scale_y(3146, 11, &ax);
	CHECK_NEAR(ax.step, 1000, 1e-9);
	CHECK_INT(ax.rows_per_tick, 3);
	CHECK_INT(ax.ticks, 4);
	CHECK_NEAR(ax.top, 10000.0 / 3, 1e-9);
	/* On 37 rows, finer: 500 five rows apart (200 two apart is as fine,
	 * and crowds the labels). */
	tui_chart_scale_y(3146, 37, &ax);
	CHECK_NEAR(ax.step, 500, 1e-9);
	CHECK_INT(ax.rows_per_tick, 5);
	CHECK_INT(ax.ticks, 8);
	/* % of the copy, the line at 100 included: 0, 50, 100. */
	tui_chart_scale_y(103.3, 11, &ax);
	CHECK_NEAR(ax.step, 50, 1e-9);
	CHECK_INT(ax.rows_per_tick, 4);
	CHECK_INT(ax.ticks, 3);
	/* Small values and none. */
	tui_chart_scale_y(0.037, 11, &ax);
	CHECK_NEAR(ax.step, 0.02, 1e-12); /* five rows a label, finer than 0.01 two rows apart */
	tui_chart_scale_y(0, 11, &ax);
	CHECK(ax.top >= 1);
	/* Too few rows for three labels: two, then one a row. */
	tui_chart_scale_y(3146, 4, &ax);
	CHECK_INT(ax.ticks, 2);
	tui_chart_scale_y(3146, 2, &ax);
	CHECK(ax.top >= 3146);
	/* Evenness over a sweep of heights and values. */
	for (int rows = 3; rows <= 60; rows++)
		for (double v = 0.013; v < 2e5; v *= 1.37)
			check_y_even(v, rows);
}

/* The labels of an axis: distinct, each its value. */
static void check_labels(double ymax, int rows)
{
	struct tui_yaxis ax;
	char prev[32] = "", lab[32];
	tui_chart_scale_y(ymax, rows, &ax);
	for (int k = 0; k < ax.ticks; k++) {
		tui_chart_scale_label(k * ax.step, &ax, lab, sizeof lab);
		CHECK_NEAR(strtod(lab, NULL), k * ax.step, 1e-9 * ax.step);
		CHECK(strcmp(lab, prev) != 0);
		snprintf(prev, sizeof prev, "%s", lab);
	}
}

static void test_scale_label(void)
{
	struct tui_yaxis ax;
	char lab[32];
	/* GB/s of n = 1 and 2: 4 and 8 bytes in 2 us, labels 0.005 apart
	 * (two decimals said 0.01 twice). */
	tui_chart_scale_y(0.008, 11, &ax);
	tui_chart_scale_label(ax.step, &ax, lab, sizeof lab);
	CHECK(strcmp(lab, "0.005") == 0);
	tui_chart_scale_label(2 * ax.step, &ax, lab, sizeof lab);
	CHECK(strcmp(lab, "0.010") == 0);
	tui_chart_scale_y(3146, 11, &ax);
	tui_chart_scale_label(3 * ax.step, &ax, lab, sizeof lab);
	CHECK(strcmp(lab, "3000") == 0);
	tui_chart_scale_y(0.9, 11, &ax);
	tui_chart_scale_label(ax.step, &ax, lab, sizeof lab);
	CHECK(strchr(lab, '.') && strlen(strchr(lab, '.')) == 2); /* one decimal */
	for (int rows = 3; rows <= 40; rows += 3)
		for (double v = 1e-4; v < 2e5; v *= 1.37)
			check_labels(v, rows);
}

static void test_scale_x(void)
{
	struct tui_xaxis ax;
	/* 2^20 .. 2^30 on the 71 columns of 80x24, 3 kept at each end: six
	 * columns a power, every power labelled. */
	tui_chart_scale_x(20, 30, 71, 3, 4, &ax);
	CHECK_INT(ax.lo, 20);
	CHECK_INT(ax.hi, 30);
	CHECK_INT(ax.per_power, 6);
	CHECK_INT(ax.every, 1);
	CHECK_INT(tui_chart_scale_col(20, &ax, 71), 3);
	CHECK_INT(tui_chart_scale_col(30, &ax, 71), 63);
	for (int k = 21; k <= 30; k++)
		CHECK_INT(tui_chart_scale_col(k, &ax, 71) - tui_chart_scale_col(k - 1, &ax, 71), 6);
	/* One size: a power either side. */
	tui_chart_scale_x(12, 12, 71, 3, 4, &ax);
	CHECK_INT(ax.lo, 11);
	CHECK_INT(ax.hi, 13);
	CHECK_INT(tui_chart_scale_col(12, &ax, 71) - tui_chart_scale_col(11, &ax, 71),
		  tui_chart_scale_col(13, &ax, 71) - tui_chart_scale_col(12, &ax, 71));
	/* Sizes of 1 and 2 (a sweep from n = 1): no power below 2^0, whose
	 * label would be 1 << -1. */
	tui_chart_scale_x(0, 0, 71, 3, 4, &ax);
	CHECK_INT(ax.lo, 0);
	CHECK(ax.hi >= 2);
	tui_chart_scale_x(0, 1, 71, 3, 4, &ax);
	CHECK_INT(ax.lo, 0);
	CHECK(ax.hi >= 2);
	/* Too many powers for a label each: every fifth, from a multiple of
	 * five, so the labels are 2^0, 2^5 ... and a blank column apart. */
	tui_chart_scale_x(3, 29, 40, 0, 4, &ax);
	CHECK_INT(ax.every, 5);
	CHECK_INT(ax.lo, 0);
	CHECK_INT(ax.hi, 30);
	CHECK(ax.every * ax.per_power >= 5);
	for (int k = ax.lo + ax.every; k <= ax.hi; k += ax.every)
		CHECK_INT(tui_chart_scale_col(k, &ax, 40) - tui_chart_scale_col(k - ax.every, &ax, 40),
			  ax.every * ax.per_power);
	/* Evenness and room for the labels over a sweep of widths. */
	for (int cols = 20; cols <= 200; cols += 7)
		for (int lo = 0; lo < 30; lo += 3) {
			tui_chart_scale_x(lo + 0.5, lo + 9.2, cols, 2, 4, &ax);
			CHECK(ax.lo <= lo && ax.hi >= lo + 10 && ax.lo % ax.every == 0 && ax.hi % ax.every == 0);
			CHECK(ax.every * ax.per_power >= 5);
			CHECK(tui_chart_scale_col(ax.hi, &ax, cols) <= cols - 1 - 2 || ax.per_power == 1);
		}
}

static void test_scale_dodge(void)
{
	/* Five series with room: one column each, centred. */
	for (int s = 0; s < 5; s++)
		CHECK_INT(tui_chart_scale_dodge(s, 5, 11), s - 2);
	/* Four: the extra column to the right. */
	CHECK_INT(tui_chart_scale_dodge(0, 4, 9), -1);
	CHECK_INT(tui_chart_scale_dodge(3, 4, 9), 2);
	/* Room for three: five share them, in order. */
	int prev = -100;
	for (int s = 0; s < 5; s++) {
		int d = tui_chart_scale_dodge(s, 5, 3);
		CHECK(d >= -1 && d <= 1 && d >= prev);
		prev = d;
	}
	/* One series stays on its size. */
	CHECK_INT(tui_chart_scale_dodge(0, 1, 5), 0);
}

static void test_scale_positions(void)
{
	struct tui_yaxis ax;
	tui_chart_scale_y(3146, 11, &ax);
	CHECK_INT(tui_chart_scale_row(0, &ax, 11), 0);
	CHECK_INT(tui_chart_scale_row(3146, &ax, 11), 9);
	CHECK_INT(tui_chart_scale_row(9999, &ax, 11), 10); /* clamped */
	CHECK_INT(tui_chart_scale_row(-5, &ax, 11), 0);
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
	test_scale_label();
	test_scale_x();
	test_scale_dodge();
	test_scale_positions();
	test_scale_line();
	return TEST_END();
}
