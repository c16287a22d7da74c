/*
 * warp_compact.cu - warp stream compaction: each warp keeps its elements
 * with x > threshold, in order, packed at the start of its 32 slots.
 *
 * One __ballot_sync gives the warp's keep mask; a kept lane's place is the
 * number of kept lanes below it, __popc(mask & lanes-below), and the count
 * is __popc(mask).  Output (n + ceil(n / 32) elements of the input type):
 * warp w's kept elements at w * 32, w * 32 + 1, ..., the slots past its
 * count left unwritten (the check requires them still poisoned), then the
 * count of warp w at n + w.
 *
 * The threshold is the parameter `above`: an i32 threshold as it is, for
 * f32 in thousandths (warp_threshold_f32, kernels/warp/warp_prim.h), since f32
 * inputs lie in [-1, 1).  above=0 keeps about half, above=900 (i32: 900)
 * about 5 %, and -1001 or 1000 all or none.
 */
#include <stdio.h>

#include <climits>

#include "kernels/collectives.cuh"
#include "kernels/warp/warp_reference.h"
#include "worker/reduce_driver.cuh"

#define COMPACT_BLOCK 256

/* The variant's parameters, bound from the declared tunables: the
 * predicate's threshold (f32 compares with above / 1000). */
struct compact_params {
	int above;
};

/*
 * Compacts each warp's elements x > threshold as described above.
 * Requires: blockDim.x a multiple of 32; out holds n + ceil(n / 32)
 * elements.
 */
template <class T>
__global__ void compact_kernel(const T *in, T *out, int64_t n, T threshold)
{
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const unsigned lane = threadIdx.x % 32;
	const int64_t base = i - lane; /* the warp's first element and slot */
	const T v = i < n ? in[i] : T(0);
	const bool keep = i < n && v > threshold;
	const unsigned kept = __ballot_sync(FULL_MASK, keep);

	/* base + rank < base + count <= n: the warp's kept elements are its own. */
	if (keep)
		out[base + __popc(kept & ((1u << lane) - 1))] = v;
	if (lane == 0 && base < n)
		out[n + base / 32] = (T)__popc(kept);
}

/* The threshold as the kernel compares it. */
static double compact_threshold(enum dtype d, int above)
{
	return d == DTYPE_F32 ? (double)warp_threshold_f32(above) : (double)above;
}

static cudaError_t compact_launch(const struct reduce_launch *l)
{
	const double threshold = compact_threshold(l->dtype, launch_params<compact_params>(l).above);

	return dispatch_dtype(l->dtype, [&](auto t) {
		using T = decltype(t);
		compact_kernel<T><<<grid_for(l->n, COMPACT_BLOCK), COMPACT_BLOCK, 0, l->stream>>>(
			(const T *)l->in, (T *)l->out, l->n, (T)threshold);
		return cudaSuccess;
	});
}

/* The outputs are the slots and the warps' counts. */
static int compact_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	l->seg_len = l->seg_stride = 32;
	l->n_out = l->n + (l->n + 31) / 32;
	return 0;
}

static void compact_expect(const struct reduce_launch *l, const void *in, double *ref, double *tol)
{
	const double threshold = compact_threshold(l->dtype, launch_params<compact_params>(l).above);

	warp_ref_compact(l->dtype, in, (size_t)l->n, threshold, ref, tol);
}

static const struct reduce_spec compact_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = compact_shape,
	.launch = compact_launch, .expect = compact_expect,
};

static const struct tunable compact_tunables[] = {
	{.name = "above", .doc = "the predicate is x > above (f32: above/1000)", .lo = INT_MIN, .hi = INT_MAX,
	 .def = "0", .field = offsetof(struct compact_params, above)},
};
static const struct tunable_set compact_set = {
	TUNABLE_LIST(compact_tunables), .size = sizeof(struct compact_params),
};

/* The output: n slots, then ceil(n/32) counts. */
static const struct variant warp_compact_variants[] = {
	{.name = "warp.compact",
	 .summary = "per-warp stream compaction of x > above (f32: above/1000) by ballot and popc, order kept, plus counts",
	 .dtypes = DTYPE_BIT(DTYPE_F32) | DTYPE_BIT(DTYPE_I32), .gpu = 1, .check = reduce_variant_check,
	 .run = reduce_variant_run, .spec = &compact_spec, .ops = OP_BIT(OP_SUM),
	 .params = {.set = &compact_set}},
};

extern "C" const struct variant_table warp_compact_table;
const struct variant_table warp_compact_table = {
	warp_compact_variants, sizeof warp_compact_variants / sizeof warp_compact_variants[0]};
