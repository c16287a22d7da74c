/*
 * activity.cuh - the GPU's own start and end timestamps of the work a cold
 * sample launches, read through CUPTI's activity API.
 *
 * CUDA events time the interval between two points of a stream, which
 * holds, besides the kernel, the front end's launch of its grid and the
 * drain after it, a sizeable part of a kernel of a few microseconds
 * (docs/PERFORMANCE.md has the figures).  CUPTI's
 * kernel, memset and copy records carry the timestamps Nsight Systems and
 * Nsight Compute read, so a sample timed from them is the time the GPU
 * spent on the work itself.
 *
 * libcupti is opened at run time (dlopen), so the worker neither links nor
 * needs it: from $CONFORM_CUPTI when set, else the toolkit's copy found at
 * configure time, else libcupti.so.<CUDA major> on the loader's path.
 * Where it is absent, or refuses (another profiler such as Nsight Compute
 * holds the GPU's counters), measurement falls back to events and says so.
 *
 * CUPTI delivers records through callbacks that carry no context pointer,
 * so what they collect lives in this file's one static collector; the
 * worker measures one case at a time on one thread.
 */
#ifndef CONFORM_ACTIVITY_CUH
#define CONFORM_ACTIVITY_CUH

#include <stdint.h>

/* Loads CUPTI and enables kernel, memset and copy records.  Returns 0, or
 * -1 with `why` (at most `len` bytes) saying why timing stays on events. */
int activity_start(char *why, size_t len);

/* Disables the records again (the hot samples and the checks run without
 * them). */
void activity_stop(void);

/* Delivers and forgets every record so far (call with the GPU idle). */
void activity_discard(void);

/* The stream id CUPTI gives to the records of the work enqueued since the
 * last call, when all of it went to one stream; -1 otherwise.  Used once
 * to learn the id of the measurement's own stream. */
int64_t activity_sole_stream(void);

/* CUPTI's clock now, in the records' time base (ns); 0 without CUPTI. */
uint64_t activity_now(void);

/* With the GPU idle: the time covered by the records since the last call
 * that are not on stream `exclude` (the union of their [start, end]
 * intervals, so overlapping work counts once and gaps between kernels not
 * at all), in ms, and how many records that was.  `expect` is how many
 * such records the work should leave (0: unknown): fewer makes CUPTI hand
 * over every buffer, complete or not.  Returns -1 when the time cannot be
 * trusted: records were lost (CUPTI dropped some, or the collector
 * overflowed), one started before `since` (activity_now() when the work
 * was enqueued: it belongs to earlier work), or fewer than `expect` came
 * even so; else 0. */
int activity_busy(int64_t exclude, uint64_t since, int expect, double *ms, int *records);

#endif
