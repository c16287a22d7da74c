/*
 * runner.c - cases on workers, one step at a time (see runner.h).
 *
 * Invariant: a started case ends in exactly one RUNNER_RESULT, unless it is
 * interrupted, in which case it has none; either way its own worker, if it
 * had one, has been told to end or killed by then (the reaper waits for
 * it), so only the shared worker outlives a case.
 */
#include "session/runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/file_read.h"
#include "common/text.h"
#include "session/watchdog.h"

/* The reports kept in a log: the first are the ones a message names. */
#define SANITIZER_PRINT_LIMIT "16"
#define SANITIZER_LOG_MAX (1 << 20)

static void san_log_drop(struct runner *rn);

int runner_open(struct runner *rn, const struct runner_config *cfg, char *err, size_t len)
{
	if (runner_launch(rn, cfg, err, len) < 0)
		return -1;
	return runner_greet(rn, err, len);
}

int runner_launch(struct runner *rn, const struct runner_config *cfg, char *err, size_t len)
{
	memset(rn, 0, sizeof *rn);
	rn->cfg = *cfg;
	rn->cfg.worker.reaper = &rn->reaper;
	rn->own.to_fd = rn->own.from_fd = -1;
	if (worker_launch(&rn->shared, &rn->cfg.worker, err, len) < 0) {
		reaper_drain(&rn->reaper);
		return -1;
	}
	return 0;
}

int runner_greet(struct runner *rn, char *err, size_t len)
{
	const struct runner_config *cfg = &rn->cfg;
	if (worker_greet(&rn->shared, &cfg->worker, cfg->stop, err, len) < 0) {
		reaper_drain(&rn->reaper);
		return -1;
	}
	rn->rc.seed = cfg->seed;
	rn->rc.command_line = cfg->command_line;
	rn->rc.kind = cfg->kind;
	rn->rc.tag = cfg->tag;
	rn->rc.has_gpu = rn->shared.has_gpu;
	rn->rc.gpu = rn->shared.gpu;
	text_copy(rn->rc.nodev_reason, sizeof rn->rc.nodev_reason, rn->shared.nodev_reason);
	return 0;
}

void runner_hangup(struct runner *rn)
{
	if (!rn->busy)
		worker_hangup(&rn->shared);
}

void runner_close(struct runner *rn)
{
	san_log_drop(rn);
	if (rn->busy) /* a case left in flight is abandoned: its worker is killed */
		worker_kill(rn->busy);
	rn->busy = NULL;
	rn->starting = 0;
	worker_stop(&rn->own);
	worker_stop(&rn->shared);
	reaper_drain(&rn->reaper);
}

int runner_ending(struct runner *rn)
{
	reaper_poll(&rn->reaper);
	return reaper_killed(&rn->reaper);
}

int runner_shared_failed(const struct runner *rn)
{
	return rn->shared_failed;
}

void runner_open_bare(struct runner *rn, const struct runner *like)
{
	memset(rn, 0, sizeof *rn);
	rn->cfg = like->cfg;
	rn->cfg.worker.reaper = &rn->reaper;
	rn->rc = like->rc;
	rn->shared.to_fd = rn->shared.from_fd = -1;
	rn->own.to_fd = rn->own.from_fd = -1;
}

static int requirement_met(const struct requirement *q, int sm)
{
	switch (q->cmp) {
	case REQ_GE: return sm >= q->value;
	case REQ_GT: return sm > q->value;
	case REQ_LE: return sm <= q->value;
	case REQ_LT: return sm < q->value;
	case REQ_EQ: return sm == q->value;
	case REQ_NE: return sm != q->value;
	}
	return 0;
}

static const char *cmp_text(enum req_cmp c)
{
	static const char *const t[] = {">=", ">", "<=", "<", "==", "!="};
	return t[c];
}

int runner_skip_reason(const struct runner *rn, const struct case_spec *c, char *why, size_t len)
{
	const struct catalog_entry *e = catalog_lookup(rn->cfg.catalog, c->variant);
	if (!e) {
		/* The suites name kernels this build does not have. */
		snprintf(why, len, "%s", rn->rc.nodev_reason[0] ? rn->rc.nodev_reason
				       : "variant not built into this conform");
		return 1;
	}
	int gpu_needed = e->gpu || c->nreq > 0;
	if (gpu_needed && !rn->rc.has_gpu) {
		snprintf(why, len, "%s", rn->rc.nodev_reason);
		return 1;
	}
	int sm = rn->rc.gpu.cc_major * 10 + rn->rc.gpu.cc_minor;
	int gib = (int)(rn->rc.gpu.memory_bytes >> 30);
	for (int i = 0; i < c->nreq; i++) {
		const struct requirement *q = &c->req[i];
		int mem = strcmp(q->what, "mem") == 0;
		if (requirement_met(q, mem ? gib : sm))
			continue;
		if (mem)
			snprintf(why, len, "requires %s%s%d GiB; device %d has %d GiB", q->what,
				 cmp_text(q->cmp), q->value, rn->rc.gpu.index, gib);
		else
			snprintf(why, len, "requires %s%s%d; device %d is sm_%d", q->what,
				 cmp_text(q->cmp), q->value, rn->rc.gpu.index, sm);
		return 1;
	}
	return 0;
}

int runner_runs_alone(const struct case_spec *c)
{
	return c->expect == EXPECT_HANG || c->expect == EXPECT_UNDEFINED || c->expect == EXPECT_CRASH;
}

/* A case under a sanitizer runs alone too: its worker's log is its own. */
static int case_alone(const struct runner *rn, const struct case_spec *c)
{
	return runner_runs_alone(c) || rn->cfg.sanitize != SANITIZER_NONE;
}

double runner_sanitize_factor(enum sanitizer_tool t)
{
	/* compute-sanitizer's documentation puts its tools' slowdowns at
	 * tens of times, racecheck's (every shared access tracked) the
	 * largest; the start of the tool is added to the worker's. */
	switch (t) {
	case SANITIZER_NONE: return 1.0;
	case SANITIZER_RACECHECK: return 40.0;
	default: return 20.0;
	}
}

static double case_deadline(const struct runner *rn, const struct case_spec *c)
{
	double f = runner_sanitize_factor(rn->cfg.sanitize);
	if (c->timeout_s > 0)
		return c->timeout_s * f;
	return (runner_runs_alone(c) ? rn->cfg.hang_timeout_s : rn->cfg.timeout_s) * f;
}

/* Lets go of the case's sanitizer log. */
static void san_log_drop(struct runner *rn)
{
	if (rn->san_log[0])
		unlink(rn->san_log);
	rn->san_log[0] = '\0';
}

/* A fresh file for the case's sanitizer log, in $TMPDIR.  Returns 0, or
 * -1 with a message. */
static int san_log_make(struct runner *rn, char *err, size_t len)
{
	const char *dir = getenv("TMPDIR");
	san_log_drop(rn);
	snprintf(rn->san_log, sizeof rn->san_log, "%s/conform-sanitizer-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(rn->san_log);
	if (fd < 0) {
		snprintf(err, len, "cannot make a file for the sanitizer's log in %s", dir && *dir ? dir : "/tmp");
		rn->san_log[0] = '\0';
		return -1;
	}
	close(fd);
	return 0;
}

/*
 * What the sanitizer said about the case just finished (its log read and
 * removed).  A finding turns a completed case, or the CUDA error it
 * caused (memcheck stops a kernel at its bad access), into a
 * sanitizer-finding, the tool's first reports leading the message; a
 * hang or a crash keeps its outcome, with the report after its message.
 * A tool that failed leaves a case that would have passed an ERROR: it
 * was not checked.  res->finding keeps what the tool said, "0 errors"
 * too.
 */
static void sanitized(struct runner *rn, struct result *res)
{
	struct sanitizer_report rep;
	char *text = NULL;
	size_t len = 0;
	char err[256];

	if (!rn->san_log[0])
		return;
	/* The reports a message names come first: a bounded read keeps them. */
	if (file_read_bounded(rn->san_log, SANITIZER_LOG_MAX, &text, &len, err, sizeof err) < 0) {
		text = NULL;
		len = 0;
	}
	san_log_drop(rn);
	sanitizer_report_parse(text ? text : "", len, &rep);
	free(text);
	sanitizer_report_summary(&rep, rn->cfg.sanitize, res->finding, sizeof res->finding);
	char was[sizeof res->message];
	text_copy(was, sizeof was, res->message);
	if (rep.nfindings > 0) {
		if (res->outcome == OUTCOME_CORRECT || res->outcome == OUTCOME_WRONG ||
		    res->outcome == OUTCOME_ERROR) {
			snprintf(res->message, sizeof res->message, "%s%s%s", res->finding,
				 was[0] ? "; the case itself: " : "", was[0] ? outcome_name(res->outcome) : "");
			if (was[0])
				text_appendf(res->message, sizeof res->message, ", %s", was);
			res->outcome = OUTCOME_SANITIZER;
			return;
		}
	} else if (rep.tool_failed && res->outcome == OUTCOME_CORRECT) {
		res->outcome = OUTCOME_ERROR;
		snprintf(res->message, sizeof res->message, "compute-sanitizer failed, so the case was not "
			 "checked by it: %s", rep.tool_error);
		return;
	}
	size_t used = strlen(res->message);
	snprintf(res->message + used, sizeof res->message - used, "%s%s", used ? "; " : "", res->finding);
}

static enum status judge(const struct runner *rn, const struct case_spec *c, enum outcome o)
{
	if (rn->cfg.invalid_is_skip && o == OUTCOME_INVALID)
		return STATUS_SKIP;
	return status_judge(c->expect, o);
}

/* A wrong result the case's tolerance=K accepts: every error within K
 * times conform's tolerance.  Its outcome becomes correct, and its message
 * keeps what conform's own check found, so the finding stays in the
 * output and the database. */
static int tolerate(const struct case_spec *c, const struct case_result *cr, struct result *res)
{
	if (!(c->tolerance > 0) || cr->outcome != OUTCOME_WRONG || !cr->tol_checked ||
	    !(cr->err_ratio <= c->tolerance))
		return 0;
	res->outcome = OUTCOME_CORRECT;
	res->tolerated = 1;
	int k = snprintf(res->message, sizeof res->message,
			 "beyond conform's tolerance, within this case's tolerance=%g (max |err|/tol %.3g): ",
			 c->tolerance, cr->err_ratio);
	if (k > 0 && (size_t)k < sizeof res->message)
		text_copy(res->message + k, sizeof res->message - (size_t)k, cr->message);
	return 1;
}

/* Copies what was observed into res and judges it. */
static void finish(struct runner *rn, const struct case_result *cr, struct result *res)
{
	const struct catalog_entry *e = catalog_lookup(rn->cfg.catalog, res->c->variant);
	res->duration_s = text_now() - rn->started;
	res->gpu = rn->rc.has_gpu ? &rn->rc.gpu : NULL;
	res->source = e && e->source[0] ? e->source : NULL;
	res->outcome = cr->outcome;
	res->err_norm = cr->err_norm;
	res->timing = cr->timing;
	if (!tolerate(res->c, cr, res))
		text_copy(res->message, sizeof res->message, cr->message);
	if (rn->build_note[0]) {
		size_t used = strlen(res->message);
		snprintf(res->message + used, sizeof res->message - used, "%s%s", used ? "; " : "",
			 rn->build_note);
		rn->build_note[0] = '\0';
	}
	if (rn->cfg.sanitize != SANITIZER_NONE)
		sanitized(rn, res);
	res->status = judge(rn, res->c, res->outcome);
}

/* Ends the case in flight: a worker of its own goes with it. */
static void release(struct runner *rn)
{
	if (rn->busy == &rn->own)
		worker_stop(&rn->own); /* one under a tool is waited for (WORKER_WRAP_EXIT_S) */
	rn->busy = NULL;
	rn->starting = 0;
}

/* What the watchdog's answer w means for the case in flight: still
 * running, stopped, or its result (judged into res).  A build that made
 * the case ready sends the case itself, on the same worker, under the
 * case's own deadline. */
static enum runner_poll settle(struct runner *rn, enum watchdog_state w,
			       struct case_result *cr, struct result *res)
{
	switch (w) {
	case WATCHDOG_PENDING:
		return RUNNER_BUSY;
	case WATCHDOG_INTERRUPTED:
		release(rn);
		return RUNNER_INTERRUPTED;
	case WATCHDOG_DONE:
		break;
	}
	if (rn->building && cr->outcome == OUTCOME_CORRECT && rn->busy && rn->busy->pid > 0) {
		/* The compiler's warnings belong to the case's message. */
		const char *said = strstr(cr->message, "compiler says: ");
		text_copy(rn->build_note, sizeof rn->build_note, said ? said : "");
		rn->building = 0;
		rn->started = text_now();
		return settle(rn, watchdog_send(&rn->wc, rn->busy, PROTO_RUN, rn->c, rn->seed,
						rn->cfg.timing, case_deadline(rn, rn->c), rn->cfg.stop, cr),
			      cr, res);
	}
	/* A case that never ran is an ERROR whatever it expected: a compile
	 * error, a compile that outlived its deadline or killed its worker
	 * says nothing of the kernel's behaviour, so it can neither be the
	 * hang a case expects nor pass an undefined one.  Only a SKIP (no
	 * NVRTC) and a refused configuration keep their outcome. */
	int never_ran = rn->building &&
			!(cr->outcome == OUTCOME_SKIPPED || cr->outcome == OUTCOME_INVALID);
	if (never_ran) {
		char why[RESULT_MESSAGE_MAX];
		text_copy(why, sizeof why, cr->message);
		case_result_set(cr, OUTCOME_ERROR, "not built: %s",
				cr->outcome == OUTCOME_CORRECT ? "the worker was gone after its build" : why);
	}
	rn->building = 0;
	release(rn);
	finish(rn, cr, res);
	if (never_ran)
		res->status = STATUS_ERROR;
	return RUNNER_RESULT;
}

double runner_case_deadline(const struct runner *rn, const struct case_spec *c)
{
	/* While a user's kernel compiles, the countdown is the build's. */
	if (rn->building && rn->c == c)
		return rn->cfg.build_timeout_s;
	return case_deadline(rn, c);
}

/* What the pool has for the case in flight's configuration (compile_pool.h):
 * nothing where it compiles for another architecture. */
static enum compile_claim pool_claim(struct runner *rn, struct case_result *cr)
{
	int sm = rn->rc.gpu.cc_major * 10 + rn->rc.gpu.cc_minor;
	if (!rn->cfg.pool || compile_pool_sm(rn->cfg.pool) != sm)
		return COMPILE_NONE;
	return compile_pool_claim(rn->cfg.pool, rn->c, cr);
}

/* Sends the case to its worker, greeted: a user's kernel is compiled
 * first, under a deadline of its own, unless the pool is compiling it
 * (the case waits: awaiting) or found it does not compile. */
static enum runner_poll dispatch(struct runner *rn, struct case_result *cr, struct result *res)
{
	const struct catalog_entry *e = catalog_lookup(rn->cfg.catalog, rn->c->variant);
	rn->building = e && e->source[0];
	if (rn->building) {
		switch (pool_claim(rn, cr)) {
		case COMPILE_RUNNING:
			if (!rn->awaiting)
				rn->await_deadline = text_now() + rn->cfg.build_timeout_s;
			rn->awaiting = 1;
			return RUNNER_BUSY;
		case COMPILE_FAILED:
			/* The DONE line a BUILD would have brought. */
			rn->awaiting = 0;
			return settle(rn, WATCHDOG_DONE, cr, res);
		case COMPILE_NONE:
			break;
		}
		rn->awaiting = 0;
		return settle(rn, watchdog_send(&rn->wc, rn->busy, PROTO_BUILD, rn->c, rn->seed, NULL,
						rn->cfg.build_timeout_s, rn->cfg.stop, cr), cr, res);
	}
	return settle(rn, watchdog_send(&rn->wc, rn->busy, PROTO_RUN, rn->c, rn->seed, rn->cfg.timing,
					case_deadline(rn, rn->c), rn->cfg.stop, cr), cr, res);
}

/* A worker that did not start: the case's result, unless interrupted. */
static enum runner_poll not_started(struct runner *rn, const char *why, struct case_result *cr,
				    struct result *res)
{
	rn->shared_failed = rn->busy == &rn->shared;
	rn->busy = NULL;
	rn->starting = 0;
	if (rn->cfg.stop && *rn->cfg.stop)
		return RUNNER_INTERRUPTED;
	case_result_set(cr, OUTCOME_ERROR, "cannot start a worker: %s", why);
	finish(rn, cr, res);
	return RUNNER_RESULT;
}

enum runner_poll runner_case_start(struct runner *rn, const struct case_spec *c, uint64_t seed,
				   struct result *res)
{
	struct case_result cr;
	memset(res, 0, sizeof *res);
	memset(&cr, 0, sizeof cr);
	res->c = c;
	res->seed = seed;
	res->err_norm = -1;
	cr.err_norm = -1;
	rn->started = text_now();
	rn->shared_failed = 0;
	/* A timed case has the GPU to itself: an ending worker's teardown
	 * would be in its samples. */
	if (rn->cfg.timing)
		reaper_drain(&rn->reaper);
	else
		reaper_poll(&rn->reaper);
	if (runner_skip_reason(rn, c, cr.message, sizeof cr.message)) {
		cr.outcome = OUTCOME_SKIPPED;
		finish(rn, &cr, res);
		return RUNNER_RESULT;
	}
	if (rn->cfg.sanitize != SANITIZER_NONE && !rn->cfg.sanitizer) {
		case_result_set(&cr, OUTCOME_SKIPPED, "--sanitize %s: %s", sanitizer_tool_name(rn->cfg.sanitize),
				rn->cfg.sanitizer_missing ? rn->cfg.sanitizer_missing : "no compute-sanitizer");
		finish(rn, &cr, res);
		return RUNNER_RESULT;
	}
	int alone = case_alone(rn, c);
	struct worker *w = alone ? &rn->own : &rn->shared;
	rn->busy = w;
	rn->c = c;
	rn->seed = seed;
	rn->build_note[0] = '\0';
	rn->building = 0;
	rn->awaiting = 0;
	if (alone || w->pid <= 0) {
		/* A fresh worker: its greeting is waited for by the polls. */
		char err[512];
		struct worker_config wc = rn->cfg.worker;
		const char *wrap[] = {rn->cfg.sanitizer, "--tool", sanitizer_tool_name(rn->cfg.sanitize),
				      "--log-file", rn->san_log, "--print-limit", SANITIZER_PRINT_LIMIT,
				      "--show-backtrace", "no", NULL};
		if (!alone)
			worker_stop(w);
		if (rn->cfg.sanitize != SANITIZER_NONE) {
			if (san_log_make(rn, err, sizeof err) < 0)
				return not_started(rn, err, &cr, res);
			wc.wrap = wrap;
			wc.exact_buffers = rn->cfg.sanitize == SANITIZER_MEMCHECK;
			wc.start_timeout_s *= runner_sanitize_factor(rn->cfg.sanitize);
		}
		if (worker_launch(w, &wc, err, sizeof err) < 0)
			return not_started(rn, err, &cr, res);
		rn->starting = 1;
		rn->start_deadline = text_now() + wc.start_timeout_s;
		return RUNNER_BUSY;
	}
	return dispatch(rn, &cr, res);
}

enum runner_poll runner_case_poll(struct runner *rn, double wait_s, struct result *res)
{
	struct case_result cr;
	double until = text_now() + wait_s;
	if (!rn->busy)
		return RUNNER_INTERRUPTED; /* nothing in flight: a caller's mistake */
	reaper_poll(&rn->reaper);
	if (rn->cfg.pool)
		compile_pool_poll(rn->cfg.pool, 0); /* its compiles move on with every case's steps */
	if (rn->starting) {
		char err[512];
		memset(&cr, 0, sizeof cr);
		cr.err_norm = -1;
		switch (worker_greet_poll(rn->busy, &rn->cfg.worker, until, rn->start_deadline, rn->cfg.stop,
					  err, sizeof err)) {
		case 0:
			return RUNNER_BUSY;
		case -1:
			return not_started(rn, err, &cr, res);
		}
		if (rn->rc.has_gpu && !rn->busy->has_gpu) {
			/* It has no GPU where the run has one (its CUDA context
			 * failed: the GPU out of memory, say): sent cases, it
			 * would skip them all. */
			text_copy(err, sizeof err, rn->busy->nodev_reason);
			worker_kill(rn->busy);
			return not_started(rn, err, &cr, res);
		}
		rn->starting = 0;
		enum runner_poll p = dispatch(rn, &cr, res);
		if (p != RUNNER_BUSY || rn->awaiting)
			return p;
	}
	if (rn->awaiting) {
		/* The pool compiles the case's configuration: its steps wait on
		 * the pool, then the case is dispatched again. */
		if (rn->cfg.stop && *rn->cfg.stop) {
			rn->awaiting = 0;
			release(rn);
			return RUNNER_INTERRUPTED;
		}
		memset(&cr, 0, sizeof cr);
		cr.err_norm = -1;
		compile_pool_poll(rn->cfg.pool, until);
		return dispatch(rn, &cr, res);
	}
	return settle(rn, watchdog_poll(&rn->wc, until, rn->cfg.stop, &cr), &cr, res);
}

double runner_case_remaining(const struct runner *rn)
{
	if (!rn->busy)
		return 0;
	if (rn->starting)
		return runner_case_deadline(rn, rn->c);
	double left = (rn->awaiting ? rn->await_deadline : rn->wc.deadline) - text_now();
	return left > 0 ? left : 0;
}
