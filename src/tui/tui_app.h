/*
 * tui_app.h - the application "conform tui" is: what the panes share (the
 * catalog and the suites, which cases are checked, the problem settings,
 * the database and how a run is made), its screen and panes, and its loop.
 * The command (src/cli/cmd_tui.c) loads the inputs into a struct tui_app
 * and hands it to tui_app_main(); each pane keeps a pointer to it.
 *
 * The TUI never talks to the GPU: the catalog comes from the worker's
 * --catalog mode, and runs go through a session (session.h): the same
 * workers, watchdog and database sink as for "conform run".
 */
#ifndef CONFORM_TUI_APP_H
#define CONFORM_TUI_APP_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "common/sanitizer_report.h"
#include "common/timing.h"
#include "session/catalog_client.h"
#include "suite/suite.h"
#include "tui/tui_screen.h"
#include "tune/tune.h"

struct db;

/* Sizes offered as presets: 2^10, 2^12, ..., 2^30. */
#define TUI_PRESET_FIRST 10
#define TUI_PRESET_LAST 30
#define TUI_PRESET_STEP 2
#define TUI_PRESET_COUNT ((TUI_PRESET_LAST - TUI_PRESET_FIRST) / TUI_PRESET_STEP + 1)
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

/* What r does with the checked cases: run them for conformance, or time
 * every configuration of their variants' tuning spaces (the tuner's
 * exhaustive strategy), or anneal through them within a budget.  Sweeps and
 * tunes are tune.c's, as for "conform tune". */
enum tui_mode { TUI_MODE_CONFORMANCE, TUI_MODE_SWEEP, TUI_MODE_TUNE, TUI_MODE_COUNT };

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

	volatile sig_atomic_t stop; /* the runner's stop flag: 'c', 'q' or a signal */
	int running;
	int quit;

	struct tui_screen screen;
	struct tui_pane *panes[TUI_PANE_COUNT];
};

/* Checked cases. */
size_t tui_app_checked_count(const struct tui_app *app);
/* 1 when some checked case belongs to variant `name`. */
int tui_app_variant_checked(const struct tui_app *app, const char *name);

/* The cases a run of the checked cases is made of, the problem settings
 * applied (tui_problem.c): copies in *out (malloc'd; free it), *skipped
 * counts the combinations left out (a dtype the variant lacks).  Returns 0,
 * or -1 when out of memory. */
int tui_problem_cases(const struct tui_app *app, struct case_spec **out, size_t *count,
		      size_t *skipped);

/* What a sweep or tune of the cases (tui_problem_cases') is, as r makes it
 * in app->mode (tui_problem.c, for the problem pane's count and the run):
 * one element type (the problem's, else the first case's); each tunable
 * variant of the cases of that type once (references left out: every sweep
 * measures them); the distinct sizes of those cases; the tuner's options
 * (exhaustive for a sweep, anneal within app->tune_budget for a tune); and
 * the evaluations the searches make in all sizes - the run's total. */
struct tui_tune_plan {
	struct tune_options o;
	const struct catalog_entry **variants;
	size_t nvariants;
	int64_t *sizes;
	size_t nsizes;
	uint64_t evaluations;
	/* Reference measurements besides, at most: each family's copy and
	 * baseline at each size (a copy bandwidth stored for the device is
	 * read instead of measured). */
	uint64_t references;
};

/* Fills plan (free it with tui_tune_plan_free).  Returns 0, or -1 when out
 * of memory (plan empty). */
int tui_tune_plan_make(const struct tui_app *app, const struct case_spec *cases, size_t n,
		       struct tui_tune_plan *plan);
void tui_tune_plan_free(struct tui_tune_plan *plan);

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

/* Runs the checked cases (tui_run.c): the run pane comes on screen and the
 * run - conformance, sweep or tune - is begun (app->running); the main loop
 * then calls tui_run_step() until running drops (tui_app.c). */
void tui_run_checked(struct tui_app *app);

/* Runs case c alone for conformance, each time under compute-sanitizer's
 * tool (tui_run.c; S in the results pane): the run r makes, of one case,
 * with *seed (NULL: the seed r would take).  The tool is found as "conform
 * run --sanitize" finds it; without one the case is a SKIP that says why,
 * and a CONFORM_SANITIZER that is no program is a note and no run. */
void tui_run_sanitized(struct tui_app *app, const struct case_spec *c, const uint64_t *seed,
		       enum sanitizer_tool tool);

/* One step of the run in progress: waits at most wait_s for the worker,
 * updates the run pane, and ends the run when it is done or cancelled. */
void tui_run_step(struct tui_app *app, double wait_s);

/* Cases done and in the run in progress (or the last run). */
void tui_run_progress(struct tui_pane *run, size_t *done, size_t *total);

/* Re-reads the results pane's run from the database; with latest, moves it
 * to the newest run first. */
void tui_results_reload(struct tui_pane *results, int latest);

#endif
