/*
 * tune_search.h - search strategies over a tuning space, as ask/tell
 * objects.
 *
 * A search is an object with state: tune_search_next() asks for the next
 * configuration to evaluate (a number, see tune_space.h), the caller
 * measures it however and whenever it likes, and tune_search_tell() gives
 * the answer: its cost, the median time in ms (+inf for a configuration
 * that failed, hung or crashed), that the variant's contract refused it, or
 * that the search is to stop.  tune_search_tell_key() gives the cost as the
 * objective reads it (common/objective.h): the median and the energy.  The caller owns the loop, so the tuner can
 * run it straight through (the command line) or one evaluation per step of
 * its own loop (the TUI) with the same object and the same questions.
 *
 * Invariants:
 *   - A search never asks twice for the same configuration, and asks one
 *     question at a time: next() repeats the question until it is told.
 *   - The budget counts evaluations that measured something.
 *     Configurations the contract refuses are told as invalid and cost
 *     nothing, since a search must be free to bump into the edges of what a
 *     kernel accepts.  No question is asked once the budget is spent, the
 *     time limit has passed (counted from tune_search_open()) or a stop was
 *     told.
 *   - Every strategy is deterministic for a given seed and answers: the
 *     same answers bring the same questions in the same order, so a search
 *     can be repeated and resumed from stored results.  Only a time limit
 *     makes where it stops depend on the clock.
 *   - "Cheaper" is the objective's rule, objective_rank_cmp, on the point
 *     figures told (the median and the energy per launch, their intervals
 *     left out: a search steers by what it measured, and the winner among
 *     close configurations is tune_tie's to pick).  By time that is the
 *     lower median; by energy or edp a configuration without an energy
 *     figure is dearer than any with one, and among those without, the
 *     median decides.  A failure is dearer than anything measured.
 *   - The best is the cheapest configuration that did not fail, the first
 *     told among equals.
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

#include "common/objective.h"
#include "tune/tune_space.h"

/* What became of a question. */
enum tune_verdict {
	TUNE_MEASURED, /* the cost is given (+inf when it did not work); counts against the budget */
	TUNE_INVALID,  /* refused by the launch contract; does not count */
	TUNE_STOP,     /* not evaluated: stop the search now (interrupted) */
};

/* The most configurations one look ahead names. */
#define TUNE_AHEAD_MAX 64

struct tune_search_config {
	uint64_t budget;      /* measured evaluations at most; 0: see tune_search_budget() */
	double time_limit_s;  /* ask nothing after this many seconds; 0: none */
	uint64_t seed;
	size_t ahead_max;     /* the longest look ahead a question carries; 0: none */
	enum objective objective; /* what "cheaper" means; 0: time */
};

/* A question: the configuration to evaluate, and the look ahead, what the
 * strategy will ask after it as far as it knows before the answer comes,
 * soonest first, at most ahead_max (and TUNE_AHEAD_MAX), so that the caller
 * can prepare them meanwhile (compile a user's kernel ahead).  Exhaustive
 * and random know their order; anneal names the neighbours its walk steps
 * to next.  A hint only: the search asks the same questions whatever the
 * caller does with it. */
struct tune_question {
	uint64_t config;
	uint64_t ahead[TUNE_AHEAD_MAX];
	size_t nahead;
};

struct tune_search_result {
	int found;            /* some configuration had a finite cost */
	uint64_t best;        /* the cheapest one (the first found among equals) */
	double best_cost;     /* its figure: objective_value (by time its median), or its median
			       * where it has none (energy not measured); +inf when !found */
	uint64_t evaluated;   /* measured evaluations (what the budget counts) */
	uint64_t invalid;     /* configurations refused as invalid */
	int stopped;          /* a stop was told */
};

struct tune_strategy;
struct tune_search;

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

/* Opens a search of space (which must stay until it is closed) and starts
 * its clock.  Returns 0 with *out set, or -1 with a message when memory runs
 * out. */
int tune_search_open(const struct tune_strategy *st, const struct tune_space *space,
		     const struct tune_search_config *cfg, struct tune_search **out, char *err,
		     size_t len);

/* The question to answer next: returns 1 with q filled, or 0 when the search
 * is over (the space, the budget or the time is spent, or a stop was told).
 * Until the question is told, each call asks it again. */
int tune_search_next(struct tune_search *s, struct tune_question *q);

/* The answer to the question asked, configuration `config`: its verdict
 * and, when TUNE_MEASURED, its cost (NaN and negative costs count as +inf).
 * Returns 0, or -1 (and changes nothing) when config is not the question
 * asked. */
int tune_search_tell(struct tune_search *s, uint64_t config, enum tune_verdict verdict, double cost);

/* The same with the cost as the objective reads it: k's median (NaN,
 * negative or +inf: it failed) and energy per launch (0: not measured).
 * Its intervals are not read (see "cheaper" above). */
int tune_search_tell_key(struct tune_search *s, uint64_t config, enum tune_verdict verdict,
			 const struct objective_key *k);

/* What the search has found so far. */
void tune_search_result(const struct tune_search *s, struct tune_search_result *out);

/* Frees the search (NULL is fine). */
void tune_search_close(struct tune_search *s);

#endif
