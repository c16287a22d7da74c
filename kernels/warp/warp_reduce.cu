/*
 * warp_reduce.cu - warp-level reductions built from shuffles.
 *
 * One thread per element, blocks of WARP_BLOCK threads: every warp is
 * whole, and threads past n carry the identity, so full-mask shuffles are
 * always legal and a partial last warp (or section) still reduces right.
 * A `width` splits each warp into sections that behave as separate warps.
 *
 * Variants: the three classic forms (shfl_down: lane 0 holds the result;
 * shfl_xor: every lane does; shfl_down then broadcast), a partial warp with
 * only k lanes taking part, and __shfl_down_sync's boundary rule itself.
 */
#include <stdio.h>

#include "kernels/collectives.cuh"
#include "worker/reduce_driver.cuh"
#include "worker/reference.h"

/* Any multiple of 32 would do: the kernels only need whole warps. */
#define WARP_BLOCK 256

/* The family's parameters, bound from the declared tunables: the section
 * width, the active lanes of warp.partial_shfl, the shuffle distance of
 * warp.shfl_down_oob. */
struct warp_reduce_params {
	int width, k, delta;
};

enum shfl_form { FORM_DOWN, FORM_XOR, FORM_DOWN_BCAST };

/*
 * Reduction within width-lane sections in one of the three forms.  FORM_DOWN
 * writes one output per section (from its lane 0); the others write every
 * element's section result.
 * Requires: blockDim.x is a multiple of 32; width is a power of two, 1..32.
 */
template <class T, class Op, int Form>
__global__ void warp_shfl_kernel(const T *in, T *out, int64_t n, int width)
{
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	T v = load_or_identity<Op>(in, i, n);

	if (Form == FORM_XOR) {
		v = warp_reduce_xor<Op>(v, width);
	} else {
		v = warp_reduce_down<Op>(v, width);
		if (Form == FORM_DOWN_BCAST)
			v = __shfl_sync(FULL_MASK, v, 0, width);
	}
	if (i >= n)
		return;
	if (Form != FORM_DOWN)
		out[i] = v;
	else if ((threadIdx.x & (width - 1)) == 0)
		out[i / width] = v;
}

/*
 * Sum of the first k lanes of each warp while lanes k..31 stay idle.  The
 * mask names exactly the active lanes; a lane's source lane + off may be
 * idle (its value is then undefined), so the lane adds only when
 * lane + off < k.  Lane 0's sum then covers lanes 0..k-1 exactly.
 * Requires: blockDim.x is a multiple of 32; 1 <= k <= 32.
 */
template <class T>
__global__ void partial_shfl_kernel(const T *in, T *out, int64_t n, int k)
{
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const int lane = threadIdx.x % 32;
	T v = load_or_identity<op_sum<T>>(in, i, n);
	const unsigned mask = __ballot_sync(FULL_MASK, lane < k);

	if (lane < k) {
		for (int off = 16; off > 0; off /= 2) {
			const T o = __shfl_down_sync(mask, v, off);
			if (lane + off < k)
				v += o;
		}
		if (lane == 0 && i < n)
			out[i / 32] = v;
	}
}

/*
 * Every lane stores its __shfl_down_sync(FULL_MASK, v, delta, width)
 * result, to check the boundary rule: a source past the end of the
 * caller's section returns the caller's own value.
 * Requires: blockDim.x is a multiple of 32; width is a power of two, 1..32;
 * 0 <= delta <= 31.
 */
__global__ void shfl_down_oob_kernel(const int *in, int *out, int64_t n, int delta, int width)
{
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	int v = i < n ? in[i] : 0;

	v = __shfl_down_sync(FULL_MASK, v, (unsigned)delta, width);
	if (i < n)
		out[i] = v;
}

template <int Form>
static cudaError_t shfl_launch(const struct reduce_launch *l)
{
	return dispatch_typed(l->dtype, l->op, [&](auto t, auto op) {
		using T = decltype(t);
		warp_shfl_kernel<T, decltype(op), Form><<<grid_for(l->n, WARP_BLOCK), WARP_BLOCK, 0, l->stream>>>(
			(const T *)l->in, (T *)l->out, l->n, launch_params<warp_reduce_params>(l).width);
		return cudaSuccess;
	});
}

static cudaError_t partial_shfl_launch(const struct reduce_launch *l)
{
	return dispatch_dtype(l->dtype, [&](auto t) {
		using T = decltype(t);
		partial_shfl_kernel<T><<<grid_for(l->n, WARP_BLOCK), WARP_BLOCK, 0, l->stream>>>(
			(const T *)l->in, (T *)l->out, l->n, launch_params<warp_reduce_params>(l).k);
		return cudaSuccess;
	});
}

static cudaError_t oob_launch(const struct reduce_launch *l)
{
	const struct warp_reduce_params &p = launch_params<warp_reduce_params>(l);

	shfl_down_oob_kernel<<<grid_for(l->n, WARP_BLOCK), WARP_BLOCK, 0, l->stream>>>(
		(const int *)l->in, (int *)l->out, l->n, p.delta, p.width);
	return cudaSuccess;
}

/* One segment per width-lane section. */
static int section_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	l->seg_len = l->seg_stride = launch_params<warp_reduce_params>(l).width;
	return 0;
}

/* The first k lanes of each warp: a segment of k elements every 32. */
static int first_k_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	l->seg_len = launch_params<warp_reduce_params>(l).k;
	l->seg_stride = 32;
	return 0;
}

static int oob_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	l->seg_len = l->seg_stride = 1; /* per element, by oob_expect */
	return 0;
}

/* Lane p of a section reads lane p + delta when that is inside the section,
 * else keeps its own value; lanes past n hold 0. */
static void oob_expect(const struct reduce_launch *l, const void *in, double *ref, double *tol)
{
	const struct warp_reduce_params &p = launch_params<warp_reduce_params>(l);

	for (int64_t i = 0; i < l->n; i++) {
		const int64_t src = (i % p.width) + p.delta < p.width ? i + p.delta : i;

		ref[i] = src < l->n ? reference_load(l->dtype, in, (size_t)src) : 0.0;
		tol[i] = 0.0;
	}
}

#define SHFL_OPS (OP_BIT(OP_SUM) | OP_BIT(OP_MAX))
#define SHFL_DTYPES (DTYPE_BIT(DTYPE_F32) | DTYPE_BIT(DTYPE_I32))

static const struct reduce_spec down_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = section_shape,
	.launch = shfl_launch<FORM_DOWN>,
};
static const struct reduce_spec xor_spec = {
	.layout = REDUCE_PER_ELEMENT, .input = INPUT_UNIFORM, .shape = section_shape,
	.launch = shfl_launch<FORM_XOR>,
};
static const struct reduce_spec bcast_spec = {
	.layout = REDUCE_PER_ELEMENT, .input = INPUT_UNIFORM, .shape = section_shape,
	.launch = shfl_launch<FORM_DOWN_BCAST>,
};
static const struct reduce_spec partial_shfl_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = first_k_shape,
	.launch = partial_shfl_launch,
};
static const struct reduce_spec oob_spec = {
	.layout = REDUCE_PER_ELEMENT, .input = INPUT_UNIFORM, .shape = oob_shape, .launch = oob_launch,
	.expect = oob_expect,
};

/* A width-lane section: any power of two up to the warp. */
#define WARP_TUNABLE_WIDTH                                                                         \
	{.name = "width", .doc = "lanes per shuffle section", .lo = 1, .hi = 32, .pow2 = 1, .def = "32", \
	 .field = offsetof(struct warp_reduce_params, width)}

static const struct tunable section_tunables[] = {WARP_TUNABLE_WIDTH};
static const struct tunable_set section_set = {
	TUNABLE_LIST(section_tunables), .size = sizeof(struct warp_reduce_params),
};
static const struct tunable partial_shfl_tunables[] = {
	{.name = "k", .doc = "active lanes of each warp", .lo = 1, .hi = 32, .def = "32",
	 .field = offsetof(struct warp_reduce_params, k)},
};
static const struct tunable_set partial_shfl_set = {
	TUNABLE_LIST(partial_shfl_tunables), .size = sizeof(struct warp_reduce_params),
};
static const struct tunable oob_tunables[] = {
	{.name = "delta", .doc = "shuffle distance", .lo = 0, .hi = 31, .def = "1",
	 .field = offsetof(struct warp_reduce_params, delta)},
	WARP_TUNABLE_WIDTH,
};
static const struct tunable_set oob_set = {
	TUNABLE_LIST(oob_tunables), .size = sizeof(struct warp_reduce_params),
};

static const struct variant warp_variants[] = {
	{.name = "warp.shfl_down",
	 .summary = "width-lane sections reduced by __shfl_down_sync; lane 0 writes", .dtypes = SHFL_DTYPES,
	 .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run, .spec = &down_spec,
	 .ops = SHFL_OPS, .params = {.set = &section_set}},
	{.name = "warp.shfl_xor",
	 .summary = "width-lane sections reduced by __shfl_xor_sync; every lane writes",
	 .dtypes = SHFL_DTYPES, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &xor_spec, .ops = SHFL_OPS, .params = {.set = &section_set}},
	{.name = "warp.shfl_down_bcast",
	 .summary = "__shfl_down_sync reduction then __shfl_sync broadcast from lane 0; every lane writes",
	 .dtypes = SHFL_DTYPES, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &bcast_spec, .ops = SHFL_OPS, .params = {.set = &section_set}},
	{.name = "warp.partial_shfl",
	 .summary = "sum of each warp's first k lanes by __shfl_down_sync on the ballot mask of the active lanes",
	 .dtypes = SHFL_DTYPES, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &partial_shfl_spec, .ops = OP_BIT(OP_SUM), .params = {.set = &partial_shfl_set}},
	/* A shuffle, not a reduction: no op to choose. */
	{.name = "warp.shfl_down_oob",
	 .summary = "every lane's __shfl_down_sync(delta, width) result: sources past the section keep their own value",
	 .dtypes = DTYPE_BIT(DTYPE_I32), .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &oob_spec, .ops = OP_BIT(OP_SUM), .params = {.set = &oob_set}},
};

extern "C" const struct variant_table warp_table;
const struct variant_table warp_table = {warp_variants, sizeof warp_variants / sizeof warp_variants[0]};
