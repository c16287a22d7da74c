/*
 * test_probe.c - the exact probes (worker/probe.h) without a GPU: every
 * probe's answer is exact in float whatever the order of the additions
 * (summed here forwards, backwards, as a pairwise tree, as 32 lanes and
 * in a shuffled order), the expectations match a brute-force reduction of
 * probe_value over each segment, the sum windows cover every offset once,
 * the extremes sit where the plan says, and the messages say what a wrong
 * answer means.  And the reason for the probes: a sum that drops the last
 * n/64 elements of a random input stays within the rounding bound, while
 * the probe's exact answer changes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "kernels/softmax/softmax_ref.h"
#include "tests/test.h"
#include "worker/probe.h"
#include "worker/tolerance.h"

static float sum_forward(const float *x, size_t n)
{
	float s = 0;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s;
}

static float sum_backward(const float *x, size_t n)
{
	float s = 0;
	for (size_t i = n; i-- > 0;)
		s += x[i];
	return s;
}

static float sum_tree(const float *x, size_t n)
{
	if (n == 0)
		return 0;
	if (n == 1)
		return x[0];
	return sum_tree(x, n / 2) + sum_tree(x + n / 2, n - n / 2);
}

/* 32 lanes, each a strided slice, then a shuffle-style halving tree. */
static float sum_lanes(const float *x, size_t n)
{
	float lane[32] = {0};
	for (size_t i = 0; i < n; i++)
		lane[i % 32] += x[i];
	for (int off = 16; off > 0; off /= 2)
		for (int l = 0; l < off; l++)
			lane[l] += lane[l + off];
	return lane[0];
}

static float sum_shuffled(const float *x, size_t n, uint64_t seed)
{
	float *y = malloc(n * sizeof *y);
	struct rng g;
	float s;

	memcpy(y, x, n * sizeof *y);
	rng_init(&g, seed);
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)rng_range(&g, 0, (int64_t)i - 1);
		float t = y[i - 1];
		y[i - 1] = y[j];
		y[j] = t;
	}
	s = sum_forward(y, n);
	free(y);
	return s;
}

/* The counted elements of segment s under p, in float, as a kernel would
 * hold them; returns their count. */
static size_t segment_values(const struct probe *p, int64_t n, int64_t s, float *x)
{
	size_t k = 0;
	for (int64_t i = s * p->seg_stride; i < n && i < s * p->seg_stride + p->seg_len; i++)
		x[k++] = (float)probe_value(p, i);
	return k;
}

/* Every probe of the plan: exact in five orders, and equal to the brute
 * force, for every segment. */
static void check_plan(enum op o, enum dtype d, int64_t n, int64_t len, int64_t stride)
{
	struct probe_plan *plan = malloc(sizeof *plan);
	float *x = malloc((size_t)len * sizeof *x);
	const int64_t nseg = (n + stride - 1) / stride;

	CHECK(probe_plan_make(plan, o, d, d, n, len, stride, 0, 7) > 0);
	for (size_t k = 0; k < plan->count; k++) {
		const struct probe *p = &plan->p[k];
		for (int64_t s = 0; s < nseg; s += nseg > 3 ? nseg / 3 : 1) {
			size_t m = segment_values(p, n, s, x);
			double want = probe_expect(p, n, s), brute = 0;
			if (o == OP_SUM) {
				for (size_t i = 0; i < m; i++)
					brute += x[i];
				CHECK(want == brute);
				CHECK(sum_forward(x, m) == want);
				CHECK(sum_backward(x, m) == want);
				CHECK(sum_tree(x, m) == want);
				CHECK(sum_lanes(x, m) == want);
				CHECK(sum_shuffled(x, m, k) == want);
			} else {
				brute = x[0];
				for (size_t i = 1; i < m; i++)
					brute = o == OP_MAX ? (x[i] > brute ? x[i] : brute) : (x[i] < brute ? x[i] : brute);
				CHECK(want == brute);
			}
		}
	}
	free(x);
	free(plan);
}

/* The ONES windows of a sum's plan cover [0, len) once, each no wider
 * than the cap. */
static void check_cover(enum dtype d, int64_t len)
{
	struct probe_plan *plan = malloc(sizeof *plan);
	int64_t covered = 0, next = 0;

	probe_plan_make(plan, OP_SUM, d, d, len, len, len, 0, 1);
	for (size_t k = 0; k < plan->count; k++) {
		const struct probe *p = &plan->p[k];
		if (p->kind != PROBE_ONES || p->hi - p->lo > probe_sum_cap(d, d) ||
		    (d == DTYPE_BF16 && p->lo != next))
			continue; /* bf16's narrow windows overlap the wide ones */
		CHECK(p->lo == next);
		/* float holds every integer to 2^24, double to 2^53 */
		CHECK(p->hi - p->lo <= (d == DTYPE_F64 ? (int64_t)1 << 53 : (int64_t)1 << 24));
		next = p->hi;
		covered += p->hi - p->lo;
	}
	CHECK(covered == len);
	free(plan);
}

static int has_extreme_at(const struct probe_plan *plan, int64_t at)
{
	for (size_t k = 0; k < plan->count; k++)
		if (plan->p[k].kind == PROBE_EXTREME && plan->p[k].at == at)
			return 1;
	return 0;
}

int main(void)
{
	struct probe_plan *plan = malloc(sizeof *plan);
	char buf[512];

	/* Exact in any order: one segment, segments with a short last one,
	 * strided segments (the first 20 of every 32), per dtype. */
	check_plan(OP_SUM, DTYPE_F32, 1, 1, 1);
	check_plan(OP_SUM, DTYPE_F32, 1000003, 1000003, 1000003);
	check_plan(OP_SUM, DTYPE_F32, 4099 * 33, 4099, 4099);
	check_plan(OP_SUM, DTYPE_F32, 1000, 33, 33);
	check_plan(OP_SUM, DTYPE_F32, 1000, 20, 32);
	check_plan(OP_SUM, DTYPE_BF16, 65521, 65521, 65521);
	check_plan(OP_SUM, DTYPE_F64, 4097, 4097, 4097);
	check_plan(OP_MAX, DTYPE_F32, 1000003, 1000003, 1000003);
	check_plan(OP_MIN, DTYPE_F32, 7 * 33, 33, 33);
	check_plan(OP_MAX, DTYPE_F32, 1000, 20, 32);

	/* The windows cover a segment past the f32 cap, and bf16's. */
	check_cover(DTYPE_F32, ((int64_t)1 << 24) + 1);
	check_cover(DTYPE_F32, ((int64_t)1 << 31) + 3);
	check_cover(DTYPE_BF16, ((int64_t)1 << 31) + 3);
	check_cover(DTYPE_F64, ((int64_t)1 << 31) + 3);
	probe_plan_make(plan, OP_SUM, DTYPE_F32, DTYPE_F32, ((int64_t)1 << 31) + 3, ((int64_t)1 << 31) + 3,
			((int64_t)1 << 31) + 3, 0, 1);
	CHECK_INT(plan->count, 129); /* 128 windows of 2^24 and the last 3 */
	CHECK_INT(plan->p[128].lo, (int64_t)1 << 31);
	CHECK_INT(plan->p[128].hi, ((int64_t)1 << 31) + 3);
	probe_plan_make(plan, OP_SUM, DTYPE_F32, DTYPE_F32, 1024, 1024, 1024, 0, 1);
	CHECK_INT(plan->count, 1 + 1); /* ones, and one ramp of the 10 offset bits */
	CHECK_INT(plan->p[1].width, 14); /* 1024 * (2^14 - 1) <= 2^24 */
	probe_plan_make(plan, OP_SUM, DTYPE_F32, DTYPE_F32, 1000003, 1000003, 1000003, 0, 1);
	CHECK_INT(plan->count, 1 + 5); /* 20 offset bits, 4 a ramp */
	probe_plan_make(plan, OP_SUM, DTYPE_BF16, DTYPE_F32, 1000, 1000, 1000, 0, 1);
	CHECK_INT(plan->p[1].width, 8); /* bf16 holds integers to 2^8 */
	/* bf16 outputs: narrow windows at the head, the tail and 2^k. */
	probe_plan_make(plan, OP_SUM, DTYPE_BF16, DTYPE_BF16, 65521, 65521, 65521, 0, 1);
	{
		int head = 0, tail = 0, boundary = 0;
		for (size_t k = 0; k < plan->count; k++) {
			const struct probe *p = &plan->p[k];
			head |= p->kind == PROBE_ONES && p->lo == 0 && p->hi == 256;
			tail |= p->kind == PROBE_ONES && p->lo == 65521 - 256 && p->hi == 65521;
			boundary |= p->kind == PROBE_ONES && p->lo == 4096 - 128 && p->hi == 4096 + 128;
		}
		CHECK(head && tail && boundary);
	}
	/* Integer sums have none; integer max does. */
	CHECK_INT(probe_plan_make(plan, OP_SUM, DTYPE_I32, DTYPE_I32, 100, 100, 100, 0, 1), 0);
	CHECK(probe_plan_make(plan, OP_MAX, DTYPE_I32, DTYPE_I32, 100, 100, 100, 0, 1) > 0);

	/* Extremes: first, last, boundaries, in range, none twice. */
	probe_plan_make(plan, OP_MAX, DTYPE_F32, DTYPE_F32, ((int64_t)1 << 31) + 3, ((int64_t)1 << 31) + 3,
			((int64_t)1 << 31) + 3, 0, 3);
	CHECK(has_extreme_at(plan, 0));
	CHECK(has_extreme_at(plan, ((int64_t)1 << 31) + 2));
	CHECK(has_extreme_at(plan, 31) && has_extreme_at(plan, 32));
	CHECK(has_extreme_at(plan, ((int64_t)1 << 24) - 1) && has_extreme_at(plan, (int64_t)1 << 24));
	CHECK(has_extreme_at(plan, ((int64_t)1 << 31) - 1) && has_extreme_at(plan, (int64_t)1 << 31));
	CHECK(!has_extreme_at(plan, (int64_t)1 << 32));
	for (size_t k = 0; k < plan->count; k++)
		for (size_t j = 0; j < k; j++)
			CHECK(plan->p[j].at != plan->p[k].at);
	CHECK(plan->p[0].base == -2 && plan->p[0].peak == -1); /* below zero: a 0 start is caught */
	probe_plan_make(plan, OP_MIN, DTYPE_F32, DTYPE_F32, 33, 33, 33, 0, 3);
	CHECK(plan->p[0].base == 2 && plan->p[0].peak == 1);
	probe_plan_make(plan, OP_MAX, DTYPE_F32, DTYPE_F32, 33, 33, 33, 1, 3);
	CHECK(plan->p[0].base >= 0 && plan->p[0].peak > plan->p[0].base); /* non-negative inputs */

	/* Uncounted offsets of a stride hold a decoy a kernel must not count. */
	probe_plan_make(plan, OP_SUM, DTYPE_F32, DTYPE_F32, 64, 20, 32, 0, 1);
	CHECK(probe_value(&plan->p[0], 25) == 1.0 && probe_expect(&plan->p[0], 64, 1) == 20);
	probe_plan_make(plan, OP_MAX, DTYPE_F32, DTYPE_F32, 64, 20, 32, 0, 1);
	CHECK(probe_value(&plan->p[0], 25) > plan->p[0].peak);

	/* The words: what each wrong answer means. */
	{
		struct probe p = {.kind = PROBE_ONES, .seg_len = 1 << 24, .seg_stride = 1 << 24, .hi = 1 << 24};
		buf[0] = 0;
		probe_explain(&p, OP_SUM, 1 << 24, 0, 1, 16515072, buf, sizeof buf);
		CHECK_STR(buf, "sum of 16777216 ones returned 16515072: 262144 elements not counted");
		buf[0] = 0;
		probe_explain(&p, OP_SUM, 1 << 24, 0, 1, 0, buf, sizeof buf);
		CHECK_STR(buf, "sum of 16777216 ones returned 0: nothing counted");
		buf[0] = 0;
		probe_explain(&p, OP_SUM, 1 << 24, 0, 1, 16777217, buf, sizeof buf);
		CHECK_CONTAINS(buf, "1 element counted twice");
		probe_name(&p, OP_SUM, buf, sizeof buf);
		CHECK_STR(buf, "ones at [0, 16777216)");
	}
	{
		struct probe p = {.kind = PROBE_ONES, .seg_len = 1024, .seg_stride = 1024, .hi = 1024};
		buf[0] = 0;
		probe_explain(&p, OP_SUM, 4096, 2, 4, 992, buf, sizeof buf);
		CHECK_STR(buf, "sum of 1024 ones returned 992 of segment 2: 32 elements not counted");
	}
	{
		struct probe p = {.kind = PROBE_EXTREME, .seg_len = 1000, .seg_stride = 1000, .at = 999,
				  .base = -2, .peak = -1, .decoy = 4};
		buf[0] = 0;
		probe_explain(&p, OP_MAX, 1000, 0, 1, -2, buf, sizeof buf);
		CHECK_STR(buf, "returned -2, want -1: the element at offset 999 was never read");
		buf[0] = 0;
		probe_explain(&p, OP_MAX, 1000, 0, 1, 0, buf, sizeof buf);
		CHECK_CONTAINS(buf, "a value not in the input");
		probe_name(&p, OP_MAX, buf, sizeof buf);
		CHECK_STR(buf, "max of -2s with -1 at offset 999");
	}
	{
		struct probe p = {.kind = PROBE_RAMP, .seg_len = 64, .seg_stride = 64, .hi = 64, .bit = 3, .width = 1};
		CHECK(probe_expect(&p, 64, 0) == 32); /* bit 3: 8..15, 24..31, ... */
		CHECK(probe_value(&p, 8) == 1.0 && probe_value(&p, 7) == 0.0);
		p.width = 2;
		CHECK(probe_value(&p, 63) == 3.0 && probe_value(&p, 16) == 2.0);
		CHECK(probe_expect(&p, 64, 0) == 8 * (0 + 1 + 2 + 3) * 2); /* each q 8 times */
		CHECK(probe_expect(&p, 60, 0) == 8 * (0 + 1 + 2 + 3) * 2 - 4 * 3);
		buf[0] = 0;
		probe_explain(&p, OP_SUM, 64, 0, 1, 31, buf, sizeof buf);
		CHECK_CONTAINS(buf, "read from the wrong offset");
	}

	/* Softmax: the host's double reference of each probe's rows is the
	 * probe's answer (one-hot exactly; equal rows within the rounding). */
	{
		const size_t rows = 7, cols = 33;
		float *in = malloc(rows * cols * sizeof *in);
		double *ref = malloc(rows * cols * sizeof *ref), *tol = malloc(rows * cols * sizeof *tol);
		int seen_inf = 0;
		CHECK_INT(probe_softmax_plan(plan, (int64_t)cols, 0, 5), 7);
		CHECK_INT(probe_softmax_plan(plan, (int64_t)cols, 1, 5), 4);
		probe_softmax_plan(plan, (int64_t)cols, 0, 5);
		for (size_t k = 0; k < plan->count; k++) {
			const struct probe *p = &plan->p[k];
			int64_t peaks[3] = {0, 0, 0};
			seen_inf |= p->kind == PROBE_ONEHOT && isinf(p->base);
			for (size_t i = 0; i < rows * cols; i++)
				in[i] = (float)probe_value(p, (int64_t)i);
			softmax_reference(DTYPE_F32, DTYPE_F32, in, rows, cols, ref, tol);
			for (size_t i = 0; i < rows * cols; i++) {
				double t, want = probe_softmax_expect(p, DTYPE_F32, (int64_t)(i / cols),
								      (int64_t)(i % cols), &t);
				if (p->kind == PROBE_ONEHOT) {
					CHECK(t == 0 && ref[i] == want);
					if (want == 1.0 && i / cols < 3)
						peaks[i / cols] = (int64_t)(i % cols);
				} else {
					CHECK(fabs(ref[i] - want) <= t && t > 0 && t < 1e-8);
				}
			}
			if (p->kind == PROBE_ONEHOT) /* first, last, seeded by turns */
				CHECK((peaks[0] == 0 || peaks[1] == 0 || peaks[2] == 0) &&
				      (peaks[0] == 32 || peaks[1] == 32 || peaks[2] == 32));
		}
		CHECK(seen_inf);
		free(in);
		free(ref);
		free(tol);
	}

	/* Why: a sum that skips its last n/64 elements of a random input is
	 * within the rounding bound; the probe of ones is not. */
	{
		const size_t n = 1000003, kept = n - n / 64;
		float *x = malloc(n * sizeof *x);
		struct rng g;
		double ref = 0, abs_sum = 0, wrong = 0;
		rng_init(&g, 20261128);
		rng_fill(&g, DTYPE_F32, x, n);
		for (size_t i = 0; i < n; i++) {
			ref += x[i];
			abs_sum += fabs(x[i]);
			if (i < kept)
				wrong += x[i];
		}
		CHECK(fabs(wrong - ref) <= tolerance_sum(DTYPE_F32, DTYPE_F32, n, abs_sum, ref));
		probe_plan_make(plan, OP_SUM, DTYPE_F32, DTYPE_F32, (int64_t)n, (int64_t)n, (int64_t)n, 0, 1);
		CHECK(plan->p[0].kind == PROBE_ONES && probe_expect(&plan->p[0], (int64_t)n, 0) == (double)n);
		CHECK((double)kept != probe_expect(&plan->p[0], (int64_t)n, 0));
		free(x);
	}
	free(plan);
	printf("%d checks, %d failed\n", test_checks, test_failures);
	return test_failures ? 1 : 0;
}
