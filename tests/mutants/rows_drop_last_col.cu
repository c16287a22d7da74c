/*
 * Mutant: a row sum that drops each row's last column.
 *
 * One warp per row (examples/kernels/row_max.cu without the unrolling):
 * lanes stride over the columns and a butterfly of shuffles combines them.
 * The column loop runs to `cols - 1`, so the last column of every row is
 * never read.  That is wrong at every shape: with one column the kernel
 * writes 0, and with more, a row whose last entry is not 0 tells.
 *
 * What conform should report: FAIL over the whole rows x cols ladder.  At
 * 4 x 2^20 + 1 one missing term of a random row (at most 1) hides in the
 * row's tolerance (about 190); a row of ones shows it.
 *
 * @kind     rows
 * @entry    rows_drop_last_col
 * @summary  mutant: one warp per row, column loop stops at cols - 1
 * @dtypes   f32
 * @ops      sum
 * @tunable  warps 1|2|4|8 default=4 "warps per block (one row per warp at a time)"
 * @block    32 * warps
 * @grid     min((n + warps - 1) / warps, sms * occupancy)
 *
 * mutant-bug: a rows kernel that drops each row's last column
 * mutant-wrong: True
 */

#include "mutant_common.cuh"

/*
 * out[r] should be the sum of in[r * cols .. r * cols + cols).
 * Requires: blockDim.x == 32 * WARPS.
 */
extern "C" __global__ void __launch_bounds__(32 * WARPS)
rows_drop_last_col(const T *in, T *out, long long rows, long long cols, void *scratch)
{
	const int lane = threadIdx.x % 32;
	const long long stride = (long long)gridDim.x * WARPS;

	for (long long r = (long long)blockIdx.x * WARPS + threadIdx.x / 32; r < rows; r += stride) {
		const T *row = in + r * cols;
		T v = conform_identity<T>();

		for (long long c = lane; c < cols - 1; c += 32) /* the bug: c < cols */
			v = conform_combine(v, row[c]);
		v = warp_combine(v);
		if (lane == 0)
			out[r] = v;
	}
}
