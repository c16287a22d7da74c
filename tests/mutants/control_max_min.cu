/*
 * Control: a correct grid-stride max and min, the skeleton of
 * control_grid_sum.cu with the identity of each operator (-inf for max,
 * +inf for min) wherever nothing has been read yet.
 *
 * Each thread takes the operator over a grid-stride slice with a 64-bit
 * index, the warp and the block combine their values, and the last block
 * to take a ticket combines the blocks' partials, writes out[0] and
 * zeroes the ticket and the partials.  Max and min are exact, so conform
 * compares them bit for bit.
 *
 * What conform reports: PASS for max and min at every size given.  A FAIL
 * here is a false failure of conform.
 *
 * @kind     reduce
 * @entry    control_max_min
 * @summary  control: grid-stride max and min, last block combines the partials (correct)
 * @dtypes   f32
 * @ops      max min
 * @tunable  block 64..1024 pow2 default=256 space=128,256,512 "threads per block"
 * @block    block
 * @grid     min(sms * occupancy, max(1, (n + block - 1) / block))
 * @scratch  8 + esize * sms * occupancy
 *
 * mutant-bug: none (control): a correct grid-stride max and min
 * mutant-wrong: False
 * mutant-args: --n 1,31,32,33,255,257,4097,65521,1000003,16777215,16777217
 */

#include "mutant_common.cuh"

/*
 * out[0] = the operator over in[0..n): grid_stride_combine(),
 * block_combine() and finish(), all from mutant_common.cuh.
 * Requires: blockDim.x == BLOCK; scratch zeroed, a 4-byte ticket, 4 bytes
 * of padding and gridDim.x partials.
 */
extern "C" __global__ void __launch_bounds__(BLOCK)
control_max_min(const T *in, T *out, long long n, void *scratch)
{
	finish(block_combine(grid_stride_combine(in, n)), out, scratch);
}
