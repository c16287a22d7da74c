/*
 * tui_run.c - the run pane: the run in progress, or the last one, as the
 * run controller (tui_runctl.h) has it - which run, its progress and ETA,
 * the case in flight and its watchdog countdown (each device's, over
 * several), the statuses so far, a table of its cases or, in a sweep or
 * tune, of each size's configurations, and its log.
 *
 * The pane only shows: it hears the controller's news, and keeps its table
 * and log from it; r, m and c are the application's keys.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dtype.h"
#include "common/text.h"
#include "tui/tui_app.h"
#include "tui/tui_log.h"
#include "tui/tui_table.h"

/* A conformance run: one row per case, its wall time. */
enum { COL_NO, COL_STATUS, COL_CASE, COL_TIME, COL_MESSAGE, COL_COUNT };
static const struct tui_table_col run_cols[COL_COUNT] = {
	[COL_NO] = {.title = "#", .right = 1, .numeric = 1},
	[COL_STATUS] = {.title = "Status", .status = 1, .key = 1},
	[COL_CASE] = {.title = "Case", .flex = 1, .min = 30, .key = 1},
	[COL_TIME] = {.title = "Wall s", .right = 1, .numeric = 1},
	[COL_MESSAGE] = {.title = "Message", .flex = 1},
};

/* A sweep or tune: one row per configuration, the problem in columns of
 * its own and the median, not the wall time. */
enum { SW_NO, SW_STATUS, SW_VARIANT, SW_N, SW_DTYPE, SW_CONFIG, SW_MEDIAN, SW_GBPS, SW_MESSAGE,
       SW_COUNT };
static const struct tui_table_col sweep_cols[SW_COUNT] = {
	[SW_NO] = {.title = "#", .right = 1, .numeric = 1},
	[SW_STATUS] = {.title = "Status", .status = 1, .key = 1},
	[SW_VARIANT] = {.title = "Variant", .key = 1},
	[SW_N] = {.title = "n", .right = 1, .numeric = 1, .key = 1},
	[SW_DTYPE] = {.title = "Type", .fold = 1},
	[SW_CONFIG] = {.title = "Config", .flex = 1, .min = 46, .key = 1},
	[SW_MEDIAN] = {.title = "us", .right = 1, .numeric = 1},
	[SW_GBPS] = {.title = "GB/s", .right = 1, .numeric = 1},
	[SW_MESSAGE] = {.title = "Message", .flex = 1},
};

struct run_pane {
	struct tui_pane super;
	struct tui_app *app;
	const struct tui_runctl *rc; /* what is shown */
	struct tui_table table;
	struct tui_log log;
};

/* "> [1] name   watchdog: 0.4 s left of 2.0 s [bar]": a case in flight. */
static void draw_in_flight(int y, int x, int w, const char *tag, const char *name, double remaining,
			   double deadline)
{
	char left[64];
	snprintf(left, sizeof left, " watchdog: %.1f s left of %.1f s ", remaining, deadline);
	int lw = tui_text_width(left), bw = 12;
	int nw = w - lw - bw;
	tui_putf(y, x, nw, A_BOLD, "> %s%s", tag, name);
	tui_put(y, x + nw, lw, tui_term_attr(TUI_WARN), left);
	tui_bar(y, x + nw + lw, bw, deadline > 0 ? remaining / deadline : 0);
}

/* Row index's status column says mark (a conformance run's rows are its
 * cases, by index). */
static void set_status_mark(struct run_pane *rp, size_t index, attr_t attr, const char *mark)
{
	struct tui_table_row *row = tui_table_find(&rp->table, (long)index);
	if (row)
		tui_table_set(row, COL_STATUS, NAN, attr, "%s", mark);
}

/* A new run: a conformance run's rows are its cases, each "-" until it
 * runs; a sweep's are its configurations, added as each size is done. */
static void reset_table(struct run_pane *rp)
{
	const struct tui_runctl *rc = rp->rc;
	const struct tui_table_col *cols = rc->mode == TUI_MODE_CONFORMANCE ? run_cols : sweep_cols;
	size_t n = rc->cases ? rc->total : 0;
	if (rp->table.cols != cols) {
		tui_table_free(&rp->table);
		tui_table_init(&rp->table, cols, cols == run_cols ? COL_COUNT : SW_COUNT);
	}
	rp->table.zoom = 0;
	tui_table_begin(&rp->table);
	rp->table.cursor = rp->table.top = 0;
	for (size_t i = 0; i < n; i++) {
		struct tui_table_row *row = tui_table_add(&rp->table);
		if (!row)
			break;
		row->id = (long)i;
		tui_table_set(row, COL_NO, (double)(i + 1), tui_term_attr(TUI_DIM), "%zu", i + 1);
		tui_table_set(row, COL_STATUS, NAN, tui_term_attr(TUI_DIM), "-");
		tui_table_set(row, COL_CASE, NAN, 0, "%s", rc->cases[i].name);
	}
	tui_table_end(&rp->table);
	rp->table.cursor = 0;
	if (rp->log.count)
		tui_log_add(&rp->log, 0, "%s", "");
}

/* A conformance result on its case's row. */
static void show_result(struct run_pane *rp, size_t index, const struct result *r)
{
	struct tui_table_row *row = tui_table_find(&rp->table, (long)index);
	if (!row)
		return;
	tui_table_set(row, COL_STATUS, (double)r->status, tui_term_status_attr(r->status), "%s",
		      status_name(r->status));
	row->failed = status_tally(r->status) == TALLY_FAILED;
	tui_table_set(row, COL_TIME, r->duration_s, 0, "%.2f", r->duration_s);
	tui_table_set(row, COL_MESSAGE, NAN, tui_term_attr(TUI_DIM), "%s", r->message);
	tui_table_refresh(&rp->table);
}

/* Adds a finished size's rows (its best first, then fastest first) under
 * the sizes before it. */
static void show_sweep(struct run_pane *rp, const struct tune_sweep *sw)
{
	char size[32];
	text_count(size, sizeof size, sw->n);
	for (size_t i = 0; i < sw->count; i++) {
		const struct tune_row *t = &sw->rows[i];
		struct tui_table_row *row = tui_table_add(&rp->table);
		if (!row)
			break;
		row->id = (long)rp->table.count;
		tui_table_set(row, SW_NO, (double)rp->table.count, tui_term_attr(TUI_DIM), "%zu",
			      rp->table.count);
		tui_table_set(row, SW_STATUS, (double)t->status, tui_term_status_attr(t->status), "%s",
			      status_name(t->status));
		row->failed = status_tally(t->status) == TALLY_FAILED;
		tui_table_set(row, SW_VARIANT, NAN, t->best ? A_BOLD : 0, "%s%s", t->best ? "* " : "",
			      t->variant);
		tui_table_set(row, SW_N, (double)sw->n, 0, "%s", size);
		tui_table_set(row, SW_DTYPE, NAN, 0, "%s", dtype_name(rp->rc->dtype));
		tui_table_set(row, SW_CONFIG, NAN, t->best ? A_BOLD : 0, "%s",
			      t->config[0] ? t->config : t->role == TUNE_TUNED ? "(default)" : "(reference)");
		if (t->timing.samples > 0) {
			tui_table_set(row, SW_MEDIAN, t->timing.median_ms, 0, "%.2f", t->timing.median_ms * 1e3);
			tui_table_set(row, SW_GBPS, t->gbps, 0, "%.1f", t->gbps);
			tui_table_set(row, SW_MESSAGE, NAN, tui_term_attr(TUI_DIM), "%s",
				      t->reused ? "from the database" : "");
		} else {
			tui_table_set(row, SW_MESSAGE, NAN, tui_term_attr(TUI_DIM), "%s", t->message);
		}
	}
	tui_table_refresh(&rp->table);
}

/* The cases in flight when the run was cancelled were killed and left no
 * result (a sweep's table has no such rows). */
static void show_cut_short(struct run_pane *rp)
{
	for (size_t i = 0; i < rp->table.count; i++) {
		struct tui_table_row *row = &rp->table.rows[i];
		if (strcmp(row->cell[COL_STATUS], "RUN") == 0) {
			tui_table_set(row, COL_STATUS, NAN, tui_term_attr(TUI_DIM), "-");
			tui_table_set(row, COL_MESSAGE, NAN, tui_term_attr(TUI_WARN), "cancelled");
		}
	}
	tui_table_refresh(&rp->table);
}

static void run_heard(void *ctx, const struct tui_runctl_news *news)
{
	struct run_pane *rp = ctx;
	switch (news->what) {
	case TUI_RUNCTL_STARTED:
		reset_table(rp);
		break;
	case TUI_RUNCTL_CASE:
		if (news->where == TUI_RUNCTL_CASE_WAITING) {
			set_status_mark(rp, news->index, tui_term_attr(TUI_DIM), "-");
			break;
		}
		set_status_mark(rp, news->index, tui_term_attr(TUI_WARN), "RUN");
		if (news->where == TUI_RUNCTL_CASE_NEXT)
			tui_table_select_id(&rp->table, (long)news->index);
		break;
	case TUI_RUNCTL_RESULT:
		if (news->result)
			show_result(rp, news->index, news->result);
		break;
	case TUI_RUNCTL_SWEPT:
		show_sweep(rp, news->sweep);
		break;
	case TUI_RUNCTL_LOG:
		tui_log_add(&rp->log, news->attr, "%s", news->text);
		break;
	case TUI_RUNCTL_FINISHED:
		if (rp->rc->cancelled)
			show_cut_short(rp);
		break;
	default:
		break;
	}
}

static void draw_counts(const struct tui_runctl *rc, int y, int x, int w)
{
	int end = x + w;
	for (int s = 0; s < STATUS_COUNT; s++) {
		if (!rc->counts[s])
			continue;
		x += tui_put(y, x, end - x, tui_term_status_attr((enum status)s), status_name((enum status)s));
		x += tui_putf(y, x, end - x, tui_term_attr(TUI_NORMAL), " %d  ", rc->counts[s]);
	}
}

static void run_draw(struct tui_pane *p, const struct tui_rect *r)
{
	struct run_pane *rp = (struct run_pane *)p;
	const struct tui_runctl *rc = rp->rc;
	int y = r->y, x = r->x, w = r->w;
	if (!rc->ran) {
		tui_put(y + 1, x + 2, w - 4, A_BOLD, "No run yet.");
		tui_put(y + 3, x + 2, w - 4, tui_term_attr(TUI_NORMAL),
			"Check cases in the Catalog pane (Space), then press r to run them.");
		tui_putf(y + 5, x + 2, w - 4, tui_term_attr(TUI_NORMAL),
			 "Mode: %s (m changes it: conformance, sweep, tune)", tui_mode_name(rp->app->mode));
		tui_put(y + 4, x + 2, w - 4, tui_term_attr(TUI_NORMAL),
			"Results are stored in the database as for \"conform run\".");
		tui_putf(y + 7, x + 2, w - 4, tui_term_attr(TUI_DIM), "database: %s", rp->app->db_path);
		tui_putf(y + 8, x + 2, w - 4, tui_term_attr(TUI_DIM),
			 "deadlines: %.1f s, %.1f s for cases expected to hang", rp->app->timeout_s,
			 rp->app->hang_timeout_s);
		return;
	}

	/* Line 1: which run. */
	if (rc->run_id && rc->mode == TUI_MODE_CONFORMANCE)
		tui_putf(y, x, w, A_BOLD, "Run #%lld  %s%s%s  seed %llu  %zu case%s", (long long)rc->run_id,
			 tui_mode_name(rc->mode), rc->tool != SANITIZER_NONE ? " under " : "",
			 rc->tool != SANITIZER_NONE ? sanitizer_tool_name(rc->tool) : "",
			 (unsigned long long)rc->seed, rc->total, rc->total == 1 ? "" : "s");
	else if (rc->run_id)
		tui_putf(y, x, w, A_BOLD, "Run #%lld  %s  seed %llu  %zu evaluations + %s%zu references",
			 (long long)rc->run_id, tui_mode_name(rc->mode), (unsigned long long)rc->seed,
			 rc->total - rc->references, rc->active ? "up to " : "", rc->references);
	else
		tui_putf(y, x, w, A_BOLD, "Run of %zu case%s", rc->total, rc->total == 1 ? "" : "s");
	y++;

	/* Line 2: progress with an ETA. */
	double elapsed = (rc->active ? text_now() : rc->started) - rc->started;
	char eta[48] = "";
	if (rc->active && rc->done < rc->total) {
		/* None until the work done says something of the work left. */
		double left = tui_runctl_eta_s(rc, elapsed);
		if (left >= 0)
			snprintf(eta, sizeof eta, "  ETA %.0f s", left);
		else
			snprintf(eta, sizeof eta, "  ETA %s", tui_term_glyphs()->missing);
	}
	char right[96];
	int pct = rc->total ? (int)(100 * rc->done / rc->total) : 0;
	if (rc->active)
		snprintf(right, sizeof right, " %zu/%zu %3d%%  %.1f s%s", rc->done, rc->total, pct, elapsed, eta);
	else
		snprintf(right, sizeof right, " %zu/%zu %3d%%", rc->done, rc->total, pct);
	int rw = tui_text_width(right);
	tui_bar(y, x, w - rw - 1, rc->total ? (double)rc->done / (double)rc->total : 0);
	tui_put(y, x + w - rw, rw, tui_term_attr(TUI_NORMAL), right);
	y++;

	/* Line 3: the case in flight and its watchdog countdown; over
	 * several devices, each one's, a line each. */
	if (rc->active && rc->ndev) {
		/* The table and the log keep their 10 lines: past that, the
		 * devices that do not fit are counted on the last line. */
		int room = r->y + r->h - y - 10, shown = rc->ndev;
		if (room < 1)
			room = 1;
		if (shown > room)
			shown = room - 1;
		for (int k = 0; k < shown; k++, y++) {
			const struct device_activity *d = &rc->dev[k];
			char tag[16];
			snprintf(tag, sizeof tag, "[%d] ", d->ordinal);
			if (d->c)
				draw_in_flight(y, x, w, tag, d->c->name, d->remaining_s, d->deadline_s);
			else
				tui_putf(y, x, w, tui_term_attr(TUI_DIM), "  %sidle", tag);
		}
		if (shown < rc->ndev)
			tui_putf(y++, x, w, tui_term_attr(TUI_DIM), "  ... and %d more devices", rc->ndev - shown);
		y--;
	} else if (rc->active && rc->current[0]) {
		draw_in_flight(y, x, w, "", rc->current, rc->remaining, rc->deadline_s);
	} else if (rc->active) {
		tui_put(y, x, w, tui_term_attr(TUI_DIM), "starting a worker...");
	} else if (rc->outcome[0]) {
		tui_putf(y, x, w, rc->cancelled ? tui_term_attr(TUI_WARN) : A_BOLD, "%s: %s",
			 rc->cancelled ? "Cancelled" : "Done", rc->outcome);
	}
	y++;

	draw_counts(rc, y++, x, w);

	int log_h = 4;
	struct tui_rect tr = {y, x, r->y + r->h - y - log_h - 1, w};
	tui_table_draw(&rp->table, &tr, 1);
	if (!rp->table.nview && rp->table.count)
		tui_put(tr.y + 2, x + 2, w - 4, tui_term_attr(TUI_DIM), "no result matches the filter (Esc clears it)");
	int ly = tr.y + tr.h;
	tui_hline(ly, x, w);
	tui_put(ly, x + 2, w - 4, tui_term_attr(TUI_DIM), " log ");
	struct tui_rect lr = {ly + 1, x, log_h, w};
	tui_log_draw(&rp->log, &lr);
}

static int run_key(struct tui_pane *p, int key)
{
	struct run_pane *rp = (struct run_pane *)p;
	/* Enter shows the row in full: its message is often longer than the
	 * column ("worker killed by signal 11 (Segmentation fault)"). */
	if (TUI_IS_ENTER(key))
		key = 'z';
	if (key == TUI_KEY_ESC || key == KEY_BACKSPACE || key == 127 || key == 8) {
		/* Back: out of the row in full, else the filter cleared, as in
		 * the other panes. */
		if (rp->table.zoom) {
			rp->table.zoom = 0;
			return 1;
		}
		if (p->filter[0]) {
			p->filter[0] = '\0';
			tui_table_filter(&rp->table, "");
			return 1;
		}
	}
	if (!tui_table_key(&rp->table, key))
		return 0;
	if (rp->table.note[0])
		tui_screen_note(p->screen, "%s", rp->table.note);
	return 1;
}

static const struct tui_hint run_hints[] = {
	{"Enter", "Detail"}, {"j/k", "Move"}, {"< >", "Sort"}, {"n", "Next fail"},
};

static size_t run_hints_fn(struct tui_pane *p, const struct tui_hint **out)
{
	(void)p;
	*out = run_hints;
	return sizeof run_hints / sizeof run_hints[0];
}

static const struct tui_hint run_help[] = {
	{"", "Run"},
	{"r", "run the checked cases (from any pane) in the mode"},
	{"m", "mode: conformance, sweep (every configuration), tune"},
	{"c", "cancel the run: the worker is killed"},
	{"Up/Down j/k", "move in the list of cases"},
	{"Enter z", "the row under the cursor in full (its message); Esc closes it"},
	{"Left/Right h/l", "scroll the columns; the case (a sweep: variant, n, config) stays"},
	{"< >", "sort by the column before / after; s reverses, o: run order"},
	{"n N", "next / previous failure"},
	{"/", "filter: words found in any column (!word: not found); Esc clears"},
};

static void run_filter(struct tui_pane *p, const char *text)
{
	tui_table_filter(&((struct run_pane *)p)->table, text);
}

static void run_destroy(struct tui_pane *p)
{
	struct run_pane *rp = (struct run_pane *)p;
	tui_table_free(&rp->table);
	tui_log_free(&rp->log);
	free(rp);
}

static int run_mouse(struct tui_pane *p, const struct tui_mouse *m)
{
	struct run_pane *rp = (struct run_pane *)p;
	return tui_pane_hit(p, tui_table_mouse(&rp->table, m));
}

static const struct tui_pane_class run_class = {
	.title = "Run",
	.draw = run_draw,
	.key = run_key,
	.mouse = run_mouse,
	.hints = run_hints_fn,
	.help = run_help,
	.nhelp = sizeof run_help / sizeof run_help[0],
	.filter = run_filter,
	.destroy = run_destroy,
};

struct tui_pane *tui_run_pane_new(struct tui_app *app)
{
	struct run_pane *rp = calloc(1, sizeof *rp);
	if (!rp)
		return NULL;
	rp->super.cls = &run_class;
	rp->app = app;
	rp->rc = &app->run;
	tui_table_init(&rp->table, run_cols, COL_COUNT);
	tui_log_init(&rp->log, 500, 1);
	if (tui_runctl_observe(&app->run, run_heard, rp) < 0) {
		run_destroy(&rp->super);
		return NULL;
	}
	return &rp->super;
}
