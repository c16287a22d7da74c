/*
 * Mutant: a write one element before out (out[-1]).
 *
 * Before reducing, thread 0 clears the output with a loop that starts one
 * element early, `for (i = -1; i < 1; i++) out[i] = 0` (an off-by-one from
 * code that once kept a header word in front of its results).  out[0] is
 * overwritten with the right total afterwards, so the result is right;
 * out[-1], the 4 bytes in front of the output buffer, is clobbered at
 * every n.
 *
 * What conform should report: FAIL at every size once the output has a
 * guard zone in front of it.  Without one the store lands in whatever
 * precedes the allocation: usually the slack of another allocation (no
 * fault, a PASS); should that be unmapped, an illegal-address ERROR, which
 * scripts/mutants lists as broken rather than killed.
 *
 * @kind     reduce
 * @entry    writes_before_out
 * @summary  mutant: clears out[-1 .. 0] before writing out[0]
 * @dtypes   f32
 * @ops      sum
 * @tunable  block 64..1024 pow2 default=256 "threads per block"
 * @block    block
 * @grid     1
 *
 * mutant-bug: writes out[-1], one element before the output
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

/* out[0] = the sum of in[0..n), and out[-1] written too.  One block. */
extern "C" __global__ void __launch_bounds__(BLOCK)
writes_before_out(const T *in, T *out, long long n, void *scratch)
{
	T acc = conform_identity<T>();

	if (threadIdx.x == 0)
		for (int i = -1; i < 1; i++) /* the bug: should start at 0 */
			out[i] = T(0);
	for (long long i = threadIdx.x; i < n; i += BLOCK)
		acc = conform_combine(acc, in[i]);
	acc = block_combine(acc);
	if (threadIdx.x == 0)
		out[0] = acc;
}
