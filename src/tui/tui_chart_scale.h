/*
 * tui_chart_scale.h - the chart's arithmetic, kept apart from curses so
 * that it can be tested on its own: which round values label the y axis and
 * on which rows, which powers of two label the logarithmic x axis and in
 * which columns, how the series at one size stand side by side, and which
 * cells join two points into a line.
 *
 * The ticks are even on both axes: the y axis's labels are multiples of one
 * round step on every q-th row, the x axis's labels are powers of two every
 * so many columns, both exactly (a row or column never stretches one
 * interval and squeezes the next), because an axis whose labels sit one row
 * apart here and two rows there reads as a curve that is not in the data.
 *
 * Rows count up from the bottom of the plot (row 0 holds the value 0),
 * columns from its left edge; the caller turns both into screen positions.
 */
#ifndef CONFORM_TUI_CHART_SCALE_H
#define CONFORM_TUI_CHART_SCALE_H

#include <stddef.h>

/* A y axis from 0: row k holds the value k * per_row; the labels are the
 * multiples of step (1, 2 or 5 times a power of ten) on every
 * rows_per_tick-th row, `ticks` of them (0 included) on rows 0 .. rows-1;
 * the top row holds `top`, which need not be a label. */
struct tui_yaxis {
	double step, per_row, top;
	int rows_per_tick, ticks;
};

/* The y axis for values up to ymax on `rows` rows: the finest value per
 * row whose labels fall on whole rows, two to six rows apart, at least
 * three of them (fewer only when the rows cannot hold three); between
 * equally fine axes, the one with labels further apart.  So the data fill
 * as much of the height as round labels allow.  ymax <= 0 counts as 1. */
void tui_chart_scale_y(double ymax, int rows, struct tui_yaxis *ax);

/* The row (0 .. rows-1) of value y. */
int tui_chart_scale_row(double y, const struct tui_yaxis *ax, int rows);

/* The label of value v, a multiple of the axis's step: with as many
 * decimals as the step has ("0.002", "0.004", never "0.00" twice). */
void tui_chart_scale_label(double v, const struct tui_yaxis *ax, char *buf, size_t len);

/* An x axis of log2 sizes: the tick of 2^k (lo <= k <= hi, k - lo a
 * multiple of every) sits in column left + (k - lo) * per_power and is
 * labelled; every is the fewest powers whose labels (label_w columns) keep
 * a blank column between them, and lo and hi are multiples of it. */
struct tui_xaxis {
	int lo, hi, every, per_power, left;
};

/* The x axis for log2 sizes xmin .. xmax (0 or more) on `cols` columns,
 * keeping `margin` columns free at each end (for the series standing
 * beside a size, tui_chart_scale_dodge).  The range is whole powers, at
 * least two wide, from 2^0 up. */
void tui_chart_scale_x(double xmin, double xmax, int cols, int margin, int label_w, struct tui_xaxis *ax);

/* The column (0 .. cols-1) of log2 value lx. */
int tui_chart_scale_col(double lx, const struct tui_xaxis *ax, int cols);

/* Where the slot-th of `slots` series stands beside its size's column:
 * the series take one column each, centred on the size, in `room` columns
 * at most (several share a column when room < slots).  Returns the offset
 * from the size's column. */
int tui_chart_scale_dodge(int slot, int slots, int room);

struct tui_cell {
	int col, row;
};

/* The cells strictly between (c0, r0) and (c1, r1) on the straight line
 * joining them, one per step along the longer direction, so that the line
 * has no gaps however steep it is; written to out (at most max) in order
 * from the first point.  Returns how many there are. */
size_t tui_chart_scale_line(int c0, int r0, int c1, int r1, struct tui_cell *out, size_t max);

#endif
