/*
 * tui_chart.h - a small scatter chart drawn with characters: GB/s against
 * problem size.  The x axis is logarithmic in base 2 (sizes are powers of
 * two, or close to them), the y axis linear from zero.  Each series has its
 * own symbol and colour, named in a legend on the first row.
 */
#ifndef CONFORM_TUI_CHART_H
#define CONFORM_TUI_CHART_H

#include <stddef.h>

#include "tui_term.h"

struct tui_point {
	double x, y;
};

struct tui_series {
	char name[96];
	struct tui_point *pts;
	size_t n, cap;
};

struct tui_chart {
	struct tui_series *series;
	size_t count, cap;
	char ylabel[32];      /* "GB/s" */
	char xlabel[32];      /* "n" */
};

void tui_chart_init(struct tui_chart *c, const char *xlabel, const char *ylabel);
void tui_chart_clear(struct tui_chart *c);
void tui_chart_free(struct tui_chart *c);

/* The series named `name`, created when new (NULL when out of memory). */
struct tui_series *tui_chart_series(struct tui_chart *c, const char *name);
void tui_series_add(struct tui_series *s, double x, double y);

/* The symbol series i is drawn with. */
char tui_chart_symbol(size_t i);

void tui_chart_draw(const struct tui_chart *c, const struct tui_rect *r);

#endif
