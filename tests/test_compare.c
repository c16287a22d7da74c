/*
 * test_compare.c - conform compare's decisions on host-made entries: each
 * timing verdict at and around the threshold and the noise, each energy
 * verdict around its margin (both uncertainties and ENERGY_REPEAT), every
 * kind of status change, the pairing of two runs' entries with duplicates,
 * and what fails a comparison with and without --gate energy.
 */
#include <stdio.h>
#include <string.h>

#include "compare/compare.h"
#include "tests/test.h"

static struct compare_entry timed(const char *name, const char *params, double median, double lo,
				  double hi)
{
	struct compare_entry e;
	memset(&e, 0, sizeof e);
	snprintf(e.case_name, sizeof e.case_name, "%s", name);
	snprintf(e.variant, sizeof e.variant, "device.v");
	snprintf(e.dtype, sizeof e.dtype, "f32");
	snprintf(e.op, sizeof e.op, "sum");
	snprintf(e.params, sizeof e.params, "%s", params);
	snprintf(e.observed, sizeof e.observed, "completed-correct");
	e.n = 1 << 20;
	e.status = STATUS_PASS;
	e.timed = median > 0;
	e.timing.median_ms = median;
	e.timing.ci_low_ms = lo;
	e.timing.ci_high_ms = hi;
	e.timing.samples = 100;
	e.timing.timer = TIMER_CUPTI;
	return e;
}

/* e with energy measured: joules per launch and their uncertainty. */
static struct compare_entry spent(struct compare_entry e, double joules, double uncertainty)
{
	e.timing.energy.joules = joules;
	e.timing.energy.uncertainty = uncertainty;
	e.timing.energy.watts = 500;
	e.timing.energy.window_s = 0.3;
	e.timing.energy.launches = 1000;
	return e;
}

static struct compare_entry with_status(const char *name, enum status s, const char *observed)
{
	struct compare_entry e = timed(name, "", 0, 0, 0);
	e.status = s;
	snprintf(e.observed, sizeof e.observed, "%s", observed);
	return e;
}

static void test_verdicts(void)
{
	struct compare_entry base = timed("c", "b=1", 1.00, 0.99, 1.01);
	double ratio, lo, hi;
	/* 10 % slower, intervals apart: SLOWER, with the ratio's interval. */
	struct compare_entry c = timed("c", "b=1", 1.10, 1.09, 1.11);
	CHECK_INT(compare_timing(&base, &c, 0.05, &ratio, &lo, &hi), VERDICT_SLOWER);
	CHECK_NEAR(ratio, 1.10, 1e-12);
	CHECK_NEAR(lo, 1.09 / 1.01, 1e-12);
	CHECK_NEAR(hi, 1.11 / 0.99, 1e-12);
	/* 10 % slower but the noise overlaps: SAME. */
	c = timed("c", "b=1", 1.10, 1.005, 1.20);
	CHECK_INT(compare_timing(&base, &c, 0.05, &ratio, &lo, &hi), VERDICT_SAME);
	/* Apart but within the threshold: SAME; a lower threshold: SLOWER. */
	c = timed("c", "b=1", 1.04, 1.035, 1.045);
	CHECK_INT(compare_timing(&base, &c, 0.05, &ratio, &lo, &hi), VERDICT_SAME);
	CHECK_INT(compare_timing(&base, &c, 0.03, &ratio, &lo, &hi), VERDICT_SLOWER);
	/* Exactly at the threshold is not beyond it. */
	c = timed("c", "b=1", 1.05, 1.049, 1.051);
	CHECK_INT(compare_timing(&base, &c, 0.05, &ratio, &lo, &hi), VERDICT_SAME);
	/* FASTER, symmetric (1 / 1.05). */
	c = timed("c", "b=1", 0.90, 0.89, 0.91);
	CHECK_INT(compare_timing(&base, &c, 0.05, &ratio, &lo, &hi), VERDICT_FASTER);
	c = timed("c", "b=1", 0.96, 0.955, 0.965);
	CHECK_INT(compare_timing(&base, &c, 0.05, &ratio, &lo, &hi), VERDICT_SAME);
	/* The same run twice: SAME. */
	CHECK_INT(compare_timing(&base, &base, 0.05, &ratio, &lo, &hi), VERDICT_SAME);
	/* No interval stored (before migration 5): the medians alone. */
	struct compare_entry old = timed("c", "b=1", 1.00, 0, 0);
	c = timed("c", "b=1", 1.20, 0, 0);
	CHECK_INT(compare_timing(&old, &c, 0.05, &ratio, &lo, &hi), VERDICT_SLOWER);
	CHECK_NEAR(lo, 1.20, 1e-12);
}

static void test_energy(void)
{
	struct energy_stats none = {0}, base = {.joules = 1e-3, .uncertainty = 0.01}, c = base;
	double ratio = -1;
	/* Either side without energy: no verdict, and no ratio. */
	CHECK_INT(compare_energy(&none, &base, &ratio), ENERGY_VERDICT_NONE);
	CHECK_NEAR(ratio, 0, 0);
	CHECK_INT(compare_energy(&base, &none, &ratio), ENERGY_VERDICT_NONE);
	CHECK_INT(compare_energy(&none, &none, &ratio), ENERGY_VERDICT_NONE);
	/* +12 %, 1 % each: beyond 1 + 1 + 2 %. */
	c.joules = 1.12e-3;
	CHECK_INT(compare_energy(&base, &c, &ratio), ENERGY_VERDICT_MORE);
	CHECK_NEAR(ratio, 1.12, 1e-12);
	/* The margin is the sum of both uncertainties and ENERGY_REPEAT:
	 * 4 % here, on either side of it. */
	c.joules = 1.041e-3;
	CHECK_INT(compare_energy(&base, &c, &ratio), ENERGY_VERDICT_MORE);
	c.joules = 1.039e-3;
	CHECK_INT(compare_energy(&base, &c, &ratio), ENERGY_VERDICT_SAME);
	c.joules = 0.959e-3;
	CHECK_INT(compare_energy(&base, &c, &ratio), ENERGY_VERDICT_LESS);
	c.joules = 0.961e-3;
	CHECK_INT(compare_energy(&base, &c, &ratio), ENERGY_VERDICT_SAME);
	/* Each uncertainty counts: 1 % on one side alone leaves 3 %. */
	struct energy_stats exact = {.joules = 1e-3};
	c.joules = 1.035e-3;
	CHECK_INT(compare_energy(&exact, &c, &ratio), ENERGY_VERDICT_MORE);
	CHECK_INT(compare_energy(&base, &c, &ratio), ENERGY_VERDICT_SAME);
	c.joules = 0.965e-3;
	CHECK_INT(compare_energy(&exact, &c, &ratio), ENERGY_VERDICT_LESS);
	/* Without uncertainties, ENERGY_REPEAT alone is the margin. */
	struct energy_stats e2 = exact;
	e2.joules = 1e-3 * (1 + ENERGY_REPEAT + 0.001);
	CHECK_INT(compare_energy(&exact, &e2, &ratio), ENERGY_VERDICT_MORE);
	e2.joules = 1e-3 * (1 + ENERGY_REPEAT - 0.001);
	CHECK_INT(compare_energy(&exact, &e2, &ratio), ENERGY_VERDICT_SAME);
	e2.joules = 1e-3 * (1 - ENERGY_REPEAT + 0.001);
	CHECK_INT(compare_energy(&exact, &e2, &ratio), ENERGY_VERDICT_SAME);
	e2.joules = 1e-3 * (1 - ENERGY_REPEAT - 0.001);
	CHECK_INT(compare_energy(&exact, &e2, &ratio), ENERGY_VERDICT_LESS);
	/* The same figure twice. */
	CHECK_INT(compare_energy(&base, &base, &ratio), ENERGY_VERDICT_SAME);
	CHECK_STR(compare_energy_name(ENERGY_VERDICT_MORE), "more");
	CHECK_STR(compare_energy_name(ENERGY_VERDICT_LESS), "less");
	CHECK_STR(compare_energy_name(ENERGY_VERDICT_SAME), "same");
	CHECK_STR(compare_energy_name(ENERGY_VERDICT_NONE), "not measured");

	/* An item has an energy verdict only when timed in both: a failure's
	 * energy, were one stored, is no figure to compare. */
	struct compare_item it;
	struct compare_entry tb = spent(timed("c", "b=1", 1.0, 0.99, 1.01), 1e-3, 0.01);
	struct compare_entry tc = spent(timed("c", "b=1", 1.0, 0.99, 1.01), 2e-3, 0.01);
	compare_item_make(&tb, &tc, 0.05, &it);
	CHECK_INT(it.energy, ENERGY_VERDICT_MORE);
	CHECK_NEAR(it.energy_ratio, 2.0, 1e-12);
	CHECK_INT(it.verdict, VERDICT_SAME);
	tc.timed = 0;
	tc.status = STATUS_FAIL;
	compare_item_make(&tb, &tc, 0.05, &it);
	CHECK_INT(it.energy, ENERGY_VERDICT_NONE);
	compare_item_make(&tb, NULL, 0.05, &it);
	CHECK_INT(it.energy, ENERGY_VERDICT_NONE);
}

/* The energy tallies of a comparison, and what fails it: more energy only
 * under --gate energy, an item both SLOWER and MORE once. */
static void test_energy_gate(void)
{
	struct compare_side base, cand;
	struct compare_result r;
	memset(&base, 0, sizeof base);
	memset(&cand, 0, sizeof cand);
	struct compare_entry b[] = {
		spent(timed("t", "b=1", 1.00, 0.99, 1.01), 1.0e-3, 0.01),
		spent(timed("t", "b=2", 2.00, 1.99, 2.01), 2.0e-3, 0.01),
		spent(timed("t", "b=3", 3.00, 2.99, 3.01), 3.0e-3, 0.01),
		spent(timed("t", "b=4", 4.00, 3.99, 4.01), 4.0e-3, 0.01),
		timed("t", "b=5", 5.00, 4.99, 5.01),
	};
	struct compare_entry c[] = {
		spent(timed("t", "b=1", 1.00, 0.99, 1.01), 1.2e-3, 0.01),  /* more, time SAME */
		spent(timed("t", "b=2", 2.00, 1.99, 2.01), 2.02e-3, 0.01), /* same */
		spent(timed("t", "b=3", 3.00, 2.99, 3.01), 2.4e-3, 0.01),  /* less */
		timed("t", "b=4", 4.00, 3.99, 4.01),                      /* not measured: new side */
		timed("t", "b=5", 5.00, 4.99, 5.01),                      /* neither side */
	};
	base.entries = b;
	base.count = compare_dedupe(b, 5);
	cand.entries = c;
	cand.count = compare_dedupe(c, 5);
	CHECK_INT(compare_run(&base, &cand, 0.05, &r), 0);
	CHECK_INT(r.energy[ENERGY_VERDICT_MORE], 1);
	CHECK_INT(r.energy[ENERGY_VERDICT_SAME], 1);
	CHECK_INT(r.energy[ENERGY_VERDICT_LESS], 1);
	CHECK_INT(r.energy[ENERGY_VERDICT_NONE], 2);
	CHECK_INT(r.energy_seen, 4); /* b=5 has none on either side */
	CHECK_INT(r.verdicts[VERDICT_SAME], 5);
	/* Reported, never failing, without the gate. */
	CHECK_INT(compare_failures(&r), 0);
	CHECK_INT(compare_regressed(&r), 0);
	r.gate_energy = 1;
	CHECK_INT(compare_failures(&r), 1);
	CHECK_INT(compare_regressed(&r), 1);
	compare_result_free(&r);

	/* b=1 SLOWER as well: one failure, with the gate or without. */
	c[0] = spent(timed("t", "b=1", 1.50, 1.49, 1.51), 1.2e-3, 0.01);
	cand.count = compare_dedupe(c, 5);
	CHECK_INT(compare_run(&base, &cand, 0.05, &r), 0);
	CHECK_INT(r.verdicts[VERDICT_SLOWER], 1);
	CHECK_INT(r.more_energy_slower, 1);
	CHECK_INT(compare_failures(&r), 1);
	r.gate_energy = 1;
	CHECK_INT(compare_failures(&r), 1);
	compare_result_free(&r);

	/* Runs without energy: nothing seen, nothing said. */
	struct compare_entry plain[] = {timed("t", "b=1", 1.00, 0.99, 1.01)};
	base.entries = plain;
	base.count = 1;
	cand.entries = plain;
	cand.count = 1;
	CHECK_INT(compare_run(&base, &cand, 0.05, &r), 0);
	CHECK_INT(r.energy_seen, 0);
	CHECK_INT(r.energy[ENERGY_VERDICT_NONE], 1);
	compare_result_free(&r);
}

static void test_changes(void)
{
	struct compare_entry pass = with_status("a", STATUS_PASS, "completed-correct");
	struct compare_entry fail = with_status("a", STATUS_FAIL, "completed-wrong");
	struct compare_entry xpass = with_status("a", STATUS_XPASS, "completed-correct");
	struct compare_entry xfail = with_status("a", STATUS_XFAIL, "hung");
	struct compare_entry skip = with_status("a", STATUS_SKIP, "skipped");
	struct compare_entry pass2 = with_status("a", STATUS_PASS, "hung");
	CHECK_INT(compare_status(&pass, &pass), CHANGE_NONE);
	CHECK_INT(compare_status(&pass, &fail), CHANGE_REGRESSION);
	CHECK_INT(compare_status(&xfail, &xpass), CHANGE_REGRESSION);
	CHECK_INT(compare_status(&fail, &pass), CHANGE_FIXED);
	CHECK_INT(compare_status(&pass, &skip), CHANGE_STATUS);
	CHECK_INT(compare_status(&xfail, &pass), CHANGE_STATUS);
	CHECK_INT(compare_status(&pass, &pass2), CHANGE_OBSERVED); /* an undefined case's flip */
	CHECK_INT(compare_status(NULL, &pass), CHANGE_NEW);
	CHECK_INT(compare_status(NULL, &fail), CHANGE_REGRESSION);
	CHECK_INT(compare_status(&pass, NULL), CHANGE_REMOVED);
	CHECK_STR(compare_change_name(CHANGE_REGRESSION), "regression");
	CHECK_STR(compare_verdict_name(VERDICT_SLOWER), "SLOWER");
}

static void test_pairing(void)
{
	struct compare_side base, cand;
	struct compare_result r;
	memset(&base, 0, sizeof base);
	memset(&cand, 0, sizeof cand);
	struct compare_entry b[] = {
		timed("t", "b=1", 1.00, 0.99, 1.01), timed("t", "b=2", 2.00, 1.99, 2.01),
		with_status("gone", STATUS_PASS, "completed-correct"), with_status("x", STATUS_PASS, "completed-correct"),
	};
	/* Two shards ran "x": the newer (higher result id) counts. */
	struct compare_entry c[] = {
		timed("t", "b=2", 2.50, 2.49, 2.51), timed("t", "b=1", 0.98, 0.97, 1.02),
		with_status("x", STATUS_PASS, "completed-correct"), with_status("x", STATUS_FAIL, "completed-wrong"),
		with_status("fresh", STATUS_PASS, "completed-correct"),
	};
	for (size_t i = 0; i < 5; i++)
		c[i].result_id = (int64_t)(10 + i);
	base.entries = b;
	base.count = compare_dedupe(b, 4);
	cand.entries = c;
	cand.count = compare_dedupe(c, 5);
	CHECK_INT(cand.count, 4);
	CHECK_INT(compare_run(&base, &cand, 0.05, &r), 0);
	CHECK_INT(r.nitems, 5);
	CHECK_INT(r.counts[CHANGE_REGRESSION], 1); /* x: PASS -> FAIL, the newer shard's */
	CHECK_INT(r.counts[CHANGE_NEW], 1);
	CHECK_INT(r.counts[CHANGE_REMOVED], 1);
	CHECK_INT(r.verdicts[VERDICT_SLOWER], 1); /* t b=2 */
	CHECK_INT(r.verdicts[VERDICT_SAME], 1);
	CHECK_INT(compare_regressed(&r), 1);
	CHECK_INT(r.nbest, 1); /* device.v f32 sum 2^20: b=1 on both sides */
	if (r.nbest == 1) {
		CHECK_STR(r.best[0].base->params, "b=1");
		CHECK_STR(r.best[0].cand->params, "b=1");
	}
	compare_result_free(&r);
}

/* The best per problem follows the rule of every "best" (timing_rank_cmp):
 * a noisy configuration whose median is a hair lower loses to a steady one
 * with the lower upper bound. */
static void test_best_rank(void)
{
	struct compare_side base, cand;
	struct compare_result r;
	memset(&base, 0, sizeof base);
	memset(&cand, 0, sizeof cand);
	struct compare_entry b[] = {timed("t", "b=1", 1.000, 0.811, 1.189), timed("t", "b=2", 1.009, 0.979, 1.039)};
	struct compare_entry c[] = {timed("t", "b=1", 1.000, 0.811, 1.189), timed("t", "b=2", 1.009, 0.979, 1.039)};
	base.entries = b;
	base.count = compare_dedupe(b, 2);
	cand.entries = c;
	cand.count = compare_dedupe(c, 2);
	CHECK_INT(compare_run(&base, &cand, 0.05, &r), 0);
	CHECK_INT(r.nbest, 1);
	if (r.nbest == 1) {
		CHECK_STR(r.best[0].base->params, "b=2");
		CHECK_STR(r.best[0].cand->params, "b=2");
	}
	compare_result_free(&r);
}

int main(void)
{
	test_verdicts();
	test_energy();
	test_energy_gate();
	test_changes();
	test_pairing();
	test_best_rank();
	return TEST_END();
}
