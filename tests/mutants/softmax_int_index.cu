/*
 * Mutant: a softmax that takes each row's offset in 32 bits.
 *
 * One block per row, three passes (control_softmax.cu), but the row's
 * start in the input and the output is the int `row * cols`, the commonest
 * softmax bug.  It is written here as the 32-bit product converted to int
 * - what an int multiply compiles to - so that the compiler, which may
 * assume a signed product never overflows, cannot widen it to 64 bits and
 * hide the bug.  Up to (rows - 1) * cols = 2^31 - 1 every offset is
 * exact; past it the last rows are read from and written to 8 GB below
 * their buffers: an illegal address, or the input's own bytes overwritten
 * (the audit's "wrote into its input").  The ladder's largest rows shape,
 * 2095107 x 1025 (huge_shape.h), is the first case past it.
 *
 * What conform should report: PASS from 1 x 1 to 4 x 2^20 + 1; FAIL or
 * CRASH (an illegal address) at 2095107 x 1025, where the GPU has the
 * memory for it (else SKIP).
 *
 * @kind     softmax
 * @entry    softmax_int_index
 * @summary  mutant: three-pass softmax, one block per row, the row's offset row * cols in an int
 * @dtypes   f32
 * @tunable  block 64..1024 pow2 default=256 "threads per block (one row at a time)"
 * @block    block
 * @grid     min(n, sms * occupancy)
 *
 * mutant-bug: a softmax whose row offset row * cols is a 32-bit int: past (rows - 1) * cols = 2^31 - 1 it wraps negative
 * mutant-wrong: (n - 1) * cols > 2**31 - 1
 */

#include "mutant_common.cuh"

/*
 * Row r of out should be the softmax of row r of in, r < rows.
 * Requires: blockDim.x == BLOCK; cols >= 1; each row has a finite entry.
 */
extern "C" __global__ void __launch_bounds__(BLOCK)
softmax_int_index(const T *in, T *out, long long rows, long long cols, void *scratch)
{
	for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
		const int base = (int)((unsigned)r * (unsigned)cols); /* the bug: r * cols */
		const T *x = in + base;
		T *y = out + base;
		const float m = softmax_row_max(x, cols);
		const float s = softmax_row_sum_exp(x, cols, m);

		softmax_row_store(x, y, cols, m, s);
	}
}
