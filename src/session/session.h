/*
 * session.h - one run of cases, set up and driven the same way for every
 * command: "conform run", "conform tune"/"bench" and the TUI.
 *
 * A session is a runner (workers, watchdog) plus the sinks its results go
 * to, the database first, so that every result is committed before anyone
 * else sees it.  It defines the run defaults once (the catalog's and the
 * worker's start deadlines, the cases' deadlines).
 *
 * A conformance run is stepped: session_run_begin() takes the case list,
 * each session_step() waits at most the time it is given and says whether
 * the case in flight is still running, a result was reported, or the run is
 * done.  The CLI loops over steps (session_run); the TUI takes one step per
 * turn of its own main loop, between reading keys.  A tune builds its own
 * cases one at a time (tune.c) and runs each with session_run_case() through
 * the same runner path, reporting with session_report().  With kernel files
 * and a GPU, the session compiles their configurations ahead of the cases
 * (compile_pool.h): a run names all of its cases' when it begins, a tune
 * what its search asks next (session_compile_ahead).
 *
 * Invariant: every case of a conformance run yields exactly one result for
 * the sinks, in order, unless the run is interrupted, in which case the case
 * in flight yields none and every case before it was reported.
 */
#ifndef CONFORM_SESSION_H
#define CONFORM_SESSION_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "session/catalog_client.h"
#include "session/db_sink.h"
#include "session/device_set.h"
#include "session/report_sink.h"
#include "session/runner.h"

/* The worker has this long to list its catalog and exit (it touches no
 * GPU: this is a thousand times what it needs). */
#define SESSION_CATALOG_TIMEOUT_S 1.5
/* A fresh worker has as long to initialise CUDA and greet as an ordinary
 * case has to run (the run's timeout_s, --timeout), but never less than
 * this: a deadline chosen for tiny kernels must not starve CUDA's start. */
#define SESSION_START_MIN_S 2.0
/* The deadline of an ordinary case, and of a case that is expected to hang
 * (or may: undefined, crash), unless the command line says otherwise. */
#define SESSION_TIMEOUT_S 10.0
#define SESSION_HANG_TIMEOUT_S 2.0
/* The deadline of compiling a user's kernel for a case (variant.h's
 * build()), kept apart from the case's own: NVRTC takes a second or two,
 * a heavy template far longer, and neither is the kernel's fault. */
#define SESSION_BUILD_TIMEOUT_S 300.0
/* How long one step of a command-line run waits: the console's watchdog
 * countdown moves ten times a second. */
#define SESSION_STEP_S 0.1
/* The time one search for a smallest failing size takes at most, unless
 * the command line says otherwise (run --shrink-time). */
#define SESSION_SHRINK_S 120.0

#define SESSION_SINKS_MAX 6
/* The most lanes a conformance run takes on one device (--jobs), and on
 * all of them. */
#define SESSION_JOBS_MAX 16
#define SESSION_LANES_MAX 64

/* --jobs' default: half the processors, 1 to 4 lanes. */
int session_jobs_default(void);

struct baseline;
struct db;

struct session_config {
	const char *worker_path;
	int device;
	/* --devices: a conformance run's lanes spread over these GPUs, each
	 * result stored with the device it ran on.  NULL, or none given:
	 * device alone.  Every device named must answer with a GPU, unless
	 * the first has none (then the run is the first's, its GPU cases
	 * skipped). */
	const struct device_set *devices;
	int verbose;                         /* the worker's stderr passes through */
	double timeout_s, hang_timeout_s;    /* see runner_config */
	uint64_t seed;                       /* the run's seed (stored with it) */
	const struct timing_request *timing; /* NULL: conformance only */
	int invalid_is_skip;                 /* see runner_config */
	const struct catalog *catalog;
	struct db *db;                       /* where results are committed */
	const volatile sig_atomic_t *stop;   /* Ctrl-C, or the TUI's cancel */
	const char *command_line;
	enum run_kind kind;
	const char *tag;                     /* --tag NAME; NULL: none */
	const struct kernel_list *kernels;   /* --kernel files; NULL: none */
	double build_timeout_s;              /* 0: SESSION_BUILD_TIMEOUT_S */
	/* The cases known to fail here (run --baseline); NULL: none.  It
	 * must stay until the session is closed. */
	const struct baseline *baseline;
	/* Told, instead of stderr, each time a write waits for another
	 * process's lock (db_state.waiting); NULL: stderr. */
	void (*db_waiting)(void *ctx, const char *line);
	void *db_waiting_ctx;
	/* A conformance run's lanes: cases run on this many workers at once
	 * (session_lanes.c), reported in order, on each device.  0:
	 * session_jobs_default().
	 * A run that times cases (timing) always takes one, so that no two
	 * timed kernels share the GPU. */
	int jobs;
	/* run --sanitize (runner_config): the tool, its path, and why it
	 * was not found (NULL path: every case a SKIP saying so). */
	enum sanitizer_tool sanitize;
	const char *sanitizer;
	const char *sanitizer_missing;
	/* After the last case, search for each failing group's smallest
	 * failing problem (session_diagnose.h): run --shrink, and by
	 * default run --kernel. */
	int shrink;
	double shrink_s;                     /* each search's time; 0: SESSION_SHRINK_S */
};

/*
 * The configuration every session starts from: the worker and its catalog,
 * the database results are committed to, the stop flag and the command
 * line the run is stored with; a conformance run (RUN_CONFORMANCE) on
 * device 0 at the default deadlines (SESSION_TIMEOUT_S,
 * SESSION_HANG_TIMEOUT_S), verbose off, seed 0, no timing, kernel files,
 * tag, baseline, sanitizer or shrinking, and the fields whose 0 means the
 * session's default (jobs, build_timeout_s, shrink_s) at 0.  The caller
 * then sets only what differs.
 */
void session_config_init(struct session_config *cfg, const char *worker_path,
			 const struct catalog *catalog, struct db *db,
			 const volatile sig_atomic_t *stop, const char *command_line);

/* A result as the diagnosis after the run reads it (session_diagnose.h). */
struct session_seen {
	const struct case_spec *c;
	enum status status;
	enum outcome outcome;
};

enum session_step {
	SESSION_BUSY,       /* a case is in flight (the sinks had a tick) */
	SESSION_RESULT,     /* a case's result went to the sinks */
	SESSION_DONE,       /* every case reported, or interrupted; sinks ended */
	SESSION_FAILED,     /* a sink failed (message in err); the run stops */
};

struct session {
	struct runner rn;                    /* rn.rc: the device, the seed */
	struct db_state dbst;
	struct report_sink sinks[SESSION_SINKS_MAX]; /* [0]: the database */
	size_t nsinks;
	int opened, begun;
	struct run_summary sum;              /* what went to the sinks */
	const struct baseline *baseline;     /* session_config.baseline */
	double started;
	/* A conformance run's cases: next is the next to report; the lanes
	 * (session_lanes.c, lane 0 is rn) run them, opened by the first run. */
	const struct case_spec *const *cases;
	size_t ncases, next;
	int jobs;                            /* lanes a conformance run takes per device (session_config.jobs) */
	struct session_lanes *lanes;
	/* The devices of the run: dev[k] is the ordinal, dev_rn[k] the runner
	 * that first greeted from it ([0] is &rn; the others are the first
	 * lanes of their devices), gpus[k] what it said (rn.rc.devices). */
	int ndev;
	int dev[DEVICE_SET_MAX];
	struct runner *dev_rn[DEVICE_SET_MAX];
	struct gpu_info gpus[DEVICE_SET_MAX];
	/* User kernels' configurations compiled ahead of their cases
	 * (compile_pool.h), for the first device's architecture; NULL: no
	 * kernel files, no GPU, or CONFORM_COMPILE_JOBS=0. */
	struct compile_pool *pool;
	/* The run's results so far, for the diagnosis after its last case
	 * (session_diagnose.h); diagnosed: it ran for this run. */
	struct session_seen *seen;
	size_t nseen, seen_cap;
	int shrink, diagnosed;
	double shrink_s;
	int diagnosis_stopped;               /* a stop cut the diagnosis short */
};

/* A fresh worker's deadline to greet, for a run whose ordinary cases have
 * timeout_s: the larger of the two above. */
double session_start_timeout(double timeout_s);

/* The worker's path and its catalog, with the user's kernel files
 * (kernels may be NULL; their source hashes are pinned from the catalog),
 * for a command about to run cases.  Returns 0, or -1 with a message. */
int session_find_worker(char *path, size_t plen, struct kernel_list *kernels,
			struct catalog *cat, char *err, size_t len);

/* Starts the shared worker, which tells whether there is a GPU (s->rn.rc),
 * and sets up the database sink.  Returns 0, or -1 with a message (s is
 * then closed).  s must stay where it is until session_close(). */
int session_open(struct session *s, const struct session_config *cfg, char *err, size_t len);

/* Adds a sink after the database.  Returns 0, or -1 when there are too
 * many (a programming error). */
int session_add_sink(struct session *s, const struct report_sink *sink);

/* Tells the sinks a run of `total` cases begins (the database stores its
 * run row).  Returns 0, or -1 with a message. */
int session_begin(struct session *s, size_t total, char *err, size_t len);

/* Counts a result and hands it to the sinks.  When the session's baseline
 * lists the case, the sinks see it with the baseline's reason (a failure's
 * message then begins with the note, baseline.h), and it counts as known
 * or fixed.  Returns 0, or -1 with a message when a sink failed. */
int session_report(struct session *s, const struct result *r, size_t index, size_t total,
		   char *err, size_t len);

/* The cases whose user kernels are to be compiled next, soonest first
 * (those of built-in variants, and those that would be skipped, are passed
 * over): they replace the ones told before and not started yet
 * (compile_pool_ahead).  Nothing without a pool. */
void session_compile_ahead(struct session *s, const struct case_spec *const *cases, size_t n);
/* How many configurations are worth naming to session_compile_ahead at a
 * time: the compiles the pool runs at once, 0 without a pool. */
size_t session_compile_width(const struct session *s);

/* Runs one case to its result, the sinks ticking while it runs; nothing is
 * reported.  Returns 0 (res filled and judged), or 1 when interrupted. */
int session_run_case(struct session *s, const struct case_spec *c, uint64_t seed,
		     struct result *res);

/* Tells the sinks the run ended (once; s->sum.interrupted as it is).
 * Returns 0, or -1 with a message. */
int session_end(struct session *s, char *err, size_t len);

/* A conformance run of cases[0..n): session_begin, then steps.  The cases
 * must stay until the run is done. */
int session_run_begin(struct session *s, const struct case_spec *const *cases, size_t n,
		       char *err, size_t len);
enum session_step session_step(struct session *s, double wait_s, char *err, size_t len);
/* session_run_begin and steps until done: for the command line. */
enum session_step session_run(struct session *s, const struct case_spec *const *cases, size_t n,
			      char *err, size_t len);

/* Stops the workers.  An unended run stays "running" in the database, as
 * after a kill -9: call session_end first. */
void session_close(struct session *s);

#endif
