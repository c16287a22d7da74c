/*
 * Mutant: an index off by one that stays in bounds.
 *
 * Each thread reads in[i + 1] for its i, clamped to the last element so
 * that the read never leaves the array: `in[i + 1 < n ? i + 1 : n - 1]`.
 * The clamp hides the off-by-one from a memory checker: in[0] is never
 * read and in[n - 1] is read twice.  At n = 1 the clamp makes it read
 * in[0], which is right; from n = 2 on, any input with in[0] != in[n - 1]
 * tells.
 *
 * What conform should report: PASS at n = 1, FAIL from 2 on.  The error is
 * in[n - 1] - in[0], two terms: random inputs show it up to a few
 * thousand elements, not from 65521 on, where it hides in the sum's
 * tolerance; an input with a single one (or ones at bit-selected
 * offsets) shows it everywhere.
 *
 * @kind     reduce
 * @entry    read_off_by_one
 * @summary  mutant: reads in[i + 1] clamped to n - 1 (in[0] never read, in[n - 1] twice)
 * @dtypes   f32
 * @ops      sum
 * @tunable  block 64..1024 pow2 default=256 "threads per block"
 * @block    block
 * @grid     1
 *
 * mutant-bug: reads in[i+1] for i < n-1 and in[n-1] twice (index off by one, clamped in bounds)
 * mutant-wrong: n >= 2
 * mutant-args: --n 1,2,31,32,33,255,257,4097,65521,1000003,16777215,16777217
 */

#include "mutant_common.cuh"

/* out[0] should be the sum of in[0..n).  One block. */
extern "C" __global__ void __launch_bounds__(BLOCK)
read_off_by_one(const T *in, T *out, long long n, void *scratch)
{
	T acc = conform_identity<T>();

	for (long long i = threadIdx.x; i < n; i += BLOCK)
		acc = conform_combine(acc, in[i + 1 < n ? i + 1 : n - 1]); /* the bug: in[i] */
	acc = block_combine(acc);
	if (threadIdx.x == 0)
		out[0] = acc;
}
