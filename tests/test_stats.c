/*
 * test_stats.c - timing statistics and the sampling stop rule, against
 * values computed by hand.
 */
#include <math.h>

#include "common/rng.h"
#include "common/stats.h"
#include "tests/test.h"

static void test_even(void)
{
	/* Sorted: 1 2 3 4.  Median (2+3)/2; mean 2.5; squared deviations
	 * 2.25 + 0.25 + 0.25 + 2.25 = 5, over n-1 = 3: variance 5/3. */
	const double x[] = {4, 1, 3, 2};
	double scratch[4];
	struct timing_stats t = {0};
	t.bytes = 123; /* not stats_summarize's business */
	stats_summarize(x, 4, scratch, &t);
	CHECK_INT(t.samples, 4);
	CHECK_NEAR(t.median_ms, 2.5, 0);
	CHECK_NEAR(t.mean_ms, 2.5, 0);
	CHECK_NEAR(t.min_ms, 1, 0);
	CHECK_NEAR(t.stddev_ms, sqrt(5.0 / 3.0), 1e-15);
	CHECK_NEAR(t.noise, sqrt(5.0 / 3.0) / 2.5, 1e-15);
	CHECK_NEAR(t.bytes, 123, 0);
	/* The samples keep their order. */
	CHECK(x[0] == 4 && x[1] == 1 && x[2] == 3 && x[3] == 2);
}

static void test_odd(void)
{
	/* Sorted: 1 3 5.  Median 3; mean 3; deviations 4 + 0 + 4 = 8, over 2:
	 * variance 4, stddev 2, noise 2/3. */
	const double x[] = {5, 1, 3};
	double scratch[3];
	struct timing_stats t = {0};
	stats_summarize(x, 3, scratch, &t);
	CHECK_INT(t.samples, 3);
	CHECK_NEAR(t.median_ms, 3, 0);
	CHECK_NEAR(t.mean_ms, 3, 0);
	CHECK_NEAR(t.min_ms, 1, 0);
	CHECK_NEAR(t.stddev_ms, 2, 1e-15);
	CHECK_NEAR(t.noise, 2.0 / 3.0, 1e-15);
}

static void test_degenerate(void)
{
	const double one[] = {7};
	const double same[] = {0.25, 0.25, 0.25, 0.25, 0.25};
	double scratch[5];
	struct timing_stats t = {0};
	stats_summarize(one, 1, scratch, &t);
	CHECK_INT(t.samples, 1);
	CHECK_NEAR(t.median_ms, 7, 0);
	CHECK_NEAR(t.stddev_ms, 0, 0);
	CHECK_NEAR(t.noise, 0, 0);
	stats_summarize(same, 5, scratch, &t);
	CHECK_NEAR(t.median_ms, 0.25, 0);
	CHECK_NEAR(t.stddev_ms, 0, 0);
	CHECK_NEAR(t.noise, 0, 0);
	stats_summarize(same, 0, scratch, &t);
	CHECK_INT(t.samples, 0);
	/* Large equal offsets: the two-pass deviation stays exactly 0 (a
	 * one-pass sum of squares would not). */
	const double big[] = {1e9 + 0.5, 1e9 + 0.5, 1e9 + 0.5};
	stats_summarize(big, 3, scratch, &t);
	CHECK_NEAR(t.stddev_ms, 0, 0);
	CHECK_NEAR(t.noise, 0, 0);
}

static void test_stop_rule(void)
{
	struct timing_request r = {.min_samples = 3, .max_samples = 5, .max_noise = 0.01,
				   .max_time_s = 1.0};
	/* Each sample 1 ms: STATS_MIN_GPU_MS is met from the first. */
	const double quiet[] = {1, 1, 1, 1, 1};
	const double noisy[] = {1, 2, 3, 1, 2};
	double scratch[8];
	int met = -1;

	CHECK_INT(stats_should_stop(quiet, 0, 1, 0.0, &r, scratch, &met), 0);
	CHECK_INT(stats_should_stop(quiet, 0, 1, 5.0, &r, scratch, &met), 0); /* time up, nothing measured */
	CHECK_INT(stats_should_stop(quiet, 2, 1, 0.1, &r, scratch, &met), 0); /* quiet but too few */
	CHECK_INT(stats_should_stop(quiet, 3, 1, 0.1, &r, scratch, &met), 1); /* enough and quiet */
	CHECK_INT(met, 1);
	CHECK_INT(stats_should_stop(noisy, 3, 1, 0.1, &r, scratch, &met), 0); /* enough but noisy */
	CHECK_INT(stats_should_stop(noisy, 4, 1, 0.1, &r, scratch, &met), 0);
	CHECK_INT(stats_should_stop(noisy, 5, 1, 0.1, &r, scratch, &met), 1); /* max_samples */
	CHECK_INT(met, 0); /* ...with the target not reached, said */
	CHECK_INT(stats_should_stop(noisy, 3, 1, 1.0, &r, scratch, &met), 1); /* max_time_s, min_samples in */
	CHECK_INT(met, 0);
	CHECK_INT(stats_should_stop(noisy, 3, 1, 0.999, &r, scratch, &met), 0);
	/* Time running out does not cut sampling below min_samples (a slow or
	 * loaded machine must still get the samples it was asked for)... */
	CHECK_INT(stats_should_stop(noisy, 1, 1, 1.0, &r, scratch, &met), 0);
	CHECK_INT(stats_should_stop(quiet, 2, 1, 50.0, &r, scratch, &met), 0);
	/* ...but max_samples still ends it, even below min_samples. */
	r.max_samples = 2;
	CHECK_INT(stats_should_stop(noisy, 2, 1, 50.0, &r, scratch, &met), 1);
	r.max_samples = 5;

	/* A microsecond kernel: identical samples, all one tick of the event
	 * clock, are not a met target until they add up to STATS_MIN_GPU_MS. */
	const double ticks[] = {0.001, 0.001, 0.001, 0.001, 0.001};
	CHECK_INT(stats_should_stop(ticks, 5, 1, 0.1, &r, scratch, &met), 1); /* max_samples */
	CHECK_INT(met, 0);
	r.max_samples = 8;
	CHECK_INT(stats_should_stop(ticks, 5, 1, 0.1, &r, scratch, &met), 0);
	/* The same samples as the time per launch of batches of 200 launches
	 * (hot samples): 5 x 200 x 1 us is 1 ms of kernel time, so the quiet
	 * samples stop sampling with the target met. */
	CHECK_INT(stats_should_stop(ticks, 5, 200, 0.1, &r, scratch, &met), 1);
	CHECK_INT(met, 1);
	CHECK_INT(stats_should_stop(ticks, 5, 199, 0.1, &r, scratch, &met), 0);
}

/* The median's interval: the order statistics the binomial gives (by hand:
 * n = 10, P(B <= 1) = 11/1024 and P(B <= 2) = 56/1024, so x(2) and x(9);
 * n = 100: x(40) and x(61); under 6 samples the whole range). */
static void test_interval(void)
{
	double x[100], lo, hi;
	for (int i = 0; i < 100; i++)
		x[i] = i + 1; /* x(k) = k */
	stats_median_interval(x, 10, &lo, &hi);
	CHECK_NEAR(lo, 2, 0);
	CHECK_NEAR(hi, 9, 0);
	stats_median_interval(x, 100, &lo, &hi);
	CHECK_NEAR(lo, 40, 0);
	CHECK_NEAR(hi, 61, 0);
	stats_median_interval(x, 5, &lo, &hi);
	CHECK_NEAR(lo, 1, 0);
	CHECK_NEAR(hi, 5, 0);
	stats_median_interval(x, 6, &lo, &hi);
	CHECK_NEAR(lo, 1, 0);
	CHECK_NEAR(hi, 6, 0);
}

/* Coverage against a known, skewed distribution: samples 1 + Exp(1) (a
 * timing's long right tail), true median 1 + ln 2.  Over 2000 seeded
 * trials of 100 samples the interval must hold it 1930 times, give or
 * take 3 standard deviations of the count (its actual level at n = 100 is
 * 1 - 2 P(B <= 39) = 96.5 %; a wrong order statistic moves it by more). */
static void test_coverage(void)
{
	struct rng g;
	double x[100], scratch[100];
	int covered = 0;
	const double truth = 1 + log(2.0);
	rng_init(&g, 20261124);
	for (int trial = 0; trial < 2000; trial++) {
		struct timing_stats t;
		for (int i = 0; i < 100; i++)
			x[i] = 1 - log(1 - rng_uniform(&g, 0, 1));
		stats_summarize(x, 100, scratch, &t);
		covered += t.ci_low_ms <= truth && truth <= t.ci_high_ms;
	}
	CHECK(covered >= 1880 && covered <= 1970);
}

/* Outliers: five samples of a hundred 1000 times too long (a context
 * switch) move stddev / mean far and the robust spread barely. */
static void test_outliers(void)
{
	struct rng g;
	double x[100], scratch[100];
	struct timing_stats clean, dirty;
	rng_init(&g, 7);
	for (int i = 0; i < 100; i++)
		x[i] = rng_uniform(&g, 0.99, 1.01);
	stats_summarize(x, 100, scratch, &clean);
	for (int i = 0; i < 5; i++)
		x[i * 20] = 1000;
	stats_summarize(x, 100, scratch, &dirty);
	CHECK(clean.spread < 0.005);
	CHECK(dirty.spread < 0.0075);         /* the interval moves by a few order statistics */
	CHECK(dirty.noise > 100 * clean.noise); /* stddev / mean does not survive them */
	CHECK(dirty.ci_low_ms >= 0.99 && dirty.ci_high_ms <= 1.01);
}

static void test_defaults(void)
{
	struct timing_request r;
	r.hot = 1;
	stats_request_defaults(&r);
	CHECK_INT(r.min_samples, 10);
	CHECK_INT(r.max_samples, 1000);
	CHECK_NEAR(r.max_noise, 0.005, 0);
	CHECK_NEAR(r.max_time_s, 1.0, 0);
	CHECK_INT(r.hot, 0);
}

int main(void)
{
	test_even();
	test_odd();
	test_degenerate();
	test_stop_rule();
	test_interval();
	test_coverage();
	test_outliers();
	test_defaults();
	return TEST_END();
}
