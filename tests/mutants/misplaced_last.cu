/*
 * Mutant: a sum that reads the element before the last in place of the
 * last one.
 *
 * An index clamped one too early (`min(i, n - 2)` where `n - 1` was
 * meant): element n - 2 is added twice and element n - 1 never.  The
 * count of elements is right, so a sum of ones is right; the answer is
 * off by in[n - 2] - in[n - 1], which random inputs in [-1, 1) hide in
 * the tolerance from about 10^6 elements on.  Only an input whose
 * elements differ by their position tells at every size: the ramp probes
 * (each element holds bits of its own offset), where n - 2 and n - 1
 * differ in bit 0.
 *
 * What conform should report: PASS at n = 1 (nothing is misplaced); FAIL
 * from n = 2 on, by the random input at small n and by a ramp probe at
 * large n ("elements read from the wrong offset").
 *
 * @kind     reduce
 * @entry    misplaced_last
 * @summary  mutant: element n-2 read twice, element n-1 never
 * @dtypes   f32
 * @ops      sum
 * @tunable  block 64..1024 pow2 default=256 "threads per block"
 * @block    block
 * @grid     1
 *
 * mutant-bug: reads in[n-2] in place of in[n-1] (an index clamped one early): right count, wrong element
 * mutant-wrong: n >= 2
 * mutant-args: --n 1,2,31,33,255,257,4097,65521,1000003,16777215,16777217
 */

#include "mutant_common.cuh"

/* out[0] should be the sum of in[0..n).  One block. */
extern "C" __global__ void __launch_bounds__(BLOCK)
misplaced_last(const T *in, T *out, long long n, void *scratch)
{
	T acc = conform_identity<T>();

	for (long long i = threadIdx.x; i < n; i += BLOCK) {
		const long long j = n > 1 && i > n - 2 ? n - 2 : i; /* the bug: should be i */
		acc = conform_combine(acc, in[j]);
	}
	acc = block_combine(acc);
	if (threadIdx.x == 0)
		out[0] = acc;
}
