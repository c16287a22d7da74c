/*
 * stats.h - statistics of timing samples, and when to stop sampling.
 *
 * Plain C, used by the worker's measurement loop (on the GPU's samples) and
 * by host-only timed cases; unit-tested without a GPU.
 */
#ifndef CONFORM_STATS_H
#define CONFORM_STATS_H

#include "timing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fills samples, median, mean, stddev (sample), min and noise
 * (stddev / mean) of the n samples in ms; leaves the other fields alone.
 * `scratch` holds n doubles (the samples are not reordered). */
void stats_summarize(const double *samples_ms, int n, double *scratch, struct timing_stats *out);

/* Relative noise stddev / mean of the n samples (0 for n < 2). */
double stats_relative_noise(const double *samples_ms, int n);

/* 1 when sampling should stop: max_samples reached, or at least
 * min_samples (and one) taken and either noise below max_noise or
 * elapsed_s >= max_time_s.  Never 1 below min_samples unless max_samples
 * is lower still. */
int stats_should_stop(const double *samples_ms, int n, double elapsed_s,
		      const struct timing_request *t);

/* The defaults: 10 samples, 1000 at most, 0.5 % noise, 1 s, cold. */
void stats_request_defaults(struct timing_request *t);

#ifdef __cplusplus
}
#endif
#endif
