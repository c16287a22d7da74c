/*
 * tui_chart.c - the character chart (see tui_chart.h).
 *
 * Layout inside the rectangle: the legend on the first row, then the plot
 * with the y labels on its left, then the x axis and its labels.  Points
 * that land on the same cell show the later series' symbol.
 */
#include "tui_chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "vec.h"

static const char symbols[] = "*+ox#@%&";
#define YLABEL_W 8

void tui_chart_init(struct tui_chart *c, const char *xlabel, const char *ylabel)
{
	memset(c, 0, sizeof *c);
	text_copy(c->xlabel, sizeof c->xlabel, xlabel);
	text_copy(c->ylabel, sizeof c->ylabel, ylabel);
}

void tui_chart_clear(struct tui_chart *c)
{
	for (size_t i = 0; i < c->count; i++) {
		free(c->series[i].pts);
	}
	c->count = 0;
}

void tui_chart_free(struct tui_chart *c)
{
	tui_chart_clear(c);
	free(c->series);
	c->series = NULL;
	c->cap = 0;
}

struct tui_series *tui_chart_series(struct tui_chart *c, const char *name)
{
	for (size_t i = 0; i < c->count; i++)
		if (strcmp(c->series[i].name, name) == 0)
			return &c->series[i];
	if (vec_reserve(c->series, c->count, c->cap, 1) < 0)
		return NULL;
	struct tui_series *s = &c->series[c->count++];
	memset(s, 0, sizeof *s);
	text_copy(s->name, sizeof s->name, name);
	return s;
}

void tui_series_add(struct tui_series *s, double x, double y)
{
	if (!(x > 0) || !isfinite(y))
		return;
	(void)vec_push(s->pts, s->n, s->cap, ((struct tui_point){x, y})); /* a point fewer when out of memory */
}

char tui_chart_symbol(size_t i)
{
	return symbols[i % (sizeof symbols - 1)];
}

/* A round step near range/ticks: 1, 2 or 5 times a power of ten. */
static double nice_step(double range, int ticks)
{
	double raw = range / ticks;
	double p = pow(10, floor(log10(raw)));
	double m = raw / p;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

static void format_size(char *buf, size_t len, int log2n)
{
	if (log2n >= 30)
		snprintf(buf, len, "%dG", 1 << (log2n - 30));
	else if (log2n >= 20)
		snprintf(buf, len, "%dM", 1 << (log2n - 20));
	else if (log2n >= 10)
		snprintf(buf, len, "%dK", 1 << (log2n - 10));
	else
		snprintf(buf, len, "%d", 1 << (log2n < 0 ? 0 : log2n));
}

void tui_chart_draw(const struct tui_chart *c, const struct tui_rect *r)
{
	const struct tui_glyphs *g = tui_term_glyphs();
	for (int y = 0; y < r->h; y++)
		tui_fill(r->y + y, r->x, r->w, tui_term_attr(TUI_NORMAL));

	double xmin = INFINITY, xmax = -INFINITY, ymax = 0;
	for (size_t i = 0; i < c->count; i++)
		for (size_t k = 0; k < c->series[i].n; k++) {
			double lx = log2(c->series[i].pts[k].x);
			xmin = fmin(xmin, lx);
			xmax = fmax(xmax, lx);
			ymax = fmax(ymax, c->series[i].pts[k].y);
		}
	if (!isfinite(xmin))
		return;

	/* Legend. */
	int x = r->x;
	for (size_t i = 0; i < c->count && x < r->x + r->w; i++) {
		char item[128];
		snprintf(item, sizeof item, "%c %s  ", tui_chart_symbol(i), c->series[i].name);
		x += tui_put(r->y, x, r->x + r->w - x, tui_term_series_attr((int)i), item);
	}

	int lo = (int)floor(xmin), hi = (int)ceil(xmax);
	if (hi - lo < 2) {
		lo -= 1;
		hi += 1;
	}
	if (!(ymax > 0))
		ymax = 1;
	double step = nice_step(ymax, 4);
	double ytop = ceil(ymax * 1.05 / step) * step;

	int px = r->x + YLABEL_W, pw = r->w - YLABEL_W - 1;
	int py = r->y + 2, ph = r->h - 4; /* legend + gap above, axis + labels below */
	if (pw < 10 || ph < 3)
		return;
	int axis_y = py + ph;

	/* Y axis with labels at round values. */
	tui_put(py - 1, r->x, YLABEL_W, tui_term_attr(TUI_DIM), c->ylabel);
	for (int row = 0; row < ph; row++)
		tui_put(py + row, px - 1, 1, tui_term_attr(TUI_BORDER), g->axis_y);
	for (double v = 0; v <= ytop + step / 2; v += step) {
		int row = axis_y - 1 - (int)lround(v / ytop * (ph - 1));
		if (row < py)
			continue;
		char lab[32];
		snprintf(lab, sizeof lab, v == 0 || v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
		tui_put_right(row, r->x, YLABEL_W - 2, tui_term_attr(TUI_DIM), lab);
	}

	/* X axis with 2^k labels spaced so they do not touch. */
	tui_put(axis_y, px - 1, 1, tui_term_attr(TUI_BORDER), g->origin);
	tui_hline(axis_y, px, pw);
	int every = (int)ceil((double)(hi - lo) * 6 / pw);
	if (every < 1)
		every = 1;
	for (int k = lo; k <= hi; k += every) {
		int col = px + (int)lround((double)(k - lo) / (hi - lo) * (pw - 1));
		char lab[16];
		format_size(lab, sizeof lab, k);
		int lw = tui_text_width(lab);
		int at = col - lw / 2;
		if (at + lw > px + pw)
			at = px + pw - lw;
		tui_put(axis_y + 1, at, lw, tui_term_attr(TUI_DIM), lab);
	}
	tui_put_right(axis_y + 1, r->x, YLABEL_W - 2, tui_term_attr(TUI_DIM), c->xlabel);

	/* Points. */
	for (size_t i = 0; i < c->count; i++) {
		const struct tui_series *s = &c->series[i];
		char sym[2] = {tui_chart_symbol(i), '\0'};
		for (size_t k = 0; k < s->n; k++) {
			int col = px + (int)lround((log2(s->pts[k].x) - lo) / (hi - lo) * (pw - 1));
			int row = axis_y - 1 - (int)lround(s->pts[k].y / ytop * (ph - 1));
			if (row < py)
				row = py;
			tui_put(row, col, 1, tui_term_series_attr((int)i), sym);
		}
	}
}
