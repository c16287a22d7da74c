/*
 * measure.cuh - how every timed variant times its kernel, in the manner of
 * nvbench (blocking kernel, adaptive sampling, L2 flushed before each cold
 * sample), each sample the GPU's own time for the launch's work from
 * CUPTI's records, or the interval between CUDA events where CUPTI is
 * absent.
 *
 * The launcher enqueues its work (one or more kernels, a copy) on the
 * legacy default stream (stream 0), where the events are recorded, and
 * returns the launch status; it must leave the buffers in a state from
 * which it can run again (self-resetting counters and accumulators), since
 * it runs many times on the same input.
 */
#ifndef CONFORM_MEASURE_CUH
#define CONFORM_MEASURE_CUH

#include <cuda_runtime.h>

#include "common/timing.h"
#include "worker/variant.h"

typedef cudaError_t (*measure_launch_fn)(void *ctx);

/*
 * Times launch(ctx) as t asks.  Warm-up: at least 3 launches and 20 ms.
 * Then samples until stats_should_stop(): a cold sample (t->hot == 0)
 * reads a buffer of twice the L2 size and then times one launch; a hot
 * sample times a batch of back-to-back launches and counts the time per
 * launch.  Fills out's sample statistics (stats_summarize), out->timer,
 * out->bytes = bytes and
 * the SM clock before and after sampling (NVML, loaded at run time; 0 when
 * it is absent); leaves out->result_spread alone.  Returns 0, or -1 with r
 * filled through the cuda_check.cuh helpers.
 */
int measure_kernel(const struct timing_request *t, measure_launch_fn launch, void *ctx,
		   double bytes, struct timing_stats *out, struct case_result *r);

#endif
