/*
 * tui_chart_scale.c - the chart's arithmetic (see tui_chart_scale.h).
 */
#include "tui/tui_chart_scale.h"

#include <math.h>
#include <stdlib.h>

double tui_chart_scale_y(double ymax, int rows, double *step)
{
	if (!(ymax > 0) || !isfinite(ymax))
		ymax = 1;
	/* The largest round step that still gives a label every other row
	 * or so: finer steps would crowd the labels, coarser ones waste rows. */
	int ticks = rows / 2 < 2 ? 2 : rows / 2;
	double raw = ymax / ticks;
	double p = pow(10, floor(log10(raw)));
	double m = raw / p;
	*step = (m >= 5 ? 5 : m >= 2 ? 2 : 1) * p;
	/* A hair of tolerance: 3000 on a step of 500 is the top, not 3500. */
	return ceil(ymax / *step - 1e-9) * *step;
}

int tui_chart_scale_row(double y, double top, int rows)
{
	if (rows <= 1 || !(top > 0))
		return 0;
	long r = lround(y / top * (rows - 1));
	return r < 0 ? 0 : r > rows - 1 ? rows - 1 : (int)r;
}

int tui_chart_scale_col(double lx, double lo, double hi, int cols)
{
	if (cols <= 1 || !(hi > lo))
		return 0;
	long c = lround((lx - lo) / (hi - lo) * (cols - 1));
	return c < 0 ? 0 : c > cols - 1 ? cols - 1 : (int)c;
}

size_t tui_chart_scale_line(int c0, int r0, int c1, int r1, struct tui_cell *out, size_t max)
{
	int dc = c1 - c0, dr = r1 - r0;
	int steps = abs(dc) > abs(dr) ? abs(dc) : abs(dr);
	size_t n = 0;
	for (int k = 1; k < steps && n < max; k++) {
		out[n].col = c0 + (int)lround((double)dc * k / steps);
		out[n].row = r0 + (int)lround((double)dr * k / steps);
		n++;
	}
	return n;
}
