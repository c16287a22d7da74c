/*
 * tui_chart.h - a small chart drawn with characters: GB/s (or any value
 * from zero up) against problem size.  The x axis is logarithmic in base 2
 * (sizes are powers of two, or close to them) and labelled as sizes are
 * written everywhere else ("2^20", text_count); the y axis is linear from
 * zero to a round value just above the largest value shown, the reference
 * line included.  Each series has its own symbol and colour, named in a
 * legend above the plot that wraps onto more rows and says how many items
 * it could not show; a series is drawn as markers, joined by a line when
 * it asks for one.  A horizontal reference line (the copy bandwidth) and a
 * vertical cursor at one size are optional.  tui_chart_scale.h holds the
 * arithmetic.
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
	int hidden;           /* in the legend (symbol "-"), not drawn, not scaled to */
};

struct tui_chart {
	struct tui_series *series;
	size_t count, cap;
	char ylabel[32];      /* "GB/s" */
	char xlabel[32];      /* "n" */
	double ref_y;         /* a horizontal line at this value; 0: none */
	char ref_label[16];   /* written in the y labels' column at its row */
	int selected;         /* the legend item shown selected; -1: none */
	double cursor_x;      /* a vertical line at this size; 0: none */
};

void tui_chart_init(struct tui_chart *c, const char *xlabel, const char *ylabel);
/* Drops the series (not the labels, the reference or the cursor). */
void tui_chart_clear(struct tui_chart *c);
void tui_chart_free(struct tui_chart *c);

/* The series named `name`, created when new (NULL when out of memory). */
struct tui_series *tui_chart_series(struct tui_chart *c, const char *name);
void tui_series_add(struct tui_series *s, double x, double y);

/* The symbol series i is drawn with. */
char tui_chart_symbol(size_t i);

void tui_chart_draw(const struct tui_chart *c, const struct tui_rect *r);

#endif
