/*
 * gpu_info.h - what conform records about a GPU (one row of the devices
 * table).  Filled by the worker, which alone talks to CUDA.
 */
#ifndef CONFORM_GPU_INFO_H
#define CONFORM_GPU_INFO_H

#ifdef __cplusplus
extern "C" {
#endif

struct gpu_info {
	int index;                 /* CUDA device ordinal */
	char name[128];            /* e.g. "NVIDIA H100 80GB HBM3" */
	char uuid[48];             /* "GPU-xxxxxxxx-..." */
	int cc_major, cc_minor;    /* compute capability */
	int sm_count;              /* multiprocessors */
	long long memory_bytes;    /* global memory, bytes */
	int driver_version;        /* cudaDriverGetVersion, e.g. 13000 */
	int runtime_version;       /* cudaRuntimeGetVersion of the worker */
	int count;                 /* devices the worker sees (cudaGetDeviceCount);
				    * 0 when it did not say: what --devices all
				    * means */
};

#ifdef __cplusplus
}
#endif
#endif
