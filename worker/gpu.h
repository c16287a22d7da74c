/*
 * gpu.h - what the worker learns about its GPU (plain C; the CUDA types
 * stay in gpu.cu).
 */
#ifndef CONFORM_GPU_H
#define CONFORM_GPU_H

#include <stddef.h>

#include "common/gpu_info.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Selects CUDA device `device`, fills g and creates the context, so that the
 * first case does not pay for it (or fail on it).  Returns 0, or -1 with a
 * message in err (nodev_describe's when there is no device to use).
 */
int gpu_describe(int device, struct gpu_info *g, char *err, size_t len);

/* Device buffers of exactly their size from now on, without guard zones
 * (audit.cuh): for a worker under compute-sanitizer's memcheck. */
void gpu_exact_buffers(void);

#ifdef __cplusplus
}
#endif
#endif
