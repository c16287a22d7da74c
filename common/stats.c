/*
 * stats.c - statistics of timing samples (see stats.h).
 *
 * The median is the tuner's figure of merit because a few samples disturbed
 * by a clock change, a context switch or another process sharing the GPU
 * move the mean but not the median.  The spread is the sample standard
 * deviation (divisor n - 1): the samples estimate a distribution, they are
 * not the whole of it.
 */
#include "stats.h"

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

void stats_summarize(const double *samples_ms, int n, double *scratch, struct timing_stats *out)
{
	double mean, sd;
	out->samples = n > 0 ? n : 0;
	if (n <= 0) {
		out->median_ms = out->mean_ms = out->stddev_ms = out->min_ms = out->noise = 0;
		return;
	}
	memcpy(scratch, samples_ms, (size_t)n * sizeof *scratch);
	qsort(scratch, (size_t)n, sizeof *scratch, cmp_double);
	out->median_ms = n % 2 ? scratch[n / 2] : (scratch[n / 2 - 1] + scratch[n / 2]) / 2;
	out->min_ms = scratch[0];
	mean_stddev(samples_ms, n, &mean, &sd);
	out->mean_ms = mean;
	out->stddev_ms = sd;
	out->noise = mean > 0 ? sd / mean : 0;
}

double stats_relative_noise(const double *samples_ms, int n)
{
	double mean, sd;
	if (n < 2)
		return 0;
	mean_stddev(samples_ms, n, &mean, &sd);
	return mean > 0 ? sd / mean : 0;
}

int stats_should_stop(const double *samples_ms, int n, double elapsed_s,
		      const struct timing_request *t)
{
	if (n >= t->max_samples)
		return 1;
	/* min_samples is a floor that the time limit does not lower: a loaded
	 * machine that makes one sample outlast max_time_s must still give the
	 * statistics the samples the user asked for (tune --help promises "at
	 * least").  The parsers keep min_samples <= max_samples, so the first
	 * test above still bounds the loop. */
	if (n < 1 || n < t->min_samples)
		return 0;
	if (elapsed_s >= t->max_time_s)
		return 1;
	return stats_relative_noise(samples_ms, n) < t->max_noise;
}

void stats_request_defaults(struct timing_request *t)
{
	t->min_samples = 10;
	t->max_samples = 1000;
	t->max_noise = 0.005;
	t->max_time_s = 1.0;
	t->hot = 0;
}
