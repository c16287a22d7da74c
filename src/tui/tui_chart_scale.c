/*
 * tui_chart_scale.c - the chart's arithmetic (see tui_chart_scale.h).
 */
#include "tui/tui_chart_scale.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The y axis with labels q_lo .. q_hi rows apart and at least min_ticks of
 * them, the finest such; 0 when there is none. */
static int y_try(double ymax, int intervals, int q_lo, int q_hi, int min_ticks, struct tui_yaxis *ax)
{
	double vmin = ymax / intervals; /* the coarsest value per row that shows ymax */
	int found = 0;
	/* Round steps from below vmin (too fine for a row each) to far above
	 * ymax (one label, or none, besides 0). */
	for (double p = pow(10, floor(log10(vmin)) - 1); p <= ymax * 100; p *= 10)
		for (int m = 0; m < 3; m++) {
			double step = p * (m == 0 ? 1 : m == 1 ? 2 : 5);
			/* The most rows per label that still reach ymax and leave
			 * room for min_ticks labels: the finest for this step. */
			double qf = floor(step / vmin * (1 + 1e-9));
			int q = qf > q_hi ? q_hi : (int)qf;
			q = q > intervals ? intervals : q;
			while (q >= q_lo && intervals / q + 1 < min_ticks)
				q--;
			if (q < q_lo)
				continue;
			int ticks = intervals / q + 1;
			double per_row = step / q;
			/* Finer wins; an equal one with labels further apart wins. */
			if (found && !(per_row < ax->per_row * (1 - 1e-9)) &&
			    !(per_row <= ax->per_row * (1 + 1e-9) && q > ax->rows_per_tick))
				continue;
			ax->step = step;
			ax->per_row = per_row;
			ax->rows_per_tick = q;
			ax->ticks = ticks;
			found = 1;
		}
	return found;
}

void tui_chart_scale_y(double ymax, int rows, struct tui_yaxis *ax)
{
	if (!(ymax > 0) || !isfinite(ymax))
		ymax = 1;
	int intervals = rows > 2 ? rows - 1 : 1;
	/* Labels two to six rows apart, three or more; on too few rows, two;
	 * on fewer still, one a row. */
	if (!y_try(ymax, intervals, 2, 6, 3, ax) && !y_try(ymax, intervals, 2, 6, 2, ax))
		(void)y_try(ymax, intervals, 1, 1000000, 1, ax);
	ax->top = ax->per_row * intervals;
}

int tui_chart_scale_row(double y, const struct tui_yaxis *ax, int rows)
{
	if (rows <= 1 || !(ax->per_row > 0))
		return 0;
	long r = lround(y / ax->per_row);
	return r < 0 ? 0 : r > rows - 1 ? rows - 1 : (int)r;
}

void tui_chart_scale_label(double v, const struct tui_yaxis *ax, char *buf, size_t len)
{
	/* step is 1, 2 or 5 times 10^e: -e decimals when e < 0. */
	int decimals = ax->step > 0 && ax->step < 1 ? (int)ceil(-log10(ax->step) - 1e-9) : 0;
	snprintf(buf, len, "%.*f", decimals, v);
}

static int floor_to(int v, int k)
{
	return (v >= 0 ? v / k : -((-v + k - 1) / k)) * k;
}

void tui_chart_scale_x(double xmin, double xmax, int cols, int margin, int label_w, struct tui_xaxis *ax)
{
	int lo = (int)floor(xmin), hi = (int)ceil(xmax);
	/* A power either side; none below 2^0, the smallest size (the
	 * labels are of whole sizes). */
	if (hi - lo < 2) {
		if (lo > 0)
			lo -= 1;
		else
			hi += 1;
		hi += 1;
	}
	int avail = cols - 2 * margin;
	if (avail < 2)
		avail = 2;
	/* Widening the range to multiples of `every` narrows the powers, which
	 * may need a larger `every`: until it holds still (every only grows). */
	int every = 1, per = 1;
	for (;;) {
		per = (avail - 1) / (hi - lo);
		if (per < 1)
			per = 1;
		int need = (label_w + 1 + per - 1) / per;
		if (need <= every)
			break;
		every = need;
		lo = floor_to(lo, every);
		hi = -floor_to(-hi, every);
	}
	ax->lo = lo;
	ax->hi = hi;
	ax->every = every;
	ax->per_power = per;
	ax->left = margin;
}

int tui_chart_scale_col(double lx, const struct tui_xaxis *ax, int cols)
{
	if (cols <= 1)
		return 0;
	long c = ax->left + lround((lx - ax->lo) * ax->per_power);
	return c < 0 ? 0 : c > cols - 1 ? cols - 1 : (int)c;
}

int tui_chart_scale_dodge(int slot, int slots, int room)
{
	if (slots <= 1)
		return 0;
	int w = room < slots ? room : slots;
	if (w < 1)
		w = 1;
	return slot * w / slots - (w - 1) / 2;
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
