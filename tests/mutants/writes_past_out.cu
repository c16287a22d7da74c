/*
 * Mutant: a kernel that writes 32 elements past out.
 *
 * The kernel stores the total in out[0] and then, as a debugging aid that
 * was never removed, each warp's subtotal (or the identity for a warp the
 * block does not have) in out[1 .. 32], as if out had 33 slots.  A reduce
 * case's out has one element, so every launch writes 128 bytes past its
 * buffer, at every n.  out[0] itself is right.
 *
 * What conform should report: FAIL at every size once the output has a
 * guard zone behind it.  Without one the stray stores land in the slack
 * of cudaMalloc's allocation (at least 256 bytes): no fault, out[0]
 * right, a PASS.
 *
 * @kind     reduce
 * @entry    writes_past_out
 * @summary  mutant: stores debugging subtotals in out[1..32], past the one-element output
 * @dtypes   f32
 * @ops      sum
 * @tunable  block 64..1024 pow2 default=256 "threads per block"
 * @block    block
 * @grid     1
 *
 * mutant-bug: writes out[1..32] (32 elements past the one-element output) besides out[0]
 * mutant-wrong: True
 * mutant-args: --n 1,31,32,33,255,257,4097,65521,1000003,16777215,16777217
 */

#include "mutant_common.cuh"

/* out[0] = the sum of in[0..n), and out[1..32] written too.  One block. */
extern "C" __global__ void __launch_bounds__(BLOCK)
writes_past_out(const T *in, T *out, long long n, void *scratch)
{
	__shared__ T warp_value[32];
	const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	T acc = conform_identity<T>();

	for (long long i = threadIdx.x; i < n; i += BLOCK)
		acc = conform_combine(acc, in[i]);
	acc = warp_combine(acc);
	if (lane == 0)
		warp_value[warp] = acc;
	__syncthreads();
	if (warp == 0) {
		const T sub = lane < BLOCK / 32 ? warp_value[lane] : conform_identity<T>();
		const T total = warp_combine(sub);
		if (lane == 0)
			out[0] = total;
		out[1 + lane] = sub; /* the bug: out has one element */
	}
}
