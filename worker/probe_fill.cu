/*
 * probe_fill.cu - the device side of the exact probes (probe_fill.cuh).
 */
#include "worker/probe_fill.cuh"

#include <cuda_bf16.h>

#define FILL_THREADS 256
#define FILL_BLOCKS 4096

template <class T>
static __device__ __forceinline__ T fill_convert(double v)
{
	return (T)v;
}
template <>
__device__ __forceinline__ __nv_bfloat16 fill_convert<__nv_bfloat16>(double v)
{
	return __float2bfloat16_rn((float)v); /* probe values are small integers: exact */
}

template <class T>
__global__ void probe_fill_kernel(struct probe p, T *in, int64_t n)
{
	const int64_t stride = (int64_t)gridDim.x * blockDim.x;

	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		in[i] = fill_convert<T>(probe_value(&p, i));
}

cudaError_t probe_fill(const struct probe *p, enum dtype d, void *in, int64_t n)
{
	int64_t want = (n + FILL_THREADS - 1) / FILL_THREADS;
	const unsigned blocks = (unsigned)(want < FILL_BLOCKS ? (want < 1 ? 1 : want) : FILL_BLOCKS);

	switch (d) {
	case DTYPE_F32: probe_fill_kernel<<<blocks, FILL_THREADS>>>(*p, (float *)in, n); break;
	case DTYPE_F64: probe_fill_kernel<<<blocks, FILL_THREADS>>>(*p, (double *)in, n); break;
	case DTYPE_I32: probe_fill_kernel<<<blocks, FILL_THREADS>>>(*p, (int32_t *)in, n); break;
	case DTYPE_U32: probe_fill_kernel<<<blocks, FILL_THREADS>>>(*p, (uint32_t *)in, n); break;
	case DTYPE_BF16: probe_fill_kernel<<<blocks, FILL_THREADS>>>(*p, (__nv_bfloat16 *)in, n); break;
	default: return cudaErrorInvalidValue;
	}
	return cudaGetLastError();
}
