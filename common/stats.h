/*
 * stats.h - statistics of timing samples, and when to stop sampling.
 *
 * Plain C, used by the worker's measurement loop (on the GPU's samples) and
 * by host-only timed cases; unit-tested without a GPU.
 */
#ifndef CONFORM_STATS_H
#define CONFORM_STATS_H

#include "common/timing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The sum of samples (kernel time, ms) below which the noise rule may not
 * stop sampling: a few identical samples of a microsecond kernel, all one
 * tick of the event clock, would otherwise make a zero-width interval. */
#define STATS_MIN_GPU_MS 1.0

/* A sample taken while the SM clock is below this fraction of the clock
 * after warm-up is dropped (measure.cu): it timed a throttled GPU. */
#define STATS_THROTTLE_FRACTION 0.9

/* Fills samples, median, mean, stddev (sample), min, noise (stddev /
 * mean), the median's interval (ci_low_ms, ci_high_ms) and spread of the
 * n samples in ms; leaves the other fields alone.  `scratch` holds n
 * doubles (the samples are not reordered). */
void stats_summarize(const double *samples_ms, int n, double *scratch, struct timing_stats *out);

/* The distribution-free 95 % confidence interval of the median of the n
 * sorted samples: the order statistics x(k) and x(n+1-k) for the largest
 * k with P(Binomial(n, 1/2) < k) <= 2.5 %.  Below 6 samples no k exists
 * and the interval is the whole range. */
void stats_median_interval(const double *sorted, int n, double *lo, double *hi);

/* 1 when sampling should stop, with *noise_met saying whether the noise
 * target was reached (the interval's relative half-width, spread, at most
 * max_noise, over at least STATS_MIN_GPU_MS of kernel time: each sample
 * is the time per launch of a batch of `launches`).  It stops when:
 * max_samples are in; or at least min_samples (and one) are in and either
 * the target is reached or elapsed_s >= max_time_s.  The time limit never
 * cuts sampling below min_samples.  `scratch` holds n doubles. */
int stats_should_stop(const double *samples_ms, int n, int launches, double elapsed_s,
		      const struct timing_request *t, double *scratch, int *noise_met);

/* The defaults: 10 samples, 1000 at most, 0.5 % noise, 1 s, cold. */
void stats_request_defaults(struct timing_request *t);

#ifdef __cplusplus
}
#endif
#endif
