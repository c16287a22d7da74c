/*
 * Mutant: a kernel that uses its input as scratch, casting away const.
 *
 * One block of 256 threads.  Thread t sums in[t], in[t + 256], ... and, to
 * save a shared array, stores its partial back into in[t] through a
 * non-const pointer; after a barrier the block reads the 256 partials
 * back and reduces them.  out[0] is right on the first launch.  Up to
 * n = 256 each thread has one element and stores it back unchanged (the
 * accumulator starts from the element itself, so even -0.0 keeps its
 * bits): the input is not modified.  From 257 on, in[t] becomes in[t] +
 * in[t + 256] + ..., a modified input; the next launch on the same buffers
 * (conform launches each reduce case three times) adds the old partials
 * again and is wrong too.
 *
 * What conform should report: PASS at 1 .. 256; FAIL from 257 on, on the
 * second run's wrong sum even without a check that the input is unchanged
 * (the second run's error is the sum of in[256 ..], which random inputs
 * hide in the tolerance at 2^24 +- 1: there it takes that check).
 *
 * @kind     reduce
 * @entry    writes_input
 * @summary  mutant: stores each thread's partial into in[t] (the input used as scratch)
 * @dtypes   f32
 * @ops      sum
 * @block    256
 * @grid     1
 *
 * mutant-bug: writes into its input (in used as scratch, const cast away)
 * mutant-wrong: n > 256
 * mutant-args: --n 1,31,32,33,255,256,257,4097,65521,1000003,16777215,16777217
 */

#define BLOCK 256 /* @block */

#include "mutant_common.cuh"

/* out[0] = the sum of in[0..n), and in[0..256) overwritten with partials.
 * One block of 256 threads. */
extern "C" __global__ void __launch_bounds__(BLOCK)
writes_input(const T *in, T *out, long long n, void *scratch)
{
	volatile T *parts = (volatile T *)(T *)in; /* the bug: in is not ours to write */
	const long long t = threadIdx.x;
	T acc = conform_identity<T>();

	if (t < n) {
		acc = in[t];
		for (long long i = t + BLOCK; i < n; i += BLOCK)
			acc = conform_combine(acc, in[i]);
		parts[t] = acc;
	}
	__syncthreads();
	acc = t < n ? (T)parts[t] : conform_identity<T>();
	acc = block_combine(acc);
	if (t == 0)
		out[0] = acc;
}
