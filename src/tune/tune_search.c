/*
 * tune_search.c - the search strategies (see tune_search.h).
 *
 * The search keeps a cost per configuration (an objective_key: the median,
 * NaN until told, and the energy), and compares two with cost_cmp(), the
 * objective's rule; a strategy reads them to know what is known.  tune_search_next() asks the strategy to
 * propose a configuration not asked yet and asks it, unless the budget, the
 * time limit or a stop says the search is over; tune_search_tell() records
 * the answer (an invalid configuration as +inf, a wall to a walk, but not
 * counted) and passes it to the strategy.  While it proposes, a strategy
 * fills the question's look ahead (the foresee_* helpers); working it out
 * draws nothing from the random stream.
 *
 * A strategy is the state its loop would keep in local variables: where it
 * is in its order, or where its walk stands and whether the question out is
 * a walk's start or a step.  Reading known costs is free, so a strategy may
 * move over known ground within one proposal; it stops at the first
 * configuration it has to ask about.
 */
#include "tune/tune_search.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "common/text.h"

/* Simulated annealing's walk (see "Simulated annealing" below). */
struct walk {
	uint64_t cur;
	struct objective_key cur_cost;
	uint32_t id;           /* walk number, recorded with what it evaluates */
	uint32_t *walk_of;     /* per configuration: the walk that evaluated it */
	int stale;             /* steps since the last new evaluation */
	int restart;           /* the next proposal starts walk id + 1 */
	int starting;          /* the question out is the walk's start, not a step */
	uint64_t steps, max_steps;
	int max_stale;
};

struct tune_search {
	const struct tune_strategy *st;
	const struct tune_space *space;
	struct tune_search_config cfg;
	uint64_t count;
	uint64_t budget;
	double t0;
	struct objective_key *cost; /* per configuration; median NaN: not asked */
	struct rng rng;
	struct tune_search_result out;
	int over;             /* no further question */
	int asking;           /* q is out, not told yet */
	struct tune_question q;
	/* The strategies' own state. */
	uint64_t next;        /* exhaustive and random: the place in the order */
	uint32_t *order;      /* random: the order drawn */
	struct walk walk;     /* anneal */
};

struct tune_strategy {
	const char *name;
	int whole_space;      /* its default budget is every configuration */
	/* Sets up the strategy's state; 0, or -1 when out of memory.  NULL:
	 * nothing to set up. */
	int (*open)(struct tune_search *s);
	/* The next configuration to ask, not asked yet, into *config, its
	 * look ahead in s->q; returns 1, or 0 when the strategy is done. */
	int (*propose)(struct tune_search *s, uint64_t *config);
	/* The answer to the configuration proposed (recorded already); NULL:
	 * the strategy does not care. */
	void (*told)(struct tune_search *s, uint64_t config, const struct objective_key *cost);
};

/* Configuration i has not been asked about. */
static int unknown(const struct tune_search *s, uint64_t i)
{
	return isnan(s->cost[i].median_ms);
}

/* < 0 when a is cheaper than b, > 0 dearer, 0 equal: the objective's rule
 * (see tune_search.h).  A failure (median +inf, no energy) is dearer than
 * anything measured. */
static int cost_cmp(const struct tune_search *s, const struct objective_key *a,
		    const struct objective_key *b)
{
	return objective_rank_cmp(s->cfg.objective, a, b);
}

/* The figure a cost is measured by, for the relative steps of a walk: the
 * objective's (by time the median), or the median where it has none. */
static double figure(const struct tune_search *s, const struct objective_key *k)
{
	double v = objective_value(s->cfg.objective, k);
	return v >= 0 ? v : k->median_ms;
}

static int has_figure(const struct tune_search *s, const struct objective_key *k)
{
	return objective_value(s->cfg.objective, k) >= 0;
}

static int time_is_up(const struct tune_search *s)
{
	return s->cfg.time_limit_s > 0 && text_now() - s->t0 >= s->cfg.time_limit_s;
}

/* How many configurations a look ahead names: the caller's maximum, and
 * no more than the budget has left (the next evaluation may be refused,
 * and free: it is counted as left too). */
static size_t ahead_room(const struct tune_search *s)
{
	size_t max = s->cfg.ahead_max < TUNE_AHEAD_MAX ? s->cfg.ahead_max : TUNE_AHEAD_MAX;
	uint64_t left = s->budget > s->out.evaluated ? s->budget - s->out.evaluated : 0;
	return left < max ? (size_t)left : max;
}

/* The look ahead of a strategy that asks in a fixed order: the
 * configurations not known yet among order[from..] (numbering order when
 * order is NULL). */
static void foresee_order(struct tune_search *s, const uint32_t *order, uint64_t from)
{
	size_t room = ahead_room(s);
	s->q.nahead = 0;
	for (uint64_t k = from; k < s->count && s->q.nahead < room; k++) {
		uint64_t i = order ? order[k] : k;
		if (unknown(s, i))
			s->q.ahead[s->q.nahead++] = i;
	}
}

/* The look ahead of a walk: the neighbours of a, then of b, not known
 * yet (where the walk steps next, as it moves to a or stays at b). */
static void foresee_neighbors(struct tune_search *s, uint64_t a, uint64_t b)
{
	uint64_t nb[2 * TUNABLES_MAX];
	size_t room = ahead_room(s);
	s->q.nahead = 0;
	for (int side = 0; side < 2; side++) {
		int k = tune_space_neighbors(s->space, side ? b : a, nb);
		for (int j = 0; j < k && s->q.nahead < room; j++) {
			int dup = nb[j] == a;
			for (size_t m = 0; m < s->q.nahead && !dup; m++)
				dup = s->q.ahead[m] == nb[j];
			if (!dup && unknown(s, nb[j]))
				s->q.ahead[s->q.nahead++] = nb[j];
		}
	}
}

/* Exhaustive and random: the configurations in an order (numbering order
 * when s->order is NULL), the rest of it the look ahead. */
static int propose_in_order(struct tune_search *s, uint64_t *config)
{
	if (s->next >= s->count)
		return 0;
	uint64_t k = s->next++;
	*config = s->order ? s->order[k] : k;
	foresee_order(s, s->order, s->next);
	return 1;
}

/* Random draws without replacement: a Fisher-Yates shuffle.  The whole
 * order is drawn when the search opens (the shuffle's step i moves nothing
 * before i, and nothing else draws, so the order asked is the one drawn
 * step by step) and the look ahead is the rest of it. */
static int open_random(struct tune_search *s)
{
	s->order = malloc(s->count * sizeof *s->order);
	if (!s->order)
		return -1;
	for (uint64_t i = 0; i < s->count; i++)
		s->order[i] = (uint32_t)i;
	for (uint64_t i = 0; i < s->count; i++) {
		uint64_t j = i + (uint64_t)rng_range(&s->rng, 0, (int64_t)(s->count - i - 1));
		uint32_t t = s->order[i];
		s->order[i] = s->order[j];
		s->order[j] = t;
	}
	return 0;
}

/* A configuration not asked yet, chosen at random; returns -1 when none is
 * left. */
static int pick_unexplored(struct tune_search *s, uint64_t *out)
{
	for (int tries = 0; tries < 64; tries++) {
		uint64_t i = (uint64_t)rng_range(&s->rng, 0, (int64_t)s->count - 1);
		if (unknown(s, i)) {
			*out = i;
			return 0;
		}
	}
	/* Mostly explored: scan from a random place. */
	uint64_t start = (uint64_t)rng_range(&s->rng, 0, (int64_t)s->count - 1);
	for (uint64_t k = 0; k < s->count; k++) {
		uint64_t i = (start + k) % s->count;
		if (unknown(s, i)) {
			*out = i;
			return 0;
		}
	}
	return -1;
}

/* How far the search is, 0..1: the larger of the budget and the time used. */
static double progress(const struct tune_search *s)
{
	double p = (double)s->out.evaluated / (double)s->budget;
	if (s->cfg.time_limit_s > 0) {
		double q = (text_now() - s->t0) / s->cfg.time_limit_s;
		if (q > p)
			p = q;
	}
	return p < 1 ? p : 1;
}

/*
 * Simulated annealing.  Costs are compared relatively (a move 5 % slower is
 * the same step on a 10 µs kernel as on a 10 ms one; by energy, 5 % more
 * joules), and the temperature
 * falls geometrically with the budget used, from accepting a 5 % worse move
 * about a third of the time to plain descent.
 *
 * The budget is what matters, not the number of steps: revisiting a known
 * configuration is free, so the walk moves over known ground at no cost,
 * and it ends (restarts) as soon as it stops learning:
 *   - it stands on a configuration all of whose neighbours are known and
 *     none better (a local minimum, fully explored);
 *   - it stepped onto ground an earlier walk explored (from there it would
 *     only retrace that walk's descent);
 *   - it has only revisited known configurations for a while.
 * A restart first polishes the best configuration so far, while some of its
 * neighbours are unknown, and otherwise starts from an unexplored
 * configuration at random.  The polish is what makes the result a verified
 * local minimum; the random starts are what find the other basins.
 */
#define ANNEAL_T0 0.05
#define ANNEAL_T_END 0.002

/* 1 when every neighbour of i is known and none is cheaper than cost. */
static int explored_minimum(const struct tune_search *s, uint64_t i, const struct objective_key *cost)
{
	uint64_t nb[2 * TUNABLES_MAX];
	int k = tune_space_neighbors(s->space, i, nb);
	for (int j = 0; j < k; j++)
		if (unknown(s, nb[j]) || cost_cmp(s, &s->cost[nb[j]], cost) < 0)
			return 0;
	return 1;
}

static int open_anneal(struct tune_search *s)
{
	struct walk *w = &s->walk;
	w->walk_of = calloc(s->count, sizeof *w->walk_of);
	if (!w->walk_of)
		return -1;
	/* Every step either evaluates or revisits; bound the revisits so that
	 * a space with nothing left to learn ends the walk. */
	w->max_steps = 64 * (s->budget + (uint64_t)s->space->naxes) + 1024;
	w->max_stale = 2 * s->space->naxes + 8;
	w->restart = 1;
	return 0;
}

/* The walk has cost c for candidate cand (known: it had it before this
 * step): it moves there or stays, and ends when it stops learning.  A
 * candidate without the objective's figure where the walk stands on one
 * (no energy measured) is dearer by any margin: never taken uphill. */
static void walk_step(struct tune_search *s, uint64_t cand, int known, const struct objective_key *c)
{
	struct walk *w = &s->walk;
	if (known) {
		w->stale++;
	} else {
		w->stale = 0;
		w->walk_of[cand] = w->id;
	}

	/* Drawn every step, so that the random stream (and with it the
	 * neighbours proposed) does not depend on the costs measured: two
	 * runs differ only where noise flips an acceptance. */
	double u = rng_uniform(&s->rng, 0, 1);
	int accept;
	if (!isfinite(c->median_ms))
		accept = 0;
	else if (!isfinite(w->cur_cost.median_ms) || cost_cmp(s, c, &w->cur_cost) <= 0)
		accept = 1;
	else if (!has_figure(s, c) && has_figure(s, &w->cur_cost))
		accept = 0;
	else {
		double t = ANNEAL_T0 * pow(ANNEAL_T_END / ANNEAL_T0, progress(s));
		accept = u < exp(-(figure(s, c) / figure(s, &w->cur_cost) - 1) / t);
	}
	int merged = 0;
	if (accept) {
		merged = known && w->walk_of[cand] != w->id;
		w->cur = cand;
		w->cur_cost = *c;
	}
	if (merged || w->stale >= w->max_stale || explored_minimum(s, w->cur, &w->cur_cost))
		w->restart = 1;
}

/* Walks over known ground, restarting as it must, until it reaches a
 * configuration it has to ask about: a new walk's start or a step's
 * candidate. */
static int propose_anneal(struct tune_search *s, uint64_t *config)
{
	struct walk *w = &s->walk;
	uint64_t nb[2 * TUNABLES_MAX];
	for (;;) {
		if (w->restart) {
			/* Walk number id + 1: from the best so far while it
			 * has unknown neighbours, else from a random start. */
			w->restart = 0;
			w->id++;
			w->stale = 0;
			if (s->out.found && !explored_minimum(s, s->out.best, &s->cost[s->out.best])) {
				w->cur = s->out.best;
				w->cur_cost = s->cost[s->out.best];
			} else {
				if (pick_unexplored(s, &w->cur) < 0)
					return 0;
				foresee_neighbors(s, w->cur, w->cur);
				w->starting = 1;
				*config = w->cur;
				return 1;
			}
		}
		if (w->steps++ >= w->max_steps)
			return 0;
		int k = tune_space_neighbors(s->space, w->cur, nb);
		if (k == 0)
			return 0; /* one configuration: done */
		uint64_t cand = nb[rng_range(&s->rng, 0, k - 1)];
		foresee_neighbors(s, cand, w->cur);
		if (unknown(s, cand)) {
			w->starting = 0;
			*config = cand;
			return 1;
		}
		walk_step(s, cand, 1, &s->cost[cand]);
	}
}

static void told_anneal(struct tune_search *s, uint64_t config, const struct objective_key *cost)
{
	struct walk *w = &s->walk;
	if (w->starting) {
		w->cur_cost = *cost;
		w->walk_of[config] = w->id;
	} else {
		walk_step(s, config, 0, cost);
	}
}

static const struct tune_strategy strategies[] = {
	{"exhaustive", 1, NULL, propose_in_order, NULL},
	{"random", 0, open_random, propose_in_order, NULL},
	{"anneal", 0, open_anneal, propose_anneal, told_anneal},
};
#define NSTRATEGIES (sizeof strategies / sizeof strategies[0])

const struct tune_strategy *tune_strategy_find(const char *name)
{
	for (size_t i = 0; i < NSTRATEGIES; i++)
		if (strcmp(strategies[i].name, name) == 0)
			return &strategies[i];
	return NULL;
}

const char *tune_strategy_name(const struct tune_strategy *st)
{
	return st->name;
}

const char *tune_strategy_list(void)
{
	return "exhaustive|random|anneal";
}

uint64_t tune_search_budget(const struct tune_strategy *st, const struct tune_space *space,
			    const struct tune_search_config *cfg)
{
	uint64_t count = tune_space_count(space);
	if (cfg->budget)
		return cfg->budget < count ? cfg->budget : count;
	if (cfg->time_limit_s > 0 || st->whole_space)
		return count;
	uint64_t b = (count + 3) / 4;
	if (b < 16)
		b = 16;
	return b < count ? b : count;
}

int tune_search_open(const struct tune_strategy *st, const struct tune_space *space,
		     const struct tune_search_config *cfg, struct tune_search **out, char *err,
		     size_t len)
{
	struct tune_search *s = calloc(1, sizeof *s);
	uint64_t count = tune_space_count(space);
	*out = NULL;
	if (s)
		s->cost = malloc(count * sizeof *s->cost);
	if (!s || !s->cost) {
		free(s);
		snprintf(err, len, "out of memory for a search of %llu configurations",
			 (unsigned long long)count);
		return -1;
	}
	s->st = st;
	s->space = space;
	s->cfg = *cfg;
	s->count = count;
	s->budget = tune_search_budget(st, space, cfg);
	s->over = s->budget == 0;
	s->t0 = text_now();
	s->out.best_cost = INFINITY;
	rng_init(&s->rng, cfg->seed);
	for (uint64_t i = 0; i < count; i++)
		s->cost[i] = (struct objective_key){.median_ms = NAN};
	if (st->open && st->open(s) < 0) {
		tune_search_close(s);
		snprintf(err, len, "out of memory for a search of %llu configurations",
			 (unsigned long long)count);
		return -1;
	}
	*out = s;
	return 0;
}

int tune_search_next(struct tune_search *s, struct tune_question *q)
{
	if (!s->asking) {
		uint64_t i;
		if (s->over || s->out.evaluated >= s->budget || time_is_up(s) || !s->st->propose(s, &i)) {
			s->over = 1;
			return 0;
		}
		s->q.config = i;
		s->asking = 1;
	}
	*q = s->q;
	return 1;
}

int tune_search_tell_key(struct tune_search *s, uint64_t config, enum tune_verdict verdict,
			 const struct objective_key *k)
{
	/* What the search keeps: the point figures (tune_search.h), and
	 * nothing but +inf of a failure. */
	struct objective_key cost = {.median_ms = INFINITY};
	if (!s->asking || config != s->q.config)
		return -1;
	s->asking = 0;
	switch (verdict) {
	case TUNE_MEASURED:
		if (k->median_ms >= 0 && isfinite(k->median_ms)) {
			cost.median_ms = k->median_ms;
			cost.joules = k->joules > 0 ? k->joules : 0;
		}
		s->out.evaluated++;
		break;
	case TUNE_INVALID:
		s->out.invalid++;
		break;
	case TUNE_STOP:
	default:
		s->out.stopped = 1;
		s->over = 1;
		return 0;
	}
	s->cost[config] = cost;
	if (isfinite(cost.median_ms) &&
	    (!s->out.found || cost_cmp(s, &cost, &s->cost[s->out.best]) < 0)) {
		s->out.best_cost = figure(s, &cost);
		s->out.best = config;
		s->out.found = 1;
	}
	if (s->st->told)
		s->st->told(s, config, &cost);
	return 0;
}

int tune_search_tell(struct tune_search *s, uint64_t config, enum tune_verdict verdict, double cost)
{
	const struct objective_key k = {.median_ms = cost};
	return tune_search_tell_key(s, config, verdict, &k);
}

void tune_search_result(const struct tune_search *s, struct tune_search_result *out)
{
	*out = s->out;
}

void tune_search_close(struct tune_search *s)
{
	if (!s)
		return;
	free(s->cost);
	free(s->order);
	free(s->walk.walk_of);
	free(s);
}
