/*
 * tui_run.c - running the checked cases from the TUI, and the run pane
 * that shows it.
 *
 * A run is the CLI's run: a session (session.h) with the database sink
 * first, so every result is committed where "conform" and sqlite3 see it,
 * and this pane's sink second.  r only begins the run; the TUI's main loop
 * (cmd_tui.c) then calls tui_run_step() between reading keys, each step
 * waiting a moment on the worker, so the watchdog countdown moves and keys
 * are answered during a hang without the runner ever calling back into the
 * interface.  'c' sets the session's stop flag; the next step kills the
 * worker and ends the run, which the database records as interrupted.
 *
 * Sweeps and tunes (the mode, m) are the tuner's: tune_open/tune_begin/
 * tune_sweep_begin/tune_close from tune.c, the checked cases' variants
 * searched at the problem's sizes and type, as "conform tune" would, and
 * stepped the same way (tune_sweep_step), one size after the other.
 */
#include "config.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/text.h"
#include "db/db.h"
#include "report/report.h"
#include "session/paths.h"
#include "session/run_seed.h"
#include "session/session.h"
#include "tui/tui_app.h"
#include "tui/tui_log.h"
#include "tui/tui_table.h"
#include "tune/tune.h"
#include "tune/tune_space.h"

/* A conformance run: one row per case, its wall time. */
enum { COL_NO, COL_STATUS, COL_CASE, COL_TIME, COL_MESSAGE, COL_COUNT };
static const struct tui_table_col run_cols[COL_COUNT] = {
	[COL_NO] = {.title = "#", .right = 1, .numeric = 1},
	[COL_STATUS] = {.title = "Status", .status = 1},
	[COL_CASE] = {.title = "Case", .flex = 1, .min = 30},
	[COL_TIME] = {.title = "Wall s", .right = 1, .numeric = 1},
	[COL_MESSAGE] = {.title = "Message", .flex = 1},
};

/* A sweep or tune: one row per configuration, the problem in columns of
 * its own and the median, not the wall time. */
enum { SW_NO, SW_STATUS, SW_VARIANT, SW_N, SW_DTYPE, SW_CONFIG, SW_MEDIAN, SW_GBPS, SW_MESSAGE,
       SW_COUNT };
static const struct tui_table_col sweep_cols[SW_COUNT] = {
	[SW_NO] = {.title = "#", .right = 1, .numeric = 1},
	[SW_STATUS] = {.title = "Status", .status = 1},
	[SW_VARIANT] = {.title = "Variant"},
	[SW_N] = {.title = "n", .right = 1, .numeric = 1},
	[SW_DTYPE] = {.title = "Type", .fold = 1},
	[SW_CONFIG] = {.title = "Config", .flex = 1, .min = 46},
	[SW_MEDIAN] = {.title = "us", .right = 1, .numeric = 1},
	[SW_GBPS] = {.title = "GB/s", .right = 1, .numeric = 1},
	[SW_MESSAGE] = {.title = "Message", .flex = 1},
};

struct run_pane {
	struct tui_pane super;
	struct tui_app *app;
	struct tui_table table;
	struct tui_log log;
	int active;                /* a run is under way */
	enum tui_mode mode;        /* of the run shown */
	enum sanitizer_tool tool;  /* a conformance run's, SANITIZER_NONE: none */
	char sanitizer[4096];      /* the tool's path, "" when none was found */
	char sanitizer_missing[512]; /* and why not */
	int ran;                   /* some run was started in this session */
	int64_t run_id;
	uint64_t seed;
	size_t total, done;
	double started, case_started, deadline_s, remaining;
	char current[CASE_NAME_MAX]; /* the case in flight, "" between cases */
	int counts[STATUS_COUNT];
	char outcome[1100];        /* the last run's summary line, or why it stopped */
	int cancelled;             /* the last run was cancelled (c, q) */
	size_t references;         /* of a sweep's total: measured at most, not searched */
	size_t current_index;      /* the case in flight */
	/* A conformance run over several devices: each one's case in flight
	 * (report_sink.devices), a line each under the run's. */
	int ndev;
	struct device_activity dev[DEVICE_SET_MAX];
	double ordinary_s;         /* wall time of the cases done that were not */
	size_t ordinary_done;      /* expected to hang, for the ETA */
	/* The conformance run in progress (stepped by tui_run_step). */
	struct session *ss;
	struct case_spec *cases;
	const struct case_spec **sel;
	char *cmdline;
	/* Or the sweep or tune in progress, one size after the other. */
	struct tune_session *ts;
	const struct catalog_entry **variants;
	size_t nvariants;
	int64_t *sizes;
	size_t nsizes, size_index;
	struct tune_sweep sw;
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

static void redraw(struct run_pane *rp)
{
	tui_screen_draw(&rp->app->screen);
}

/* A write of the run waits for another process's lock on the database:
 * the log says so (a line on stderr would tear the screen).  Keys are not
 * read while it waits. */
static void db_waiting(void *ctx, const char *line)
{
	struct run_pane *rp = ctx;
	tui_log_add(&rp->log, tui_term_attr(TUI_WARN), "%s", line);
	redraw(rp);
}

static int sink_begin(void *ctx, const struct run_context *rc, char *err, size_t len)
{
	struct run_pane *rp = ctx;
	(void)err;
	(void)len;
	rp->run_id = rp->ss->dbst.run_id;
	rp->seed = rc->seed;
	rp->started = text_now();
	tui_log_add(&rp->log, A_BOLD, "run #%lld: %zu case%s, seed %llu", (long long)rp->run_id,
		    rc->total, rc->total == 1 ? "" : "s", (unsigned long long)rc->seed);
	rp->ndev = report_spread(rc);
	for (int k = 0; k < rp->ndev; k++) {
		const struct gpu_info *g = &rc->devices[k];
		rp->dev[k] = (struct device_activity){.ordinal = g->index};
		tui_log_add(&rp->log, 0, "device %d: %s (sm_%d%d)", g->index, g->name, g->cc_major,
			    g->cc_minor);
	}
	if (rc->has_gpu && !rp->ndev)
		tui_log_add(&rp->log, 0, "device %d: %s (sm_%d%d)", rc->gpu.index, rc->gpu.name,
			    rc->gpu.cc_major, rc->gpu.cc_minor);
	else if (!rc->has_gpu)
		tui_log_add(&rp->log, tui_term_attr(TUI_WARN), "no GPU: %s; GPU cases are skipped",
			    rc->nodev_reason);
	/* The database sink has stored the run: the results pane follows it. */
	tui_results_reload(rp->app->panes[TUI_PANE_RESULTS], 1);
	return 0;
}

static void sink_start(void *ctx, const struct case_spec *c, size_t index, size_t total,
		       double timeout_s)
{
	struct run_pane *rp = ctx;
	(void)total;
	text_copy(rp->current, sizeof rp->current, c->name);
	rp->current_index = index;
	rp->case_started = text_now();
	rp->deadline_s = rp->remaining = timeout_s;
	struct tui_table_row *row = tui_table_find(&rp->table, (long)index);
	if (row) {
		tui_table_set(row, COL_STATUS, NAN, tui_term_attr(TUI_WARN), "RUN");
		tui_table_select_id(&rp->table, (long)index);
	}
}

static void sink_tick(void *ctx, double remaining_s)
{
	struct run_pane *rp = ctx;
	rp->remaining = remaining_s;
}

/* Case c's row's status column says mark (a conformance run's rows are
 * its cases, by index). */
static void set_status_mark(struct run_pane *rp, const struct case_spec *c, attr_t attr, const char *mark)
{
	struct tui_table_row *row = rp->cases ? tui_table_find(&rp->table, (long)(c - rp->cases)) : NULL;
	if (row)
		tui_table_set(row, COL_STATUS, NAN, attr, "%s", mark);
}

static void sink_devices(void *ctx, const struct device_activity *a, int n)
{
	struct run_pane *rp = ctx;
	for (int k = 0; k < n && k < rp->ndev; k++) {
		/* The row of each case in flight says RUN, as the next to
		 * report's does; one that left a device unreported (its
		 * result waits for those before it) goes back to "-". */
		const struct case_spec *was = rp->dev[k].c;
		if (was && was != a[k].c && rp->cases && (size_t)(was - rp->cases) >= rp->done)
			set_status_mark(rp, was, tui_term_attr(TUI_DIM), "-");
		if (a[k].c)
			set_status_mark(rp, a[k].c, tui_term_attr(TUI_WARN), "RUN");
		rp->dev[k] = a[k];
	}
}

/* A case expected to hang (or undefined, which may) runs to its deadline. */
static int runs_to_deadline(const struct case_spec *c)
{
	return c->expect == EXPECT_HANG || c->expect == EXPECT_UNDEFINED;
}

static int sink_result(void *ctx, const struct result *r, size_t index, size_t total, char *err,
		       size_t len)
{
	struct run_pane *rp = ctx;
	(void)total;
	(void)err;
	(void)len;
	struct tui_table_row *row = tui_table_find(&rp->table, (long)index);
	if (row) {
		tui_table_set(row, COL_STATUS, (double)r->status, tui_term_status_attr(r->status), "%s",
			      status_name(r->status));
		tui_table_set(row, COL_TIME, r->duration_s, 0, "%.2f", r->duration_s);
		tui_table_set(row, COL_MESSAGE, NAN, tui_term_attr(TUI_DIM), "%s", r->message);
		tui_table_refresh(&rp->table);
	}
	rp->counts[r->status]++;
	rp->done++;
	if (!runs_to_deadline(r->c)) {
		rp->ordinary_s += r->duration_s;
		rp->ordinary_done++;
	}
	rp->current[0] = '\0';
	int notable = r->status != STATUS_PASS && r->status != STATUS_XFAIL && r->status != STATUS_SKIP;
	if (notable)
		tui_log_add(&rp->log, tui_term_status_attr(r->status), "%s %s%s%s", status_name(r->status),
			    r->c->name, r->message[0] ? ": " : "", r->message);
	tui_results_reload(rp->app->panes[TUI_PANE_RESULTS], 0);
	return 0;
}

static int sink_end(void *ctx, const struct run_summary *s, char *err, size_t len)
{
	struct run_pane *rp = ctx;
	(void)err;
	(void)len;
	char line[128];
	report_summary_line(s, line, sizeof line);
	snprintf(rp->outcome, sizeof rp->outcome, "%s in %.1f s", line, s->wall_s);
	rp->cancelled = s->interrupted;
	tui_log_add(&rp->log, A_BOLD, "run #%lld: %s", (long long)rp->run_id, rp->outcome);
	return 0;
}

static void run_sink(struct report_sink *s, struct run_pane *rp)
{
	memset(s, 0, sizeof *s);
	s->begin = sink_begin;
	s->start = sink_start;
	s->tick = sink_tick;
	s->devices = sink_devices;
	s->result = sink_result;
	s->end = sink_end;
	s->ctx = rp;
}

/* "conform tui --seed S [--sanitize TOOL]: case case ...", cut to fit the
 * database column. */
static void command_line(char *buf, size_t len, uint64_t seed, enum sanitizer_tool tool,
			 const struct case_spec *cases, size_t n)
{
	size_t used = (size_t)snprintf(buf, len, "conform tui --seed %llu%s%s:", (unsigned long long)seed,
				       tool != SANITIZER_NONE ? " --sanitize " : "",
				       tool != SANITIZER_NONE ? sanitizer_tool_name(tool) : "");
	for (size_t i = 0; i < n && used + 8 < len; i++) {
		int k = snprintf(buf + used, len - used, " %s", cases[i].name);
		if (k < 0 || used + (size_t)k + 5 >= len) {
			snprintf(buf + used, len - used, " ...");
			break;
		}
		used += (size_t)k;
	}
}

static void reset_pane(struct run_pane *rp, enum tui_mode mode, const struct case_spec *cases, size_t n)
{
	/* A sweep's rows are configurations, a conformance run's cases. */
	const struct tui_table_col *cols = mode == TUI_MODE_CONFORMANCE ? run_cols : sweep_cols;
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
		tui_table_set(row, COL_CASE, NAN, 0, "%s", cases[i].name);
	}
	tui_table_end(&rp->table);
	rp->table.cursor = 0;
	memset(rp->counts, 0, sizeof rp->counts);
	rp->total = n;
	rp->done = 0;
	rp->run_id = 0;
	rp->current[0] = '\0';
	rp->outcome[0] = '\0';
	rp->cancelled = 0;
	rp->ordinary_s = 0;
	rp->ordinary_done = 0;
	rp->started = text_now();
	rp->mode = mode;
	rp->tool = SANITIZER_NONE;
	if (rp->log.count)
		tui_log_add(&rp->log, 0, "%s", "");
}

static void tune_progress_seen(void *ctx, const char *variant, uint64_t done, uint64_t total)
{
	struct run_pane *rp = ctx;
	(void)done;
	(void)total;
	/* Every result stored so far, references included, as the summary counts them. */
	const struct run_summary *sum = &rp->ts->shown;
	rp->done = (size_t)(sum->tally[TALLY_PASSED] + sum->tally[TALLY_FAILED] + sum->tally[TALLY_SKIPPED]);
	text_copy(rp->current, sizeof rp->current, variant);
	tui_results_reload(rp->app->panes[TUI_PANE_RESULTS], 0);
}

/* Adds a finished size's rows (its best first, then fastest first) under
 * the sizes before it. */
static void tune_list_sweep(struct run_pane *rp, const struct tune_sweep *sw)
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
		tui_table_set(row, SW_VARIANT, NAN, t->best ? A_BOLD : 0, "%s%s", t->best ? "* " : "",
			      t->variant);
		tui_table_set(row, SW_N, (double)sw->n, 0, "%s", size);
		tui_table_set(row, SW_DTYPE, NAN, 0, "%s", dtype_name(rp->ts->o.dtype));
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

/* What ends every run: what the pane held for it is freed (whichever kind
 * it was) and the interface is idle again. */
static void run_over(struct tui_app *app, struct run_pane *rp)
{
	tune_sweep_free(&rp->sw);
	free(rp->ts);
	free(rp->sizes);
	free(rp->variants);
	free(rp->ss);
	free(rp->cmdline);
	free(rp->sel);
	free(rp->cases);
	rp->ts = NULL;
	rp->sizes = NULL;
	rp->variants = NULL;
	rp->ss = NULL;
	rp->cmdline = NULL;
	rp->sel = NULL;
	rp->cases = NULL;
	rp->current[0] = '\0';
	rp->active = app->running = 0;
	if (!tui_term_signal())
		app->stop = 0; /* a cancel ends this run only */
	tui_results_reload(app->panes[TUI_PANE_RESULTS], 1);
}

/* The sweep or tune has ended (or could not begin): the pane says how, and
 * what it held is freed. */
static void tune_finish(struct tui_app *app, struct run_pane *rp, int interrupted)
{
	char err[1024];
	struct tune_session *s = rp->ts;
	if (s && s->run_open) {
		char line[128];
		report_summary_line(&s->shown, line, sizeof line);
		snprintf(rp->outcome, sizeof rp->outcome, "%s in %.1f s; %llu from the database", line,
			 text_now() - rp->started, (unsigned long long)s->reused);
		rp->cancelled = interrupted && app->stop;
		const struct run_summary *sum = &s->shown;
		rp->done = (size_t)(sum->tally[TALLY_PASSED] + sum->tally[TALLY_FAILED] +
				    sum->tally[TALLY_SKIPPED]);
		/* References read from the database were never run: the total
		 * ends at what was. */
		if (!interrupted && rp->done < rp->total) {
			size_t unused = rp->total - rp->done;
			rp->references -= unused < rp->references ? unused : rp->references;
			rp->total = rp->done;
		}
		tui_log_add(&rp->log, A_BOLD, "run #%lld: %s", (long long)rp->run_id, rp->outcome);
		if (tune_close(s, interrupted, err, sizeof err) < 0)
			tui_log_add(&rp->log, tui_term_status_attr(STATUS_ERROR), "%s", err);
		if (interrupted && app->stop)
			tui_screen_note(&app->screen, "run #%lld cancelled", (long long)rp->run_id);
	}
	run_over(app, rp);
}

/* One step of the sweep or tune in progress: the next size when one is
 * swept, the end after the last. */
static void tune_step(struct tui_app *app, struct run_pane *rp, double wait_s)
{
	char err[1024];
	enum tune_step st = tune_sweep_step(rp->ts, wait_s, &rp->sw, err, sizeof err);
	rp->remaining = runner_case_remaining(&rp->ts->run.rn);
	if (st == TUNE_STEP_BUSY)
		return;
	tune_list_sweep(rp, &rp->sw);
	tune_sweep_free(&rp->sw);
	if (st == TUNE_STEP_FAILED)
		tui_log_add(&rp->log, tui_term_status_attr(STATUS_ERROR), "the run stopped: %s", err);
	if (st == TUNE_STEP_SWEPT && ++rp->size_index < rp->nsizes) {
		tune_sweep_begin(rp->ts, rp->variants, rp->nvariants, rp->sizes[rp->size_index]);
		return;
	}
	tune_finish(app, rp, st != TUNE_STEP_SWEPT);
}

static void run_tune(struct tui_app *app, struct run_pane *rp, const struct case_spec *cases,
		     size_t n)
{
	char err[1024], cmdline[256];
	struct tui_tune_plan plan;
	/* The Problem pane's count comes from the same plan (tui_problem.c). */
	rp->ts = calloc(1, sizeof *rp->ts);
	memset(&rp->sw, 0, sizeof rp->sw);
	if (!rp->ts || tui_tune_plan_make(app, cases, n, &plan) < 0) {
		tui_screen_note(&app->screen, "out of memory");
		tune_finish(app, rp, 1);
		return;
	}
	struct tune_options o = plan.o;
	enum dtype d = o.dtype;
	size_t nv = rp->nvariants = plan.nvariants;
	size_t nsizes = rp->nsizes = plan.nsizes;
	rp->variants = plan.variants;
	rp->sizes = plan.sizes;
	plan.variants = NULL;
	plan.sizes = NULL;
	rp->size_index = 0;
	if (!nv) {
		tui_tune_plan_free(&plan);
		tui_screen_note(&app->screen, "no checked %s case has a tuning space", dtype_name(d));
		tune_finish(app, rp, 1);
		return;
	}

	reset_pane(rp, app->mode, NULL, 0);
	/* Every result counts, the references too; those read from the
	 * database instead of measured drop out at the end. */
	rp->total = (size_t)(plan.evaluations + plan.references);
	rp->references = (size_t)plan.references;
	tui_tune_plan_free(&plan);
	snprintf(cmdline, sizeof cmdline, "conform tui: %s of %zu variant%s, %s, seed %llu",
		 tui_mode_name(app->mode), nv, nv == 1 ? "" : "s", dtype_name(d),
		 (unsigned long long)o.seed);
	tui_screen_show(&app->screen, TUI_PANE_RUN);
	app->running = rp->active = rp->ran = 1;
	app->stop = 0;
	tui_log_add(&rp->log, tui_term_attr(TUI_DIM), "starting a worker...");
	redraw(rp);

	struct session_config cfg = {
		.worker_path = app->worker_path,
		.device = app->device,
		.timeout_s = app->timeout_s,
		.db = app->db,
		.stop = &app->stop,
		.command_line = cmdline,
		.kind = app->mode == TUI_MODE_TUNE ? RUN_TUNE : RUN_SWEEP,
		.kernels = app->kernels,
		.db_waiting = db_waiting,
		.db_waiting_ctx = rp,
	};
	struct tune_session *s = rp->ts;
	if (tune_open(s, &o, &app->cat, &cfg, err, sizeof err) < 0 ||
	    tune_begin(s, err, sizeof err) < 0) {
		tui_log_add(&rp->log, tui_term_status_attr(STATUS_ERROR), "cannot run: %s", err);
		snprintf(rp->outcome, sizeof rp->outcome, "not run: %s", err);
		tune_close(s, 1, err, sizeof err);
		tune_finish(app, rp, 1);
		return;
	}
	s->progress.fn = tune_progress_seen;
	s->progress.ctx = rp;
	rp->run_id = s->run.dbst.run_id;
	rp->seed = o.seed;
	rp->started = text_now();
	rp->deadline_s = rp->remaining = app->timeout_s;
	tui_log_add(&rp->log, A_BOLD, "run #%lld: %s of %zu variant%s at %zu size%s, %s",
		    (long long)rp->run_id, tui_mode_name(app->mode), nv, nv == 1 ? "" : "s", nsizes,
		    nsizes == 1 ? "" : "s", dtype_name(d));
	if (!s->run.rn.rc.has_gpu)
		tui_log_add(&rp->log, tui_term_attr(TUI_WARN), "no GPU: %s", s->run.rn.rc.nodev_reason);
	tui_results_reload(app->panes[TUI_PANE_RESULTS], 1);
	tune_sweep_begin(s, rp->variants, nv, rp->sizes[0]);
}

/* The conformance run has ended (or could not begin): the pane says how,
 * and what it held is freed. */
static void run_finish(struct tui_app *app, struct run_pane *rp)
{
	if (rp->ss) {
		session_close(rp->ss);
		if (rp->ss->sum.interrupted) {
			/* The case in flight was killed and left no result. */
			for (size_t i = 0; i < rp->table.count; i++) {
				struct tui_table_row *row = &rp->table.rows[i];
				if (strcmp(row->cell[COL_STATUS], "RUN") == 0) {
					tui_table_set(row, COL_STATUS, NAN, tui_term_attr(TUI_DIM), "-");
					tui_table_set(row, COL_MESSAGE, NAN, tui_term_attr(TUI_WARN), "cancelled");
				}
			}
			tui_table_refresh(&rp->table);
			tui_screen_note(&app->screen, "run #%lld cancelled", (long long)rp->run_id);
		}
	}
	run_over(app, rp);
}

void tui_run_step(struct tui_app *app, double wait_s)
{
	struct run_pane *rp = (struct run_pane *)app->panes[TUI_PANE_RUN];
	char err[1024];
	if (rp->ts) {
		tune_step(app, rp, wait_s);
		return;
	}
	if (!rp->ss)
		return;
	switch (session_step(rp->ss, wait_s, err, sizeof err)) {
	case SESSION_BUSY:
	case SESSION_RESULT:
		return;
	case SESSION_FAILED:
		tui_log_add(&rp->log, tui_term_status_attr(STATUS_ERROR), "the run stopped: %s", err);
		snprintf(rp->outcome, sizeof rp->outcome, "stopped: %s", err);
		break;
	case SESSION_DONE:
		break;
	}
	run_finish(app, rp);
}

/* Begins the conformance run of cases[0..n) (malloc'd: the pane owns them
 * from here) with seed, each case under compute-sanitizer's tool unless it
 * is SANITIZER_NONE: the one way the interface runs cases for conformance,
 * r's and S's.  skipped: checked cases left out, for the log. */
static void run_conformance(struct tui_app *app, struct run_pane *rp, struct case_spec *cases,
			    size_t n, size_t skipped, uint64_t seed, enum sanitizer_tool tool)
{
	/* The tool is found as "conform run --sanitize" finds it; none here
	 * is no error (the session makes each case a SKIP that says so), a
	 * CONFORM_SANITIZER that is not a program is. */
	int found = -2;
	if (tool != SANITIZER_NONE)
		found = paths_sanitizer(rp->sanitizer, sizeof rp->sanitizer, rp->sanitizer_missing,
					sizeof rp->sanitizer_missing);
	if (found == -1) {
		tui_screen_note(&app->screen, "%s", rp->sanitizer_missing);
		free(cases);
		return;
	}
	rp->cases = cases;
	rp->sel = malloc(n * sizeof *rp->sel);
	rp->cmdline = malloc(2048);
	rp->ss = malloc(sizeof *rp->ss);
	if (!rp->sel || !rp->cmdline || !rp->ss) {
		free(rp->ss);
		rp->ss = NULL;
		run_finish(app, rp);
		tui_screen_note(&app->screen, "out of memory");
		return;
	}
	for (size_t i = 0; i < n; i++)
		rp->sel[i] = &cases[i];

	reset_pane(rp, TUI_MODE_CONFORMANCE, cases, n);
	rp->tool = tool;
	if (skipped)
		tui_log_add(&rp->log, tui_term_attr(TUI_WARN), "%zu checked cases left out: variant lacks the problem's type",
			    skipped);
	if (found == 0)
		tui_log_add(&rp->log, 0, "each case alone under %s --tool %s, its deadlines %g times longer",
			    rp->sanitizer, sanitizer_tool_name(tool), runner_sanitize_factor(tool));
	else if (tool != SANITIZER_NONE)
		tui_log_add(&rp->log, tui_term_attr(TUI_WARN), "%s", rp->sanitizer_missing);
	tui_screen_show(&app->screen, TUI_PANE_RUN);
	app->running = rp->active = rp->ran = 1;
	app->stop = 0;
	tui_log_add(&rp->log, tui_term_attr(TUI_DIM), "starting a worker...");
	redraw(rp);

	command_line(rp->cmdline, 2048, seed, tool, cases, n);
	struct session_config cfg = {
		.worker_path = app->worker_path,
		.device = app->device,
		.devices = &app->devices,
		.timeout_s = app->timeout_s,
		.hang_timeout_s = app->hang_timeout_s,
		.seed = seed,
		.catalog = &app->cat,
		.db = app->db,
		.stop = &app->stop,
		.command_line = rp->cmdline,
		.kernels = app->kernels,
		.db_waiting = db_waiting,
		.db_waiting_ctx = rp,
		.sanitize = tool,
		.sanitizer = found == 0 ? rp->sanitizer : NULL,
		.sanitizer_missing = rp->sanitizer_missing,
	};
	char err[1024];
	struct report_sink sink;
	run_sink(&sink, rp);
	if (session_open(rp->ss, &cfg, err, sizeof err) < 0) {
		free(rp->ss);
		rp->ss = NULL;
		tui_log_add(&rp->log, tui_term_status_attr(STATUS_ERROR), "cannot run: %s", err);
		snprintf(rp->outcome, sizeof rp->outcome, "not run: %s", err);
		run_finish(app, rp);
		return;
	}
	if (session_add_sink(rp->ss, &sink) < 0 ||
	    session_run_begin(rp->ss, rp->sel, n, err, sizeof err) < 0) {
		tui_log_add(&rp->log, tui_term_status_attr(STATUS_ERROR), "the run stopped: %s", err);
		snprintf(rp->outcome, sizeof rp->outcome, "stopped: %s", err);
		run_finish(app, rp);
	}
}

void tui_run_checked(struct tui_app *app)
{
	struct run_pane *rp = (struct run_pane *)app->panes[TUI_PANE_RUN];
	struct case_spec *cases = NULL;
	size_t n = 0, skipped = 0;
	if (tui_problem_cases(app, &cases, &n, &skipped) < 0) {
		tui_screen_note(&app->screen, "out of memory");
		return;
	}
	if (!n) {
		tui_screen_note(&app->screen, skipped ? "every checked case lacks the problem's type"
					       : "nothing checked: Space checks cases");
		free(cases);
		return;
	}
	if (app->mode != TUI_MODE_CONFORMANCE) {
		run_tune(app, rp, cases, n);
		free(cases);
		return;
	}
	run_conformance(app, rp, cases, n, skipped, app->seed_given ? app->seed : run_seed_fresh(),
			SANITIZER_NONE);
}

void tui_run_sanitized(struct tui_app *app, const struct case_spec *c, const uint64_t *seed,
		       enum sanitizer_tool tool)
{
	struct run_pane *rp = (struct run_pane *)app->panes[TUI_PANE_RUN];
	struct case_spec *one = malloc(sizeof *one);
	if (!one) {
		tui_screen_note(&app->screen, "out of memory");
		return;
	}
	*one = *c;
	run_conformance(app, rp, one, 1, 0,
			seed ? *seed : app->seed_given ? app->seed : run_seed_fresh(), tool);
}

void tui_run_progress(struct tui_pane *p, size_t *done, size_t *total)
{
	struct run_pane *rp = (struct run_pane *)p;
	*done = rp->done;
	*total = rp->total;
}

/* Seconds left: in a conformance run, the ordinary cases at the pace so
 * far and each case expected to hang at its whole deadline (the one in
 * flight at what is left of it); in a sweep, the evaluations at their pace. */
static double eta_s(const struct run_pane *rp, double elapsed)
{
	if (rp->mode != TUI_MODE_CONFORMANCE || !rp->cases)
		return elapsed / (double)rp->done * (double)(rp->total - rp->done);
	double pace = rp->ordinary_done ? rp->ordinary_s / (double)rp->ordinary_done
					: elapsed / (double)rp->done;
	double left = 0;
	size_t from = rp->current[0] ? rp->current_index : rp->done;
	for (size_t i = from; i < rp->total; i++) {
		if (i == rp->current_index && rp->current[0])
			left += runs_to_deadline(&rp->cases[i]) ? rp->remaining : 0;
		else
			left += runs_to_deadline(&rp->cases[i]) ? rp->app->hang_timeout_s : pace;
	}
	return left;
}

static void draw_counts(struct run_pane *rp, int y, int x, int w)
{
	int end = x + w;
	for (int s = 0; s < STATUS_COUNT; s++) {
		if (!rp->counts[s])
			continue;
		x += tui_put(y, x, end - x, tui_term_status_attr((enum status)s), status_name((enum status)s));
		x += tui_putf(y, x, end - x, tui_term_attr(TUI_NORMAL), " %d  ", rp->counts[s]);
	}
}

static void run_draw(struct tui_pane *p, const struct tui_rect *r)
{
	struct run_pane *rp = (struct run_pane *)p;
	int y = r->y, x = r->x, w = r->w;
	if (!rp->ran) {
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
	if (rp->run_id && rp->mode == TUI_MODE_CONFORMANCE)
		tui_putf(y, x, w, A_BOLD, "Run #%lld  %s%s%s  seed %llu  %zu case%s", (long long)rp->run_id,
			 tui_mode_name(rp->mode), rp->tool != SANITIZER_NONE ? " under " : "",
			 rp->tool != SANITIZER_NONE ? sanitizer_tool_name(rp->tool) : "",
			 (unsigned long long)rp->seed, rp->total, rp->total == 1 ? "" : "s");
	else if (rp->run_id)
		tui_putf(y, x, w, A_BOLD, "Run #%lld  %s  seed %llu  %zu evaluations + %s%zu references",
			 (long long)rp->run_id, tui_mode_name(rp->mode), (unsigned long long)rp->seed,
			 rp->total - rp->references, rp->active ? "up to " : "", rp->references);
	else
		tui_putf(y, x, w, A_BOLD, "Run of %zu case%s", rp->total, rp->total == 1 ? "" : "s");
	y++;

	/* Line 2: progress with an ETA. */
	double elapsed = (rp->active ? text_now() : rp->started) - rp->started;
	char eta[48] = "";
	if (rp->active && rp->done > 0 && rp->done < rp->total)
		snprintf(eta, sizeof eta, "  ETA %.0f s", eta_s(rp, elapsed));
	char right[96];
	int pct = rp->total ? (int)(100 * rp->done / rp->total) : 0;
	if (rp->active)
		snprintf(right, sizeof right, " %zu/%zu %3d%%  %.1f s%s", rp->done, rp->total, pct, elapsed, eta);
	else
		snprintf(right, sizeof right, " %zu/%zu %3d%%", rp->done, rp->total, pct);
	int rw = tui_text_width(right);
	tui_bar(y, x, w - rw - 1, rp->total ? (double)rp->done / (double)rp->total : 0);
	tui_put(y, x + w - rw, rw, tui_term_attr(TUI_NORMAL), right);
	y++;

	/* Line 3: the case in flight and its watchdog countdown; over
	 * several devices, each one's, a line each. */
	if (rp->active && rp->ndev) {
		/* The table and the log keep their 10 lines: past that, the
		 * devices that do not fit are counted on the last line. */
		int room = r->y + r->h - y - 10, shown = rp->ndev;
		if (room < 1)
			room = 1;
		if (shown > room)
			shown = room - 1;
		for (int k = 0; k < shown; k++, y++) {
			const struct device_activity *d = &rp->dev[k];
			char tag[16];
			snprintf(tag, sizeof tag, "[%d] ", d->ordinal);
			if (d->c)
				draw_in_flight(y, x, w, tag, d->c->name, d->remaining_s, d->deadline_s);
			else
				tui_putf(y, x, w, tui_term_attr(TUI_DIM), "  %sidle", tag);
		}
		if (shown < rp->ndev)
			tui_putf(y++, x, w, tui_term_attr(TUI_DIM), "  ... and %d more devices", rp->ndev - shown);
		y--;
	} else if (rp->active && rp->current[0]) {
		draw_in_flight(y, x, w, "", rp->current, rp->remaining, rp->deadline_s);
	} else if (rp->active) {
		tui_put(y, x, w, tui_term_attr(TUI_DIM), "starting a worker...");
	} else if (rp->outcome[0]) {
		tui_putf(y, x, w, rp->cancelled ? tui_term_attr(TUI_WARN) : A_BOLD, "%s: %s",
			 rp->cancelled ? "Cancelled" : "Done", rp->outcome);
	}
	y++;

	draw_counts(rp, y++, x, w);

	int log_h = 4;
	struct tui_rect tr = {y, x, r->y + r->h - y - log_h - 1, w};
	tui_table_draw(&rp->table, &tr, 1);
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
	if (key == TUI_KEY_ESC && rp->table.zoom) {
		rp->table.zoom = 0;
		return 1;
	}
	if (!tui_table_key(&rp->table, key))
		return 0;
	if (rp->table.note[0])
		tui_screen_note(p->screen, "%s", rp->table.note);
	return 1;
}

static const struct tui_hint run_hints[] = {
	{"Enter", "Detail"}, {"j/k", "Move"}, {"h/l", "Sort"}, {"n", "Next fail"},
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
	{"Enter z", "the row under the cursor in full (its message)"},
	{"Left/Right h/l", "sort by another column; s reverses, o: run order"},
	{"n N", "next / previous failure"},
	{"< >", "scroll the columns after the first"},
	{"/", "filter: words found in any column (!word: not found)"},
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

static const struct tui_pane_class run_class = {
	.title = "Run",
	.draw = run_draw,
	.key = run_key,
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
	tui_table_init(&rp->table, run_cols, COL_COUNT);
	tui_log_init(&rp->log, 500, 1);
	return &rp->super;
}
