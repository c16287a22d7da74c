/*
 * Sub-warp shuffles inside `if (i < n)`, then a block barrier: a reduction
 * that deadlocks as soon as the end of the data splits a warp.
 *
 * One element per thread, blocks of 256.  The threads that have an element
 * sum it over their 8-lane group with __shfl_xor_sync(0xffffffff, v, off, 8),
 * and each group's first lane stores the group's sum in shared memory; then
 * every thread meets at __syncthreads(), warp 0 adds the block's groups, and
 * one atomic per block plus a ticket gives the last block the total.
 *
 * The full mask names all 32 lanes, and a *_sync operation waits for every
 * non-exited lane it names.  In the warp where the data ends, the lanes past
 * n skip the branch and wait at the barrier; the lanes with data wait in
 * the shuffle for them; neither ever moves.  Calling a *_sync operation with
 * a mask naming lanes that do not execute it is undefined behaviour; since
 * Volta (sm_70+, independent thread scheduling) it is observed to hang on
 * the H100, like conform's own divergence.subwarp_sync.  Warps that are
 * wholly past n do no harm (all their lanes are at the barrier), nor does a
 * lane that has exited: the hang needs a partly idle warp whose idle lanes
 * are still alive.  The fixes: a __ballot_sync(0xffffffff, i < n) mask taken
 * before the branch and used by the shuffles, or 8-thread cooperative-groups
 * tiles (each tile's shuffles name only its own lanes), or a load of the
 * identity past n so that every lane takes the same path.
 *
 * What conform reports: XFAIL (the expected hang; the watchdog kills the
 * worker after --hang-timeout and the run goes on) at every ladder size that
 * is not a multiple of 32: 1, 31, 33, 255, 257, 4097, 65521, 1000003,
 * 2^24 - 1, 2^24 + 1, 2^31 + 3.  At n = 32 (and any multiple of 32) no warp
 * is split, the kernel completes with the right sum, and conform reports
 * XPASS: the bug hides whenever the data fills whole warps.
 *
 * @kind     reduce
 * @entry    subwarp_barrier
 * @summary  8-lane full-mask shuffles inside if (i < n), then __syncthreads (hangs on a split warp)
 * @dtypes   f32
 * @ops      sum
 * @expect   hang
 * @block    256
 * @grid     (n + 255) / 256
 * @scratch  8
 */

#define FULL_MASK 0xffffffffu
#define GROUP 8
#define GROUPS (256 / GROUP)

/* Scratch, zero at rest: the atomic total and the ticket. */
struct sum_scratch {
	float total;
	unsigned count;
};

/*
 * out[0] = the sum of in[0..n), when it completes.
 * Requires: blockDim.x == 256; scratch zeroed; and, not to hang, n a
 * multiple of 32 (that is the bug).
 */
extern "C" __global__ void __launch_bounds__(256)
subwarp_barrier(const T *in, T *out, long long n, void *scratch)
{
	__shared__ float group_sum[GROUPS];
	struct sum_scratch *s = (struct sum_scratch *)scratch;
	const long long block_first = (long long)blockIdx.x * 256;
	const long long i = block_first + threadIdx.x;
	const unsigned lane = threadIdx.x % 32;

	if (i < n) {
		float v = in[i];
		for (int off = GROUP / 2; off > 0; off /= 2)
			v += __shfl_xor_sync(FULL_MASK, v, off, GROUP);
		if (threadIdx.x % GROUP == 0)
			group_sum[threadIdx.x / GROUP] = v;
	}
	__syncthreads();

	if (threadIdx.x < 32) {
		/* A group past n stored nothing. */
		float v = block_first + (long long)lane * GROUP < n ? group_sum[lane] : 0.0f;
		for (int off = 16; off > 0; off /= 2)
			v += __shfl_xor_sync(FULL_MASK, v, off);
		if (lane == 0) {
			atomicAdd(&s->total, v);
			__threadfence();
			if (atomicAdd(&s->count, 1u) == gridDim.x - 1) {
				__threadfence();
				out[0] = atomicExch(&s->total, 0.0f);
				s->count = 0;
			}
		}
	}
}
