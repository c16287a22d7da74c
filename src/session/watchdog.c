/*
 * watchdog.c - deadlines for cases (see watchdog.h).
 *
 * A hung kernel cannot be cancelled from inside its process; killing the
 * process frees the GPU, and a fresh worker initialises CUDA in a fraction of
 * a second.  So the only remedy the watchdog needs is SIGKILL.
 */
#include "session/watchdog.h"

#include <stdio.h>
#include <string.h>

#include "common/proto.h"
#include "common/text.h"

static void result_clear(struct case_result *r)
{
	memset(r, 0, sizeof *r);
	r->err_norm = -1;
}

enum watchdog_state watchdog_send(struct watchdog_case *wc, struct worker *w, enum proto_verb verb,
				  const struct case_spec *c, uint64_t seed,
				  const struct timing_request *timing, double timeout_s,
				  const volatile sig_atomic_t *stop, struct case_result *r)
{
	char line[PROTO_LINE_MAX];
	wc->w = w;
	wc->verb = verb;
	wc->seq = (unsigned)++w->cases_run;
	wc->timeout_s = timeout_s;
	wc->reaping = 0;
	result_clear(r);

	if ((verb == PROTO_BUILD ? proto_format_build(line, sizeof line, wc->seq, c, seed)
	     : proto_format_run(line, sizeof line, wc->seq, c, seed, timing)) < 0) {
		case_result_set(r, OUTCOME_INVALID, "case does not fit in a protocol line");
		return WATCHDOG_DONE;
	}
	/* A worker that stops reading has as long to take the case as to run
	 * it. */
	switch (worker_send(w, line, text_now() + timeout_s, stop)) {
	case SEND_OK:
		break;
	case SEND_GONE: {
		char how[256];
		worker_reap(w, how, sizeof how);
		case_result_set(r, OUTCOME_CRASHED, "worker %s before the case started", how);
		return WATCHDOG_DONE;
	}
	case SEND_TIMEOUT:
		worker_kill(w);
		case_result_set(r, OUTCOME_HUNG, "the worker did not take the case within %.1f s; killed",
				timeout_s);
		return WATCHDOG_DONE;
	case SEND_INTERRUPTED:
		worker_kill(w);
		return WATCHDOG_INTERRUPTED;
	}
	/* The deadline runs from the moment the worker has the case. */
	wc->deadline = text_now() + timeout_s;
	return WATCHDOG_PENDING;
}

/* A worker whose pipe closed (it crashed, or exited): waited for until
 * the step ends, at most WORKER_REAP_S in all, to say how it ended,
 * without holding the caller's loop (a crashed CUDA worker's end can take
 * up to a second). */
static enum watchdog_state reap(struct watchdog_case *wc, double until, const volatile sig_atomic_t *stop,
				struct case_result *r)
{
	char how[256];
	if (stop && *stop) {
		worker_kill(wc->w);
		wc->reaping = 0;
		return WATCHDOG_INTERRUPTED;
	}
	if (!worker_reap_poll(wc->w, until, wc->reap_deadline, how, sizeof how))
		return WATCHDOG_PENDING;
	wc->reaping = 0;
	result_clear(r);
	case_result_set(r, OUTCOME_CRASHED, "worker %s", how);
	return WATCHDOG_DONE;
}

enum watchdog_state watchdog_poll(struct watchdog_case *wc, double until,
				  const volatile sig_atomic_t *stop, struct case_result *r)
{
	char *line;
	struct worker *w = wc->w;
	if (wc->reaping)
		return reap(wc, until, stop, r);
	int step_ends_first = until < wc->deadline;
	enum wait_result wr = worker_read_line(w, step_ends_first ? until : wc->deadline, stop, &line);
	switch (wr) {
	case WAIT_LINE:
		break;
	case WAIT_TIMEOUT:
		if (step_ends_first && text_now() < wc->deadline)
			return WATCHDOG_PENDING;
		worker_kill(w);
		result_clear(r);
		case_result_set(r, OUTCOME_HUNG, "%s within %.1f s; worker killed",
				wc->verb == PROTO_BUILD ? "not compiled" : "no result", wc->timeout_s);
		return WATCHDOG_DONE;
	case WAIT_INTERRUPTED:
		worker_kill(w);
		return WATCHDOG_INTERRUPTED;
	case WAIT_TOO_LONG:
		worker_kill(w);
		result_clear(r);
		case_result_set(r, OUTCOME_ERROR, "worker protocol error: a line of more than %d bytes",
				PROTO_LINE_MAX);
		return WATCHDOG_DONE;
	case WAIT_EOF:
	case WAIT_IO_ERROR:
		wc->reaping = 1;
		wc->reap_deadline = text_now() + WORKER_REAP_S;
		return reap(wc, until, stop, r);
	}
	unsigned got;
	result_clear(r);
	if (proto_parse_done(line, &got, r) < 0 || got != wc->seq) {
		/* Quoted before the kill, which frees the line; made printable
		 * after the cut, which may split a character. */
		char quoted[81];
		text_copy(quoted, sizeof quoted, line);
		text_sanitize(quoted);
		worker_kill(w);
		result_clear(r);
		case_result_set(r, OUTCOME_ERROR, "worker protocol error: unexpected reply '%s'", quoted);
		return WATCHDOG_DONE;
	}
	if (r->fatal)
		worker_stop(w); /* it exits by itself after a fatal error */
	return WATCHDOG_DONE;
}
