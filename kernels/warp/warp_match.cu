/*
 * warp_match.cu - __match_any_sync and __match_all_sync on partial masks.
 *
 * Lanes below k take part, with the mask computed by __ballot_sync before
 * the branch (as in warp_vote.cu).  A lane's key is warp_key(x, keys)
 * (kernels/warp/warp_prim.h): keys=1 makes every element match, keys=2 few
 * distinct keys, keys=1024 mostly distinct ones.  A lane past n takes part
 * with WARP_KEY_NONE, which matches no element, and stores nothing.
 *
 * The intrinsics exist from sm_70 on.  The kernel body is compiled only for
 * __CUDA_ARCH__ >= 700; below that it writes nothing, and the suites mark
 * the cases requires=sm>=70 so the host skips them.
 */
#include <stdio.h>

#include "kernels/collectives.cuh"
#include "kernels/warp/warp_reference.h"
#include "worker/reduce_driver.cuh"

#define MATCH_BLOCK 256
#define MATCH_KEYS_MAX (1 << 20)

enum match_kind { MATCH_ANY, MATCH_ALL };

/* The variant's parameters, bound from the declared tunables: the match
 * (enum match_kind), the number of distinct keys, the lanes taking part. */
struct match_params {
	int match, keys, k;
};

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
	const struct match_params &p = launch_params<match_params>(l);

	match_kernel<<<grid_for(l->n, MATCH_BLOCK), MATCH_BLOCK, 0, l->stream>>>(
		(const int *)l->in, (int *)l->out, l->n, p.k, (unsigned)p.keys, p.match);
	return cudaSuccess;
}

/* One output per element, from match_expect. */
static int match_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	l->seg_len = l->seg_stride = 32;
	return 0;
}

static void match_expect(const struct reduce_launch *l, const void *in, double *ref, double *tol)
{
	const struct match_params &p = launch_params<match_params>(l);

	warp_ref_match((const int32_t *)in, (size_t)l->n, p.k, (unsigned)p.keys, p.match == MATCH_ALL, ref,
		       tol);
}

static const struct reduce_spec match_spec = {
	.layout = REDUCE_PER_ELEMENT, .input = INPUT_UNIFORM, .shape = match_shape,
	.launch = match_launch, .expect = match_expect,
};

/* match is bound as its index, in enum match_kind's order. */
static const struct tunable match_tunables[] = {
	{.name = "match", .doc = "the match", .choices = "any|all", .def = "any",
	 .field = offsetof(struct match_params, match)},
	{.name = "keys", .doc = "distinct keys: x mod keys", .lo = 1, .hi = MATCH_KEYS_MAX, .def = "32",
	 .field = offsetof(struct match_params, keys)},
	{.name = "k", .doc = "active lanes of each warp", .lo = 1, .hi = 32, .def = "32",
	 .field = offsetof(struct match_params, k)},
};
static const struct tunable_set match_set = {
	TUNABLE_LIST(match_tunables), .size = sizeof(struct match_params),
};

static const struct variant warp_match_variants[] = {
	{.name = "warp.match",
	 .summary = "__match_any_sync or __match_all_sync of lanes below k on the key x mod keys",
	 .dtypes = DTYPE_BIT(DTYPE_I32), .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &match_spec, .ops = OP_BIT(OP_SUM), .requires = "sm_70 (suite: requires=sm>=70)",
	 .params = {.set = &match_set}},
};

extern "C" const struct variant_table warp_match_table;
const struct variant_table warp_match_table = {
	warp_match_variants, sizeof warp_match_variants / sizeof warp_match_variants[0]};
