/*
 * rows_seed.cu - the seed's N x 64 float4 row max in its three forms.
 *
 * n rows of 64 floats (cols=64): 16 lanes per row, each loading one float4
 * (16 bytes), so a warp holds two rows and a block of B threads B / 16.
 * The grid covers 16 n threads in whole warps: when n is odd the last busy
 * warp has one row in lanes 0-15 and nothing for lanes 16-31.  Every form
 * ends with __syncthreads(), standing for the block-wide stage that
 * follows the row max in a real kernel (a softmax's normalisation).
 *
 *   rows.seed_naive   if (row < rows) { full-mask width-16 shuffles }, then
 *                     the barrier.  On the partly idle warp, lanes 16-31
 *                     wait at the barrier while lanes 0-15 wait in a
 *                     shuffle that names them: it hangs (shared/ANCHORS.md,
 *                     the same trap as divergence.subwarp_sync).  With n
 *                     even every warp is wholly busy or wholly idle, and it
 *                     is correct.
 *   rows.seed_ballot  the mask of busy lanes voted by the whole warp with
 *                     __ballot_sync before the branch; rows are whole
 *                     16-lane halves, so a shuffle only reads busy lanes.
 *   rows.seed_cg      cg::tiled_partition<16> tiles and cg::reduce: a
 *                     tile's collectives name only its own 16 lanes.
 */
#include <stddef.h>
#include <stdio.h>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "kernels/collectives.cuh"
#include "worker/reduce_driver.cuh"

namespace cg = cooperative_groups;

#define SEED_COLS 64
#define SEED_LANES 16 /* SEED_COLS / 4: one float4 per lane */

static __device__ __forceinline__ float float4_max(float4 x)
{
	return fmaxf(fmaxf(x.x, x.y), fmaxf(x.z, x.w));
}

/* Max over a row's 16 lanes by a butterfly on `mask`. */
static __device__ __forceinline__ float row16_max(float v, unsigned mask)
{
	for (int off = SEED_LANES / 2; off > 0; off /= 2)
		v = fmaxf(v, __shfl_xor_sync(mask, v, off, SEED_LANES));
	return v;
}

/*
 * The shuffle forms: with Ballot the mask of busy lanes voted by the whole
 * warp before the branch, without it FULL_MASK (the naive form).
 * Requires: blockDim.x a multiple of 32; in 16-byte aligned; cols == 64.
 * (Without Ballot deliberately broken: hangs when a warp is partly idle.)
 */
template <bool Ballot>
__global__ void seed_shfl_kernel(const float4 *__restrict__ in, float *__restrict__ out, int64_t rows)
{
	const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const int64_t row = t / SEED_LANES;
	const unsigned mask = Ballot ? __ballot_sync(FULL_MASK, row < rows) : FULL_MASK;

	if (row < rows) {
		const float v = row16_max(float4_max(in[t]), mask);
		if (t % SEED_LANES == 0)
			out[row] = v;
	}
	__syncthreads();
}

/* Requires: blockDim.x a multiple of 32; in 16-byte aligned; cols == 64. */
__global__ void seed_cg_kernel(const float4 *__restrict__ in, float *__restrict__ out, int64_t rows)
{
	const cg::thread_block_tile<SEED_LANES> tile = cg::tiled_partition<SEED_LANES>(cg::this_thread_block());
	const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const int64_t row = t / SEED_LANES;

	if (row < rows) {
		const float v = cg::reduce(tile, float4_max(in[t]), cg::greater<float>());
		if (tile.thread_rank() == 0)
			out[row] = v;
	}
	__syncthreads();
}

template <void (*K)(const float4 *, float *, int64_t)>
static cudaError_t seed_launch(const struct reduce_launch *l)
{
	const int64_t rows = l->n_out;

	K<<<grid_for(rows * SEED_LANES, l->block), l->block, 0, l->stream>>>((const float4 *)l->in,
									   (float *)l->out, rows);
	return cudaSuccess;
}

/* The family's parameters: threads per block. */
struct seed_params {
	int block;
};

/* One segment per row of 64 (the rules have checked cols and the grid). */
static int seed_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	l->block = launch_params<seed_params>(l).block;
	l->seg_len = l->seg_stride = SEED_COLS;
	return 0;
}

#define SEED_MAX OP_BIT(OP_MAX)

static const struct reduce_spec seed_naive_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = seed_shape,
	.launch = seed_launch<seed_shfl_kernel<false>>,
};
static const struct reduce_spec seed_ballot_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = seed_shape,
	.launch = seed_launch<seed_shfl_kernel<true>>,
};
static const struct reduce_spec seed_cg_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = seed_shape,
	.launch = seed_launch<seed_cg_kernel>,
};

#define F32 DTYPE_BIT(DTYPE_F32)

static const struct tunable seed_tunables[] = {
	{.name = "block", .doc = "threads per block", .lo = 32, .hi = 1024, .multiple_of = 32,
	 .def = "128", .field = offsetof(struct seed_params, block)},
};
/* SEED_COLS and SEED_LANES, as the kernels have them. */
static const struct rule seed_rules[] = {
	{"cols == 64", "n rows of 64 floats"},
	{"(n * 16 + block - 1) / block <= 2147483647", "16 lanes per row; the grid fits gridDim.x"},
};
static const struct tunable_set seed_set = {
	TUNABLE_LIST(seed_tunables), RULE_LIST(seed_rules), .size = sizeof(struct seed_params),
};

static const struct variant rows_seed_variants[] = {
	{.name = "rows.seed_naive",
	 .summary = "N x 64 float4 row max: full-mask width-16 shuffles inside if (row < rows), then __syncthreads (hangs on a partly idle warp)",
	 .dtypes = F32, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &seed_naive_spec, .ops = SEED_MAX, .params = {.set = &seed_set}},
	{.name = "rows.seed_ballot",
	 .summary = "N x 64 float4 row max: width-16 shuffles on the __ballot_sync mask of the busy lanes, then __syncthreads",
	 .dtypes = F32, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &seed_ballot_spec, .ops = SEED_MAX, .params = {.set = &seed_set}},
	{.name = "rows.seed_cg",
	 .summary = "N x 64 float4 row max: cg::reduce on tiled_partition<16> tiles, then __syncthreads",
	 .dtypes = F32, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &seed_cg_spec, .ops = SEED_MAX, .params = {.set = &seed_set}},
};

extern "C" const struct variant_table rows_seed_table;
const struct variant_table rows_seed_table = {
	rows_seed_variants, sizeof rows_seed_variants / sizeof rows_seed_variants[0]};
