/*
 * cmd_tui.c - "conform tui" (and "conform" alone on a terminal): the
 * interactive interface.
 *
 * Everything is loaded before the terminal is touched - the worker's
 * catalog, the suites, the database - so an input error is the same one-line
 * message and exit 2 as for "conform run".  Then six panes (catalog,
 * problem, run, results, plot, runs) go under the screen manager and the loop
 * reads keys, stepping a run in progress between them.  Runs are sessions
 * (session.h) like the CLI's, so a run from here is stored exactly like one
 * from the command line.
 *
 * Exit: 0 after q; 130 after SIGINT/SIGTERM/SIGHUP (a run in progress is
 * stopped first and recorded as interrupted); 2 for usage and input errors,
 * including having no terminal.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "common/stats.h"
#include "common/text.h"
#include "db/db.h"
#include "session/session.h"
#include "session/session_check.h"
#include "session/user_cases.h"
#include "tui/tui_app.h"

struct tui_opts {
	const char *db_path;
	struct cmd_run_settings rs;
	struct tui_app *app;          /* budget and sampling go straight to it */
};

static const struct cmd_option tui_options[] = {
	{.id = CMD_OPT_DB},
	{.id = CMD_OPT_TIMEOUT},
	{.id = CMD_OPT_HANG_TIMEOUT},
	{.id = CMD_OPT_SEED, .help = "input seed of every run (default: random per run)"},
	{.id = CMD_OPT_DEVICE},
	{.id = CMD_OPT_DEVICES,
	 .help = "spread conformance runs over these GPUs (0,1 or 0-3 or all);\n"
		 "sweeps and tunes take the first"},
	{.id = CMD_OPT_SUITES},
	{.id = CMD_OPT_SUITE},
	{.id = CMD_OPT_KERNEL, .help = "list a kernel file of yours in the catalog (repeatable)"},
	{.id = CMD_OPT_KERNELS},
	{.id = CMD_OPT_BUDGET, .help = "evaluations per search in tune mode (default 20)"},
	{.id = CMD_OPT_MIN_SAMPLES, .help = "timed launches at least, in sweeps and tunes (default 10)"},
	{.id = CMD_OPT_MAX_TIME},
	{0},
};

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

static int tui_set(void *opts, int id, const struct cmd_value *v)
{
	struct tui_opts *o = opts;
	switch (id) {
	case CMD_OPT_DB: o->db_path = v->text; break;
	case CMD_OPT_BUDGET: o->app->tune_budget = v->u; break;
	case CMD_OPT_MIN_SAMPLES: o->app->timing.min_samples = (int)v->u; break;
	case CMD_OPT_MAX_TIME: o->app->timing.max_time_s = v->seconds; break;
	default: return cmd_run_settings_set(&o->rs, id, v);
	}
	return 0;
}

/* Returns 0, or what tui_exec returns (cmd_parse). */
static int parse_opts(int argc, char **argv, struct tui_opts *o, struct tui_app *app)
{
	int operand;
	cmd_run_settings_init(&o->rs);
	o->app = app;
	int r = cmd_parse(&cmd_tui_entry, argc, argv, o, &operand);
	if (r != 0)
		return r;
	app->timeout_s = o->rs.timeout_s;
	app->hang_timeout_s = o->rs.hang_timeout_s;
	app->seed = o->rs.seed;
	app->seed_given = o->rs.seed_given;
	app->device = o->rs.device;
	app->devices = o->rs.devices;
	if (app->timing.max_samples < app->timing.min_samples)
		app->timing.max_samples = app->timing.min_samples;
	/* As for conform tune: a deadline below the sampling time would kill
	 * healthy evaluations as hung. */
	if (app->timeout_s <= app->timing.max_time_s) {
		cmd_error("tui: --timeout (%g s) must exceed --max-time (%g s)", app->timeout_s,
			  app->timing.max_time_s);
		return EXIT_USAGE;
	}
	return 0;
}

/* The run in progress is the newest in the database: its row is written
 * before r returns.  0 when it cannot be read. */
static long long running_id(struct tui_app *app)
{
	int64_t id = 0;
	char err[256];
	if (db_run_latest(app->db, &id, err, sizeof err) < 0)
		return 0;
	return (long long)id;
}

static void confirmed_cancel(void *ctx)
{
	struct tui_app *app = ctx;
	if (!app->running)
		return; /* it ended while the question was open */
	app->stop = 1;
	tui_screen_note(&app->screen, "cancelling...");
}

static void confirmed_quit(void *ctx)
{
	struct tui_app *app = ctx;
	if (app->running)
		app->stop = 1;
	app->quit = 1;
}

/* The run has ended: a question about it that is still open no longer
 * applies.  "Quit and cancel run #3? y/n" had stayed on the line after
 * the run was over, and its y then quit with nothing to cancel. */
static void run_ended(struct tui_app *app)
{
	if (tui_screen_unask(&app->screen, confirmed_quit) || tui_screen_unask(&app->screen, confirmed_cancel))
		tui_screen_note(&app->screen, "run #%lld ended before the answer", running_id(app));
}

/* q and c during a run ask first: a run is minutes of measurements, one key
 * away.  Signals still stop at once (the main loop). */
static int global_key(void *ctx, int key)
{
	struct tui_app *app = ctx;
	switch (key) {
	case 'q':
	case KEY_F(10):
		if (app->running)
			tui_screen_confirm(&app->screen, confirmed_quit, "Quit and cancel run #%lld? y/n",
					   running_id(app));
		else
			app->quit = 1;
		return 1;
	case 'r':
		if (app->running)
			tui_screen_note(&app->screen, "a run is in progress (c cancels it)");
		else
			tui_run_checked(app);
		return 1;
	case 'm':
		if (app->running) {
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
		if (app->running)
			tui_screen_confirm(&app->screen, confirmed_cancel, "Cancel run #%lld? y/n",
					   running_id(app));
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
	*out = app->running ? hints_running : hints_idle[app->mode];
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
	{"q", "quit (during a run, asks first: y cancels the run and quits)"},
};

static void status_text(void *ctx, char *buf, size_t len)
{
	struct tui_app *app = ctx;
	size_t done, total;
	if (app->running) {
		tui_run_progress(app->panes[TUI_PANE_RUN], &done, &total);
		snprintf(buf, len, "running %zu/%zu", done, total);
	} else {
		snprintf(buf, len, "%zu checked", tui_app_checked_count(app));
	}
}

static void app_free(struct tui_app *app)
{
	tui_screen_free(&app->screen);
	db_close(app->db);
	free(app->checked);
	suite_free(&app->suite);
	catalog_free(&app->cat);
}

static int tui_exec(int argc, char **argv)
{
	static struct tui_app app; /* the signal handler writes app.stop */
	struct tui_opts o;
	char err[CMD_ERR_MAX];

	memset(&app, 0, sizeof app);
	memset(&o, 0, sizeof o);
	app.tune_budget = 20;
	stats_request_defaults(&app.timing);
	int p = parse_opts(argc, argv, &o, &app);
	if (p != 0) {
		cmd_run_settings_free(&o.rs);
		return p;
	}
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		cmd_error("tui: needs a terminal on stdin and stdout (use \"conform run\" in scripts)");
		cmd_run_settings_free(&o.rs);
		return EXIT_USAGE;
	}
	app.kernels = &o.rs.kernels;
	const size_t ncmdline = o.rs.kernels.n; /* --kernel's, before the suites' */
	if (cmd_load_suites(&o.rs, &app.suite) < 0) {
		cmd_run_settings_free(&o.rs);
		return EXIT_USAGE;
	}
	if (session_find_worker(app.worker_path, sizeof app.worker_path, &o.rs.kernels, &app.cat, err,
				sizeof err) < 0) {
		cmd_error("%s", err);
		suite_free(&app.suite);
		cmd_run_settings_free(&o.rs);
		return EXIT_USAGE;
	}
	/* The --kernel files' cases (their ladders), after the suites'. */
	struct user_case_request uq = {.paths = (const char *const *)o.rs.kernels.paths,
				       .npaths = ncmdline, .timeout_s = o.rs.timeout_s};
	struct case_spec *user = NULL;
	size_t nuser = 0;
	if (user_cases_make(&app.cat, &uq, &user, &nuser, err, sizeof err) < 0) {
		cmd_error("%s", err);
		suite_free(&app.suite);
		catalog_free(&app.cat);
		cmd_run_settings_free(&o.rs);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < nuser; i++)
		if (suite_add(&app.suite, &user[i], err, sizeof err) < 0) {
			cmd_error("%s", err);
			free(user);
			suite_free(&app.suite);
			catalog_free(&app.cat);
			cmd_run_settings_free(&o.rs);
			return EXIT_USAGE;
		}
	free(user);
	int rc = EXIT_USAGE;
	/* A tunable variant no suite names (harness.spin) gets a case of its
	 * own here, so it can be checked and swept. */
	if (tui_problem_add_defaults(&app, err, sizeof err) < 0) {
		cmd_error("%s", err);
		goto out;
	}
	for (size_t i = 0; i < app.suite.count; i++) {
		if (session_check_case(&app.cat, &app.suite.cases[i], err, sizeof err) < 0) {
			cmd_error("%s", err);
			goto out;
		}
	}
	app.checked = calloc(app.suite.count ? app.suite.count : 1, 1);
	if (!app.checked) {
		cmd_error("out of memory");
		goto out;
	}
	if (cmd_db_path(o.db_path, app.db_path, sizeof app.db_path) < 0)
		goto out;
	if (db_open(app.db_path, &app.db, err, sizeof err) < 0) {
		cmd_error("%s", err);
		goto out;
	}

	if (tui_term_open(&app.stop, err, sizeof err) < 0) {
		cmd_error("tui: %s", err);
		goto out;
	}
	tui_screen_init(&app.screen, "conform");
	app.screen.global_key = global_key;
	app.screen.global_hints = global_hints;
	app.screen.global_help = global_help;
	app.screen.nglobal_help = sizeof global_help / sizeof global_help[0];
	app.screen.status = status_text;
	app.screen.ctx = &app;
	app.panes[TUI_PANE_CATALOG] = tui_catalog_pane_new(&app);
	app.panes[TUI_PANE_PROBLEM] = tui_problem_pane_new(&app);
	app.panes[TUI_PANE_RUN] = tui_run_pane_new(&app);
	app.panes[TUI_PANE_RESULTS] = tui_results_pane_new(&app);
	app.panes[TUI_PANE_PLOT] = tui_plot_pane_new(&app);
	app.panes[TUI_PANE_RUNS] = tui_runs_pane_new(&app);
	int missing = 0;
	for (int i = 0; i < TUI_PANE_COUNT; i++) {
		if (app.panes[i])
			tui_screen_add(&app.screen, app.panes[i]);
		else
			missing = 1;
	}
	if (missing) {
		tui_term_close();
		cmd_error("out of memory");
		goto out;
	}

	/* A run in progress is stepped between keys; quitting or a signal
	 * stops it first, so it is recorded as interrupted. */
	while (app.running || (!app.quit && !tui_term_signal())) {
		if (app.running && (app.quit || tui_term_signal()))
			app.stop = 1;
		tui_screen_draw(&app.screen);
		if (app.running) {
			tui_run_step(&app, TUI_STEP_S);
			if (!app.running)
				run_ended(&app);
			for (int key; (key = tui_term_key(0)) != ERR;)
				tui_screen_key(&app.screen, key);
		} else {
			tui_screen_key(&app.screen, tui_term_key(250));
		}
	}
	int sig = tui_term_signal();
	tui_term_close();
	rc = sig ? EXIT_INTERRUPTED : 0;
out:
	app_free(&app);
	cmd_run_settings_free(&o.rs);
	return rc;
}

const struct cmd_entry cmd_tui_entry = {
	.name = "tui",
	.usage = "tui [--db PATH] [--hang-timeout SEC]",
	.summary = "the interactive interface (also \"conform\" alone on a terminal)",
	.exec = tui_exec,
	.options = tui_options,
	.help_head = "usage: conform tui [options]        (also: conform, alone, on a terminal)\n",
	.help_tail = "Keys: ? shows them all.  Tab changes pane, Space checks, m picks the mode\n"
		     "(conformance, sweep, tune), r runs, c cancels, b shows the best configurations, q quits.\n"
		     "NO_COLOR set: no colours.  The locale decides Unicode or ASCII line drawing.\n",
	.set = tui_set,
};
