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

#include "collectives.cuh"
#include "reduce_driver.cuh"
#include "warp_reference.h"

#define VOTE_BLOCK 256

static const char *const vote_names[] = {"ballot", "popc", "ffs", "any", "all"};

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
	vote_kernel<<<grid_for(l->n, VOTE_BLOCK), VOTE_BLOCK, 0, l->stream>>>(
		(const int *)l->in, (int *)l->out, l->n, l->k, l->arg, l->flag);
	return cudaSuccess;
}

/* vote=ballot|popc|ffs|any|all (l->flag), k=1..32, above=INT (l->arg). */
static int vote_shape(const struct case_args *a, struct reduce_launch *l, char *msg, size_t len)
{
	if (param_choice(a, "vote", vote_names, VOTE_COUNT, VOTE_BALLOT, &l->flag, msg, len) < 0 ||
	    param_int(a, "above", 0, INT_MIN, INT_MAX, &l->arg, msg, len) < 0 ||
	    shape_first_k_lanes(a, l, msg, len) < 0)
		return -1;
	l->seg_len = l->seg_stride = 32; /* one output per element, from vote_expect */
	return 0;
}

static void vote_expect(const struct reduce_launch *l, const void *in, double *ref, double *tol)
{
	warp_ref_vote((const int32_t *)in, (size_t)l->n, l->k, l->arg, (enum warp_vote)l->flag,
		      ref, tol);
}

static const struct reduce_spec vote_spec = {
	OP_BIT(OP_SUM), REDUCE_PER_ELEMENT, INPUT_UNIFORM, vote_shape, NULL, vote_launch, vote_expect,
};

REDUCE_ENTRY_POINTS(vote, vote_spec)

static const struct variant warp_vote_variants[] = {
	{"warp.vote",
	 "__ballot_sync (with __popc, __ffs), __any_sync or __all_sync of lanes below k on x > above",
	 "Requires: 1 <= k <= 32", "vote=ballot|popc|ffs|any|all k=1..32 above=INT",
	 DTYPE_BIT(DTYPE_I32), 1, vote_check, vote_run, NULL},
};

extern "C" const struct variant_table warp_vote_table;
const struct variant_table warp_vote_table = {
	warp_vote_variants, sizeof warp_vote_variants / sizeof warp_vote_variants[0]};
