/*
 * watchdog.h - one case on one worker, under a deadline.
 *
 * The watchdog sends the case, waits for its result until the deadline, and
 * turns what happened into an outcome: the worker's own report, or HUNG
 * (deadline expired: the worker's process group is SIGKILLed), or CRASHED
 * (the worker died).  After HUNG, CRASHED, a fatal CUDA error or an
 * interruption the worker is gone (w->pid == 0) and the caller starts a new
 * one for the next case.
 */
#ifndef CONFORM_WATCHDOG_H
#define CONFORM_WATCHDOG_H

#include <signal.h>
#include <stdint.h>

#include "case.h"
#include "variant.h"
#include "worker.h"

/* Returns 0, or -1 when *stop interrupted the wait (r is then not filled). */
int watchdog_run_case(struct worker *w, const struct case_spec *c, uint64_t seed,
		      const struct timing_request *timing, double timeout_s,
		      const volatile sig_atomic_t *stop,
		      const struct wait_ticker *t, struct case_result *r);

#endif
