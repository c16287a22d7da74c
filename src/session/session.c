/*
 * session.c - set-up and stepping of a run (see session.h).
 */
#include "config.h"
#include "revision.h"

#include "session/session.h"
#include "session/session_diagnose.h"
#include "session/session_lanes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/rng.h"
#include "common/text.h"
#include "db/db.h"
#include "session/baseline.h"
#include "session/compile_pool.h"
#include "session/paths.h"

double session_start_timeout(double timeout_s)
{
	return timeout_s > SESSION_START_MIN_S ? timeout_s : SESSION_START_MIN_S;
}

void session_config_init(struct session_config *cfg, const char *worker_path,
			 const struct catalog *catalog, struct db *db,
			 const volatile sig_atomic_t *stop, const char *command_line)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->worker_path = worker_path;
	cfg->catalog = catalog;
	cfg->db = db;
	cfg->stop = stop;
	cfg->command_line = command_line;
	cfg->kind = RUN_CONFORMANCE;
	cfg->timeout_s = SESSION_TIMEOUT_S;
	cfg->hang_timeout_s = SESSION_HANG_TIMEOUT_S;
}

int session_find_worker(char *path, size_t plen, struct kernel_list *kernels,
			struct catalog *cat, char *err, size_t len)
{
	memset(cat, 0, sizeof *cat);
	if (paths_worker(path, plen, err, len) < 0)
		return -1;
	if (catalog_load(cat, path, kernels, SESSION_CATALOG_TIMEOUT_S, err, len) < 0)
		return -1;
	if (kernels)
		kernel_list_pin(kernels, cat);
	return 0;
}

/* The run's devices past the first (s->rn's): a runner on each, which
 * must greet with its GPU.  When none of them has one (a machine without a
 * GPU), the run is the first device's, its GPU cases skipped; when the
 * first has none but another has, the first is the mistake (--devices 5,0
 * on a machine of one GPU).  Returns 0, or -1 with a message. */
static int open_devices(struct session *s, const struct device_set *ds,
			const struct runner_config *rcfg, char *err, size_t len)
{
	s->ndev = 1;
	s->dev[0] = rcfg->worker.device;
	s->dev_rn[0] = &s->rn;
	s->gpus[0] = s->rn.rc.gpu;
	s->rn.rc.devices = s->gpus;
	s->rn.rc.ndevices = 1;
	/* Their workers start together, then each greeting is read. */
	for (int k = 1; k < ds->n; k++) {
		struct runner_config c = *rcfg;
		struct runner *rn = calloc(1, sizeof *rn);
		c.worker.device = ds->list[k];
		if (!rn) {
			snprintf(err, len, "out of memory");
			return -1;
		}
		if (runner_launch(rn, &c, err, len) < 0) {
			free(rn);
			return -1;
		}
		s->dev_rn[s->ndev] = rn;
		s->dev[s->ndev++] = ds->list[k];
	}
	int others = 0;
	for (int k = 1; k < s->ndev; k++) {
		if (runner_greet(s->dev_rn[k], err, len) < 0)
			return -1;
		others += s->dev_rn[k]->rc.has_gpu;
	}
	if (!s->rn.rc.has_gpu && !others) {
		for (int k = 1; k < s->ndev; k++) {
			runner_close(s->dev_rn[k]);
			free(s->dev_rn[k]);
		}
		s->ndev = 1;
		return 0;
	}
	for (int k = 0; k < s->ndev; k++) {
		const struct runner *rn = s->dev_rn[k];
		if (!rn->rc.has_gpu) {
			snprintf(err, len, "--devices: device %d: %s", s->dev[k], rn->rc.nodev_reason);
			return -1;
		}
		s->gpus[k] = rn->rc.gpu;
	}
	s->rn.rc.ndevices = s->ndev;
	return 0;
}

/* The pool that compiles the kernel files' configurations ahead
 * (compile_pool.h), where there are kernel files and a GPU whose
 * architecture they are compiled for.  Returns 0, or -1 with a message
 * (CONFORM_COMPILE_JOBS malformed, out of memory). */
static int open_pool(struct session *s, const struct session_config *cfg,
		     const struct runner_config *rcfg, char *err, size_t len)
{
	const struct gpu_info *g = &s->rn.rc.gpu;
	int jobs;
	if (!cfg->kernels || cfg->kernels->n == 0 || !s->rn.rc.has_gpu || g->cc_major <= 0)
		return 0;
	if (compile_pool_jobs(&jobs, err, len) < 0)
		return -1;
	if (jobs == 0)
		return 0;
	struct compile_pool_config pc = {
		.worker = rcfg->worker, .sm = g->cc_major * 10 + g->cc_minor, .cap = jobs,
		.timeout_s = rcfg->build_timeout_s, .stop = cfg->stop,
	};
	pc.worker.one_queue = 0; /* it makes no CUDA context */
	if (!(s->pool = compile_pool_new(&pc))) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	/* The lanes opened later are copies of these runners. */
	for (int k = 0; k < s->ndev; k++)
		s->dev_rn[k]->cfg.pool = s->pool;
	return 0;
}

int session_open(struct session *s, const struct session_config *cfg, char *err, size_t len)
{
	memset(s, 0, sizeof *s);
	struct runner_config rcfg = {
		.worker = {.path = cfg->worker_path, .device = cfg->device, .verbose = cfg->verbose,
			   .start_timeout_s = session_start_timeout(cfg->timeout_s), .kernels = cfg->kernels,
			   .one_queue = !cfg->timing},
		.build_timeout_s = cfg->build_timeout_s > 0 ? cfg->build_timeout_s : SESSION_BUILD_TIMEOUT_S,
		.timeout_s = cfg->timeout_s,
		.hang_timeout_s = cfg->hang_timeout_s,
		.seed = cfg->seed,
		.timing = cfg->timing,
		.invalid_is_skip = cfg->invalid_is_skip,
		.catalog = cfg->catalog,
		.stop = cfg->stop,
		.command_line = cfg->command_line,
		.kind = cfg->kind,
		.tag = cfg->tag,
		.sanitize = cfg->sanitize,
		.sanitizer = cfg->sanitizer,
		.sanitizer_missing = cfg->sanitizer_missing,
	};
	struct device_set ds = {.n = 1, .list = {cfg->device}};
	if (cfg->devices && (cfg->devices->all || cfg->devices->n > 0))
		ds = *cfg->devices;
	rcfg.worker.device = ds.all ? 0 : ds.list[0];
	if (runner_open(&s->rn, &rcfg, err, len) < 0)
		return -1;
	s->opened = 1;
	device_set_resolve(&ds, s->rn.rc.has_gpu ? s->rn.rc.gpu.count : 1);
	if (open_devices(s, &ds, &rcfg, err, len) < 0 || open_pool(s, cfg, &rcfg, err, len) < 0) {
		session_close(s);
		return -1;
	}
	s->jobs = cfg->timing ? 1 : cfg->jobs > 0 ? cfg->jobs : session_jobs_default();
	s->rn.rc.version = PACKAGE_VERSION;
	s->rn.rc.git_revision = CONFORM_GIT_REVISION;
	s->dbst.db = cfg->db;
	s->dbst.stop = cfg->stop;
	s->dbst.waiting = cfg->db_waiting;
	s->dbst.waiting_ctx = cfg->db_waiting_ctx;
	s->baseline = cfg->baseline;
	s->shrink = cfg->shrink;
	s->shrink_s = cfg->shrink_s;
	db_sink(&s->sinks[s->nsinks++], &s->dbst);
	return 0;
}

int session_add_sink(struct session *s, const struct report_sink *sink)
{
	if (s->nsinks == SESSION_SINKS_MAX)
		return -1;
	s->sinks[s->nsinks++] = *sink;
	return 0;
}

int session_begin(struct session *s, size_t total, char *err, size_t len)
{
	struct run_context *rc = &s->rn.rc;

	memset(&s->sum, 0, sizeof s->sum);
	s->started = text_now();
	rc->total = total;
	text_utc_iso(rc->started_at, sizeof rc->started_at, time(NULL));
	if (gethostname(rc->host, sizeof rc->host) != 0)
		text_copy(rc->host, sizeof rc->host, "unknown");
	rc->host[sizeof rc->host - 1] = '\0'; /* a truncated name may lack it */
	rc->run_id = 0;
	for (size_t k = 0; k < s->nsinks; k++) {
		if (s->sinks[k].begin && s->sinks[k].begin(s->sinks[k].ctx, rc, err, len) < 0)
			return -1;
		/* The database's sink comes first (session_open) and numbers
		 * the run: the sinks after it can name the run by its id. */
		rc->run_id = s->dbst.run_id;
	}
	s->begun = 1;
	return 0;
}

int session_report(struct session *s, const struct result *r, size_t index, size_t total,
		   char *err, size_t len)
{
	const struct baseline_entry *e = s->baseline && r->c ? baseline_match(s->baseline, r->c->name)
							     : NULL;
	struct result listed;

	/* Before any sink, the database first, so the note is stored with
	 * the result and every front end tells the same story. */
	if (e) {
		listed = *r;
		listed.baseline_reason = e->reason;
		if (result_known(&listed))
			baseline_note(listed.message, sizeof listed.message, e->reason);
		s->sum.known += result_known(&listed);
		s->sum.fixed += result_fixed(&listed);
		r = &listed;
	}
	s->sum.counts[r->status]++;
	s->sum.tally[status_tally(r->status)]++;
	if (s->cases && session_seen_add(s, r) < 0) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	for (size_t k = 0; k < s->nsinks; k++)
		if (s->sinks[k].result && s->sinks[k].result(s->sinks[k].ctx, r, index, total, err, len) < 0)
			return -1;
	return 0;
}

void session_tick(struct session *s, double remaining_s)
{
	for (size_t k = 0; k < s->nsinks; k++)
		if (s->sinks[k].tick)
			s->sinks[k].tick(s->sinks[k].ctx, remaining_s);
}

static void tick(struct session *s)
{
	session_tick(s, runner_case_remaining(&s->rn));
}

void session_compile_ahead(struct session *s, const struct case_spec *const *cases, size_t n)
{
	char why[512];
	if (!s->pool)
		return;
	const struct case_spec **user = malloc((n ? n : 1) * sizeof *user);
	if (!user)
		return; /* nothing ahead: each case's worker compiles it */
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		const struct catalog_entry *e = catalog_lookup(s->rn.cfg.catalog, cases[i]->variant);
		if (e && e->source[0] && !runner_skip_reason(&s->rn, cases[i], why, sizeof why))
			user[k++] = cases[i];
	}
	compile_pool_ahead(s->pool, user, k);
	free(user);
}

size_t session_compile_width(const struct session *s)
{
	return s->pool ? (size_t)compile_pool_cap(s->pool) : 0;
}

int session_run_case(struct session *s, const struct case_spec *c, uint64_t seed,
		     struct result *res)
{
	enum runner_poll p = runner_case_start(&s->rn, c, seed, res);
	while (p == RUNNER_BUSY) {
		tick(s);
		p = runner_case_poll(&s->rn, SESSION_STEP_S, res);
	}
	return p == RUNNER_INTERRUPTED;
}

int session_end(struct session *s, char *err, size_t len)
{
	if (!s->begun)
		return 0;
	s->begun = 0;
	s->sum.wall_s = text_now() - s->started;
	for (size_t k = 0; k < s->nsinks; k++)
		if (s->sinks[k].end && s->sinks[k].end(s->sinks[k].ctx, &s->sum, err, len) < 0)
			return -1;
	return 0;
}

int session_run_begin(struct session *s, const struct case_spec *const *cases, size_t n,
		      char *err, size_t len)
{
	s->cases = cases;
	s->ncases = n;
	s->next = 0;
	s->nseen = 0;
	s->diagnosed = 0;
	s->diagnosis_stopped = 0;
	/* The other lanes start with the first run that has cases for them. */
	if (!s->lanes && session_lanes_open(s, s->jobs < (int)n ? s->jobs : (int)n) < 0) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	if (session_lanes_reset(s) < 0) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	/* Every user kernel's configuration of the run, in the run's order:
	 * all of them will be built. */
	session_compile_ahead(s, cases, n);
	return session_begin(s, n, err, len);
}

int session_stopped(const struct session *s)
{
	return s->rn.cfg.stop && *s->rn.cfg.stop;
}

enum session_step session_finish(struct session *s, int interrupted, char *err, size_t len)
{
	/* Every case reported: the diagnosis runs before the sinks end. */
	if (!interrupted && !s->diagnosed) {
		s->diagnosed = 1;
		if (session_diagnose(s, err, len) < 0) {
			s->begun = 0; /* a failed sink has no end to be told */
			return SESSION_FAILED;
		}
		interrupted = s->diagnosis_stopped;
	}
	s->sum.interrupted = interrupted;
	return session_end(s, err, len) < 0 ? SESSION_FAILED : SESSION_DONE;
}

enum session_step session_deliver(struct session *s, const struct result *r, char *err, size_t len)
{
	size_t i = s->next++;
	if (session_report(s, r, i, s->ncases, err, len) < 0) {
		s->begun = 0; /* a failed sink has no end to be told */
		return SESSION_FAILED;
	}
	return SESSION_RESULT;
}

enum session_step session_step(struct session *s, double wait_s, char *err, size_t len)
{
	if (!s->begun)
		return SESSION_DONE;
	return session_lanes_step(s, wait_s, err, len);
}

enum session_step session_run(struct session *s, const struct case_spec *const *cases, size_t n,
			      char *err, size_t len)
{
	if (session_run_begin(s, cases, n, err, len) < 0)
		return SESSION_FAILED;
	enum session_step st;
	do
		st = session_step(s, SESSION_STEP_S, err, len);
	while (st == SESSION_BUSY || st == SESSION_RESULT);
	return st;
}

void session_close(struct session *s)
{
	/* Every worker is told first, then each waited for: their CUDA
	 * teardowns overlap (eight lanes had exited one after another). */
	session_lanes_hangup(s);
	for (int k = 1; k < s->ndev; k++)
		runner_hangup(s->dev_rn[k]);
	if (s->opened)
		runner_hangup(&s->rn);
	session_lanes_close(s);
	for (int k = 1; k < s->ndev; k++) {
		runner_close(s->dev_rn[k]);
		free(s->dev_rn[k]);
	}
	s->ndev = 0;
	if (s->opened)
		runner_close(&s->rn);
	s->opened = 0;
	compile_pool_free(s->pool);
	s->pool = NULL;
	free(s->seen);
	s->seen = NULL;
	s->nseen = s->seen_cap = 0;
}
