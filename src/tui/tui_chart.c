/*
 * tui_chart.c - the character chart (see tui_chart.h).
 *
 * Layout inside the rectangle: the y axis's name on the first row, then the
 * plot with the y labels on its left, then the x axis (its name at the left
 * end) and its labels.  Drawing goes from the back to the front: the
 * reference line and the cursor, then every series' line, then the
 * markers, so that a line never hides a measured point.  The markers are
 * gathered into cells first, so that a cell knows how many series it holds
 * before anything is drawn in it.
 */
#include "tui/tui_chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "common/vec.h"
#include "tui/tui_chart_scale.h"

#define YLABEL_W 8
#define GLYPHS 26

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

/* Letters, not symbols: each has a capital to mark the best point with,
 * and they read the same without colour and in ASCII. */
char tui_chart_glyph(size_t i, int best)
{
	return (char)((best ? 'A' : 'a') + (int)(i % GLYPHS));
}

const struct tui_point *tui_chart_best(const struct tui_chart *c, size_t i)
{
	if (i >= c->count)
		return NULL;
	const struct tui_series *s = &c->series[i];
	const struct tui_point *best = NULL;
	for (size_t k = 0; k < s->n; k++)
		if (!best || s->pts[k].y > best->y)
			best = &s->pts[k];
	return best;
}

/* Columns the widest label of 2^lo .. 2^hi takes. */
static int xlabel_width(int lo, int hi)
{
	int w = 1;
	for (int k = lo < 0 ? 0 : lo; k <= hi && k < 63; k++) {
		char lab[24];
		text_count(lab, sizeof lab, 1LL << k);
		int lw = tui_text_width(lab);
		w = lw > w ? lw : w;
	}
	return w;
}

/* What a plot cell holds: the series whose markers fall in it. */
struct cell {
	int first, last;      /* the first and the latest series in it; -1: none */
	int count;            /* distinct series */
	int best;             /* the first series' best point is here */
};

int tui_chart_draw(const struct tui_chart *c, const struct tui_rect *r)
{
	const struct tui_glyphs *g = tui_term_glyphs();
	for (int y = 0; y < r->h; y++)
		tui_fill(r->y + y, r->x, r->w, tui_term_attr(TUI_NORMAL));

	/* The x range is every series', hidden ones included, so that hiding
	 * one does not move the others sideways; the y range is what is
	 * drawn, so that hiding the tallest gives the rest the height.  A
	 * shown series with points has a slot beside each size. */
	double xmin = INFINITY, xmax = -INFINITY, ymax = c->ref_y;
	int slots = 0;
	for (size_t i = 0; i < c->count; i++) {
		const struct tui_series *s = &c->series[i];
		for (size_t k = 0; k < s->n; k++) {
			double lx = log2(s->pts[k].x);
			xmin = fmin(xmin, lx);
			xmax = fmax(xmax, lx);
			if (!s->hidden)
				ymax = fmax(ymax, s->pts[k].y);
		}
		slots += !s->hidden && s->n;
	}
	if (!isfinite(xmin))
		return 0;

	int px = r->x + YLABEL_W, pw = r->w - YLABEL_W - 1;
	int py = r->y + 1, ph = r->h - 3; /* y name above, axis + labels below */
	if (pw < 10 || ph < 3)
		return 0;
	int axis_y = py + ph;
	struct tui_xaxis xa;
	struct tui_yaxis ya;
	/* The series beside the first and the last size, and a blank column
	 * between them and the y axis. */
	tui_chart_scale_x(xmin, xmax, pw, slots / 2 + 1, xlabel_width((int)floor(xmin) - 1, (int)ceil(xmax) + 1),
			  &xa);
	tui_chart_scale_y(ymax, ph, &ya);
#define ROW(v) (ph - 1 - tui_chart_scale_row((v), &ya, ph)) /* from the plot's top */
#define COL(x) tui_chart_scale_col(log2(x), &xa, pw)

	/* Y axis: a tick and a label on every rows_per_tick-th row. */
	tui_put(py - 1, r->x, YLABEL_W, tui_term_attr(TUI_DIM), c->ylabel);
	for (int row = 0; row < ph; row++)
		tui_put(py + row, px - 1, 1, tui_term_attr(TUI_BORDER), g->axis_y);
	for (int k = 0; k < ya.ticks; k++) {
		int row = py + ROW(k * ya.step);
		char lab[32];
		tui_chart_scale_label(k * ya.step, &ya, lab, sizeof lab);
		tui_put_right(row, r->x, YLABEL_W - 2, tui_term_attr(TUI_DIM), lab);
		tui_put(row, px - 1, 1, tui_term_attr(TUI_BORDER), g->tick_y);
	}

	/* X axis: a tick and a label at every `every`-th power, the label
	 * centred on its tick; the axis's name at its left end. */
	tui_put(axis_y, px - 1, 1, tui_term_attr(TUI_BORDER), g->origin);
	tui_hline(axis_y, px, pw);
	for (int k = xa.lo; k <= xa.hi; k += xa.every) {
		int col = px + tui_chart_scale_col(k, &xa, pw);
		char lab[24];
		text_count(lab, sizeof lab, 1LL << k);
		tui_put(axis_y, col, 1, tui_term_attr(TUI_BORDER), g->tick_x);
		tui_put(axis_y + 1, col - tui_text_width(lab) / 2, tui_text_width(lab), tui_term_attr(TUI_DIM), lab);
	}
	tui_put_right(axis_y, r->x, YLABEL_W - 2, tui_term_attr(TUI_DIM), c->xlabel);

	/* Behind the data: the reference line and the cursor.  The line is
	 * named on the y axis's row, as a key ("─── copy ..."), not on the
	 * line itself, where it would cover data or the labels. */
	if (c->ref_y > 0) {
		int row = py + ROW(c->ref_y);
		for (int col = 0; col < pw; col++)
			tui_put(row, px + col, 1, tui_term_attr(TUI_DIM), g->hline);
		for (int col = 0; col < 3; col++)
			tui_put(py - 1, px + 1 + col, 1, tui_term_attr(TUI_DIM), g->hline);
		tui_put_clip(py - 1, px + 5, pw - 5, A_BOLD, c->ref_label);
	}
	if (c->cursor_x > 0) {
		int col = px + COL(c->cursor_x);
		for (int row = py; row < axis_y; row++)
			tui_put(row, col, 1, tui_term_attr(TUI_DIM), g->vline);
		tui_put(axis_y, col, 1, tui_term_attr(TUI_BORDER), "^");
	}

	/* The room beside each size: the columns to its nearer neighbour,
	 * less one so that neighbouring sizes' series do not touch; a size
	 * alone has room for every series.  Sizes that lie close share
	 * columns; the others keep one a series. */
	int *room = calloc((size_t)pw, sizeof *room);
	if (!room)
		return 0; /* the axes alone when out of memory */
	for (size_t i = 0; i < c->count; i++)
		for (size_t k = 0; k < c->series[i].n && !c->series[i].hidden; k++)
			room[COL(c->series[i].pts[k].x)] = slots;
	for (int col = 0, prev = -1; col < pw; col++) {
		if (!room[col])
			continue;
		if (prev >= 0) {
			int gap = col - prev - 1;
			room[col] = gap < room[col] ? gap : room[col];
			room[prev] = gap < room[prev] ? gap : room[prev];
		}
		prev = col;
	}
	/* Where point k of a series in `slot` stands. */
#define DODGED(s, slot, k) \
	(struct tui_cell){COL((s)->pts[k].x) + tui_chart_scale_dodge((slot), slots, room[COL((s)->pts[k].x)]), \
			  ROW((s)->pts[k].y)}

	/* Lines, then the markers over them. */
	int slot = 0;
	for (size_t i = 0; i < c->count; i++) {
		const struct tui_series *s = &c->series[i];
		if (s->hidden || !s->n)
			continue;
		for (size_t k = 1; s->line && k < s->n; k++) {
			struct tui_cell cells[512], a = DODGED(s, slot, k - 1), b = DODGED(s, slot, k);
			size_t n = tui_chart_scale_line(a.col, a.row, b.col, b.row, cells,
							sizeof cells / sizeof cells[0]);
			for (size_t j = 0; j < n; j++)
				if (cells[j].col >= 0 && cells[j].col < pw)
					tui_put(py + cells[j].row, px + cells[j].col, 1,
						tui_term_series_attr((int)i), ".");
		}
		slot++;
	}
	struct cell *grid = malloc((size_t)pw * (size_t)ph * sizeof *grid);
	if (!grid) {
		free(room);
		return 0; /* the lines without their markers when out of memory */
	}
	for (int k = 0; k < pw * ph; k++)
		grid[k] = (struct cell){-1, -1, 0, 0};
	slot = 0;
	for (size_t i = 0; i < c->count; i++) {
		const struct tui_series *s = &c->series[i];
		if (s->hidden || !s->n)
			continue;
		const struct tui_point *best = tui_chart_best(c, i);
		for (size_t k = 0; k < s->n; k++) {
			struct tui_cell at = DODGED(s, slot, k);
			if (at.col < 0 || at.col >= pw)
				continue;
			struct cell *cell = &grid[at.row * pw + at.col];
			if (cell->last != (int)i) {
				cell->count++;
				cell->last = (int)i;
			}
			if (cell->first < 0)
				cell->first = (int)i;
			if (&s->pts[k] == best && cell->first == (int)i)
				cell->best = 1;
		}
		slot++;
	}
	int shared = 0;
	for (int row = 0; row < ph; row++)
		for (int col = 0; col < pw; col++) {
			const struct cell *cell = &grid[row * pw + col];
			char mark[2] = {0, 0};
			attr_t a;
			if (!cell->count)
				continue;
			if (cell->count > 1) {
				mark[0] = cell->count > 9 ? '+' : (char)('0' + cell->count);
				a = tui_term_attr(TUI_NORMAL) | A_BOLD;
				shared++;
			} else {
				mark[0] = tui_chart_glyph((size_t)cell->first, cell->best);
				a = tui_term_series_attr(cell->first) | (cell->best ? A_REVERSE | A_BOLD : 0);
			}
			tui_put(py + row, px + col, 1, a, mark);
		}
	free(grid);
	free(room);
	return shared;
#undef DODGED
#undef ROW
#undef COL
}
