/*
 * test_compare.c - conform compare's decisions on host-made entries: each
 * timing verdict at and around the threshold and the noise, every kind of
 * status change, and the pairing of two runs' entries with duplicates.
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
	test_changes();
	test_pairing();
	test_best_rank();
	return TEST_END();
}
