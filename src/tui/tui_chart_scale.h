/*
 * tui_chart_scale.h - the chart's arithmetic, kept apart from curses so
 * that it can be tested on its own: where a value lands on the y axis and
 * which round values label it, where a size lands on the logarithmic x
 * axis, and which cells join two points into a line.
 *
 * Rows count up from the bottom of the plot (row 0 holds the value 0),
 * columns from its left edge; the caller turns both into screen positions.
 */
#ifndef CONFORM_TUI_CHART_SCALE_H
#define CONFORM_TUI_CHART_SCALE_H

#include <stddef.h>

/* The top of a y axis from 0 for values up to ymax on `rows` rows: a
 * multiple of *step, which is 1, 2 or 5 times a power of ten, the largest
 * that still gives a tick about every second row (the caller labels fewer
 * where they would crowd).  The top is the first such
 * multiple at or above ymax, so the data fill the height rather than a
 * fixed range.  ymax <= 0 counts as 1. */
double tui_chart_scale_y(double ymax, int rows, double *step);

/* The row (0 .. rows-1) of value y on an axis from 0 to top. */
int tui_chart_scale_row(double y, double top, int rows);

/* The column (0 .. cols-1) of log2 value lx on an axis from lo to hi. */
int tui_chart_scale_col(double lx, double lo, double hi, int cols);

struct tui_cell {
	int col, row;
};

/* The cells strictly between (c0, r0) and (c1, r1) on the straight line
 * joining them, one per step along the longer direction, so that the line
 * has no gaps however steep it is; written to out (at most max) in order
 * from the first point.  Returns how many there are. */
size_t tui_chart_scale_line(int c0, int r0, int c1, int r1, struct tui_cell *out, size_t max);

#endif
