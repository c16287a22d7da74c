/*
 * runner.h - runs cases through workers under the watchdog, one step at a
 * time.
 *
 * Safe cases share one worker (CUDA is initialised once).  Cases that may
 * hang, crash or do something undefined (expect hang, crash, undefined) each
 * run alone in a fresh worker under the shorter hang deadline, so a hung GPU
 * context never holds up the shared worker.  A worker that hangs, dies or
 * reports a fatal CUDA error is replaced before the next case.
 *
 * A case is started with runner_case_start() and then polled with
 * runner_case_poll(), each poll waiting at most as long as its caller
 * allows; the case's deadline is kept whatever the polls.  Neither waits
 * for a worker to start or to end: a fresh worker's greeting (its CUDA
 * start, tenths of a second) is looked for by the polls, and ended
 * workers go to the runner's reaper (reaper.h), so a run's other lanes go
 * on meanwhile.  (One that fails to start, or dies before it takes its
 * case, is still waited for, up to WORKER_REAP_S, to say how it ended.)
 * So a caller with a loop of its own (the TUI) stays in charge, and every
 * kind of case - conformance or tuning evaluation - takes this one road to
 * a judged result.
 */
#ifndef CONFORM_RUNNER_H
#define CONFORM_RUNNER_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "common/case.h"
#include "common/sanitizer_report.h"
#include "session/catalog_client.h"
#include "session/compile_pool.h"
#include "session/report_sink.h"
#include "session/watchdog.h"
#include "session/worker.h"

struct runner_config {
	struct worker_config worker;
	double timeout_s;        /* deadline for ordinary cases */
	double hang_timeout_s;   /* deadline for cases expected to hang (or undefined) */
	double build_timeout_s;  /* deadline for building a user kernel's case */
	uint64_t seed;
	const struct timing_request *timing; /* NULL: conformance only */
	/* Tuning: a configuration the variant's contract refuses is a SKIP,
	 * not an ERROR - a search runs into the edges of what a kernel
	 * accepts on purpose. */
	int invalid_is_skip;
	const struct catalog *catalog;
	const volatile sig_atomic_t *stop;  /* set by Ctrl-C, or the TUI's cancel */
	const char *command_line;
	enum run_kind kind;      /* stored with the run */
	const char *tag;         /* --tag NAME; NULL: none */
	/* User kernels compiled ahead (compile_pool.h), the session's; NULL:
	 * none.  A case to build whose configuration it is compiling waits
	 * for it rather than compile it again; one that failed to compile
	 * there takes the pool's answer as its BUILD's.  Used on a device of
	 * the pool's architecture only, and moved on at every poll. */
	struct compile_pool *pool;
	/* run --sanitize: every case runs alone, in a worker under
	 * compute-sanitizer's tool (at `sanitizer`), its deadlines scaled
	 * by runner_sanitize_factor; the tool's report becomes the case's
	 * (result.finding).  SANITIZER_NONE: not.  With a tool and no
	 * sanitizer, every case is a SKIP saying sanitizer_missing. */
	enum sanitizer_tool sanitize;
	const char *sanitizer;
	const char *sanitizer_missing;
};

struct runner {
	struct runner_config cfg;
	struct worker shared;
	struct run_context rc;
	/* The case in flight (busy != NULL): on the shared worker or on own. */
	struct worker own;
	struct worker *busy;
	/* busy was started for the case and has not greeted yet: the case is
	 * sent once it does, or is an ERROR at start_deadline. */
	int starting;
	double start_deadline;
	/* The last case's result is an ERROR because the shared worker did
	 * not start (runner_shared_failed). */
	int shared_failed;
	struct watchdog_case wc;
	double started;
	/* The case in flight is being built (BUILD sent), not yet run. */
	int building;
	/* Its configuration is being compiled by the pool: the BUILD waits
	 * for it, until await_deadline at most (the build's deadline). */
	int awaiting;
	double await_deadline;
	const struct case_spec *c;
	uint64_t seed;
	char build_note[512];    /* the build's compiler warnings, for the case's message */
	char san_log[256];       /* the case's sanitizer log file; "" when none */
	struct reaper reaper;    /* its workers that are ending */
};

enum runner_poll {
	RUNNER_BUSY,             /* the case is still running */
	RUNNER_RESULT,           /* the result is filled and judged */
	RUNNER_INTERRUPTED,      /* *stop: the case was killed and has no result */
};

/* Starts the shared worker and learns the device.  Returns 0, or -1 with a
 * message when no worker can be started at all. */
int runner_open(struct runner *rn, const struct runner_config *cfg, char *err, size_t len);
/* runner_open in two halves (worker_launch, worker_greet): several
 * runners' workers initialise CUDA at the same time.  A runner whose
 * launch or greeting failed is closed already. */
int runner_launch(struct runner *rn, const struct runner_config *cfg, char *err, size_t len);
int runner_greet(struct runner *rn, char *err, size_t len);

/* Ends the runner's workers and waits for every one to be gone. */
void runner_close(struct runner *rn);
/* Tells an idle runner's worker to exit (worker_hangup) without waiting:
 * several runners closed together exit side by side. */
void runner_hangup(struct runner *rn);

/* The deadline the case runs under: its own, else the run's for its
 * expectation; while a user's kernel is being built for it, the build's. */
double runner_case_deadline(const struct runner *rn, const struct case_spec *c);

/* Starts case c with input seed `seed` (res->c, seed and err_norm set):
 * skipped with the reason when it cannot run here, else sent to the shared
 * worker (started afresh if the last case killed it) or, for a case that
 * may hang or crash, to a worker of its own.  Returns RUNNER_BUSY (poll it),
 * RUNNER_RESULT when the result is already known (skipped, no worker), or
 * RUNNER_INTERRUPTED. */
enum runner_poll runner_case_start(struct runner *rn, const struct case_spec *c, uint64_t seed,
				   struct result *res);

/* Waits at most wait_s for the case in flight.  On RUNNER_RESULT res has
 * the outcome, its status (status_judge), the timing and the wall time. */
enum runner_poll runner_case_poll(struct runner *rn, double wait_s, struct result *res);

/* Seconds left before the case in flight's deadline (0 when none); the
 * whole deadline while its worker starts. */
double runner_case_remaining(const struct runner *rn);

/* How many of the runner's killed workers are still ending (reaper.h):
 * a hung kernel among them may still hold its GPU. */
int runner_ending(struct runner *rn);

/* Whether the last case's result is an ERROR only because the shared
 * worker did not start: a case that never reached a worker, which a run
 * may give to another runner. */
int runner_shared_failed(const struct runner *rn);

/* Opens rn as a runner like `like` (greeted; same configuration, device
 * and run) with no shared worker of its own yet: one for cases that run
 * alone (a run's extra lanes for them) costs no worker until it has one. */
void runner_open_bare(struct runner *rn, const struct runner *like);

/* How many times longer a case may take under the tool: its deadlines
 * (the case's, the worker's start) are multiplied by it. */
double runner_sanitize_factor(enum sanitizer_tool t);

/* Whether case c may hang, crash or be undefined (expect hang, crash,
 * undefined): it runs in a worker of its own, under the hang deadline. */
int runner_runs_alone(const struct case_spec *c);

/* Why a case cannot run here (requirement not met, no GPU, no kernels):
 * returns 1 with the reason, or 0 when it can run. */
int runner_skip_reason(const struct runner *rn, const struct case_spec *c, char *why, size_t len);

#endif
