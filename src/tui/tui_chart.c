/*
 * tui_chart.c - the character chart (see tui_chart.h).
 *
 * Layout inside the rectangle: the legend on the first rows, the y axis's
 * name, then the plot with the y labels on its left, then the x axis and
 * its labels.  Drawing goes from the back to the front: the reference line
 * and the cursor, then every series' line, then every series' markers, so
 * that a line never hides a measured point; points that land on the same
 * cell show the later series' symbol.
 */
#include "tui/tui_chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "common/vec.h"
#include "tui/tui_chart_scale.h"

static const char symbols[] = "*+ox#@%&";
#define YLABEL_W 8

void tui_chart_init(struct tui_chart *c, const char *xlabel, const char *ylabel)
{
	memset(c, 0, sizeof *c);
	text_copy(c->xlabel, sizeof c->xlabel, xlabel);
	text_copy(c->ylabel, sizeof c->ylabel, ylabel);
	c->selected = -1;
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

/* The legend: items "S name", wrapped onto at most max_rows rows; when
 * they do not all fit, the last row ends with "+k more", and a name wider
 * than a row ends with an ellipsis.  Returns the rows it takes. */
static int legend(const struct tui_chart *c, const struct tui_rect *r, int max_rows)
{
	int row = 0, x = 0;
	for (size_t i = 0; i < c->count; i++) {
		char item[128];
		snprintf(item, sizeof item, "%c %s", c->series[i].hidden ? '-' : tui_chart_symbol(i),
			 c->series[i].name);
		int w = tui_text_width(item);
		int gap = x ? 2 : 0;
		/* On the last row, keep room for "+k more" unless this is the
		 * last item. */
		int reserve = row == max_rows - 1 && i + 1 < c->count ? 9 : 0;
		if (x && x + gap + w + reserve > r->w) {
			if (row == max_rows - 1) {
				tui_putf(r->y + row, r->x + x + 2, r->w - x - 2, tui_term_attr(TUI_DIM),
					 "+%zu more", c->count - i);
				return row + 1;
			}
			row++;
			x = gap = 0;
		}
		attr_t a = (int)i == c->selected ? tui_term_attr(TUI_CURSOR)
			   : c->series[i].hidden ? tui_term_attr(TUI_DIM)
			   : tui_term_series_attr((int)i);
		x += gap + tui_put_clip(r->y + row, r->x + x + gap, r->w - x - gap - reserve, a, item);
	}
	return c->count ? row + 1 : 0;
}

void tui_chart_draw(const struct tui_chart *c, const struct tui_rect *r)
{
	const struct tui_glyphs *g = tui_term_glyphs();
	for (int y = 0; y < r->h; y++)
		tui_fill(r->y + y, r->x, r->w, tui_term_attr(TUI_NORMAL));

	/* The x range is every series', hidden ones included, so that hiding
	 * one does not move the others sideways; the y range is what is
	 * drawn, so that hiding the tallest gives the rest the height. */
	double xmin = INFINITY, xmax = -INFINITY, ymax = c->ref_y;
	for (size_t i = 0; i < c->count; i++)
		for (size_t k = 0; k < c->series[i].n; k++) {
			double lx = log2(c->series[i].pts[k].x);
			xmin = fmin(xmin, lx);
			xmax = fmax(xmax, lx);
			if (!c->series[i].hidden)
				ymax = fmax(ymax, c->series[i].pts[k].y);
		}

	int max_rows = (r->h - 8) / 3;
	max_rows = max_rows < 1 ? 1 : max_rows > 4 ? 4 : max_rows;
	int lrows = legend(c, r, max_rows);
	if (!isfinite(xmin))
		return;

	int lo = (int)floor(xmin), hi = (int)ceil(xmax);
	if (hi - lo < 2) {
		lo -= 1;
		hi += 1;
	}
	int px = r->x + YLABEL_W, pw = r->w - YLABEL_W - 1;
	int py = r->y + lrows + 1, ph = r->h - lrows - 3; /* y name above, axis + labels below */
	if (pw < 10 || ph < 3)
		return;
	int axis_y = py + ph;
	double step, ytop = tui_chart_scale_y(ymax, ph, &step);
#define ROW(v) (axis_y - 1 - tui_chart_scale_row((v), ytop, ph))
#define COL(x) (px + tui_chart_scale_col(log2(x), lo, hi, pw))

	/* Y axis: labels at round values, the reference's name at its row. */
	tui_put(py - 1, r->x, YLABEL_W, tui_term_attr(TUI_DIM), c->ylabel);
	for (int row = 0; row < ph; row++)
		tui_put(py + row, px - 1, 1, tui_term_attr(TUI_BORDER), g->axis_y);
	int ref_row = c->ref_y > 0 ? ROW(c->ref_y) : -1;
	/* Labels on every m-th tick, m 1, 2 or 5 times a power of ten, so that
	 * they seldom fall on neighbouring rows and stay round; none on the
	 * reference's row. */
	double rows_per_tick = step / ytop * (ph - 1);
	int m = 1;
	for (int d = 0; m * rows_per_tick < 1.4 && m < 1000000; d++)
		m = (d % 3 == 0 ? 2 : d % 3 == 1 ? 5 : 10) * (int)pow(10, d / 3);
	for (int k = 0; k * step <= ytop + step / 2; k += m) {
		double v = k * step;
		int row = ROW(v);
		if (row == ref_row)
			continue;
		char lab[32];
		snprintf(lab, sizeof lab, step >= 1 ? "%.0f" : step >= 0.1 ? "%.1f" : "%.2f", v);
		tui_put_right(row, r->x, YLABEL_W - 2, tui_term_attr(TUI_DIM), lab);
	}

	/* X axis: a 2^k label wherever there is room for it. */
	tui_put(axis_y, px - 1, 1, tui_term_attr(TUI_BORDER), g->origin);
	tui_hline(axis_y, px, pw);
	int every = (int)ceil((double)(hi - lo) * 6 / pw);
	if (every < 1)
		every = 1;
	for (int k = lo; k <= hi; k += every) {
		char lab[24];
		text_count(lab, sizeof lab, 1LL << k);
		int lw = tui_text_width(lab);
		int at = px + tui_chart_scale_col(k, lo, hi, pw) - lw / 2;
		if (at + lw > px + pw)
			at = px + pw - lw;
		if (at < px)
			at = px;
		tui_put(axis_y + 1, at, lw, tui_term_attr(TUI_DIM), lab);
	}
	tui_put_right(axis_y + 1, r->x, YLABEL_W - 2, tui_term_attr(TUI_DIM), c->xlabel);

	/* Behind the data: the reference line and the cursor. */
	if (ref_row >= py) {
		for (int col = 0; col < pw; col++)
			tui_put(ref_row, px + col, 1, tui_term_attr(TUI_DIM), g->hline);
		tui_put_right(ref_row, r->x, YLABEL_W - 2, A_BOLD, c->ref_label);
	}
	if (c->cursor_x > 0) {
		int col = COL(c->cursor_x);
		for (int row = py; row < axis_y; row++)
			tui_put(row, col, 1, tui_term_attr(TUI_DIM), g->vline);
		tui_put(axis_y, col, 1, tui_term_attr(TUI_BORDER), "^");
	}

	/* Lines, then markers over them. */
	for (size_t i = 0; i < c->count; i++) {
		const struct tui_series *s = &c->series[i];
		if (s->hidden || !s->line)
			continue;
		for (size_t k = 1; k < s->n; k++) {
			struct tui_cell cells[512];
			int c0 = COL(s->pts[k - 1].x), r0 = ROW(s->pts[k - 1].y);
			size_t n = tui_chart_scale_line(c0, r0, COL(s->pts[k].x), ROW(s->pts[k].y), cells,
							sizeof cells / sizeof cells[0]);
			for (size_t j = 0; j < n; j++)
				tui_put(cells[j].row, cells[j].col, 1, tui_term_series_attr((int)i), ".");
		}
	}
	for (size_t i = 0; i < c->count; i++) {
		const struct tui_series *s = &c->series[i];
		char sym[2] = {tui_chart_symbol(i), '\0'};
		for (size_t k = 0; k < s->n && !s->hidden; k++)
			tui_put(ROW(s->pts[k].y), COL(s->pts[k].x), 1, tui_term_series_attr((int)i), sym);
	}
#undef ROW
#undef COL
}
