/*
 * watchdog.h - one case on one worker, under a deadline.
 *
 * The watchdog sends the case, then waits for its result in steps of the
 * caller's choosing until the deadline, and turns what happened into an
 * outcome: the worker's own report, or HUNG (deadline expired: the worker's
 * process group is SIGKILLed), or CRASHED (the worker died).  After HUNG,
 * CRASHED, a fatal CUDA error or an interruption the worker is gone
 * (w->pid == 0) and the caller starts a new one for the next case.
 *
 * Waiting in steps lets a caller with its own loop (the TUI) keep answering
 * while a case hangs; the deadline is the case's, whatever the steps.
 */
#ifndef CONFORM_WATCHDOG_H
#define CONFORM_WATCHDOG_H

#include <signal.h>
#include <stdint.h>

#include "common/case.h"
#include "common/proto.h"
#include "session/worker.h"

/* A case in flight on a worker. */
struct watchdog_case {
	struct worker *w;
	unsigned seq;           /* the RUN (or BUILD) line's sequence number */
	enum proto_verb verb;
	double timeout_s;
	double deadline;        /* monotonic (text_now) */
	/* The worker's pipe closed: it is waited for, until reap_deadline,
	 * to say how it ended, by the polls. */
	int reaping;
	double reap_deadline;
};

enum watchdog_state {
	WATCHDOG_PENDING,       /* no result yet, deadline not reached */
	WATCHDOG_DONE,          /* r is filled */
	WATCHDOG_INTERRUPTED,   /* *stop was set: the worker is killed, r not filled */
};

/* Sends the case to w (RUN, or BUILD: make it ready, proto.h) and arms
 * its deadline.  Returns WATCHDOG_PENDING,
 * WATCHDOG_DONE with r filled when it could not be sent (the worker died,
 * or did not take the case within timeout_s: HUNG), or
 * WATCHDOG_INTERRUPTED (*stop was set while waiting to send). */
enum watchdog_state watchdog_send(struct watchdog_case *wc, struct worker *w, enum proto_verb verb,
				  const struct case_spec *c, uint64_t seed,
				  const struct timing_request *timing, double timeout_s,
				  const volatile sig_atomic_t *stop, struct case_result *r);

/* Waits for the result until the monotonic time `until` or the case's
 * deadline, whichever comes first. */
enum watchdog_state watchdog_poll(struct watchdog_case *wc, double until,
				  const volatile sig_atomic_t *stop, struct case_result *r);

#endif
