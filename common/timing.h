/*
 * timing.h - what a timed case asks for and what it reports.
 *
 * Plain C, shared by conform, the worker and the kernels.  A case is timed
 * only after its result was checked correct; the worker measures in the
 * manner of nvbench: warm-up, then samples until at least
 * min_samples were taken (and STATS_MIN_GPU_MS of kernel time) and either
 * the median's relative confidence half-width (spread) is under max_noise
 * or max_time_s is spent, or max_samples is reached.  Cold samples flush
 * the L2 cache before each launch and are taken behind a blocking kernel,
 * so no host gap is timed; hot samples batch launches and do not flush.
 * A sample is the GPU's own time for the launch's work, from CUPTI's
 * kernel, memset and copy records, where libcupti loads; else the interval
 * between two CUDA events, which also holds the grid's launch and drain
 * (worker/activity.cuh).  Which one timed a result is stored with it.
 */
#ifndef CONFORM_TIMING_H
#define CONFORM_TIMING_H

#include "common/energy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What timed a result's samples; the names are what the protocol and the
 * database carry (timing_timer_name). */
enum timing_timer {
	TIMER_NONE = 0, /* not timed */
	TIMER_CUPTI,    /* "cupti": the GPU's start and end timestamps of the work */
	TIMER_EVENTS,   /* "events": CUDA events around the launch */
	TIMER_HOST,     /* "host": the host's clock (host-only harness cases) */
};

struct timing_request {
	int min_samples;     /* at least this many samples (default 10) */
	int max_samples;     /* at most this many (default 1000) */
	double max_noise;    /* stop when spread is below this (default 0.005) */
	double max_time_s;   /* stop after this much measuring, once min_samples are in (default 1.0 s) */
	int hot;             /* 1: no L2 flush between samples */
	int energy;          /* 1: after the samples, a burst measures energy,
			      * power, clocks and throttle reasons (energy.h) */
	/* For testing a regression gate only: each timed launch runs this
	 * many times (0 or 1: once).  Never crosses the protocol; the worker
	 * sets it from CONFORM_TEST_SLOW (worker_main.c). */
	int slowdown;
	/* Diagnostics only, never crosses the protocol either: a file the
	 * worker appends each energy burst's readings to (worker_main.c sets
	 * it from CONFORM_ENERGY_TRACE; energy.h says the format); NULL: none. */
	const char *energy_trace;
};

struct timing_stats {
	int samples;         /* 0: not timed */
	double median_ms, mean_ms, stddev_ms, min_ms;
	double noise;        /* stddev / mean, a fraction (a second column: a few
			      * outliers move it far) */
	/* The robust figures (stats.c): a distribution-free 95 % confidence
	 * interval of the median from order statistics, and its relative
	 * half-width, (ci_high - ci_low) / (2 median), which --max-noise
	 * bounds.  With too few samples for an interval the whole range. */
	double ci_low_ms, ci_high_ms;
	double spread;
	int noise_met;       /* 1: sampling stopped because spread reached max_noise;
			      * 0: max_time_s or max_samples came first ("noise
			      * target not reached") */
	int throttled;       /* samples dropped because the SM clock had fallen below
			      * STATS_THROTTLE_FRACTION of the clock at the start */
	enum timing_timer timer; /* what timed the samples */
	double bytes;        /* bytes the kernel must move (the bandwidth basis) */
	int clock_start_mhz; /* SM clock before and after, 0 when NVML is absent */
	int clock_end_mhz;
	double result_spread; /* relative spread of the result over repeats; 0: bit-identical, -1: not measured */
	struct energy_stats energy; /* the burst after the samples; all 0 when not measured */
};

/*
 * The one rule for "the best of these results" (tune's best, conform best,
 * history, export, compare's best per problem, the interface's Best pane):
 * the lower upper end of the median's 95 % confidence interval wins, then
 * the lower median; a result without an interval (ci_high_ms 0 or less, or
 * stored before there were intervals) counts as its median alone.  Ranking
 * by the bound rather than the median keeps repeated tunes in agreement:
 * two medians within each other's noise swap places from run to run, the
 * bound of the tighter measurement much less, and a noisy result cannot
 * win on a median a hair lower.  It is tune's tie rule (tune_tie.h) said
 * for any two results: a result whose interval lies apart from the lowest
 * median's has a higher bound than that one.  The database's best_configs
 * view (db/schema.sql, migration 12) and the exported header's
 * conform_fastest_at order by the same key.
 *
 * Returns < 0 when a ranks before b, > 0 after, 0 when the rule cannot
 * tell them apart (callers keep the first met).
 */
int timing_rank_cmp(double median_a, double ci_high_a, double median_b, double ci_high_b);

/* The key timing_rank_cmp orders by first: the interval's upper end, or
 * the median without one. */
double timing_rank_bound(double median_ms, double ci_high_ms);

/* "cupti", "events", "host", or "-" for TIMER_NONE. */
const char *timing_timer_name(enum timing_timer t);
/* The timer named `word` (one of the names above); -1 when none is. */
int timing_timer_parse(const char *word, enum timing_timer *out);

#ifdef __cplusplus
}
#endif
#endif
