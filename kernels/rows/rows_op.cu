/*
 * rows_op.cu - the rows.op family: one statistic per row of a rows x cols
 * array (n = rows, cols >= 1), by one row-reduction template and the
 * combiners of rows_op.cuh: welford, var_naive, lse, l2, argmax.
 *
 * by=warp: each warp takes a row, its lanes columns lane, lane + 32, ...;
 * by=block: each block takes a row, its threads columns t, t + block, ....
 * Either way a thread pushes its columns in increasing order, then the
 * states are merged (shuffles; for a block also shared memory).  Grids
 * stride over the rows.
 *
 * The outputs are not one reduction per segment (two per row for
 * welford, an index for argmax) and the inputs are the family's own
 * (offset rows, ties), so the variants drive their cases through
 * reduce_execute() with the references of kernels/rows/rows_op_ref.c.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernels/device/device_reduce.cuh"
#include "kernels/rows/rows_op.cuh"
#include "kernels/rows/rows_op_ref.h"
#include "worker/check.h"

/* Grids stride beyond this many blocks. */
#define ROWS_GRID_MAX 65536


enum rows_by { ROWS_WARP, ROWS_BLOCK };

/* The family's parameters: a warp or a block per row (enum rows_by),
 * threads per block, and the input drawn (enum rows_input). */
struct rows_op_params {
	int by, block, input;
};

/* This thread's state over columns lane, lane + lanes, ... of the row. */
template <class In, class C>
static __device__ __forceinline__ typename C::state row_span(const In *row, int64_t cols, int lane,
							    int lanes)
{
	typename C::state s = C::identity();

	for (int64_t c = lane; c < cols; c += lanes)
		s = C::push(s, to_acc(row[c]), (int)c);
	return s;
}

/*
 * Warp w of the grid reduces rows w, w + warps, ...; a warp's lanes share
 * their rows, so the full-mask shuffles are converged.
 * Requires: blockDim.x a multiple of 32; 1 <= cols <= 2^24.
 */
template <class In, class C>
__global__ void __launch_bounds__(1024)
rows_op_warp_kernel(const In *in, int64_t rows, int64_t cols, typename C::out_t *out)
{
	const int64_t warps = (int64_t)gridDim.x * (blockDim.x / 32);
	const int lane = threadIdx.x % 32;

	for (int64_t row = (int64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; row < rows;
	     row += warps) {
		const typename C::state s =
			warp_merge<C>(row_span<In, C>(in + row * cols, cols, lane, 32));
		if (lane == 0)
			C::write(out, row, s);
	}
}

/*
 * Block b reduces rows b, b + gridDim.x, ...
 * Requires: blockDim.x a multiple of 32, 32..1024; 1 <= cols <= 2^24.
 */
template <class In, class C>
__global__ void __launch_bounds__(1024)
rows_op_block_kernel(const In *in, int64_t rows, int64_t cols, typename C::out_t *out)
{
	for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
		const typename C::state s =
			block_merge<C>(row_span<In, C>(in + row * cols, cols, threadIdx.x, blockDim.x));
		if (threadIdx.x == 0)
			C::write(out, row, s);
		__syncthreads(); /* warp 0 has read the shared states before the next row rewrites them */
	}
}

template <class In, class C>
static cudaError_t rows_op_launch_typed(const struct reduce_launch *l, unsigned grid, int64_t rows,
					int64_t cols)
{
	const In *in = (const In *)l->in;
	typename C::out_t *out = (typename C::out_t *)l->out;

	if (launch_params<rows_op_params>(l).by == ROWS_BLOCK)
		rows_op_block_kernel<In, C><<<grid, l->block, 0, l->stream>>>(in, rows, cols, out);
	else
		rows_op_warp_kernel<In, C><<<grid, l->block, 0, l->stream>>>(in, rows, cols, out);
	return cudaSuccess;
}

/* l->seg_len: cols; l->n: rows * cols. */
template <class C>
static cudaError_t rows_op_launch(const struct reduce_launch *l)
{
	const int64_t cols = l->seg_len, rows = l->n / cols;
	const int64_t per_block = launch_params<rows_op_params>(l).by == ROWS_BLOCK ? 1 : l->block / 32;
	const int64_t need = (rows + per_block - 1) / per_block;
	const unsigned grid = (unsigned)(need < ROWS_GRID_MAX ? need : ROWS_GRID_MAX);

	switch (l->dtype) {
	case DTYPE_F32:
		return rows_op_launch_typed<float, C>(l, grid, rows, cols);
	case DTYPE_BF16:
		return rows_op_launch_typed<bf16_t, C>(l, grid, rows, cols);
	default:
		return cudaErrorInvalidValue;
	}
}

/*
 * The common checks, then the declared tunables and rules (rows_op_set);
 * sets the launch's block, the output count and type and the input drawn.
 */
static int rows_op_shape(enum rows_op op, const struct case_args *a, struct reduce_launch *l,
			 int *input, char *msg, size_t len)
{
	if (launch_prepare(a, l, msg, len) < 0)
		return -1;
	l->block = launch_params<rows_op_params>(l).block;
	*input = launch_params<rows_op_params>(l).input;
	l->seg_len = l->seg_stride = a->cols;
	l->n_out = a->n * rows_ref_outputs(op);
	l->out_dtype = rows_ref_out_dtype(op);
	return 0;
}

/* A rows.op variant: the statistic it computes and its combiner's launcher. */
struct rows_op_spec {
	enum rows_op op;
	reduce_launch_fn launch;
};

/* The check() of every rows.op variant: its spec's shape. */
static int rows_op_check(const struct case_args *a, char *msg, size_t len)
{
	const struct rows_op_spec *s = (const struct rows_op_spec *)catalog_spec(a, msg, len);
	struct reduce_launch l;
	int input;

	return s ? rows_op_shape(s->op, a, &l, &input, msg, len) : -1;
}

/* The run() of every rows.op variant: draws the rows, runs its spec's
 * kernel once, checks every output. */
static void rows_op_run(const struct case_args *a, struct case_result *r)
{
	struct reduce_launch l;
	char msg[RESULT_MESSAGE_MAX];
	const struct rows_op_spec *s = (const struct rows_op_spec *)catalog_spec_run(a, r);
	int input;
	void *in = NULL, *out = NULL;
	double *ref = NULL, *tol = NULL;

	if (!s)
		return;
	r->err_norm = -1;
	if (rows_op_shape(s->op, a, &l, &input, msg, sizeof msg) < 0) {
		case_result_set(r, OUTCOME_INVALID, "%s", msg);
		return;
	}
	in = malloc((size_t)l.n * dtype_size(l.dtype));
	out = malloc((size_t)l.n_out * dtype_size(l.out_dtype));
	ref = (double *)malloc((size_t)l.n_out * sizeof *ref);
	tol = (double *)malloc((size_t)l.n_out * sizeof *tol);
	if (!in || !out || !ref || !tol) {
		case_result_set(r, OUTCOME_ERROR, "out of host memory");
		goto done;
	}
	rows_ref_fill((enum rows_input)input, a->seed, l.dtype, in, (size_t)l.n);
	if (rows_ref_compute(s->op, l.dtype, in, (size_t)a->n, (size_t)a->cols, ref, tol) < 0) {
		case_result_set(r, OUTCOME_ERROR, "out of host memory");
		goto done;
	}
	if (reduce_execute(&l, s->launch, a->variant, in, out, r) == 0)
		check_values(l.out_dtype, out, ref, tol, (size_t)l.n_out, r);
done:
	free(in);
	free(out);
	free(ref);
	free(tol);
}

static const struct rows_op_spec welford_spec = {
	.op = ROWS_OP_WELFORD, .launch = rows_op_launch<comb_welford>,
};
static const struct rows_op_spec var_naive_spec = {
	.op = ROWS_OP_VAR_NAIVE, .launch = rows_op_launch<comb_moments>,
};
static const struct rows_op_spec lse_spec = {
	.op = ROWS_OP_LSE, .launch = rows_op_launch<comb_lse>,
};
static const struct rows_op_spec l2_spec = {
	.op = ROWS_OP_L2, .launch = rows_op_launch<comb_l2>,
};
static const struct rows_op_spec argmax_spec = {
	.op = ROWS_OP_ARGMAX, .launch = rows_op_launch<comb_argmax>,
};

#define ROWS_OP_DTYPES (DTYPE_BIT(DTYPE_F32) | DTYPE_BIT(DTYPE_BF16))

/* by and input name enum rows_by and enum rows_input, in their order. */
static const struct tunable rows_op_tunables[] = {
	{.name = "by", .doc = "a warp or a block per row", .choices = "warp|block", .def = "warp",
	 .field = offsetof(struct rows_op_params, by)},
	{.name = "block", .doc = "threads per block", .lo = 32, .hi = 1024, .multiple_of = 32,
	 .def = "256", .field = offsetof(struct rows_op_params, block)},
	{.name = "input", .doc = "the rows drawn", .choices = "uniform|offset|ties", .def = "uniform",
	 .field = offsetof(struct rows_op_params, input)},
};
static const struct rule rows_op_rules[] = {
	/* Welford counts are f32 (exact to 2^24), argmax columns int. */
	{"cols >= 1 && cols <= 16777216", "n rows of at most 2^24 columns"},
	/* input 1 is offset */
	{"input != 1 || f32", "input=offset is f32 only: bf16 cannot hold 1e4 + U[-1, 1)"},
};
static const struct tunable_set rows_op_set = {
	TUNABLE_LIST(rows_op_tunables), RULE_LIST(rows_op_rules), .size = sizeof(struct rows_op_params),
};

static const struct variant rows_op_variants[] = {
	{.name = "rows.op.welford",
	 .summary = "per-row mean and variance by Welford updates and pairwise (Chan) merges",
	 .dtypes = ROWS_OP_DTYPES, .gpu = 1, .check = rows_op_check, .run = rows_op_run,
	 .spec = &welford_spec, .params = {.set = &rows_op_set}},
	{.name = "rows.op.var_naive",
	 .summary = "per-row mean and variance by E[x^2] - E[x]^2 in f32 (loses the variance of offset rows)",
	 .dtypes = ROWS_OP_DTYPES, .gpu = 1, .check = rows_op_check, .run = rows_op_run,
	 .spec = &var_naive_spec, .params = {.set = &rows_op_set}},
	{.name = "rows.op.lse", .summary = "per-row log-sum-exp by the online (max, sum) merge",
	 .dtypes = ROWS_OP_DTYPES, .gpu = 1, .check = rows_op_check, .run = rows_op_run, .spec = &lse_spec,
	 .params = {.set = &rows_op_set}},
	{.name = "rows.op.l2", .summary = "per-row L2 norm: sqrt of the sum of squares",
	 .dtypes = ROWS_OP_DTYPES, .gpu = 1, .check = rows_op_check, .run = rows_op_run, .spec = &l2_spec,
	 .params = {.set = &rows_op_set}},
	{.name = "rows.op.argmax",
	 .summary = "per-row index of the maximum, the lowest index on ties (i32 output)",
	 .dtypes = ROWS_OP_DTYPES, .gpu = 1, .check = rows_op_check, .run = rows_op_run, .spec = &argmax_spec,
	 .params = {.set = &rows_op_set}},
};

extern "C" const struct variant_table rows_op_table;
const struct variant_table rows_op_table = {rows_op_variants,
					    sizeof rows_op_variants / sizeof rows_op_variants[0]};
