/*
 * Mutant: a sum that writes 0.
 *
 * The kernel does all the work of a block reduction and then stores the
 * wrong variable: `out[0] = T(0)` where it meant the block's total (a
 * stub left in place, or an accumulator shadowed by a fresh one).  The
 * output is 0 whatever the input, so it is wrong at every n >= 1: an input
 * whose sum is not 0 tells.
 *
 * What conform should report: FAIL at every size, the message showing
 * out[0] = 0 against the reference.  Random inputs in [-1, 1) show it up
 * to about 10^6 elements only: at 2^24 +- 1 the sum's tolerance (6
 * sqrt(n) u sum |x|, about 12000) is five times the spread of the sum
 * itself (about 2400), so 0 passes; a window of ones shows it.
 *
 * @kind     reduce
 * @entry    sum_writes_zero
 * @summary  mutant: stores 0 instead of the block's total
 * @dtypes   f32
 * @ops      sum
 * @tunable  block 64..1024 pow2 default=256 "threads per block"
 * @block    block
 * @grid     1
 *
 * mutant-bug: writes 0 instead of the sum
 * mutant-wrong: True
 * mutant-args: --n 1,31,32,33,255,257,4097,65521,1000003,16777215,16777217
 */

#include "mutant_common.cuh"

/* out[0] should be the sum of in[0..n); it is 0.  One block. */
extern "C" __global__ void __launch_bounds__(BLOCK)
sum_writes_zero(const T *in, T *out, long long n, void *scratch)
{
	T acc = conform_identity<T>();

	for (long long i = threadIdx.x; i < n; i += BLOCK)
		acc = conform_combine(acc, in[i]);
	acc = block_combine(acc);
	if (threadIdx.x == 0)
		out[0] = T(0); /* the bug: should be acc */
}
