/*
 * Mutant: a max that never reads the last element.
 *
 * The grid-stride loop runs to `n - 1`, a bound copied from a loop that
 * compared neighbours.  in[n - 1] is never read, so the kernel is wrong at
 * every n: at n = 1 it reads nothing and writes -inf; from n = 2 on, an
 * input whose only maximum is the last element tells.
 *
 * What conform should report: FAIL at n = 1 always.  Elsewhere random
 * inputs make the last element the maximum with odds of only 1 / n: it
 * takes a probe with a single extreme at the last position to see it at
 * every size, 2^31 + 3 included (an index past 2^31).
 *
 * @kind     reduce
 * @entry    max_skips_last
 * @summary  mutant: grid-stride max whose loop stops at n - 1
 * @dtypes   f32
 * @ops      max
 * @tunable  block 64..1024 pow2 default=256 "threads per block"
 * @block    block
 * @grid     min(sms * occupancy, max(1, (n + block - 1) / block))
 * @scratch  8 + esize * sms * occupancy
 *
 * mutant-bug: a max that never reads the last element (loop bound n - 1)
 * mutant-wrong: True
 */

#include "mutant_common.cuh"

/* out[0] should be the maximum of in[0..n). */
extern "C" __global__ void __launch_bounds__(BLOCK)
max_skips_last(const T *in, T *out, long long n, void *scratch)
{
	T acc = conform_identity<T>();

	/* The bug: the bound should be n. */
	for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n - 1; i += (long long)gridDim.x * BLOCK)
		acc = conform_combine(acc, in[i]);
	finish(block_combine(acc), out, scratch);
}
