/*
 * cmd_tui.c - "conform tui" (and "conform" alone on a terminal): the
 * interactive interface.
 *
 * Everything is loaded before the terminal is touched - the worker's
 * catalog, the suites, the database - so an input error is the same one-line
 * message and exit 2 as for "conform run".  Then the application
 * (tui/tui_app.h) takes the terminal until q.  Runs are sessions
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
#include "cli/cmd_inputs.h"
#include "common/stats.h"
#include "common/text.h"
#include "db/db.h"
#include "session/session.h"
#include "session/session_check.h"
#include "tui/tui_app.h"

enum { O_NO_MOUSE = CMD_OPT_OWN };

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
	{.id = CMD_OPT_OBJECTIVE,
	 .help = "what the best view (b) ranks by first: time (default), energy or edp;\n"
		 "e there changes it"},
	{.id = O_NO_MOUSE, .name = "no-mouse",
	 .help = "leave clicks and the wheel to the terminal (to select text)"},
	{0},
};

static int tui_set(void *opts, int id, const struct cmd_value *v)
{
	struct tui_opts *o = opts;
	switch (id) {
	case CMD_OPT_DB: o->db_path = v->text; break;
	case CMD_OPT_BUDGET: o->app->tune_budget = v->u; break;
	case CMD_OPT_MIN_SAMPLES: o->app->timing.min_samples = (int)v->u; break;
	case CMD_OPT_MAX_TIME: o->app->timing.max_time_s = v->seconds; break;
	case O_NO_MOUSE: o->app->no_mouse = 1; break;
	case CMD_OPT_OBJECTIVE: o->app->objective = v->objective; break;
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

static void app_free(struct tui_app *app)
{
	db_close(app->db);
	free(app->checked);
	suite_free(&app->suite);
	catalog_free(&app->cat);
}

/* Everything the interface reads before it touches the terminal, as
 * the other commands read it (cmd_inputs.h): the suites with the --kernel
 * files' cases after them and a case for each tunable variant no suite
 * names, all checked against the worker's catalog, and the database.  They
 * move into app, which keeps them and app_free frees them.  Returns 0, or
 * EXIT_USAGE after the one-line error. */
static int app_load(struct tui_app *app, struct tui_opts *o)
{
	struct cmd_inputs in = {.rs = &o->rs, .db_given = o->db_path};
	char err[CMD_ERR_MAX];
	int rc = cmd_inputs_open(&in, CMD_INPUTS_SUITES | CMD_INPUTS_WORKER | CMD_INPUTS_USER_CASES);
	app->suite = in.suite;
	app->cat = in.cat;
	text_copy(app->worker_path, sizeof app->worker_path, in.worker_path);
	cmd_inputs_release(&in, CMD_INPUTS_SUITES | CMD_INPUTS_WORKER);
	app->kernels = &o->rs.kernels;
	if (rc != 0)
		goto out;
	rc = EXIT_USAGE;
	/* The --kernel files' cases (their ladders), after the suites'. */
	for (size_t i = 0; i < in.nuser; i++)
		if (suite_add(&app->suite, &in.user[i], err, sizeof err) < 0) {
			cmd_error("%s", err);
			goto out;
		}
	/* A tunable variant no suite names (harness.spin) gets a case of its
	 * own here, so it can be checked and swept. */
	if (tui_app_add_default_cases(app, err, sizeof err) < 0) {
		cmd_error("%s", err);
		goto out;
	}
	for (size_t i = 0; i < app->suite.count; i++)
		if (session_check_case(&app->cat, &app->suite.cases[i], err, sizeof err) < 0) {
			cmd_error("%s", err);
			goto out;
		}
	app->checked = calloc(app->suite.count ? app->suite.count : 1, 1);
	if (!app->checked) {
		cmd_error("out of memory");
		goto out;
	}
	rc = cmd_inputs_open(&in, CMD_INPUTS_DB);
	app->db = in.db;
	text_copy(app->db_path, sizeof app->db_path, in.db_path);
	cmd_inputs_release(&in, CMD_INPUTS_DB);
out:
	cmd_inputs_close(&in);
	return rc;
}

static int tui_exec(int argc, char **argv)
{
	static struct tui_app app; /* the signal handler writes app.run.stop */
	struct tui_opts o;
	char err[CMD_ERR_MAX];

	memset(&app, 0, sizeof app);
	memset(&o, 0, sizeof o);
	app.tune_budget = 20;
	stats_request_defaults(&app.timing);
	int rc = parse_opts(argc, argv, &o, &app);
	if (rc != 0)
		goto out;
	rc = EXIT_USAGE;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		cmd_error("tui: needs a terminal on stdin and stdout (use \"conform run\" in scripts)");
		goto out;
	}
	rc = app_load(&app, &o);
	if (rc != 0)
		goto out;
	rc = EXIT_USAGE;

	switch (tui_app_main(&app, err, sizeof err)) {
	case 0: rc = 0; break;
	case 1: rc = EXIT_INTERRUPTED; break;
	default: cmd_error("%s", err); break;
	}
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
