/*
 * energy.h - what a timed configuration spent: energy per launch, power,
 * clocks and throttle reasons, and the arithmetic that makes them out of
 * NVML's readings.
 *
 * Plain C, shared by conform and the worker.  After a configuration's
 * timed samples the worker runs a burst of back-to-back launches and reads,
 * as fast as NVML answers, the device's total-energy counter (mJ), its
 * power reading (mW), the SM and memory clocks and the clock event
 * ("throttle") reasons (worker/measure.cu).  The counter moves in steps (a
 * tick every counter period: about 100 ms on an H200, docs/PERFORMANCE.md),
 * so the energy of the burst is taken between two ticks that both lie
 * inside it, each placed midway between the reading that last showed the
 * old value and the one that showed the new: the average power over that
 * window times the GPU time of a launch in the burst is the energy of a
 * launch.  The power readings over the same window are the cross-check.
 *
 * Missing is never 0: every figure that could not be measured (no NVML,
 * no counter, a burst that held no whole counter period) is 0 in the
 * struct, which every reader takes as "not measured" (a launch never
 * spends 0 J), NULL in the database and null in JSON.
 */
#ifndef CONFORM_ENERGY_H
#define CONFORM_ENERGY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct energy_stats {
	double joules;        /* per launch, from the counter; 0: not measured */
	double watts;         /* the counter's average power over the window; 0: not measured */
	double watts_sampled; /* the power readings over the same window; 0: none */
	double uncertainty;   /* relative half-width of joules (the window's ends, the counter's unit) */
	double window_s;      /* the counter window the energy was taken over */
	double burst_s;       /* GPU time of the burst (back-to-back launches) */
	long launches;        /* launches in the burst */
	int sm_mhz, mem_mhz;  /* median over the burst's readings; 0: unknown */
	int reasons_known;    /* 1: reasons holds what NVML said */
	unsigned long long reasons; /* clock event reasons seen in the burst (NVML's bits) */
	double busy;          /* the part of the burst its launches ran, by the samples'
			       * median (energy_burst.launch_s); 0: unknown.  Not stored:
			       * it is in uncertainty, and the result's message says it */
};

/* One reading during a burst.  A figure not read is negative (counter,
 * power; NAN reads the same) or 0 (clocks); reasons_read says whether
 * reasons was. */
struct energy_poll {
	double t_s;           /* when it was read (the middle of the counter's call) */
	double counter_mj;    /* the total-energy counter; < 0: not read */
	double power_w;       /* the power reading; < 0: not read */
	int sm_mhz, mem_mhz;
	int reasons_read;
	unsigned long long reasons;
};

/* A burst as the worker saw it: its readings in time order, the host's
 * times of its start (the first launch enqueued on an idle stream) and of
 * the last moment it was known to be running, the GPU's time and launch
 * count of the burst, and the time one launch takes (the samples' median;
 * 0: unknown). */
struct energy_burst {
	const struct energy_poll *polls;
	size_t n;
	double start_s, end_s;
	double gpu_s;
	long launches;
	double launch_s;
};

/* The worker keeps launching until the counter has ticked ENERGY_TICKS
 * times inside the burst (the first tick is skipped: ENERGY_PERIODS whole
 * periods lie between the second and the last), or ENERGY_BURST_MAX_S
 * have passed.  energy_estimate takes any window of one period or more. */
#define ENERGY_PERIODS 3
#define ENERGY_TICKS (ENERGY_PERIODS + 2)
#define ENERGY_BURST_MAX_S 3.0
/* The power readings change about as often as the counter ticks, so over
 * a window of a few periods they agree with its average only roughly: a
 * result is noted when the two differ by more than this fraction. */
#define ENERGY_CROSS_CHECK 0.2

/* How far apart, relatively, two measurements of one configuration's
 * energy may lie beyond their own uncertainties (the counter's window and
 * unit) and still be the same: what the GPU's state adds between bursts
 * (temperature, clocks).  conform compare calls a change of energy more or
 * less only beyond u_base + u_new + ENERGY_REPEAT.  docs/PERFORMANCE.md
 * holds the measurement behind it. */
#define ENERGY_REPEAT 0.02

/* Below this part of the burst in launches (busy) the burst is bound by
 * how fast the host issues launches, not by the GPU: the GPU idled more
 * than it worked, and a launch's energy holds that idle time, which
 * depends on the host's pace from one run to the next.  Above it the gaps
 * between launches are the GPU's own and repeat (docs/PERFORMANCE.md has
 * the measurements behind the line). */
#define ENERGY_BUSY 0.5

/* Fills out from b: the clocks (median), the reasons (their union) and,
 * when three counter ticks lie inside the burst, the energy figures.
 * Below ENERGY_BUSY the uncertainty also holds the idle part, 1 - busy.
 * Returns 1 when energy was measured, 0 when the counter gave no window
 * (out's energy fields 0, the rest filled): too few ticks, or a counter
 * that went back inside the window (reset). */
int energy_estimate(const struct energy_burst *b, struct energy_stats *out);

/* Counter ticks seen since start_s: what the worker watches to know when
 * the burst is long enough (ENERGY_TICKS). */
int energy_ticks_inside(const struct energy_poll *polls, size_t n, double start_s);

/*
 * The trace of bursts (CONFORM_ENERGY_TRACE=FILE makes the worker append
 * one per measurement): text, a burst per block,
 *   burst START_S END_S GPU_S LAUNCHES LAUNCH_S
 *   poll T_S COUNTER_MJ POWER_W SM_MHZ MEM_MHZ REASONS|-     (one per reading)
 *   end
 * with figures not read written as energy_poll holds them (-1, 0); a
 * burst line without LAUNCH_S (recorded before there was one) reads as 0.
 * The raw data behind a figure, and what the tests replay.
 */
#include <stdio.h>
void energy_trace_write(FILE *f, const struct energy_burst *b);
/* Reads the next burst: 1 with *b (b->polls points into *polls, which is
 * grown with realloc as needed; the caller frees it), 0 at the end of the
 * file, -1 on a malformed block. */
int energy_trace_read(FILE *f, struct energy_poll **polls, size_t *cap, struct energy_burst *b);

/* 1 when e holds an energy figure. */
int energy_measured(const struct energy_stats *e);

/* Clears (to 0, "not measured") every figure of e that no measurement
 * gives: energy per launch outside a microjoule (a microsecond at a watt)
 * to a megajoule, power outside a watt to a megawatt, an uncertainty
 * above 100 (10000 %), a clock above 100 GHz; without the energy per
 * launch, its uncertainty and window go too.  What reads a stored or
 * received figure calls it (db_energy_read, proto_parse_done), so that a
 * damaged database or a broken worker's line reads as not measured and no
 * output shows such a figure as 0, inf or a number of 300 digits. */
void energy_clear_implausible(struct energy_stats *e);

/* The reasons as words joined by commas ("sw_power_cap,hw_slowdown"),
 * "none" when no bit is set; a bit without a name is written in hex.
 * Returns buf.  Only meaningful when reasons_known. */
char *energy_reasons_text(unsigned long long reasons, char *buf, size_t len);
/* The inverse, for what a database holds: 0 with *out, -1 on a word not
 * known. */
int energy_reasons_parse(const char *text, unsigned long long *out);

#ifdef __cplusplus
}
#endif
#endif
