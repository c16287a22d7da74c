/*
 * gpu.cu - device selection and description for the worker.
 */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime.h>

#include "worker/audit.cuh"
#include "worker/gpu.h"
#include "worker/nodev.h"

static_assert(NODEV_CUDA_SUCCESS == (int)cudaSuccess &&
		      NODEV_CUDA_INSUFFICIENT_DRIVER == (int)cudaErrorInsufficientDriver &&
		      NODEV_CUDA_NO_DEVICE == (int)cudaErrorNoDevice &&
		      NODEV_CUDA_SYSTEM_DRIVER_MISMATCH == (int)cudaErrorSystemDriverMismatch,
	      "nodev.h's copies of the cudaError_t values");

/* "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as nvidia-smi prints it. */
static void format_uuid(const cudaUUID_t *id, char *buf, size_t len)
{
	const unsigned char *b = (const unsigned char *)id->bytes;

	snprintf(buf, len,
		 "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
		 b[13], b[14], b[15]);
}

extern "C" int gpu_describe(int device, struct gpu_info *g, char *err, size_t len)
{
	cudaDeviceProp p;
	int count = 0;
	cudaError_t e = cudaGetDeviceCount(&count);

	if (e != cudaSuccess || count <= 0 || device < 0 || device >= count) {
		struct nodev_facts f;
		memset(&f, 0, sizeof f);
		f.error = (int)e;
		f.error_text = cudaGetErrorString(e);
		f.count = e == cudaSuccess ? count : 0;
		f.device = device;
		/* Both answer even without a driver (its version is then 0). */
		cudaDriverGetVersion(&f.driver_version);
		cudaRuntimeGetVersion(&f.runtime_version);
		nodev_describe(&f, err, len);
		return -1;
	}
	if ((e = cudaSetDevice(device)) != cudaSuccess ||
	    (e = cudaGetDeviceProperties(&p, device)) != cudaSuccess) {
		snprintf(err, len, "CUDA device %d: %s", device, cudaGetErrorString(e));
		return -1;
	}

	memset(g, 0, sizeof *g);
	g->index = device;
	snprintf(g->name, sizeof g->name, "%.*s", (int)sizeof g->name - 1, p.name);
	format_uuid(&p.uuid, g->uuid, sizeof g->uuid);
	g->cc_major = p.major;
	g->cc_minor = p.minor;
	g->sm_count = p.multiProcessorCount;
	g->memory_bytes = (long long)p.totalGlobalMem;
	g->count = count;
	if ((e = cudaDriverGetVersion(&g->driver_version)) != cudaSuccess ||
	    (e = cudaRuntimeGetVersion(&g->runtime_version)) != cudaSuccess) {
		snprintf(err, len, "CUDA versions: %s", cudaGetErrorString(e));
		return -1;
	}
	/* Creates the primary context now. */
	if ((e = cudaFree(0)) != cudaSuccess) {
		snprintf(err, len, "CUDA context on device %d: %s", device, cudaGetErrorString(e));
		return -1;
	}
	return 0;
}

void gpu_exact_buffers(void)
{
	audit_exact_buffers();
}
