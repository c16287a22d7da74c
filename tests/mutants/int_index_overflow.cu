/*
 * Mutant: a 32-bit element count and index, wrong past 2^31 elements.
 *
 * The grid-stride loop is written the way most CUDA samples write it,
 * with int: `const int count = n; for (int i = blockIdx.x * blockDim.x +
 * threadIdx.x; i < count; i += stride)`.  Up to 2^31 - 2^18 elements that
 * is exact (the grid is fixed at 1024 blocks of 256 threads, a stride of
 * 2^18, so i + stride stays below 2^31).  Above that it breaks two ways:
 * between 2^31 - 2^18 and 2^31 - 1, i + stride overflows int (undefined
 * behaviour: in practice a negative index and an illegal address); from
 * 2^31 on, `count` itself wraps negative, the loop runs no iteration at
 * all, and out[0] is the identity.  The ladder's 2^31 + 3 is the second
 * case: count = -2147483645, every partial is -inf, the output -inf, and
 * nothing out of bounds is read, so conform sees a plain wrong answer.
 * The operator is max so that the answer is unmistakably wrong: a sum of
 * nothing (0) could hide in the tolerance of 2^31 random terms.
 *
 * What conform should report: PASS up to 2^24 + 1, FAIL at 2^31 + 3
 * (-inf against the array's maximum).
 *
 * @kind     reduce
 * @entry    int_index_overflow
 * @summary  mutant: int count and int grid-stride index (no iteration past 2^31 elements)
 * @dtypes   f32
 * @ops      max
 * @block    256
 * @grid     1024
 * @scratch  8 + esize * 1024
 *
 * mutant-bug: 32-bit count and grid-stride index: past 2^31 elements the int count wraps negative and nothing is read
 * mutant-wrong: n > 2**31 - 2**18
 */

#define BLOCK 256 /* @block: finish() and block_combine() of mutant_common.cuh read it */

#include "mutant_common.cuh"

/* out[0] should be the maximum of in[0..n).  Requires: 256 threads. */
extern "C" __global__ void __launch_bounds__(BLOCK)
int_index_overflow(const T *in, T *out, long long n, void *scratch)
{
	const int count = n;                        /* the bug: 32 bits */
	const int stride = gridDim.x * blockDim.x;
	T acc = conform_identity<T>();

	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
		acc = conform_combine(acc, in[i]);
	finish(block_combine(acc), out, scratch);
}
