/*
 * warp_tile.cu - what cooperative-groups tiles report about themselves.
 *
 * Not a reduction: each thread writes its tile's thread_rank(),
 * meta_group_rank() and meta_group_size(), for tiles of T = 4..32 threads
 * made from the thread block directly ("block") or from a 32-thread tile of
 * it ("warp").  The numbers are relative to the tile's parent, so the two
 * constructions must differ exactly as expected below.  Blocks are
 * multiples of 32 threads, so every tile is full and there is no question
 * of rounding meta_group_size().  A 32-thread tile of a 32-thread tile is
 * refused at compile time by cooperative_groups (static_assert), so nest=warp
 * takes tiles of 4, 8 and 16 only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cooperative_groups.h>

#include "worker/check.h"
#include "worker/reduce_driver.cuh"

enum tile_parent { PARENT_BLOCK, PARENT_WARP };

/* The variant's parameters, bound from the declared tunables: the tile
 * size, the tile's parent (enum tile_parent) and threads per block. */
struct tile_params {
	int tile, nest, block;
};

template <class Tile>
static __device__ __forceinline__ void write_meta(const Tile &t, int *out, int64_t i, int64_t n)
{
	if (i < n) {
		out[3 * i] = (int)t.thread_rank();
		out[3 * i + 1] = (int)t.meta_group_rank();
		out[3 * i + 2] = (int)t.meta_group_size();
	}
}

/*
 * Writes (thread_rank, meta_group_rank, meta_group_size) of the calling
 * thread's T-thread tile to out[3 i .. 3 i + 2].
 * Requires: blockDim.x is a multiple of 32, 32..1024; T divides 32, and
 * T < 32 when the parent is a warp tile.
 */
template <unsigned T>
__global__ void tile_meta_kernel(int *out, int64_t n, int parent)
{
	namespace cg = cooperative_groups;
	const cg::thread_block b = cg::this_thread_block();
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;

	if constexpr (T < 32) {
		if (parent == PARENT_WARP) {
			write_meta(cg::tiled_partition<T>(cg::tiled_partition<32>(b)), out, i, n);
			return;
		}
	}
	write_meta(cg::tiled_partition<T>(b), out, i, n);
}

template <unsigned T>
static void tile_meta_start(const struct reduce_launch *l)
{
	tile_meta_kernel<T><<<grid_for(l->n, l->block), l->block, 0, l->stream>>>(
		(int *)l->out, l->n, launch_params<tile_params>(l).nest);
}

static cudaError_t tile_meta_launch(const struct reduce_launch *l)
{
	switch (launch_params<tile_params>(l).tile) {
	case 4: tile_meta_start<4>(l); break;
	case 8: tile_meta_start<8>(l); break;
	case 16: tile_meta_start<16>(l); break;
	case 32: tile_meta_start<32>(l); break;
	default: return cudaErrorInvalidValue;
	}
	return cudaSuccess;
}

/* Not run by the reduce driver: the case prepared as the driver does
 * (launch_prepare), the block taken from the bound tunables; the output is
 * three ints per thread. */
static int tile_meta_shape(const struct case_args *a, struct reduce_launch *l, char *msg, size_t len)
{
	if (launch_prepare(a, l, msg, len) < 0)
		return -1;
	l->block = launch_params<tile_params>(l).block;
	l->n_out = 3 * l->n;
	return 0;
}

static int tile_meta_check(const struct case_args *a, char *msg, size_t len)
{
	struct reduce_launch l;

	return tile_meta_shape(a, &l, msg, len);
}

static void tile_meta_run(const struct case_args *a, struct case_result *r)
{
	struct reduce_launch l;
	char msg[RESULT_MESSAGE_MAX];
	int *got = NULL, *want = NULL;

	r->err_norm = -1;
	if (tile_meta_shape(a, &l, msg, sizeof msg) < 0) {
		case_result_set(r, OUTCOME_INVALID, "%s", msg);
		return;
	}
	const struct tile_params &p = launch_params<tile_params>(&l);
	got = (int *)malloc((size_t)l.n_out * sizeof *got);
	want = (int *)malloc((size_t)l.n_out * sizeof *want);
	if (!got || !want) {
		case_result_set(r, OUTCOME_ERROR, "out of host memory");
		goto done;
	}
	if (reduce_execute(&l, tile_meta_launch, a->variant, NULL, got, r) < 0)
		goto done;

	for (int64_t i = 0; i < l.n; i++) {
		/* From the block: ranks within the block; from a warp: within it. */
		const int within = p.nest == PARENT_WARP ? (int)(i % l.block) % 32 : (int)(i % l.block);
		const int parent_size = p.nest == PARENT_WARP ? 32 : l.block;

		want[3 * i] = within % p.tile;
		want[3 * i + 1] = within / p.tile;
		want[3 * i + 2] = parent_size / p.tile;
	}
	check_ints(got, want, (size_t)l.n_out, r);
done:
	free(got);
	free(want);
}

/* nest is bound as its index: 0 block, 1 warp (enum tile_parent). */
static const struct tunable tile_tunables[] = {
	{.name = "tile", .doc = "threads per tile", .values = "4|8|16|32", .def = "32",
	 .field = offsetof(struct tile_params, tile)},
	{.name = "nest", .doc = "the tile's parent", .choices = "block|warp", .def = "block",
	 .field = offsetof(struct tile_params, nest)},
	{.name = "block", .doc = "threads per block", .lo = 32, .hi = 1024, .multiple_of = 32, .def = "256",
	 .field = offsetof(struct tile_params, block)},
};
static const struct rule tile_rules[] = {
	{"nest == 0 || tile < 32", "nest=warp: a tile is smaller than its parent warp"},
};
static const struct tunable_set tile_set = {
	TUNABLE_LIST(tile_tunables), RULE_LIST(tile_rules), .size = sizeof(struct tile_params),
};

static const struct variant warp_tile_variants[] = {
	{.name = "warp.tile_meta",
	 .summary = "thread_rank, meta_group_rank and meta_group_size of tiled_partition<T> of a block or of a warp tile",
	 .dtypes = DTYPE_BIT(DTYPE_I32), .gpu = 1, .check = tile_meta_check, .run = tile_meta_run,
	 .params = {.set = &tile_set}},
};

extern "C" const struct variant_table warp_tile_table;
const struct variant_table warp_tile_table = {
	warp_tile_variants, sizeof warp_tile_variants / sizeof warp_tile_variants[0]};
