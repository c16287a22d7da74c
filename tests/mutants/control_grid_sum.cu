/*
 * Control: a correct grid-stride sum, the pattern most of the mutants
 * beside it break in one place.
 *
 * Each thread sums a grid-stride slice of the array with a 64-bit index,
 * a warp combines its lanes with shuffles and the block its warps through
 * shared memory; each block stores its value as a partial in scratch and
 * takes a ticket, and the block that takes the last ticket adds the
 * partials, writes out[0] and puts the ticket and the partials back to
 * zero, so the next launch finds scratch as the first did.  The grid is
 * at most sms x occupancy blocks, so a thread's chain of additions is
 * short (about n / (sms x occupancy x block) terms, some 8000 at 2^31 + 3
 * on a 132-SM GPU) and the sum stays well inside conform's tolerance even
 * for an adversarial input.
 *
 * What conform reports: PASS at every size of the ladder, 2^31 + 3
 * included.  A FAIL here is a false failure of conform (or of the GPU).
 *
 * @kind     reduce
 * @entry    control_grid_sum
 * @summary  control: grid-stride sum, shuffles, last block combines the partials (correct)
 * @dtypes   f32
 * @ops      sum
 * @tunable  block 64..1024 pow2 default=256 space=128,256,512 "threads per block"
 * @block    block
 * @grid     min(sms * occupancy, max(1, (n + block - 1) / block))
 * @scratch  8 + esize * sms * occupancy
 *
 * mutant-bug: none (control): a correct grid-stride sum with a last-block finish
 * mutant-wrong: False
 */

#include "mutant_common.cuh"

/*
 * out[0] = the sum over in[0..n): grid_stride_combine(), block_combine() and
 * finish(), all from mutant_common.cuh.
 * Requires: blockDim.x == BLOCK; scratch zeroed, a 4-byte ticket, 4 bytes
 * of padding and gridDim.x partials.
 */
extern "C" __global__ void __launch_bounds__(BLOCK)
control_grid_sum(const T *in, T *out, long long n, void *scratch)
{
	finish(block_combine(grid_stride_combine(in, n)), out, scratch);
}
