/*
 * warp_match.cu - __match_any_sync and __match_all_sync on partial masks.
 *
 * Lanes below k take part, with the mask computed by __ballot_sync before
 * the branch (as in warp_vote.cu).  A lane's key is warp_key(x, keys)
 * (kernels/warp_prim.h): keys=1 makes every element match, keys=2 few
 * distinct keys, keys=1024 mostly distinct ones.  A lane past n takes part
 * with WARP_KEY_NONE, which matches no element, and stores nothing.
 *
 * The intrinsics exist from sm_70 on.  The kernel body is compiled only for
 * __CUDA_ARCH__ >= 700; below that it writes nothing, and the suites mark
 * the cases requires=sm>=70 so the host skips them.
 */
#include <stdio.h>

#include "collectives.cuh"
#include "reduce_driver.cuh"
#include "warp_reference.h"

#define MATCH_BLOCK 256
#define MATCH_KEYS_MAX (1 << 20)

enum match_kind { MATCH_ANY, MATCH_ALL };
static const char *const match_names[] = {"any", "all"};

/*
 * Lanes below k store __match_any_sync's mask of the lanes sharing their
 * key, or __match_all_sync's result (the mask when all keys agree, else
 * 0); a predicate that disagrees with that result stores
 * WARP_MATCH_DISAGREE instead.  Lanes k..31 write nothing.
 * Requires: blockDim.x a multiple of 32; 1 <= k <= 32; keys >= 1; sm_70.
 */
__global__ void match_kernel(const int *in, int *out, int64_t n, int k, unsigned keys, int all)
{
#if __CUDA_ARCH__ >= 700
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const int lane = threadIdx.x % 32;
	const unsigned key = i < n ? warp_key(in[i], keys) : WARP_KEY_NONE;
	const unsigned mask = __ballot_sync(FULL_MASK, lane < k);
	int v;

	if (lane >= k)
		return;
	if (all) { /* uniform across the grid */
		int pred;
		const unsigned got = __match_all_sync(mask, key, &pred);
		v = (pred != 0) == (got != 0) ? (int)got : WARP_MATCH_DISAGREE;
	} else {
		v = (int)__match_any_sync(mask, key);
	}
	if (i < n)
		out[i] = v;
#endif
}

static cudaError_t match_launch(const struct reduce_launch *l)
{
	match_kernel<<<grid_for(l->n, MATCH_BLOCK), MATCH_BLOCK, 0, l->stream>>>(
		(const int *)l->in, (int *)l->out, l->n, l->k, (unsigned)l->arg, l->flag);
	return cudaSuccess;
}

/* match=any|all (l->flag), keys=1..2^20 (l->arg), k=1..32. */
static int match_shape(const struct case_args *a, struct reduce_launch *l, char *msg, size_t len)
{
	if (param_choice(a, "match", match_names, 2, MATCH_ANY, &l->flag, msg, len) < 0 ||
	    param_int(a, "keys", 32, 1, MATCH_KEYS_MAX, &l->arg, msg, len) < 0 ||
	    shape_first_k_lanes(a, l, msg, len) < 0)
		return -1;
	l->seg_len = l->seg_stride = 32; /* one output per element, from match_expect */
	return 0;
}

static void match_expect(const struct reduce_launch *l, const void *in, double *ref, double *tol)
{
	warp_ref_match((const int32_t *)in, (size_t)l->n, l->k, (unsigned)l->arg,
		       l->flag == MATCH_ALL, ref, tol);
}

static const struct reduce_spec match_spec = {
	OP_BIT(OP_SUM), REDUCE_PER_ELEMENT, INPUT_UNIFORM, match_shape, NULL, match_launch, match_expect,
};

REDUCE_ENTRY_POINTS(match, match_spec)

static const struct variant warp_match_variants[] = {
	{"warp.match",
	 "__match_any_sync or __match_all_sync of lanes below k on the key x mod keys",
	 "Requires: sm_70 (suite: requires=sm>=70); 1 <= k <= 32; 1 <= keys <= 2^20",
	 "match=any|all keys=1..2^20 k=1..32", DTYPE_BIT(DTYPE_I32), 1, match_check, match_run, NULL},
};

extern "C" const struct variant_table warp_match_table;
const struct variant_table warp_match_table = {
	warp_match_variants, sizeof warp_match_variants / sizeof warp_match_variants[0]};
