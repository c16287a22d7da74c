/*
 * tui_runctl.h - the interface's run controller: what r (and the results
 * pane's S) make of the checked cases, and the run in progress - planned,
 * started, stepped between keys and cancelled here, whatever its kind:
 * a conformance run (each case under compute-sanitizer for S), a sweep of
 * every configuration, or a tune within a budget.
 *
 * Invariants: at most one run is in progress, and active says so (nothing
 * else does); what a run holds is freed when it ends, however it ends.  The
 * controller never touches the screen or a pane: it announces what happens
 * (a run started, its row stored, a case in flight, a result stored, a size
 * swept, a log line, a note, a wait, the run finished) to its observers,
 * and the panes and the application keep themselves up to date from that
 * and from the state below, which they only read.
 *
 * Runs are the CLI's: a session (session/session.h) with the database sink
 * first, so a result is stored where "conform" and sqlite3 see it, or the
 * tuner's stepped sweep (tune_sweep_begin/tune_sweep_step, tune/tune.h),
 * one size after the other, as "conform tune" makes it.
 */
#ifndef CONFORM_TUI_RUNCTL_H
#define CONFORM_TUI_RUNCTL_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "common/sanitizer_report.h"
#include "common/status.h"
#include "session/report_sink.h"
#include "session/session.h"
#include "tui/tui_eta.h"
#include "tui/tui_term.h"
#include "tune/tune.h"

struct tui_app;

/* What r does with the checked cases: run them for conformance, or time
 * every configuration of their variants' tuning spaces (the tuner's
 * exhaustive strategy), or anneal through them within a budget.  Sweeps and
 * tunes are tune.c's, as for "conform tune". */
enum tui_mode { TUI_MODE_CONFORMANCE, TUI_MODE_SWEEP, TUI_MODE_TUNE, TUI_MODE_COUNT };

/* The cases a run of the checked cases is made of, the problem settings
 * applied: copies in *out (malloc'd; free it), *skipped counts the
 * combinations left out (a dtype the variant lacks).  Returns 0, or -1 when
 * out of memory. */
int tui_runctl_cases(const struct tui_app *app, struct case_spec **out, size_t *count,
		     size_t *skipped);

/* What a sweep or tune of the cases (tui_runctl_cases') is, as r makes it
 * in app->mode (for the problem pane's count and the run, so the count
 * shown is the count run): one element type (the problem's, else the first
 * case's); each tunable variant of the cases of that type once (references
 * left out: every sweep measures them); the distinct sizes of those cases;
 * the tuner's options (exhaustive for a sweep, anneal within
 * app->tune_budget for a tune); and the evaluations the searches make in
 * all sizes - the run's total. */
struct tui_runctl_plan {
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

/* Fills plan (free it with tui_runctl_plan_free).  Returns 0, or -1 when
 * out of memory (plan empty). */
int tui_runctl_plan(const struct tui_app *app, const struct case_spec *cases, size_t n,
		    struct tui_runctl_plan *plan);
void tui_runctl_plan_free(struct tui_runctl_plan *plan);

/* What the controller announces.  The state below is already updated when
 * an observer hears it. */
enum tui_runctl_event {
	TUI_RUNCTL_STARTED,  /* a run was begun: mode, total and (conformance) cases are its */
	TUI_RUNCTL_STORED,   /* the database holds the run's row: it is the newest run */
	TUI_RUNCTL_CASE,     /* news.index, a conformance run's case, is in flight or back waiting */
	TUI_RUNCTL_RESULT,   /* a result was stored: the results changed */
	TUI_RUNCTL_SWEPT,    /* a sweep's or tune's size is done: news.sweep holds its rows */
	TUI_RUNCTL_LOG,      /* a line of the run's log: news.attr, news.text */
	TUI_RUNCTL_NOTE,     /* a one-off note for the user: news.text */
	TUI_RUNCTL_WAITING,  /* about to wait without reading keys (a worker starting, a locked
			      * database): the screen should be brought up to date first */
	TUI_RUNCTL_FINISHED, /* the run ended (or could not begin): nothing is active */
};

/* Where a conformance run's case is (TUI_RUNCTL_CASE). */
enum tui_runctl_case {
	TUI_RUNCTL_CASE_NEXT,      /* in flight, the next to report: the one to follow */
	TUI_RUNCTL_CASE_IN_FLIGHT, /* in flight on one of several devices */
	TUI_RUNCTL_CASE_WAITING,   /* it left its device; its result waits for those before it */
};

struct tui_runctl_news {
	enum tui_runctl_event what;
	size_t index;                   /* CASE, RESULT of a conformance run: the case */
	enum tui_runctl_case where;     /* CASE */
	const struct result *result;    /* RESULT of a conformance run; NULL in a sweep */
	const struct tune_sweep *sweep; /* SWEPT */
	attr_t attr;                    /* LOG */
	const char *text;               /* LOG, NOTE */
};

typedef void (*tui_runctl_observer)(void *ctx, const struct tui_runctl_news *news);

#define TUI_RUNCTL_OBSERVERS_MAX 8

struct tui_runctl {
	struct tui_app *app;       /* the checked cases, the problem, the settings */
	volatile sig_atomic_t stop; /* the runner's stop flag: a cancel or a signal */
	int active;                /* a run is in progress: the one place that says so */

	/* The run in progress, or the last one; observers read these. */
	int ran;                   /* some run was started in this session */
	enum tui_mode mode;        /* of the run */
	enum sanitizer_tool tool;  /* a conformance run's, SANITIZER_NONE: none */
	enum dtype dtype;          /* a sweep's or tune's element type */
	int64_t run_id;            /* 0 until the database holds the run */
	uint64_t seed;
	struct case_spec *cases;   /* a conformance run's, in run order; NULL in a sweep */
	size_t total, done;
	size_t references;         /* of a sweep's total: measured at most, not searched */
	double started, deadline_s, remaining;
	char current[CASE_NAME_MAX]; /* the case (a sweep: variant) in flight, "" between them */
	size_t current_index;      /* the case in flight */
	int counts[STATUS_COUNT];
	char outcome[1100];        /* the last run's summary line, or why it stopped */
	int cancelled;             /* the last run was cancelled (c, q) */
	/* A conformance run over several devices: each one's case in flight
	 * (report_sink.devices). */
	int ndev;
	struct device_activity dev[DEVICE_SET_MAX];
	double ordinary_s;         /* wall time of the cases done that were not */
	size_t ordinary_done;      /* expected to hang, for the ETA */
	/* A sweep's or tune's work at each size, for its ETA: eta[size_index]
	 * is in progress, eta_mark the time the last evaluation heard of
	 * ended (NULL between runs). */
	struct tui_eta_size *eta;
	double eta_mark;

	/* The controller's own: who hears, and what the run holds. */
	struct {
		tui_runctl_observer fn;
		void *ctx;
	} observers[TUI_RUNCTL_OBSERVERS_MAX];
	size_t nobservers;
	char sanitizer[4096];      /* the tool's path, "" when none was found */
	char sanitizer_missing[512]; /* and why not */
	/* A conformance run (a session)... */
	struct session *ss;
	const struct case_spec **sel;
	char *cmdline;
	/* ... or a sweep or tune, one size after the other. */
	struct tune_session *ts;
	const struct catalog_entry **variants;
	size_t nvariants;
	int64_t *sizes;
	size_t nsizes, size_index;
	struct tune_sweep sw;
};

void tui_runctl_init(struct tui_runctl *rc, struct tui_app *app);

/* Adds an observer: fn(ctx, news) hears everything announced from now on,
 * in the order added.  Returns 0, or -1 when the list is full. */
int tui_runctl_observe(struct tui_runctl *rc, tui_runctl_observer fn, void *ctx);

/* r: begins a run of the checked cases in app->mode, or notes why none
 * (nothing checked, no tuning space, out of memory).  Not while active. */
void tui_runctl_start(struct tui_runctl *rc);

/* S: begins the run r makes, of case c alone for conformance, under
 * compute-sanitizer's tool, with *seed (NULL: the seed r would take).  The
 * tool is found as "conform run --sanitize" finds it; without one the case
 * is a SKIP that says why, and a CONFORM_SANITIZER that is no program is a
 * note and no run.  Not while active. */
void tui_runctl_start_sanitized(struct tui_runctl *rc, const struct case_spec *c,
				const uint64_t *seed, enum sanitizer_tool tool);

/* One step of the run in progress: waits at most wait_s for the worker,
 * and ends the run when it is done or cancelled.  Nothing when idle. */
void tui_runctl_step(struct tui_runctl *rc, double wait_s);

/* Asks the run in progress to stop: the next step kills the worker and
 * ends it, and the database records it as interrupted.  Nothing when idle. */
void tui_runctl_cancel(struct tui_runctl *rc);

/* Seconds left of the run in progress, elapsed_s after it started: in a
 * conformance run, the ordinary cases at the pace so far and each case
 * expected to hang at its whole deadline (the one in flight at what is left
 * of it); in a sweep, each size's work at that size's pace (tui_eta.h).
 * -1 when there is no estimate yet: nothing done, or a sweep's sizes to
 * come that what was measured says nothing of. */
double tui_runctl_eta_s(const struct tui_runctl *rc, double elapsed_s);

#endif
