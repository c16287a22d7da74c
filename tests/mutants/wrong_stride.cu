/*
 * Mutant: a grid-stride loop that strides by blockDim.x instead of
 * gridDim.x * blockDim.x.
 *
 * Thread t of block b starts at b * 256 + t, as it should, but steps by
 * 256: block b reads everything from b * 256 to the end, so element i is
 * counted by blocks 0 .. min(i / 256, gridDim.x - 1), up to 64 times.  The
 * grid is min(64, ceil(n / 256)) blocks: with one block (n <= 256) the
 * stride is the grid's and the sum is right; from 257 on there are two
 * blocks or more and in[256] is counted twice at least.
 *
 * What conform should report: PASS at 1 .. 256, FAIL from 257 on.
 *
 * @kind     reduce
 * @entry    wrong_stride
 * @summary  mutant: grid-stride loop stepping by blockDim.x (elements counted by several blocks)
 * @dtypes   f32
 * @ops      sum
 * @tunable  block 256 default=256 "threads per block"
 * @block    block
 * @grid     min(64, max(1, (n + block - 1) / block))
 * @scratch  8 + esize * 64
 *
 * mutant-bug: grid-stride loop with stride blockDim.x instead of gridDim.x*blockDim.x (elements counted several times)
 * mutant-wrong: n > 256
 * mutant-args: --n 1,31,32,33,255,256,257,4097,65521,1000003,16777215,16777217
 */

#include "mutant_common.cuh"

/* out[0] should be the sum of in[0..n). */
extern "C" __global__ void __launch_bounds__(BLOCK)
wrong_stride(const T *in, T *out, long long n, void *scratch)
{
	T acc = conform_identity<T>();

	/* The bug: the step should be (long long)gridDim.x * BLOCK. */
	for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += BLOCK)
		acc = conform_combine(acc, in[i]);
	finish(block_combine(acc), out, scratch);
}
