/*
 * Mutant: a warp reduction that starts its butterfly at offset 8.
 *
 * The shuffle loop is `for (off = 8; off > 0; off /= 2)`, written for a
 * 16-lane tile and reused for a whole warp: lanes 0 .. 15 and 16 .. 31 are
 * reduced as two separate halves, and lane 0, which stores the warp's
 * value, has only lanes 0 .. 15.  The block is one block of 256 threads,
 * thread t summing in[t], in[t + 256], ...; the partials of lanes 16 .. 31
 * of every warp are lost.  Thread 16 holds in[16] from n = 17 on, so an
 * input with in[16] != 0 tells there; below 17 the upper lanes hold
 * nothing.  (The second stage, over 8 warp values in lanes 0 .. 7, is
 * unharmed.)
 *
 * What conform should report: PASS at n = 1 .. 16, FAIL from 17 on.
 * Half the elements are missing, which random inputs show at small n but
 * which can hide in the sum's tolerance at 2^24 +- 1.
 *
 * @kind     reduce
 * @entry    warp_shuffle_offset8
 * @summary  mutant: warp butterfly from offset 8 (lanes 16..31 never reach lane 0)
 * @dtypes   f32
 * @ops      sum
 * @tunable  block 64..1024 pow2 default=256 "threads per block"
 * @block    block
 * @grid     1
 *
 * mutant-bug: warp shuffle reduction starts at offset 8, dropping lanes 16..31
 * mutant-wrong: n >= 17
 * mutant-args: --n 1,16,17,31,32,33,255,257,4097,65521,1000003,16777215,16777217
 */

#define FULL_MASK 0xffffffffu

/* Lane 0 ends with lanes 0 .. 15 only: the bug (the loop should start at 16). */
static __device__ __forceinline__ T warp_combine(T v)
{
#pragma unroll
	for (int off = 8; off > 0; off /= 2)
		v = conform_combine(v, __shfl_xor_sync(FULL_MASK, v, off));
	return v;
}

/* out[0] should be the sum of in[0..n).  One block. */
extern "C" __global__ void __launch_bounds__(BLOCK)
warp_shuffle_offset8(const T *in, T *out, long long n, void *scratch)
{
	__shared__ T warp_value[32];
	const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	T acc = conform_identity<T>();

	for (long long i = threadIdx.x; i < n; i += BLOCK)
		acc = conform_combine(acc, in[i]);
	acc = warp_combine(acc);
	if (lane == 0)
		warp_value[warp] = acc;
	__syncthreads();
	if (warp == 0) {
		/* At most 32 warp values, in lanes 0 .. BLOCK / 32 - 1: with the
		 * default 256 threads all below 16, so this stage loses nothing. */
		acc = lane < BLOCK / 32 ? warp_value[lane] : conform_identity<T>();
		acc = warp_combine(acc);
		if (lane == 0)
			out[0] = acc;
	}
}
