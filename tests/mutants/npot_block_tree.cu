/*
 * Mutant: a power-of-two shared-memory tree run with a block of 96
 * threads, the tunable's default.
 *
 * Each thread sums a block-stride slice of the array into s[t]; then,
 * halving `half` from blockDim.x / 2 down to 1, the threads below `half`
 * add s[t + half].  The halving is only right for a power-of-two block:
 * with 96 threads it goes 48, 24, 12, 6, 3, 1, and the step from 3 to 1
 * adds s[1] to s[0] and never looks at s[2], which by then holds the
 * slices of threads 2, 5, 8, ..., 95 (every t = 2 mod 3).  Thread 2 holds
 * element 2, so from n = 3 on an input with in[2] != 0 tells; at n = 1 and
 * 2 the dropped threads hold nothing.  The tunable allows 64..1024 in
 * multiples of 32 and its space has only powers of two, which is how such
 * a default survives tuning.
 *
 * What conform should report: PASS at n = 1 and 2, FAIL from 3 on (about
 * a third of the elements are missing).
 *
 * @kind     reduce
 * @entry    npot_block_tree
 * @summary  mutant: power-of-two halving tree with a 96-thread block (drops every t = 2 mod 3)
 * @dtypes   f32
 * @ops      sum
 * @tunable  block 64..1024 multiple=32 default=96 space=64,128,256 "threads per block"
 * @block    block
 * @grid     1
 *
 * mutant-bug: power-of-two shared-memory tree with a 96-thread block (default) drops partials
 * mutant-wrong: n >= 3
 * mutant-args: --n 1,2,3,31,32,33,255,257,4097,65521,1000003,16777215,16777217
 */

/* out[0] should be the sum of in[0..n).  One block of BLOCK threads. */
extern "C" __global__ void __launch_bounds__(BLOCK)
npot_block_tree(const T *in, T *out, long long n, void *scratch)
{
	__shared__ T s[BLOCK];
	const unsigned t = threadIdx.x;
	T acc = conform_identity<T>();

	for (long long i = t; i < n; i += BLOCK)
		acc = conform_combine(acc, in[i]);
	s[t] = acc;
	__syncthreads();
	/* The bug: right only when blockDim.x is a power of two. */
	for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
		if (t < half)
			s[t] = conform_combine(s[t], s[t + half]);
		__syncthreads();
	}
	if (t == 0)
		out[0] = s[0];
}
