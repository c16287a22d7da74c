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

#include "mutant_common.cuh"

/* out[0] should be the sum of in[0..n); it is out[0] + the sum. */
extern "C" __global__ void __launch_bounds__(BLOCK)
atomic_uninit_out(const T *in, T *out, long long n, void *scratch)
{
	const T acc = block_combine(grid_stride_combine(in, n));

	if (threadIdx.x == 0)
		atomicAdd(out, acc); /* the bug: out[0] was never set to 0 */
}
