/*
 * tui_best.c - the best view of the results pane (see tui_best.h).
 *
 * The references of a row (the family's baseline for x base, the copy for
 * % copy) are the ones tune_refs.h names for every reader (a user kernel's
 * too, which this interface's catalog may not know): the baseline's best
 * at the same problem and device, the device's stored copy bandwidth.  The
 * references themselves are not listed: they are what the rows are
 * measured against.  What was not measured stays empty, drawn as missing.
 *
 * By time the list is best_configs as it is.  By energy or edp a problem's
 * best is the first of its configurations (db_configs_each: each by its
 * fastest correct result, with that result's energy) ranked by
 * objective_rank_cmp, which the detail lists in that order; the Pareto
 * mark is objective_pareto's over the problem's configurations.
 */
#include "tui/tui_best.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/params.h"
#include "common/text.h"
#include "common/vec.h"
#include "tui/tui_app.h"
#include "tui/tui_command.h"
#include "tune/best.h"
#include "tui/tui_energy.h"
#include "tune/tune.h"
#include "tune/tune_refs.h"

enum { B_VARIANT, B_N, B_DTYPE, B_OP, B_CONFIG, B_MEDIAN, B_ENERGY, B_POWER, B_GBPS, B_BASE, B_COPY,
       B_SPREAD, B_DEVICE, B_COLS };

static const struct tui_table_col best_cols[B_COLS] = {
	[B_VARIANT] = {.title = "Variant", .key = 1},
	[B_N] = {.title = "n", .right = 1, .numeric = 1, .key = 1},
	[B_DTYPE] = {.title = "Type", .fold = 1},
	[B_OP] = {.title = "Op", .fold = 1},
	[B_CONFIG] = {.title = "Config", .flex = 1, .min = 46, .key = 1, .params = 1},
	[B_MEDIAN] = {.title = "us", .right = 1, .numeric = 1},
	[B_ENERGY] = {.title = TUI_ENERGY_TITLE, .right = 1, .numeric = 1, .sparse = 1},
	[B_POWER] = {.title = TUI_POWER_TITLE, .right = 1, .numeric = 1, .sparse = 1},
	[B_GBPS] = {.title = "GB/s", .right = 1, .numeric = 1},
	[B_BASE] = {.title = "xbase", .right = 1, .numeric = 1},
	[B_COPY] = {.title = "%copy", .right = 1, .numeric = 1},
	[B_SPREAD] = {.title = "Spread", .right = 1, .numeric = 1},
	[B_DEVICE] = {.title = "Device", .fold = 1},
};

/* The detail: the configurations of one problem. */
enum { C_RANK, C_CONFIG, C_MEDIAN, C_ENERGY, C_POWER, C_PARETO, C_INTERVAL, C_SPREAD, C_GBPS, C_VSBEST,
       C_RUN, C_WHEN, C_COLS };

static const struct tui_table_col config_cols[C_COLS] = {
	[C_RANK] = {.title = "#", .right = 1, .numeric = 1, .key = 1},
	[C_CONFIG] = {.title = "Config", .flex = 1, .min = 46, .key = 1},
	[C_MEDIAN] = {.title = "us", .right = 1, .numeric = 1},
	[C_ENERGY] = {.title = TUI_ENERGY_TITLE, .right = 1, .numeric = 1, .sparse = 1},
	[C_POWER] = {.title = TUI_POWER_TITLE, .right = 1, .numeric = 1, .sparse = 1},
	[C_PARETO] = {.title = TUI_PARETO_TITLE, .sparse = 1},
	[C_INTERVAL] = {.title = "95% interval", .right = 1},
	[C_SPREAD] = {.title = "Spread", .right = 1, .numeric = 1},
	[C_GBPS] = {.title = "GB/s", .right = 1, .numeric = 1},
	[C_VSBEST] = {.title = "vs best", .right = 1, .numeric = 1},
	[C_RUN] = {.title = "Run", .right = 1, .numeric = 1},
	[C_WHEN] = {.title = "Measured"},
};

void tui_best_init(struct tui_best *b, struct tui_app *app)
{
	memset(b, 0, sizeof *b);
	b->app = app;
	b->objective = app->objective;
	tui_table_init(&b->table, best_cols, B_COLS);
	tui_table_init(&b->configs, config_cols, C_COLS);
}

void tui_best_free(struct tui_best *b)
{
	tui_table_free(&b->table);
	tui_table_free(&b->configs);
	free(b->rows);
	free(b->cfg);
	b->rows = b->cfg = NULL;
	b->count = b->cap = b->ncfg = b->capcfg = 0;
}

void tui_best_config(const char *params, char *buf, size_t len)
{
	if (params_without(params, "op", buf, len) < 0)
		text_copy(buf, len, params);
	if (!*buf)
		text_copy(buf, len, "(default)");
}

/* Medians are stored in ms and shown in µs, as "conform best" prints them;
 * a value not measured is left empty (drawn as missing). */
static void set_median(struct tui_table_row *row, int col, double ms)
{
	if (!isnan(ms))
		tui_table_set(row, col, ms, 0, "%.2f", ms * 1e3);
}

static void set_gbps(struct tui_table_row *row, int col, double gbps)
{
	if (!isnan(gbps))
		tui_table_set(row, col, gbps, 0, "%.1f", gbps);
}

static void set_spread(struct tui_table_row *row, int col, const struct db_robust *rb)
{
	if (isnan(rb->spread))
		return;
	int missed = rb->noise_met == 0;
	tui_table_set(row, col, rb->spread, missed ? tui_term_attr(TUI_WARN) : 0, "%.1f%%%s",
		      100 * rb->spread, missed ? "~" : "");
}

static int collect(void *ctx, const struct db_tuned_row *row)
{
	struct tui_best *b = ctx;
	return vec_push(b->rows, b->count, b->cap, *row) < 0 ? 1 : 0;
}

struct ranked {
	struct objective_key key;
	size_t at;                    /* its place in the database's order */
};

static int ranked_cmp(const void *pa, const void *pb, void *arg)
{
	const struct ranked *a = pa, *b = pb;
	int c = objective_rank_cmp(*(const enum objective *)arg, &a->key, &b->key);
	return c ? c : (a->at > b->at) - (a->at < b->at);
}

/* Puts rows, which come in the database's order (time's rule, ties by
 * configuration), in objective o's order, best first; rows o cannot tell
 * apart keep the database's order.  Time's order is the database's own.
 * Out of memory, the order stays time's. */
static void rank_rows(enum objective o, struct db_tuned_row *rows, size_t n)
{
	if (o == OBJECTIVE_TIME || n < 2)
		return;
	struct ranked *r = malloc(n * sizeof *r);
	struct db_tuned_row *copy = malloc(n * sizeof *copy);
	if (r && copy) {
		for (size_t i = 0; i < n; i++) {
			best_row_key(&rows[i], &r[i].key);
			r[i].at = i;
		}
		qsort_r(r, n, sizeof *r, ranked_cmp, &o);
		memcpy(copy, rows, n * sizeof *rows);
		for (size_t i = 0; i < n; i++)
			rows[i] = copy[r[i].at];
	}
	free(r);
	free(copy);
}

struct configs {
	struct db_tuned_row **v;
	size_t *n, *cap;
};

static int collect_config(void *ctx, const struct db_tuned_row *row)
{
	struct configs *c = ctx;
	return vec_push(*c->v, *c->n, *c->cap, *row) < 0 ? 1 : 0;
}

/* Every configuration measured for the problem of `problem` (each by its
 * fastest correct result, db_configs_each), best first by b's objective,
 * into *v.  Returns 0, or -1 with a message. */
static int problem_configs(const struct tui_best *b, const struct db_tuned_row *problem,
			   struct db_tuned_row **v, size_t *n, size_t *cap, char *err, size_t len)
{
	struct configs c = {v, n, cap};
	*n = 0;
	if (db_configs_each(b->app->db, problem, collect_config, &c, err, len) < 0)
		return -1;
	rank_rows(b->objective, *v, *n);
	return 0;
}

/* best_configs holds each problem's best by time; by another objective a
 * problem's best is the first of its configurations ranked by it. */
static void best_by_objective(struct tui_best *b)
{
	struct db_tuned_row *v = NULL;
	size_t n = 0, cap = 0;
	char err[256];
	for (size_t i = 0; i < b->count; i++) {
		if (problem_configs(b, &b->rows[i], &v, &n, &cap, err, sizeof err) < 0) {
			text_copy(b->error, sizeof b->error, err);
			break;
		}
		if (n)
			b->rows[i] = v[0];
	}
	free(v);
}

static int same_problem(const struct db_tuned_row *a, const struct db_tuned_row *b)
{
	return a->device_id == b->device_id && a->n == b->n && a->cols == b->cols &&
	       strcmp(a->dtype, b->dtype) == 0 && strcmp(a->op, b->op) == 0;
}

/* The best row of variant at r's problem and device, or NULL. */
static const struct db_tuned_row *best_at(const struct tui_best *b, const struct db_tuned_row *r,
					  const char *variant)
{
	for (size_t i = 0; i < b->count; i++)
		if (strcmp(b->rows[i].variant, variant) == 0 && same_problem(&b->rows[i], r))
			return &b->rows[i];
	return NULL;
}

struct beside {
	const struct tui_best *b;
	const struct db_tuned_row *r;
};

static int beside_best(void *ctx, const char *variant)
{
	const struct beside *x = ctx;
	return best_at(x->b, x->r, variant) != NULL;
}

/* What r is measured against: the device's copy bandwidth and the
 * baseline's best median at r's problem; each NAN when not measured. */
static void row_refs(const struct tui_best *b, const struct db_tuned_row *r, double *copy_gbps,
		     double *base_ms)
{
	struct tune_stored_refs refs;
	struct beside ctx = {b, r};
	const struct db_tuned_row *o;
	char err[256];
	tune_refs_stored(&b->app->cat, b->app->db, r->variant, r->cols, r->device_id, beside_best, &ctx,
			 &refs, err, sizeof err);
	*copy_gbps = refs.copy_gbps > 0 ? refs.copy_gbps : NAN;
	*base_ms = refs.baseline && (o = best_at(b, r, refs.baseline)) != NULL ? o->median_ms : NAN;
}

void tui_best_load(struct tui_best *b, const char *filter)
{
	struct db_tuned_query q = {.pattern = "*"};
	char err[256];
	b->count = 0;
	b->error[0] = '\0';
	tui_table_begin(&b->table);
	if (b->app->db && db_best_each(b->app->db, &q, collect, b, err, sizeof err) < 0)
		text_copy(b->error, sizeof b->error, err);
	else if (b->app->db && b->objective != OBJECTIVE_TIME)
		best_by_objective(b);
	tui_devices_clear(&b->devices);
	for (size_t i = 0; i < b->count; i++)
		tui_devices_add(&b->devices, b->rows[i].device_id, b->rows[i].device);
	for (size_t i = 0; i < b->count; i++) {
		const struct db_tuned_row *r = &b->rows[i];
		if (tune_is_reference(&b->app->cat, r->variant))
			continue;
		struct tui_table_row *row = tui_table_add(&b->table);
		if (!row)
			break;
		char shape[48], config[TUI_CELL_MAX];
		row->id = (long)i;
		tui_shape(shape, sizeof shape, r->n, r->cols);
		tui_best_config(r->params, config, sizeof config);
		tui_table_set(row, B_VARIANT, NAN, 0, "%s", r->variant);
		/* Row problems sort by their elements, rows x cols. */
		tui_table_set(row, B_N, (double)r->n * (double)(r->cols > 0 ? r->cols : 1), 0, "%s", shape);
		tui_table_set(row, B_DTYPE, NAN, 0, "%s", r->dtype);
		tui_table_set(row, B_OP, NAN, 0, "%s", r->op);
		tui_table_set(row, B_CONFIG, NAN, A_BOLD, "%s", config);
		set_median(row, B_MEDIAN, r->median_ms);
		tui_energy_set(row, B_ENERGY, B_POWER, &r->energy);
		set_gbps(row, B_GBPS, r->gbps);
		double copy, base;
		row_refs(b, r, &copy, &base);
		if (base > 0 && r->median_ms > 0)
			tui_table_set(row, B_BASE, base / r->median_ms, 0, "%.2f", base / r->median_ms);
		if (copy > 0 && r->gbps > 0)
			tui_table_set(row, B_COPY, r->gbps / copy, 0, "%.0f%%", 100 * r->gbps / copy);
		set_spread(row, B_SPREAD, &r->robust);
		tui_table_set(row, B_DEVICE, NAN, tui_term_attr(TUI_DIM), "%s",
			      tui_devices_label(&b->devices, r->device_id, r->device));
	}
	snprintf(b->table.filter, sizeof b->table.filter, "%s", filter ? filter : "");
	tui_table_end(&b->table);
}

void tui_best_filter(struct tui_best *b, const char *filter)
{
	tui_table_filter(b->detail ? &b->configs : &b->table, filter);
}

/* The configurations of b->problem's problem, ranked by the objective,
 * as the detail's table: the Pareto front of time and energy marked, "vs
 * best" the objective's figure against the best's. */
static void fill_configs(struct tui_best *b)
{
	char err[256];
	b->error[0] = '\0';
	if (problem_configs(b, &b->problem, &b->cfg, &b->ncfg, &b->capcfg, err, sizeof err) < 0)
		text_copy(b->error, sizeof b->error, err);
	/* The problem's best is the objective's (time's: the list's row). */
	if (b->objective != OBJECTIVE_TIME && b->ncfg)
		b->problem = b->cfg[0];
	struct objective_key *k = malloc((b->ncfg ? b->ncfg : 1) * sizeof *k);
	int *front = calloc(b->ncfg ? b->ncfg : 1, sizeof *front);
	long *group = calloc(b->ncfg ? b->ncfg : 1, sizeof *group); /* one group: the problem */
	for (size_t i = 0; k && i < b->ncfg; i++)
		best_row_key(&b->cfg[i], &k[i]);
	if (k && front && group)
		tui_energy_fronts(k, group, b->ncfg, front);
	tui_table_begin(&b->configs);
	b->configs.cursor = b->configs.top = 0;
	double best = b->ncfg && k ? objective_value(b->objective, &k[0]) : -1;
	for (size_t i = 0; i < b->ncfg; i++) {
		const struct db_tuned_row *r = &b->cfg[i];
		struct tui_table_row *row = tui_table_add(&b->configs);
		if (!row)
			break;
		char config[TUI_CELL_MAX];
		row->id = (long)i;
		tui_best_config(r->params, config, sizeof config);
		tui_table_set(row, C_RANK, (double)(i + 1), tui_term_attr(TUI_DIM), "%zu", i + 1);
		tui_table_set(row, C_CONFIG, NAN, i == 0 ? A_BOLD : 0, "%s", config);
		set_median(row, C_MEDIAN, r->median_ms);
		tui_energy_set(row, C_ENERGY, C_POWER, &r->energy);
		tui_energy_set_front(row, C_PARETO, front && front[i]);
		/* A text column: the missing glyph by hand. */
		if (!isnan(r->robust.ci_low_ms) && !isnan(r->robust.ci_high_ms))
			tui_table_set(row, C_INTERVAL, NAN, 0, "[%.2f, %.2f]", r->robust.ci_low_ms * 1e3,
				      r->robust.ci_high_ms * 1e3);
		else
			tui_table_set(row, C_INTERVAL, NAN, tui_term_attr(TUI_DIM), "%s",
				      tui_term_glyphs()->missing);
		set_spread(row, C_SPREAD, &r->robust);
		set_gbps(row, C_GBPS, r->gbps);
		/* By energy or edp, a row without energy has nothing to compare. */
		double v = k ? objective_value(b->objective, &k[i]) : -1;
		if (best > 0 && v > 0)
			tui_table_set(row, C_VSBEST, v / best, 0, i ? "%+.1f%%" : "best", 100 * (v / best - 1));
		tui_table_set(row, C_RUN, (double)r->run_id, tui_term_attr(TUI_DIM), "#%lld",
			      (long long)r->run_id);
		tui_table_set(row, C_WHEN, NAN, tui_term_attr(TUI_DIM), "%.16s", r->measured_at);
	}
	tui_table_end(&b->configs);
	free(k);
	free(front);
	free(group);
}

/* Enter: the configurations measured for the problem of the cursor's row. */
static void open_detail(struct tui_best *b)
{
	const struct tui_table_row *cur = tui_table_current(&b->table);
	if (!cur || !b->app->db)
		return;
	b->problem = b->rows[cur->id];
	/* A problem's configurations start unfiltered: the list's words name
	 * variants and sizes, which the configurations' rows do not show. */
	b->configs.filter[0] = '\0';
	fill_configs(b);
	b->detail = 1;
}

/* 1 when some row of v has an energy figure. */
static int any_energy(const struct db_tuned_row *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (energy_measured(&v[i].energy))
			return 1;
	return 0;
}

static enum objective next_objective(enum objective o)
{
	return (enum objective)((o + 1) % (OBJECTIVE_EDP + 1));
}

/* " by energy" or " by edp" for the headings; "" by time, the rule of
 * every "best" in conform, where they say nothing more. */
static const char *by(const struct tui_best *b, char *buf, size_t len)
{
	if (b->objective == OBJECTIVE_TIME)
		return "";
	snprintf(buf, len, " by %s", objective_name(b->objective));
	return buf;
}

static void draw_list(struct tui_best *b, const struct tui_rect *r)
{
	int y = r->y;
	char objective[32];
	tui_putf(y, r->x, r->w, A_BOLD, "Best configurations%s  %zu%s  (b: back to the run)",
		 by(b, objective, sizeof objective), b->table.nview, b->table.filter[0] ? " matching" : "");
	struct tui_rect tr = {y + 2, r->x, r->h - 2, r->w};
	tui_table_draw(&b->table, &tr, 1);
	char folded[160];
	tui_table_folded(&b->table, folded, sizeof folded);
	char line[256];
	snprintf(line, sizeof line, "%s%s", folded[0] ? "every row: " : "Enter: every configuration of a problem",
		 folded);
	tui_put_clip(y + 1, r->x, r->w, tui_term_attr(TUI_DIM), line);
	if (b->error[0])
		tui_put(y + 4, r->x + 2, r->w - 4, tui_term_status_attr(STATUS_ERROR), b->error);
	else if (!b->table.nview)
		tui_put(y + 4, r->x + 2, r->w - 4, tui_term_attr(TUI_DIM),
			b->table.count ? "no best configuration matches the filter (Esc clears it)"
				       : "no timed results yet: m picks sweep or tune, r runs it");
}

static void draw_detail(struct tui_best *b, const struct tui_rect *r)
{
	const struct db_tuned_row *p = &b->problem;
	char shape[48], config[TUI_CELL_MAX];
	int y = r->y;
	tui_shape(shape, sizeof shape, p->n, p->cols);
	tui_best_config(p->params, config, sizeof config);
	tui_putf(y++, r->x, r->w, A_BOLD, "%s  %s %s %s  on %s", p->variant, shape, p->dtype, p->op,
		 db_device_label(p->device));
	tui_put(y, r->x, 6, tui_term_attr(TUI_DIM), "best: ");
	/* The configuration in full, however long: it wraps. */
	int x = r->x + 6, w = r->w - 6;
	const char *s = config;
	while (*s && y < r->y + r->h) {
		int n = tui_put(y, x, w, A_BOLD, s);
		s += strlen(s) < (size_t)n ? strlen(s) : (size_t)n;
		y++;
	}
	char timing[96] = "";
	if (!isnan(p->median_ms))
		text_appendf(timing, sizeof timing, "%.2f %s, ", p->median_ms * 1e3, tui_term_glyphs()->us);
	if (!isnan(p->gbps))
		text_appendf(timing, sizeof timing, "%.1f GB/s, ", p->gbps);
	tui_putf(y++, r->x, r->w, tui_term_attr(TUI_DIM), "%srun #%lld%s%s; %zu configuration%s, best first",
		 timing, (long long)p->run_id, p->git_revision[0] ? ", build " : "", p->git_revision,
		 b->ncfg, b->ncfg == 1 ? "" : "s");
	if (b->objective != OBJECTIVE_TIME || any_energy(b->cfg, b->ncfg)) {
		char line[160], spent[64];
		tui_energy_text(&p->energy, spent, sizeof spent);
		snprintf(line, sizeof line, "by %s: %s", objective_name(b->objective),
			 spent[0] ? spent : "the best has no energy figure");
		text_appendf(line, sizeof line, "; %s: time/energy Pareto front; e: by %s", TUI_PARETO_TITLE,
			     objective_name(next_objective(b->objective)));
		tui_put(y++, r->x, r->w, tui_term_attr(TUI_DIM), line);
	}
	tui_put(y++, r->x, r->w, tui_term_attr(TUI_DIM),
		"y copies the configuration, Y the conform tune command line; Esc goes back");
	struct tui_rect tr = {y, r->x, r->y + r->h - y, r->w};
	tui_table_draw(&b->configs, &tr, 1);
	if (b->error[0])
		tui_put(y + 2, r->x + 2, r->w - 4, tui_term_status_attr(STATUS_ERROR), b->error);
	else if (!b->configs.nview && b->configs.count)
		tui_put(y + 2, r->x + 2, r->w - 4, tui_term_attr(TUI_DIM),
			"no configuration matches the filter (Esc goes back)");
}

void tui_best_draw(struct tui_best *b, const struct tui_rect *r)
{
	if (b->detail)
		draw_detail(b, r);
	else
		draw_list(b, r);
}

/* y / Y: the configuration of the row under the cursor (the detail's, or
 * the best), or the command line that measures its problem again. */
static void copy(struct tui_best *b, int command)
{
	const struct db_tuned_row *r = NULL;
	char text[4096], why[512];
	if (b->detail) {
		const struct tui_table_row *cur = tui_table_current(&b->configs);
		r = cur ? &b->cfg[cur->id] : &b->problem;
	} else {
		const struct tui_table_row *cur = tui_table_current(&b->table);
		r = cur ? &b->rows[cur->id] : NULL;
	}
	if (!r)
		return;
	if (command) {
		const struct tui_command_of w = {.variant = r->variant, .source = r->source,
						 .run_id = r->run_id, .dtype = r->dtype, .op = r->op,
						 .n = r->n, .cols = r->cols};
		if (tui_command_tune(b->app, &w, text, sizeof text, why, sizeof why) < 0) {
			tui_screen_note(&b->app->screen, "cannot copy a command line: %s", why);
			return;
		}
	} else {
		tui_best_config(r->params, text, sizeof text);
	}
	tui_term_copy(text);
	tui_screen_note(&b->app->screen, "copied: %s", text);
}

int tui_best_has_energy(const struct tui_best *b)
{
	return any_energy(b->rows, b->count) || (b->detail && any_energy(b->cfg, b->ncfg));
}

void tui_best_objective(struct tui_best *b, enum objective o)
{
	char filter[TUI_FILTER_MAX];
	b->objective = o;
	text_copy(filter, sizeof filter, b->table.filter);
	tui_best_load(b, filter);
	if (b->detail) {
		/* The same problem: its best is the list's row again (by time
		 * best_configs'), its configurations ranked again. */
		const struct db_tuned_row *r = best_at(b, &b->problem, b->problem.variant);
		if (r)
			b->problem = *r;
		fill_configs(b);
	}
}

enum tui_hit tui_best_mouse(struct tui_best *b, const struct tui_mouse *m)
{
	return tui_table_mouse(b->detail ? &b->configs : &b->table, m);
}

int tui_best_key(struct tui_best *b, int key)
{
	struct tui_table *t = b->detail ? &b->configs : &b->table;
	if (TUI_IS_ENTER(key) && !b->detail) {
		open_detail(b);
		return 1;
	}
	if ((key == TUI_KEY_ESC || key == KEY_BACKSPACE || key == 127) && b->detail) {
		b->detail = 0;
		return 1;
	}
	if (key == 'y' || key == 'Y') {
		copy(b, key == 'Y');
		return 1;
	}
	if (key == 'e') {
		tui_best_objective(b, next_objective(b->objective));
		return 1;
	}
	if (tui_table_key(t, key)) {
		if (t->note[0])
			tui_screen_note(&b->app->screen, "%s", t->note);
		return 1;
	}
	return 0;
}
