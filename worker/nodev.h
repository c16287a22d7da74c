/*
 * nodev.h - saying why the worker has no GPU to use, truthfully.
 *
 * The CUDA runtime answers "CUDA driver version is insufficient for CUDA
 * runtime version" both when the driver is too old and when there is no
 * driver at all, which sends people upgrading a driver they do not have.
 * The worker collects what it can learn cheaply (the error, the driver's
 * version, which the runtime reports as 0 when libcuda cannot be loaded,
 * the runtime's version, the device count) and this plain C function
 * turns it into one line, so the wording is tested without a GPU.
 */
#ifndef CONFORM_NODEV_H
#define CONFORM_NODEV_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The cudaError_t values the wording depends on (gpu.cu checks them
 * against cuda_runtime.h). */
enum {
	NODEV_CUDA_SUCCESS = 0,
	NODEV_CUDA_INSUFFICIENT_DRIVER = 35,
	NODEV_CUDA_NO_DEVICE = 100,
	NODEV_CUDA_SYSTEM_DRIVER_MISMATCH = 803,
};

struct nodev_facts {
	int error;              /* cudaGetDeviceCount's cudaError_t */
	const char *error_text; /* cudaGetErrorString(error) */
	int count;              /* devices found (when error is 0) */
	int device;             /* the ordinal asked for */
	int driver_version;     /* cudaDriverGetVersion: 0 when no driver loads */
	int runtime_version;    /* cudaRuntimeGetVersion, e.g. 13000 */
};

/* Says why device f->device cannot be used, in one line:
 *   no CUDA driver found (libcuda.so.1 cannot be loaded)
 *   CUDA driver too old: it supports CUDA 12.2, this worker needs 13.0
 *   no CUDA device found (CUDA driver 13.0)
 *   no CUDA device 3: 2 present
 * and otherwise the runtime's own words. */
void nodev_describe(const struct nodev_facts *f, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
