/*
 * Mutant: a write one element before out (out[-1]).
 *
 * Before reducing, thread 0 clears the output with a loop that starts one
 * element early, `for (i = -1; i < 1; i++) out[i] = 0` (an off-by-one from
 * code that once kept a header word in front of its results).  out[0] is
 * overwritten with the right total afterwards, so the result is right;
 * out[-1], the 4 bytes in front of the output buffer, is clobbered at
 * every n.
 *
 * What conform should report: FAIL at every size once the output has a
 * guard zone in front of it.  Without one the store lands in whatever
 * precedes the allocation: usually the slack of another allocation (no
 * fault, a PASS); should that be unmapped, an illegal-address ERROR, which
 * scripts/mutants lists as broken rather than killed.
 *
 * @kind     reduce
 * @entry    writes_before_out
 * @summary  mutant: clears out[-1 .. 0] before writing out[0]
 * @dtypes   f32
 * @ops      sum
 * @tunable  block 64..1024 pow2 default=256 "threads per block"
 * @block    block
 * @grid     1
 *
 * mutant-bug: writes out[-1], one element before the output
 * mutant-wrong: True
 * mutant-args: --n 1,31,32,33,255,257,4097,65521,1000003,16777215,16777217
 */

#include "mutant_common.cuh"

/* out[0] = the sum of in[0..n), and out[-1] written too.  One block. */
extern "C" __global__ void __launch_bounds__(BLOCK)
writes_before_out(const T *in, T *out, long long n, void *scratch)
{
	T acc = conform_identity<T>();

	if (threadIdx.x == 0)
		for (int i = -1; i < 1; i++) /* the bug: should start at 0 */
			out[i] = T(0);
	for (long long i = threadIdx.x; i < n; i += BLOCK)
		acc = conform_combine(acc, in[i]);
	acc = block_combine(acc);
	if (threadIdx.x == 0)
		out[0] = acc;
}
