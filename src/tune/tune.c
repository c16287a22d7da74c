/*
 * tune.c - the tuner (see tune.h).
 *
 * measure() is the one road to a number: every evaluation, reference or
 * configuration, is either answered from the database or run as a case
 * through the session (session_run_case: the runner's worker under the
 * watchdog, judged as any case) and stored through its database sink, so a
 * hang or a crash is a TIMEOUT or CRASH row like any other and the next
 * evaluation gets a fresh worker.
 *
 * A configuration the variant's contract refuses is stored as SKIP with the
 * observed behaviour "invalid" (the session's invalid_is_skip): the search is expected to run into the
 * edges of what a kernel accepts, and that is neither a failure of the
 * kernel nor a measurement.
 */
#include "config.h"
#include "revision.h"

#include "tune/tune.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/params.h"
#include "common/rng.h"
#include "common/text.h"
#include "common/vec.h"
#include "db/db.h"
#include "tune/tune_space.h"
#include "tune/tune_tie.h"

/* Empty catalog fields stand for "none". */
static const char *or_null(const char *s)
{
	return s && *s ? s : NULL;
}

int tune_family_of(const struct catalog *cat, const char *variant, struct tune_family *f)
{
	const struct catalog_entry *e = catalog_lookup(cat, variant);

	memset(f, 0, sizeof *f);
	if (!e || (!*e->copy && !*e->baseline && !*e->baseline_rows))
		return 0;
	f->copy = or_null(e->copy);
	f->copy_n = e->copy_n;
	f->baseline = or_null(e->baseline);
	f->baseline_segmented = or_null(e->baseline_rows);
	return 1;
}

/* Two variants share references when their families name the same ones. */
static int same_text(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static int family_same(const struct tune_family *a, const struct tune_family *b)
{
	return same_text(a->copy, b->copy) && a->copy_n == b->copy_n && same_text(a->baseline, b->baseline) &&
	       same_text(a->baseline_segmented, b->baseline_segmented);
}

int tune_is_reference(const struct catalog *cat, const char *variant)
{
	for (size_t i = 0; i < cat->count; i++) {
		const struct catalog_entry *e = &cat->v[i];
		if (strcmp(e->copy, variant) == 0 || strcmp(e->baseline, variant) == 0 ||
		    strcmp(e->baseline_rows, variant) == 0)
			return 1;
	}
	return 0;
}

static void tally(struct run_summary *sum, enum status st)
{
	sum->counts[st]++;
	sum->tally[status_tally(st)]++;
}

int tune_open(struct tune_session *s, const struct tune_options *o, const struct catalog *cat,
	      const struct session_config *cfg, char *err, size_t len)
{
	memset(s, 0, sizeof *s);
	s->o = *o;
	s->cat = cat;
	s->stop = cfg->stop;
	struct session_config c = *cfg;
	c.timing = &s->o.timing;
	c.seed = o->seed;
	c.catalog = cat;
	c.invalid_is_skip = 1; /* see the top of this file */
	c.hang_timeout_s = c.timeout_s; /* every evaluation expects to pass */
	if (session_open(&s->run, &c, err, len) < 0)
		return -1;
	s->run_open = 1;
	return 0;
}

int tune_begin(struct tune_session *s, char *err, size_t len)
{
	return session_begin(&s->run, 0, err, len);
}

int tune_close(struct tune_session *s, int interrupted, char *err, size_t len)
{
	int rc = 0;
	if (!s->run_open)
		return 0;
	s->run.sum.interrupted = interrupted;
	if (session_end(&s->run, err, len) < 0)
		rc = -1;
	session_close(&s->run);
	s->run_open = 0;
	for (size_t i = 0; i < s->nmemo; i++)
		free(s->memo[i]);
	vec_free(s->memo, s->nmemo, s->memo_cap);
	s->pending = NULL;
	return rc;
}

/* Adds an empty row; returns its index, or -1 when out of memory. */
static long sweep_add(struct tune_sweep *sw)
{
	if (sw->count == sw->cap) {
		size_t cap = sw->cap ? 2 * sw->cap : 64;
		struct tune_row *grown = realloc(sw->rows, cap * sizeof *grown);
		if (!grown)
			return -1;
		sw->rows = grown;
		sw->cap = cap;
	}
	memset(&sw->rows[sw->count], 0, sizeof sw->rows[0]);
	return (long)sw->count++;
}

void tune_sweep_free(struct tune_sweep *sw)
{
	free(sw->rows);
	memset(sw, 0, sizeof *sw);
}

/* An evaluation this session has made or begun (see tune.h). */
struct tune_memo {
	struct case_spec c;     /* stays here: results point at it */
	struct result res;      /* valid when done */
	int done;               /* res is the answer */
	int reused;             /* answered from the database */
	int told;               /* the search has had it (counted, shown) */
};

/* Returned by measure() while the evaluation it began is in flight. */
#define MEASURE_PENDING 2

static struct tune_memo *memo_find(const struct tune_session *s, const struct case_spec *c)
{
	for (size_t i = s->nmemo; i-- > 0;)
		if (strcmp(s->memo[i]->c.name, c->name) == 0 && strcmp(s->memo[i]->c.params, c->params) == 0)
			return s->memo[i];
	return NULL;
}

static struct tune_memo *memo_add(struct tune_session *s, const struct case_spec *c)
{
	/* One allocation each: results point at their case, so entries never move. */
	struct tune_memo *m = calloc(1, sizeof *m);
	if (!m || vec_push(s->memo, s->nmemo, s->memo_cap, m) < 0) {
		free(m);
		return NULL;
	}
	m->c = *c;
	return m;
}

/* An evaluation's result has come: it is stored like any other case. */
static int memo_done(struct tune_session *s, struct tune_memo *m, char *err, size_t len)
{
	m->done = 1;
	return session_report(&s->run, &m->res, 0, 0, err, len);
}

/*
 * Answers m from the database, or runs its case: to the end, or - stepped -
 * only begun (m->done stays 0; tune_sweep_step() finishes it).  Returns 0,
 * 1 when interrupted, -1 with a message.
 */
static int evaluate_case(struct tune_session *s, struct tune_memo *m, uint64_t seed, char *err,
			 size_t len)
{
	m->res.c = &m->c;
	m->res.seed = seed;
	m->res.err_norm = -1;
	const struct catalog_entry *e = catalog_lookup(s->cat, m->c.variant);
	if (!s->o.fresh) {
		struct db_tuned_key k = {
			.device_id = s->run.dbst.device_id, .git_revision = CONFORM_GIT_REVISION,
			.variant = m->c.variant, .dtype = m->c.dtype, .n = m->c.n, .cols = m->c.cols,
			.params = m->c.params, .source = e && e->source[0] ? e->source : NULL,
		};
		int found = db_tuned_find(s->run.dbst.db, &k, &m->res, err, len);
		if (found < 0)
			return -1;
		if (found) {
			m->done = m->reused = 1;
			/* Not stored again, but counted: a tune the database
			 * answered records the evaluations it found. */
			tally(&s->run.sum, m->res.status);
			return 0;
		}
	}
	if (!s->stepped)
		return session_run_case(&s->run, &m->c, seed, &m->res) ? 1 : memo_done(s, m, err, len);
	switch (runner_case_start(&s->run.rn, &m->c, seed, &m->res)) {
	case RUNNER_BUSY:
		s->pending = m;
		return 0;
	case RUNNER_INTERRUPTED:
		return 1;
	case RUNNER_RESULT:
		break;
	}
	return memo_done(s, m, err, len);
}

/* One evaluation to make. */
struct probe {
	const char *variant;
	const char *config;     /* "" for the defaults */
	int with_op;            /* the copy takes no op */
	enum dtype dtype;
	int64_t n, cols;
	enum tune_role role;
};

/* The case that evaluates a probe, and its input seed.  Returns 0, or -1
 * with a message when the configuration cannot be written as params. */
static int probe_case(const struct tune_session *s, const struct probe *p, struct case_spec *cp,
		      uint64_t *seed, char *err, size_t len)
{
	struct case_spec c;
	memset(&c, 0, sizeof c);
	text_copy(c.variant, sizeof c.variant, p->variant);
	text_copy(c.params, sizeof c.params, p->config);
	if (strlen(p->config) >= sizeof c.params ||
	    (p->with_op && params_append(c.params, sizeof c.params, "op", op_name(s->o.op)) < 0)) {
		snprintf(err, len, "%s: parameters '%s' too long", p->variant, p->config);
		return -1;
	}
	c.dtype = p->dtype;
	c.n = p->n;
	c.cols = p->cols;
	c.expect = EXPECT_PASS;
	snprintf(c.name, sizeof c.name, "%s%s%s.%s.n%lld", p->variant, p->with_op ? "." : "",
		 p->with_op ? op_name(s->o.op) : "", dtype_name(p->dtype), (long long)p->n);
	if (p->cols) {
		size_t used = strlen(c.name);
		snprintf(c.name + used, sizeof c.name - used, ".c%lld", (long long)p->cols);
	}

	/* Every variant and configuration of one problem reads the same input,
	 * so the seed comes from the problem, not the case name: comparisons
	 * are fair, and the worker, which keeps its last draw, draws it once. */
	char problem[96];
	snprintf(problem, sizeof problem, "tune.%s.n%lld.c%lld", dtype_name(p->dtype),
		 (long long)p->n, (long long)p->cols);
	/* Drawing an input, copying it over and back and checking it on the
	 * host takes seconds at 2^28 before and after the kernel runs (about
	 * 30 ns an element for device.copy, more on a fresh machine,
	 * docs/PERFORMANCE.md).  Allow 40 ns an element for it. */
	const double elements = (double)p->n * (double)(p->cols ? p->cols : 1);
	c.timeout_s = s->run.rn.cfg.timeout_s + 4e-8 * elements;

	*cp = c;
	*seed = rng_case_seed(s->o.seed, problem);
	return 0;
}

/*
 * Measures (or looks up) one configuration into row; *told is 1 the first
 * time the search has this answer.  Returns 0, 1 when interrupted,
 * MEASURE_PENDING when a stepped evaluation was begun, -1 with a message on
 * a database error or a configuration that cannot be written as params.
 */
static int measure(struct tune_session *s, const struct probe *p, struct tune_row *row, int *told,
		   char *err, size_t len)
{
	struct case_spec c;
	uint64_t seed;
	if (probe_case(s, p, &c, &seed, err, len) < 0)
		return -1;
	struct tune_memo *m = memo_find(s, &c);
	if (!m) {
		if (!(m = memo_add(s, &c))) {
			snprintf(err, len, "out of memory");
			return -1;
		}
		int rc = evaluate_case(s, m, seed, err, len);
		if (rc != 0)
			return rc;
	}
	if (!m->done)
		return MEASURE_PENDING; /* in flight: the search ends here for now */
	/* The first time the search has this answer it is counted; a replay of
	 * a stepped sweep asks again and is answered from memory. */
	*told = !m->told;
	if (!m->told) {
		m->told = 1;
		tally(&s->shown, m->res.status);
		s->reused += (uint64_t)m->reused;
	}

	const struct result *res = &m->res;
	text_copy(row->variant, sizeof row->variant, p->variant);
	text_copy(row->config, sizeof row->config, p->config);
	row->role = p->role;
	row->status = res->status;
	row->outcome = res->outcome;
	row->timing = res->timing;
	if (res->timing.samples > 0 && res->timing.median_ms > 0 && res->timing.bytes > 0)
		row->gbps = res->timing.bytes / (res->timing.median_ms * 1e-3) / 1e9;
	row->reused = m->reused;
	text_copy(row->message, sizeof row->message, res->message);
	return 0;
}

/* A row's cost for the search: its median when it ran correctly and was
 * timed, else +inf. */
static double row_cost(const struct tune_row *r)
{
	return r->status == STATUS_PASS && r->timing.samples > 0 ? r->timing.median_ms : INFINITY;
}

static int runnable(const struct tune_session *s, const char *variant)
{
	const struct catalog_entry *e = catalog_lookup(s->cat, variant);
	return e && (!e->gpu || s->run.rn.rc.has_gpu);
}

/* Adds a measured row to the sweep; returns measure()'s verdict, or -1 when
 * out of memory. */
static int sweep_measure(struct tune_session *s, struct tune_sweep *sw, const struct probe *p,
			 long *index, int *told, char *err, size_t len)
{
	long i = sweep_add(sw);
	if (i < 0) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	int rc = measure(s, p, &sw->rows[i], told, err, len);
	if (rc != 0)
		sw->count--; /* nothing to show for it */
	*index = i;
	return rc;
}

/* Measures a family's references for this sweep: its copy bandwidth unless
 * stored for this device, and its baseline at this size. */
static int measure_refs(struct tune_session *s, struct tune_sweep *sw, struct tune_refs *r,
			char *err, size_t len)
{
	const struct tune_family *f = &r->family;
	long i;
	int rc, told;
	if (f->copy && runnable(s, f->copy)) {
		struct probe p = {f->copy, "", 0, DTYPE_F32, f->copy_n, 0, TUNE_COPY};
		struct case_spec c;
		uint64_t seed;
		if (probe_case(s, &p, &c, &seed, err, len) < 0)
			return -1;
		/* Measured by this session (a replay of a stepped sweep): shown
		 * as measured, not as stored. */
		int stored = memo_find(s, &c) ? 0
			: db_bandwidth_get(s->run.dbst.db, s->run.dbst.device_id, f->copy,
					   &r->copy_gbps, err, len);
		if (stored < 0)
			return -1;
		if (!stored) {
			if ((rc = sweep_measure(s, sw, &p, &i, &told, err, len)) != 0)
				return rc;
			const struct tune_row *row = &sw->rows[i];
			if (isfinite(row_cost(row)) && row->gbps > 0) {
				struct db_bandwidth b = {
					.device_id = s->run.dbst.device_id, .variant = f->copy,
					.bytes = row->timing.bytes, .median_ms = row->timing.median_ms,
					.gbps = row->gbps, .version = PACKAGE_VERSION,
					.git_revision = CONFORM_GIT_REVISION,
				};
				double since = text_now();
				int put = 0;
				while (told && (put = db_bandwidth_put(s->run.dbst.db, &b, err, len)) == DB_LOCKED &&
				       db_sink_wait(&s->run.dbst, since, "the copy bandwidth", err, len))
					;
				if (put < 0)
					return -1;
				r->copy_gbps = row->gbps;
				r->copy_measured = 1;
			}
		}
	}
	r->baseline = s->o.cols ? f->baseline_segmented : f->baseline;
	if (r->baseline && runnable(s, r->baseline)) {
		struct probe p = {r->baseline, "", 1, s->o.dtype, sw->n, s->o.cols, TUNE_BASELINE};
		if ((rc = sweep_measure(s, sw, &p, &i, &told, err, len)) != 0)
			return rc;
		double cost = row_cost(&sw->rows[i]);
		r->baseline_ms = isfinite(cost) ? cost : 0;
	} else {
		r->baseline = NULL;
	}
	return 0;
}

/* How search_variant() answers a question. */
typedef enum tune_verdict (*evaluate_fn)(void *ctx, uint64_t config, double *cost);

/* What the search's evaluate callback needs. */
struct search_ctx {
	struct tune_session *s;
	struct tune_sweep *sw;
	const struct tune_space *space;
	const char *variant;
	uint64_t budget, count; /* the search's budget, its space's configurations */
	uint64_t done, refused; /* measured evaluations, refused configurations */
	int rc;                 /* measure()'s verdict when it stopped the search */
	char *err;
	size_t len;
	/* The search's look ahead told with the evaluation it is about to ask
	 * for (tune_search.h), passed on to the session's compiles ahead when
	 * that evaluation is a new one (a stepped sweep's replays ask again
	 * what this session has answered). */
	uint64_t ahead[TUNE_AHEAD_MAX];
	size_t nahead;
	int compiles_ahead;     /* a user's kernel, and the session compiles ahead */
};

static void ahead(void *ctx, const uint64_t *configs, size_t n)
{
	struct search_ctx *x = ctx;
	x->nahead = n < TUNE_AHEAD_MAX ? n : TUNE_AHEAD_MAX;
	memcpy(x->ahead, configs, x->nahead * sizeof *configs);
}

/* The probe of configuration `index` of the search's variant, its text
 * in config.  Returns 0, or -1 with a message. */
static int search_probe(struct search_ctx *x, uint64_t index, char config[CASE_PARAMS_MAX],
			struct probe *p)
{
	struct tune_config cfg;
	tune_space_at(x->space, index, &cfg);
	if (tune_space_encode(x->space, &cfg, config, CASE_PARAMS_MAX) < 0) {
		snprintf(x->err, x->len, "%s: a configuration does not fit in %d bytes", x->variant,
			 CASE_PARAMS_MAX);
		return -1;
	}
	*p = (struct probe){x->variant, config, 1, x->s->o.dtype, x->sw->n, x->s->o.cols, TUNE_TUNED};
	return 0;
}

/* The case of configuration `index`.  Returns 0, or -1 with a message. */
static int search_case(struct search_ctx *x, uint64_t index, struct case_spec *c)
{
	char config[CASE_PARAMS_MAX];
	struct probe p;
	uint64_t seed;
	if (search_probe(x, index, config, &p) < 0)
		return -1;
	return probe_case(x->s, &p, c, &seed, x->err, x->len);
}

/* Has the session compile configuration `index`, about to be measured,
 * and the look ahead's after it, unless this session has measured (or
 * begun) `index` already.  `index` heads the list: one told of before
 * stays told of (compile_pool_ahead replaces the rest). */
static void compile_ahead(struct search_ctx *x, uint64_t index)
{
	size_t n = x->nahead;
	x->nahead = 0;
	struct case_spec *cs = malloc((n + 1) * sizeof *cs);
	const struct case_spec *ptrs[TUNE_AHEAD_MAX + 1];
	if (!cs)
		return; /* nothing ahead: each case's worker compiles */
	size_t k = 0;
	if (search_case(x, index, &cs[0]) == 0 && !memo_find(x->s, &cs[0])) {
		ptrs[k++] = &cs[0];
		for (size_t i = 0; i < n; i++)
			if (search_case(x, x->ahead[i], &cs[k]) == 0) {
				ptrs[k] = &cs[k];
				k++;
			}
	}
	if (k)
		session_compile_ahead(&x->s->run, ptrs, k);
	free(cs);
}

static enum tune_verdict evaluate(void *ctx, uint64_t index, double *cost)
{
	struct search_ctx *x = ctx;
	char config[CASE_PARAMS_MAX];
	struct probe p;
	if (x->compiles_ahead)
		compile_ahead(x, index);
	if (search_probe(x, index, config, &p) < 0) {
		x->rc = -1;
		return TUNE_STOP;
	}
	long i;
	int told;
	x->rc = sweep_measure(x->s, x->sw, &p, &i, &told, x->err, x->len);
	if (x->rc != 0)
		return TUNE_STOP;
	const struct tune_row *row = &x->sw->rows[i];
	int refused = row->outcome == OUTCOME_INVALID;
	/* The progress counts what the budget counts, measured evaluations:
	 * a refused configuration is free (tune_search.h), and counted in done
	 * it took the line past its total ("8/6").  It lowers the total
	 * instead once the configurations not refused are fewer than the
	 * budget, so that an exhaustive search still ends at its total. */
	if (refused)
		x->refused++;
	else
		x->done++;
	uint64_t left = x->count - x->refused;
	if (told && x->s->progress.fn)
		x->s->progress.fn(x->s->progress.ctx, x->variant, x->done,
				  left < x->budget ? left : x->budget);
	if (refused)
		return TUNE_INVALID;
	*cost = row_cost(row);
	return TUNE_MEASURED;
}

/* Fastest timed first, then the other results, then the refused ones. */
static int row_rank(const struct tune_row *r)
{
	if (isfinite(row_cost(r)))
		return 0;
	return r->outcome == OUTCOME_INVALID ? 2 : 1;
}

static int row_order(const void *a, const void *b)
{
	const struct tune_row *x = a, *y = b;
	int rx = row_rank(x), ry = row_rank(y);
	if (rx != ry)
		return rx - ry;
	if (rx == 0 && x->timing.median_ms != y->timing.median_ms)
		return x->timing.median_ms < y->timing.median_ms ? -1 : 1;
	return strcmp(x->config, y->config);
}

static struct tune_refs *refs_for(const struct tune_session *s, struct tune_sweep *sw, const char *variant)
{
	struct tune_family f;
	if (!tune_family_of(s->cat, variant, &f))
		return NULL;
	for (size_t i = 0; i < sw->nrefs; i++)
		if (family_same(&sw->refs[i].family, &f))
			return &sw->refs[i];
	return NULL;
}

/* An evaluate callback that stops the search at its first question,
 * having the session compile it and the look ahead then (compile_ahead):
 * the strategies are deterministic, so the search proper asks the same. */
static enum tune_verdict evaluate_first(void *ctx, uint64_t index, double *cost)
{
	(void)cost;
	compile_ahead(ctx, index);
	return TUNE_STOP;
}

/* Searches e's space, each configuration measured by `fn` (evaluate, or
 * evaluate_first). */
static int search_variant(struct tune_session *s, struct tune_sweep *sw,
			  const struct catalog_entry *e, evaluate_fn fn, char *err, size_t len)
{
	struct tune_space *space = malloc(sizeof *space);
	if (!space) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	if (tune_space_parse(space, e->space, err, len) < 0) {
		char why[512];
		text_copy(why, sizeof why, err);
		snprintf(err, len, "%s: %s", e->name, why);
		free(space);
		return -1;
	}
	struct tune_search_config cfg = {
		.budget = s->o.budget, .time_limit_s = s->o.time_limit_s, .seed = s->o.seed,
	};
	struct search_ctx x = {.s = s, .sw = sw, .space = space, .variant = e->name, .err = err, .len = len};
	/* A user's kernel: what the search asks next is compiled meanwhile,
	 * as many as the session compiles at once. */
	if (e->source[0] && session_compile_width(&s->run)) {
		cfg.ahead_max = session_compile_width(&s->run);
		x.compiles_ahead = 1;
	}
	x.budget = tune_search_budget(s->o.strategy, space, &cfg);
	x.count = tune_space_count(space);
	size_t first = sw->count;
	struct tune_search *search;
	struct tune_question q;
	if (tune_search_open(s->o.strategy, space, &cfg, &search, err, len) < 0) {
		free(space);
		return -1;
	}
	while (tune_search_next(search, &q)) {
		double cost = INFINITY;
		if (q.nahead)
			ahead(&x, q.ahead, q.nahead);
		enum tune_verdict v = fn(&x, q.config, &cost);
		tune_search_tell(search, q.config, v, cost);
	}
	tune_search_close(search);
	free(space);
	/* Also after an interruption: what was measured is shown ranked. */
	qsort(sw->rows + first, sw->count - first, sizeof sw->rows[0], row_order);
	size_t ntimed = 0;
	while (first + ntimed < sw->count && row_rank(&sw->rows[first + ntimed]) == 0)
		ntimed++;
	tune_tie_pick(sw->rows + first, ntimed);
	return x.rc;
}

/* The sweep, to its end or - stepped - to the first evaluation it has to
 * wait for (MEASURE_PENDING). */
static int sweep_run(struct tune_session *s, const struct catalog_entry *const *variants,
		     size_t nvariants, int64_t n, struct tune_sweep *sw, char *err, size_t len)
{
	int rc = 0;
	memset(sw, 0, sizeof *sw);
	sw->n = n;
	/* The first kernel file's first configurations compile while the
	 * references are measured (seconds at large sizes). */
	for (size_t v = 0; v < nvariants && session_compile_width(&s->run); v++)
		if (variants[v]->source[0] && runnable(s, variants[v]->name)) {
			rc = search_variant(s, sw, variants[v], evaluate_first, err, len);
			break;
		}
	for (size_t v = 0; v < nvariants && rc == 0; v++) {
		struct tune_family f;
		if (!tune_family_of(s->cat, variants[v]->name, &f) || refs_for(s, sw, variants[v]->name) ||
		    sw->nrefs == TUNE_FAMILIES_MAX)
			continue;
		struct tune_refs *r = &sw->refs[sw->nrefs++];
		r->family = f;
		rc = measure_refs(s, sw, r, err, len);
	}
	for (size_t v = 0; v < nvariants && rc == 0; v++) {
		if (s->stop && *s->stop)
			rc = 1;
		else
			rc = search_variant(s, sw, variants[v], evaluate, err, len);
	}
	for (size_t i = 0; i < sw->count; i++) {
		const struct tune_refs *r = refs_for(s, sw, sw->rows[i].variant);
		if (r) {
			sw->rows[i].copy_gbps = r->copy_gbps;
			sw->rows[i].baseline_ms = r->baseline_ms;
		}
	}
	return rc;
}

int tune_sweep_run(struct tune_session *s, const struct catalog_entry *const *variants,
		   size_t nvariants, int64_t n, struct tune_sweep *sw, char *err, size_t len)
{
	s->stepped = 0;
	return sweep_run(s, variants, nvariants, n, sw, err, len);
}

void tune_sweep_begin(struct tune_session *s, const struct catalog_entry *const *variants,
		      size_t nvariants, int64_t n)
{
	s->stepped = 1;
	s->step_variants = variants;
	s->step_nvariants = nvariants;
	s->step_n = n;
	s->pending = NULL;
}

enum tune_step tune_sweep_step(struct tune_session *s, double wait_s, struct tune_sweep *sw,
			       char *err, size_t len)
{
	if (s->pending) {
		switch (runner_case_poll(&s->run.rn, wait_s, &s->pending->res)) {
		case RUNNER_BUSY:
			return TUNE_STEP_BUSY;
		case RUNNER_INTERRUPTED:
			s->pending = NULL;
			return TUNE_STEP_INTERRUPTED;
		case RUNNER_RESULT:
			break;
		}
		struct tune_memo *m = s->pending;
		s->pending = NULL;
		if (memo_done(s, m, err, len) < 0)
			return TUNE_STEP_FAILED;
	}
	tune_sweep_free(sw);
	switch (sweep_run(s, s->step_variants, s->step_nvariants, s->step_n, sw, err, len)) {
	case 0:
		return TUNE_STEP_SWEPT;
	case 1:
		return TUNE_STEP_INTERRUPTED;
	case MEASURE_PENDING:
		return TUNE_STEP_BUSY;
	default:
		return TUNE_STEP_FAILED;
	}
}
