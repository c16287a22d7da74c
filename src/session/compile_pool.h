/*
 * compile_pool.h - user kernels' configurations compiled ahead of their
 * cases, several at once, by compile-only workers.
 *
 * NVRTC takes a second or more per configuration (1.6 s for a
 * cooperative-groups kernel, most of it the headers), one after another
 * in the worker that runs the cases.  The pool fills the compile cache
 * (user_build.h) meanwhile: it keeps up to `cap` compile-only workers
 * (conform-worker --compile-for SM: no CUDA, no context) busy with the
 * configurations it was told are coming (compile_pool_ahead), so that
 * the case's own BUILD finds its code in the cache.  Processes rather than
 * threads: NVRTC compiles of separate programs in one process were
 * reported to serialise on shared state, and a compiler that crashes or
 * hangs takes only its own worker with it.
 *
 * Nothing the pool does changes a result: a configuration it did not
 * compile (not told of it, not started yet, or its compile failed in a way
 * of its own: a hang, a crash) is compiled by the case's worker as
 * before.  Only two answers are used: RUNNING (the case waits for it
 * rather than compile the same program twice) and a compile error, which
 * is the same DONE line the case's worker would have sent (user_compile.h)
 * and stands for its BUILD.
 *
 * A configuration is a variant, a dtype and the parameters (tunables and
 * op): what makes the program, whatever the problem's size.  One pool
 * compiles for one architecture, the device's.  Single-threaded: it moves
 * on when polled (compile_pool_poll), which the runner does at every
 * step.  No global state: each session has its own pool.
 */
#ifndef CONFORM_COMPILE_POOL_H
#define CONFORM_COMPILE_POOL_H

#include <signal.h>
#include <stddef.h>

#include "common/case.h"
#include "session/worker.h"

/* The most compiles at once, whatever CONFORM_COMPILE_JOBS says. */
#define COMPILE_POOL_MAX 256

/* How many compiles run at once: $CONFORM_COMPILE_JOBS (0 turns the pool
 * off), else the processors online.  Returns 0 with *jobs, or -1 with a
 * message when the variable is malformed. */
int compile_pool_jobs(int *jobs, char *err, size_t len);

struct compile_pool_config {
	/* The workers' path, kernel files, verbosity, start deadline; the
	 * pool sets compile_for and its own reaper. */
	struct worker_config worker;
	int sm;                  /* the architecture compiled for: 90 for sm_90 */
	int cap;                 /* compiles at once, 1..COMPILE_POOL_MAX */
	double timeout_s;        /* one compile's deadline */
	const volatile sig_atomic_t *stop;
};

struct compile_pool;

/* A pool that has started nothing yet (its workers start with the first
 * configurations it is told of).  NULL when out of memory. */
struct compile_pool *compile_pool_new(const struct compile_pool_config *cfg);

/* Ends every compile (killing those in flight) and frees the pool. */
void compile_pool_free(struct compile_pool *p);

/* The configurations of cases[0..n), soonest first, are the ones to
 * compile next: they replace those told before and not started yet (a
 * search that changed its mind does not leave them queued).  Compiles
 * in flight go on; a configuration compiled already is not again.  Starts
 * what it can at once. */
void compile_pool_ahead(struct compile_pool *p, const struct case_spec *const *cases, size_t n);

/* Collects finished compiles and starts waiting ones, waiting until the
 * monotonic time `until` at most for one to finish (a time past: no
 * wait). */
void compile_pool_poll(struct compile_pool *p, double until);

enum compile_claim {
	COMPILE_NONE,            /* nothing for the case: its worker builds it */
	COMPILE_RUNNING,         /* being compiled: wait (compile_pool_poll) and claim again */
	COMPILE_FAILED,          /* it does not compile: *r is the BUILD's answer */
};

/* What the pool has for case c's configuration, which its worker is about
 * to build.  One told of and not started goes first when a worker of the
 * pool is free or starting (COMPILE_RUNNING), and is withdrawn otherwise
 * (COMPILE_NONE: the case's worker compiles it now rather than wait for a
 * compile to end). */
enum compile_claim compile_pool_claim(struct compile_pool *p, const struct case_spec *c,
				      struct case_result *r);

/* The architecture the pool compiles for, and how many compiles it runs
 * at once. */
int compile_pool_sm(const struct compile_pool *p);
int compile_pool_cap(const struct compile_pool *p);

/* The most compiles that were in flight at once, and how many were sent
 * (for the tests). */
int compile_pool_peak(const struct compile_pool *p);
size_t compile_pool_sent(const struct compile_pool *p);

#endif
