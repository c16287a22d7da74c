/*
 * stats.c - statistics of timing samples (see stats.h).
 *
 * The median is the tuner's figure of merit because a few samples disturbed
 * by a clock change, a context switch or another process sharing the GPU
 * move the mean but not the median.  How well the median is known is said
 * by its confidence interval from order statistics, which assumes nothing
 * about the distribution (timings are skewed, with a long right tail) and
 * which a handful of outliers barely moves; its relative half-width is the
 * spread that --max-noise bounds.  stddev / mean (divisor n - 1) stays as a
 * second figure.
 */
#include "common/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Mean and sample standard deviation; the deviation is 0 for n < 2. */
static void mean_stddev(const double *x, int n, double *mean, double *stddev)
{
	double sum = 0, ss = 0;
	for (int i = 0; i < n; i++)
		sum += x[i];
	*mean = n > 0 ? sum / n : 0;
	/* Two passes: the one-pass formula cancels badly when the samples are
	 * close together, which is exactly the case of a quiet measurement. */
	for (int i = 0; i < n; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*stddev = n > 1 ? sqrt(ss / (n - 1)) : 0;
}

void stats_median_interval(const double *sorted, int n, double *lo, double *hi)
{
	/* The cumulative binomial in log space: 0.5^n underflows past n = 1074. */
	const double alpha2 = 0.025, ln_half_n = n * log(0.5);
	double cdf = 0;
	int k = 0; /* P(B < k) <= alpha2 holds for k = 0..this */

	if (n <= 0) {
		*lo = *hi = 0;
		return;
	}
	for (int i = 0; i < n; i++) {
		cdf += exp(lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) + ln_half_n);
		if (cdf > alpha2)
			break;
		k = i + 1;
	}
	/* k is 1-based: x(k) is sorted[k - 1]; none (k = 0): the range. */
	*lo = k >= 1 ? sorted[k - 1] : sorted[0];
	*hi = k >= 1 ? sorted[n - k] : sorted[n - 1];
}

/* The figures that need the samples sorted (in scratch). */
static void sorted_figures(const double *samples_ms, int n, double *scratch, struct timing_stats *out)
{
	memcpy(scratch, samples_ms, (size_t)n * sizeof *scratch);
	qsort(scratch, (size_t)n, sizeof *scratch, cmp_double);
	out->median_ms = n % 2 ? scratch[n / 2] : (scratch[n / 2 - 1] + scratch[n / 2]) / 2;
	out->min_ms = scratch[0];
	stats_median_interval(scratch, n, &out->ci_low_ms, &out->ci_high_ms);
	out->spread = out->median_ms > 0 ? (out->ci_high_ms - out->ci_low_ms) / (2 * out->median_ms) : 0;
}

void stats_summarize(const double *samples_ms, int n, double *scratch, struct timing_stats *out)
{
	double mean, sd;
	out->samples = n > 0 ? n : 0;
	if (n <= 0) {
		out->median_ms = out->mean_ms = out->stddev_ms = out->min_ms = out->noise = 0;
		out->ci_low_ms = out->ci_high_ms = out->spread = 0;
		return;
	}
	sorted_figures(samples_ms, n, scratch, out);
	mean_stddev(samples_ms, n, &mean, &sd);
	out->mean_ms = mean;
	out->stddev_ms = sd;
	out->noise = mean > 0 ? sd / mean : 0;
}

/* The noise target: spread within max_noise over enough kernel time. */
static int target_met(const double *samples_ms, int n, int launches,
		      const struct timing_request *t, double *scratch)
{
	struct timing_stats s;
	double sum = 0;
	for (int i = 0; i < n; i++)
		sum += samples_ms[i];
	if (n < 1 || sum * launches < STATS_MIN_GPU_MS)
		return 0;
	sorted_figures(samples_ms, n, scratch, &s);
	return s.spread <= t->max_noise;
}

int stats_should_stop(const double *samples_ms, int n, int launches, double elapsed_s,
		      const struct timing_request *t, double *scratch, int *noise_met)
{
	*noise_met = 0;
	if (n >= t->max_samples) {
		*noise_met = target_met(samples_ms, n, launches, t, scratch);
		return 1;
	}
	/* min_samples is a floor that the time limit does not lower: a loaded
	 * machine that makes one sample outlast max_time_s must still give the
	 * statistics the samples the user asked for (tune --help promises "at
	 * least").  The parsers keep min_samples <= max_samples, so the first
	 * test above still bounds the loop. */
	if (n < 1 || n < t->min_samples)
		return 0;
	*noise_met = target_met(samples_ms, n, launches, t, scratch);
	return *noise_met || elapsed_s >= t->max_time_s;
}

void stats_request_defaults(struct timing_request *t)
{
	t->min_samples = 10;
	t->max_samples = 1000;
	t->max_noise = 0.005;
	t->max_time_s = 1.0;
	t->hot = 0;
	t->energy = 1;
}
