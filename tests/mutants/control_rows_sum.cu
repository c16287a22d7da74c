/*
 * Control: a correct row sum, one block per row.
 *
 * Block b takes rows b, b + gridDim.x, ...; its threads stride over the
 * row's columns with a 64-bit offset r * cols + c, a warp combines its
 * lanes with shuffles and the block its warps through shared memory, and
 * thread 0 writes out[r].  Any cols >= 1 works: threads past the row's
 * end hold 0.  With 256 threads a row of 2^20 + 1 columns is about 4100
 * additions per thread and a tree of 8 levels, well inside conform's
 * tolerance for any input.
 *
 * What conform reports: PASS over the whole rows x cols ladder.  A FAIL
 * here is a false failure of conform.
 *
 * @kind     rows
 * @entry    control_rows_sum
 * @summary  control: one block per row, strided columns, shuffles (correct)
 * @dtypes   f32
 * @ops      sum
 * @tunable  block 64..1024 pow2 default=256 space=128,256,512 "threads per block (one row at a time)"
 * @block    block
 * @grid     min(n, sms * occupancy)
 *
 * mutant-bug: none (control): a correct row sum, one block per row
 * mutant-wrong: False
 */

#include "mutant_common.cuh"

/*
 * out[r] = the sum of in[r * cols .. r * cols + cols), r < rows.
 * Requires: blockDim.x == BLOCK; cols >= 1.
 */
extern "C" __global__ void __launch_bounds__(BLOCK)
control_rows_sum(const T *in, T *out, long long rows, long long cols, void *scratch)
{
	/* r is the same in every thread of a block: the barriers inside
	 * block_combine() see the whole block. */
	for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
		const T *row = in + r * cols;
		T acc = conform_identity<T>();

		for (long long c = threadIdx.x; c < cols; c += BLOCK)
			acc = conform_combine(acc, row[c]);
		acc = block_combine(acc);
		if (threadIdx.x == 0)
			out[r] = acc;
	}
}
