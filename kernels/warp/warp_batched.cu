/*
 * warp_batched.cu - batched warp reductions: B batches per logical warp of
 * `width` lanes, each lane holding one item of every batch
 * (warp_batched.cuh has the input layout and where results land).
 *
 *   warp.batched        our transpose-reduce (about B - 1 shuffles for
 *                       B == width), results striped or blocked;
 *   warp.batched_naive  B separate butterflies (B * log2(width) shuffles),
 *                       the baseline it is timed against;
 *   warp.batched_cub    cub::WarpReduceBatched where the toolkit has it
 *                       (configure defines HAVE_CUB_WARP_REDUCE_BATCHED),
 *                       else every case is SKIP with the reason.
 *
 * Every variant writes out[g * B + b], the reduction of segment g * B + b
 * (width elements), so the driver's segment reference checks all three the
 * same way, whatever lane held the result.  Logical warps never straddle a
 * physical warp (width divides 32, blocks are whole warps) and threads past
 * the data load the identity and take part, so full-mask shuffles are
 * always converged.
 */
#ifdef HAVE_CONFIG_H
#include "config.h" /* HAVE_CUB_WARP_REDUCE_BATCHED */
#endif

#include <stdio.h>

#include <type_traits>

#include "kernels/warp/warp_batched.cuh"
#include "worker/reduce_driver.cuh"

#ifdef HAVE_CUB_WARP_REDUCE_BATCHED
#include <cub/warp/warp_reduce_batched.cuh>
#endif

#define CUB_MISSING "cub::WarpReduceBatched: not in this toolkit"

enum batched_layout { LAYOUT_STRIPED, LAYOUT_BLOCKED };

/* The family's parameters, bound from the declared tunables: batches per
 * logical warp, lanes per logical warp, where the results land (enum
 * batched_layout) and threads per block. */
struct batched_params {
	int batch, width, layout, block;
};

/* 32 batches take up to ~100 registers a thread: 512 threads leave the
 * compiler 128 (65536 per SM), so no configuration spills or fails to
 * launch for want of registers. */
#define BATCHED_BLOCK_MAX 512

/*
 * Logical warp g = global thread / width reduces its B batches, by the
 * transpose (Naive false) or by one butterfly per batch (Naive true, after
 * which every lane holds every result and lane b % width stores batch b).
 * Requires: blockDim.x a multiple of 32, <= BATCHED_BLOCK_MAX; B and width
 * powers of two, width <= 32; gridDim.x * blockDim.x >= ceil(n / (B *
 * width)) * width.
 */
template <class T, class Op, int B, bool Naive>
__global__ void __launch_bounds__(BATCHED_BLOCK_MAX)
warp_batched_kernel(const T *in, T *out, int64_t n, int width, bool blocked)
{
	const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const int64_t g = t / width;
	const int j = (int)(t % width);
	T x[B];

	batched_load<Op>(x, in, n, g, j, width);
	if constexpr (Naive) {
#pragma unroll
		for (int b = 0; b < B; b++) {
			x[b] = warp_reduce_xor<Op>(x[b], width);
			if ((b & (width - 1)) == j)
				batched_store(out, n, g, b, width, B, x[b]);
		}
	} else {
		batched_reduce<Op>(x, width, blocked, FULL_MASK);
		batched_store_slots(x, out, n, g, j, width, blocked);
	}
}

/* Calls f(std::integral_constant<int, B>()) for B = 1, 2, 4, ..., 32. */
template <class F>
static cudaError_t dispatch_batch(int batch, F &&f)
{
	switch (batch) {
	case 1: return f(std::integral_constant<int, 1>());
	case 2: return f(std::integral_constant<int, 2>());
	case 4: return f(std::integral_constant<int, 4>());
	case 8: return f(std::integral_constant<int, 8>());
	case 16: return f(std::integral_constant<int, 16>());
	case 32: return f(std::integral_constant<int, 32>());
	default: return cudaErrorInvalidValue;
	}
}

/* Threads covering every logical warp that has data. */
static int64_t batched_threads(const struct reduce_launch *l)
{
	const struct batched_params &p = launch_params<batched_params>(l);
	const int64_t per_group = (int64_t)p.batch * p.width;

	return (l->n + per_group - 1) / per_group * p.width;
}

template <bool Naive>
static cudaError_t batched_launch(const struct reduce_launch *l)
{
	const struct batched_params &p = launch_params<batched_params>(l);

	return dispatch_typed(l->dtype, l->op, [&](auto t, auto op) {
		using T = decltype(t);
		return dispatch_batch(p.batch, [&](auto batch) {
			warp_batched_kernel<T, decltype(op), batch.value, Naive>
				<<<grid_for(batched_threads(l), l->block), l->block, 0, l->stream>>>(
					(const T *)l->in, (T *)l->out, l->n, p.width, p.layout == LAYOUT_BLOCKED);
			return cudaSuccess;
		});
	});
}

#ifdef HAVE_CUB_WARP_REDUCE_BATCHED
/* CUB's TempStorage is per logical warp, so the block size is fixed. */
#define CUB_BLOCK 256

template <class Op>
struct op_functor {
	template <class T>
	__device__ T operator()(const T &a, const T &b) const { return Op::apply(a, b); }
};

/*
 * The same problem through cub::WarpReduceBatched<T, B, W>::ReduceToStriped
 * or ReduceToBlocked (CUB's slot layout is the one batched_slot_batch
 * names).  Not compiled where the toolkit lacks the header, which is every
 * toolkit this was written on: it follows CUB's documented interface.
 * Requires: blockDim.x == CUB_BLOCK; as warp_batched_kernel.
 */
template <class T, int B, int W, bool Blocked>
__global__ void __launch_bounds__(CUB_BLOCK) warp_batched_cub_kernel(const T *in, T *out, int64_t n)
{
	using Reduce = cub::WarpReduceBatched<T, B, W>;
	constexpr int R = B >= W ? B / W : 1;
	__shared__ typename Reduce::TempStorage temp[CUB_BLOCK / W];
	const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const int64_t g = t / W;
	const int j = (int)(t % W);
	T x[B], r[R];

	batched_load<op_sum<T>>(x, in, n, g, j, W);
	if constexpr (Blocked)
		Reduce(temp[threadIdx.x / W]).ReduceToBlocked(x, r, op_functor<op_sum<T>>());
	else
		Reduce(temp[threadIdx.x / W]).ReduceToStriped(x, r, op_functor<op_sum<T>>());
#pragma unroll
	for (int k = 0; k < R; k++) {
		const int b = batched_slot_batch(B, W, Blocked, j, k);
		if (b >= 0)
			batched_store(out, n, g, b, W, B, r[k]);
	}
}

template <class T, int B, int W>
static cudaError_t cub_launch_layout(const struct reduce_launch *l)
{
	const unsigned grid = grid_for(batched_threads(l), CUB_BLOCK);

	if (launch_params<batched_params>(l).layout == LAYOUT_BLOCKED)
		warp_batched_cub_kernel<T, B, W, true><<<grid, CUB_BLOCK, 0, l->stream>>>(
			(const T *)l->in, (T *)l->out, l->n);
	else
		warp_batched_cub_kernel<T, B, W, false><<<grid, CUB_BLOCK, 0, l->stream>>>(
			(const T *)l->in, (T *)l->out, l->n);
	return cudaSuccess;
}

/* The (batch, width) pairs cub_rules accept. */
static cudaError_t cub_launch(const struct reduce_launch *l)
{
	const struct batched_params &p = launch_params<batched_params>(l);

	return dispatch_dtype(l->dtype, [&](auto t) {
		using T = decltype(t);
		switch (p.batch * 100 + p.width) {
		case 208: return cub_launch_layout<T, 2, 8>(l);
		case 232: return cub_launch_layout<T, 2, 32>(l);
		case 808: return cub_launch_layout<T, 8, 8>(l);
		case 832: return cub_launch_layout<T, 8, 32>(l);
		case 3208: return cub_launch_layout<T, 32, 8>(l);
		case 3232: return cub_launch_layout<T, 32, 32>(l);
		default: return cudaErrorInvalidValue;
		}
	});
}
#define CUB_LAUNCH cub_launch
#else
#define CUB_LAUNCH NULL
#endif

/* One segment of width elements per (logical warp, batch). */
static int batched_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	const struct batched_params &p = launch_params<batched_params>(l);

	l->block = p.block;
	l->seg_len = l->seg_stride = p.width;
	return 0;
}

#define BATCHED_OPS (OP_BIT(OP_SUM) | OP_BIT(OP_MAX))
#define BATCHED_DTYPES (DTYPE_BIT(DTYPE_F32) | DTYPE_BIT(DTYPE_I32))

static const struct reduce_spec batched_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = batched_shape,
	.launch = batched_launch<false>,
};
static const struct reduce_spec naive_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = batched_shape,
	.launch = batched_launch<true>,
};
static const struct reduce_spec cub_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = batched_shape,
	.launch = CUB_LAUNCH,
};

/* The driver's run(), and without the header a SKIP: a toolkit feature,
 * not a fault. */
static void cub_run(const struct case_args *a, struct case_result *r)
{
#ifdef HAVE_CUB_WARP_REDUCE_BATCHED
	reduce_variant_run(a, r);
#else
	(void)a;
	r->err_norm = -1;
	case_result_set(r, OUTCOME_SKIPPED, "%s (CUDA %d.%d)", CUB_MISSING, CUDART_VERSION / 1000,
			CUDART_VERSION % 1000 / 10);
#endif
}

/* layout is bound as its index, in enum batched_layout's order. */
static const struct tunable batched_tunables[] = {
	{.name = "batch", .doc = "batches per logical warp", .lo = 1, .hi = 32, .pow2 = 1, .def = "8",
	 .space = "4,8,16,32", .field = offsetof(struct batched_params, batch)},
	{.name = "width", .doc = "lanes per logical warp", .lo = 1, .hi = 32, .pow2 = 1, .def = "32",
	 .space = "8,16,32", .field = offsetof(struct batched_params, width)},
	{.name = "layout", .doc = "where the results land", .choices = "striped|blocked", .def = "striped",
	 .space = "striped,blocked", .field = offsetof(struct batched_params, layout)},
	{.name = "block", .doc = "threads per block", .lo = 32, .hi = BATCHED_BLOCK_MAX, .multiple_of = 32,
	 .def = "256", .field = offsetof(struct batched_params, block)},
};
static const struct rule batched_rules[] = {
	{"cols == 0", "a flat problem"},
};
static const struct tunable_set batched_set = {
	TUNABLE_LIST(batched_tunables), RULE_LIST(batched_rules), .size = sizeof(struct batched_params),
};
/* What cub_launch instantiates, at CUB_BLOCK threads (a TempStorage per
 * logical warp). */
static const struct rule cub_rules[] = {
	{"batch == 2 || batch == 8 || batch == 32", "the instantiated batches"},
	{"width == 8 || width == 32", "the instantiated widths"},
	{"block == 256", "CUB's TempStorage is sized for blocks of 256"},
};

static const struct variant warp_batched_variants[] = {
	{.name = "warp.batched",
	 .summary = "B batches per width-lane logical warp by the transpose-reduce (~B-1 shuffles for B == width)",
	 .dtypes = BATCHED_DTYPES, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &batched_spec, .ops = BATCHED_OPS, .params = {.set = &batched_set}},
	/* The butterflies leave every batch in every lane and ignore layout:
	 * it is not tuned. */
	{.name = "warp.batched_naive",
	 .summary = "B batches per logical warp by B separate __shfl_xor_sync butterflies",
	 .dtypes = BATCHED_DTYPES, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &naive_spec, .ops = BATCHED_OPS,
	 .params = {.set = &batched_set, .space = "batch=4,8,16,32 width=8,16,32"}},
	{.name = "warp.batched_cub",
	 .summary = "B batches per logical warp by cub::WarpReduceBatched (SKIP where absent)",
	 .dtypes = BATCHED_DTYPES, .gpu = 1, .check = reduce_variant_check, .run = cub_run, .spec = &cub_spec,
	 .ops = OP_BIT(OP_SUM), .requires = "a toolkit with cub/warp/warp_reduce_batched.cuh (else SKIP)",
	 .params = {.set = &batched_set, RULE_LIST(cub_rules),
		    .space = "batch=8,32 width=8,32 layout=striped,blocked"}},
};

extern "C" const struct variant_table warp_batched_table;
const struct variant_table warp_batched_table = {
	warp_batched_variants, sizeof warp_batched_variants / sizeof warp_batched_variants[0]};
