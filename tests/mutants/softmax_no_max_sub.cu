/*
 * Mutant: a softmax that forgets to subtract the row's maximum.
 *
 * One block per row computes s = sum of e^x and writes e^x / s, the
 * textbook formula without the shift by m = max x.  In float e^x
 * overflows to inf above x = 88.7 and underflows to 0 below -103.9, so a
 * row with a large entry gives inf / inf = NaN and a row of very negative
 * entries 0 / 0 = NaN, at every shape, a single column included (e^x / e^x
 * is NaN for x = 100).  conform's softmax rows 0, 8, 16, ... are drawn over
 * the full range +-32000 (kernels/softmax/softmax_input.c), and every
 * ladder shape has a row 0.
 *
 * What conform should report: FAIL over the whole rows x cols ladder (NaN
 * outputs).
 *
 * @kind     softmax
 * @entry    softmax_no_max_sub
 * @summary  mutant: softmax as e^x / sum e^x, no max subtraction (overflows to inf / inf)
 * @dtypes   f32
 * @tunable  block 64..1024 pow2 default=256 "threads per block (one row at a time)"
 * @block    block
 * @grid     min(n, sms * occupancy)
 *
 * mutant-bug: a softmax without the max subtraction: e^x overflows for large entries (inf/inf = NaN)
 * mutant-wrong: True
 */

#include "mutant_common.cuh"

/* Row r of out should be the softmax of row r of in.  Requires:
 * blockDim.x == BLOCK; cols >= 1. */
extern "C" __global__ void __launch_bounds__(BLOCK)
softmax_no_max_sub(const T *in, T *out, long long rows, long long cols, void *scratch)
{
	for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
		const T *x = in + r * cols;
		T *y = out + r * cols;
		float s = 0.0f;

		/* The bug: no pass for the maximum, no shift by it. */
		for (long long c = threadIdx.x; c < cols; c += BLOCK)
			s += expf(x[c]);
		s = block_all(s, false);
		for (long long c = threadIdx.x; c < cols; c += BLOCK)
			y[c] = expf(x[c]) / s;
	}
}
