/*
 * Mutant: a min whose accumulators start at 0 instead of +inf.
 *
 * The thread accumulators are initialised with `T(0)`, the identity of a
 * sum, where a min needs +inf (conform_identity<T>()).  The output is
 * min(0, the true minimum): right whenever the array holds a value <= 0,
 * wrong whenever every element is positive, and such an input exists at
 * every n >= 1.
 *
 * What conform should report: FAIL at every size for an all-positive
 * input.  Random inputs in [-1, 1) are all positive with odds of 2^-n: at
 * n = 1 half the seeds show it, above that practically none; a probe of
 * positive values (ones with a single extreme) shows it everywhere.
 *
 * @kind     reduce
 * @entry    min_init_zero
 * @summary  mutant: min with accumulators starting at 0 instead of +inf
 * @dtypes   f32
 * @ops      min
 * @tunable  block 64..1024 pow2 default=256 "threads per block"
 * @block    block
 * @grid     min(sms * occupancy, max(1, (n + block - 1) / block))
 * @scratch  8 + esize * sms * occupancy
 *
 * mutant-bug: a min initialised with 0 instead of +inf (wrong when every element is positive)
 * mutant-wrong: True
 * mutant-args: --n 1,31,32,33,255,257,4097,65521,1000003,16777215,16777217
 */

#include "mutant_common.cuh"

/* out[0] should be the minimum of in[0..n). */
extern "C" __global__ void __launch_bounds__(BLOCK)
min_init_zero(const T *in, T *out, long long n, void *scratch)
{
	T acc = T(0); /* the bug: conform_identity<T>(), +inf for min */

	for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK)
		acc = conform_combine(acc, in[i]);
	finish(block_combine(acc), out, scratch);
}
