/*
 * softmax128.cu - softmax128() (softmax128.cuh) and its variant,
 * softmax.softmax128.
 *
 * A row of 128 bf16 is 256 bytes: 16 lanes each load one 16-byte vector of
 * 8 elements, so a warp holds two rows and a block of 256 threads sixteen.
 * The 16 lanes of a row are a cg::tiled_partition<16> tile; the row's max
 * and sum are cg::reduce over the tile, shuffles of width 16, no shared
 * memory and no barrier.  The row is read once and written once: the
 * kernel streams at close to the copy bandwidth.  A tile whose row lies
 * past the end returns at once, which is safe because a tile's
 * collectives name only its own lanes and rows are whole tiles.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "kernels/softmax/softmax128.cuh"
#include "kernels/softmax/softmax_driver.cuh"

namespace cg = cooperative_groups;

#define S128_COLS 128
#define S128_LANES 16 /* 8 bf16 (16 bytes) per lane */
#define S128_BLOCK 256
#define S128_ROWS_PER_BLOCK (S128_BLOCK / S128_LANES)
#define S128_LOG2E 1.44269504088896340736f

/*
 * Requires: blockDim.x == S128_BLOCK; at least ceil(rows / 16) blocks; in
 * and out 16-byte aligned (softmax128's contract is stricter).
 */
__global__ void __launch_bounds__(S128_BLOCK)
softmax128_kernel(__nv_bfloat16 *__restrict__ out, const __nv_bfloat16 *__restrict__ in, int rows)
{
	const cg::thread_block_tile<S128_LANES> tile = cg::tiled_partition<S128_LANES>(cg::this_thread_block());
	const int64_t row = (int64_t)blockIdx.x * S128_ROWS_PER_BLOCK + threadIdx.x / S128_LANES;

	if (row >= rows)
		return;
	/* This lane's 16 bytes: vector row * 16 + rank of the array. */
	const int64_t at = row * S128_LANES + tile.thread_rank();
	const uint4 raw = reinterpret_cast<const uint4 *>(in)[at];
	__nv_bfloat162 h[4];
	float x[8], m, s = 0.0f;

	memcpy(h, &raw, sizeof h);
#pragma unroll
	for (int j = 0; j < 4; j++) {
		const float2 f = __bfloat1622float2(h[j]);
		x[2 * j] = f.x;
		x[2 * j + 1] = f.y;
	}
	m = x[0];
#pragma unroll
	for (int j = 1; j < 8; j++)
		m = fmaxf(m, x[j]);
	m = cg::reduce(tile, m, cg::greater<float>());
#pragma unroll
	for (int j = 0; j < 8; j++) {
		x[j] = exp2f((x[j] - m) * S128_LOG2E);
		s += x[j];
	}
	s = cg::reduce(tile, s, cg::plus<float>());
	const float inv = 1.0f / s;
	uint4 packed;
#pragma unroll
	for (int j = 0; j < 4; j++)
		h[j] = __floats2bfloat162_rn(x[2 * j] * inv, x[2 * j + 1] * inv);
	memcpy(&packed, h, sizeof packed);
	reinterpret_cast<uint4 *>(out)[at] = packed;
}

void softmax128(__nv_bfloat16 *out, const __nv_bfloat16 *in, int rows)
{
	if (rows < 1)
		return;
	const unsigned grid = (unsigned)(((int64_t)rows + S128_ROWS_PER_BLOCK - 1) / S128_ROWS_PER_BLOCK);
	softmax128_kernel<<<grid, S128_BLOCK>>>(out, in, rows);
}

/* softmax128 launches on the legacy default stream, where l->stream (0)
 * and the timing events are. */
static cudaError_t s128_launch(const struct reduce_launch *l)
{
	softmax128((__nv_bfloat16 *)l->out, (const __nv_bfloat16 *)l->in, (int)(l->n / S128_COLS));
	return cudaSuccess;
}

/* The rules have checked cols and the row count; the block is fixed. */
static int s128_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	l->block = S128_BLOCK;
	return 0;
}

static const struct softmax_spec s128_spec = {
	.shape = s128_shape, .launch = s128_launch, .finite_only = 1,
};

/* No tunables: softmax128() fixes its launch. */
static const struct rule s128_rules[] = {
	{"cols == 128", "n rows of 128"},
	{"n <= 2147483647", "softmax128 takes an int row count"},
};

static const struct variant softmax128_variants[] = {
	{.name = "softmax.softmax128",
	 .summary = "softmax of rows of 128 bf16: a 16-lane tile per row, 16-byte loads and stores, cg::reduce",
	 .dtypes = DTYPE_BIT(DTYPE_BF16), .gpu = 1, .check = softmax_variant_check,
	 .run = softmax_variant_run, .spec = &s128_spec,
	 .requires = "pointers 256-byte aligned; inputs in (-32000, 32000)",
	 .params = {RULE_LIST(s128_rules)}, .refs = &softmax_refs},
};

extern "C" const struct variant_table softmax128_table;
const struct variant_table softmax128_table = {
	softmax128_variants, sizeof softmax128_variants / sizeof softmax128_variants[0]};
