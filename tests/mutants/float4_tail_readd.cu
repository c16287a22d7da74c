/*
 * Mutant: a float4 sum whose scalar tail re-adds elements the vectors
 * already covered.
 *
 * One block of 256 threads reads the array as n / 4 float4 vectors (the
 * buffer is cudaMalloc's, 16-byte aligned), and thread 0 then adds the
 * elements that do not fill a vector.  The tail was written as "the last
 * four elements" - from max(n - 4, 0) to n - 1 - whenever n % 4 != 0,
 * where it should start at 4 * (n / 4).  Below 4 there are no vectors and
 * the tail is exactly the array; with n % 4 == 0 there is no tail; every
 * other n from 5 on re-adds 4 - n % 4 elements.
 *
 * What conform should report: PASS at 1, 2, 3, 4, 32 and 36; FAIL at 5,
 * 31, 33, 255, 257 and every larger ladder size (none of them a multiple
 * of 4).  At 2^24 +- 1 one or three extra terms hide in the tolerance of a
 * random input; a window of ones at the end shows them.
 *
 * @kind     reduce
 * @entry    float4_tail_readd
 * @summary  mutant: float4 sum whose scalar tail starts at n - 4 (re-adds covered elements)
 * @dtypes   f32
 * @ops      sum
 * @tunable  block 64..1024 pow2 default=256 "threads per block"
 * @block    block
 * @grid     1
 *
 * mutant-bug: a vectorised (float4) sum whose scalar tail re-adds elements already covered when n % 4 != 0
 * mutant-wrong: n >= 4 and n % 4 != 0
 * mutant-args: --n 1,2,3,4,5,31,32,33,36,255,257,4097,65521,1000003,16777215,16777217
 */

#include "mutant_common.cuh"

/* out[0] should be the sum of in[0..n).  One block; in 16-byte aligned. */
extern "C" __global__ void __launch_bounds__(BLOCK)
float4_tail_readd(const T *in, T *out, long long n, void *scratch)
{
	const float4 *v4 = (const float4 *)in;
	const long long vecs = n / 4;
	T acc = conform_identity<T>();

	for (long long v = threadIdx.x; v < vecs; v += BLOCK) {
		const float4 w = v4[v];
		acc += (w.x + w.y) + (w.z + w.w);
	}
	if (threadIdx.x == 0 && n % 4 != 0)
		for (long long i = n >= 4 ? n - 4 : 0; i < n; i++) /* the bug: from 4 * vecs */
			acc += in[i];
	acc = block_combine(acc);
	if (threadIdx.x == 0)
		out[0] = acc;
}
