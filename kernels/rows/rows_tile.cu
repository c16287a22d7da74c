/*
 * rows_tile.cu - the rows family: one result per row of a rows x cols array
 * (n = rows, cols >= 1), sum or max, f32 or bf16 (bf16 accumulated and
 * returned in f32), by a group of lanes or a block per row.
 *
 *   rows.shfl   groups of `width` = 4, 8, 16 or 32 lanes per row, combined
 *               by __shfl_xor_sync(FULL_MASK, v, off, width): each
 *               width-section of the warp behaves as its own warp;
 *   rows.cg     groups that are cg::tiled_partition<tile> tiles, combined
 *               by cg::reduce;
 *   rows.warp   one warp per row (the width-32 group, by shuffles);
 *   rows.block  one block per row: block_reduce_two_stage over cg warps.
 *
 * A group's lanes share the row through reduce_span_loads
 * (device_reduce.cuh): scalar head up to the first aligned 4-element vector
 * (16 bytes of f32, 8 of bf16), two vector loads in flight per lane, scalar
 * tail; so cols need not be a multiple of anything.
 *
 * Group g (global thread / G) takes row g, and the grid covers rows x G
 * threads in blocks of `block`.  When rows is not a multiple of block / G
 * the last block has idle groups, and when rows x G is not a multiple of 32
 * one warp is partly idle.  Idle lanes do not return: they carry the
 * identity through the combining step, which names the whole warp
 * (shuffles) or their own whole tile (cg), so every lane a collective
 * names reaches it and nothing reads an inactive lane.
 */
#include <stddef.h>
#include <stdio.h>

#include "kernels/device/device_reduce.cuh"

namespace cg = cooperative_groups;

/* Loads per lane: 4-element vectors, two in flight. */
#define ROWS_VEC 4
#define ROWS_ITEMS 2

/* The grid is one-dimensional. */

/* Combining policies: every lane of each G-lane group gets the group's result. */
/* The family's parameters: threads per block, and lanes per row (the
 * width or tile tunable; rows.warp sets 32). */
struct rows_params {
	int block, width;
};

struct combine_shfl {
	template <class Op, int G, class T>
	static __device__ __forceinline__ T reduce(T v) { return warp_reduce_xor<Op>(v, G); }
};

struct combine_cg {
	template <class Op, int G, class T>
	static __device__ __forceinline__ T reduce(T v)
	{
		const cg::thread_block_tile<G> tile = cg::tiled_partition<G>(cg::this_thread_block());
		return cg::reduce(tile, v, typename Op::cg());
	}
};

/*
 * Group t / G reduces row t / G.
 * Requires: blockDim.x a multiple of 32 (G divides it, so groups never
 * straddle warps or blocks); G a power of two, 4..32; rows x G threads
 * launched, or more.
 */
template <class In, class Op, int G, class Combine>
__global__ void rows_by_group_kernel(const In *__restrict__ in, int64_t rows, int64_t cols,
				     acc_t<In> *__restrict__ out)
{
	const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const int64_t row = t / G;
	const int lane = (int)(threadIdx.x % G);
	acc_t<In> v = Op::identity();

	if (row < rows)
		v = reduce_span_loads<In, Op, ROWS_VEC, ROWS_ITEMS, false>(in + row * cols, cols, lane, G);
	v = Combine::template reduce<Op, G>(v); /* idle lanes too: see the top of the file */
	if (row < rows && lane == 0)
		out[row] = v;
}

/*
 * Block b reduces row b.
 * Requires: blockDim.x a multiple of 32, 32..1024; gridDim.x == rows.
 */
template <class In, class Op>
__global__ void __launch_bounds__(1024)
rows_by_block_kernel(const In *__restrict__ in, int64_t cols, acc_t<In> *__restrict__ out)
{
	const int64_t row = blockIdx.x;
	acc_t<In> v = reduce_span_loads<In, Op, ROWS_VEC, ROWS_ITEMS, false>(in + row * cols, cols,
									     threadIdx.x, blockDim.x);

	v = block_reduce_two_stage<Op, warp_by_cg>(v);
	if (threadIdx.x == 0)
		out[row] = v;
}

/* Calls f(In(), Op()) for the case's input type (f32, bf16) and operator
 * (sum, max), Op on acc_t<In>. */
template <class In, class F>
static cudaError_t rows_dispatch_op(enum op o, F &&f)
{
	using A = acc_t<In>;
	return o == OP_MAX ? f(In(), op_max<A>()) : f(In(), op_sum<A>());
}

template <class F>
static cudaError_t rows_dispatch(const struct reduce_launch *l, F &&f)
{
	switch (l->dtype) {
	case DTYPE_F32: return rows_dispatch_op<float>(l->op, f);
	case DTYPE_BF16: return rows_dispatch_op<bf16_t>(l->op, f);
	default: return cudaErrorInvalidValue;
	}
}

template <class In, class Op, int G, class Combine>
static cudaError_t rows_group_start(const struct reduce_launch *l)
{
	const int64_t rows = l->n_out;

	rows_by_group_kernel<In, Op, G, Combine><<<grid_for(rows * G, l->block), l->block, 0, l->stream>>>(
		(const In *)l->in, rows, l->seg_len, (acc_t<In> *)l->out);
	return cudaSuccess;
}

template <class Combine>
static cudaError_t rows_group_launch(const struct reduce_launch *l)
{
	return rows_dispatch(l, [&](auto in_t, auto op_t) {
		using In = decltype(in_t);
		using Op = decltype(op_t);
		switch (launch_params<rows_params>(l).width) {
		case 4: return rows_group_start<In, Op, 4, Combine>(l);
		case 8: return rows_group_start<In, Op, 8, Combine>(l);
		case 16: return rows_group_start<In, Op, 16, Combine>(l);
		case 32: return rows_group_start<In, Op, 32, Combine>(l);
		default: return cudaErrorInvalidValue;
		}
	});
}

static cudaError_t rows_block_launch(const struct reduce_launch *l)
{
	return rows_dispatch(l, [&](auto in_t, auto op_t) {
		using In = decltype(in_t);
		using Op = decltype(op_t);
		rows_by_block_kernel<In, Op><<<(unsigned)l->n_out, l->block, 0, l->stream>>>(
			(const In *)l->in, l->seg_len, (acc_t<In> *)l->out);
		return cudaSuccess;
	});
}

/* Every rows variant: one segment per row, results in f32 (the rules have
 * checked cols and the grid). */
static int rows_shape(const struct case_args *a, struct reduce_launch *l, char *, size_t)
{
	l->block = launch_params<rows_params>(l).block;
	l->out_dtype = DTYPE_F32;
	l->seg_len = l->seg_stride = a->cols;
	return 0;
}

/* rows.warp: groups of a whole warp. */
static int rows_warp_shape(const struct case_args *a, struct reduce_launch *l, char *msg, size_t len)
{
	launch_params<rows_params>(l).width = 32;
	return rows_shape(a, l, msg, len);
}

#define ROWS_OPS (OP_BIT(OP_SUM) | OP_BIT(OP_MAX))

static const struct reduce_spec rows_shfl_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = rows_shape,
	.launch = rows_group_launch<combine_shfl>,
};
static const struct reduce_spec rows_cg_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = rows_shape,
	.launch = rows_group_launch<combine_cg>,
};
static const struct reduce_spec rows_warp_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = rows_warp_shape,
	.launch = rows_group_launch<combine_shfl>,
};
static const struct reduce_spec rows_block_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = rows_shape,
	.launch = rows_block_launch,
};

#define ROWS_TYPES (DTYPE_BIT(DTYPE_F32) | DTYPE_BIT(DTYPE_BF16))

/* block: a multiple of 32 (whole warps), its default and the values tuned. */
#define ROWS_TUNABLE_BLOCK(def_)                                                                  \
	{.name = "block", .doc = "threads per block", .lo = 32, .hi = 1024, .multiple_of = 32,      \
	 .def = def_, .space = "64,128,256,512,1024", .field = offsetof(struct rows_params, block)}
/* Lanes per row, under the name the variant's kernel gives them. */
#define ROWS_TUNABLE_LANES(name_)                                                                 \
	{.name = name_, .doc = "lanes per row", .values = "4|8|16|32", .def = "32",                 \
	 .space = "4,8,16,32", .field = offsetof(struct rows_params, width)}
#define ROWS_RULE_COLS {"cols >= 1", "n rows of cols"}
/* The grid is one-dimensional: rows x lanes per row threads, or a block per row. */
#define ROWS_RULE_GRID(lanes) \
	{"(n * " lanes " + block - 1) / block <= 2147483647", "the grid's blocks fit gridDim.x"}

static const struct tunable shfl_tunables[] = {ROWS_TUNABLE_BLOCK("128"), ROWS_TUNABLE_LANES("width")};
static const struct tunable cg_tunables[] = {ROWS_TUNABLE_BLOCK("128"), ROWS_TUNABLE_LANES("tile")};
static const struct tunable warp_tunables[] = {ROWS_TUNABLE_BLOCK("128")};
static const struct tunable block_tunables[] = {ROWS_TUNABLE_BLOCK("256")};
static const struct rule shfl_rules[] = {ROWS_RULE_COLS, ROWS_RULE_GRID("width")};
static const struct rule cg_rules[] = {ROWS_RULE_COLS, ROWS_RULE_GRID("tile")};
static const struct rule warp_rules[] = {ROWS_RULE_COLS, ROWS_RULE_GRID("32")};
static const struct rule block_rules[] = {ROWS_RULE_COLS, {"n <= 2147483647", "a block per row fits gridDim.x"}};
#define ROWS_SET(name_, tunables_, rules_)                                                        \
	static const struct tunable_set name_ = {TUNABLE_LIST(tunables_), RULE_LIST(rules_),        \
						 .size = sizeof(struct rows_params)}
ROWS_SET(shfl_set, shfl_tunables, shfl_rules);
ROWS_SET(cg_set, cg_tunables, cg_rules);
ROWS_SET(warp_set, warp_tunables, warp_rules);
ROWS_SET(block_set, block_tunables, block_rules);

static const struct variant rows_tile_variants[] = {
	{.name = "rows.shfl",
	 .summary = "row sum or max by groups of width lanes, __shfl_xor_sync with the width argument",
	 .dtypes = ROWS_TYPES, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &rows_shfl_spec, .ops = ROWS_OPS, .params = {.set = &shfl_set}},
	{.name = "rows.cg", .summary = "row sum or max by tiled_partition<tile> tiles and cg::reduce",
	 .dtypes = ROWS_TYPES, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &rows_cg_spec, .ops = ROWS_OPS, .params = {.set = &cg_set}},
	{.name = "rows.warp", .summary = "row sum or max by one warp per row, full-warp shuffles",
	 .dtypes = ROWS_TYPES, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &rows_warp_spec, .ops = ROWS_OPS, .params = {.set = &warp_set}},
	{.name = "rows.block",
	 .summary = "row sum or max by one block per row: cg warp reductions and a shared-memory stage",
	 .dtypes = ROWS_TYPES, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &rows_block_spec, .ops = ROWS_OPS, .params = {.set = &block_set}},
};

extern "C" const struct variant_table rows_tile_table;
const struct variant_table rows_tile_table = {
	rows_tile_variants, sizeof rows_tile_variants / sizeof rows_tile_variants[0]};
