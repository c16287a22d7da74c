/*
 * warp_histogram.cu - a histogram with one atomicAdd per group of lanes
 * that share a bin, instead of one per element.
 *
 * Element x falls in bin warp_key(x, bins) (kernels/warp/warp_prim.h).  Two ways
 * of finding the peers of a bin, both ending with the group's leader (its
 * lowest lane) adding the group's count:
 *   form=ballot  a loop: the lowest unprocessed lane's bin is broadcast by
 *                __shfl_sync, __ballot_sync finds the lanes sharing it,
 *                and they leave the loop (as many rounds as distinct bins);
 *   form=match   one __match_any_sync (sm_70; the kernel body is compiled
 *                only for __CUDA_ARCH__ >= 700 and the suites say
 *                requires=sm>=70).
 * Lanes past n take part in the warp collectives with no element.  The
 * output is the `bins` counts (not n values): the launcher zeroes them, so
 * a histogram can run again on the same buffers.
 */
#include <stdio.h>

#include "kernels/collectives.cuh"
#include "kernels/warp/warp_reference.h"
#include "worker/reduce_driver.cuh"

#define HISTOGRAM_BLOCK 256
#define HISTOGRAM_BINS_MAX (1 << 20)

enum histogram_form { FORM_BALLOT, FORM_MATCH };

/* The variant's parameters, bound from the declared tunables: how a warp
 * finds its peer groups (enum histogram_form) and the number of bins. */
struct histogram_params {
	int form, bins;
};

/*
 * hist[b] += the number of in[] elements in bin b, by the ballot loop.  The
 * loop condition is a ballot result, the same in every lane, so all 32
 * lanes run every round and the full-mask collectives are converged.
 * Requires: blockDim.x a multiple of 32; bins >= 1; hist zeroed.
 */
__global__ void histogram_ballot_kernel(const int *in, int *hist, int64_t n, unsigned bins)
{
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const int lane = threadIdx.x % 32;
	const unsigned bin = i < n ? warp_key(in[i], bins) : WARP_KEY_NONE;
	unsigned todo = __ballot_sync(FULL_MASK, i < n);

	while (todo) {
		const int leader = __ffs((int)todo) - 1;
		const unsigned b = __shfl_sync(FULL_MASK, bin, leader);
		const unsigned peers = __ballot_sync(FULL_MASK, bin == b) & todo;

		if (lane == leader)
			atomicAdd(&hist[b], __popc(peers));
		todo &= ~peers; /* peers holds the leader: every round retires a lane */
	}
}

/*
 * The same with one __match_any_sync: each lane learns its peer group at
 * once, and the group's lowest lane adds its size.
 * Requires: blockDim.x a multiple of 32; bins >= 1; hist zeroed; sm_70.
 */
__global__ void histogram_match_kernel(const int *in, int *hist, int64_t n, unsigned bins)
{
#if __CUDA_ARCH__ >= 700
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const int lane = threadIdx.x % 32;
	const unsigned bin = i < n ? warp_key(in[i], bins) : WARP_KEY_NONE;
	const unsigned peers = __match_any_sync(FULL_MASK, bin);

	if (i < n && lane == __ffs((int)peers) - 1)
		atomicAdd(&hist[bin], __popc(peers));
#endif
}

static cudaError_t histogram_launch(const struct reduce_launch *l)
{
	const unsigned bins = (unsigned)l->n_out, grid = grid_for(l->n, HISTOGRAM_BLOCK);
	const cudaError_t e = cudaMemsetAsync(l->out, 0, (size_t)bins * sizeof(int), l->stream);

	if (e != cudaSuccess)
		return e;
	if (launch_params<histogram_params>(l).form == FORM_MATCH)
		histogram_match_kernel<<<grid, HISTOGRAM_BLOCK, 0, l->stream>>>((const int *)l->in,
										 (int *)l->out, l->n, bins);
	else
		histogram_ballot_kernel<<<grid, HISTOGRAM_BLOCK, 0, l->stream>>>((const int *)l->in,
										  (int *)l->out, l->n, bins);
	return cudaSuccess;
}

/* The output is the bins.  The counts are ints, which the declaration
 * cannot say: n counts elements of rows x cols problems. */
static int histogram_shape(const struct case_args *, struct reduce_launch *l, char *msg, size_t len)
{
	if (l->n > INT32_MAX) {
		snprintf(msg, len, "n=%lld: a bin's count must fit in an int", (long long)l->n);
		return -1;
	}
	l->seg_len = l->seg_stride = 32;
	l->n_out = launch_params<histogram_params>(l).bins;
	return 0;
}

static void histogram_expect(const struct reduce_launch *l, const void *in, double *ref, double *tol)
{
	warp_ref_histogram((const int32_t *)in, (size_t)l->n, (unsigned)l->n_out, ref, tol);
}

static const struct reduce_spec histogram_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = histogram_shape,
	.launch = histogram_launch, .expect = histogram_expect,
};

/* form is bound as its index, in enum histogram_form's order. */
static const struct tunable histogram_tunables[] = {
	{.name = "form", .doc = "peer groups by a ballot loop or __match_any_sync", .choices = "ballot|match",
	 .def = "ballot", .field = offsetof(struct histogram_params, form)},
	{.name = "bins", .doc = "bins: x mod bins", .lo = 1, .hi = HISTOGRAM_BINS_MAX, .def = "32",
	 .field = offsetof(struct histogram_params, bins)},
};
static const struct tunable_set histogram_set = {
	TUNABLE_LIST(histogram_tunables), .size = sizeof(struct histogram_params),
};

static const struct variant warp_histogram_variants[] = {
	{.name = "warp.histogram",
	 .summary = "histogram of x mod bins: each warp's peer groups (ballot loop or __match_any_sync) add their count once",
	 .dtypes = DTYPE_BIT(DTYPE_I32), .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &histogram_spec, .ops = OP_BIT(OP_SUM),
	 .requires = "n < 2^31; form=match needs sm_70 (suite: requires=sm>=70)",
	 .params = {.set = &histogram_set}},
};

extern "C" const struct variant_table warp_histogram_table;
const struct variant_table warp_histogram_table = {
	warp_histogram_variants, sizeof warp_histogram_variants / sizeof warp_histogram_variants[0]};
