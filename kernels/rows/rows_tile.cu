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
#include <stdio.h>

#include "device_reduce.cuh"

namespace cg = cooperative_groups;

/* Loads per lane: 4-element vectors, two in flight. */
#define ROWS_VEC 4
#define ROWS_ITEMS 2

/* The grid is one-dimensional. */
#define ROWS_GRID_MAX 2147483647LL

/* Combining policies: every lane of each G-lane group gets the group's result. */
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
		switch (l->width) {
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

/*
 * The shape every rows variant shares: cols >= 1 per row, block (default
 * `block`) a multiple of 32 in 32..1024, results in f32, and a
 * one-dimensional grid: rows x `lanes` threads, or (lanes == 0) a block
 * per row.
 */
static int rows_common(const struct case_args *a, struct reduce_launch *l, int block, int lanes,
		       char *msg, size_t len)
{
	if (a->cols < 1) {
		snprintf(msg, len, "%s reduces rows: it needs cols >= 1", a->variant);
		return -1;
	}
	if (param_int(a, "block", block, 32, 1024, &l->block, msg, len) < 0)
		return -1;
	if (l->block % 32 != 0) {
		snprintf(msg, len, "block=%d is not a multiple of 32", l->block);
		return -1;
	}
	if ((lanes ? (a->n * lanes + l->block - 1) / l->block : a->n) > ROWS_GRID_MAX) {
		snprintf(msg, len, "%lld rows need more than %lld blocks", (long long)a->n, ROWS_GRID_MAX);
		return -1;
	}
	l->out_dtype = DTYPE_F32;
	l->seg_len = l->seg_stride = a->cols;
	return 0;
}

/* width= or tile= (`key`): 4, 8, 16 or 32 lanes per row. */
static int rows_group_shape(const struct case_args *a, struct reduce_launch *l, const char *key,
			    char *msg, size_t len)
{
	if (param_int(a, key, 32, 4, 32, &l->width, msg, len) < 0)
		return -1;
	if (!is_pow2(l->width)) {
		snprintf(msg, len, "%s=%d is not 4, 8, 16 or 32", key, l->width);
		return -1;
	}
	return rows_common(a, l, 128, l->width, msg, len);
}

static int rows_shfl_shape(const struct case_args *a, struct reduce_launch *l, char *msg, size_t len)
{
	return rows_group_shape(a, l, "width", msg, len);
}

static int rows_cg_shape(const struct case_args *a, struct reduce_launch *l, char *msg, size_t len)
{
	return rows_group_shape(a, l, "tile", msg, len);
}

static int rows_warp_shape(const struct case_args *a, struct reduce_launch *l, char *msg, size_t len)
{
	l->width = 32;
	return rows_common(a, l, 128, 32, msg, len);
}

static int rows_block_shape(const struct case_args *a, struct reduce_launch *l, char *msg, size_t len)
{
	return rows_common(a, l, 256, 0, msg, len);
}

#define ROWS_OPS (OP_BIT(OP_SUM) | OP_BIT(OP_MAX))

static const struct reduce_spec rows_shfl_spec = {
	ROWS_OPS, REDUCE_PER_SEGMENT, INPUT_UNIFORM, rows_shfl_shape, NULL,
	rows_group_launch<combine_shfl>, NULL,
};
static const struct reduce_spec rows_cg_spec = {
	ROWS_OPS, REDUCE_PER_SEGMENT, INPUT_UNIFORM, rows_cg_shape, NULL, rows_group_launch<combine_cg>,
	NULL,
};
static const struct reduce_spec rows_warp_spec = {
	ROWS_OPS, REDUCE_PER_SEGMENT, INPUT_UNIFORM, rows_warp_shape, NULL,
	rows_group_launch<combine_shfl>, NULL,
};
static const struct reduce_spec rows_block_spec = {
	ROWS_OPS, REDUCE_PER_SEGMENT, INPUT_UNIFORM, rows_block_shape, NULL, rows_block_launch, NULL,
};

REDUCE_ENTRY_POINTS(rows_shfl, rows_shfl_spec)
REDUCE_ENTRY_POINTS(rows_cg, rows_cg_spec)
REDUCE_ENTRY_POINTS(rows_warp, rows_warp_spec)
REDUCE_ENTRY_POINTS(rows_block, rows_block_spec)

#define ROWS_TYPES (DTYPE_BIT(DTYPE_F32) | DTYPE_BIT(DTYPE_BF16))
#define ROWS_CONTRACT "Requires: cols >= 1; block is a multiple of 32, 32..1024; the grid (rows x lanes per row / block, or rows) < 2^31"
#define ROWS_GROUP_SPACE(key) "block=64,128,256,512,1024 " key "=4,8,16,32"

static const struct variant rows_tile_variants[] = {
	{"rows.shfl", "row sum or max by groups of width lanes, __shfl_xor_sync with the width argument",
	 ROWS_CONTRACT "; width is 4, 8, 16 or 32", "op=sum|max width=4|8|16|32 block=32..1024",
	 ROWS_TYPES, 1, rows_shfl_check, rows_shfl_run, ROWS_GROUP_SPACE("width")},
	{"rows.cg", "row sum or max by tiled_partition<tile> tiles and cg::reduce",
	 ROWS_CONTRACT "; tile is 4, 8, 16 or 32", "op=sum|max tile=4|8|16|32 block=32..1024",
	 ROWS_TYPES, 1, rows_cg_check, rows_cg_run, ROWS_GROUP_SPACE("tile")},
	{"rows.warp", "row sum or max by one warp per row, full-warp shuffles", ROWS_CONTRACT,
	 "op=sum|max block=32..1024", ROWS_TYPES, 1, rows_warp_check, rows_warp_run,
	 "block=64,128,256,512,1024"},
	{"rows.block", "row sum or max by one block per row: cg warp reductions and a shared-memory stage",
	 ROWS_CONTRACT, "op=sum|max block=32..1024", ROWS_TYPES, 1, rows_block_check,
	 rows_block_run, "block=64,128,256,512,1024"},
};

extern "C" const struct variant_table rows_tile_table;
const struct variant_table rows_tile_table = {
	rows_tile_variants, sizeof rows_tile_variants / sizeof rows_tile_variants[0]};
