/*
 * tune.h - the tuner: one sweep (a problem size) at a time, it measures a
 * family's references (copy bandwidth, untuned baseline) and searches each
 * variant's tuning space, every evaluation a case run by a worker under the
 * watchdog and stored as a result of one run.
 *
 * Resuming: a configuration already measured on this device by this build
 * (runs.git_revision) for the same variant, dtype, n, cols and params (op
 * included) is answered from the database instead of measured again, unless
 * `fresh`.  The search then asks the same questions in the same order and
 * ends where it ended before, so an interrupted tune picks up where it
 * stopped.  The sampling options (--hot, --min-samples ...) are not part of
 * that key: after changing them, tune with --fresh.
 */
#ifndef CONFORM_TUNE_H
#define CONFORM_TUNE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "common/dtype.h"
#include "common/objective.h"
#include "common/timing.h"
#include "report/report.h"
#include "session/catalog_client.h"
#include "session/session.h"
#include "tune/tune_search.h"

/* What a variant is measured against, as its family declares it next to
 * its kernels (the worker's catalog carries it).  References are
 * measured, never tuned; globs leave them out. */
struct tune_family {
	const char *copy;                /* copy bandwidth variant, NULL: none */
	int64_t copy_n;                  /* f32 elements it copies */
	const char *baseline;            /* untuned baseline of flat problems, NULL: none */
	const char *baseline_segmented;  /* of rows x cols problems, NULL: none */
};

/* Fills f with the references of variant; returns 1, or 0 (f zeroed) when
 * the catalog has no such variant or it is measured against nothing. */
int tune_family_of(const struct catalog *cat, const char *variant, struct tune_family *f);
/* 1 when the variant is some family's copy or baseline. */
int tune_is_reference(const struct catalog *cat, const char *variant);

struct tune_options {
	enum dtype dtype;
	enum op op;
	int64_t cols;                    /* 0: flat problems */
	const struct tune_strategy *strategy;
	uint64_t budget;                 /* per search; 0: the strategy's default */
	double time_limit_s;             /* per search; 0: none */
	uint64_t seed;                   /* search and input seed */
	int fresh;                       /* measure again what the database has */
	enum objective objective;        /* what the searches minimise and each variant's best is
					  * best by (tune_search.h, tune_tie.h); 0: time */
	struct timing_request timing;    /* timing.energy 0: no energy burst (--no-energy) */
};

enum tune_role { TUNE_TUNED, TUNE_BASELINE, TUNE_COPY };

/* One evaluation as reported: a row of the sweep's table. */
struct tune_row {
	char variant[64];
	char config[CASE_PARAMS_MAX]; /* the configuration without op; "" for defaults */
	enum tune_role role;
	enum status status;              /* SKIP for a configuration the contract refuses */
	enum outcome outcome;
	struct timing_stats timing;      /* samples == 0 when not timed */
	double gbps;                     /* timing.bytes / median; 0 when not timed */
	double copy_gbps;                /* the family's copy bandwidth; 0: unknown */
	double baseline_ms;              /* the family's baseline median; 0: unknown */
	int reused;                      /* answered from the database */
	int best;                        /* its variant's best in this sweep by the objective
					  * (tune_tie.h) */
	int tied;                        /* the measurements cannot tell it from the best
					  * (tune_tie.h); 0 when no other is tied */
	int pareto;                      /* on its variant's time/energy Pareto front in this
					  * sweep (objective_pareto over the variant's timed
					  * correct rows); meaningful only with an energy figure */
	char message[256];
};

/* A family's references in one sweep. */
#define TUNE_FAMILIES_MAX 4
struct tune_refs {
	struct tune_family family;
	double copy_gbps;                /* 0: unknown (no copy variant, no GPU, or it failed) */
	int copy_measured;               /* measured in this sweep, else stored earlier */
	const char *baseline;            /* the baseline variant, NULL: none */
	double baseline_ms;              /* its median; 0: not measured or failed */
};

struct tune_sweep {
	int64_t n;
	struct tune_row *rows;           /* references first, then each variant's rows: its best, then fastest first */
	size_t count, cap;
	struct tune_refs refs[TUNE_FAMILIES_MAX];
	size_t nrefs;
};

/* Told after every evaluation, for a progress line: done of total counts
 * the current variant's measured evaluations, what its budget counts (a
 * configuration its contract refuses is free: it leaves done as it was, and
 * lowers total when the space has fewer left than the budget). */
struct tune_progress {
	void (*fn)(void *ctx, const char *variant, uint64_t done, uint64_t total);
	void *ctx;
};

struct tune_sweeping;
struct tune_reference;

struct tune_session {
	struct tune_options o;
	const struct catalog *cat;
	struct session run;              /* run.rn.rc: the device; run.sum: what it stored */
	int run_open;
	struct run_summary shown;        /* every evaluation, reused ones too */
	uint64_t reused;
	struct tune_progress progress;
	const volatile sig_atomic_t *stop;
	/* The sweep in progress (tune.c), run straight through or stepped. */
	struct tune_sweeping *sweeping;
	/* The references (copy bandwidths, baselines) this session has
	 * measured, a few a sweep: a later sweep, or another family that names
	 * one, shows its row as measured rather than measure it again. */
	struct tune_reference *references;
	size_t nreferences, references_cap;
};

/* Starts the worker, which tells whether there is a GPU (s->run.rn.rc).
 * The variants come from cfg's catalog; cfg's timing and seed are replaced
 * by the options', and every evaluation runs under cfg's timeout_s (each
 * expects to pass).  Returns 0, or -1 with a message.  s must stay where it
 * is until tune_close(). */
int tune_open(struct tune_session *s, const struct tune_options *o, const struct session_config *cfg,
	      char *err, size_t len);

/* Records the device and starts the run row in cfg's database.  Returns 0,
 * or -1 with a message. */
int tune_begin(struct tune_session *s, char *err, size_t len);

/* Runs the sweep of size n over the variants.  Returns 0, 1 when
 * interrupted (the rows so far are kept), or -1 with a message. */
int tune_sweep_run(struct tune_session *s, const struct catalog_entry *const *variants,
		   size_t nvariants, int64_t n, struct tune_sweep *sw, char *err, size_t len);

void tune_sweep_free(struct tune_sweep *sw);

/*
 * The same sweep, stepped, for a caller with a loop of its own (the TUI):
 * tune_sweep_begin() takes the problem, then each tune_sweep_step() waits
 * at most wait_s for the evaluation in flight and, when it has its result,
 * goes on to the next evaluation to wait for.  Both ways drive the same
 * sweep and the same search objects (tune_search.h) one evaluation at a
 * time, so they make the same evaluations in the same order, each run,
 * stored and counted once.  sw is filled when the sweep ends (any step but
 * TUNE_STEP_BUSY).  The variants must stay until the sweep is done.
 */
enum tune_step {
	TUNE_STEP_BUSY,          /* an evaluation is in flight */
	TUNE_STEP_SWEPT,         /* the sweep is done: sw has its rows */
	TUNE_STEP_INTERRUPTED,   /* *stop: sw has the rows so far */
	TUNE_STEP_FAILED,        /* message in err */
};
void tune_sweep_begin(struct tune_session *s, const struct catalog_entry *const *variants,
		      size_t nvariants, int64_t n);
enum tune_step tune_sweep_step(struct tune_session *s, double wait_s, struct tune_sweep *sw,
			       char *err, size_t len);

/* Ends the run row, if begun ("interrupted" or "complete"), and stops the
 * worker.  Returns 0, or -1 with a message. */
int tune_close(struct tune_session *s, int interrupted, char *err, size_t len);

#endif
