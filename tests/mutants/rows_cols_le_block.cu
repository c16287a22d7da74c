/*
 * Mutant: a row reduction that assumes a row fits in one block.
 *
 * One block of 1024 threads per row, one thread per column: thread c reads
 * column c if c < cols, the block reduces, thread 0 writes out[r].  There
 * is no loop over the columns, so a row longer than the block loses every
 * column from 1024 on.  Rows of up to 1024 columns are right; longer rows
 * are wrong (a row with a non-zero entry at column 1024 tells).
 *
 * What conform should report: PASS at 1 x 1, 1 x 31, 3 x 32, 7 x 33,
 * 1001 x 1 and 1001 x 257; FAIL at 33 x 4099, 4 x 2^20 + 1 and 2095107 x
 * 1025.
 *
 * @kind     rows
 * @entry    rows_cols_le_block
 * @summary  mutant: one thread per column, no column loop (columns past the block dropped)
 * @dtypes   f32
 * @ops      sum
 * @tunable  block 64..1024 pow2 default=1024 "threads per block: the longest row it takes"
 * @block    block
 * @grid     min(n, sms * occupancy)
 *
 * mutant-bug: a rows kernel with one thread per column and no column loop: columns past 1024 dropped
 * mutant-wrong: cols > 1024
 */

#include "mutant_common.cuh"

/* out[r] should be the sum of in[r * cols .. r * cols + cols).
 * Requires: blockDim.x == BLOCK. */
extern "C" __global__ void __launch_bounds__(BLOCK)
rows_cols_le_block(const T *in, T *out, long long rows, long long cols, void *scratch)
{
	for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
		const long long c = threadIdx.x;
		T acc = c < cols ? in[r * cols + c] : conform_identity<T>(); /* the bug: no loop over c */

		acc = block_combine(acc);
		if (threadIdx.x == 0)
			out[r] = acc;
	}
}
