/*
 * Mutant: a last-block reduction that leaves its ticket counter dirty.
 *
 * Blocks store their partials in scratch and take a ticket with
 * atomicAdd; the block that draws ticket gridDim.x - 1 combines the
 * partials and writes out[0] (control_grid_sum.cu).  It zeroes the
 * partials but not the ticket.  The first launch is right; it leaves the
 * counter at gridDim.x, so on the next launch on the same scratch the
 * tickets run from gridDim.x up, no block draws gridDim.x - 1, and out[0]
 * is never written.  conform zeroes scratch once and launches each reduce
 * case three times, and the contract (docs/kernels.md) is that a kernel
 * leaves its scratch zeroed: wrong at every n.
 *
 * What conform should report: FAIL at every size, from the second run
 * ("run 2 of 3": out[0] unwritten), and from the first with a check that
 * scratch is left zeroed.
 *
 * @kind     reduce
 * @entry    scratch_left_dirty
 * @summary  mutant: last-block finish that never resets its ticket counter
 * @dtypes   f32
 * @ops      sum
 * @tunable  block 64..1024 pow2 default=256 "threads per block"
 * @block    block
 * @grid     min(sms * occupancy, max(1, (n + block - 1) / block))
 * @scratch  8 + esize * sms * occupancy
 *
 * mutant-bug: leaves its @scratch dirty (the last-block ticket counter is never reset)
 * mutant-wrong: True
 * mutant-args: --n 1,31,32,33,255,257,4097,65521,1000003,16777215,16777217
 */

#include "mutant_common.cuh"

/* out[0] should be the sum of in[0..n), launch after launch. */
extern "C" __global__ void __launch_bounds__(BLOCK)
scratch_left_dirty(const T *in, T *out, long long n, void *scratch)
{
	unsigned *ticket = (unsigned *)scratch;
	T *partials = (T *)((char *)scratch + PARTIALS_OFFSET);
	__shared__ bool last;
	T acc = block_combine(grid_stride_combine(in, n));

	/* finish() of mutant_common.cuh, less its reset of the ticket. */
	if (threadIdx.x == 0) {
		partials[blockIdx.x] = acc;
		__threadfence();
		last = atomicAdd(ticket, 1u) == gridDim.x - 1;
	}
	__syncthreads();
	if (!last)
		return;
	__threadfence();
	acc = conform_identity<T>();
	for (unsigned b = threadIdx.x; b < gridDim.x; b += BLOCK) {
		acc = conform_combine(acc, __ldcg(partials + b));
		partials[b] = T(0);
	}
	acc = block_combine(acc);
	if (threadIdx.x == 0)
		out[0] = acc; /* the bug: *ticket = 0 is missing */
}
