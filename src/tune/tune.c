/*
 * tune.c - the tuner (see tune.h).
 *
 * evaluation_begin() is the one road to a number: every evaluation,
 * reference or configuration, is either answered from the database or run
 * as a case through the session (the runner's worker under the watchdog,
 * judged as any case) and stored through its database sink, so a hang or a
 * crash is a TIMEOUT or CRASH row like any other and the next evaluation
 * gets a fresh worker.
 *
 * A sweep is a small machine (struct tune_sweeping) with one evaluation out
 * at a time: its stage says what it does next (have the first kernel file's
 * first configurations compiled, measure each family's references, then
 * search each variant), and each variant's search is an ask/tell object
 * (tune_search.h) asked once for each evaluation and told its answer.
 * tune_sweep_run() drives the machine with evaluations run to the end;
 * tune_sweep_step() with evaluations begun and polled, the machine and its
 * search kept between steps.  Both take the same path through it.
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

int tune_open(struct tune_session *s, const struct tune_options *o, const struct session_config *cfg,
	      char *err, size_t len)
{
	memset(s, 0, sizeof *s);
	s->o = *o;
	s->cat = cfg->catalog;
	s->stop = cfg->stop;
	struct session_config c = *cfg;
	c.timing = &s->o.timing;
	c.seed = o->seed;
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
	/* The energy burst after the samples ends by itself within
	 * ENERGY_BURST_MAX_S: a deadline set for the measurement must not
	 * kill it as hung.  Host variants have no burst. */
	const struct catalog_entry *e = catalog_lookup(s->cat, p->variant);
	if (s->o.timing.energy && (!e || e->gpu))
		c.timeout_s += ENERGY_BURST_MAX_S;

	*cp = c;
	*seed = rng_case_seed(s->o.seed, problem);
	return 0;
}

/* Returned by the sweep while the evaluation it began is in flight. */
#define SWEEP_PENDING 2

/* A reference this session has measured (see tune_session in tune.h). */
struct tune_reference {
	char name[CASE_NAME_MAX];
	char params[CASE_PARAMS_MAX];
	struct result res;      /* what its rows show; res.c not kept */
	int reused;
};

/* What an evaluation answers. */
enum purpose { FOR_COPY, FOR_BASELINE, FOR_CONFIG };

/* The one evaluation a sweep has out at a time: begun, maybe in flight,
 * then answered. */
struct evaluation {
	enum { EV_NONE, EV_IN_FLIGHT, EV_ANSWERED } state;
	enum purpose purpose;
	struct probe p;
	char config[CASE_PARAMS_MAX]; /* p.config's text */
	struct case_spec c;     /* stays here while in flight: the runner points at it */
	struct result res;      /* the answer when EV_ANSWERED */
	int reused;             /* answered from the database */
	int told;               /* answered for the first time this session (counted, shown) */
};

/* A variant's search in a sweep. */
struct variant_search {
	const struct catalog_entry *e;
	struct tune_space space;
	struct tune_search *search;
	struct tune_question q; /* the question being evaluated */
	size_t first;           /* its first row in the sweep */
	uint64_t budget;        /* the search's budget */
	int compiles_ahead;     /* a user's kernel, and the session compiles ahead */
};

/* Where a sweep stands: what it does next. */
enum sweep_stage {
	STAGE_FIRST,            /* have the first kernel file's first questions compiled */
	STAGE_REFS,             /* find the next family to measure the references of */
	STAGE_COPY,             /* measure its copy bandwidth */
	STAGE_BASELINE,         /* measure its baseline */
	STAGE_SEARCH,           /* open the next variant's search */
	STAGE_ASK,              /* evaluate its next question */
	STAGE_DONE,
};

/* A sweep in progress, straight through or stepped (see tune.h). */
struct tune_sweeping {
	const struct catalog_entry *const *variants;
	size_t nvariants;
	int stepped;
	struct tune_sweep sw;
	enum sweep_stage stage;
	size_t v;               /* STAGE_REFS, STAGE_SEARCH: the variant looked at next */
	struct tune_refs *refs; /* STAGE_COPY, STAGE_BASELINE: the family measured */
	struct variant_search vs; /* STAGE_ASK: the search (vs.search set) */
	struct evaluation ev;
};

static struct tune_reference *reference_find(const struct tune_session *s, const struct case_spec *c)
{
	for (size_t i = 0; i < s->nreferences; i++)
		if (strcmp(s->references[i].name, c->name) == 0 &&
		    strcmp(s->references[i].params, c->params) == 0)
			return &s->references[i];
	return NULL;
}

static int reference_add(struct tune_session *s, const struct evaluation *ev)
{
	struct tune_reference r;
	memset(&r, 0, sizeof r);
	text_copy(r.name, sizeof r.name, ev->c.name);
	text_copy(r.params, sizeof r.params, ev->c.params);
	r.res = ev->res;
	r.res.c = NULL;
	r.reused = ev->reused;
	return vec_push(s->references, s->nreferences, s->references_cap, r);
}

/* ev's case has its result: it is stored like any other case. */
static int evaluation_done(struct tune_session *s, struct evaluation *ev, char *err, size_t len)
{
	ev->state = EV_ANSWERED;
	return session_report(&s->run, &ev->res, 0, 0, err, len);
}

/*
 * Begins evaluation ev of probe ev->p: its case is answered from the
 * database, or run - to the end, or, stepped, only begun (ev->state is then
 * EV_IN_FLIGHT and tune_sweep_step() finishes it).  A reference this
 * session has measured is answered as it was.  Returns 0, 1 when
 * interrupted, -1 with a message.
 */
static int evaluation_begin(struct tune_session *s, struct evaluation *ev, char *err, size_t len)
{
	uint64_t seed;
	if (probe_case(s, &ev->p, &ev->c, &seed, err, len) < 0)
		return -1;
	memset(&ev->res, 0, sizeof ev->res);
	ev->res.c = &ev->c;
	ev->res.seed = seed;
	ev->res.err_norm = -1;
	ev->reused = 0;
	ev->told = 1;
	if (ev->purpose != FOR_CONFIG) {
		const struct tune_reference *r = reference_find(s, &ev->c);
		if (r) {
			ev->res = r->res;
			ev->res.c = &ev->c;
			ev->reused = r->reused;
			ev->told = 0;
			ev->state = EV_ANSWERED;
			return 0;
		}
	}
	const struct catalog_entry *e = catalog_lookup(s->cat, ev->c.variant);
	if (!s->o.fresh) {
		struct db_tuned_key k = {
			.device_id = s->run.dbst.device_id, .git_revision = CONFORM_GIT_REVISION,
			.variant = ev->c.variant, .dtype = ev->c.dtype, .n = ev->c.n, .cols = ev->c.cols,
			.params = ev->c.params, .source = e && e->source[0] ? e->source : NULL,
		};
		int found = db_tuned_find(s->run.dbst.db, &k, &ev->res, err, len);
		if (found < 0)
			return -1;
		if (found) {
			ev->reused = 1;
			ev->state = EV_ANSWERED;
			/* Not stored again, but counted: a tune the database
			 * answered records the evaluations it found. */
			tally(&s->run.sum, ev->res.status);
			return 0;
		}
	}
	if (!s->sweeping->stepped)
		return session_run_case(&s->run, &ev->c, seed, &ev->res) ? 1 : evaluation_done(s, ev, err, len);
	switch (runner_case_start(&s->run.rn, &ev->c, seed, &ev->res)) {
	case RUNNER_BUSY:
		ev->state = EV_IN_FLIGHT;
		return 0;
	case RUNNER_INTERRUPTED:
		return 1;
	case RUNNER_RESULT:
		break;
	}
	return evaluation_done(s, ev, err, len);
}

/* Begins evaluating probe p for `purpose` (evaluation_begin). */
static int sweep_evaluate(struct tune_session *s, enum purpose purpose, const struct probe *p,
			  char *err, size_t len)
{
	struct evaluation *ev = &s->sweeping->ev;
	ev->purpose = purpose;
	ev->p = *p;
	text_copy(ev->config, sizeof ev->config, p->config);
	ev->p.config = ev->config;
	return evaluation_begin(s, ev, err, len);
}

/* Adds the answered evaluation's row to the sweep, counted the first time
 * this session has it.  Returns the row, or NULL when out of memory. */
static struct tune_row *evaluation_row(struct tune_session *s, struct evaluation *ev)
{
	struct tune_sweep *sw = &s->sweeping->sw;
	if (ev->told && ev->purpose != FOR_CONFIG && reference_add(s, ev) < 0)
		return NULL;
	long i = sweep_add(sw);
	if (i < 0)
		return NULL;
	struct tune_row *row = &sw->rows[i];
	if (ev->told) {
		tally(&s->shown, ev->res.status);
		s->reused += (uint64_t)ev->reused;
	}
	const struct result *res = &ev->res;
	text_copy(row->variant, sizeof row->variant, ev->p.variant);
	text_copy(row->config, sizeof row->config, ev->p.config);
	row->role = ev->p.role;
	row->status = res->status;
	row->outcome = res->outcome;
	row->timing = res->timing;
	/* --no-energy: none measured, and none shown of a result stored
	 * with one. */
	if (!s->o.timing.energy)
		memset(&row->timing.energy, 0, sizeof row->timing.energy);
	if (res->timing.samples > 0 && res->timing.median_ms > 0 && res->timing.bytes > 0)
		row->gbps = res->timing.bytes / (res->timing.median_ms * 1e-3) / 1e9;
	row->reused = ev->reused;
	text_copy(row->message, sizeof row->message, res->message);
	return row;
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

/* The probe of configuration `index` of vs's variant, its text in config.
 * Returns 0, or -1 with a message. */
static int search_probe(const struct tune_session *s, const struct variant_search *vs,
			uint64_t index, char config[CASE_PARAMS_MAX], struct probe *p, char *err,
			size_t len)
{
	struct tune_config cfg;
	tune_space_at(&vs->space, index, &cfg);
	if (tune_space_encode(&vs->space, &cfg, config, CASE_PARAMS_MAX) < 0) {
		snprintf(err, len, "%s: a configuration does not fit in %d bytes", vs->e->name,
			 CASE_PARAMS_MAX);
		return -1;
	}
	*p = (struct probe){vs->e->name, config, 1, s->o.dtype, s->sweeping->sw.n, s->o.cols, TUNE_TUNED};
	return 0;
}

/* Has the session compile the question's configuration, about to be
 * measured, and its look ahead.  The question heads the list: one told of
 * before stays told of (compile_pool_ahead replaces the rest). */
static void compile_ahead(struct tune_session *s, const struct variant_search *vs,
			  const struct tune_question *q)
{
	struct case_spec *cs = malloc((q->nahead + 1) * sizeof *cs);
	const struct case_spec *ptrs[TUNE_AHEAD_MAX + 1];
	char config[CASE_PARAMS_MAX], err[256];
	struct probe p;
	uint64_t seed;
	size_t k = 0;
	if (!cs)
		return; /* nothing ahead: each case's worker compiles */
	for (size_t i = 0; i <= q->nahead; i++) {
		uint64_t index = i ? q->ahead[i - 1] : q->config;
		if (search_probe(s, vs, index, config, &p, err, sizeof err) == 0 &&
		    probe_case(s, &p, &cs[k], &seed, err, sizeof err) == 0) {
			ptrs[k] = &cs[k];
			k++;
		} else if (i == 0) {
			break; /* the question itself cannot be run: nothing to prepare */
		}
	}
	if (k)
		session_compile_ahead(&s->run, ptrs, k);
	free(cs);
}

/* Opens the search of e's space into vs.  Returns 0, or -1 with a message. */
static int variant_search_open(struct tune_session *s, struct variant_search *vs,
			       const struct catalog_entry *e, char *err, size_t len)
{
	memset(vs, 0, sizeof *vs);
	vs->e = e;
	if (tune_space_parse(&vs->space, e->space, err, len) < 0) {
		char why[512];
		text_copy(why, sizeof why, err);
		snprintf(err, len, "%s: %s", e->name, why);
		return -1;
	}
	struct tune_search_config cfg = {
		.budget = s->o.budget, .time_limit_s = s->o.time_limit_s, .seed = s->o.seed,
		.objective = s->o.objective,
	};
	/* A user's kernel: what the search asks next is compiled meanwhile,
	 * as many as the session compiles at once. */
	if (e->source[0] && session_compile_width(&s->run)) {
		cfg.ahead_max = session_compile_width(&s->run);
		vs->compiles_ahead = 1;
	}
	vs->budget = tune_search_budget(s->o.strategy, &vs->space, &cfg);
	vs->first = s->sweeping->sw.count;
	return tune_search_open(s->o.strategy, &vs->space, &cfg, &vs->search, err, len);
}

/* Marks the timed rows[0..n) on their Pareto front of time and energy. */
static void mark_pareto(struct tune_row *rows, size_t n)
{
	struct objective_key *k = malloc((n ? n : 1) * sizeof *k);
	int *front = malloc((n ? n : 1) * sizeof *front);
	for (size_t i = 0; k && front && i < n; i++)
		tune_row_key(&rows[i], &k[i]);
	if (k && front) {
		objective_pareto(k, n, front);
		for (size_t i = 0; i < n; i++)
			rows[i].pareto = front[i];
	}
	/* Out of memory: no row is marked, as without energy. */
	free(k);
	free(front);
}

/* Ends vs's search, if open: what it measured is shown ranked (also after
 * an interruption), its best picked among the ties by the objective, and
 * its Pareto front marked. */
static void variant_search_close(struct tune_session *s, struct variant_search *vs)
{
	struct tune_sweep *sw = &s->sweeping->sw;
	if (!vs->search)
		return;
	tune_search_close(vs->search);
	vs->search = NULL;
	if (sw->count == vs->first)
		return; /* it measured nothing: the sweep may have no rows yet */
	qsort(sw->rows + vs->first, sw->count - vs->first, sizeof sw->rows[0], row_order);
	size_t ntimed = 0;
	while (vs->first + ntimed < sw->count && row_rank(&sw->rows[vs->first + ntimed]) == 0)
		ntimed++;
	mark_pareto(sw->rows + vs->first, ntimed);
	tune_tie_pick(sw->rows + vs->first, ntimed, s->o.objective);
}

/* The first kernel file's first configurations compile while the
 * references are measured (seconds at large sizes): its search's first
 * question and look ahead, which the search proper asks again (the
 * strategies are deterministic).  Returns 0, or -1 with a message. */
static int compile_first(struct tune_session *s, char *err, size_t len)
{
	struct tune_sweeping *st = s->sweeping;
	for (size_t v = 0; v < st->nvariants && session_compile_width(&s->run); v++)
		if (st->variants[v]->source[0] && runnable(s, st->variants[v]->name)) {
			struct tune_question q;
			int rc = variant_search_open(s, &st->vs, st->variants[v], err, len);
			if (rc == 0 && tune_search_next(st->vs.search, &q))
				compile_ahead(s, &st->vs, &q);
			/* A look, not the search: nothing to rank. */
			tune_search_close(st->vs.search);
			st->vs.search = NULL;
			return rc;
		}
	return 0;
}

/* A family's copy bandwidth: measured unless stored for this device. */
static int copy_begin(struct tune_session *s, char *err, size_t len)
{
	struct tune_refs *r = s->sweeping->refs;
	const struct tune_family *f = &r->family;
	if (!f->copy || !runnable(s, f->copy))
		return 0;
	struct probe p = {f->copy, "", 0, DTYPE_F32, f->copy_n, 0, TUNE_COPY};
	struct case_spec c;
	uint64_t seed;
	if (probe_case(s, &p, &c, &seed, err, len) < 0)
		return -1;
	/* Measured by this session (an earlier sweep, another family): shown
	 * as measured, not as stored. */
	int stored = reference_find(s, &c) ? 0
		: db_bandwidth_get(s->run.dbst.db, s->run.dbst.device_id, f->copy, &r->copy_gbps,
				   err, len);
	if (stored < 0)
		return -1;
	return stored ? 0 : sweep_evaluate(s, FOR_COPY, &p, err, len);
}

/* The copy's row: its bandwidth, stored for the device the first time. */
static int copy_answered(struct tune_session *s, const struct tune_row *row, int told, char *err,
			 size_t len)
{
	struct tune_refs *r = s->sweeping->refs;
	if (!isfinite(row_cost(row)) || row->gbps <= 0)
		return 0;
	struct db_bandwidth b = {
		.device_id = s->run.dbst.device_id, .variant = r->family.copy,
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
	return 0;
}

/* A family's baseline at this size. */
static int baseline_begin(struct tune_session *s, char *err, size_t len)
{
	struct tune_refs *r = s->sweeping->refs;
	const struct tune_family *f = &r->family;
	r->baseline = s->o.cols ? f->baseline_segmented : f->baseline;
	if (!r->baseline || !runnable(s, r->baseline)) {
		r->baseline = NULL;
		return 0;
	}
	struct probe p = {r->baseline, "", 1, s->o.dtype, s->sweeping->sw.n, s->o.cols, TUNE_BASELINE};
	return sweep_evaluate(s, FOR_BASELINE, &p, err, len);
}

/* A configuration's row, told to its search.  The progress counts what the
 * budget counts, measured evaluations: a refused configuration is free
 * (tune_search.h), and counted in done it took the line past its total
 * ("8/6").  It lowers the total instead once the configurations not refused
 * are fewer than the budget, so that an exhaustive search still ends at its
 * total. */
static void config_answered(struct tune_session *s, const struct tune_row *row)
{
	struct variant_search *vs = &s->sweeping->vs;
	struct tune_search_result sr;
	int refused = row->outcome == OUTCOME_INVALID;
	struct objective_key k;
	tune_row_key(row, &k);
	k.median_ms = row_cost(row);
	tune_search_tell_key(vs->search, vs->q.config, refused ? TUNE_INVALID : TUNE_MEASURED, &k);
	tune_search_result(vs->search, &sr);
	uint64_t left = tune_space_count(&vs->space) - sr.invalid;
	if (s->progress.fn)
		s->progress.fn(s->progress.ctx, vs->e->name, sr.evaluated, left < vs->budget ? left : vs->budget);
}

/* The evaluation out has its answer: its row, and what it was for.
 * Returns 0, or -1 with a message. */
static int sweep_answered(struct tune_session *s, char *err, size_t len)
{
	struct evaluation *ev = &s->sweeping->ev;
	ev->state = EV_NONE;
	const struct tune_row *row = evaluation_row(s, ev);
	if (!row) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	switch (ev->purpose) {
	case FOR_COPY:
		return copy_answered(s, row, ev->told, err, len);
	case FOR_BASELINE: {
		double cost = row_cost(row);
		s->sweeping->refs->baseline_ms = isfinite(cost) ? cost : 0;
		return 0;
	}
	case FOR_CONFIG:
		config_answered(s, row);
		return 0;
	}
	return 0;
}

/* Does what the sweep does next from its stage: begins an evaluation, or
 * moves on.  Returns 0, 1 when interrupted, -1 with a message. */
static int sweep_next(struct tune_session *s, char *err, size_t len)
{
	struct tune_sweeping *st = s->sweeping;
	struct tune_sweep *sw = &st->sw;
	struct variant_search *vs = &st->vs;
	switch (st->stage) {
	case STAGE_FIRST:
		st->stage = STAGE_REFS;
		return compile_first(s, err, len);
	case STAGE_REFS: {
		if (st->v == st->nvariants) {
			st->stage = STAGE_SEARCH;
			st->v = 0;
			return 0;
		}
		const char *name = st->variants[st->v++]->name;
		struct tune_family f;
		if (!tune_family_of(s->cat, name, &f) || refs_for(s, sw, name) || sw->nrefs == TUNE_FAMILIES_MAX)
			return 0;
		st->refs = &sw->refs[sw->nrefs++];
		st->refs->family = f;
		st->stage = STAGE_COPY;
		return 0;
	}
	case STAGE_COPY:
		st->stage = STAGE_BASELINE;
		return copy_begin(s, err, len);
	case STAGE_BASELINE:
		st->stage = STAGE_REFS;
		return baseline_begin(s, err, len);
	case STAGE_SEARCH:
		if (st->v == st->nvariants) {
			st->stage = STAGE_DONE;
			return 0;
		}
		if (s->stop && *s->stop)
			return 1;
		if (variant_search_open(s, vs, st->variants[st->v++], err, len) < 0)
			return -1;
		st->stage = STAGE_ASK;
		return 0;
	case STAGE_ASK: {
		char config[CASE_PARAMS_MAX];
		struct probe p;
		if (!tune_search_next(vs->search, &vs->q)) {
			variant_search_close(s, vs);
			st->stage = STAGE_SEARCH;
			return 0;
		}
		if (vs->compiles_ahead)
			compile_ahead(s, vs, &vs->q);
		if (search_probe(s, vs, vs->q.config, config, &p, err, len) < 0)
			return -1;
		return sweep_evaluate(s, FOR_CONFIG, &p, err, len);
	}
	case STAGE_DONE:
		break;
	}
	return 0;
}

/* Runs the sweep on until it is done (0), interrupted (1), failed (-1, a
 * message in err) or - stepped - waiting for the evaluation in flight
 * (SWEEP_PENDING). */
static int sweep_advance(struct tune_session *s, char *err, size_t len)
{
	struct tune_sweeping *st = s->sweeping;
	while (st->stage != STAGE_DONE) {
		if (st->ev.state == EV_IN_FLIGHT)
			return SWEEP_PENDING;
		int rc = st->ev.state == EV_ANSWERED ? sweep_answered(s, err, len) : sweep_next(s, err, len);
		if (rc != 0)
			return rc;
	}
	return 0;
}

static int sweep_start(struct tune_session *s, const struct catalog_entry *const *variants,
		       size_t nvariants, int64_t n, int stepped)
{
	struct tune_sweeping *st = calloc(1, sizeof *st);
	if (!st)
		return -1;
	st->variants = variants;
	st->nvariants = nvariants;
	st->stepped = stepped;
	st->sw.n = n;
	st->stage = STAGE_FIRST;
	s->sweeping = st;
	return 0;
}

/* The sweep is over, whatever its end: its rows, each variant's ranked and
 * each with its family's references, go to sw. */
static void sweep_end(struct tune_session *s, struct tune_sweep *sw)
{
	struct tune_sweeping *st = s->sweeping;
	variant_search_close(s, &st->vs);
	for (size_t i = 0; i < st->sw.count; i++) {
		const struct tune_refs *r = refs_for(s, &st->sw, st->sw.rows[i].variant);
		if (r) {
			st->sw.rows[i].copy_gbps = r->copy_gbps;
			st->sw.rows[i].baseline_ms = r->baseline_ms;
		}
	}
	*sw = st->sw;
	free(st);
	s->sweeping = NULL;
}

/* Drops a sweep left unfinished (the session closes under it). */
static void sweep_discard(struct tune_session *s)
{
	if (!s->sweeping)
		return;
	tune_search_close(s->sweeping->vs.search);
	tune_sweep_free(&s->sweeping->sw);
	free(s->sweeping);
	s->sweeping = NULL;
}

int tune_sweep_run(struct tune_session *s, const struct catalog_entry *const *variants,
		   size_t nvariants, int64_t n, struct tune_sweep *sw, char *err, size_t len)
{
	memset(sw, 0, sizeof *sw);
	sweep_discard(s);
	if (sweep_start(s, variants, nvariants, n, 0) < 0) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	int rc = sweep_advance(s, err, len);
	sweep_end(s, sw);
	return rc;
}

void tune_sweep_begin(struct tune_session *s, const struct catalog_entry *const *variants,
		      size_t nvariants, int64_t n)
{
	sweep_discard(s);
	sweep_start(s, variants, nvariants, n, 1); /* out of memory: the first step says so */
}

enum tune_step tune_sweep_step(struct tune_session *s, double wait_s, struct tune_sweep *sw,
			       char *err, size_t len)
{
	struct tune_sweeping *st = s->sweeping;
	int rc = 0;
	if (!st) {
		snprintf(err, len, "out of memory");
		return TUNE_STEP_FAILED;
	}
	if (st->ev.state == EV_IN_FLIGHT) {
		switch (runner_case_poll(&s->run.rn, wait_s, &st->ev.res)) {
		case RUNNER_BUSY:
			return TUNE_STEP_BUSY;
		case RUNNER_INTERRUPTED:
			st->ev.state = EV_NONE;
			rc = 1;
			break;
		case RUNNER_RESULT:
			rc = evaluation_done(s, &st->ev, err, len);
			break;
		}
	}
	if (rc == 0 && (rc = sweep_advance(s, err, len)) == SWEEP_PENDING)
		return TUNE_STEP_BUSY;
	tune_sweep_free(sw);
	sweep_end(s, sw);
	return rc == 0 ? TUNE_STEP_SWEPT : rc == 1 ? TUNE_STEP_INTERRUPTED : TUNE_STEP_FAILED;
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
	sweep_discard(s);
	vec_free(s->references, s->nreferences, s->references_cap);
	return rc;
}
