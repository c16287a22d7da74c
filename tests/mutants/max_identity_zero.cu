/*
 * Mutant: a max whose accumulators start at 0 instead of -inf.
 *
 * The same slip as min_init_zero.cu for the other operator: the thread
 * accumulators start at `T(0)`, so the output is max(0, the true maximum),
 * wrong whenever every element is negative, and such an input exists at
 * every n >= 1.
 *
 * What conform should report: FAIL at every size for an all-negative
 * input.  Random inputs in [-1, 1) are all negative with odds of 2^-n, so
 * only n = 1 shows it, on about half the seeds; it takes a probe of
 * negative values to see it everywhere.
 *
 * @kind     reduce
 * @entry    max_identity_zero
 * @summary  mutant: max with accumulators starting at 0 instead of -inf
 * @dtypes   f32
 * @ops      max
 * @tunable  block 64..1024 pow2 default=256 "threads per block"
 * @block    block
 * @grid     min(sms * occupancy, max(1, (n + block - 1) / block))
 * @scratch  8 + esize * sms * occupancy
 *
 * mutant-bug: a max that uses 0 as its identity (wrong when every element is negative)
 * mutant-wrong: True
 * mutant-args: --n 1,31,32,33,255,257,4097,65521,1000003,16777215,16777217
 */

#include "mutant_common.cuh"

/* out[0] should be the maximum of in[0..n). */
extern "C" __global__ void __launch_bounds__(BLOCK)
max_identity_zero(const T *in, T *out, long long n, void *scratch)
{
	T acc = T(0); /* the bug: conform_identity<T>(), -inf for max */

	for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK)
		acc = conform_combine(acc, in[i]);
	finish(block_combine(acc), out, scratch);
}
