/*
 * Mutant: a softmax whose sum leaves out each row's last column.
 *
 * Three passes per row, one block per row (control_softmax.cu): the row's
 * maximum m, the sum s of e^(x - m), then e^(x - m) / s.  The sum's loop
 * runs to `cols - 1`, so s misses the last column's term and every output
 * of the row is too large by the factor 1 / (1 - y_last).  That is wrong
 * at every shape: with one column s is 0 and the output is inf; with more,
 * a row whose last entry is its maximum has y_last >= 1 / cols.
 *
 * What conform should report: FAIL over the whole rows x cols ladder
 * (outputs too large, rows summing to more than 1).  At 4 x 2^20 + 1 the
 * last column's share of a random row (about 2^-16) is below softmax's
 * tolerance (about 10^-3 there); a one-hot row whose peak is the last
 * column shows it (s = 0, outputs inf).
 *
 * @kind     softmax
 * @entry    softmax_sum_drops_last_col
 * @summary  mutant: three-pass softmax whose sum stops at cols - 1
 * @dtypes   f32
 * @tunable  block 64..1024 pow2 default=256 "threads per block (one row at a time)"
 * @block    block
 * @grid     min(n, sms * occupancy)
 *
 * mutant-bug: a softmax that drops each row's last column from the sum
 * mutant-wrong: True
 */

#include "mutant_common.cuh"

/* Row r of out should be the softmax of row r of in.  Requires:
 * blockDim.x == BLOCK; cols >= 1. */
extern "C" __global__ void __launch_bounds__(BLOCK)
softmax_sum_drops_last_col(const T *in, T *out, long long rows, long long cols, void *scratch)
{
	for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
		const T *x = in + r * cols;
		T *y = out + r * cols;
		const float m = softmax_row_max(x, cols);
		float s = 0.0f;

		/* softmax_row_sum_exp() of mutant_common.cuh, but for the bound. */
		for (long long c = threadIdx.x; c < cols - 1; c += BLOCK) /* the bug: c < cols */
			s += expf(x[c] - m);
		s = block_all(s, false);
		softmax_row_store(x, y, cols, m, s);
	}
}
