/*
 * tui_results.c - the results pane: one stored run as a sortable table, and
 * the detail of the result under the cursor.
 *
 * It reads the database (db_read.c), never the run in memory, so what it
 * shows is what "conform" and sqlite3 see.  It follows the newest run (the
 * one in progress included) until the user steps to an older one with [.
 * Timing columns (median, GB/s, % of the copy bandwidth, × the family's
 * baseline, spread: the relative half-width of the median's 95 % interval,
 * "~" after it when sampling stopped before reaching --max-noise) appear
 * when the run has timed results; the fastest
 * configuration of each variant and problem in the run is marked "*".  b
 * shows the best configurations instead: the database's best_configs (what
 * "conform best" reads), one per device, variant, type and size.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "text.h"
#include "tune.h"
#include "tui_app.h"
#include "tui_log.h"
#include "tui_table.h"
#include "vec.h"

/* Columns: the first two are the same in both layouts. */
enum { C_CASE, C_STATUS, P_OBSERVED = 2, P_DURATION, T_MEDIAN = 2, T_GBPS, T_COPY, T_BASE, T_SPREAD,
       T_DURATION, T_OBSERVED };

/* Conformance only: case, status, observed, duration. */
static const struct tui_table_col plain_cols[] = {
	{"Case", 28, 0, 0, 1},
	{"Status", 7, 0, 0, 0},
	{"Observed", 17, 0, 0, 0},
	{"ms", 9, 1, 1, 0},
};

/* With timings the observed behaviour goes last, the first to be left off. */
static const struct tui_table_col timed_cols[] = {
	{"Case", 18, 0, 0, 1},
	{"Status", 6, 0, 0, 0},
	{"Median ms", 9, 1, 1, 0},
	{"GB/s", 7, 1, 1, 0},
	{"%copy", 5, 1, 1, 0},
	{"xbase", 5, 1, 1, 0},
	{"Spread", 6, 1, 1, 0},
	{"ms", 8, 1, 1, 0},
	{"Observed", 17, 0, 0, 0},
};

struct results_pane {
	struct tui_pane super;
	struct tui_app *app;
	struct tui_table table;
	struct tui_log detail;
	struct db_result_row *rows;
	size_t nrows;
	int64_t run_id;            /* 0: no run shown */
	struct db_run_row run;
	int follow;                /* stay on the newest run */
	int timed;                 /* the run has timed results */
	int show_detail;
	int show_best;             /* b: the best configurations instead */
	struct tui_table best;
	char error[256];
};

static int matches(const char *filter, const char *name)
{
	return !*filter || strcasestr(name, filter) != NULL;
}

/* The best view: best_configs, with the references of each row's family. */
enum { B_VARIANT, B_DTYPE, B_N, B_CONFIG, B_MEDIAN, B_GBPS, B_BASE, B_COPY, B_DEVICE };
static const struct tui_table_col best_cols[] = {
	{"Variant", 13, 0, 0, 0},
	{"Type", 4, 0, 0, 0},
	{"n", 5, 1, 1, 0},
	{"Config", 23, 0, 0, 1},
	{"Median ms", 9, 1, 1, 0},
	{"GB/s", 7, 1, 1, 0},
	{"xbase", 5, 1, 1, 0},
	{"%copy", 5, 1, 1, 0},
	{"Device", 8, 0, 0, 0},
};

struct best_fill {
	struct results_pane *rp;
	struct db_tuned_row *rows;
	size_t count, cap;
};

static int best_collect(void *ctx, const struct db_tuned_row *row)
{
	struct best_fill *f = ctx;
	return vec_push(f->rows, f->count, f->cap, *row) < 0 ? 1 : 0;
}

/* The median of the family's baseline in the same group, or 0. */
static double best_baseline_ms(const struct catalog *cat, const struct best_fill *f,
			       const struct db_tuned_row *r)
{
	struct tune_family famv;
	const struct tune_family *fam = tune_family_of(cat, r->variant, &famv) ? &famv : NULL;
	const char *base = fam ? (r->cols ? fam->baseline_segmented : fam->baseline) : NULL;
	for (size_t i = 0; base && i < f->count; i++) {
		const struct db_tuned_row *b = &f->rows[i];
		if (strcmp(b->variant, base) == 0 && b->device_id == r->device_id && b->n == r->n &&
		    b->cols == r->cols && strcmp(b->dtype, r->dtype) == 0 && strcmp(b->op, r->op) == 0)
			return b->median_ms;
	}
	return 0;
}

static void fill_best(struct results_pane *rp)
{
	struct best_fill f = {rp, NULL, 0, 0};
	struct db_tuned_query q = {.pattern = "*"};
	char err[256];
	tui_table_begin(&rp->best);
	if (rp->app->db && db_best_each(rp->app->db, &q, best_collect, &f, err, sizeof err) < 0)
		text_copy(rp->error, sizeof rp->error, err);
	for (size_t i = 0; i < f.count; i++) {
		const struct db_tuned_row *r = &f.rows[i];
		if (tune_is_reference(&rp->app->cat, r->variant) || !matches(rp->super.filter, r->variant))
			continue;
		struct tui_table_row *row = tui_table_add(&rp->best);
		if (!row)
			break;
		row->id = (long)i;
		char size[32];
		text_count(size, sizeof size, r->n);
		tui_table_set(row, B_VARIANT, NAN, 0, "%s", r->variant);
		tui_table_set(row, B_DTYPE, NAN, 0, "%s", r->dtype);
		tui_table_set(row, B_N, (double)r->n, 0, "%s", size);
		const char *op = strstr(r->params, ",op=");
		tui_table_set(row, B_CONFIG, NAN, A_BOLD, "%.*s",
			      (int)(op ? (size_t)(op - r->params) : strlen(r->params)), r->params);
		tui_table_set(row, B_MEDIAN, r->median_ms, 0, "%.4g", r->median_ms);
		tui_table_set(row, B_GBPS, r->gbps, 0, "%.1f", r->gbps);
		double base = best_baseline_ms(&rp->app->cat, &f, r);
		if (base > 0)
			tui_table_set(row, B_BASE, base / r->median_ms, 0, "%.2f", base / r->median_ms);
		struct tune_family famv;
		const struct tune_family *fam = tune_family_of(&rp->app->cat, r->variant, &famv) ? &famv : NULL;
		double copy = 0;
		if (fam && fam->copy && r->gbps > 0 &&
		    db_bandwidth_get(rp->app->db, r->device_id, fam->copy, &copy, err, sizeof err) > 0 &&
		    copy > 0)
			tui_table_set(row, B_COPY, r->gbps / copy, 0, "%.0f%%", 100 * r->gbps / copy);
		tui_table_set(row, B_DEVICE, NAN, tui_term_attr(TUI_DIM), "%s",
			      r->device[0] ? r->device : "host");
	}
	tui_table_end(&rp->best);
	free(f.rows);
}

/* Within the run: the fastest timed PASS of a variant and problem ("*"),
 * and the references of its family at that problem. */
static int same_problem(const struct db_result_row *a, const struct db_result_row *b)
{
	return a->n == b->n && a->cols == b->cols && strcmp(a->dtype, b->dtype) == 0;
}

/* Marked only among two or more timed configurations. */
static int is_best(const struct results_pane *rp, size_t k)
{
	const struct db_result_row *r = &rp->rows[k];
	int rivals = 0;
	if (r->status != STATUS_PASS || isnan(r->median_ms))
		return 0;
	for (size_t i = 0; i < rp->nrows; i++) {
		const struct db_result_row *o = &rp->rows[i];
		if (i != k && o->status == STATUS_PASS && !isnan(o->median_ms) &&
		    strcmp(o->variant, r->variant) == 0 && same_problem(o, r)) {
			if (o->median_ms < r->median_ms || (o->median_ms == r->median_ms && i < k))
				return 0;
			rivals++;
		}
	}
	return rivals > 0;
}

/* 1 when another result of the run has the same case name: the
 * configurations of a sweep, told apart by their params. */
static int name_shared(const struct results_pane *rp, size_t k)
{
	for (size_t i = 0; i < rp->nrows; i++)
		if (i != k && strcmp(rp->rows[i].case_name, rp->rows[k].case_name) == 0)
			return 1;
	return 0;
}

static double run_reference(const struct results_pane *rp, const struct db_result_row *r,
			    int copy)
{
	struct tune_family famv;
	const struct tune_family *fam = tune_family_of(&rp->app->cat, r->variant, &famv) ? &famv : NULL;
	const char *ref = !fam ? NULL : copy ? fam->copy : r->cols ? fam->baseline_segmented : fam->baseline;
	for (size_t i = 0; ref && i < rp->nrows; i++) {
		const struct db_result_row *o = &rp->rows[i];
		if (strcmp(o->variant, ref) == 0 && o->status == STATUS_PASS && !isnan(o->median_ms) &&
		    (copy || same_problem(o, r)))
			return copy ? o->gbps : o->median_ms;
	}
	double gbps = 0;
	char err[128];
	/* The copy bandwidth is measured once per device: a resumed sweep
	 * finds it stored. */
	if (copy && ref && rp->app->db &&
	    db_bandwidth_get(rp->app->db, rp->run.device[0] ? -1 : 0, ref, &gbps, err, sizeof err) > 0)
		return gbps;
	return 0;
}

static void fill_table(struct results_pane *rp)
{
	int timed = 0;
	for (size_t i = 0; i < rp->nrows; i++)
		timed |= rp->rows[i].samples > 0 || !isnan(rp->rows[i].gbps);
	if (timed != rp->timed || !rp->table.cols) {
		/* Another layout: the sort column meant something else. */
		tui_table_free(&rp->table);
		if (timed)
			tui_table_init(&rp->table, timed_cols, (int)(sizeof timed_cols / sizeof timed_cols[0]));
		else
			tui_table_init(&rp->table, plain_cols, (int)(sizeof plain_cols / sizeof plain_cols[0]));
		rp->timed = timed;
	}
	tui_table_begin(&rp->table);
	for (size_t i = 0; i < rp->nrows; i++) {
		const struct db_result_row *r = &rp->rows[i];
		if (!matches(rp->super.filter, r->case_name))
			continue;
		struct tui_table_row *row = tui_table_add(&rp->table);
		if (!row)
			break;
		row->id = (long)i;
		attr_t sa = tui_term_status_attr(r->status);
		int best = timed && !tune_is_reference(&rp->app->cat, r->variant) && is_best(rp, i);
		if (timed && r->params[0] && name_shared(rp, i))
			/* A configuration: the case name is the same for all of
			 * them (the operator is in it; the params say the rest). */
			tui_table_set(row, C_CASE, NAN, best ? A_BOLD : 0, "%s%s %.*s", best ? "* " : "",
				      strrchr(r->variant, '.') ? strrchr(r->variant, '.') + 1 : r->variant,
				      (int)(strstr(r->params, ",op=") ? (size_t)(strstr(r->params, ",op=") - r->params)
								       : strlen(r->params)),
				      r->params);
		else
			tui_table_set(row, C_CASE, NAN, best ? A_BOLD : 0, "%s%s", best ? "* " : "",
				      r->case_name);
		tui_table_set(row, C_STATUS, NAN, sa, "%s", status_name(r->status));
		if (!timed) {
			tui_table_set(row, P_OBSERVED, NAN, 0, "%s", r->observed);
			tui_table_set(row, P_DURATION, r->duration_ms, 0, "%.1f", r->duration_ms);
			continue;
		}
		if (!isnan(r->median_ms))
			tui_table_set(row, T_MEDIAN, r->median_ms, 0, "%.4g", r->median_ms);
		if (!isnan(r->gbps))
			tui_table_set(row, T_GBPS, r->gbps, 0, "%.1f", r->gbps);
		double copy = isnan(r->gbps) ? 0 : run_reference(rp, r, 1);
		if (copy > 0)
			tui_table_set(row, T_COPY, r->gbps / copy, 0, "%.0f%%", 100 * r->gbps / copy);
		double base = isnan(r->median_ms) ? 0 : run_reference(rp, r, 0);
		if (base > 0 && r->median_ms > 0)
			tui_table_set(row, T_BASE, base / r->median_ms, 0, "%.2f", base / r->median_ms);
		/* Results stored before the interval existed have none. */
		if (!isnan(r->robust.spread)) {
			int missed = r->robust.noise_met == 0;
			tui_table_set(row, T_SPREAD, r->robust.spread, missed ? tui_term_attr(TUI_WARN) : 0,
				      "%.1f%%%s", 100 * r->robust.spread, missed ? "~" : "");
		}
		tui_table_set(row, T_DURATION, r->duration_ms, 0, "%.1f", r->duration_ms);
		tui_table_set(row, T_OBSERVED, NAN, 0, "%s", r->observed);
	}
	tui_table_end(&rp->table);
	if (rp->show_best)
		fill_best(rp);
}

static void load(struct results_pane *rp)
{
	struct db *db = rp->app->db;
	char err[256];
	free(rp->rows);
	rp->rows = NULL;
	rp->nrows = 0;
	rp->error[0] = '\0';
	/* A run that cannot be read shows as no run, as an empty database does. */
	if (!db || !rp->run_id || db_run_read(db, rp->run_id, &rp->run, err, sizeof err) <= 0) {
		rp->run_id = 0;
		fill_table(rp);
		return;
	}
	db_run_results(db, rp->run_id, &rp->rows, &rp->nrows, rp->error, sizeof rp->error);
	fill_table(rp);
}

void tui_results_reload(struct tui_pane *p, int latest)
{
	struct results_pane *rp = (struct results_pane *)p;
	if (latest)
		rp->follow = 1;
	if (rp->follow && rp->app->db) {
		int64_t id;
		int64_t before = rp->run_id;
		char err[256];
		if (db_run_latest(rp->app->db, &id, err, sizeof err) > 0)
			rp->run_id = id;
		if (rp->run_id != before) {
			rp->table.cursor = rp->table.top = 0;
			rp->show_detail = 0;
		}
	}
	load(rp);
}

static void show_detail(struct results_pane *rp, const struct db_result_row *r)
{
	struct tui_log *d = &rp->detail;
	tui_log_clear(d);
	tui_log_add(d, tui_term_status_attr(r->status), "%s  %s", status_name(r->status), r->case_name);
	tui_log_field(d, "expected", "%s, observed %s", r->expect, r->observed);
	tui_log_field(d, "message", "%s", r->message[0] ? r->message : "(none)");
	if (r->cols)
		tui_log_field(d, "problem", "%s %s, %lld row%s of %lld", r->variant, r->dtype,
			      (long long)r->n, r->n == 1 ? "" : "s", (long long)r->cols);
	else
		tui_log_field(d, "problem", "%s %s, n = %lld", r->variant, r->dtype, (long long)r->n);
	if (r->params[0])
		tui_log_field(d, "params", "%s", r->params);
	if (!isnan(r->err_norm))
		tui_log_field(d, "error norm", "%.3g (relative L2)", r->err_norm);
	if (r->samples > 0 || !isnan(r->median_ms))
		tui_log_field(d, "timing", "median %.4g ms, %.1f GB/s, %d samples%s%s", r->median_ms,
			      r->gbps, r->samples, r->robust.timer != TIMER_NONE ? ", timed by " : "",
			      r->robust.timer != TIMER_NONE ? timing_timer_name(r->robust.timer) : "");
	if (!isnan(r->robust.spread))
		tui_log_field(d, "interval", "median in [%.4g, %.4g] ms (95 %%), spread %.2f%%, %s; "
			      "stddev/mean %.1f%%; %d throttled samples dropped",
			      r->robust.ci_low_ms, r->robust.ci_high_ms, 100 * r->robust.spread,
			      r->robust.noise_met ? "noise target met" : "noise target NOT reached",
			      100 * r->noise, r->robust.throttled);
	tui_log_field(d, "took", "%.1f ms; seed %s; recorded %s", r->duration_ms, r->seed,
		      r->created_at);
}

static void results_draw(struct tui_pane *p, const struct tui_rect *r)
{
	struct results_pane *rp = (struct results_pane *)p;
	int y = r->y;
	if (rp->show_best) {
		tui_putf(y, r->x, r->w, A_BOLD, "Best configurations  %zu  (b: back to the run)",
			 rp->best.count);
		tui_putf(y + 1, r->x, r->w, tui_term_attr(TUI_DIM), "per device, variant, type and size; %s",
			 rp->app->db_path);
		struct tui_rect br = {y + 2, r->x, r->h - 2, r->w};
		tui_table_draw(&rp->best, &br, 1);
		if (!rp->best.count)
			tui_put(y + 4, r->x + 2, r->w - 4, tui_term_attr(TUI_DIM),
				"no timed results yet: m picks sweep or tune, r runs it");
		return;
	}
	if (!rp->run_id) {
		tui_put(y + 1, r->x + 2, r->w - 4, A_BOLD, "No runs stored yet.");
		tui_putf(y + 3, r->x + 2, r->w - 4, tui_term_attr(TUI_DIM), "database: %s",
			 rp->app->db_path);
		tui_put(y + 4, r->x + 2, r->w - 4, tui_term_attr(TUI_NORMAL),
			"Check cases in the Catalog pane and press r, or run \"conform --all\".");
		return;
	}
	const struct db_run_row *run = &rp->run;
	char tally[96];
	if (run->passed >= 0)
		snprintf(tally, sizeof tally, "%d passed, %d failed, %d skipped", run->passed,
			 run->failed, run->skipped);
	else
		snprintf(tally, sizeof tally, "%d results so far", run->results);
	tui_putf(y, r->x, r->w, A_BOLD, "Run #%lld  %s  %s  %s", (long long)run->id, run->started_at,
		 run->state, tally);
	y++;
	tui_putf(y, r->x, r->w, tui_term_attr(TUI_DIM), "%s%s%s", run->device[0] ? run->device : "no GPU",
		 run->command_line[0] ? "  " : "", run->command_line);
	y++;
	if (rp->error[0])
		tui_put(y++, r->x, r->w, tui_term_status_attr(STATUS_ERROR), rp->error);
	int table_h = r->y + r->h - y;
	if (rp->show_detail)
		table_h = table_h / 2;
	struct tui_rect tr = {y, r->x, table_h, r->w};
	tui_table_draw(&rp->table, &tr, 1);
	if (!rp->table.count)
		tui_put(y + 2, r->x + 2, r->w - 4, tui_term_attr(TUI_DIM),
			rp->nrows ? "no result matches the filter" : "no results in this run yet");
	if (!rp->show_detail)
		return;
	const struct tui_table_row *cur = tui_table_current(&rp->table);
	if (cur)
		show_detail(rp, &rp->rows[cur->id]);
	else
		tui_log_clear(&rp->detail);
	int dy = y + table_h;
	tui_hline(dy, r->x, r->w);
	tui_put(dy, r->x + 2, r->w - 4, tui_term_attr(TUI_DIM), " detail (Enter closes) ");
	struct tui_rect dr = {dy + 1, r->x, r->y + r->h - dy - 1, r->w};
	tui_log_draw(&rp->detail, &dr);
}

static void step_run(struct results_pane *rp, int dir)
{
	int64_t id;
	char err[256];
	if (!rp->app->db || !rp->run_id)
		return;
	if (db_run_adjacent(rp->app->db, rp->run_id, dir, &id, err, sizeof err) > 0) {
		rp->run_id = id;
		rp->table.cursor = rp->table.top = 0;
		int64_t latest;
		rp->follow = db_run_latest(rp->app->db, &latest, err, sizeof err) > 0 && latest == id;
		load(rp);
	} else {
		tui_screen_note(rp->super.screen, dir < 0 ? "this is the oldest run" : "this is the newest run");
	}
}

static int results_key(struct tui_pane *p, int key)
{
	struct results_pane *rp = (struct results_pane *)p;
	if (TUI_IS_ENTER(key)) {
		rp->show_detail = !rp->show_detail;
		return 1;
	}
	if (key == TUI_KEY_ESC) {
		if (rp->show_detail)
			rp->show_detail = 0;
		else if (p->filter[0]) {
			p->filter[0] = '\0';
			fill_table(rp);
		}
		return 1;
	}
	if (key == 'b') {
		rp->show_best = !rp->show_best;
		fill_table(rp);
		return 1;
	}
	if (rp->show_best)
		return tui_table_key(&rp->best, key);
	if (key == '[' || key == ']') {
		step_run(rp, key == '[' ? -1 : 1);
		return 1;
	}
	return tui_table_key(&rp->table, key);
}

static void results_filter(struct tui_pane *p, const char *text)
{
	(void)text;
	fill_table((struct results_pane *)p);
}

static void results_show(struct tui_pane *p)
{
	tui_results_reload(p, 0);
}

static const struct tui_hint results_hints[] = {
	{"Enter", "Detail"}, {"b", "Best"}, {"[ ]", "Run"}, {"h/l", "Sort"}, {"s", "Rev"}, {"/", "Filter"},
};

static size_t results_hints_fn(struct tui_pane *p, const struct tui_hint **out)
{
	(void)p;
	*out = results_hints;
	return sizeof results_hints / sizeof results_hints[0];
}

static const struct tui_hint results_help[] = {
	{"", "Results"},
	{"Up/Down j/k", "move; PgUp/PgDn, Home/End (g/G) jump"},
	{"Enter", "show or hide the detail (message, timing)"},
	{"Left/Right h/l", "sort by another column (< > too)"},
	{"s", "reverse the order"},
	{"[ ]", "the run before / after this one"},
	{"b", "the best configuration per device, variant, type, size"},
	{"/", "filter by case name; Esc clears"},
};

static void results_destroy(struct tui_pane *p)
{
	struct results_pane *rp = (struct results_pane *)p;
	free(rp->rows);
	tui_table_free(&rp->table);
	tui_table_free(&rp->best);
	tui_log_free(&rp->detail);
	free(rp);
}

static const struct tui_pane_class results_class = {
	.title = "Results",
	.draw = results_draw,
	.key = results_key,
	.hints = results_hints_fn,
	.help = results_help,
	.nhelp = sizeof results_help / sizeof results_help[0],
	.filter = results_filter,
	.show = results_show,
	.destroy = results_destroy,
};

struct tui_pane *tui_results_pane_new(struct tui_app *app)
{
	struct results_pane *rp = calloc(1, sizeof *rp);
	if (!rp)
		return NULL;
	rp->super.cls = &results_class;
	rp->app = app;
	rp->follow = 1;
	tui_log_init(&rp->detail, 0, 0);
	tui_table_init(&rp->best, best_cols, (int)(sizeof best_cols / sizeof best_cols[0]));
	tui_results_reload(&rp->super, 1);
	return &rp->super;
}
