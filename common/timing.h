/*
 * timing.h - what a timed case asks for and what it reports.
 *
 * Plain C, shared by conform, the worker and the kernels.  A case is timed
 * only after its result was checked correct; the worker measures with CUDA
 * events, in the manner of nvbench: warm-up, then samples until at least
 * min_samples were taken and either the relative noise (stddev / mean) is
 * under max_noise or max_time_s is spent, or max_samples is reached.  Cold
 * samples flush the L2 cache before each launch; hot samples do not.
 */
#ifndef CONFORM_TIMING_H
#define CONFORM_TIMING_H

#ifdef __cplusplus
extern "C" {
#endif

struct timing_request {
	int min_samples;     /* at least this many samples (default 10) */
	int max_samples;     /* at most this many (default 1000) */
	double max_noise;    /* stop when stddev / mean is below this (default 0.005) */
	double max_time_s;   /* stop after this much measuring, once min_samples are in (default 1.0 s) */
	int hot;             /* 1: no L2 flush between samples */
};

struct timing_stats {
	int samples;         /* 0: not timed */
	double median_ms, mean_ms, stddev_ms, min_ms;
	double noise;        /* stddev / mean, a fraction */
	double bytes;        /* bytes the kernel must move (the bandwidth basis) */
	int clock_start_mhz; /* SM clock before and after, 0 when NVML is absent */
	int clock_end_mhz;
	double result_spread; /* relative spread of the result over repeats; 0: bit-identical, -1: not measured */
};

#ifdef __cplusplus
}
#endif
#endif
