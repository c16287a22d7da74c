/*
 * tui_plot.c - the plot pane: bandwidth against problem size, one line per
 * variant and element type through its best configuration at each size
 * (the database's best_configs, what "conform best" and the results pane's
 * b read), or, with a, every timed evaluation as a scatter.
 *
 * Which variants: those with a checked case in the catalog; else the one
 * under the catalog's cursor, when it has timed results; else every variant
 * that has any; at most MAX_SERIES of them, and the header says how many
 * more there were.  The problem pane's element type, when set, narrows the
 * series to that type.  A variant of another operator or device is its own
 * series.
 *
 * Shapes never share an axis: a flat problem of n elements and rows of 128
 * or 1024 columns measure different things, so the pane shows one shape at
 * a time (w steps through those present) and its x axis is n or rows.  The
 * y axis is GB/s or, with y, the percentage of the family's copy bandwidth
 * on that device (tune_family_of, db_bandwidth_get), whose level is drawn
 * as the "copy" line either way.
 *
 * Each series is a letter (a, b, ...) and a colour, its best point the
 * capital, and at each size the series stand side by side (tui_chart.h), so
 * that five variants within a few percent of each other read as five marks,
 * not one.  With a, a variant's evaluations at one size, dozens of
 * configurations, form a strip in its own column beside the others': the
 * strip's extent is the spread of the configurations, its top the best of
 * them, and the read-out counts them ("54 tried").  A strip rather than a
 * spread of the configurations across the size's columns, because at 80
 * columns a size has room for one column per variant and no more, and a
 * strip reads the same at every width.
 *
 * The read-out under the chart is the legend as well: a cursor steps along
 * the sizes measured, and every series, hidden ones too, has an entry with
 * its letter and name and, at the cursor's size, its best configuration's
 * GB/s, "best" where that is its best point, % copy, median and
 * configuration, or "–" where it has none.  When the rows cannot hold one
 * entry each, two share a row in a shorter form (GB/s and % copy); none is
 * left out.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dtype.h"
#include "common/text.h"
#include "common/vec.h"
#include "db/db.h"
#include "tui/tui_app.h"
#include "tui/tui_best.h"
#include "tui/tui_chart.h"
#include "tui/tui_devices.h"
#include "tune/tune.h"
#include "tune/tune_refs.h"

#define MAX_SERIES 8
#define MAX_SHAPES 16
#define MAX_SIZES 64

/* A series: the best configurations of one variant, type, operator and
 * device, at the shape shown. */
struct plot_series {
	char variant[64], dtype[8], op[8];
	int64_t device_id;
	char device[128];
	double copy;           /* the family's copy bandwidth there, GB/s; 0: none stored */
	int hidden;
};

struct plot_pane {
	struct tui_pane super;
	struct tui_app *app;
	struct tui_chart chart;
	struct db_tuned_row *best; /* best_configs, every variant */
	size_t nbest, capbest;
	struct db_point_row *all;  /* every timed result */
	size_t nall;
	struct plot_series series[MAX_SERIES];
	size_t nseries, more;      /* more: series left out past MAX_SERIES */
	struct tui_devices devices; /* the series' devices, labelled apart */
	int64_t shapes[MAX_SHAPES]; /* the distinct cols of the chosen variants, ascending */
	size_t nshapes;
	int64_t shape;             /* the cols shown (0: flat) */
	int64_t sizes[MAX_SIZES];  /* the sizes the shown series were measured at */
	size_t nsizes, cursor;
	int show_all;              /* a: every evaluation, not the best lines */
	int percent;               /* y: % of the copy bandwidth */
	int selected;              /* the series [ ] picks and Space hides */
	size_t points, runs, no_copy;
	char scope[128];
	char error[256];
};

static int series_is(const struct plot_series *s, const char *variant, const char *dtype,
		     const char *op, int64_t device_id)
{
	return strcmp(s->variant, variant) == 0 && strcmp(s->dtype, dtype) == 0 &&
	       strcmp(s->op, op) == 0 && s->device_id == device_id;
}

static int best_collect(void *ctx, const struct db_tuned_row *row)
{
	struct plot_pane *pp = ctx;
	return vec_push(pp->best, pp->nbest, pp->capbest, *row) < 0 ? 1 : 0;
}

/* The rule of the file's comment: 1 for a variant the series come from. */
static int variant_wanted(const struct plot_pane *pp, const struct db_tuned_row *r, int by_check,
			  const char *cursor)
{
	int dtype = pp->app->problem.dtype;
	if (dtype >= 0 && strcmp(r->dtype, dtype_name((enum dtype)dtype)) != 0)
		return 0;
	if (by_check)
		return tui_app_variant_checked(pp->app, r->variant);
	if (cursor)
		return strcmp(r->variant, cursor) == 0;
	return 1;
}

static void shape_add(struct plot_pane *pp, int64_t cols)
{
	size_t k = 0;
	while (k < pp->nshapes && pp->shapes[k] < cols)
		k++;
	if ((k < pp->nshapes && pp->shapes[k] == cols) || pp->nshapes == MAX_SHAPES)
		return;
	memmove(&pp->shapes[k + 1], &pp->shapes[k], (pp->nshapes - k) * sizeof pp->shapes[0]);
	pp->shapes[k] = cols;
	pp->nshapes++;
}

/* Where the shape shown is in shapes (nshapes when absent). */
static size_t shape_index(const struct plot_pane *pp)
{
	size_t k = 0;
	while (k < pp->nshapes && pp->shapes[k] != pp->shape)
		k++;
	return k;
}

/* "device.atomic f32", with the operator and the device when the series
 * differ in them: the device's short label, its id after it where two
 * devices share a name (tui_devices.h), so that no two series are named
 * alike (the chart knows a series by its name). */
static void series_name(const struct plot_pane *pp, size_t i, char *buf, size_t len)
{
	const struct plot_series *s = &pp->series[i];
	int ops = 0, devices = 0;
	for (size_t k = 0; k < pp->nseries; k++) {
		ops |= strcmp(pp->series[k].op, s->op) != 0;
		devices |= pp->series[k].device_id != s->device_id;
	}
	snprintf(buf, len, "%s %s%s%s%s%s", s->variant, s->dtype, ops ? " " : "", ops ? s->op : "",
		 devices ? " @" : "", devices ? tui_devices_label(&pp->devices, s->device_id, s->device) : "");
}

/* A point's value on the y axis: GB/s, or % of the series' copy bandwidth
 * (NAN without one). */
static double value(const struct plot_pane *pp, const struct plot_series *s, double gbps)
{
	if (!pp->percent)
		return gbps;
	return s->copy > 0 ? 100 * gbps / s->copy : NAN;
}

static void size_add(struct plot_pane *pp, int64_t n)
{
	size_t k = 0;
	while (k < pp->nsizes && pp->sizes[k] < n)
		k++;
	if ((k < pp->nsizes && pp->sizes[k] == n) || pp->nsizes == MAX_SIZES)
		return;
	memmove(&pp->sizes[k + 1], &pp->sizes[k], (pp->nsizes - k) * sizeof pp->sizes[0]);
	pp->sizes[k] = n;
	pp->nsizes++;
}

static int id_order(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* How many distinct runs ids[0..n) name (sorts them). */
static size_t runs_count(int64_t *ids, size_t n)
{
	size_t distinct = 0;
	if (n < 2) /* ids may be NULL when there is nothing to count */
		return n;
	qsort(ids, n, sizeof *ids, id_order);
	for (size_t k = 0; k < n; k++)
		distinct += k == 0 || ids[k] != ids[k - 1];
	return distinct;
}

/* The chart from the series: their best lines or every evaluation, in the
 * unit chosen, with the copy line, the cursor and the selection. */
static void fill_chart(struct plot_pane *pp)
{
	struct tui_chart *c = &pp->chart;
	int64_t *run_ids = NULL;  /* of the points shown; a run fewer when out of memory */
	size_t nrun_ids = 0, cap_ids = 0;
	tui_chart_clear(c);
	text_copy(c->ylabel, sizeof c->ylabel, pp->percent ? "% copy" : "GB/s");
	text_copy(c->xlabel, sizeof c->xlabel, pp->shape ? "rows" : "n");
	pp->points = pp->runs = pp->no_copy = pp->nsizes = 0;
	c->ref_y = 0;
	for (size_t i = 0; i < pp->nseries; i++) {
		const struct plot_series *ps = &pp->series[i];
		char name[96];
		series_name(pp, i, name, sizeof name);
		struct tui_series *s = tui_chart_series(c, name);
		if (!s)
			break;
		s->line = !pp->show_all;
		s->hidden = ps->hidden;
		if (pp->percent && !(ps->copy > 0))
			pp->no_copy++;
		if (!ps->hidden && ps->copy > 0 && !(c->ref_y > 0)) {
			c->ref_y = pp->percent ? 100 : ps->copy;
			snprintf(c->ref_label, sizeof c->ref_label, "copy bandwidth, %.0f%s", c->ref_y,
				 pp->percent ? "%" : " GB/s");
		}
		/* best_configs is ordered by n within a series: the line runs
		 * left to right. */
		for (size_t k = 0; k < pp->nbest; k++) {
			const struct db_tuned_row *r = &pp->best[k];
			if (r->cols != pp->shape || !series_is(ps, r->variant, r->dtype, r->op, r->device_id))
				continue;
			if (!ps->hidden)
				size_add(pp, r->n);
			if (pp->show_all)
				continue;
			size_t before = s->n;
			tui_series_add(s, (double)r->n, value(pp, ps, r->gbps));
			if (s->n > before && !ps->hidden) {
				pp->points++;
				(void)vec_push(run_ids, nrun_ids, cap_ids, r->run_id);
			}
		}
		for (size_t k = 0; pp->show_all && k < pp->nall; k++) {
			const struct db_point_row *p = &pp->all[k];
			if (p->cols != pp->shape || !series_is(ps, p->variant, p->dtype, p->op, p->device_id))
				continue;
			size_t before = s->n;
			tui_series_add(s, (double)p->n, value(pp, ps, p->gbps));
			if (s->n > before && !ps->hidden) {
				pp->points++;
				(void)vec_push(run_ids, nrun_ids, cap_ids, p->run_id);
			}
		}
	}
	pp->runs = runs_count(run_ids, nrun_ids);
	free(run_ids);
	if (pp->cursor >= pp->nsizes)
		pp->cursor = pp->nsizes ? pp->nsizes - 1 : 0;
	c->cursor_x = pp->nsizes ? (double)pp->sizes[pp->cursor] : 0;
}

/* The series' copy bandwidth: the one rule of what a stored timing is
 * measured against (tune_refs.h), as the results pane reads it. */
static void copy_of(const struct plot_pane *pp, struct plot_series *s)
{
	struct tune_stored_refs refs;
	char err[128];
	s->copy = 0;
	if (pp->app->db && tune_refs_stored(&pp->app->cat, pp->app->db, s->variant, pp->shape, s->device_id,
					    NULL, NULL, &refs, err, sizeof err) == 0)
		s->copy = refs.copy_gbps;
}

/* The series from the rows read: the variants of the rule, the shape shown
 * (kept when still present, else the first), at most MAX_SERIES; hidden
 * series stay hidden across a reload. */
static void choose_series(struct plot_pane *pp)
{
	struct plot_series old[MAX_SERIES];
	size_t nold = pp->nseries;
	memcpy(old, pp->series, sizeof old);
	pp->nseries = pp->more = pp->nshapes = 0;

	int by_check = 0;
	const char *cursor = NULL;
	for (size_t i = 0; i < pp->nbest && !by_check; i++)
		by_check = tui_app_variant_checked(pp->app, pp->best[i].variant);
	if (!by_check) {
		cursor = pp->app->catalog_variant[0] ? pp->app->catalog_variant : NULL;
		int has = 0;
		for (size_t i = 0; cursor && i < pp->nbest; i++)
			has |= strcmp(pp->best[i].variant, cursor) == 0;
		if (!has)
			cursor = NULL;
	}
	if (by_check)
		text_copy(pp->scope, sizeof pp->scope, "checked variants");
	else if (cursor)
		snprintf(pp->scope, sizeof pp->scope, "%s at the catalog cursor", cursor);
	else
		text_copy(pp->scope, sizeof pp->scope, "every timed variant");

	for (size_t i = 0; i < pp->nbest; i++)
		if (variant_wanted(pp, &pp->best[i], by_check, cursor))
			shape_add(pp, pp->best[i].cols);
	if (shape_index(pp) == pp->nshapes)
		pp->shape = pp->nshapes ? pp->shapes[0] : 0;

	/* Counting the series past the cap needs the distinct keys: a row
	 * names a new one when no earlier wanted row of the shape has it. */
	for (size_t i = 0; i < pp->nbest; i++) {
		const struct db_tuned_row *r = &pp->best[i];
		if (r->cols != pp->shape || !variant_wanted(pp, r, by_check, cursor))
			continue;
		int seen = 0;
		for (size_t s = 0; s < pp->nseries && !seen; s++)
			seen = series_is(&pp->series[s], r->variant, r->dtype, r->op, r->device_id);
		for (size_t j = 0; j < i && !seen && pp->nseries == MAX_SERIES; j++) {
			const struct db_tuned_row *o = &pp->best[j];
			seen = o->cols == pp->shape && variant_wanted(pp, o, by_check, cursor) &&
			       strcmp(o->variant, r->variant) == 0 && strcmp(o->dtype, r->dtype) == 0 &&
			       strcmp(o->op, r->op) == 0 && o->device_id == r->device_id;
		}
		if (seen)
			continue;
		if (pp->nseries == MAX_SERIES) {
			pp->more++;
			continue;
		}
		struct plot_series *s = &pp->series[pp->nseries++];
		memset(s, 0, sizeof *s);
		text_copy(s->variant, sizeof s->variant, r->variant);
		text_copy(s->dtype, sizeof s->dtype, r->dtype);
		text_copy(s->op, sizeof s->op, r->op);
		text_copy(s->device, sizeof s->device, r->device);
		s->device_id = r->device_id;
		for (size_t o = 0; o < nold; o++)
			if (series_is(&old[o], s->variant, s->dtype, s->op, s->device_id))
				s->hidden = old[o].hidden;
		copy_of(pp, s);
	}
	tui_devices_clear(&pp->devices);
	for (size_t i = 0; i < pp->nseries; i++)
		tui_devices_add(&pp->devices, pp->series[i].device_id, pp->series[i].device);
	if (pp->selected >= (int)pp->nseries)
		pp->selected = pp->nseries ? (int)pp->nseries - 1 : 0;
}

static void load(struct plot_pane *pp)
{
	vec_free(pp->best, pp->nbest, pp->capbest);
	free(pp->all);
	pp->all = NULL;
	pp->nall = 0;
	pp->error[0] = '\0';
	if (pp->app->db) {
		struct db_tuned_query q = {.pattern = "*"};
		if (db_best_each(pp->app->db, &q, best_collect, pp, pp->error, sizeof pp->error) == 0)
			db_timed_points(pp->app->db, &pp->all, &pp->nall, pp->error, sizeof pp->error);
	}
	choose_series(pp);
	fill_chart(pp);
}

/* "flat (n)" or "rows×128". */
static void shape_name(int64_t cols, char *buf, size_t len)
{
	if (cols)
		snprintf(buf, len, "rows%s%lld", tui_term_glyphs()->times, (long long)cols);
	else
		text_copy(buf, len, "flat (n)");
}

/* The best configuration of series s at size n of the shape shown; NULL
 * when it has none there. */
static const struct db_tuned_row *best_at(const struct plot_pane *pp, const struct plot_series *s, int64_t n)
{
	for (size_t k = 0; k < pp->nbest; k++) {
		const struct db_tuned_row *r = &pp->best[k];
		if (r->cols == pp->shape && r->n == n && series_is(s, r->variant, r->dtype, r->op, r->device_id))
			return r;
	}
	return NULL;
}

/* How many evaluations of series s at size n the a view draws. */
static size_t tried_at(const struct plot_pane *pp, const struct plot_series *s, int64_t n)
{
	size_t count = 0;
	for (size_t k = 0; k < pp->nall; k++) {
		const struct db_point_row *p = &pp->all[k];
		count += p->cols == pp->shape && p->n == n &&
			 series_is(s, p->variant, p->dtype, p->op, p->device_id);
	}
	return count;
}

/* One series' entry of the read-out at the cursor's size, in w columns:
 * the selection mark, its letter (the capital when this size is its best
 * point on the chart), its name, then its best configuration's GB/s,
 * "best" there, % copy, median, (with a) how many evaluations there, the
 * configuration; "–" for a value it does not have.  Compact, for two
 * entries a row: name, GB/s and % copy only. */
static void readout_entry(const struct plot_pane *pp, size_t i, int y, int x, int w, int namew, int compact)
{
	const struct tui_glyphs *g = tui_term_glyphs();
	const struct plot_series *s = &pp->series[i];
	/* A hidden series has no point and, when every one is hidden, no
	 * size either: it is listed with its letter and name alone. */
	int64_t n = s->hidden ? 0 : pp->sizes[pp->cursor];
	const struct tui_point *bp = s->hidden ? NULL : tui_chart_best(&pp->chart, i);
	int at_best = bp && (int64_t)bp->x == n;
	int sel = (int)i == pp->selected;
	attr_t text = sel ? A_BOLD : s->hidden ? tui_term_attr(TUI_DIM) : tui_term_attr(TUI_NORMAL);
	char mark[3] = {sel ? '>' : ' ', tui_chart_glyph(i, at_best), '\0'};
	tui_fill(y, x, w, text);
	tui_put(y, x, 1, text, mark);
	tui_put(y, x + 1, 1, tui_term_series_attr((int)i) | (at_best ? A_REVERSE : 0), mark + 1);
	char name[96];
	series_name(pp, i, name, sizeof name);
	/* Cut in the middle: series that differ at the end (their type, their
	 * device) still differ. */
	tui_put_middle(y, x + 3, namew, text, name);
	int at = x + 3 + namew + (compact ? 1 : 2), left = x + w - at;
	if (left <= 0)
		return;
	if (s->hidden) {
		tui_put_clip(y, at, left, text, "hidden (Space shows it)");
		return;
	}
	const struct db_tuned_row *r = best_at(pp, s, n);
	char gbps[32], pct[16], line[CASE_PARAMS_MAX + 256]; /* clipped to the pane when drawn */
	if (!r) { /* nothing at this size: one "–" under the GB/s */
		snprintf(line, sizeof line, "%*s%s", compact ? 5 : 6, "", g->missing);
		tui_put_clip(y, at, left, text, line);
		return;
	}
	snprintf(gbps, sizeof gbps, "%.1f", r->gbps);
	snprintf(pct, sizeof pct, "%s", g->missing); /* no copy bandwidth stored */
	if (s->copy > 0)
		snprintf(pct, sizeof pct, "%.0f%%", 100 * r->gbps / s->copy);
	/* Right-aligned by hand: a "–" is one column but three bytes. */
	int gw = 7 - tui_text_width(gbps), pw = 4 - tui_text_width(pct);
	if (compact) {
		snprintf(line, sizeof line, "%*s%s %*s%s", gw - 1, "", gbps, pw, "", pct);
		tui_put_clip(y, at, left, text, line);
		return;
	}
	char config[CASE_PARAMS_MAX], tried[32] = "";
	/* The configuration without the operator: the series says it. */
	tui_best_config(r->params, config, sizeof config);
	if (pp->show_all)
		snprintf(tried, sizeof tried, "%zu tried  ", tried_at(pp, s, n));
	snprintf(line, sizeof line, "%*s%s GB/s%s %*s%s  %.2f %s  %s%s", gw, "", gbps, at_best ? " best" : "     ",
		 pw, "", pct, r->median_ms * 1e3, g->us, tried, config);
	tui_put_clip(y, at, left, text, line);
}

/* The read-out, which is also the legend: a heading with the cursor's
 * size and what capitals and digits on the chart mean, then every series,
 * shown or hidden, with its letter, one a row, or two a row (compact) when
 * `rows` cannot hold one a row.  No series is ever left out. */
static void draw_readout(const struct plot_pane *pp, int y, int x, int w, int rows, int shared)
{
	if (!pp->nsizes) {
		tui_put(y, x, w, A_BOLD, "every series hidden: Space shows the selected one");
	} else {
		char size[32];
		text_count(size, sizeof size, pp->sizes[pp->cursor]);
		tui_putf(y, x, w, A_BOLD, "at %s = %s (%zu of %zu, h/l)  capital: a series' best%s",
			 pp->shape ? "rows" : "n", size, pp->cursor + 1, pp->nsizes,
			 shared ? "  2-9: series in one cell" : "");
	}
	int compact = (size_t)rows < pp->nseries;
	int colw = compact ? w / 2 : w;
	int namew = 0;
	for (size_t i = 0; i < pp->nseries; i++) {
		char name[96];
		series_name(pp, i, name, sizeof name);
		int nw = tui_text_width(name);
		namew = nw > namew ? nw : namew;
	}
	/* Room after the name for GB/s and % copy in either form, and the
	 * median and some of the configuration in the wide one. */
	int namemax = colw - (compact ? 16 : 40);
	namew = namew > namemax ? namemax : namew;
	for (size_t i = 0; i < pp->nseries; i++) {
		int row = compact ? (int)i / 2 : (int)i, col = compact ? (int)i % 2 : 0;
		readout_entry(pp, i, y + 1 + row, x + col * colw, colw - (compact && !col), namew, compact);
	}
}

static void plot_draw(struct tui_pane *p, const struct tui_rect *r)
{
	struct plot_pane *pp = (struct plot_pane *)p;
	int y = r->y;
	char shape[32];
	shape_name(pp->shape, shape, sizeof shape);
	const char *unit = pp->percent ? "% of copy bandwidth" : "GB/s";
	if (pp->nshapes > 1)
		tui_putf(y, r->x, r->w, A_BOLD, "%s against %s, %s  (w: shape %zu of %zu)", unit,
			 pp->shape ? "rows" : "n", shape, shape_index(pp) + 1, pp->nshapes);
	else
		tui_putf(y, r->x, r->w, A_BOLD, "%s against %s, %s", unit, pp->shape ? "rows" : "n", shape);
	if (pp->error[0]) {
		tui_put(y + 2, r->x + 2, r->w - 4, tui_term_status_attr(STATUS_ERROR), pp->error);
		return;
	}
	if (!pp->nbest && !pp->nall) {
		tui_put(y + 2, r->x + 2, r->w - 4, A_BOLD, "no timed results yet");
		tui_put(y + 4, r->x + 2, r->w - 4, tui_term_attr(TUI_NORMAL),
			"Conformance runs do not time kernels; timed results (results.gbps)");
		tui_put(y + 5, r->x + 2, r->w - 4, tui_term_attr(TUI_NORMAL),
			"come from the tuner and show here, one line per variant through its");
		tui_put(y + 6, r->x + 2, r->w - 4, tui_term_attr(TUI_NORMAL),
			"best configuration at each size (a: every evaluation).");
		return;
	}
	char more[64] = "", nocopy[64] = "";
	if (pp->more)
		snprintf(more, sizeof more, ", %zu more not shown", pp->more);
	if (pp->no_copy)
		snprintf(nocopy, sizeof nocopy, "; %zu without a copy bandwidth", pp->no_copy);
	char head[512];
	snprintf(head, sizeof head, "%s: %zu series%s, %zu points, %zu run%s; %s%s",
		 pp->show_all ? "all evaluations" : "best configuration per size", pp->nseries, more, pp->points,
		 pp->runs, pp->runs == 1 ? "" : "s", pp->scope, nocopy);
	tui_put_clip(y + 1, r->x, r->w, tui_term_attr(TUI_DIM), head);
	if (!pp->nseries) {
		tui_put(y + 3, r->x + 2, r->w - 4, tui_term_attr(TUI_NORMAL),
			"no timed results for these variants and this element type");
		return;
	}
	/* Every series has a row of the read-out while the plot keeps 10 rows
	 * (at 80x24, up to six series); more, and they go two a row. */
	int list_rows = (int)pp->nseries;
	if (list_rows > 1 && list_rows > r->h - 2 - 1 - 3 - 10)
		list_rows = (list_rows + 1) / 2;
	int readout_h = 1 + list_rows;
	struct tui_rect cr = {y + 2, r->x, r->h - 2 - readout_h, r->w};
	int shared = tui_chart_draw(&pp->chart, &cr);
	draw_readout(pp, cr.y + cr.h, r->x, r->w, list_rows, shared);
}

static void plot_show(struct tui_pane *p)
{
	load((struct plot_pane *)p);
}

static int plot_key(struct tui_pane *p, int key)
{
	struct plot_pane *pp = (struct plot_pane *)p;
	switch (key) {
	case 'R':
	case KEY_F(5):
		load(pp);
		return 1;
	case 'a':
		pp->show_all = !pp->show_all;
		break;
	case 'y':
		if (!pp->percent) {
			int any = 0;
			for (size_t i = 0; i < pp->nseries; i++)
				any |= pp->series[i].copy > 0;
			if (!any) {
				tui_screen_note(p->screen, "no copy bandwidth stored for these series");
				return 1;
			}
		}
		pp->percent = !pp->percent;
		break;
	case '[':
	case ']':
		if (pp->nseries)
			pp->selected = (pp->selected + (key == '[' ? (int)pp->nseries - 1 : 1)) % (int)pp->nseries;
		break;
	case ' ':
		if ((size_t)pp->selected < pp->nseries)
			pp->series[pp->selected].hidden = !pp->series[pp->selected].hidden;
		break;
	case KEY_LEFT:
	case 'h':
		if (pp->cursor > 0)
			pp->cursor--;
		break;
	case KEY_RIGHT:
	case 'l':
		if (pp->cursor + 1 < pp->nsizes)
			pp->cursor++;
		break;
	case 'w':
		if (pp->nshapes < 2) {
			char shape[32];
			shape_name(pp->shape, shape, sizeof shape);
			tui_screen_note(p->screen, "one shape only: %s", shape);
			return 1;
		}
		pp->shape = pp->shapes[(shape_index(pp) + 1) % pp->nshapes];
		pp->cursor = 0;
		choose_series(pp);
		break;
	default:
		return 0;
	}
	fill_chart(pp);
	return 1;
}

static const struct tui_hint plot_hints[] = {
	{"a", "All"}, {"y", "%copy"}, {"[ ]", "Series"}, {"Spc", "Hide"}, {"h/l", "Size"}, {"w", "Shape"},
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
	{"a", "every evaluation instead of the best per size, and back"},
	{"y", "GB/s or % of the family's copy bandwidth"},
	{"[ ]", "select the series before / after in the read-out"},
	{"Space", "hide or show the selected series"},
	{"Left/Right h/l", "move the cursor along the sizes (read-out below)"},
	{"w", "the next problem shape: flat (n), rows of each width"},
	{"R", "read the database again"},
	{" ", "a series is a letter, its best point the capital; at a"},
	{" ", "size the series stand side by side; a digit counts the"},
	{" ", "series sharing a cell where sizes lie too close"},
	{" ", "series: the variants checked in the Catalog, else the"},
	{" ", "one under its cursor, else all; the Problem pane's"},
	{" ", "element type narrows them"},
};

static void plot_destroy(struct tui_pane *p)
{
	struct plot_pane *pp = (struct plot_pane *)p;
	tui_chart_free(&pp->chart);
	vec_free(pp->best, pp->nbest, pp->capbest);
	free(pp->all);
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
