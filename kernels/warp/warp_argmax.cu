/*
 * warp_argmax.cu - the argmax broadcast: every lane of a warp gets the
 * warp's maximum and the lowest lane holding it.
 *
 * A __shfl_xor_sync butterfly on (value, lane) pairs, keeping the larger
 * value and, on a tie, the lower lane: that choice is associative and
 * commutative, so every lane ends with the same pair.  Ties are there on
 * purpose: `levels` (i32) replaces x by x % levels (kernels/warp/warp_prim.h),
 * so levels=2 leaves three values and many lanes share the maximum, and
 * warp.argmax_specials draws -0, +0, +-inf and the largest finite floats,
 * where -0 and +0 compare equal and tie as well.  Lanes past n carry the
 * type's lowest value (-inf, INT_MIN) and the highest lanes of the warp,
 * so they lose every tie against an element.
 *
 * Output (2 n elements of the input type): element i gets its warp's
 * maximum at i and the lane at n + i.
 */
#include <stdio.h>

#include "kernels/collectives.cuh"
#include "kernels/warp/warp_reference.h"
#include "worker/reduce_driver.cuh"

/* The variant's parameters, bound from the declared tunables: i32 inputs
 * are taken mod levels (0: as drawn), to force ties. */
struct argmax_params {
	int levels;
};

#define ARGMAX_BLOCK 256
#define ARGMAX_LEVELS_MAX 1000

static __device__ __forceinline__ int argmax_value(int x, int levels)
{
	return warp_level(x, levels);
}

static __device__ __forceinline__ float argmax_value(float x, int)
{
	return x;
}

/*
 * out[i] = the maximum of i's warp, out[n + i] = the lowest lane holding it.
 * Requires: blockDim.x a multiple of 32; out holds 2 n elements; no NaN.
 */
template <class T>
__global__ void argmax_kernel(const T *in, T *out, int64_t n, int levels)
{
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	T best = i < n ? argmax_value(in[i], levels) : bounds<T>::lowest();
	int at = threadIdx.x % 32;

	for (int off = 16; off > 0; off /= 2) {
		const T other = __shfl_xor_sync(FULL_MASK, best, off);
		const int other_at = __shfl_xor_sync(FULL_MASK, at, off);

		if (other > best || (other == best && other_at < at)) {
			best = other;
			at = other_at;
		}
	}
	if (i < n) {
		out[i] = best;
		out[n + i] = (T)at;
	}
}

static cudaError_t argmax_launch(const struct reduce_launch *l)
{
	return dispatch_dtype(l->dtype, [&](auto t) {
		using T = decltype(t);
		argmax_kernel<T><<<grid_for(l->n, ARGMAX_BLOCK), ARGMAX_BLOCK, 0, l->stream>>>(
			(const T *)l->in, (T *)l->out, l->n, launch_params<argmax_params>(l).levels);
		return cudaSuccess;
	});
}

/* The outputs are the values and the lanes. */
static int argmax_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	l->seg_len = l->seg_stride = 32;
	l->n_out = 2 * l->n;
	return 0;
}

static void argmax_expect(const struct reduce_launch *l, const void *in, double *ref, double *tol)
{
	warp_ref_argmax(l->dtype, in, (size_t)l->n, launch_params<argmax_params>(l).levels, ref, tol);
}

static const struct reduce_spec argmax_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = argmax_shape,
	.launch = argmax_launch, .expect = argmax_expect,
};
static const struct reduce_spec argmax_specials_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_F32_SPECIALS, .shape = argmax_shape,
	.launch = argmax_launch, .expect = argmax_expect,
};

static const struct tunable argmax_tunables[] = {
	{.name = "levels", .doc = "i32: x % levels, to force ties; 0: as drawn", .lo = 0,
	 .hi = ARGMAX_LEVELS_MAX, .def = "0", .field = offsetof(struct argmax_params, levels)},
};
static const struct rule argmax_rules[] = {
	{"levels == 0 || i32", "ties are forced on i32 only"},
};
static const struct tunable_set argmax_set = {
	TUNABLE_LIST(argmax_tunables), RULE_LIST(argmax_rules), .size = sizeof(struct argmax_params),
};

/* A float max has no order among NaNs. */
static const struct variant warp_argmax_variants[] = {
	{.name = "warp.argmax",
	 .summary = "max of each warp and the lowest lane holding it, broadcast to every lane by a (value, lane) butterfly",
	 .dtypes = DTYPE_BIT(DTYPE_F32) | DTYPE_BIT(DTYPE_I32), .gpu = 1, .check = reduce_variant_check,
	 .run = reduce_variant_run, .spec = &argmax_spec, .ops = OP_BIT(OP_MAX), .requires = "no NaN inputs",
	 .params = {.set = &argmax_set}},
	{.name = "warp.argmax_specials",
	 .summary = "warp.argmax on -0, +0, +-inf, denormals and the largest floats: signed zeros tie",
	 .dtypes = DTYPE_BIT(DTYPE_F32), .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &argmax_specials_spec, .ops = OP_BIT(OP_MAX), .requires = "no NaN inputs",
	 .params = {.set = &argmax_set}},
};

extern "C" const struct variant_table warp_argmax_table;
const struct variant_table warp_argmax_table = {
	warp_argmax_variants, sizeof warp_argmax_variants / sizeof warp_argmax_variants[0]};
