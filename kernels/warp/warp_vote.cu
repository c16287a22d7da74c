/*
 * warp_vote.cu - warp votes on partial masks: __ballot_sync with __popc and
 * __ffs, __any_sync, __all_sync.
 *
 * Only lanes below k take part.  The whole warp first computes the mask of
 * those lanes with __ballot_sync(FULL_MASK, lane < k), before diverging (as
 * warp.partial does); the idle lanes then leave, and the vote inside the
 * branch names exactly the lanes that reach it.  Each voting lane stores
 * the vote's result for the predicate x > above; a lane past n votes no
 * and stores nothing, and idle lanes must leave their outputs unwritten.
 *
 * One thread per element, blocks of whole warps.
 */
#include <stdio.h>

#include <climits>

#include "kernels/collectives.cuh"
#include "kernels/warp/warp_reference.h"
#include "worker/reduce_driver.cuh"

#define VOTE_BLOCK 256

/* The variant's parameters, bound from the declared tunables: the vote
 * (enum warp_vote), the lanes taking part, the predicate's threshold. */
struct vote_params {
	int vote, k, above;
};

/*
 * out[i] = the vote `kind` (enum warp_vote) of lanes 0..k-1 of i's warp on
 * in[j] > above, for lanes below k; lanes k..31 write nothing.  any and all
 * are stored as 0 or 1 (the intrinsics promise only zero or non-zero).
 * Requires: blockDim.x a multiple of 32; 1 <= k <= 32.
 */
__global__ void vote_kernel(const int *in, int *out, int64_t n, int k, int above, int kind)
{
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const int lane = threadIdx.x % 32;
	const bool pred = i < n && in[i] > above;
	const unsigned mask = __ballot_sync(FULL_MASK, lane < k);
	int v;

	if (lane >= k)
		return;
	switch (kind) { /* uniform: every lane of the mask takes the same case */
	case VOTE_BALLOT: v = (int)__ballot_sync(mask, pred); break;
	case VOTE_POPC: v = __popc(__ballot_sync(mask, pred)); break;
	case VOTE_FFS: v = __ffs((int)__ballot_sync(mask, pred)); break;
	case VOTE_ANY: v = __any_sync(mask, pred) != 0; break;
	default: v = __all_sync(mask, pred) != 0; break;
	}
	if (i < n)
		out[i] = v;
}

static cudaError_t vote_launch(const struct reduce_launch *l)
{
	const struct vote_params &p = launch_params<vote_params>(l);

	vote_kernel<<<grid_for(l->n, VOTE_BLOCK), VOTE_BLOCK, 0, l->stream>>>(
		(const int *)l->in, (int *)l->out, l->n, p.k, p.above, p.vote);
	return cudaSuccess;
}

/* One output per element, from vote_expect. */
static int vote_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	l->seg_len = l->seg_stride = 32;
	return 0;
}

static void vote_expect(const struct reduce_launch *l, const void *in, double *ref, double *tol)
{
	const struct vote_params &p = launch_params<vote_params>(l);

	warp_ref_vote((const int32_t *)in, (size_t)l->n, p.k, p.above, (enum warp_vote)p.vote, ref, tol);
}

static const struct reduce_spec vote_spec = {
	.layout = REDUCE_PER_ELEMENT, .input = INPUT_UNIFORM, .shape = vote_shape,
	.launch = vote_launch, .expect = vote_expect,
};

/* vote is bound as its index, in enum warp_vote's order. */
static const struct tunable vote_tunables[] = {
	{.name = "vote", .doc = "the vote", .choices = "ballot|popc|ffs|any|all", .def = "ballot",
	 .field = offsetof(struct vote_params, vote)},
	{.name = "k", .doc = "active lanes of each warp", .lo = 1, .hi = 32, .def = "32",
	 .field = offsetof(struct vote_params, k)},
	{.name = "above", .doc = "the predicate is x > above", .lo = INT_MIN, .hi = INT_MAX, .def = "0",
	 .field = offsetof(struct vote_params, above)},
};
static const struct tunable_set vote_set = {
	TUNABLE_LIST(vote_tunables), .size = sizeof(struct vote_params),
};

static const struct variant warp_vote_variants[] = {
	{.name = "warp.vote",
	 .summary = "__ballot_sync (with __popc, __ffs), __any_sync or __all_sync of lanes below k on x > above",
	 .dtypes = DTYPE_BIT(DTYPE_I32), .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &vote_spec, .ops = OP_BIT(OP_SUM), .params = {.set = &vote_set}},
};

extern "C" const struct variant_table warp_vote_table;
const struct variant_table warp_vote_table = {
	warp_vote_variants, sizeof warp_vote_variants / sizeof warp_vote_variants[0]};
