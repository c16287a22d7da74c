/*
 * watchdog.c - deadlines for cases (see watchdog.h).
 *
 * A hung kernel cannot be cancelled from inside its process; killing the
 * process frees the GPU, and a fresh worker initialises CUDA in a fraction of
 * a second.  So the only remedy the watchdog needs is SIGKILL.
 */
#include "watchdog.h"

#include <stdio.h>
#include <string.h>

#include "proto.h"
#include "text.h"

int watchdog_run_case(struct worker *w, const struct case_spec *c, uint64_t seed,
		      const struct timing_request *timing, double timeout_s,
		      const volatile sig_atomic_t *stop,
		      const struct wait_ticker *t, struct case_result *r)
{
	char line[PROTO_LINE_MAX];
	unsigned seq = (unsigned)++w->cases_run;
	memset(r, 0, sizeof *r);
	r->err_norm = -1;

	if (proto_format_run(line, sizeof line, seq, c, seed, timing) < 0) {
		case_result_set(r, OUTCOME_INVALID, "case does not fit in a protocol line");
		return 0;
	}
	if (worker_send(w, line) < 0) {
		char how[256];
		worker_reap(w, how, sizeof how);
		case_result_set(r, OUTCOME_CRASHED, "worker %s before the case started", how);
		return 0;
	}
	enum wait_result wr = worker_read_line(w, text_now() + timeout_s, line, sizeof line, stop, t);
	switch (wr) {
	case WAIT_LINE:
		break;
	case WAIT_TIMEOUT:
		worker_kill(w);
		case_result_set(r, OUTCOME_HUNG, "no result within %.1f s; worker killed", timeout_s);
		return 0;
	case WAIT_INTERRUPTED:
		worker_kill(w);
		return -1;
	case WAIT_EOF:
	case WAIT_IO_ERROR: {
		char how[256];
		worker_reap(w, how, sizeof how);
		case_result_set(r, OUTCOME_CRASHED, "worker %s", how);
		return 0;
	}
	}
	unsigned got;
	if (proto_parse_done(line, &got, r) < 0 || got != seq) {
		worker_kill(w);
		memset(r, 0, sizeof *r);
		r->err_norm = -1;
		case_result_set(r, OUTCOME_ERROR, "worker protocol error: unexpected reply '%.80s'", line);
		return 0;
	}
	if (r->fatal)
		worker_stop(w); /* it exits by itself after a fatal error */
	return 0;
}
