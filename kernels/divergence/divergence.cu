/*
 * divergence.cu - the traps: kernels whose fate depends on the rules of
 * warp-synchronous operations under divergence (shared/ANCHORS.md).  Some
 * are correct, some hang, some are undefined and their suite cases only
 * record what happened.  A hanging case is killed by the runner's watchdog;
 * nothing here tries to detect a hang.
 *
 * Row problem (subwarp_*): n rows of cols=8 floats, row-major; 8-lane
 * group g (global thread / 8) reduces row g to its max, written to out[g].
 * The grid is ceil(8 n / block) blocks, so threads past the last row are
 * idle: when n is a multiple of 4 the idle threads fill whole warps, else
 * one warp is partly idle (some of its groups have rows, some not).  That
 * partly idle warp is what separates the safe patterns from the hang.
 *
 * The other variants are flat (cols=0, n elements), one thread per element,
 * and every kernel takes block=B threads per block (a multiple of 32).
 */
#include <stddef.h>
#include <stdio.h>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "kernels/collectives.cuh"
#include "worker/cuda_check.cuh"
#include "worker/reduce_driver.cuh"
#include "worker/reference.h"

namespace cg = cooperative_groups;

#define ROW_COLS 8

/* The family's parameters: threads per block (every variant), the active
 * lanes or threads k (activemask, syncthreads_in_if) and the grid choice
 * (coop_grid: 0 fit, 1 too_large). */
struct divergence_params {
	int block, k, grid;
};

/* Max over the 8 lanes of a row group by a butterfly; `mask` names the
 * lanes taking part. */
static __device__ __forceinline__ float group_max(float v, unsigned mask)
{
	for (int off = ROW_COLS / 2; off > 0; off /= 2)
		v = fmaxf(v, __shfl_xor_sync(mask, v, off, ROW_COLS));
	return v;
}

/*
 * Idle groups return first, then the full-mask loop.  Correct: a *_sync
 * operation waits only for non-exited lanes of its mask.
 * Requires: blockDim.x is a multiple of 32; cols == 8.
 */
__global__ void subwarp_exit_kernel(const float *in, float *out, int64_t rows)
{
	const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const int64_t row = t / ROW_COLS;

	if (row >= rows)
		return;
	const float v = group_max(in[t], FULL_MASK);
	if (t % ROW_COLS == 0)
		out[row] = v;
}

/*
 * The same loop inside if (row < rows), then a barrier (standing for a
 * later block-wide stage).  Hangs when a warp is partly idle: its idle lanes
 * wait at __syncthreads, named in the full mask but never reaching the
 * shuffle its active lanes wait in.  Whole idle warps are harmless.
 * Requires: blockDim.x is a multiple of 32; cols == 8.  (Deliberately broken.)
 */
__global__ void subwarp_sync_kernel(const float *in, float *out, int64_t rows)
{
	const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const int64_t row = t / ROW_COLS;

	if (row < rows) {
		const float v = group_max(in[t], FULL_MASK);
		if (t % ROW_COLS == 0)
			out[row] = v;
	}
	__syncthreads();
}

/*
 * The fix: the whole warp votes the mask of the active lanes before
 * diverging, and the loop names only them.  Row groups are whole 8-lane
 * groups, so every lane a shuffle reads is active.
 * Requires: blockDim.x is a multiple of 32; cols == 8.
 */
__global__ void subwarp_ballot_kernel(const float *in, float *out, int64_t rows)
{
	const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const int64_t row = t / ROW_COLS;
	const unsigned mask = __ballot_sync(FULL_MASK, row < rows);

	if (row < rows) {
		const float v = group_max(in[t], mask);
		if (t % ROW_COLS == 0)
			out[row] = v;
	}
	__syncthreads();
}

/*
 * The other fix: an 8-thread tile's collectives name only the tile's lanes,
 * and a tile is all active or all idle.
 * Requires: blockDim.x is a multiple of 32; cols == 8.
 */
__global__ void subwarp_cg_kernel(const float *in, float *out, int64_t rows)
{
	const cg::thread_block_tile<ROW_COLS> tile = cg::tiled_partition<ROW_COLS>(cg::this_thread_block());
	const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const int64_t row = t / ROW_COLS;

	if (row < rows) {
		const float v = cg::reduce(tile, in[t], cg::greater<float>());
		if (tile.thread_rank() == 0)
			out[row] = v;
	}
	__syncthreads();
}

/*
 * Lanes 0-15 and 16-31 run two different __shfl_sync(FULL_MASK, ...) in
 * separate branches: each names lanes that never execute it, which is
 * undefined.  A converged warp would give every lane its neighbour's
 * (lane ^ 1) value.  The upper half shuffles -v and negates back, exact,
 * so that the compiler cannot merge the branches into one shuffle.
 * Requires: blockDim.x is a multiple of 32.  (Undefined behaviour by design.)
 */
__global__ void shfl_mismatch_kernel(const float *in, float *out, int64_t n)
{
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const int lane = threadIdx.x % 32;
	const float v = i < n ? in[i] : 0.0f;
	float got;

	if (lane < 16)
		got = __shfl_sync(FULL_MASK, v, lane ^ 1);
	else
		got = -__shfl_sync(FULL_MASK, -v, lane ^ 1);
	if (i < n)
		out[i] = got;
}

/*
 * Inside if (lane < k), __activemask() as the shuffle mask.  It says which
 * lanes are converged at that moment, not which will take part, so it may
 * miss some of lanes 0..k-1; it usually works.  A converged warp gives lane
 * 0 the sum of lanes 0..k-1 (k a power of two keeps the butterfly among
 * them).
 * Requires: blockDim.x is a multiple of 32; k is a power of two, 1..32.
 * (Undefined behaviour by design.)
 */
__global__ void activemask_kernel(const float *in, float *out, int64_t n, int k)
{
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const int lane = threadIdx.x % 32;
	float v = i < n ? in[i] : 0.0f;

	if (lane < k) {
		const unsigned mask = __activemask();
		for (int off = k / 2; off > 0; off /= 2)
			v += __shfl_xor_sync(mask, v, off);
		if (lane == 0 && i < n)
			out[i / 32] = v;
	}
}

/*
 * Threads below k stage their value in shared memory, __syncthreads(), and
 * take their right neighbour's (thread (t + 1) % k); then __syncwarp().
 * Since Volta a barrier waits for every non-exited thread, not one per
 * warp: when k splits a warp, its lanes >= k wait in __syncwarp for its
 * lanes < k, which wait at the barrier for them.  Hangs.
 * The staging is what makes the branch real: a bare
 * `if (threadIdx.x < k) __syncthreads();` is compiled (bar.sync is .aligned,
 * so ptxas may take the condition as warp-uniform) into a predicated BAR
 * that the whole warp executes, and that completes on sm_90.
 * If it completes, each thread writes its value, checked all the same.
 * Requires: blockDim.x is a multiple of 32, 32..1024; 1 <= k <= blockDim.x.
 * (Deliberately broken when k % 32 != 0.)
 */
__global__ void syncthreads_in_if_kernel(const float *in, float *out, int64_t n, int k)
{
	__shared__ float stage[1024];
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	float v = i < n ? in[i] : 0.0f;

	if (threadIdx.x < (unsigned)k) {
		stage[threadIdx.x] = v;
		__syncthreads();
		v = stage[(threadIdx.x + 1) % (unsigned)k];
	}
	__syncwarp();
	if (i < n)
		out[i] = v;
}

/*
 * Single-kernel grid reduction: grid-stride sums, a block reduction, one
 * partial per block, grid.sync(), then block 0 sums the partials.
 * Requires: launched by cudaLaunchCooperativeKernel with every block
 * co-resident; blockDim.x is a multiple of 32, 32..1024; partials holds
 * gridDim.x floats.
 */
__global__ void coop_grid_kernel(const float *in, float *out, float *partials, int64_t n)
{
	const cg::grid_group grid = cg::this_grid();
	float v = 0.0f;

	for (int64_t i = (int64_t)grid.thread_rank(); i < n; i += (int64_t)grid.num_threads())
		v += in[i];
	v = block_reduce_two_stage<op_sum<float>, warp_by_shfl>(v);
	if (threadIdx.x == 0)
		partials[blockIdx.x] = v;
	grid.sync(); /* also the barrier block_reduce_two_stage needs before reuse */
	if (blockIdx.x == 0) {
		float s = 0.0f;
		for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x)
			s += partials[b];
		s = block_reduce_two_stage<op_sum<float>, warp_by_shfl>(s);
		if (threadIdx.x == 0)
			out[0] = s;
	}
}

/*
 * redux.sync.max.f32 exists on the sm_100 family only (sm_100a/f,
 * sm_103a/f), and ptxas rejects it elsewhere, so the instruction is
 * compiled only there; redux_f32_built tells the host which image loaded.
 */
#if defined(__CUDA_ARCH_FAMILY_SPECIFIC__) && \
	(__CUDA_ARCH_FAMILY_SPECIFIC__ == 1000 || __CUDA_ARCH_FAMILY_SPECIFIC__ == 1030)
#define HAVE_REDUX_F32 1
#else
#define HAVE_REDUX_F32 0
#endif

__device__ int redux_f32_built = HAVE_REDUX_F32;

/*
 * Warp max of floats by one redux.sync.max.f32 (+0 > -0); lane 0 writes.
 * Requires: blockDim.x is a multiple of 32; a build for sm_100a/f or
 * sm_103a/f (the suite: requires=sm>=100).
 */
__global__ void redux_f32_max_kernel(const float *in, float *out, int64_t n)
{
#if HAVE_REDUX_F32
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const float v = i < n ? in[i] : -__int_as_float(0x7f800000);
	float m;

	asm volatile("redux.sync.max.f32 %0, %1, %2;" : "=f"(m) : "f"(v), "r"(FULL_MASK));
	if (i < n && threadIdx.x % 32 == 0)
		out[i / 32] = m;
#endif
}

/* Launchers: one thread per element, and for the row kernels per row
 * element (their last argument is the row count). */
template <void (*K)(const float *, float *, int64_t)>
static cudaError_t row_launch(const struct reduce_launch *l)
{
	K<<<grid_for(l->n, l->block), l->block, 0, l->stream>>>((const float *)l->in, (float *)l->out,
								  l->n / ROW_COLS);
	return cudaSuccess;
}

template <void (*K)(const float *, float *, int64_t)>
static cudaError_t flat_launch(const struct reduce_launch *l)
{
	K<<<grid_for(l->n, l->block), l->block, 0, l->stream>>>((const float *)l->in, (float *)l->out,
								  l->n);
	return cudaSuccess;
}

template <void (*K)(const float *, float *, int64_t, int)>
static cudaError_t flat_k_launch(const struct reduce_launch *l)
{
	K<<<grid_for(l->n, l->block), l->block, 0, l->stream>>>((const float *)l->in, (float *)l->out,
								  l->n, launch_params<divergence_params>(l).k);
	return cudaSuccess;
}

static cudaError_t coop_launch(const struct reduce_launch *l)
{
	const float *in = (const float *)l->in;
	float *out = (float *)l->out, *partials = (float *)l->scratch;
	int64_t n = l->n;
	void *args[] = {(void *)&in, (void *)&out, (void *)&partials, (void *)&n};

	return cudaLaunchCooperativeKernel(coop_grid_kernel, dim3((unsigned)l->grid),
					   dim3((unsigned)l->block), args, 0, l->stream);
}

/* The grid that fits co-resident (occupancy x SMs), or SMs more blocks for
 * grid=too_large, which the launch must refuse. */
static int coop_configure(struct reduce_launch *l, struct case_result *r)
{
	int dev = 0, coop = 0, sms = 0, per_sm = 0;
	cudaError_t e;

	if ((e = cudaGetDevice(&dev)) != cudaSuccess ||
	    (e = cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev)) != cudaSuccess ||
	    (e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess ||
	    (e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, coop_grid_kernel, l->block, 0)) !=
		    cudaSuccess)
		return cuda_call_failed(r, "occupancy", e);
	if (!coop) {
		case_result_set(r, OUTCOME_ERROR, "device %d has no cooperative launch", dev);
		return -1;
	}
	l->grid = per_sm * sms + (launch_params<divergence_params>(l).grid ? sms : 0);
	l->scratch_bytes = (size_t)l->grid * sizeof(float);
	return 0;
}

static int redux_f32_configure(struct reduce_launch *, struct case_result *r)
{
	int built = 0;
	const cudaError_t e = cudaMemcpyFromSymbol(&built, redux_f32_built, sizeof built);

	if (e != cudaSuccess)
		return cuda_call_failed(r, "redux_f32_built", e);
	if (!built) {
		case_result_set(r, OUTCOME_ERROR, "not built for sm_100a (redux.sync.max.f32 needs an "
						  "sm_100a/f or sm_103a/f image)");
		return -1;
	}
	return 0;
}

/* The bound block; the rules have checked cols (flat, or rows of 8). */
static int row_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	l->block = launch_params<divergence_params>(l).block;
	l->seg_len = l->seg_stride = ROW_COLS;
	return 0;
}

/* Per-element outputs: the seg of 1 is nominal (mismatch_expect decides). */
static int mismatch_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	l->block = launch_params<divergence_params>(l).block;
	l->seg_len = l->seg_stride = 1;
	return 0;
}

/* What a converged warp computes: lane ^ 1's value (0 past n). */
static void mismatch_expect(const struct reduce_launch *l, const void *in, double *ref, double *tol)
{
	for (int64_t i = 0; i < l->n; i++) {
		ref[i] = (i ^ 1) < l->n ? reference_load(l->dtype, in, (size_t)(i ^ 1)) : 0.0;
		tol[i] = 0.0;
	}
}

/* The first k lanes of each warp. */
static int activemask_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	l->block = launch_params<divergence_params>(l).block;
	l->seg_len = launch_params<divergence_params>(l).k;
	l->seg_stride = 32;
	return 0;
}

static int sync_if_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	l->block = launch_params<divergence_params>(l).block;
	l->seg_len = l->seg_stride = 1; /* per element, by sync_if_expect */
	return 0;
}

/* Threads below k of each block hold their right neighbour's value (0
 * past n), the others their own. */
static void sync_if_expect(const struct reduce_launch *l, const void *in, double *ref, double *tol)
{
	for (int64_t i = 0; i < l->n; i++) {
		const int64_t t = i % l->block;
		const int k = launch_params<divergence_params>(l).k;
		const int64_t src = t < k ? i - t + (t + 1) % k : i;

		ref[i] = src < l->n ? reference_load(l->dtype, in, (size_t)src) : 0.0;
		tol[i] = 0.0;
	}
}

/* One output, the sum of all n; the grid choice is read by coop_configure. */
static int coop_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	l->block = launch_params<divergence_params>(l).block;
	l->seg_len = l->seg_stride = l->n;
	return 0;
}

static int warp_max_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	l->block = launch_params<divergence_params>(l).block;
	l->seg_len = l->seg_stride = 32;
	return 0;
}

#define MAX_ONLY OP_BIT(OP_MAX)
#define SUM_ONLY OP_BIT(OP_SUM)

static const struct reduce_spec exit_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = row_shape,
	.launch = row_launch<subwarp_exit_kernel>,
};
static const struct reduce_spec sync_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = row_shape,
	.launch = row_launch<subwarp_sync_kernel>,
};
static const struct reduce_spec ballot_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = row_shape,
	.launch = row_launch<subwarp_ballot_kernel>,
};
static const struct reduce_spec cg_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = row_shape,
	.launch = row_launch<subwarp_cg_kernel>,
};
static const struct reduce_spec mismatch_spec = {
	.layout = REDUCE_PER_ELEMENT, .input = INPUT_UNIFORM, .shape = mismatch_shape,
	.launch = flat_launch<shfl_mismatch_kernel>, .expect = mismatch_expect,
};
static const struct reduce_spec activemask_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = activemask_shape,
	.launch = flat_k_launch<activemask_kernel>,
};
static const struct reduce_spec sync_if_spec = {
	.layout = REDUCE_PER_ELEMENT, .input = INPUT_UNIFORM, .shape = sync_if_shape,
	.launch = flat_k_launch<syncthreads_in_if_kernel>, .expect = sync_if_expect,
};
static const struct reduce_spec coop_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = coop_shape,
	.configure = coop_configure, .launch = coop_launch,
};
static const struct reduce_spec redux_f32_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = warp_max_shape,
	.configure = redux_f32_configure, .launch = flat_launch<redux_f32_max_kernel>,
};

#define F32 DTYPE_BIT(DTYPE_F32)

/* Every kernel takes whole warps; the row kernels rows of 8, the others a
 * flat array. */
#define DIVERGENCE_TUNABLE_BLOCK                                                                  \
	{.name = "block", .doc = "threads per block", .lo = 32, .hi = 1024, .multiple_of = 32,      \
	 .def = "128", .field = offsetof(struct divergence_params, block)}
static const struct tunable block_tunables[] = {DIVERGENCE_TUNABLE_BLOCK};
static const struct rule rows_rules[] = {{"cols == 8", "n rows of 8"}};
static const struct rule flat_rules[] = {{"cols == 0", "a flat array"}};
static const struct tunable_set rows_set = {
	TUNABLE_LIST(block_tunables), RULE_LIST(rows_rules), .size = sizeof(struct divergence_params),
};
static const struct tunable_set flat_set = {
	TUNABLE_LIST(block_tunables), RULE_LIST(flat_rules), .size = sizeof(struct divergence_params),
};
/* k lanes of each warp take the branch; shuffles need a power of two. */
static const struct tunable activemask_tunables[] = {
	{.name = "k", .doc = "lanes inside the branch", .lo = 1, .hi = 32, .pow2 = 1, .def = "16",
	 .field = offsetof(struct divergence_params, k)},
	DIVERGENCE_TUNABLE_BLOCK,
};
static const struct tunable_set activemask_set = {
	TUNABLE_LIST(activemask_tunables), RULE_LIST(flat_rules), .size = sizeof(struct divergence_params),
};
/* The first k threads of each block reach the barrier. */
static const struct tunable sync_if_tunables[] = {
	{.name = "k", .doc = "threads inside the branch", .lo = 1, .hi = 1024, .def = "40",
	 .field = offsetof(struct divergence_params, k)},
	DIVERGENCE_TUNABLE_BLOCK,
};
static const struct rule sync_if_rules[] = {
	{"cols == 0", "a flat array"},
	{"k <= block", "threads of one block"},
};
static const struct tunable_set sync_if_set = {
	TUNABLE_LIST(sync_if_tunables), RULE_LIST(sync_if_rules), .size = sizeof(struct divergence_params),
};
/* fit: as many blocks as are co-resident; too_large: one more per SM, which
 * the cooperative launch must refuse. */
static const struct tunable coop_tunables[] = {
	{.name = "grid", .doc = "a grid that fits, or one too large", .choices = "fit|too_large",
	 .def = "fit", .field = offsetof(struct divergence_params, grid)},
	DIVERGENCE_TUNABLE_BLOCK,
};
static const struct tunable_set coop_set = {
	TUNABLE_LIST(coop_tunables), RULE_LIST(flat_rules), .size = sizeof(struct divergence_params),
};

static const struct variant divergence_variants[] = {
	{.name = "divergence.subwarp_exit",
	 .summary = "row max by 8-lane full-mask shuffles after idle groups return", .dtypes = F32, .gpu = 1,
	 .check = reduce_variant_check, .run = reduce_variant_run, .spec = &exit_spec, .ops = MAX_ONLY,
	 .params = {.set = &rows_set}},
	{.name = "divergence.subwarp_sync",
	 .summary = "row max by 8-lane full-mask shuffles inside if (row < rows), then __syncthreads (hangs on a partly idle warp)",
	 .dtypes = F32, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &sync_spec, .ops = MAX_ONLY, .params = {.set = &rows_set}},
	{.name = "divergence.subwarp_ballot",
	 .summary = "row max by 8-lane shuffles on the __ballot_sync mask of the active lanes, then __syncthreads",
	 .dtypes = F32, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &ballot_spec, .ops = MAX_ONLY, .params = {.set = &rows_set}},
	{.name = "divergence.subwarp_cg",
	 .summary = "row max by cg::reduce on 8-thread tiles, then __syncthreads", .dtypes = F32, .gpu = 1,
	 .check = reduce_variant_check, .run = reduce_variant_run, .spec = &cg_spec, .ops = MAX_ONLY,
	 .params = {.set = &rows_set}},
	{.name = "divergence.shfl_mismatch",
	 .summary = "lanes 0-15 and 16-31 call full-mask __shfl_sync in different branches (undefined)",
	 .dtypes = F32, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &mismatch_spec, .ops = SUM_ONLY, .params = {.set = &flat_set}},
	{.name = "divergence.activemask",
	 .summary = "__activemask() as the shuffle mask inside if (lane < k) (undefined)", .dtypes = F32,
	 .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run, .spec = &activemask_spec,
	 .ops = SUM_ONLY, .params = {.set = &activemask_set}},
	{.name = "divergence.syncthreads_in_if",
	 .summary = "shared-memory stage with __syncthreads under if (threadIdx.x < k), then __syncwarp (hangs when k splits a warp)",
	 .dtypes = F32, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &sync_if_spec, .ops = SUM_ONLY, .params = {.set = &sync_if_set}},
	{.name = "divergence.coop_grid",
	 .summary = "one-kernel grid sum with grid.sync(), cooperative launch of a grid that fits or is too large",
	 .dtypes = F32, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &coop_spec, .ops = SUM_ONLY, .requires = "cooperative launch support (checked at launch)",
	 .params = {.set = &coop_set}},
	{.name = "divergence.redux_f32_max",
	 .summary = "warp max by redux.sync.max.f32 (sm_100a family only)", .dtypes = F32, .gpu = 1,
	 .check = reduce_variant_check, .run = reduce_variant_run, .spec = &redux_f32_spec, .ops = MAX_ONLY,
	 .requires = "an sm_100a/f or sm_103a/f build (suite: requires=sm>=100; checked at launch)",
	 .params = {.set = &flat_set}},
};

extern "C" const struct variant_table divergence_table;
const struct variant_table divergence_table = {
	divergence_variants, sizeof divergence_variants / sizeof divergence_variants[0]};
