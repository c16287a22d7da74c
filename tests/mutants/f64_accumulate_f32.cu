/*
 * Mutant: an f64 sum accumulated in float.
 *
 * Each element is converted to float as it is read, the thread, warp and
 * block sums are float, and the result is widened back to double.  Even a
 * single element loses its low 29 significand bits: out[0] = (double)
 * (float)in[0] differs from in[0] by up to 2^-24 of it, while an f64 sum
 * must be within about 2^-53 x 6 sqrt(n) of its terms' magnitude.  Wrong
 * at every n >= 1: any element that float cannot hold tells (conform's f64
 * inputs are multiples of 2^-52, almost none of which float can hold).
 *
 * What conform should report: FAIL at every size.
 *
 * @kind     reduce
 * @entry    f64_accumulate_f32
 * @summary  mutant: f64 sum converted to and accumulated in float
 * @dtypes   f64
 * @ops      sum
 * @tunable  block 64..1024 pow2 default=256 "threads per block"
 * @block    block
 * @grid     1
 *
 * mutant-bug: an f64 sum accumulated in float (each term rounded to 24 bits)
 * mutant-wrong: True
 * mutant-args: --n 1,31,32,33,255,257,4097,65521,1000003,16777215,16777217
 */

#define FULL_MASK 0xffffffffu

/* Every lane ends with the warp's sum. */
static __device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
	for (int off = 16; off > 0; off /= 2)
		v += __shfl_xor_sync(FULL_MASK, v, off);
	return v;
}

/* out[0] should be the sum of in[0..n) to f64's accuracy.  One block. */
extern "C" __global__ void __launch_bounds__(BLOCK)
f64_accumulate_f32(const T *in, T *out, long long n, void *scratch)
{
	__shared__ float warp_value[32];
	const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	float acc = 0.0f; /* the bug: T (double) */

	for (long long i = threadIdx.x; i < n; i += BLOCK)
		acc += (float)in[i];
	acc = warp_sum(acc);
	if (lane == 0)
		warp_value[warp] = acc;
	__syncthreads();
	if (warp == 0) {
		acc = warp_sum(lane < BLOCK / 32 ? warp_value[lane] : 0.0f);
		if (lane == 0)
			out[0] = (T)acc;
	}
}
