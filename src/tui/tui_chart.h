/*
 * tui_chart.h - a small chart drawn with characters: GB/s (or any value
 * from zero up) against problem size.  The x axis is logarithmic in base 2
 * (sizes are powers of two, or close to them) with a tick and a label at
 * evenly spaced powers, written as sizes are written everywhere else
 * ("2^20", text_count); the y axis is linear from zero with round labels
 * on evenly spaced rows (tui_chart_scale.h holds the arithmetic).
 *
 * Series are told apart without colour: series i is drawn with the letter
 * tui_chart_glyph(i, 0) ('a', 'b', ...) in its colour, and its best point
 * (its highest value) with the capital, highlighted.  At each size the
 * series stand side by side, one column each in the order added, centred on
 * the size's column, so that series with the same value at a size do not
 * hide each other (the x axis is one of measured sizes, so a column either
 * way does not misplace a point between them).  Where sizes lie too close
 * for that, series share columns, and a cell that two or more series fall
 * in shows how many as a digit rather than one of them.  A series is drawn
 * as markers, joined by a dotted line when it asks for one; a horizontal
 * reference line (the copy bandwidth) and a vertical cursor at one size are
 * optional.  The caller lists the series (their glyphs and names); the
 * chart draws no legend of its own.
 */
#ifndef CONFORM_TUI_CHART_H
#define CONFORM_TUI_CHART_H

#include <stddef.h>

#include "tui/tui_term.h"

struct tui_point {
	double x, y;
};

struct tui_series {
	char name[96];
	struct tui_point *pts;
	size_t n, cap;
	int line;             /* join the points, in the order added, by a line */
	int hidden;           /* not drawn, not scaled to, no column at a size */
};

struct tui_chart {
	struct tui_series *series;
	size_t count, cap;
	char ylabel[32];      /* "GB/s" */
	char xlabel[32];      /* "n" */
	double ref_y;         /* a horizontal line at this value; 0: none */
	char ref_label[64];   /* what the line is, said above the plot */
	double cursor_x;      /* a vertical line at this size; 0: none */
};

void tui_chart_init(struct tui_chart *c, const char *xlabel, const char *ylabel);
/* Drops the series (not the labels, the reference or the cursor). */
void tui_chart_clear(struct tui_chart *c);
void tui_chart_free(struct tui_chart *c);

/* The series named `name`, created when new (NULL when out of memory). */
struct tui_series *tui_chart_series(struct tui_chart *c, const char *name);
void tui_series_add(struct tui_series *s, double x, double y);

/* The letter series i is drawn with; its capital when best. */
char tui_chart_glyph(size_t i, int best);

/* The point series i is best at (its highest value, the first of equals);
 * NULL when it has none. */
const struct tui_point *tui_chart_best(const struct tui_chart *c, size_t i);

/* Draws the chart in r.  Returns how many cells show a count of series
 * sharing them (so the caller can say what the digits mean). */
int tui_chart_draw(const struct tui_chart *c, const struct tui_rect *r);

#endif
