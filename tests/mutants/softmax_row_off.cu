/*
 * Mutant: a softmax that writes each row's result one row down.
 *
 * One block per row, three passes (control_softmax.cu), but the output
 * pointer is computed from the next row, wrapping the last row's result
 * round to row 0: out row (r + 1) % rows = softmax of in row r.  Every
 * write stays inside out and every row is written, so nothing is
 * unwritten and every row sums to 1; only the values are in the wrong
 * rows.  With one row it is right, and with one column too (every row's
 * softmax is then [1]); any two rows of two columns or more that differ
 * tell.
 *
 * What conform should report: PASS at 1 x 1, 1 x 31 and 1001 x 1; FAIL
 * at 3 x 32, 7 x 33, 1001 x 257, 33 x 4099, 4 x 2^20 + 1 and 2095107 x
 * 1025.
 *
 * @kind     softmax
 * @entry    softmax_row_off
 * @summary  mutant: three-pass softmax writing row r's result into row (r + 1) % rows
 * @dtypes   f32
 * @tunable  block 64..1024 pow2 default=256 "threads per block (one row at a time)"
 * @block    block
 * @grid     min(n, sms * occupancy)
 *
 * mutant-bug: a softmax that writes each row's result one row off (row r into row r+1, the last into row 0)
 * mutant-wrong: n >= 2 and cols >= 2
 */

#include "mutant_common.cuh"

/* Row r of out should be the softmax of row r of in.  Requires:
 * blockDim.x == BLOCK; cols >= 1. */
extern "C" __global__ void __launch_bounds__(BLOCK)
softmax_row_off(const T *in, T *out, long long rows, long long cols, void *scratch)
{
	for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
		const T *x = in + r * cols;
		T *y = out + ((r + 1) % rows) * cols; /* the bug: out + r * cols */
		const float m = softmax_row_max(x, cols);
		const float s = softmax_row_sum_exp(x, cols, m);

		softmax_row_store(x, y, cols, m, s);
	}
}
