/*
 * harness.c - the harness.* family: host-only self-test cases.
 *
 * These need no GPU.  They exercise the runner the way a misbehaving kernel
 * would: one computes a correct sum, one a wrong one, one hangs forever and
 * one crashes, so that `make check` and a GPU-less CI can prove that
 * deadlines, crash isolation and result checking work.
 *
 * Three more stand in for the tuner's subjects, so that tuning, the
 * database and the best/history commands can be tested end to end without
 * a GPU: harness.spin is a timed "kernel" with a tuning space whose cost is
 * a known smooth function of its parameters with one optimum, and
 * harness.baseline and harness.copy play the parts device.cub and
 * device.copy play for the device family.
 */
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/params.h"
#include "common/rng.h"
#include "common/stats.h"
#include "common/text.h"
#include "worker/check.h"
#include "worker/reference.h"
#include "worker/variant.h"

/*
 * The contract check of every harness variant, from its declaration
 * (harness_variants[]): the op (spin and baseline only sum), the tunables
 * bound into out (the variant's parameter struct; NULL when it has none)
 * and the rules, 1 <= n <= 2^24 among them (the sum runs on the host).
 */
static int harness_bind(const struct case_args *a, void *out, char *msg, size_t len)
{
	const struct variant *v = catalog_find(a->variant);
	enum op op;

	if (!v) {
		snprintf(msg, len, "%s: not in the catalog", a->variant);
		return -1;
	}
	if (variant_op(v, a, &op, msg, len) < 0)
		return -1;
	return variant_bind(v, a, out, msg, len);
}

static int harness_check(const struct case_args *a, char *msg, size_t len)
{
	return harness_bind(a, NULL, msg, len);
}

/* Sums the case's input on the host the way a one-thread kernel would, adds
 * `bias`, and checks the result against the reference. */
static void harness_sum(const struct case_args *a, struct case_result *r, int bias)
{
	size_t n = (size_t)a->n, es = dtype_size(a->dtype);
	void *in = malloc(n * es), *out = malloc(es);
	if (!in || !out) {
		free(in);
		free(out);
		case_result_set(r, OUTCOME_ERROR, "out of host memory");
		return;
	}
	struct rng g;
	rng_init(&g, a->seed);
	rng_fill(&g, a->dtype, in, n);
	check_poison(a->dtype, out, 1);

	double acc = 0;
	int64_t iacc = 0;
	for (size_t i = 0; i < n; i++) {
		if (a->dtype == DTYPE_I32)
			iacc += ((const int32_t *)in)[i];
		else if (a->dtype == DTYPE_F32)
			acc = (float)(acc + ((const float *)in)[i]);
		else
			acc += ((const double *)in)[i];
	}
	if (a->dtype == DTYPE_I32)
		*(int32_t *)out = (int32_t)(uint32_t)(iacc + bias);
	else if (a->dtype == DTYPE_F32)
		*(float *)out = (float)(acc + bias);
	else
		*(double *)out = acc + bias;

	double ref, tol;
	reference_segments(OP_SUM, a->dtype, a->dtype, a->dtype, in, n, n, &ref, &tol);
	check_values(a->dtype, out, &ref, &tol, 1, r);
	free(in);
	free(out);
}

static void harness_pass_run(const struct case_args *a, struct case_result *r)
{
	harness_sum(a, r, 0);
}

static void harness_wrong_run(const struct case_args *a, struct case_result *r)
{
	harness_sum(a, r, 1);
}

/* Bugs planted at known sizes, for the search for the smallest failing
 * size and the patterns across sizes (tests/diagnose.sh): wrong above
 * HARNESS_WRONG_ABOVE elements, and wrong when n is not a multiple of 4. */
#define HARNESS_WRONG_ABOVE 1000
static void harness_wrong_above_run(const struct case_args *a, struct case_result *r)
{
	harness_sum(a, r, a->n > HARNESS_WRONG_ABOVE);
}

static void harness_wrong_unaligned_run(const struct case_args *a, struct case_result *r)
{
	harness_sum(a, r, a->n % 4 != 0);
}

static void harness_hang_run(const struct case_args *a, struct case_result *r)
{
	(void)a;
	(void)r;
	for (;;)
		pause();
}

static void harness_crash_run(const struct case_args *a, struct case_result *r)
{
	(void)a;
	(void)r;
	raise(SIGSEGV);
	abort(); /* if SIGSEGV was somehow caught and returned */
}

/*
 * Timing on the host.  Samples are taken on the thread's CPU-time clock, not
 * the wall clock: a self-test must give the same answer on a loaded CI
 * machine, where the wall time of a busy loop depends on who else runs.
 * The sampling budget (max_time_s) is wall time, as on the GPU.
 */
static double thread_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef void (*harness_body)(const void *ctx);

/* Runs body once to warm up, then samples it under the stop rule of
 * a->timing and fills r->timing; bytes is the bandwidth basis. */
static void harness_time(const struct case_args *a, struct case_result *r, harness_body body,
			 const void *ctx, double bytes)
{
	const struct timing_request *t = a->timing;
	double *samples = malloc((size_t)t->max_samples * sizeof *samples);
	double *scratch = malloc((size_t)t->max_samples * sizeof *scratch);
	if (!samples || !scratch) {
		free(samples);
		free(scratch);
		case_result_set(r, OUTCOME_ERROR, "out of host memory for %d samples", t->max_samples);
		return;
	}
	body(ctx);
	int n = 0, met = 0;
	double start = text_now();
	do {
		double t0 = thread_seconds();
		body(ctx);
		samples[n++] = (thread_seconds() - t0) * 1e3;
	} while (!stats_should_stop(samples, n, 1, text_now() - start, t, scratch, &met));
	stats_summarize(samples, n, scratch, &r->timing);
	r->timing.noise_met = met;
	r->timing.timer = TIMER_HOST;
	r->timing.bytes = bytes;
	r->timing.result_spread = -1;
	free(samples);
	free(scratch);
}

/*
 * harness.spin: "reduces" by spinning for a time that is a smooth function
 * of its parameters, a bowl in log2 space with its one minimum at block=512,
 * items=4, vec=2, and some coupling between block and items:
 *
 *   cost = n/2 spin steps * (1 + 0.40 (lb-9)^2 + 0.30 (li-2)^2
 *                              + 0.35 (lv-1)^2 + 0.10 (lb-9)(li-2))
 *
 * with lb, li, lv the log2 of block, items and vec.  A spin step is one
 * dependent multiply-add, about a nanosecond, so n = 2^16 at the optimum
 * takes some 40 µs a sample.  Every neighbour of the optimum is at least
 * 30 % slower: more than the noise of a loaded CI machine, so that tests can
 * expect searches to find it.  tests/test_tune_search.c uses the same model.
 */

/* The spin's tunables, bound from spin_tunables[]. */
struct spin_params {
	int block, items, vec;
};

static int log2_exact(long long v)
{
	return v > 0 && !(v & (v - 1)) ? __builtin_ctzll((unsigned long long)v) : -1;
}

static int spin_check(const struct case_args *a, char *msg, size_t len)
{
	struct spin_params p;

	return harness_bind(a, &p, msg, len);
}

static double spin_model(const struct spin_params *p)
{
	double b = log2_exact(p->block) - 9, i = log2_exact(p->items) - 2, v = log2_exact(p->vec) - 1;
	return 1 + 0.40 * b * b + 0.30 * i * i + 0.35 * v * v + 0.10 * b * i;
}

static volatile uint64_t spin_sink;

static void spin_body(const void *ctx)
{
	uint64_t steps = *(const uint64_t *)ctx, x = spin_sink | 1;
	for (uint64_t k = 0; k < steps; k++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	spin_sink = x;
}

static void spin_with(const struct case_args *a, struct case_result *r, const struct spin_params *p)
{
	harness_sum(a, r, 0);
	if (r->outcome != OUTCOME_CORRECT || !a->timing)
		return;
	uint64_t steps = (uint64_t)((double)a->n / 2 * spin_model(p));
	harness_time(a, r, spin_body, &steps, (double)a->n * (double)dtype_size(a->dtype));
}

static void spin_run(const struct case_args *a, struct case_result *r)
{
	struct spin_params p;
	char msg[256];
	if (harness_bind(a, &p, msg, sizeof msg) < 0) {
		case_result_set(r, OUTCOME_INVALID, "%s", msg);
		return;
	}
	/* CONFORM_TEST_WRONG_VEC=V plants a bug in one tunable value: the
	 * sum is one off at vec=V, so that a tune can say which value its
	 * failures go with (tests/diagnose.sh). */
	const char *wrong = getenv("CONFORM_TEST_WRONG_VEC");
	if (wrong && atoi(wrong) == p.vec) {
		harness_sum(a, r, 1);
		return;
	}
	spin_with(a, r, &p);
}

/* harness.baseline: the spin at a fixed, untuned configuration (block=256,
 * items=1, vec=1: 3.15 times the optimum), what a library is to a kernel
 * being tuned. */
static void baseline_run(const struct case_args *a, struct case_result *r)
{
	static const struct spin_params fixed = {256, 1, 1};
	spin_with(a, r, &fixed);
}

/* harness.copy: copies n elements with memcpy; timed, its bandwidth counts
 * the bytes read and written, as device.copy's does. */
struct copy_job {
	void *dst;
	const void *src;
	size_t bytes;
};

static void copy_body(const void *ctx)
{
	const struct copy_job *j = ctx;
	memcpy(j->dst, j->src, j->bytes);
}

static void copy_run(const struct case_args *a, struct case_result *r)
{
	size_t n = (size_t)a->n, bytes = n * dtype_size(a->dtype);
	void *src = malloc(bytes), *dst = malloc(bytes);
	if (!src || !dst) {
		free(src);
		free(dst);
		case_result_set(r, OUTCOME_ERROR, "out of host memory");
		return;
	}
	struct rng g;
	rng_init(&g, a->seed);
	rng_fill(&g, a->dtype, src, n);
	check_poison(a->dtype, dst, n);
	struct copy_job job = {dst, src, bytes};
	copy_body(&job);
	r->err_norm = 0;
	if (memcmp(dst, src, bytes) != 0)
		case_result_set(r, OUTCOME_WRONG, "the copy differs from its source");
	else
		case_result_set(r, OUTCOME_CORRECT, "%s", "");
	if (r->outcome == OUTCOME_CORRECT && a->timing)
		harness_time(a, r, copy_body, &job, 2.0 * (double)bytes);
	free(src);
	free(dst);
}

#define HARNESS_DTYPES (DTYPE_BIT(DTYPE_F32) | DTYPE_BIT(DTYPE_F64) | DTYPE_BIT(DTYPE_I32))

/* The sum runs on the host, in the worker process (.gpu = 0 says so too). */
#define HARNESS_RULE_N {"1 <= n && n <= 16777216", "the sum runs on the host, no GPU"}
static const struct rule harness_rules[] = {HARNESS_RULE_N};

/* Powers of two, tuned over the bowl around its optimum (block=512,
 * items=4, vec=2); block * items * vec stands for a shared-memory limit. */
static const struct tunable spin_tunables[] = {
	{.name = "block", .doc = "threads per block", .lo = 32, .hi = 1024, .pow2 = 1, .def = "256",
	 .space = "64,128,256,512,1024", .field = offsetof(struct spin_params, block)},
	{.name = "items", .doc = "items per thread", .lo = 1, .hi = 64, .pow2 = 1, .def = "1",
	 .space = "1,2,4,8,16", .field = offsetof(struct spin_params, items)},
	{.name = "vec", .doc = "elements per vector load", .lo = 1, .hi = 4, .pow2 = 1, .def = "1",
	 .space = "1,2,4", .field = offsetof(struct spin_params, vec)},
};
static const struct rule spin_rules[] = {
	HARNESS_RULE_N,
	{"block * items * vec <= 16384", "the tile's \"shared memory\""},
};
static const struct tunable_set spin_set = {
	TUNABLE_LIST(spin_tunables), RULE_LIST(spin_rules), .size = sizeof(struct spin_params),
};

/* The family's references: the host's memcpy stands in for the copy (kept
 * small: it is only for the tests) and harness.baseline for CUB. */
static const struct variant_refs harness_refs = {
	.copy = "harness.copy", .copy_n = 1LL << 22, .baseline = "harness.baseline",
};

#define HARNESS(name_, summary_, check_, run_, ...)                                                \
	{.name = name_, .summary = summary_, .dtypes = HARNESS_DTYPES, .gpu = 0, .check = check_,   \
	 .run = run_, __VA_ARGS__, .refs = &harness_refs}
#define HARNESS_RULES .params = {RULE_LIST(harness_rules)}

static const struct variant harness_variants[] = {
	HARNESS("harness.pass", "host sum of n elements, checked like a kernel result", harness_check,
		harness_pass_run, HARNESS_RULES),
	HARNESS("harness.wrong", "host sum plus one: a wrong result the checker must catch", harness_check,
		harness_wrong_run, HARNESS_RULES),
	HARNESS("harness.wrong_above", "host sum, plus one above 1000 elements: a bug at a planted size",
		harness_check, harness_wrong_above_run, HARNESS_RULES),
	HARNESS("harness.wrong_unaligned", "host sum, plus one when n is not a multiple of 4",
		harness_check, harness_wrong_unaligned_run, HARNESS_RULES),
	HARNESS("harness.hang", "never returns: the watchdog must kill it", harness_check,
		harness_hang_run, HARNESS_RULES),
	HARNESS("harness.crash", "raises SIGSEGV: the runner must record a crash and go on", harness_check,
		harness_crash_run, HARNESS_RULES),
	HARNESS("harness.spin", "host sum, then a timed spin whose cost is a known bowl over its tunables",
		spin_check, spin_run, .ops = OP_BIT(OP_SUM), .params = {.set = &spin_set}),
	HARNESS("harness.baseline", "harness.spin at block=256 items=1 vec=1: the harness family's baseline",
		harness_check, baseline_run, .ops = OP_BIT(OP_SUM), HARNESS_RULES),
	HARNESS("harness.copy", "memcpy of n elements: the harness family's copy bandwidth", harness_check,
		copy_run, HARNESS_RULES),
};

const struct variant_table harness_table = {
	harness_variants, sizeof harness_variants / sizeof harness_variants[0],
};
