/*
 * tui_app.c - the application (tui_app.h): six panes (catalog, problem,
 * run, results, plot, runs) under the screen manager, the keys that work in
 * every pane (r, m, c, q), and the loop that reads keys and steps a run in
 * progress between them.
 *
 * The application is one of its run controller's observers, beside the
 * panes: a run that starts brings the run pane on screen, the controller's
 * notes go to the message line, a wait draws the screen first, and a run
 * that ends closes a question about it still open.  q and c during a run
 * ask first, since a run is minutes of measurements one key away; a signal
 * stops the run at once, and the loop ends only once no run is active.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dtype.h"
#include "common/text.h"
#include "db/db.h"
#include "tui/tui_app.h"
#include "tune/tune.h"

/* How long one turn of the loop waits for the worker while a run is in
 * progress: the countdown and the keys stay live at this period. */
#define STEP_S 0.05

const char *tui_mode_name(enum tui_mode m)
{
	static const char *const names[TUI_MODE_COUNT] = {"conformance", "sweep", "tune"};
	return m < TUI_MODE_COUNT ? names[m] : "?";
}

size_t tui_app_checked_count(const struct tui_app *app)
{
	size_t n = 0;
	for (size_t i = 0; i < app->suite.count; i++)
		n += app->checked[i] != 0;
	return n;
}

int tui_app_variant_checked(const struct tui_app *app, const char *name)
{
	for (size_t i = 0; i < app->suite.count; i++)
		if (app->checked[i] && strcmp(app->suite.cases[i].variant, name) == 0)
			return 1;
	return 0;
}

int tui_app_add_default_cases(struct tui_app *app, char *err, size_t len)
{
	for (size_t v = 0; v < app->cat.count; v++) {
		const struct catalog_entry *e = &app->cat.v[v];
		if (!e->space[0] || tune_is_reference(&app->cat, e->name))
			continue;
		int named = 0;
		for (size_t i = 0; i < app->suite.count && !named; i++)
			named = strcmp(app->suite.cases[i].variant, e->name) == 0;
		if (named)
			continue;
		char first[16];
		text_copy(first, sizeof first, e->dtypes);
		first[strcspn(first, ",")] = '\0';
		struct case_spec c;
		memset(&c, 0, sizeof c);
		if (dtype_parse(first, &c.dtype) < 0)
			continue; /* a variant with no type cannot be posed */
		text_copy(c.variant, sizeof c.variant, e->name);
		snprintf(c.name, sizeof c.name, "%s.%s.default", e->name, first);
		int rows_only = !*e->baseline && *e->baseline_rows;
		c.n = rows_only ? 4096 : 1LL << 20;
		c.cols = rows_only ? 1024 : 0;
		c.expect = EXPECT_PASS;
		text_copy(c.file, sizeof c.file, "conform tui: the variant has no suite case");
		if (suite_add(&app->suite, &c, err, len) < 0)
			return -1;
	}
	return 0;
}

static void confirmed_cancel(void *ctx)
{
	struct tui_app *app = ctx;
	if (!app->run.active)
		return; /* it ended while the question was open */
	tui_runctl_cancel(&app->run);
	tui_screen_note(&app->screen, "cancelling...");
}

static void confirmed_quit(void *ctx)
{
	struct tui_app *app = ctx;
	tui_runctl_cancel(&app->run);
	app->quit = 1;
}

/* The run has ended: a question about it that is still open no longer
 * applies.  "Quit and cancel run #3? y/n" had stayed on the line after
 * the run was over, and its y then quit with nothing to cancel. */
static void run_ended(struct tui_app *app)
{
	if (tui_screen_unask(&app->screen, confirmed_quit) || tui_screen_unask(&app->screen, confirmed_cancel))
		tui_screen_note(&app->screen, "run #%lld ended before the answer", (long long)app->run.run_id);
}

static void app_heard(void *ctx, const struct tui_runctl_news *news)
{
	struct tui_app *app = ctx;
	switch (news->what) {
	case TUI_RUNCTL_STARTED:
		tui_screen_show(&app->screen, TUI_PANE_RUN);
		break;
	case TUI_RUNCTL_NOTE:
		tui_screen_note(&app->screen, "%s", news->text);
		break;
	case TUI_RUNCTL_WAITING:
		tui_screen_draw(&app->screen);
		break;
	case TUI_RUNCTL_FINISHED:
		run_ended(app);
		break;
	default:
		break;
	}
}

static int global_key(void *ctx, int key)
{
	struct tui_app *app = ctx;
	switch (key) {
	case 'q':
	case KEY_F(10):
		if (app->run.active)
			tui_screen_confirm(&app->screen, confirmed_quit, app, "Quit and cancel run #%lld? y/n",
					   (long long)app->run.run_id);
		else
			app->quit = 1;
		return 1;
	case 'r':
		if (app->run.active)
			tui_screen_note(&app->screen, "a run is in progress (c cancels it)");
		else
			tui_runctl_start(&app->run);
		return 1;
	case 'm':
		if (app->run.active) {
			tui_screen_note(&app->screen, "a run is in progress (c cancels it)");
		} else {
			app->mode = (enum tui_mode)((app->mode + 1) % TUI_MODE_COUNT);
			static const char *const what[TUI_MODE_COUNT] = {
				" run: each checked case against its reference",
				": every configuration of the checked variants, each size",
				": an anneal of each checked variant, within the budget",
			};
			tui_screen_note(&app->screen, "r now makes a %s%s", tui_mode_name(app->mode),
					what[app->mode]);
		}
		return 1;
	case 'c':
		if (app->run.active)
			tui_screen_confirm(&app->screen, confirmed_cancel, app, "Cancel run #%lld? y/n",
					   (long long)app->run.run_id);
		else
			tui_screen_note(&app->screen, "no run to cancel");
		return 1;
	}
	return 0;
}

/* r's label names the mode it runs in. */
static const struct tui_hint hints_idle[TUI_MODE_COUNT][4] = {
	{{"r", "Run"}, {"Tab", "Pane"}, {"?", "Help"}, {"q", "Quit"}},
	{{"r", "Sweep"}, {"Tab", "Pane"}, {"?", "Help"}, {"q", "Quit"}},
	{{"r", "Tune"}, {"Tab", "Pane"}, {"?", "Help"}, {"q", "Quit"}},
};
static const struct tui_hint hints_running[] = {
	{"c", "Cancel"}, {"Tab", "Pane"}, {"?", "Help"}, {"q", "Quit"},
};

static size_t global_hints(void *ctx, const struct tui_hint **out)
{
	struct tui_app *app = ctx;
	*out = app->run.active ? hints_running : hints_idle[app->mode];
	return 4;
}

static const struct tui_hint global_help[] = {
	{"Tab S-Tab", "next / previous pane (1-6: go to one)"},
	{"r", "run the checked cases in the current mode"},
	{"m", "mode: conformance, sweep (every configuration), tune (anneal)"},
	{"c", "cancel the run in progress (asks first: y cancels, any other key keeps it)"},
	{"/", "filter the pane (where it has one)"},
	{"?", "this help"},
	{"Ctrl-L", "redraw the screen"},
	{"mouse", "click a tab, a row (twice: as Enter), a heading (sorts by it; again: reverses); "
		  "the wheel scrolls (tui --no-mouse leaves them to the terminal)"},
	{"q", "quit (during a run, asks first: y cancels the run and quits)"},
};

static void status_text(void *ctx, char *buf, size_t len)
{
	struct tui_app *app = ctx;
	if (app->run.active)
		snprintf(buf, len, "running %zu/%zu", app->run.done, app->run.total);
	else
		snprintf(buf, len, "%zu checked", tui_app_checked_count(app));
}

/* The screen and its panes, each pane observing the controller, the
 * application last.  Returns 0, or -1 when out of memory. */
static int screen_open(struct tui_app *app)
{
	static struct tui_pane *(*const pane_new[TUI_PANE_COUNT])(struct tui_app *) = {
		[TUI_PANE_CATALOG] = tui_catalog_pane_new, [TUI_PANE_PROBLEM] = tui_problem_pane_new,
		[TUI_PANE_RUN] = tui_run_pane_new,         [TUI_PANE_RESULTS] = tui_results_pane_new,
		[TUI_PANE_PLOT] = tui_plot_pane_new,       [TUI_PANE_RUNS] = tui_runs_pane_new,
	};
	tui_screen_init(&app->screen, "conform");
	app->screen.global_key = global_key;
	app->screen.global_hints = global_hints;
	app->screen.global_help = global_help;
	app->screen.nglobal_help = sizeof global_help / sizeof global_help[0];
	app->screen.status = status_text;
	app->screen.ctx = app;
	struct tui_pane *panes[TUI_PANE_COUNT];
	for (int i = 0; i < TUI_PANE_COUNT; i++)
		panes[i] = pane_new[i](app);
	int missing = 0;
	for (int i = 0; i < TUI_PANE_COUNT; i++) {
		if (panes[i])
			tui_screen_add(&app->screen, panes[i]);
		else
			missing = 1;
	}
	return missing || tui_runctl_observe(&app->run, app_heard, app) < 0 ? -1 : 0;
}

int tui_app_main(struct tui_app *app, char *err, size_t len)
{
	struct tui_runctl *rc = &app->run;
	char why[256];
	tui_runctl_init(rc, app);
	if (tui_term_open(&rc->stop, why, sizeof why) < 0) {
		snprintf(err, len, "tui: %s", why);
		return -1;
	}
	tui_term_mouse_enable(!app->no_mouse);
	if (screen_open(app) < 0) {
		tui_term_close();
		tui_screen_free(&app->screen);
		snprintf(err, len, "out of memory");
		return -1;
	}

	while (rc->active || (!app->quit && !tui_term_signal())) {
		if (app->quit || tui_term_signal())
			tui_runctl_cancel(rc);
		tui_screen_draw(&app->screen);
		if (rc->active) {
			tui_runctl_step(rc, STEP_S);
			for (int key; (key = tui_term_key(0)) != ERR;)
				tui_screen_key(&app->screen, key);
		} else {
			tui_screen_key(&app->screen, tui_term_key(250));
		}
	}
	int sig = tui_term_signal();
	tui_term_close();
	tui_screen_free(&app->screen);
	return sig ? 1 : 0;
}
