/*
 * Mutant: atomicAdd into an output that nobody initialised.
 *
 * Each block reduces its grid-stride slice and thread 0 adds the block's
 * total to out[0] with atomicAdd.  Nothing sets out[0] to 0 first (the
 * host-side cudaMemset that the code relied on is not part of the
 * kernel's contract: conform poisons the output before each launch), so
 * the result is whatever out[0] held plus the sum, wrong at every n.
 *
 * What conform should report: FAIL at every size (the poison is a NaN,
 * so the output is NaN).
 *
 * @kind     reduce
 * @entry    atomic_uninit_out
 * @summary  mutant: blocks atomicAdd into out[0], which is never zeroed
 * @dtypes   f32
 * @ops      sum
 * @tunable  block 64..1024 pow2 default=256 "threads per block"
 * @block    block
 * @grid     min(sms * occupancy, max(1, (n + block - 1) / block))
 *
 * mutant-bug: accumulates with atomicAdd into out[0] without initialising it
 * mutant-wrong: True
 * mutant-args: --n 1,31,32,33,255,257,4097,65521,1000003,16777215,16777217
 */

#define FULL_MASK 0xffffffffu

/* Every lane ends with the warp's value. */
static __device__ __forceinline__ T warp_combine(T v)
{
#pragma unroll
	for (int off = 16; off > 0; off /= 2)
		v = conform_combine(v, __shfl_xor_sync(FULL_MASK, v, off));
	return v;
}

/* Thread 0 returns the block's value.  Requires: blockDim.x == BLOCK, a
 * multiple of 32; every thread calls it.  The leading barrier lets a
 * block call it twice. */
static __device__ T block_combine(T v)
{
	__shared__ T warp_value[32];
	const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;

	v = warp_combine(v);
	__syncthreads();
	if (lane == 0)
		warp_value[warp] = v;
	__syncthreads();
	if (warp == 0) {
		v = lane < BLOCK / 32 ? warp_value[lane] : conform_identity<T>();
		v = warp_combine(v);
	}
	return v;
}

/* out[0] should be the sum of in[0..n); it is out[0] + the sum. */
extern "C" __global__ void __launch_bounds__(BLOCK)
atomic_uninit_out(const T *in, T *out, long long n, void *scratch)
{
	T acc = conform_identity<T>();

	for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK)
		acc = conform_combine(acc, in[i]);
	acc = block_combine(acc);
	if (threadIdx.x == 0)
		atomicAdd(out, acc); /* the bug: out[0] was never set to 0 */
}
