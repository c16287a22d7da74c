/*
 * warp_segmented.cu - segmented warp reduction by head flags: a warp holds
 * several segments, each starting at a lane whose head flag is set, and
 * every element gets its segment's sum or max.
 *
 * The heads come from warp_head(warp, lane, seg) (kernels/warp/warp_prim.h),
 * known to the host reference too: seg=L puts a head every L lanes (seg=1:
 * every lane a head; seg=32: one segment per warp; other L leave a short
 * last segment), seg=0 cycles the lengths so that over 32 warps every
 * length from 1 to 32 occurs, the whole warp included.
 *
 * __ballot_sync turns the flags into a mask; each lane finds the last lane
 * of its segment (one below the next head) and runs a __shfl_down_sync
 * tree that adds only sources at or before it, which leaves each lane with
 * the reduction from itself to its segment's end and the head with the
 * whole segment; __shfl_sync from the head then gives it to every lane.
 * One thread per element in whole warps; threads past n carry the identity.
 */
#include <stdio.h>

#include "kernels/collectives.cuh"
#include "kernels/warp/warp_reference.h"
#include "worker/reduce_driver.cuh"

/* The variant's parameters, bound from the declared tunables: the head
 * pattern (a head every seg lanes; 0: segment lengths 1..32). */
struct segmented_params {
	int seg;
};

#define SEGMENTED_BLOCK 256

/*
 * out[i] = Op over i's segment (heads: warp_head(i / 32, lane, seg)).
 * Requires: blockDim.x a multiple of 32; 0 <= seg <= 32.
 */
template <class T, class Op>
__global__ void segmented_kernel(const T *in, T *out, int64_t n, int seg)
{
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const unsigned lane = threadIdx.x % 32;
	const unsigned heads = __ballot_sync(FULL_MASK, warp_head(i / 32, (int)lane, seg));
	/* Lanes above this one, and this one and those below: 2u << 31 is 0. */
	const unsigned above = heads & ~((2u << lane) - 1), upto = heads & ((2u << lane) - 1);
	const unsigned last = above ? (unsigned)__ffs((int)above) - 2 : 31;
	T v = load_or_identity<Op>(in, i, n);

	for (unsigned off = 1; off < 32; off *= 2) {
		const T o = __shfl_down_sync(FULL_MASK, v, off);
		if (lane + off <= last)
			v = Op::apply(v, o);
	}
	/* Lane 0 is always a head, so upto is never 0. */
	v = __shfl_sync(FULL_MASK, v, 31 - __clz((int)upto));
	if (i < n)
		out[i] = v;
}

static cudaError_t segmented_launch(const struct reduce_launch *l)
{
	return dispatch_typed(l->dtype, l->op, [&](auto t, auto op) {
		using T = decltype(t);
		segmented_kernel<T, decltype(op)><<<grid_for(l->n, SEGMENTED_BLOCK), SEGMENTED_BLOCK, 0, l->stream>>>(
			(const T *)l->in, (T *)l->out, l->n, launch_params<segmented_params>(l).seg);
		return cudaSuccess;
	});
}

/* One output per element, from segmented_expect. */
static int segmented_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	l->seg_len = l->seg_stride = 32;
	return 0;
}

static void segmented_expect(const struct reduce_launch *l, const void *in, double *ref, double *tol)
{
	warp_ref_segmented(l->op, l->dtype, in, (size_t)l->n,
			   launch_params<segmented_params>(l).seg, ref, tol);
}

static const struct reduce_spec segmented_spec = {
	.layout = REDUCE_PER_ELEMENT, .input = INPUT_UNIFORM, .shape = segmented_shape,
	.launch = segmented_launch, .expect = segmented_expect,
};

static const struct tunable segmented_tunables[] = {
	{.name = "seg", .doc = "a head every seg lanes; 0: lengths 1..32", .lo = 0, .hi = 32, .def = "0",
	 .field = offsetof(struct segmented_params, seg)},
};
static const struct tunable_set segmented_set = {
	TUNABLE_LIST(segmented_tunables), .size = sizeof(struct segmented_params),
};

static const struct variant warp_segmented_variants[] = {
	{.name = "warp.segmented",
	 .summary = "segmented warp reduction by head flags (a head every seg lanes, or seg=0: lengths 1..32); every lane writes",
	 .dtypes = DTYPE_BIT(DTYPE_F32) | DTYPE_BIT(DTYPE_I32), .gpu = 1, .check = reduce_variant_check,
	 .run = reduce_variant_run, .spec = &segmented_spec, .ops = OP_BIT(OP_SUM) | OP_BIT(OP_MAX),
	 .params = {.set = &segmented_set}},
};

extern "C" const struct variant_table warp_segmented_table;
const struct variant_table warp_segmented_table = {
	warp_segmented_variants, sizeof warp_segmented_variants / sizeof warp_segmented_variants[0]};
