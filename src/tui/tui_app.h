/*
 * tui_app.h - the application "conform tui" is: what the panes share (the
 * catalog and the suites, which cases are checked, the problem settings,
 * the database and the settings a run is made with), its screen and panes,
 * its run controller, and its loop.
 *
 * The command (src/cli/cmd_tui.c) loads the inputs into a struct tui_app and
 * hands it to tui_app_main(); each pane keeps a pointer to it.  A pane
 * reads the application and its run controller (app->run, tui_runctl.h),
 * asks the controller for runs, and hears what happens as one of the
 * controller's observers: a pane never calls another pane.
 *
 * The TUI never talks to the GPU: the catalog comes from the worker's
 * --catalog mode, and runs go through a session (session.h): the same
 * workers, watchdog and database sink as for "conform run".
 */
#ifndef CONFORM_TUI_APP_H
#define CONFORM_TUI_APP_H

#include <stddef.h>
#include <stdint.h>

#include "common/objective.h"
#include "common/timing.h"
#include "session/catalog_client.h"
#include "suite/suite.h"
#include "tui/tui_runctl.h"
#include "tui/tui_screen.h"

struct db;

/* Sizes offered as presets: 2^10, 2^12, ..., 2^30. */
#define TUI_PRESET_FIRST 10
#define TUI_PRESET_LAST 30
#define TUI_PRESET_STEP 2
#define TUI_PRESET_COUNT ((TUI_PRESET_LAST - TUI_PRESET_FIRST) / TUI_PRESET_STEP + 1)
#define TUI_PRESET_SIZE(k) (1LL << (TUI_PRESET_FIRST + (k) * TUI_PRESET_STEP))
#define TUI_SIZES_MAX 32

enum tui_sizes { TUI_SIZES_SUITE, TUI_SIZES_PRESETS, TUI_SIZES_LIST };

/* The problem pane's settings: applied to every checked case of a run. */
struct tui_problem {
	int dtype;                /* -1: each case's own, else enum dtype */
	enum tui_sizes sizes;
	unsigned presets;         /* bit k: 2^(TUI_PRESET_FIRST + k * TUI_PRESET_STEP) */
	long long list[TUI_SIZES_MAX];
	size_t nlist;
	char list_text[TUI_PROMPT_MAX];
};

/* "conformance", "sweep", "tune". */
const char *tui_mode_name(enum tui_mode m);

enum tui_pane_index { TUI_PANE_CATALOG, TUI_PANE_PROBLEM, TUI_PANE_RUN, TUI_PANE_RESULTS,
		      TUI_PANE_PLOT, TUI_PANE_RUNS, TUI_PANE_COUNT };

struct tui_app {
	struct catalog cat;
	struct suite suite;
	unsigned char *checked;   /* one per suite case */
	struct tui_problem problem;

	char db_path[4096];
	struct db *db;            /* where runs write and panes read (db.h) */

	char worker_path[4096];
	const struct kernel_list *kernels; /* --kernel files, listed in the catalog */
	double timeout_s, hang_timeout_s;
	int device;               /* sweeps' and tunes' device, conformance runs' first */
	struct device_set devices; /* --devices: conformance runs spread over them */
	uint64_t seed;            /* used for every run when seed_given */
	int seed_given;
	enum tui_mode mode;
	uint64_t tune_budget;     /* evaluations per search in tune mode */
	struct timing_request timing; /* sampling of sweeps and tunes */

	/* The variant under the catalog pane's cursor (its case's variant
	 * when on a case), "" on a family: the catalog pane keeps it. */
	char catalog_variant[CASE_VARIANT_MAX];

	int no_mouse;             /* --no-mouse: clicks and the wheel stay the terminal's */
	enum objective objective; /* --objective: what the best view ranks by first */
	struct tui_runctl run;     /* the run in progress, or the last one */
	int quit;
	struct tui_screen screen;  /* the panes, in enum tui_pane_index's order */
};

/* Checked cases. */
size_t tui_app_checked_count(const struct tui_app *app);
/* 1 when some checked case belongs to variant `name`. */
int tui_app_variant_checked(const struct tui_app *app, const char *name);

/* Adds to app->suite a case for each tunable variant of the catalog that no
 * suite case names, so that it can be checked, swept and tuned from the
 * interface: its first element type at n = 2^20 (rows x cols 4096 x 1024
 * for a family measured only on rows), named VARIANT.DTYPE.default.  The
 * problem pane's type and sizes apply to it as to any case.  Returns 0, or
 * -1 with a message. */
int tui_app_add_default_cases(struct tui_app *app, char *err, size_t len);

/* Runs the interface on the terminal until q or a signal: the panes under
 * the screen manager, keys read and a run in progress stepped between
 * them; quitting or a signal stops a run first, so it is recorded as
 * interrupted.  app holds the loaded inputs and the settings.  Returns 0
 * after q, 1 when a signal ended it, -1 with a message when the terminal
 * cannot be opened or memory runs out. */
int tui_app_main(struct tui_app *app, char *err, size_t len);

/* Panes (each in its own file). */
struct tui_pane *tui_catalog_pane_new(struct tui_app *app);
struct tui_pane *tui_problem_pane_new(struct tui_app *app);
struct tui_pane *tui_run_pane_new(struct tui_app *app);
struct tui_pane *tui_results_pane_new(struct tui_app *app);
struct tui_pane *tui_plot_pane_new(struct tui_app *app);
struct tui_pane *tui_runs_pane_new(struct tui_app *app);

#endif
