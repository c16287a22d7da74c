/*
 * test_stats.c - timing statistics and the sampling stop rule, against
 * values computed by hand.
 */
#include <math.h>

#include "stats.h"
#include "test.h"

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
	CHECK_NEAR(stats_relative_noise(x, 4), sqrt(5.0 / 3.0) / 2.5, 1e-15);
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
	CHECK_NEAR(stats_relative_noise(one, 1), 0, 0);
	stats_summarize(same, 5, scratch, &t);
	CHECK_NEAR(t.median_ms, 0.25, 0);
	CHECK_NEAR(t.stddev_ms, 0, 0);
	CHECK_NEAR(t.noise, 0, 0);
	stats_summarize(same, 0, scratch, &t);
	CHECK_INT(t.samples, 0);
	/* Large equal offsets: the two-pass deviation stays exactly 0 (a
	 * one-pass sum of squares would not). */
	const double big[] = {1e9 + 0.5, 1e9 + 0.5, 1e9 + 0.5};
	CHECK_NEAR(stats_relative_noise(big, 3), 0, 0);
}

static void test_stop_rule(void)
{
	struct timing_request r = {.min_samples = 3, .max_samples = 5, .max_noise = 0.01,
				   .max_time_s = 1.0};
	const double quiet[] = {1, 1, 1, 1, 1};
	const double noisy[] = {1, 2, 3, 1, 2}; /* noise of the first 3: 1/2 */

	CHECK_INT(stats_should_stop(quiet, 0, 0.0, &r), 0);
	CHECK_INT(stats_should_stop(quiet, 0, 5.0, &r), 0); /* time is up but nothing measured */
	CHECK_INT(stats_should_stop(quiet, 2, 0.1, &r), 0); /* quiet but too few */
	CHECK_INT(stats_should_stop(quiet, 3, 0.1, &r), 1); /* enough and quiet */
	CHECK_INT(stats_should_stop(noisy, 3, 0.1, &r), 0); /* enough but noisy */
	CHECK_INT(stats_should_stop(noisy, 4, 0.1, &r), 0);
	CHECK_INT(stats_should_stop(noisy, 5, 0.1, &r), 1); /* max_samples */
	CHECK_INT(stats_should_stop(noisy, 3, 1.0, &r), 1); /* max_time_s, min_samples in */
	CHECK_INT(stats_should_stop(noisy, 3, 0.999, &r), 0);
	/* Time running out does not cut sampling below min_samples (a slow or
	 * loaded machine must still get the samples it was asked for)... */
	CHECK_INT(stats_should_stop(noisy, 1, 1.0, &r), 0);
	CHECK_INT(stats_should_stop(quiet, 2, 50.0, &r), 0);
	/* ...but max_samples still ends it, even below min_samples. */
	r.max_samples = 2;
	CHECK_INT(stats_should_stop(noisy, 2, 50.0, &r), 1);
	r.max_samples = 5;

	/* The noise bound is strict: 9 and 11 have noise sqrt(2)/10. */
	const double pair[] = {9, 11};
	r.min_samples = 2;
	r.max_noise = sqrt(2.0) / 10;
	CHECK_INT(stats_should_stop(pair, 2, 0, &r), 0);
	r.max_noise = sqrt(2.0) / 10 * 1.000001;
	CHECK_INT(stats_should_stop(pair, 2, 0, &r), 1);
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
	test_defaults();
	return TEST_END();
}
