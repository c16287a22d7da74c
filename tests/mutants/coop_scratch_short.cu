/*
 * Mutant: a cooperative reduction whose @scratch is one partial short.
 *
 * Every block reduces its grid-stride slice into partial[blockIdx.x] in
 * scratch, the grid waits at grid.sync(), and block 0 combines the
 * partials into out[0] and zeroes them, leaving the scratch as it found
 * it (examples/kernels/coop_sum.cu, plus the zeroing).  The grid is
 * sms x occupancy blocks, but @scratch declares room for one fewer:
 * esize * (sms * occupancy - 1) bytes.  The last block stores its partial
 * just past the end of the scratch buffer at every launch, whatever n
 * is; block 0 reads it back from there (and zeroes it there), so out[0]
 * is right and the declared scratch is left zeroed: the only fault is
 * the 4 bytes written outside it.
 *
 * What conform should report: FAIL at every size once scratch has a guard
 * zone behind it.  Without one the store lands in the allocation's slack
 * (no fault) and every case PASSes.
 *
 * @kind        reduce
 * @entry       coop_scratch_short
 * @summary     mutant: cooperative grid.sync() sum, @scratch one partial too small
 * @dtypes      f32
 * @ops         sum
 * @cooperative
 * @tunable     block 64..1024 pow2 default=256 "threads per block"
 * @block       block
 * @grid        sms * occupancy
 * @scratch     esize * (sms * occupancy - 1)
 *
 * mutant-bug: cooperative grid.sync() reduce writes one partial past its @scratch (declared one short)
 * mutant-wrong: True
 * mutant-args: --n 1,31,32,33,255,257,4097,65521,1000003,16777215,16777217
 */
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#include "mutant_common.cuh"

/* out[0] = the sum of in[0..n).  Requires: a cooperative launch; scratch
 * of gridDim.x partials (declared one short: the bug). */
extern "C" __global__ void __launch_bounds__(BLOCK)
coop_scratch_short(const T *in, T *out, long long n, void *scratch)
{
	cg::grid_group grid = cg::this_grid();
	T *partial = (T *)scratch;
	T acc = conform_identity<T>();

	for (long long i = (long long)grid.thread_rank(); i < n; i += (long long)grid.size())
		acc = conform_combine(acc, in[i]);
	acc = block_combine(acc);
	if (threadIdx.x == 0)
		partial[blockIdx.x] = acc; /* the last block writes past the scratch */
	grid.sync();
	if (blockIdx.x != 0)
		return;
	acc = conform_identity<T>();
	for (unsigned b = threadIdx.x; b < gridDim.x; b += BLOCK) {
		acc = conform_combine(acc, partial[b]);
		partial[b] = T(0);
	}
	acc = block_combine(acc);
	if (threadIdx.x == 0)
		out[0] = acc;
}
