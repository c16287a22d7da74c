/*
 * Mutant: the last, partial block is never launched.
 *
 * One thread per element, one 256-element tile per block, and the grid
 * computed as n / 256, rounded down (with at least one block).  The
 * elements of the last partial tile, from 256 * floor(n / 256) to n - 1,
 * belong to a block that does not exist.  Below 256 elements the single
 * block covers them all, and a multiple of 256 has no partial tile; every
 * other n from 257 on loses 1 .. 255 elements.
 *
 * What conform should report: PASS at 1 .. 256, 512 and other multiples
 * of 256; FAIL at 257, 513, 4097 and every ladder size above.  At 2^24 +
 * 1 and 2^31 + 3 only 1 and 3 elements are lost: random inputs hide that
 * in the sum's tolerance; a probe with ones at the end shows it.
 *
 * @kind     reduce
 * @entry    last_block_skipped
 * @summary  mutant: grid = n / 256 rounded down, the partial last tile is never read
 * @dtypes   f32
 * @ops      sum
 * @block    256
 * @grid     max(1, n / 256)
 * @scratch  8 + esize * max(1, n / 256)
 *
 * mutant-bug: the last block skipped (grid = n / 256 rounded down)
 * mutant-wrong: n > 256 and n % 256 != 0
 * mutant-args: --n 1,31,32,33,255,256,257,512,513,4097,65521,1000003,16777215,16777217,2147483651
 */

#define BLOCK 256 /* @block, and the tile: one element per thread */

#include "mutant_common.cuh"

/* out[0] should be the sum of in[0..n).  Requires: 256 threads.  The
 * bug is not in this code but in @grid: n / 256 rounded down launches no
 * block for the last, partial tile. */
extern "C" __global__ void __launch_bounds__(BLOCK)
last_block_skipped(const T *in, T *out, long long n, void *scratch)
{
	const long long i = (long long)blockIdx.x * BLOCK + threadIdx.x;
	T acc = i < n ? in[i] : conform_identity<T>();

	finish(block_combine(acc), out, scratch);
}
