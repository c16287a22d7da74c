/*
 * divergence_batched.cu - the batched warp reduction's documented trap
 * (CUB's WarpReduceBatched with SyncPhysicalWarp: "can cause a deadlock if
 * not all non-exited logical warps from the same physical warp
 * participate"), and its fix.
 *
 * The problem is warp.batched's (warp_batched.cuh): 8 batches per logical
 * warp of `width` lanes.  Only logical warps that have data take part,
 * behind if (active); the threads past them are the grid's tail.  When the
 * active logical warps fill whole physical warps (ceil(n / (8 width)) *
 * width a multiple of 32) every physical warp is all active or all idle;
 * otherwise the last active physical warp is split.
 *
 * Which form of the trap, and why: idle lanes that *exit* are harmless (a
 * *_sync operation does not wait for exited lanes, shared/ANCHORS.md), and
 * idle lanes that wait at __syncthreads are divergence.subwarp_sync, a case
 * of its own that hangs.  The case left is the warp-level one a batched
 * reduction with physical-warp synchronisation meets: the idle lanes are
 * merely elsewhere, at the __syncwarp(0xffffffff) after the branch, while
 * the active ones sit in full-mask __shfl_xor_sync naming them.  Every
 * non-exited lane named in a mask must execute the same *_sync with that
 * mask; here they execute a different one, which is undefined: it may hang
 * (each side waiting for the other) or complete with whatever the shuffles
 * read.  The suite expects `undefined` and records what happens; the case
 * runs alone under the watchdog.
 */
#include <stddef.h>
#include <stdio.h>

#include "kernels/warp/warp_batched.cuh"
#include "worker/reduce_driver.cuh"

#define TRAP_BATCH 8

/*
 * Logical warps with data (g < ceil(n / (8 width))) reduce their 8 batches
 * inside if (active); then every lane of the warp meets at
 * __syncwarp(FULL_MASK).  Ballot false: the shuffles name the full warp
 * (the trap).  Ballot true: they name the __ballot_sync mask of the active
 * lanes, taken while the warp is converged; logical warps are whole, so a
 * lane's partner (lane ^ o, o < width) is active too.
 * Requires: blockDim.x a multiple of 32; width a power of two, 1..32.
 * (Undefined behaviour by design when Ballot is false and a physical warp
 * is split.)
 */
template <bool Ballot>
__global__ void batched_branch_kernel(const float *in, float *out, int64_t n, int width)
{
	const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const int64_t g = t / width;
	const int j = (int)(t % width);
	const int64_t groups = (n + TRAP_BATCH * width - 1) / (TRAP_BATCH * width);
	const bool active = g < groups;
	const unsigned mask = Ballot ? __ballot_sync(FULL_MASK, active) : FULL_MASK;

	if (active) {
		float x[TRAP_BATCH];
		batched_load<op_sum<float>>(x, in, n, g, j, width);
		batched_reduce<op_sum<float>>(x, width, false, mask);
		batched_store_slots(x, out, n, g, j, width, false);
	}
	__syncwarp(FULL_MASK);
}

/* The family's parameters: the logical warp's width and threads per block. */
struct batched_params {
	int width, block;
};

/* Whole blocks over the grid's threads: the last block's tail is idle. */
template <bool Ballot>
static cudaError_t branch_launch(const struct reduce_launch *l)
{
	const int width = launch_params<batched_params>(l).width;
	const int64_t per_group = (int64_t)TRAP_BATCH * width;
	const int64_t threads = (l->n + per_group - 1) / per_group * width;

	batched_branch_kernel<Ballot><<<grid_for(threads, l->block), l->block, 0, l->stream>>>(
		(const float *)l->in, (float *)l->out, l->n, width);
	return cudaSuccess;
}

/* A segment of width elements per (logical warp, batch). */
static int branch_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	const struct batched_params &p = launch_params<batched_params>(l);

	l->block = p.block;
	l->seg_len = l->seg_stride = p.width;
	return 0;
}

static const struct reduce_spec fullmask_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = branch_shape,
	.launch = branch_launch<false>,
};
static const struct reduce_spec ballot_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = branch_shape,
	.launch = branch_launch<true>,
};

static const struct tunable branch_tunables[] = {
	{.name = "width", .doc = "logical warp width", .lo = 1, .hi = 32, .pow2 = 1, .def = "8",
	 .field = offsetof(struct batched_params, width)},
	{.name = "block", .doc = "threads per block", .lo = 32, .hi = 1024, .multiple_of = 32,
	 .def = "128", .field = offsetof(struct batched_params, block)},
};
static const struct rule branch_rules[] = {{"cols == 0", "a flat problem"}};
static const struct tunable_set branch_set = {
	TUNABLE_LIST(branch_tunables), RULE_LIST(branch_rules), .size = sizeof(struct batched_params),
};

static const struct variant divergence_batched_variants[] = {
	{.name = "divergence.batched_fullmask",
	 .summary = "8-batch transpose-reduce by active logical warps only, full-mask shuffles, then "
		    "__syncwarp(full) (undefined when a physical warp is split)",
	 .dtypes = DTYPE_BIT(DTYPE_F32), .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &fullmask_spec, .ops = OP_BIT(OP_SUM), .params = {.set = &branch_set}},
	{.name = "divergence.batched_ballot",
	 .summary = "8-batch transpose-reduce by active logical warps only, on the __ballot_sync mask of the "
		    "active lanes, then __syncwarp(full)",
	 .dtypes = DTYPE_BIT(DTYPE_F32), .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &ballot_spec, .ops = OP_BIT(OP_SUM), .params = {.set = &branch_set}},
};

extern "C" const struct variant_table divergence_batched_table;
const struct variant_table divergence_batched_table = {
	divergence_batched_variants,
	sizeof divergence_batched_variants / sizeof divergence_batched_variants[0]};
