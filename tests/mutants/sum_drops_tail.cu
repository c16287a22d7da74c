/*
 * Mutant: a sum that ignores the last n / 64 elements.
 *
 * The loop bound was meant to round n to whole 64-element tiles for a
 * vectorised main loop whose leftovers a second loop takes; the second loop
 * was dropped and the bound became `n - n / 64`, so the last n / 64
 * elements are never read.  Below n = 64 that is nothing and the kernel is
 * right; from 64 on, an input whose last element is not 0 tells.
 *
 * What conform should report: PASS at 1, 31, 32, 33 and 63; FAIL from 64
 * on.  With random inputs in [-1, 1) the missing n / 64 terms may hide in
 * the sum's tolerance at 2^24 +- 1 (about 12000 there): it takes a
 * window of ones, or one large entry at the end, to see it.
 *
 * @kind     reduce
 * @entry    sum_drops_tail
 * @summary  mutant: the loop stops n / 64 elements early
 * @dtypes   f32
 * @ops      sum
 * @tunable  block 64..1024 pow2 default=256 "threads per block"
 * @block    block
 * @grid     1
 *
 * mutant-bug: ignores the last n/64 elements (loop bound n - n/64)
 * mutant-wrong: n >= 64
 * mutant-args: --n 1,31,32,33,63,64,255,257,4097,65521,1000003,16777215,16777217
 */

#include "mutant_common.cuh"

/* out[0] should be the sum of in[0..n).  One block. */
extern "C" __global__ void __launch_bounds__(BLOCK)
sum_drops_tail(const T *in, T *out, long long n, void *scratch)
{
	const long long end = n - n / 64; /* the bug: should be n */
	T acc = conform_identity<T>();

	for (long long i = threadIdx.x; i < end; i += BLOCK)
		acc = conform_combine(acc, in[i]);
	acc = block_combine(acc);
	if (threadIdx.x == 0)
		out[0] = acc;
}
