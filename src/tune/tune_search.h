/*
 * tune_search.h - search strategies over a tuning space.
 *
 * A strategy proposes configurations (numbers, see tune_space.h) and asks an
 * evaluate callback for each one's cost: the median time in ms, +inf for a
 * configuration that failed, hung or crashed.  It never asks twice for the
 * same configuration.  The budget counts evaluations that measured
 * something; configurations the variant's contract refuses are reported as
 * invalid and cost nothing, since a search must be free to bump into the
 * edges of what a kernel accepts.
 *
 * Every strategy is deterministic for a given seed and evaluate function,
 * so a search can be repeated (and resumed from stored results, which then
 * answer the same questions in the same order).  Only a time limit makes
 * where it stops depend on the clock.
 *
 *   exhaustive  every configuration, in numbering order
 *   random      configurations drawn without replacement
 *   anneal      simulated annealing on the grid (one step along one axis)
 *               with restarts from unexplored configurations
 */
#ifndef CONFORM_TUNE_SEARCH_H
#define CONFORM_TUNE_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "tune/tune_space.h"

enum tune_verdict {
	TUNE_MEASURED, /* *cost is set (+inf when it did not work); counts against the budget */
	TUNE_INVALID,  /* refused by the launch contract; does not count */
	TUNE_STOP,     /* stop the search now (interrupted) */
};

typedef enum tune_verdict (*tune_evaluate_fn)(void *ctx, uint64_t config, double *cost);

/* The most configurations one look ahead names. */
#define TUNE_AHEAD_MAX 64

struct tune_search_config {
	uint64_t budget;      /* measured evaluations at most; 0: see tune_search_budget() */
	double time_limit_s;  /* start no evaluation after this many seconds; 0: none */
	uint64_t seed;
	tune_evaluate_fn evaluate;
	void *ctx;
	/* Told before each evaluation, when set: the configurations the
	 * strategy will ask for after it, as far as it knows them before the
	 * cost comes, soonest first, at most ahead_max (and TUNE_AHEAD_MAX),
	 * so that the caller can prepare them meanwhile (compile a user's
	 * kernel ahead).  Exhaustive and random know their order; anneal
	 * names the neighbours its walk steps to next.  A hint only: the
	 * search asks the same questions with it as without. */
	void (*ahead)(void *ctx, const uint64_t *configs, size_t n);
	size_t ahead_max;
};

struct tune_search_result {
	int found;            /* some configuration had a finite cost */
	uint64_t best;        /* the cheapest one (the first found among equals) */
	double best_cost;     /* its cost; +inf when !found */
	uint64_t evaluated;   /* measured evaluations (what the budget counts) */
	uint64_t invalid;     /* configurations refused as invalid */
	int stopped;          /* the callback said TUNE_STOP */
};

struct tune_strategy;

/* The strategy called `name`, or NULL. */
const struct tune_strategy *tune_strategy_find(const char *name);
const char *tune_strategy_name(const struct tune_strategy *st);
/* "exhaustive|random|anneal", for usage messages. */
const char *tune_strategy_list(void);

/* The budget a search will use: cfg's budget when given; else the whole
 * space when a time limit is given or the strategy is exhaustive; else a
 * quarter of the space (at least 16 configurations, at most all). */
uint64_t tune_search_budget(const struct tune_strategy *st, const struct tune_space *space,
			    const struct tune_search_config *cfg);

/* Runs the search.  Returns 0 (out filled), or -1 with a message when memory
 * runs out. */
int tune_search_run(const struct tune_strategy *st, const struct tune_space *space,
		    const struct tune_search_config *cfg, struct tune_search_result *out,
		    char *err, size_t len);

#endif
