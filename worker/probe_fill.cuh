/*
 * probe_fill.cuh - writing an exact probe (probe.h) into a device input.
 *
 * The device computes every element from probe_value(), the formula the
 * host's expectations come from, so a probe costs one pass over the input
 * on the GPU and no copy from the host, at any size.
 */
#ifndef CONFORM_PROBE_FILL_CUH
#define CONFORM_PROBE_FILL_CUH

#include <stdint.h>

#include <cuda_runtime.h>

#include "common/dtype.h"
#include "worker/probe.h"

/* Elements [0, n) of the dtype-d device buffer `in` under probe p. */
cudaError_t probe_fill(const struct probe *p, enum dtype d, void *in, int64_t n);

#endif
