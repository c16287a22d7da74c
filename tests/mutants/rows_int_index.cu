/*
 * Mutant: a row sum that takes each row's offset in 32 bits.
 *
 * One block per row, as control_rows_sum.cu, but the row's start is the
 * int `row * cols`, the index most row kernels are first written with.
 * It is written here as the 32-bit product converted to int - what an int
 * multiply compiles to - so that the compiler, which may assume a signed
 * product never overflows, cannot widen it to 64 bits and hide the bug.
 * Up to (rows - 1) * cols = 2^31 - 1 every offset is exact; past it the
 * offset of the last rows wraps negative and they are read from 8 GB
 * below the input: an illegal address, or another buffer's bytes.  The
 * ladder's largest rows shape, 2095107 x 1025 (huge_shape.h), is the
 * first case past it.
 *
 * What conform should report: PASS from 1 x 1 to 4 x 2^20 + 1; FAIL or
 * CRASH (an illegal address) at 2095107 x 1025, where the GPU has the
 * memory for it (else SKIP).
 *
 * @kind     rows
 * @entry    rows_int_index
 * @summary  mutant: one block per row, the row's offset row * cols in an int
 * @dtypes   f32
 * @ops      sum
 * @tunable  block 64..1024 pow2 default=256 "threads per block (one row at a time)"
 * @block    block
 * @grid     min(n, sms * occupancy)
 *
 * mutant-bug: a rows kernel whose row offset row * cols is a 32-bit int: past (rows - 1) * cols = 2^31 - 1 it wraps negative
 * mutant-wrong: (n - 1) * cols > 2**31 - 1
 */

#include "mutant_common.cuh"

/*
 * out[r] should be the sum of in[r * cols .. r * cols + cols), r < rows.
 * Requires: blockDim.x == BLOCK; cols >= 1.
 */
extern "C" __global__ void __launch_bounds__(BLOCK)
rows_int_index(const T *in, T *out, long long rows, long long cols, void *scratch)
{
	for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
		const int base = (int)((unsigned)r * (unsigned)cols); /* the bug: r * cols */
		const T *row = in + base;
		T acc = conform_identity<T>();

		for (long long c = threadIdx.x; c < cols; c += BLOCK)
			acc = conform_combine(acc, row[c]);
		acc = block_combine(acc);
		if (threadIdx.x == 0)
			out[r] = acc;
	}
}
