/*
 * What a kernel uses under nvcc with no #include at all, which nvcc's
 * implicit <cuda_runtime.h> brings from the host's library: the <cmath>
 * names, <climits>' and the global <stdint.h> types.
 * tests/test_nvrtc_headers.c compiles it through conform's build and with
 * nvcc.  It is never launched.
 *
 * @kind    reduce
 * @entry   headers_implicit
 * @dtypes  f32
 * @block   32
 * @grid    1
 */
__device__ const float float_macros[] = {INFINITY, -INFINITY, NAN, HUGE_VALF};
__device__ const long long int_macros[] = {INT_MAX, INT_MIN, UINT_MAX, LLONG_MAX, CHAR_BIT};

extern "C" __global__ void headers_implicit(const T *in, T *out, long long n, void *scratch)
{
	const int32_t i = (int32_t)(threadIdx.x % 4);
	const float x = n > 0 ? (float)in[0] : -INFINITY;
	const std::size_t s = sizeof(int64_t);

	if (threadIdx.x == 0)
		out[0] = std::exp(x) + std::max(x, 1.0f) + std::numeric_limits<float>::max() +
			 (std::isinf(x) ? float_macros[i] : 0.0f) + (float)int_macros[i] + (float)s +
			 (float)HUGE_VAL + (std::fpclassify(x) == FP_NAN ? 1.0f : 0.0f);
	(void)scratch;
}
