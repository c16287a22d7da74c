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
 * "conform best" reads), one per device, variant, type and size.  S runs
 * the case under the cursor again under compute-sanitizer, through the run
 * controller (tui_runctl_start_sanitized): the new run is then the one
 * shown.  The pane re-reads its run as the controller stores results, and
 * moves to the newest when a run is stored or ends.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/params.h"
#include "common/text.h"
#include "common/vec.h"
#include "db/db.h"
#include "session/session_check.h"
#include "tui/tui_app.h"
#include "tui/tui_best.h"
#include "tui/tui_log.h"
#include "tui/tui_table.h"
#include "tune/tune.h"

/* Conformance runs: the case, what happened, and why. */
enum { P_CASE, P_STATUS, P_OBSERVED, P_DURATION, P_MESSAGE, P_COLS };
static const struct tui_table_col plain_cols[P_COLS] = {
	[P_CASE] = {.title = "Case", .flex = 1, .min = 30},
	[P_STATUS] = {.title = "Status", .status = 1},
	[P_OBSERVED] = {.title = "Observed"},
	[P_DURATION] = {.title = "ms", .right = 1, .numeric = 1},
	[P_MESSAGE] = {.title = "Message", .flex = 1},
};

/* Timed runs (tunes, sweeps, benches): one row per configuration, the
 * problem in its own columns so that rows never look alike; the observed
 * behaviour and the message go last, the first to be left off. */
enum { T_VARIANT, T_N, T_DTYPE, T_OP, T_CONFIG, T_STATUS, T_MEDIAN, T_GBPS, T_COPY, T_BASE, T_NOISE,
       T_SPREAD, T_MESSAGE, T_COLS };
static const struct tui_table_col timed_cols[T_COLS] = {
	[T_VARIANT] = {.title = "Variant"},
	[T_N] = {.title = "n", .right = 1, .numeric = 1},
	[T_DTYPE] = {.title = "Type", .fold = 1},
	[T_OP] = {.title = "Op", .fold = 1},
	[T_CONFIG] = {.title = "Config", .flex = 1, .min = 46},
	[T_STATUS] = {.title = "Status", .status = 1, .fold = 1},
	[T_MEDIAN] = {.title = "us", .right = 1, .numeric = 1},
	[T_GBPS] = {.title = "GB/s", .right = 1, .numeric = 1},
	[T_COPY] = {.title = "%copy", .right = 1, .numeric = 1},
	[T_BASE] = {.title = "xbase", .right = 1, .numeric = 1},
	[T_NOISE] = {.title = "Noise", .right = 1, .numeric = 1},
	[T_SPREAD] = {.title = "Spread", .right = 1, .numeric = 1},
	[T_MESSAGE] = {.title = "Message", .width = 60},
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
	struct tui_best best;
	char error[256];
	/* The tool S last asked "re-run under it? y/n" about (the screen's
	 * question, whose y runs it). */
	enum sanitizer_tool rerun_tool;
};

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
	    db_bandwidth_get(rp->app->db, rp->run.device_id, ref, &gbps, err, sizeof err) > 0)
		return gbps;
	return 0;
}

/* The conformance layout's row for result r. */
static void fill_plain(struct tui_table_row *row, const struct db_result_row *r)
{
	tui_table_set(row, P_CASE, NAN, 0, "%s", r->case_name);
	tui_table_set(row, P_STATUS, (double)r->status, tui_term_status_attr(r->status), "%s",
		      status_name(r->status));
	tui_table_set(row, P_OBSERVED, NAN, 0, "%s", r->observed);
	tui_table_set(row, P_DURATION, r->duration_ms, 0, "%.1f", r->duration_ms);
	tui_table_set(row, P_MESSAGE, NAN, tui_term_attr(TUI_DIM), "%s", r->message);
}

/* The timed layout's row for result k. */
static void fill_timed(struct results_pane *rp, struct tui_table_row *row, size_t k)
{
	const struct db_result_row *r = &rp->rows[k];
	int best = !tune_is_reference(&rp->app->cat, r->variant) && is_best(rp, k);
	char shape[48], config[TUI_CELL_MAX];
	tui_shape(shape, sizeof shape, r->n, r->cols);
	tui_best_config(r->params, config, sizeof config);
	char op[16] = "";
	params_get(r->params, "op", op, sizeof op);
	tui_table_set(row, T_VARIANT, NAN, best ? A_BOLD : 0, "%s%s", best ? "* " : "", r->variant);
	tui_table_set(row, T_N, (double)r->n * (double)(r->cols > 0 ? r->cols : 1), 0, "%s", shape);
	tui_table_set(row, T_DTYPE, NAN, 0, "%s", r->dtype);
	tui_table_set(row, T_OP, NAN, 0, "%s", op);
	tui_table_set(row, T_CONFIG, NAN, best ? A_BOLD : 0, "%s", config);
	tui_table_set(row, T_STATUS, (double)r->status, tui_term_status_attr(r->status), "%s",
		      status_name(r->status));
	if (!isnan(r->median_ms))
		tui_table_set(row, T_MEDIAN, r->median_ms, 0, "%.2f", r->median_ms * 1e3);
	if (!isnan(r->gbps))
		tui_table_set(row, T_GBPS, r->gbps, 0, "%.1f", r->gbps);
	double copy = isnan(r->gbps) ? 0 : run_reference(rp, r, 1);
	if (copy > 0)
		tui_table_set(row, T_COPY, r->gbps / copy, 0, "%.0f%%", 100 * r->gbps / copy);
	double base = isnan(r->median_ms) ? 0 : run_reference(rp, r, 0);
	if (base > 0 && r->median_ms > 0)
		tui_table_set(row, T_BASE, base / r->median_ms, 0, "%.2f", base / r->median_ms);
	if (!isnan(r->noise) && r->samples > 0)
		tui_table_set(row, T_NOISE, r->noise, 0, "%.1f%%", 100 * r->noise);
	/* Results stored before the interval existed have none. */
	if (!isnan(r->robust.spread)) {
		int missed = r->robust.noise_met == 0;
		tui_table_set(row, T_SPREAD, r->robust.spread, missed ? tui_term_attr(TUI_WARN) : 0,
			      "%.1f%%%s", 100 * r->robust.spread, missed ? "~" : "");
	}
	tui_table_set(row, T_MESSAGE, NAN, tui_term_attr(TUI_DIM), "%s", r->message);
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
			tui_table_init(&rp->table, timed_cols, T_COLS);
		else
			tui_table_init(&rp->table, plain_cols, P_COLS);
		rp->timed = timed;
	}
	tui_table_begin(&rp->table);
	for (size_t i = 0; i < rp->nrows; i++) {
		struct tui_table_row *row = tui_table_add(&rp->table);
		if (!row)
			break;
		row->id = (long)i;
		if (timed)
			fill_timed(rp, row, i);
		else
			fill_plain(row, &rp->rows[i]);
	}
	snprintf(rp->table.filter, sizeof rp->table.filter, "%s", rp->super.filter);
	tui_table_end(&rp->table);
	if (rp->show_best)
		tui_best_load(&rp->best, rp->super.filter);
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

/* Re-reads the run from the database; with latest, moves to the newest
 * run first. */
static void reload(struct results_pane *rp, int latest)
{
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

/* The detail of result r: the run's took/seed line comes right after the
 * problem, so a long message cannot push it out of a short screen. */
static void show_detail(struct results_pane *rp, const struct db_result_row *r)
{
	struct tui_log *d = &rp->detail;
	char shape[48];
	tui_log_clear(d);
	tui_log_add(d, tui_term_status_attr(r->status), "%s  %s", status_name(r->status), r->case_name);
	tui_shape(shape, sizeof shape, r->n, r->cols);
	if (r->cols)
		tui_log_field(d, "problem", "%s %s, %s: %lld row%s of %lld", r->variant, r->dtype, shape,
			      (long long)r->n, r->n == 1 ? "" : "s", (long long)r->cols);
	else
		tui_log_field(d, "problem", "%s %s, n = %lld (%s)", r->variant, r->dtype, (long long)r->n,
			      shape);
	tui_log_field(d, "took", "%.1f ms; seed %s; recorded %s", r->duration_ms,
		      r->seed[0] ? r->seed : "(none)", r->created_at);
	tui_log_field(d, "expected", "%s, observed %s", r->expect, r->observed);
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
	tui_log_field(d, "message", "%s", r->message[0] ? r->message : "(none)");
	/* A failure that explains itself: each only when the run stored it. */
	const struct {
		const char *label, *text;
	} diagnosis[] = {
		{"sanitizer", r->sanitizer},
		{"pattern", r->pattern},
		{"smallest failing", r->shrunk},
		{"reproduce", r->repro},
	};
	for (size_t i = 0; i < sizeof diagnosis / sizeof diagnosis[0]; i++)
		if (diagnosis[i].text[0])
			tui_log_field(d, diagnosis[i].label, "%s", diagnosis[i].text);
}

static void results_draw(struct tui_pane *p, const struct tui_rect *r)
{
	struct results_pane *rp = (struct results_pane *)p;
	int y = r->y;
	if (rp->show_best) {
		tui_best_draw(&rp->best, r);
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
	char tally[96], shown[64] = "";
	if (run->passed >= 0)
		snprintf(tally, sizeof tally, "%d passed, %d failed, %d skipped", run->passed,
			 run->failed, run->skipped);
	else
		snprintf(tally, sizeof tally, "%d results so far", run->results);
	if (rp->table.filter[0])
		snprintf(shown, sizeof shown, "  (%zu of %zu shown)", rp->table.nview, rp->table.count);
	tui_putf(y, r->x, r->w, A_BOLD, "Run #%lld  %s  %s%s", (long long)run->id, run->state, tally, shown);
	y++;
	int info_y = y++;
	if (rp->error[0])
		tui_put(y++, r->x, r->w, tui_term_status_attr(STATUS_ERROR), rp->error);
	int table_h = r->y + r->h - y;
	if (rp->show_detail) {
		/* The detail gets what it needs; the table keeps a few rows. */
		const struct tui_table_row *cur = tui_table_current(&rp->table);
		if (cur)
			show_detail(rp, &rp->rows[cur->id]);
		else
			tui_log_clear(&rp->detail);
		int want = (int)rp->detail.count + 4;
		table_h = table_h - want > 4 ? table_h - want : 4;
		if (table_h > (r->y + r->h - y) / 2)
			table_h = (r->y + r->h - y) / 2;
	}
	struct tui_rect tr = {y, r->x, table_h, r->w};
	tui_table_draw(&rp->table, &tr, 1);
	/* After the table: what its folded columns held goes on this line. */
	char folded[160];
	tui_table_folded(&rp->table, folded, sizeof folded);
	tui_putf(info_y, r->x, r->w, tui_term_attr(TUI_DIM), "%.10s %.5s  %s%s%s%s%s",
		 run->started_at, run->started_at[0] ? run->started_at + 11 : "", run->tag,
		 run->tag[0] ? "  " : "", run->device[0] ? run->device : "no GPU",
		 folded[0] ? "; every row: " : "", folded);
	if (!rp->table.nview)
		tui_put(y + 2, r->x + 2, r->w - 4, tui_term_attr(TUI_DIM),
			rp->nrows ? "no result matches the filter (Esc clears it)" : "no results in this run yet");
	if (!rp->show_detail)
		return;
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

/* The case result r is of, to run again: the suite's case of its name (or
 * of the name before "@", what the problem pane's types and sizes add) for
 * what the database does not keep (requirements, tolerance, deadline),
 * posed at the stored variant, type, size and params; a case no suite
 * holds is made of the stored row alone.  The same name gives the same
 * input (case.h).  Returns 0, or -1 with a message. */
static int rerun_case(const struct results_pane *rp, const struct db_result_row *r,
		      struct case_spec *c, char *err, size_t len)
{
	const struct suite *su = &rp->app->suite;
	size_t base_len = strcspn(r->case_name, "@");
	const struct case_spec *base = NULL;
	for (size_t i = 0; i < su->count && !base; i++)
		if (strcmp(su->cases[i].name, r->case_name) == 0)
			base = &su->cases[i];
	for (size_t i = 0; i < su->count && !base; i++)
		if (strlen(su->cases[i].name) == base_len &&
		    strncmp(su->cases[i].name, r->case_name, base_len) == 0)
			base = &su->cases[i];
	if (base) {
		*c = *base;
	} else {
		memset(c, 0, sizeof *c);
		text_copy(c->file, sizeof c->file, "(the database)");
	}
	text_copy(c->name, sizeof c->name, r->case_name);
	text_copy(c->variant, sizeof c->variant, r->variant);
	if (!base || strcmp(base->params, r->params) != 0) {
		text_copy(c->params, sizeof c->params, r->params);
		c->template_params = 0;
	}
	c->n = r->n;
	c->cols = r->cols;
	if (dtype_parse(r->dtype, &c->dtype) < 0 || expect_parse(r->expect, &c->expect) < 0) {
		snprintf(err, len, "%s: its type '%s' or expectation '%s' is not one this build knows",
			 r->case_name, r->dtype, r->expect);
		return -1;
	}
	return session_check_case(&rp->app->cat, c, err, len);
}

/* y to the question S asked: the row under the cursor again, with its
 * run's seed (the case's input seed follows from it and the name), under
 * the tool asked about. */
static void rerun_yes(void *ctx)
{
	struct results_pane *rp = ctx;
	const struct tui_table_row *cur = tui_table_current(&rp->table);
	if (!cur)
		return;
	struct case_spec c;
	char err[512];
	if (rerun_case(rp, &rp->rows[cur->id], &c, err, sizeof err) < 0) {
		tui_screen_note(rp->super.screen, "cannot re-run: %s", err);
		return;
	}
	char *end;
	uint64_t seed = strtoull(rp->run.seed, &end, 10);
	tui_runctl_start_sanitized(&rp->app->run, &c, rp->run.seed[0] && !*end ? &seed : NULL,
				   rp->rerun_tool);
}

/* The tool after rp->rerun_tool, round again after the last. */
static enum sanitizer_tool rerun_next(enum sanitizer_tool t)
{
	return (enum sanitizer_tool)(t % (SANITIZER_TOOL_COUNT - 1) + 1);
}

/* S, and S again while it asks: asks first whether to re-run the row under
 * the cursor under memcheck, racecheck, synccheck, initcheck in turn (a run
 * is one key away); the screen's question, so y runs it and any other key,
 * in any view, drops it. */
static void rerun_ask(void *ctx)
{
	struct results_pane *rp = ctx;
	const struct tui_table_row *cur = tui_table_current(&rp->table);
	if (!cur)
		return;
	if (rp->app->run.active) {
		tui_screen_note(rp->super.screen, "a run is in progress (c cancels it)");
		return;
	}
	rp->rerun_tool = rerun_next(rp->rerun_tool);
	tui_screen_confirm(rp->super.screen, rerun_yes, rp, "Re-run %s (seed %s) under %s? y/n  S: %s instead",
			   rp->rows[cur->id].case_name, rp->run.seed[0] ? rp->run.seed : "new",
			   sanitizer_tool_name(rp->rerun_tool), sanitizer_tool_name(rerun_next(rp->rerun_tool)));
	tui_screen_confirm_again(rp->super.screen, 'S', rerun_ask);
}

static int results_key(struct tui_pane *p, int key)
{
	struct results_pane *rp = (struct results_pane *)p;
	if (!rp->show_best && key == 'S') {
		rp->rerun_tool = SANITIZER_NONE; /* memcheck first */
		rerun_ask(rp);
		return 1;
	}
	if (key == 'b') {
		rp->show_best = !rp->show_best;
		rp->best.detail = 0;
		fill_table(rp);
		return 1;
	}
	if (rp->show_best) {
		if (key == TUI_KEY_ESC && !rp->best.detail && p->filter[0]) {
			p->filter[0] = '\0';
			tui_best_filter(&rp->best, "");
			return 1;
		}
		return tui_best_key(&rp->best, key);
	}
	if (TUI_IS_ENTER(key)) {
		rp->show_detail = !rp->show_detail;
		return 1;
	}
	if (key == TUI_KEY_ESC) {
		if (rp->show_detail)
			rp->show_detail = 0;
		else if (p->filter[0]) {
			p->filter[0] = '\0';
			tui_table_filter(&rp->table, "");
		}
		return 1;
	}
	if (key == '[' || key == ']') {
		step_run(rp, key == '[' ? -1 : 1);
		return 1;
	}
	if (tui_table_key(&rp->table, key)) {
		if (rp->table.note[0])
			tui_screen_note(p->screen, "%s", rp->table.note);
		return 1;
	}
	return 0;
}

static void results_filter(struct tui_pane *p, const char *text)
{
	struct results_pane *rp = (struct results_pane *)p;
	if (rp->show_best)
		tui_best_filter(&rp->best, text);
	else
		tui_table_filter(&rp->table, text);
}

static void results_show(struct tui_pane *p)
{
	struct results_pane *rp = (struct results_pane *)p;
	reload(rp, 0);
}

static void results_heard(void *ctx, const struct tui_runctl_news *news)
{
	struct results_pane *rp = ctx;
	switch (news->what) {
	case TUI_RUNCTL_STORED:
	case TUI_RUNCTL_FINISHED:
		reload(rp, 1);
		break;
	case TUI_RUNCTL_RESULT:
		reload(rp, 0);
		break;
	default:
		break;
	}
}

static const struct tui_hint results_hints[] = {
	{"Enter", "Detail"}, {"b", "Best"}, {"[ ]", "Run"}, {"h/l", "Sort"}, {"/", "Filter"},
	{"n", "Next fail"}, {"S", "Sanitize"}, {"z", "Zoom"},
};
/* y copies in the best view only, and S re-runs from the table only. */
static const struct tui_hint best_hints[] = {
	{"Enter", "Detail"}, {"b", "Best"}, {"[ ]", "Run"}, {"h/l", "Sort"}, {"/", "Filter"},
	{"n", "Next fail"}, {"z", "Zoom"}, {"y", "Copy"},
};

static size_t results_hints_fn(struct tui_pane *p, const struct tui_hint **out)
{
	struct results_pane *rp = (struct results_pane *)p;
	if (rp->show_best) {
		*out = best_hints;
		return sizeof best_hints / sizeof best_hints[0];
	}
	*out = results_hints;
	return sizeof results_hints / sizeof results_hints[0];
}

static const struct tui_hint results_help[] = {
	{"", "Results"},
	{"Up/Down j/k", "move; PgUp/PgDn, Home/End (g/G) jump"},
	{"Enter", "show or hide the detail (message, timing, what a failure's run found)"},
	{"Left/Right h/l", "sort by another column; left of the first: run order"},
	{"s", "reverse the order"},
	{"o", "back to run order (the order results came)"},
	{"< >", "scroll the columns after the first"},
	{"z", "the row under the cursor in full"},
	{"n N", "next / previous failure (FAIL, TIMEOUT, CRASH, ERROR, XPASS)"},
	{"[ ]", "the run before / after this one"},
	{"S", "run the case again, alone, with its seed, under compute-sanitizer's memcheck "
	      "(asks first: y runs it; S again offers racecheck, synccheck, initcheck)"},
	{"b", "the best configuration per device, variant, type, size"},
	{"Enter (best)", "every configuration measured for that problem, ranked"},
	{"y Y (best)", "copy the configuration / the conform tune command line"},
	{"/", "filter: words found in any column (!word: not found); Esc clears"},
};

static void results_destroy(struct tui_pane *p)
{
	struct results_pane *rp = (struct results_pane *)p;
	free(rp->rows);
	tui_table_free(&rp->table);
	tui_best_free(&rp->best);
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
	tui_best_init(&rp->best, app);
	reload(rp, 1);
	if (tui_runctl_observe(&app->run, results_heard, rp) < 0) {
		results_destroy(&rp->super);
		return NULL;
	}
	return &rp->super;
}
