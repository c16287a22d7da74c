/*
 * block_reduce.cu - the block family: one block reduces its blockDim.x
 * consecutive elements to one output (segment = block).
 *
 * Three algorithms for the same problem, so that a case compares them on
 * equal terms: a shared-memory tree, warp shuffles with one barrier, and
 * cg::reduce with the same barrier stage.  The last block is partial when
 * n is not a multiple of the block: its missing elements are the identity.
 */
#include <stddef.h>
#include <stdio.h>

#include "kernels/collectives.cuh"
#include "worker/reduce_driver.cuh"

#define BLOCK_MAX 1024

/*
 * Shared-memory tree: halve the active threads each step.
 * Requires: blockDim.x is a power of two, 32..1024.
 */
template <class T, class Op>
__global__ void block_tree_kernel(const T *in, T *out, int64_t n)
{
	__shared__ T s[BLOCK_MAX];
	const unsigned t = threadIdx.x;

	s[t] = load_or_identity<Op>(in, (int64_t)blockIdx.x * blockDim.x + t, n);
	__syncthreads();
	for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
		if (t < half)
			s[t] = Op::apply(s[t], s[t + half]);
		__syncthreads();
	}
	if (t == 0)
		out[blockIdx.x] = s[0];
}

/*
 * Warp reduction (Warp = warp_by_shfl or warp_by_cg), warp leaders to shared
 * memory, one barrier, warp 0 reduces the partials.
 * Requires: blockDim.x is a multiple of 32, 32..1024.
 */
template <class T, class Op, class Warp>
__global__ void block_two_stage_kernel(const T *in, T *out, int64_t n)
{
	T v = load_or_identity<Op>(in, (int64_t)blockIdx.x * blockDim.x + threadIdx.x, n);

	v = block_reduce_two_stage<Op, Warp>(v);
	if (threadIdx.x == 0)
		out[blockIdx.x] = v;
}

static cudaError_t tree_launch(const struct reduce_launch *l)
{
	return dispatch_typed(l->dtype, l->op, [&](auto t, auto op) {
		using T = decltype(t);
		block_tree_kernel<T, decltype(op)><<<grid_for(l->n, l->block), l->block, 0, l->stream>>>(
			(const T *)l->in, (T *)l->out, l->n);
		return cudaSuccess;
	});
}

template <class Warp>
static cudaError_t two_stage_launch(const struct reduce_launch *l)
{
	return dispatch_typed(l->dtype, l->op, [&](auto t, auto op) {
		using T = decltype(t);
		block_two_stage_kernel<T, decltype(op), Warp>
			<<<grid_for(l->n, l->block), l->block, 0, l->stream>>>((const T *)l->in,
									     (T *)l->out, l->n);
		return cudaSuccess;
	});
}

/* The family's parameters: threads per block, one segment per block. */
struct block_params {
	int block;
};

/* The bound block is the launch's block and its segment. */
static int block_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	l->block = launch_params<block_params>(l).block;
	l->seg_len = l->seg_stride = l->block;
	return 0;
}

#define BLOCK_OPS (OP_BIT(OP_SUM) | OP_BIT(OP_MAX))
#define BLOCK_DTYPES (DTYPE_BIT(DTYPE_F32) | DTYPE_BIT(DTYPE_I32))

static const struct reduce_spec tree_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = block_shape,
	.launch = tree_launch,
};
static const struct reduce_spec shfl_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = block_shape,
	.launch = two_stage_launch<warp_by_shfl>,
};
static const struct reduce_spec cg_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = block_shape,
	.launch = two_stage_launch<warp_by_cg>,
};

/* The tree halves the active threads, so its block is a power of two; the
 * two-stage kernels need whole warps only. */
static const struct tunable tree_tunables[] = {
	{.name = "block", .doc = "threads per block", .lo = 32, .hi = BLOCK_MAX, .pow2 = 1, .def = "256",
	 .field = offsetof(struct block_params, block)},
};
static const struct tunable warps_tunables[] = {
	{.name = "block", .doc = "threads per block", .lo = 32, .hi = BLOCK_MAX, .multiple_of = 32,
	 .def = "256", .field = offsetof(struct block_params, block)},
};
static const struct tunable_set tree_set = {TUNABLE_LIST(tree_tunables), .size = sizeof(struct block_params)};
static const struct tunable_set warps_set = {TUNABLE_LIST(warps_tunables), .size = sizeof(struct block_params)};

static const struct variant block_variants[] = {
	{.name = "block.tree", .summary = "per-block reduction by a shared-memory tree",
	 .dtypes = BLOCK_DTYPES, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &tree_spec, .ops = BLOCK_OPS, .params = {.set = &tree_set}},
	{.name = "block.shfl", .summary = "per-block reduction by warp shuffles and one barrier",
	 .dtypes = BLOCK_DTYPES, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &shfl_spec, .ops = BLOCK_OPS, .params = {.set = &warps_set}},
	{.name = "block.cg",
	 .summary = "per-block reduction by cg::reduce on 32-thread tiles and one barrier",
	 .dtypes = BLOCK_DTYPES, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &cg_spec, .ops = BLOCK_OPS, .params = {.set = &warps_set}},
};

extern "C" const struct variant_table block_table;
const struct variant_table block_table = {block_variants,
					  sizeof block_variants / sizeof block_variants[0]};
