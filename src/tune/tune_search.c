/*
 * tune_search.c - the search strategies (see tune_search.h).
 *
 * All strategies share one memo: a cost per configuration, NaN until asked.
 * ask() is the only way to a cost; it answers from the memo for free, and
 * otherwise calls the evaluate callback if the budget, the time limit and
 * the callback still allow it.  Invalid configurations are remembered as
 * +inf (a walk treats them as walls) but are not counted.  Before it asks,
 * a strategy says what it will ask next (s->ahead, filled by the
 * foresee_* helpers), which ask() passes on with an evaluation; working it
 * out draws nothing from the random stream.
 */
#include "tune/tune_search.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "common/text.h"

struct search {
	const struct tune_space *space;
	const struct tune_search_config *cfg;
	uint64_t count;
	uint64_t budget;
	uint64_t asked;       /* configurations the callback answered (measured or invalid) */
	double t0;
	double *cost;         /* per configuration; NaN: not asked */
	struct rng rng;
	struct tune_search_result *out;
	int over;             /* no further evaluation may start */
	uint64_t ahead[TUNE_AHEAD_MAX]; /* what the strategy asks after the next ask */
	size_t nahead;
};

struct tune_strategy {
	const char *name;
	/* Returns 0, or -1 when out of memory. */
	int (*search)(struct search *s);
};

static int time_is_up(const struct search *s)
{
	return s->cfg->time_limit_s > 0 && text_now() - s->t0 >= s->cfg->time_limit_s;
}

/* Sets *cost for configuration i and returns 0, or returns -1 when i is not
 * known yet and no more evaluations may start (s->over is then set). */
static int ask(struct search *s, uint64_t i, double *cost)
{
	if (!isnan(s->cost[i])) {
		*cost = s->cost[i];
		return 0;
	}
	if (s->over || s->out->evaluated >= s->budget || s->asked >= s->count || time_is_up(s)) {
		s->over = 1;
		return -1;
	}
	double c = INFINITY;
	if (s->cfg->ahead && s->nahead)
		s->cfg->ahead(s->cfg->ctx, s->ahead, s->nahead);
	switch (s->cfg->evaluate(s->cfg->ctx, i, &c)) {
	case TUNE_MEASURED:
		if (isnan(c) || c < 0)
			c = INFINITY;
		s->out->evaluated++;
		break;
	case TUNE_INVALID:
		c = INFINITY;
		s->out->invalid++;
		break;
	case TUNE_STOP:
	default:
		s->out->stopped = 1;
		s->over = 1;
		return -1;
	}
	s->asked++;
	s->cost[i] = c;
	if (c < s->out->best_cost) {
		s->out->best_cost = c;
		s->out->best = i;
		s->out->found = 1;
	}
	*cost = c;
	return 0;
}

/* How many configurations a look ahead names: the caller's maximum, and
 * no more than the budget has left (the next evaluation may be refused,
 * and free: it is counted as left too). */
static size_t ahead_room(const struct search *s)
{
	size_t max = s->cfg->ahead_max < TUNE_AHEAD_MAX ? s->cfg->ahead_max : TUNE_AHEAD_MAX;
	uint64_t left = s->budget > s->out->evaluated ? s->budget - s->out->evaluated : 0;
	return left < max ? (size_t)left : max;
}

/* The look ahead of a strategy that asks in a fixed order: the
 * configurations not known yet among order[from..] (numbering order when
 * order is NULL). */
static void foresee_order(struct search *s, const uint32_t *order, uint64_t from)
{
	size_t room = ahead_room(s);
	s->nahead = 0;
	for (uint64_t k = from; k < s->count && s->nahead < room; k++) {
		uint64_t i = order ? order[k] : k;
		if (isnan(s->cost[i]))
			s->ahead[s->nahead++] = i;
	}
}

/* The look ahead of a walk: the neighbours of a, then of b, not known
 * yet (where the walk steps next, as it moves to a or stays at b). */
static void foresee_neighbors(struct search *s, uint64_t a, uint64_t b)
{
	uint64_t nb[2 * TUNABLES_MAX];
	size_t room = ahead_room(s);
	s->nahead = 0;
	for (int side = 0; side < 2; side++) {
		int k = tune_space_neighbors(s->space, side ? b : a, nb);
		for (int j = 0; j < k && s->nahead < room; j++) {
			int dup = nb[j] == a;
			for (size_t m = 0; m < s->nahead && !dup; m++)
				dup = s->ahead[m] == nb[j];
			if (!dup && isnan(s->cost[nb[j]]))
				s->ahead[s->nahead++] = nb[j];
		}
	}
}

static int search_exhaustive(struct search *s)
{
	double c;
	for (uint64_t i = 0; i < s->count; i++) {
		foresee_order(s, NULL, i + 1);
		if (ask(s, i, &c) < 0)
			break;
	}
	return 0;
}

/* Draws without replacement: a Fisher-Yates shuffle.  The whole order is
 * drawn first (the shuffle's step i moves nothing before i, and nothing
 * else draws, so the order asked is the one drawn step by step) and the
 * look ahead is the rest of it. */
static int search_random(struct search *s)
{
	uint32_t *perm = malloc(s->count * sizeof *perm);
	double c;
	if (!perm)
		return -1;
	for (uint64_t i = 0; i < s->count; i++)
		perm[i] = (uint32_t)i;
	for (uint64_t i = 0; i < s->count; i++) {
		uint64_t j = i + (uint64_t)rng_range(&s->rng, 0, (int64_t)(s->count - i - 1));
		uint32_t t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (uint64_t i = 0; i < s->count; i++) {
		foresee_order(s, perm, i + 1);
		if (ask(s, perm[i], &c) < 0)
			break;
	}
	free(perm);
	return 0;
}

/* A configuration not asked yet, chosen at random; returns -1 when none is
 * left. */
static int pick_unexplored(struct search *s, uint64_t *out)
{
	for (int tries = 0; tries < 64; tries++) {
		uint64_t i = (uint64_t)rng_range(&s->rng, 0, (int64_t)s->count - 1);
		if (isnan(s->cost[i])) {
			*out = i;
			return 0;
		}
	}
	/* Mostly explored: scan from a random place. */
	uint64_t start = (uint64_t)rng_range(&s->rng, 0, (int64_t)s->count - 1);
	for (uint64_t k = 0; k < s->count; k++) {
		uint64_t i = (start + k) % s->count;
		if (isnan(s->cost[i])) {
			*out = i;
			return 0;
		}
	}
	return -1;
}

/* How far the search is, 0..1: the larger of the budget and the time used. */
static double progress(const struct search *s)
{
	double p = (double)s->out->evaluated / (double)s->budget;
	if (s->cfg->time_limit_s > 0) {
		double q = (text_now() - s->t0) / s->cfg->time_limit_s;
		if (q > p)
			p = q;
	}
	return p < 1 ? p : 1;
}

/*
 * Simulated annealing.  Costs are compared relatively (a move 5 % slower is
 * the same step on a 10 µs kernel as on a 10 ms one), and the temperature
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

struct walk {
	uint64_t cur;
	double cur_cost;
	uint32_t id;           /* walk number, recorded with what it evaluates */
	uint32_t *walk_of;     /* per configuration: the walk that evaluated it */
	int stale;             /* steps since the last new evaluation */
};

/* 1 when every neighbour of i is known and none is cheaper. */
static int explored_minimum(const struct search *s, uint64_t i, double cost)
{
	uint64_t nb[2 * TUNABLES_MAX];
	int k = tune_space_neighbors(s->space, i, nb);
	for (int j = 0; j < k; j++)
		if (isnan(s->cost[nb[j]]) || s->cost[nb[j]] < cost)
			return 0;
	return 1;
}

/* Starts walk number w->id + 1.  Returns -1 when the search is over. */
static int walk_restart(struct search *s, struct walk *w)
{
	w->id++;
	w->stale = 0;
	if (s->out->found && !explored_minimum(s, s->out->best, s->out->best_cost)) {
		w->cur = s->out->best;
		w->cur_cost = s->out->best_cost;
		return 0;
	}
	if (pick_unexplored(s, &w->cur) < 0)
		return -1;
	foresee_neighbors(s, w->cur, w->cur);
	if (ask(s, w->cur, &w->cur_cost) < 0)
		return -1;
	w->walk_of[w->cur] = w->id;
	return 0;
}

static int search_anneal(struct search *s)
{
	uint64_t nb[2 * TUNABLES_MAX];
	/* Every step either evaluates or revisits; bound the revisits so that
	 * a space with nothing left to learn ends the walk. */
	uint64_t steps = 0, max_steps = 64 * (s->budget + (uint64_t)s->space->naxes) + 1024;
	int max_stale = 2 * s->space->naxes + 8;
	struct walk w = {0};

	w.walk_of = calloc(s->count, sizeof *w.walk_of);
	if (!w.walk_of)
		return -1;
	if (walk_restart(s, &w) < 0)
		goto out;
	while (steps++ < max_steps) {
		int k = tune_space_neighbors(s->space, w.cur, nb);
		if (k == 0)
			break; /* one configuration: done */
		uint64_t cand = nb[rng_range(&s->rng, 0, k - 1)];
		int known = !isnan(s->cost[cand]);
		double c;
		foresee_neighbors(s, cand, w.cur);
		if (ask(s, cand, &c) < 0)
			break;
		if (known) {
			w.stale++;
		} else {
			w.stale = 0;
			w.walk_of[cand] = w.id;
		}

		/* Drawn every step, so that the random stream (and with it the
		 * neighbours proposed) does not depend on the costs measured:
		 * two runs differ only where noise flips an acceptance. */
		double u = rng_uniform(&s->rng, 0, 1);
		int accept;
		if (!isfinite(c))
			accept = 0;
		else if (!isfinite(w.cur_cost) || c <= w.cur_cost)
			accept = 1;
		else {
			double t = ANNEAL_T0 * pow(ANNEAL_T_END / ANNEAL_T0, progress(s));
			accept = u < exp(-(c / w.cur_cost - 1) / t);
		}
		int merged = 0;
		if (accept) {
			merged = known && w.walk_of[cand] != w.id;
			w.cur = cand;
			w.cur_cost = c;
		}
		if ((merged || w.stale >= max_stale || explored_minimum(s, w.cur, w.cur_cost)) &&
		    walk_restart(s, &w) < 0)
			break;
	}
out:
	free(w.walk_of);
	return 0;
}

static const struct tune_strategy strategies[] = {
	{"exhaustive", search_exhaustive},
	{"random", search_random},
	{"anneal", search_anneal},
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
	if (cfg->time_limit_s > 0 || st->search == search_exhaustive)
		return count;
	uint64_t b = (count + 3) / 4;
	if (b < 16)
		b = 16;
	return b < count ? b : count;
}

int tune_search_run(const struct tune_strategy *st, const struct tune_space *space,
		    const struct tune_search_config *cfg, struct tune_search_result *out,
		    char *err, size_t len)
{
	struct search s;
	memset(&s, 0, sizeof s);
	memset(out, 0, sizeof *out);
	out->best_cost = INFINITY;
	s.space = space;
	s.cfg = cfg;
	s.out = out;
	s.count = tune_space_count(space);
	s.budget = tune_search_budget(st, space, cfg);
	s.t0 = text_now();
	rng_init(&s.rng, cfg->seed);
	s.cost = malloc(s.count * sizeof *s.cost);
	if (!s.cost) {
		snprintf(err, len, "out of memory for a search of %llu configurations",
			 (unsigned long long)s.count);
		return -1;
	}
	for (uint64_t i = 0; i < s.count; i++)
		s.cost[i] = NAN;
	int rc = s.budget > 0 ? st->search(&s) : 0;
	free(s.cost);
	if (rc < 0)
		snprintf(err, len, "out of memory for a search of %llu configurations",
			 (unsigned long long)s.count);
	return rc;
}
