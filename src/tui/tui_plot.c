/*
 * tui_plot.c - the plot pane: GB/s against n from every timed result in
 * the database (results.gbps), across all runs, one series per variant and
 * element type.
 *
 * Which variants: those with a checked case in the catalog; else the one
 * under the catalog's cursor, when it has timed results; else every variant
 * that has any (the first eight).  The problem pane's element type, when
 * set, narrows the series to that type.  Each run's measurement is its own
 * point, so the spread between runs shows as a vertical smear.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "dtype.h"
#include "text.h"
#include "tui_app.h"
#include "tui_chart.h"

#define MAX_SERIES 8

struct plot_pane {
	struct tui_pane super;
	struct tui_app *app;
	struct tui_chart chart;
	size_t points, runs, timed_total;
	char scope[128];
	char error[256];
};

static int point_wanted(const struct plot_pane *pp, const struct db_point_row *p, int by_check,
			const char *cursor)
{
	int dtype = pp->app->problem.dtype;
	if (dtype >= 0 && strcmp(p->dtype, dtype_name((enum dtype)dtype)) != 0)
		return 0;
	if (by_check)
		return tui_app_variant_checked(pp->app, p->variant);
	if (cursor)
		return strcmp(p->variant, cursor) == 0;
	return 1;
}

static void load(struct plot_pane *pp)
{
	struct db_point_row *rows = NULL;
	size_t n = 0;
	tui_chart_clear(&pp->chart);
	pp->points = pp->runs = pp->timed_total = 0;
	pp->error[0] = '\0';
	if (!pp->app->db)
		return;
	if (db_timed_points(pp->app->db, &rows, &n, pp->error, sizeof pp->error) < 0)
		return;
	pp->timed_total = n;

	int by_check = 0;
	const char *cursor = NULL;
	for (size_t i = 0; i < n && !by_check; i++)
		by_check = tui_app_variant_checked(pp->app, rows[i].variant);
	if (!by_check) {
		cursor = tui_catalog_cursor_variant(pp->app->panes[TUI_PANE_CATALOG]);
		int has = 0;
		for (size_t i = 0; cursor && i < n; i++)
			has |= strcmp(rows[i].variant, cursor) == 0;
		if (!has)
			cursor = NULL;
	}
	if (by_check)
		text_copy(pp->scope, sizeof pp->scope, "variants checked in the catalog");
	else if (cursor)
		snprintf(pp->scope, sizeof pp->scope, "%s (catalog cursor)", cursor);
	else
		text_copy(pp->scope, sizeof pp->scope, "every timed variant");

	int64_t *run_ids = calloc(n ? n : 1, sizeof *run_ids);
	for (size_t i = 0; i < n; i++) {
		const struct db_point_row *p = &rows[i];
		if (!point_wanted(pp, p, by_check, cursor))
			continue;
		char name[96];
		snprintf(name, sizeof name, "%s %s", p->variant, p->dtype);
		struct tui_series *s = NULL;
		for (size_t k = 0; k < pp->chart.count; k++)
			if (strcmp(pp->chart.series[k].name, name) == 0)
				s = &pp->chart.series[k];
		if (!s && pp->chart.count < MAX_SERIES)
			s = tui_chart_series(&pp->chart, name);
		if (!s)
			continue;
		tui_series_add(s, (double)p->n, p->gbps);
		pp->points++;
		if (run_ids) {
			size_t k = 0;
			while (k < pp->runs && run_ids[k] != p->run_id)
				k++;
			if (k == pp->runs)
				run_ids[pp->runs++] = p->run_id;
		}
	}
	free(run_ids);
	free(rows);
}

static void plot_draw(struct tui_pane *p, const struct tui_rect *r)
{
	struct plot_pane *pp = (struct plot_pane *)p;
	int y = r->y;
	tui_put(y, r->x, r->w, A_BOLD, "GB/s against n, across runs");
	if (pp->error[0]) {
		tui_put(y + 2, r->x + 2, r->w - 4, tui_term_status_attr(STATUS_ERROR), pp->error);
		return;
	}
	if (!pp->timed_total) {
		tui_put(y + 2, r->x + 2, r->w - 4, A_BOLD, "no timed results yet");
		tui_put(y + 4, r->x + 2, r->w - 4, tui_term_attr(TUI_NORMAL),
			"Conformance runs do not time kernels; timed results (results.gbps)");
		tui_put(y + 5, r->x + 2, r->w - 4, tui_term_attr(TUI_NORMAL),
			"come from the tuner and show here, one point per run and size.");
		return;
	}
	tui_putf(y + 1, r->x, r->w, tui_term_attr(TUI_DIM), "%zu points from %zu runs: %s", pp->points,
		 pp->runs, pp->scope);
	if (!pp->points) {
		tui_put(y + 3, r->x + 2, r->w - 4, tui_term_attr(TUI_NORMAL),
			"no timed results for these variants and this element type");
		return;
	}
	struct tui_rect cr = {y + 2, r->x, r->h - 2, r->w};
	tui_chart_draw(&pp->chart, &cr);
}

static void plot_show(struct tui_pane *p)
{
	load((struct plot_pane *)p);
}

static int plot_key(struct tui_pane *p, int key)
{
	if (key == 'R' || key == KEY_F(5)) {
		load((struct plot_pane *)p);
		return 1;
	}
	return 0;
}

static const struct tui_hint plot_hints[] = {
	{"R", "Reload"},
};

static size_t plot_hints_fn(struct tui_pane *p, const struct tui_hint **out)
{
	(void)p;
	*out = plot_hints;
	return sizeof plot_hints / sizeof plot_hints[0];
}

static const struct tui_hint plot_help[] = {
	{"", "Plot"},
	{"R", "read the database again"},
	{" ", "series: the variants checked in the Catalog, else the"},
	{" ", "one under its cursor, else all; the Problem pane's"},
	{" ", "element type narrows them"},
};

static void plot_destroy(struct tui_pane *p)
{
	struct plot_pane *pp = (struct plot_pane *)p;
	tui_chart_free(&pp->chart);
	free(pp);
}

static const struct tui_pane_class plot_class = {
	.title = "Plot",
	.draw = plot_draw,
	.key = plot_key,
	.hints = plot_hints_fn,
	.help = plot_help,
	.nhelp = sizeof plot_help / sizeof plot_help[0],
	.show = plot_show,
	.destroy = plot_destroy,
};

struct tui_pane *tui_plot_pane_new(struct tui_app *app)
{
	struct plot_pane *pp = calloc(1, sizeof *pp);
	if (!pp)
		return NULL;
	pp->super.cls = &plot_class;
	pp->app = app;
	tui_chart_init(&pp->chart, "n", "GB/s");
	return &pp->super;
}
