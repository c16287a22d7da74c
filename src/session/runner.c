/*
 * runner.c - the run loop (see runner.h).
 *
 * Invariant: every case handed to runner_run() produces exactly one result
 * for the sinks, unless the run is interrupted, in which case the case in
 * flight produces none and the ones before it are all reported.
 */
#include "runner.h"

#include <stdio.h>
#include <string.h>

#include "rng.h"
#include "text.h"
#include "watchdog.h"

int runner_open(struct runner *rn, const struct runner_config *cfg, char *err, size_t len)
{
	memset(rn, 0, sizeof *rn);
	rn->cfg = *cfg;
	if (worker_start(&rn->shared, &cfg->worker, cfg->stop, err, len) < 0)
		return -1;
	rn->rc.seed = cfg->seed;
	rn->rc.command_line = cfg->command_line;
	rn->rc.has_gpu = rn->shared.has_gpu;
	rn->rc.gpu = rn->shared.gpu;
	text_copy(rn->rc.nodev_reason, sizeof rn->rc.nodev_reason, rn->shared.nodev_reason);
	return 0;
}

void runner_close(struct runner *rn)
{
	worker_stop(&rn->shared);
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

static int runs_alone(const struct case_spec *c)
{
	return c->expect == EXPECT_HANG || c->expect == EXPECT_UNDEFINED || c->expect == EXPECT_CRASH;
}

static double case_deadline(const struct runner *rn, const struct case_spec *c)
{
	if (c->timeout_s > 0)
		return c->timeout_s;
	return runs_alone(c) ? rn->cfg.hang_timeout_s : rn->cfg.timeout_s;
}

struct tick_fanout {
	struct report_sink *sinks;
	size_t n;
};

static void tick_all(void *ctx, double remaining)
{
	struct tick_fanout *f = ctx;
	for (size_t i = 0; i < f->n; i++)
		if (f->sinks[i].tick)
			f->sinks[i].tick(f->sinks[i].ctx, remaining);
}

/* Runs one case on the shared worker or on a worker of its own.  Returns -1
 * when interrupted. */
static int run_one(struct runner *rn, const struct case_spec *c, uint64_t seed, double deadline,
		   const struct wait_ticker *t, struct case_result *cr)
{
	char err[512];
	struct worker own;
	int alone = runs_alone(c);
	struct worker *w = alone ? &own : &rn->shared;
	if (alone || w->pid <= 0) {
		if (!alone)
			worker_stop(w);
		if (worker_start(w, &rn->cfg.worker, rn->cfg.stop, err, sizeof err) < 0) {
			if (rn->cfg.stop && *rn->cfg.stop)
				return -1;
			memset(cr, 0, sizeof *cr);
			cr->err_norm = -1;
			case_result_set(cr, OUTCOME_ERROR, "cannot start a worker: %s", err);
			return 0;
		}
	}
	int r = watchdog_run_case(w, c, seed, rn->cfg.timing, deadline, rn->cfg.stop, t, cr);
	if (alone)
		worker_stop(w);
	return r;
}

int runner_run_case(struct runner *rn, const struct case_spec *c, uint64_t seed,
		    const struct wait_ticker *t, struct case_result *cr)
{
	memset(cr, 0, sizeof *cr);
	cr->err_norm = -1;
	if (runner_skip_reason(rn, c, cr->message, sizeof cr->message)) {
		cr->outcome = OUTCOME_SKIPPED;
		return 0;
	}
	return run_one(rn, c, seed, case_deadline(rn, c), t, cr);
}

int runner_run(struct runner *rn, const struct case_spec *const *cases, size_t n,
	       struct report_sink *sinks, size_t nsinks, struct run_summary *s,
	       char *err, size_t len)
{
	memset(s, 0, sizeof *s);
	double t0 = text_now();
	rn->rc.total = n;
	for (size_t k = 0; k < nsinks; k++)
		if (sinks[k].begin && sinks[k].begin(sinks[k].ctx, &rn->rc, err, len) < 0)
			return -1;

	struct tick_fanout fan = {sinks, nsinks};
	struct wait_ticker ticker = {tick_all, &fan};
	for (size_t i = 0; i < n; i++) {
		const struct case_spec *c = cases[i];
		if (rn->cfg.stop && *rn->cfg.stop) {
			s->interrupted = 1;
			break;
		}
		struct result res;
		memset(&res, 0, sizeof res);
		res.c = c;
		res.seed = rng_case_seed(rn->cfg.seed, c->name);
		res.err_norm = -1;
		double deadline = case_deadline(rn, c);
		for (size_t k = 0; k < nsinks; k++)
			if (sinks[k].start)
				sinks[k].start(sinks[k].ctx, c, i, n, deadline);

		double c0 = text_now();
		struct case_result cr;
		if (runner_run_case(rn, c, res.seed, &ticker, &cr) < 0) {
			s->interrupted = 1;
			break;
		}
		res.duration_s = text_now() - c0;
		res.outcome = cr.outcome;
		res.err_norm = cr.err_norm;
		res.timing = cr.timing;
		res.status = status_judge(c->expect, cr.outcome);
		text_copy(res.message, sizeof res.message, cr.message);
		s->counts[res.status]++;
		s->tally[status_tally(res.status)]++;
		for (size_t k = 0; k < nsinks; k++)
			if (sinks[k].result && sinks[k].result(sinks[k].ctx, &res, i, n, err, len) < 0)
				return -1;
	}
	s->wall_s = text_now() - t0;
	for (size_t k = 0; k < nsinks; k++)
		if (sinks[k].end && sinks[k].end(sinks[k].ctx, s, err, len) < 0)
			return -1;
	return 0;
}
