/*
 * Control: a correct three-pass softmax, one block per row.
 *
 * Block b takes rows b, b + gridDim.x, ...; the block finds the row's
 * maximum m, then the sum s of e^(x - m), then writes e^(x - m) / s, all
 * in float with expf.  Subtracting the maximum keeps every exponent at or
 * below 0, so the full-range rows (+-32000) neither overflow nor give
 * inf / inf; an entry of -inf gives e^(-inf) = 0 exactly, as conform
 * requires, and a row always keeps one finite entry, so m is finite.
 *
 * What conform reports: PASS over the whole rows x cols ladder.  A FAIL
 * here is a false failure of conform.
 *
 * @kind     softmax
 * @entry    control_softmax
 * @summary  control: three passes (max, sum of exponentials, write), one block per row (correct)
 * @dtypes   f32
 * @tunable  block 64..1024 pow2 default=256 space=128,256,512 "threads per block (one row at a time)"
 * @block    block
 * @grid     min(n, sms * occupancy)
 *
 * mutant-bug: none (control): a correct three-pass softmax
 * mutant-wrong: False
 */

#include "mutant_common.cuh"

/*
 * Row r of out = softmax of row r of in, r < rows.
 * Requires: blockDim.x == BLOCK; cols >= 1; each row has a finite entry.
 */
extern "C" __global__ void __launch_bounds__(BLOCK)
control_softmax(const T *in, T *out, long long rows, long long cols, void *scratch)
{
	for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
		const T *x = in + r * cols;
		T *y = out + r * cols;
		const float m = softmax_row_max(x, cols);
		const float s = softmax_row_sum_exp(x, cols, m);

		softmax_row_store(x, y, cols, m, s);
	}
}
