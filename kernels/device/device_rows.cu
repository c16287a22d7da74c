/*
 * device_rows.cu - the device family's batched reductions: a rows x cols
 * array (n = rows, cols > 0), one result per row.
 *
 *   device.rows_smem  one block per row: the block's threads share the row
 *                     (reduce_span), then warp shuffles and one shared-memory
 *                     stage combine them.  Suits long rows.
 *   device.rows_shfl  one warp per row: the lanes share the row, shuffles
 *                     combine them, no shared memory and no barrier.  Suits
 *                     short rows.
 *
 * Rows start wherever cols puts them, so reduce_span loads a scalar head up
 * to the first aligned vector.  The grid is persistent (blocks per SM x
 * SMs, no more than there are rows to take) and strides over the rows.
 * Both are deterministic.
 */
#include <stdio.h>

#include "kernels/device/device_reduce.cuh"

/*
 * Block b reduces rows b, b + gridDim.x, ...
 * Requires: blockDim.x a multiple of 32, 64..1024; in aligned for In.
 */
template <class In, class Op, int VEC, int ITEMS>
__global__ void __launch_bounds__(1024, 1)
rows_block_kernel(const In *__restrict__ in, int64_t rows, int64_t cols, acc_t<In> *out, bool evict_first)
{
	for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
		acc_t<In> v = reduce_span<In, Op, VEC, ITEMS>(in + row * cols, cols, threadIdx.x, blockDim.x, evict_first);
		v = block_reduce_two_stage<Op, warp_by_shfl>(v);
		if (threadIdx.x == 0)
			out[row] = v;
		__syncthreads(); /* warp 0 has read the shared partials before they are rewritten */
	}
}

/*
 * Warp w (of all the grid's warps) reduces rows w, w + warps, ...; a warp's
 * lanes always take the same rows, so the full-mask shuffles are converged.
 * Requires: blockDim.x a multiple of 32; in aligned for In.
 */
template <class In, class Op, int VEC, int ITEMS>
__global__ void __launch_bounds__(1024, 1)
rows_warp_kernel(const In *__restrict__ in, int64_t rows, int64_t cols, acc_t<In> *out, bool evict_first)
{
	const int64_t warps = (int64_t)gridDim.x * (blockDim.x / 32);
	const int lane = threadIdx.x % 32;

	for (int64_t row = (int64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; row < rows;
	     row += warps) {
		acc_t<In> v = reduce_span<In, Op, VEC, ITEMS>(in + row * cols, cols, lane, 32, evict_first);
		v = warp_reduce_down<Op>(v);
		if (lane == 0)
			out[row] = v;
	}
}

enum rows_by { ROWS_BY_BLOCK, ROWS_BY_WARP };

/* Rows are short: more loads in flight than 4 per lane buys nothing and
 * costs registers. */
#define ROWS_ITEMS_MAX 4

template <int By>
static const void *rows_kernel(const struct reduce_launch *l)
{
	const void *k = NULL;

	dispatch_device<ROWS_ITEMS_MAX>(l, [&](auto in, auto op, auto vec, auto items) {
		using In = decltype(in);
		using Op = decltype(op);
		k = By == ROWS_BY_BLOCK ? (const void *)rows_block_kernel<In, Op, vec, items>
					: (const void *)rows_warp_kernel<In, Op, vec, items>;
		return cudaSuccess;
	});
	return k;
}

/* n rows of cols elements (the set's rules keep cols >= 1). */
static int rows_shape(const struct case_args *a, struct reduce_launch *l, char *, size_t)
{
	device_shape(l);
	l->seg_len = l->seg_stride = a->cols;
	return 0;
}

/* Blocks per SM x SMs, but no block without a row. */
template <int By>
static int rows_configure(struct reduce_launch *l, struct case_result *r)
{
	const int64_t rows = l->n / l->seg_len, per_block = By == ROWS_BY_BLOCK ? 1 : l->block / 32;
	const int64_t needed = (rows + per_block - 1) / per_block;
	int per_sm, sms;

	if (device_blocks_per_sm(l, rows_kernel<By>(l), 0, &per_sm, &sms, r) < 0)
		return -1;
	l->grid = (int64_t)per_sm * sms < needed ? per_sm * sms : (int)needed;
	return 0;
}

template <int By>
static cudaError_t rows_launch(const struct reduce_launch *l)
{
	return dispatch_device<ROWS_ITEMS_MAX>(l, [&](auto in_t, auto op_t, auto vec, auto items) {
		using In = decltype(in_t);
		using Op = decltype(op_t);
		const In *in = (const In *)l->in;
		acc_t<In> *out = (acc_t<In> *)l->out;
		const int64_t rows = l->n_out, cols = l->seg_len;
		const bool evict_first = launch_params<device_params>(l).evict_first;

		if (By == ROWS_BY_BLOCK)
			rows_block_kernel<In, Op, vec, items>
				<<<(unsigned)l->grid, l->block, 0, l->stream>>>(in, rows, cols, out, evict_first);
		else
			rows_warp_kernel<In, Op, vec, items>
				<<<(unsigned)l->grid, l->block, 0, l->stream>>>(in, rows, cols, out, evict_first);
		return cudaSuccess;
	});
}

static const struct reduce_spec rows_smem_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = rows_shape,
	.configure = rows_configure<ROWS_BY_BLOCK>, .launch = rows_launch<ROWS_BY_BLOCK>,
	.repeat = {.runs = 3, .deterministic = 1},
};
static const struct reduce_spec rows_shfl_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = rows_shape,
	.configure = rows_configure<ROWS_BY_WARP>, .launch = rows_launch<ROWS_BY_WARP>,
	.repeat = {.runs = 3, .deterministic = 1},
};

/* Rows are short: items at most ROWS_ITEMS_MAX; no grid axis to tune. */
static const struct tunable rows_tunables[] = {
	DEVICE_TUNABLE_BLOCK("256", "64,128,256,512"),
	DEVICE_TUNABLE_ITEMS("1|2|4", DEVICE_ITEMS_DEFAULT(2), "1,2,4"),
	DEVICE_TUNABLE_VEC("1,2,4"),
	DEVICE_TUNABLE_GRID(NULL),
	DEVICE_TUNABLE_EVICT_FIRST("0,1"),
};
static const struct rule rows_rules[] = {
	{"cols >= 1", "reduces rows"},
	DEVICE_RULE_IN_FLIGHT,
};
static const struct tunable_set rows_set = {
	TUNABLE_LIST(rows_tunables), RULE_LIST(rows_rules), .size = sizeof(struct device_params),
};

static const struct variant device_rows_variants[] = {
	{.name = "device.rows_smem",
	 .summary = "one result per row of rows x cols: a block per row, shuffles and shared memory",
	 .dtypes = DEVICE_DTYPES, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &rows_smem_spec, .ops = DEVICE_OPS, .params = {.set = &rows_set}, .refs = &device_refs},
	{.name = "device.rows_shfl",
	 .summary = "one result per row of rows x cols: a warp per row, shuffles only",
	 .dtypes = DEVICE_DTYPES, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &rows_shfl_spec, .ops = DEVICE_OPS, .params = {.set = &rows_set}, .refs = &device_refs},
};

extern "C" const struct variant_table device_rows_table;
const struct variant_table device_rows_table = {
	device_rows_variants, sizeof device_rows_variants / sizeof device_rows_variants[0]};
