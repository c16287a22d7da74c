/*
 * Shared-memory tree over one block of n threads: the classic reduction
 * that silently assumes a power-of-two block.
 *
 * Each of the n threads stores its element in shared memory; then, halving
 * `half` from blockDim.x / 2 down to 1, the threads below `half` add the
 * element `half` places above their own.  With blockDim.x a power of two
 * every element is added exactly once and thread 0 ends with the sum.  With
 * any other block the halving rounds down: at 33 threads the first step
 * adds elements 16..31 onto 0..15 and never looks at element 32; at 255 an
 * element is left behind at every odd step.  Nothing fails, the answer is
 * just short.  The fix is to start from the power of two at or above
 * blockDim.x and skip the partners past the end (or to state and enforce
 * the power-of-two block, as conform's own block.tree does).
 *
 * What conform reports: PASS at n = 1, 32, 256, 1024 (powers of two); FAIL
 * at 31, 33, 255, 257 and every other n up to 1024, the message showing
 * out[0] against the reference, off by the elements left out; ERROR above
 * 1024, where the rule refuses the case before launch ("n <= 1024 does not
 * hold (one block of n threads)").  Try
 * `conform run --kernel pow2_tree.cu --n 32,33,255,256,1024`.
 *
 * @kind     reduce
 * @entry    pow2_tree
 * @summary  shared-memory tree over one block of n threads (wrong unless n is a power of two)
 * @dtypes   f32
 * @ops      sum
 * @rule     n <= 1024 ; one block of n threads
 * @block    n
 * @grid     1
 */

/*
 * out[0] = the sum of in[0..n).
 * Requires: one block of blockDim.x == n threads, n <= 1024; and, for the
 * answer to be right, n a power of two (not checked: that is the bug).
 */
extern "C" __global__ void pow2_tree(const T *in, T *out, long long n, void *scratch)
{
	__shared__ float s[1024];
	const unsigned t = threadIdx.x;

	s[t] = in[t];
	__syncthreads();
	for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
		if (t < half)
			s[t] += s[t + half];
		__syncthreads();
	}
	if (t == 0)
		out[0] = s[0];
}
