/*
 * test_objective.c - ranking by time, energy and energy-delay product,
 * and the Pareto front of time and energy (objective.h).
 */
#include <math.h>
#include <stdlib.h>

#include "common/objective.h"
#include "common/timing.h"
#include "tests/test.h"

static void test_names(void)
{
	enum objective o;
	CHECK_INT(objective_parse("time", &o), 0);
	CHECK_INT(o, OBJECTIVE_TIME);
	CHECK_INT(objective_parse("energy", &o), 0);
	CHECK_INT(o, OBJECTIVE_ENERGY);
	CHECK_INT(objective_parse("edp", &o), 0);
	CHECK_INT(o, OBJECTIVE_EDP);
	const char *bad[] = {"", "Time", "power", "edp ", "e"};
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++)
		CHECK_INT(objective_parse(bad[k], &o), -1);
	CHECK_STR(objective_name(OBJECTIVE_EDP), "edp");
}

/* Three configurations of one problem as an H200 measured them: the
 * fastest is not the most frugal. */
static const struct objective_key fast = {.median_ms = 0.01779, .ci_high_ms = 0.01786, .joules = 0.010366, .uncertainty = 0.017};
static const struct objective_key frugal = {.median_ms = 0.01923, .ci_high_ms = 0.01930, .joules = 0.009469, .uncertainty = 0.016};
static const struct objective_key neither = {.median_ms = 0.02198, .ci_high_ms = 0.02210, .joules = 0.011913, .uncertainty = 0.014};
static const struct objective_key unmeasured = {.median_ms = 0.01700, .ci_high_ms = 0.01705};

static void test_rank(void)
{
	/* time: timing_rank_cmp's rule, energy or not */
	CHECK(objective_rank_cmp(OBJECTIVE_TIME, &fast, &frugal) < 0);
	CHECK(objective_rank_cmp(OBJECTIVE_TIME, &unmeasured, &fast) < 0);
	CHECK_INT(objective_rank_cmp(OBJECTIVE_TIME, &fast, &frugal),
		  timing_rank_cmp(fast.median_ms, fast.ci_high_ms, frugal.median_ms, frugal.ci_high_ms));
	/* energy: the frugal one; a result without energy after every one with */
	CHECK(objective_rank_cmp(OBJECTIVE_ENERGY, &frugal, &fast) < 0);
	CHECK(objective_rank_cmp(OBJECTIVE_ENERGY, &fast, &frugal) > 0);
	CHECK(objective_rank_cmp(OBJECTIVE_ENERGY, &neither, &unmeasured) < 0);
	CHECK(objective_rank_cmp(OBJECTIVE_ENERGY, &unmeasured, &neither) > 0);
	/* two without energy: time decides */
	struct objective_key slower_unmeasured = {.median_ms = 0.02, .ci_high_ms = 0.021};
	CHECK(objective_rank_cmp(OBJECTIVE_ENERGY, &unmeasured, &slower_unmeasured) < 0);
	/* edp: 0.010366 x 17.79 us = 1.844e-7 J s against 0.009469 x 19.23 us
	 * = 1.821e-7: the frugal one, by its bounds too */
	CHECK(objective_rank_cmp(OBJECTIVE_EDP, &frugal, &fast) < 0);
	CHECK_NEAR(objective_value(OBJECTIVE_EDP, &frugal), 0.009469 * 0.01923e-3, 1e-15);
	CHECK_NEAR(objective_value(OBJECTIVE_ENERGY, &fast), 0.010366, 0);
	CHECK_NEAR(objective_value(OBJECTIVE_TIME, &fast), 0.01779, 0);
	CHECK_NEAR(objective_value(OBJECTIVE_ENERGY, &unmeasured), -1, 0);
	CHECK_NEAR(objective_value(OBJECTIVE_EDP, &unmeasured), -1, 0);
	/* the upper bound ranks: a lower energy with a wide interval loses to
	 * a slightly higher one measured tightly */
	struct objective_key wide = {.median_ms = 0.02, .joules = 0.0100, .uncertainty = 0.10};
	struct objective_key tight = {.median_ms = 0.02, .joules = 0.0102, .uncertainty = 0.01};
	CHECK(objective_rank_cmp(OBJECTIVE_ENERGY, &tight, &wide) < 0);
	/* equal bounds: the lower point value, then time */
	struct objective_key a = {.median_ms = 0.03, .joules = 0.75, .uncertainty = 0.0};
	struct objective_key b = {.median_ms = 0.04, .joules = 0.5, .uncertainty = 0.5};
	CHECK(objective_rank_cmp(OBJECTIVE_ENERGY, &b, &a) < 0);
	struct objective_key c = {.median_ms = 0.02, .joules = 0.75, .uncertainty = 0.0};
	CHECK(objective_rank_cmp(OBJECTIVE_ENERGY, &c, &a) < 0);
	CHECK_INT(objective_rank_cmp(OBJECTIVE_ENERGY, &c, &c), 0);
	/* a missing interval (NAN, as the database gives it) is the median */
	struct objective_key nan_ci = {.median_ms = 0.01779, .ci_high_ms = NAN, .joules = 0.010366};
	CHECK(objective_rank_cmp(OBJECTIVE_TIME, &nan_ci, &fast) < 0);
	struct objective_key nan_j = {.median_ms = 0.01, .joules = NAN};
	CHECK(objective_rank_cmp(OBJECTIVE_ENERGY, &fast, &nan_j) < 0);
}

static void test_sort(void)
{
	/* Sorting by each objective puts the expected one first. */
	struct objective_key k[4] = {neither, unmeasured, fast, frugal};
	const struct objective_key *want[3] = {&unmeasured, &frugal, &frugal};
	for (int o = OBJECTIVE_TIME; o <= OBJECTIVE_EDP; o++) {
		size_t best = 0;
		for (size_t i = 1; i < 4; i++)
			if (objective_rank_cmp((enum objective)o, &k[i], &k[best]) < 0)
				best = i;
		CHECK(k[best].median_ms == want[o]->median_ms);
	}
}

static void test_pareto(void)
{
	struct objective_key k[] = {
		fast,       /* on the front: the fastest with energy */
		frugal,     /* on it: the most frugal */
		neither,    /* slower and costlier than both */
		unmeasured, /* no energy: never on it, dominates nothing */
		{.median_ms = 0.0185, .ci_high_ms = 0.019, .joules = 0.0100}, /* between: on it */
		{.median_ms = 0.0185, .ci_high_ms = 0.019, .joules = 0.0100}, /* its twin: both on it */
		{.median_ms = 0.0185, .ci_high_ms = 0.019, .joules = 0.0101}, /* as fast, costlier: off */
	};
	int front[7];
	int want[7] = {1, 1, 0, 0, 1, 1, 0};
	objective_pareto(k, 7, front);
	for (int i = 0; i < 7; i++)
		CHECK_INT(front[i], want[i]);
	/* One row alone is its own front; none without energy. */
	objective_pareto(&neither, 1, front);
	CHECK_INT(front[0], 1);
	objective_pareto(&unmeasured, 1, front);
	CHECK_INT(front[0], 0);
	objective_pareto(k, 0, front);
}

int main(void)
{
	test_names();
	test_rank();
	test_sort();
	test_pareto();
	return TEST_END();
}
