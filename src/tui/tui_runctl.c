/*
 * tui_runctl.c - the run controller (tui_runctl.h): planning a run of the
 * checked cases, and starting, stepping and cancelling it.
 *
 * A start only begins the run; the application's loop (tui_app.c) then
 * calls tui_runctl_step() between reading keys, each step waiting a moment
 * on the worker, so the watchdog countdown moves and keys are answered
 * during a hang without the runner ever calling back into the interface.
 * A cancel sets the session's stop flag; the next step kills the worker and
 * ends the run, which the database records as interrupted.
 *
 * A conformance run tells this controller what happens through a report
 * sink (session/report_sink.h), second after the database's; a sweep or
 * tune through the tuner's progress callback and each size's rows.  Either
 * way the controller updates its state, then announces it.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dtype.h"
#include "common/text.h"
#include "db/db.h"
#include "report/report.h"
#include "session/paths.h"
#include "session/run_seed.h"
#include "session/session_check.h"
#include "tui/tui_app.h"
#include "tui/tui_runctl.h"
#include "tune/tune_space.h"

/* Planning: the problem settings applied to the checked cases. */

/* "2^20" for powers of two, else the decimal. */
static void format_count(char *buf, size_t len, long long n)
{
	if (n > 0 && (n & (n - 1)) == 0) {
		int k = 0;
		while ((1LL << k) != n)
			k++;
		snprintf(buf, len, "2^%d", k);
	} else {
		snprintf(buf, len, "%lld", n);
	}
}

static int variant_has_dtype(const struct tui_app *app, const char *variant, enum dtype d)
{
	const struct catalog_entry *e = catalog_lookup(&app->cat, variant);
	/* Not built: it will be skipped with the reason anyway. */
	return !e || session_variant_has_dtype(e, d);
}

/* The sizes a run uses; 0 when each case keeps its own. */
static size_t run_sizes(const struct tui_problem *pr, long long *sizes)
{
	size_t n = 0;
	if (pr->sizes == TUI_SIZES_PRESETS) {
		for (int k = 0; k < TUI_PRESET_COUNT; k++)
			if (pr->presets & (1u << k))
				sizes[n++] = TUI_PRESET_SIZE(k);
	} else if (pr->sizes == TUI_SIZES_LIST) {
		for (size_t i = 0; i < pr->nlist; i++)
			sizes[n++] = pr->list[i];
	}
	return n;
}

int tui_runctl_cases(const struct tui_app *app, struct case_spec **out, size_t *count,
		     size_t *skipped)
{
	const struct tui_problem *pr = &app->problem;
	long long sizes[TUI_SIZES_MAX > TUI_PRESET_COUNT ? TUI_SIZES_MAX : TUI_PRESET_COUNT];
	size_t nsizes = run_sizes(pr, sizes);
	size_t checked = tui_app_checked_count(app), cap = checked * (nsizes ? nsizes : 1);
	*out = NULL;
	*count = *skipped = 0;
	if (!cap)
		return 0;
	struct case_spec *cases = calloc(cap, sizeof *cases);
	if (!cases)
		return -1;
	size_t n = 0;
	for (size_t i = 0; i < app->suite.count; i++) {
		if (!app->checked[i])
			continue;
		const struct case_spec *c = &app->suite.cases[i];
		if (pr->dtype >= 0 && !variant_has_dtype(app, c->variant, (enum dtype)pr->dtype)) {
			*skipped += nsizes && !c->cols ? nsizes : 1;
			continue;
		}
		size_t per = nsizes && !c->cols ? nsizes : 1;
		for (size_t k = 0; k < per; k++) {
			struct case_spec *x = &cases[n++];
			*x = *c;
			char suffix[64] = "", size[32];
			if (pr->dtype >= 0) {
				x->dtype = (enum dtype)pr->dtype;
				if (x->dtype != c->dtype)
					snprintf(suffix, sizeof suffix, "%s", dtype_name(x->dtype));
			}
			if (nsizes && !c->cols) {
				x->n = sizes[k];
				format_count(size, sizeof size, x->n);
				size_t len = strlen(suffix);
				snprintf(suffix + len, sizeof suffix - len, "%sn=%s", len ? "," : "", size);
			}
			if (suffix[0]) {
				char name[CASE_NAME_MAX + 64];
				snprintf(name, sizeof name, "%s@%s", c->name, suffix);
				text_copy(x->name, sizeof x->name, name);
			}
		}
	}
	*out = cases;
	*count = n;
	return 0;
}

/* The tunable variants of the cases of type d, each once. */
static size_t plan_variants(const struct tui_app *app, const struct case_spec *cases, size_t n,
			    enum dtype d, const struct catalog_entry **out)
{
	size_t count = 0;
	for (size_t i = 0; i < n; i++) {
		const struct catalog_entry *e = catalog_lookup(&app->cat, cases[i].variant);
		if (!e || !e->space[0] || tune_is_reference(&app->cat, e->name) || cases[i].dtype != d)
			continue;
		size_t k = 0;
		while (k < count && out[k] != e)
			k++;
		if (k == count)
			out[count++] = e;
	}
	return count;
}

/* The distinct sizes of the cases of type d, in order. */
static size_t plan_sizes(const struct case_spec *cases, size_t n, enum dtype d, int64_t *out)
{
	size_t count = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		if (cases[i].dtype != d)
			continue;
		while (k < count && out[k] != cases[i].n)
			k++;
		if (k == count)
			out[count++] = cases[i].n;
	}
	return count;
}

static int same_name(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* The evaluations of one search of each variant, and the references of
 * their families (counted once per family) at one size. */
static void plan_count(const struct tui_runctl_plan *plan, const struct catalog *cat,
		       uint64_t *evaluations, uint64_t *references)
{
	struct tune_family seen[TUNE_FAMILIES_MAX];
	size_t nseen = 0;
	struct tune_space *space = malloc(sizeof *space);
	char err[256];
	*evaluations = *references = 0;
	for (size_t i = 0; i < plan->nvariants; i++) {
		const struct catalog_entry *e = plan->variants[i];
		struct tune_family f;
		if (tune_family_of(cat, e->name, &f)) {
			size_t k = 0;
			while (k < nseen && !(same_name(seen[k].copy, f.copy) && same_name(seen[k].baseline, f.baseline) &&
					      same_name(seen[k].baseline_segmented, f.baseline_segmented)))
				k++;
			if (k == nseen && nseen < TUNE_FAMILIES_MAX) {
				seen[nseen++] = f;
				*references += (f.copy != NULL) +
					       ((plan->o.cols ? f.baseline_segmented : f.baseline) != NULL);
			}
		}
		if (!space || tune_space_parse(space, e->space, err, sizeof err) < 0)
			continue;
		struct tune_search_config cfg = {.budget = plan->o.budget,
						 .time_limit_s = plan->o.time_limit_s, .seed = plan->o.seed};
		*evaluations += tune_search_budget(plan->o.strategy, space, &cfg);
	}
	free(space);
}

int tui_runctl_plan(const struct tui_app *app, const struct case_spec *cases, size_t n,
		    struct tui_runctl_plan *plan)
{
	memset(plan, 0, sizeof *plan);
	if (!n)
		return 0;
	enum dtype d = app->problem.dtype >= 0 ? (enum dtype)app->problem.dtype : cases[0].dtype;
	int tune = app->mode == TUI_MODE_TUNE;
	plan->o = (struct tune_options){
		.dtype = d, .op = OP_SUM, .cols = cases[0].cols,
		.strategy = tune_strategy_find(tune ? "anneal" : "exhaustive"),
		.budget = tune ? app->tune_budget : 0,
		.seed = app->seed_given ? app->seed : 1,
		.timing = app->timing,
	};
	plan->variants = calloc(n, sizeof *plan->variants);
	plan->sizes = calloc(n, sizeof *plan->sizes);
	if (!plan->variants || !plan->sizes) {
		tui_runctl_plan_free(plan);
		return -1;
	}
	plan->nvariants = plan_variants(app, cases, n, d, plan->variants);
	plan->nsizes = plan_sizes(cases, n, d, plan->sizes);
	uint64_t per_size, refs;
	plan_count(plan, &app->cat, &per_size, &refs);
	plan->evaluations = per_size * plan->nsizes;
	plan->references = refs * plan->nsizes;
	return 0;
}

void tui_runctl_plan_free(struct tui_runctl_plan *plan)
{
	free(plan->variants);
	free(plan->sizes);
	memset(plan, 0, sizeof *plan);
}

/* Announcing. */

void tui_runctl_init(struct tui_runctl *rc, struct tui_app *app)
{
	memset(rc, 0, sizeof *rc);
	rc->app = app;
}

int tui_runctl_observe(struct tui_runctl *rc, tui_runctl_observer fn, void *ctx)
{
	if (rc->nobservers == TUI_RUNCTL_OBSERVERS_MAX)
		return -1;
	rc->observers[rc->nobservers].fn = fn;
	rc->observers[rc->nobservers].ctx = ctx;
	rc->nobservers++;
	return 0;
}

static void announce(struct tui_runctl *rc, const struct tui_runctl_news *news)
{
	for (size_t i = 0; i < rc->nobservers; i++)
		rc->observers[i].fn(rc->observers[i].ctx, news);
}

static void announce_what(struct tui_runctl *rc, enum tui_runctl_event what)
{
	struct tui_runctl_news news = {.what = what};
	announce(rc, &news);
}

static void announce_case(struct tui_runctl *rc, const struct case_spec *c, enum tui_runctl_case where)
{
	if (!rc->cases)
		return;
	struct tui_runctl_news news = {.what = TUI_RUNCTL_CASE, .index = (size_t)(c - rc->cases),
				       .where = where};
	announce(rc, &news);
}

static void announce_text(struct tui_runctl *rc, enum tui_runctl_event what, attr_t attr,
			  const char *fmt, va_list ap)
{
	char text[4096];
	vsnprintf(text, sizeof text, fmt, ap);
	struct tui_runctl_news news = {.what = what, .attr = attr, .text = text};
	announce(rc, &news);
}

/* A line of the run's log. */
static void __attribute__((format(printf, 3, 4))) run_log(struct tui_runctl *rc, attr_t attr,
							    const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	announce_text(rc, TUI_RUNCTL_LOG, attr, fmt, ap);
	va_end(ap);
}

/* A note for the message line. */
static void __attribute__((format(printf, 2, 3))) run_note(struct tui_runctl *rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	announce_text(rc, TUI_RUNCTL_NOTE, 0, fmt, ap);
	va_end(ap);
}

/* The state of a new run of mode and total results, announced.  The
 * kind's own fields (cases, dtype) are set before. */
static void run_reset(struct tui_runctl *rc, enum tui_mode mode, enum sanitizer_tool tool,
		      size_t total, size_t references)
{
	memset(rc->counts, 0, sizeof rc->counts);
	rc->total = total;
	rc->references = references;
	rc->done = 0;
	rc->run_id = 0;
	rc->current[0] = '\0';
	rc->outcome[0] = '\0';
	rc->cancelled = 0;
	rc->ordinary_s = 0;
	rc->ordinary_done = 0;
	/* The devices are the new run's to say (sink_begin), not the last
	 * run's: a sweep has none of its own and shows its evaluation in
	 * flight instead. */
	rc->ndev = 0;
	memset(rc->dev, 0, sizeof rc->dev);
	rc->started = text_now();
	rc->mode = mode;
	rc->tool = tool;
	announce_what(rc, TUI_RUNCTL_STARTED);
}

/* The run is in progress from here; its worker starts next, a wait the
 * screen is brought up to date for. */
static void run_launch(struct tui_runctl *rc)
{
	rc->active = rc->ran = 1;
	rc->stop = 0;
	run_log(rc, tui_term_attr(TUI_DIM), "starting a worker...");
	announce_what(rc, TUI_RUNCTL_WAITING);
}

/* What ends every run: a cancel noted, what it held freed (whichever kind
 * it was), nothing active. */
static void run_end(struct tui_runctl *rc)
{
	if (rc->cancelled)
		run_note(rc, "run #%lld cancelled", (long long)rc->run_id);
	tune_sweep_free(&rc->sw);
	free(rc->ts);
	free(rc->sizes);
	free(rc->variants);
	free(rc->eta);
	free(rc->ss);
	free(rc->cmdline);
	free(rc->sel);
	free(rc->cases);
	rc->ts = NULL;
	rc->sizes = NULL;
	rc->variants = NULL;
	rc->eta = NULL;
	rc->ss = NULL;
	rc->cmdline = NULL;
	rc->sel = NULL;
	rc->cases = NULL;
	rc->current[0] = '\0';
	rc->active = 0;
	if (!tui_term_signal())
		rc->stop = 0; /* a cancel ends this run only */
	announce_what(rc, TUI_RUNCTL_FINISHED);
}

void tui_runctl_cancel(struct tui_runctl *rc)
{
	if (rc->active)
		rc->stop = 1;
}

/* A write of the run waits for another process's lock on the database:
 * the log says so (a line on stderr would tear the screen).  Keys are not
 * read while it waits. */
static void db_waiting(void *ctx, const char *line)
{
	struct tui_runctl *rc = ctx;
	run_log(rc, tui_term_attr(TUI_WARN), "%s", line);
	announce_what(rc, TUI_RUNCTL_WAITING);
}

/* A conformance run: the session's sink. */

static int sink_begin(void *ctx, const struct run_context *c, char *err, size_t len)
{
	struct tui_runctl *rc = ctx;
	(void)err;
	(void)len;
	rc->run_id = rc->ss->dbst.run_id;
	rc->seed = c->seed;
	rc->started = text_now();
	run_log(rc, A_BOLD, "run #%lld: %zu case%s, seed %llu", (long long)rc->run_id, c->total,
		c->total == 1 ? "" : "s", (unsigned long long)c->seed);
	rc->ndev = report_spread(c);
	for (int k = 0; k < rc->ndev; k++) {
		const struct gpu_info *g = &c->devices[k];
		rc->dev[k] = (struct device_activity){.ordinal = g->index};
		run_log(rc, 0, "device %d: %s (sm_%d%d)", g->index, g->name, g->cc_major, g->cc_minor);
	}
	if (c->has_gpu && !rc->ndev)
		run_log(rc, 0, "device %d: %s (sm_%d%d)", c->gpu.index, c->gpu.name, c->gpu.cc_major,
			c->gpu.cc_minor);
	else if (!c->has_gpu)
		run_log(rc, tui_term_attr(TUI_WARN), "no GPU: %s; GPU cases are skipped", c->nodev_reason);
	/* The database sink has stored the run. */
	announce_what(rc, TUI_RUNCTL_STORED);
	return 0;
}

static void sink_start(void *ctx, const struct case_spec *c, size_t index, size_t total,
		       double timeout_s)
{
	struct tui_runctl *rc = ctx;
	(void)total;
	text_copy(rc->current, sizeof rc->current, c->name);
	rc->current_index = index;
	rc->deadline_s = rc->remaining = timeout_s;
	struct tui_runctl_news news = {.what = TUI_RUNCTL_CASE, .index = index,
				       .where = TUI_RUNCTL_CASE_NEXT};
	announce(rc, &news);
}

static void sink_tick(void *ctx, double remaining_s)
{
	struct tui_runctl *rc = ctx;
	rc->remaining = remaining_s;
}

static void sink_devices(void *ctx, const struct device_activity *a, int n)
{
	struct tui_runctl *rc = ctx;
	for (int k = 0; k < n && k < rc->ndev; k++) {
		/* Each case in flight is announced, as the next to report
		 * is; one that left a device unreported (its result waits
		 * for those before it) is back waiting. */
		const struct case_spec *was = rc->dev[k].c;
		if (was && was != a[k].c && rc->cases && (size_t)(was - rc->cases) >= rc->done)
			announce_case(rc, was, TUI_RUNCTL_CASE_WAITING);
		if (a[k].c)
			announce_case(rc, a[k].c, TUI_RUNCTL_CASE_IN_FLIGHT);
		rc->dev[k] = a[k];
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
	struct tui_runctl *rc = ctx;
	(void)total;
	(void)err;
	(void)len;
	rc->counts[r->status]++;
	rc->done++;
	if (!runs_to_deadline(r->c)) {
		rc->ordinary_s += r->duration_s;
		rc->ordinary_done++;
	}
	rc->current[0] = '\0';
	int notable = r->status != STATUS_PASS && r->status != STATUS_XFAIL && r->status != STATUS_SKIP;
	if (notable)
		run_log(rc, tui_term_status_attr(r->status), "%s %s%s%s", status_name(r->status),
			r->c->name, r->message[0] ? ": " : "", r->message);
	struct tui_runctl_news news = {.what = TUI_RUNCTL_RESULT, .index = index, .result = r};
	announce(rc, &news);
	return 0;
}

static int sink_end(void *ctx, const struct run_summary *s, char *err, size_t len)
{
	struct tui_runctl *rc = ctx;
	(void)err;
	(void)len;
	char line[128];
	report_summary_line(s, line, sizeof line);
	snprintf(rc->outcome, sizeof rc->outcome, "%s in %.1f s", line, s->wall_s);
	rc->cancelled = s->interrupted;
	run_log(rc, A_BOLD, "run #%lld: %s", (long long)rc->run_id, rc->outcome);
	return 0;
}

static void run_sink(struct report_sink *s, struct tui_runctl *rc)
{
	memset(s, 0, sizeof *s);
	s->begin = sink_begin;
	s->start = sink_start;
	s->tick = sink_tick;
	s->devices = sink_devices;
	s->result = sink_result;
	s->end = sink_end;
	s->ctx = rc;
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

/* What every session of the interface's runs starts from: the app's
 * worker, catalog, database, device, deadline and kernel files, the
 * controller's stop flag and lock-wait lines. */
static void run_config(struct tui_runctl *rc, struct session_config *cfg, const char *cmdline)
{
	struct tui_app *app = rc->app;
	session_config_init(cfg, app->worker_path, &app->cat, app->db, &rc->stop, cmdline);
	cfg->device = app->device;
	cfg->timeout_s = app->timeout_s;
	cfg->kernels = app->kernels;
	cfg->db_waiting = db_waiting;
	cfg->db_waiting_ctx = rc;
}

/* A run that could not start or went on: the log's line and the outcome. */
static void run_failed(struct tui_runctl *rc, const char *logged, const char *outcome, const char *err)
{
	run_log(rc, tui_term_status_attr(STATUS_ERROR), "%s: %s", logged, err);
	snprintf(rc->outcome, sizeof rc->outcome, "%s: %s", outcome, err);
}

/* The conformance run has ended (or could not begin): the session is
 * closed (its sinks' end says whether it was cancelled). */
static void conformance_finish(struct tui_runctl *rc)
{
	if (rc->ss)
		session_close(rc->ss);
	run_end(rc);
}

/* Begins the conformance run of cases[0..n) (malloc'd: the controller owns
 * them from here) with seed, each case under compute-sanitizer's tool
 * unless it is SANITIZER_NONE: the one way the interface runs cases for
 * conformance, r's and S's.  skipped: checked cases left out, for the log. */
static void start_conformance(struct tui_runctl *rc, struct case_spec *cases, size_t n,
			      size_t skipped, uint64_t seed, enum sanitizer_tool tool)
{
	struct tui_app *app = rc->app;
	/* The tool is found as "conform run --sanitize" finds it; none here
	 * is no error (the session makes each case a SKIP that says so), a
	 * CONFORM_SANITIZER that is not a program is. */
	int found = -2;
	if (tool != SANITIZER_NONE)
		found = paths_sanitizer(rc->sanitizer, sizeof rc->sanitizer, rc->sanitizer_missing,
					sizeof rc->sanitizer_missing);
	if (found == -1) {
		run_note(rc, "%s", rc->sanitizer_missing);
		free(cases);
		return;
	}
	rc->cases = cases;
	rc->sel = malloc(n * sizeof *rc->sel);
	rc->cmdline = malloc(2048);
	rc->ss = malloc(sizeof *rc->ss);
	if (!rc->sel || !rc->cmdline || !rc->ss) {
		free(rc->ss);
		rc->ss = NULL;
		conformance_finish(rc);
		run_note(rc, "out of memory");
		return;
	}
	for (size_t i = 0; i < n; i++)
		rc->sel[i] = &cases[i];

	run_reset(rc, TUI_MODE_CONFORMANCE, tool, n, 0);
	if (skipped)
		run_log(rc, tui_term_attr(TUI_WARN), "%zu checked cases left out: variant lacks the problem's type",
			skipped);
	if (found == 0)
		run_log(rc, 0, "each case alone under %s --tool %s, its deadlines %g times longer",
			rc->sanitizer, sanitizer_tool_name(tool), runner_sanitize_factor(tool));
	else if (tool != SANITIZER_NONE)
		run_log(rc, tui_term_attr(TUI_WARN), "%s", rc->sanitizer_missing);
	run_launch(rc);

	command_line(rc->cmdline, 2048, seed, tool, cases, n);
	struct session_config cfg;
	run_config(rc, &cfg, rc->cmdline);
	cfg.devices = &app->devices;
	cfg.hang_timeout_s = app->hang_timeout_s;
	cfg.seed = seed;
	cfg.sanitize = tool;
	cfg.sanitizer = found == 0 ? rc->sanitizer : NULL;
	cfg.sanitizer_missing = rc->sanitizer_missing;
	char err[1024];
	struct report_sink sink;
	run_sink(&sink, rc);
	if (session_open(rc->ss, &cfg, err, sizeof err) < 0) {
		free(rc->ss);
		rc->ss = NULL;
		run_failed(rc, "cannot run", "not run", err);
		conformance_finish(rc);
		return;
	}
	if (session_add_sink(rc->ss, &sink) < 0 ||
	    session_run_begin(rc->ss, rc->sel, n, err, sizeof err) < 0) {
		run_failed(rc, "the run stopped", "stopped", err);
		conformance_finish(rc);
	}
}

static void conformance_step(struct tui_runctl *rc, double wait_s)
{
	char err[1024];
	switch (session_step(rc->ss, wait_s, err, sizeof err)) {
	case SESSION_BUSY:
	case SESSION_RESULT:
		return;
	case SESSION_FAILED:
		run_failed(rc, "the run stopped", "stopped", err);
		break;
	case SESSION_DONE:
		break;
	}
	conformance_finish(rc);
}

/* A sweep or tune: the tuner's stepped sweep, one size after the other. */

/* A configuration was answered: the evaluations since the last one (the
 * size's references too, at its first) are its size's progress, the
 * first of them its opening (tui_eta.h). */
static void sweep_progress_seen(void *ctx, const char *variant, uint64_t done, uint64_t total)
{
	struct tui_runctl *rc = ctx;
	(void)done;
	(void)total;
	/* Every result stored so far, references included, as the summary counts them. */
	const struct run_summary *sum = &rc->ts->shown;
	size_t now_done = (size_t)(sum->tally[TALLY_PASSED] + sum->tally[TALLY_FAILED] +
				   sum->tally[TALLY_SKIPPED]);
	double now = text_now();
	if (rc->eta && rc->size_index < rc->nsizes && now_done > rc->done) {
		struct tui_eta_size *z = &rc->eta[rc->size_index];
		if (z->opened > 0) {
			z->done += (double)(now_done - rc->done);
			z->spent_s += now - rc->eta_mark;
		} else {
			z->opened = (double)(now_done - rc->done);
			z->opening_s = now - rc->eta_mark;
		}
		rc->eta_mark = now;
	}
	rc->done = now_done;
	text_copy(rc->current, sizeof rc->current, variant);
	announce_what(rc, TUI_RUNCTL_RESULT);
}

/* The sweep or tune has ended (or could not begin): the run row is
 * closed, the outcome said, and a cancel noted. */
static void sweep_finish(struct tui_runctl *rc, int interrupted)
{
	char err[1024];
	struct tune_session *s = rc->ts;
	if (s && s->run_open) {
		char line[128];
		report_summary_line(&s->shown, line, sizeof line);
		snprintf(rc->outcome, sizeof rc->outcome, "%s in %.1f s; %llu from the database", line,
			 text_now() - rc->started, (unsigned long long)s->reused);
		rc->cancelled = interrupted && rc->stop;
		const struct run_summary *sum = &s->shown;
		rc->done = (size_t)(sum->tally[TALLY_PASSED] + sum->tally[TALLY_FAILED] +
				    sum->tally[TALLY_SKIPPED]);
		/* References read from the database were never run: the total
		 * ends at what was. */
		if (!interrupted && rc->done < rc->total) {
			size_t unused = rc->total - rc->done;
			rc->references -= unused < rc->references ? unused : rc->references;
			rc->total = rc->done;
		}
		run_log(rc, A_BOLD, "run #%lld: %s", (long long)rc->run_id, rc->outcome);
		if (tune_close(s, interrupted, err, sizeof err) < 0)
			run_log(rc, tui_term_status_attr(STATUS_ERROR), "%s", err);
	}
	run_end(rc);
}

/* One step of the sweep or tune in progress: the next size when one is
 * swept, the end after the last. */
static void sweep_step(struct tui_runctl *rc, double wait_s)
{
	char err[1024];
	enum tune_step st = tune_sweep_step(rc->ts, wait_s, &rc->sw, err, sizeof err);
	const struct runner *rn = &rc->ts->run.rn;
	rc->remaining = runner_case_remaining(rn);
	/* An evaluation's deadline grows with its elements (tune.c): the
	 * countdown is out of that, not of --timeout, which it may exceed. */
	if (rn->busy)
		rc->deadline_s = runner_case_deadline(rn, rn->c);
	if (st == TUNE_STEP_BUSY)
		return;
	struct tui_runctl_news news = {.what = TUI_RUNCTL_SWEPT, .sweep = &rc->sw};
	announce(rc, &news);
	tune_sweep_free(&rc->sw);
	if (st == TUNE_STEP_FAILED)
		run_log(rc, tui_term_status_attr(STATUS_ERROR), "the run stopped: %s", err);
	if (st == TUNE_STEP_SWEPT && ++rc->size_index < rc->nsizes) {
		tune_sweep_begin(rc->ts, rc->variants, rc->nvariants, rc->sizes[rc->size_index]);
		return;
	}
	sweep_finish(rc, st != TUNE_STEP_SWEPT);
}

/* Begins the sweep or tune (app->mode) of the cases' variants at their
 * sizes, as the plan the problem pane shows makes it. */
static void start_sweep(struct tui_runctl *rc, const struct case_spec *cases, size_t n)
{
	struct tui_app *app = rc->app;
	char err[1024], cmdline[256];
	struct tui_runctl_plan plan;
	rc->ts = calloc(1, sizeof *rc->ts);
	memset(&rc->sw, 0, sizeof rc->sw);
	if (!rc->ts || tui_runctl_plan(app, cases, n, &plan) < 0) {
		run_note(rc, "out of memory");
		sweep_finish(rc, 1);
		return;
	}
	struct tune_options o = plan.o;
	enum dtype d = o.dtype;
	size_t nv = rc->nvariants = plan.nvariants;
	size_t nsizes = rc->nsizes = plan.nsizes;
	rc->variants = plan.variants;
	rc->sizes = plan.sizes;
	plan.variants = NULL;
	plan.sizes = NULL;
	rc->size_index = 0;
	/* Each size plans the same evaluations and references. */
	rc->eta = calloc(nsizes ? nsizes : 1, sizeof *rc->eta);
	if (!rc->eta) {
		tui_runctl_plan_free(&plan);
		run_note(rc, "out of memory");
		sweep_finish(rc, 1);
		return;
	}
	for (size_t k = 0; k < nsizes; k++)
		rc->eta[k] = (struct tui_eta_size){
			.elements = (double)rc->sizes[k] * (double)(o.cols ? o.cols : 1),
			.planned = (double)(plan.evaluations + plan.references) / (double)nsizes,
		};
	if (!nv) {
		tui_runctl_plan_free(&plan);
		run_note(rc, "no checked %s case has a tuning space", dtype_name(d));
		sweep_finish(rc, 1);
		return;
	}

	/* Every result counts, the references too; those read from the
	 * database instead of measured drop out at the end. */
	rc->dtype = d;
	run_reset(rc, app->mode, SANITIZER_NONE, (size_t)(plan.evaluations + plan.references),
		  (size_t)plan.references);
	tui_runctl_plan_free(&plan);
	snprintf(cmdline, sizeof cmdline, "conform tui: %s of %zu variant%s, %s, seed %llu",
		 tui_mode_name(app->mode), nv, nv == 1 ? "" : "s", dtype_name(d),
		 (unsigned long long)o.seed);
	run_launch(rc);

	struct session_config cfg;
	run_config(rc, &cfg, cmdline);
	cfg.kind = app->mode == TUI_MODE_TUNE ? RUN_TUNE : RUN_SWEEP;
	struct tune_session *s = rc->ts;
	if (tune_open(s, &o, &cfg, err, sizeof err) < 0 ||
	    tune_begin(s, err, sizeof err) < 0) {
		run_failed(rc, "cannot run", "not run", err);
		tune_close(s, 1, err, sizeof err);
		sweep_finish(rc, 1);
		return;
	}
	s->progress.fn = sweep_progress_seen;
	s->progress.ctx = rc;
	rc->run_id = s->run.dbst.run_id;
	rc->seed = o.seed;
	rc->started = rc->eta_mark = text_now();
	rc->deadline_s = rc->remaining = app->timeout_s;
	run_log(rc, A_BOLD, "run #%lld: %s of %zu variant%s at %zu size%s, %s", (long long)rc->run_id,
		tui_mode_name(app->mode), nv, nv == 1 ? "" : "s", nsizes, nsizes == 1 ? "" : "s",
		dtype_name(d));
	if (!s->run.rn.rc.has_gpu)
		run_log(rc, tui_term_attr(TUI_WARN), "no GPU: %s", s->run.rn.rc.nodev_reason);
	announce_what(rc, TUI_RUNCTL_STORED);
	tune_sweep_begin(s, rc->variants, nv, rc->sizes[0]);
}

/* The interface. */

void tui_runctl_start(struct tui_runctl *rc)
{
	struct tui_app *app = rc->app;
	struct case_spec *cases = NULL;
	size_t n = 0, skipped = 0;
	if (tui_runctl_cases(app, &cases, &n, &skipped) < 0) {
		run_note(rc, "out of memory");
		return;
	}
	if (!n) {
		run_note(rc, skipped ? "every checked case lacks the problem's type"
				     : "nothing checked: Space checks cases");
		free(cases);
		return;
	}
	if (app->mode != TUI_MODE_CONFORMANCE) {
		start_sweep(rc, cases, n);
		free(cases);
		return;
	}
	start_conformance(rc, cases, n, skipped, app->seed_given ? app->seed : run_seed_fresh(),
			  SANITIZER_NONE);
}

void tui_runctl_start_sanitized(struct tui_runctl *rc, const struct case_spec *c,
				const uint64_t *seed, enum sanitizer_tool tool)
{
	struct tui_app *app = rc->app;
	struct case_spec *one = malloc(sizeof *one);
	if (!one) {
		run_note(rc, "out of memory");
		return;
	}
	*one = *c;
	start_conformance(rc, one, 1, 0, seed ? *seed : app->seed_given ? app->seed : run_seed_fresh(),
			  tool);
}

void tui_runctl_step(struct tui_runctl *rc, double wait_s)
{
	if (rc->ts)
		sweep_step(rc, wait_s);
	else if (rc->ss)
		conformance_step(rc, wait_s);
}

double tui_runctl_eta_s(const struct tui_runctl *rc, double elapsed_s)
{
	if (rc->mode != TUI_MODE_CONFORMANCE || !rc->cases)
		return rc->eta ? tui_eta_left(rc->eta, rc->nsizes, rc->size_index,
					      rc->started + elapsed_s - rc->eta_mark)
			       : -1;
	if (!rc->done)
		return -1;
	double pace = rc->ordinary_done ? rc->ordinary_s / (double)rc->ordinary_done
					: elapsed_s / (double)rc->done;
	double left = 0;
	size_t from = rc->current[0] ? rc->current_index : rc->done;
	for (size_t i = from; i < rc->total; i++) {
		if (i == rc->current_index && rc->current[0])
			left += runs_to_deadline(&rc->cases[i]) ? rc->remaining : 0;
		else
			left += runs_to_deadline(&rc->cases[i]) ? rc->app->hang_timeout_s : pace;
	}
	return left;
}
