/*
 * tui_results.c - the results pane: one stored run as a sortable table, and
 * the detail of the result under the cursor.
 *
 * It reads the database (tui_store.c), never the run in memory, so what it
 * shows is what "conform" and sqlite3 see.  It follows the newest run (the
 * one in progress included) until the user steps to an older one with [.
 * Timing columns (median, GB/s, noise) appear when the run has timed
 * results.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "tui_app.h"
#include "tui_log.h"
#include "tui_store.h"
#include "tui_table.h"

/* Columns: the first two are the same in both layouts. */
enum { C_CASE, C_STATUS, P_OBSERVED = 2, P_DURATION, T_MEDIAN = 2, T_GBPS, T_NOISE, T_DURATION,
       T_OBSERVED };

/* Conformance only: case, status, observed, duration. */
static const struct tui_table_col plain_cols[] = {
	{"Case", 28, 0, 0, 1},
	{"Status", 7, 0, 0, 0},
	{"Observed", 17, 0, 0, 0},
	{"ms", 9, 1, 1, 0},
};

/* With timings the observed behaviour goes last, the first to be left off. */
static const struct tui_table_col timed_cols[] = {
	{"Case", 20, 0, 0, 1},
	{"Status", 7, 0, 0, 0},
	{"Median ms", 9, 1, 1, 0},
	{"GB/s", 8, 1, 1, 0},
	{"Noise", 6, 1, 1, 0},
	{"ms", 8, 1, 1, 0},
	{"Observed", 17, 0, 0, 0},
};

struct results_pane {
	struct tui_pane super;
	struct tui_app *app;
	struct tui_table table;
	struct tui_log detail;
	struct tui_result_row *rows;
	size_t nrows;
	int64_t run_id;            /* 0: no run shown */
	struct tui_run_row run;
	int follow;                /* stay on the newest run */
	int timed;                 /* the run has timed results */
	int show_detail;
	char error[256];
};

static int matches(const char *filter, const char *name)
{
	return !*filter || strcasestr(name, filter) != NULL;
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
		const struct tui_result_row *r = &rp->rows[i];
		if (!matches(rp->super.filter, r->case_name))
			continue;
		struct tui_table_row *row = tui_table_add(&rp->table);
		if (!row)
			break;
		row->id = (long)i;
		attr_t sa = tui_term_status_attr(r->status);
		tui_table_set(row, C_CASE, NAN, 0, "%s", r->case_name);
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
		if (!isnan(r->noise))
			tui_table_set(row, T_NOISE, r->noise, r->noise > 0.05 ? tui_term_attr(TUI_WARN) : 0,
				      "%.1f%%", 100 * r->noise);
		tui_table_set(row, T_DURATION, r->duration_ms, 0, "%.1f", r->duration_ms);
		tui_table_set(row, T_OBSERVED, NAN, 0, "%s", r->observed);
	}
	tui_table_end(&rp->table);
}

static void load(struct results_pane *rp)
{
	struct tui_store *st = rp->app->store;
	free(rp->rows);
	rp->rows = NULL;
	rp->nrows = 0;
	rp->error[0] = '\0';
	if (!st || !rp->run_id || tui_store_run(st, rp->run_id, &rp->run) <= 0) {
		rp->run_id = 0;
		fill_table(rp);
		return;
	}
	if (tui_store_results(st, rp->run_id, &rp->rows, &rp->nrows, rp->error, sizeof rp->error) < 0)
		rp->nrows = 0;
	fill_table(rp);
}

void tui_results_reload(struct tui_pane *p, int latest)
{
	struct results_pane *rp = (struct results_pane *)p;
	if (latest)
		rp->follow = 1;
	if (rp->follow && rp->app->store) {
		int64_t id;
		int64_t before = rp->run_id;
		if (tui_store_latest_run(rp->app->store, &id) > 0)
			rp->run_id = id;
		if (rp->run_id != before) {
			rp->table.cursor = rp->table.top = 0;
			rp->show_detail = 0;
		}
	}
	load(rp);
}

static void show_detail(struct results_pane *rp, const struct tui_result_row *r)
{
	struct tui_log *d = &rp->detail;
	tui_log_clear(d);
	tui_log_add(d, tui_term_status_attr(r->status), "%s  %s", status_name(r->status), r->case_name);
	tui_log_field(d, "expected", "%s, observed %s", r->expect, r->observed);
	tui_log_field(d, "message", "%s", r->message[0] ? r->message : "(none)");
	if (r->cols)
		tui_log_field(d, "problem", "%s %s, %lld rows of %lld", r->variant, r->dtype,
			      (long long)r->n, (long long)r->cols);
	else
		tui_log_field(d, "problem", "%s %s, n = %lld", r->variant, r->dtype, (long long)r->n);
	if (r->params[0])
		tui_log_field(d, "params", "%s", r->params);
	if (!isnan(r->err_norm))
		tui_log_field(d, "error norm", "%.3g (relative L2)", r->err_norm);
	if (r->samples > 0 || !isnan(r->median_ms))
		tui_log_field(d, "timing", "median %.4g ms, %.1f GB/s, noise %.1f%%, %d samples",
			      r->median_ms, r->gbps, 100 * r->noise, r->samples);
	tui_log_field(d, "took", "%.1f ms; seed %s; recorded %s", r->duration_ms, r->seed,
		      r->created_at);
}

static void results_draw(struct tui_pane *p, const struct tui_rect *r)
{
	struct results_pane *rp = (struct results_pane *)p;
	int y = r->y;
	if (!rp->run_id) {
		tui_put(y + 1, r->x + 2, r->w - 4, A_BOLD, "No runs stored yet.");
		tui_putf(y + 3, r->x + 2, r->w - 4, tui_term_attr(TUI_DIM), "database: %s",
			 rp->app->db_path);
		tui_put(y + 4, r->x + 2, r->w - 4, tui_term_attr(TUI_NORMAL),
			"Check cases in the Catalog pane and press r, or run \"conform --all\".");
		return;
	}
	const struct tui_run_row *run = &rp->run;
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
	if (!rp->app->store || !rp->run_id)
		return;
	if (tui_store_adjacent_run(rp->app->store, rp->run_id, dir, &id) > 0) {
		rp->run_id = id;
		rp->table.cursor = rp->table.top = 0;
		int64_t latest;
		rp->follow = tui_store_latest_run(rp->app->store, &latest) > 0 && latest == id;
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
	{"Enter", "Detail"}, {"[ ]", "Run"}, {"h/l", "Sort"}, {"s", "Rev"}, {"/", "Filter"},
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
	{"/", "filter by case name; Esc clears"},
};

static void results_destroy(struct tui_pane *p)
{
	struct results_pane *rp = (struct results_pane *)p;
	free(rp->rows);
	tui_table_free(&rp->table);
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
	tui_results_reload(&rp->super, 1);
	return &rp->super;
}
