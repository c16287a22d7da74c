/*
 * Mutant: a sum that adds the element at each tile boundary twice.
 *
 * Blocks take 256-element tiles in turn; a tile's bounds are computed as
 * lo = tile * 256 and an inclusive hi = min(lo + 256, n - 1), and the
 * threads read lo + t, lo + t + 256, ... while <= hi.  The right inclusive
 * bound is lo + 255: as written, thread 0 also reads in[lo + 256], which
 * is the first element of the next tile and is read again there.  Every
 * element at a multiple of 256 below n (other than 0) is counted twice,
 * so the kernel is right up to n = 256 and wrong from 257 on (in[256]
 * != 0 tells).
 *
 * What conform should report: PASS at 1 .. 256, FAIL from 257 on.  With
 * random inputs the n / 256 extra terms hide in the sum's tolerance from
 * about 10^6 elements on; a window of ones shows them.
 *
 * @kind     reduce
 * @entry    sum_double_count
 * @summary  mutant: inclusive tile bound, each tile boundary element added twice
 * @dtypes   f32
 * @ops      sum
 * @tunable  block 256 default=256 "threads per block (the tile is one element per thread)"
 * @block    block
 * @grid     min(1024, max(1, (n + block - 1) / block))
 * @scratch  8 + esize * 1024
 *
 * mutant-bug: adds the element at every 256-element tile boundary twice (inclusive upper bound)
 * mutant-wrong: n > 256
 * mutant-args: --n 1,31,32,33,255,256,257,4097,65521,1000003,16777215,16777217
 */

#include "mutant_common.cuh"

/* out[0] should be the sum of in[0..n).  Requires: blockDim.x == BLOCK. */
extern "C" __global__ void __launch_bounds__(BLOCK)
sum_double_count(const T *in, T *out, long long n, void *scratch)
{
	T acc = conform_identity<T>();

	for (long long tile = blockIdx.x; tile * BLOCK < n; tile += gridDim.x) {
		const long long lo = tile * BLOCK;
		const long long hi = lo + BLOCK < n - 1 ? lo + BLOCK : n - 1; /* the bug: lo + BLOCK - 1 */
		for (long long i = lo + threadIdx.x; i <= hi; i += BLOCK)
			acc = conform_combine(acc, in[i]);
	}
	finish(block_combine(acc), out, scratch);
}
