/*
 * Block reduction with the barrier left out: a shared-memory race that
 * may or may not show.
 *
 * Each thread sums a grid-stride slice of the array, each warp reduces its
 * lanes with shuffles, and each warp's lane 0 stores the warp's sum in
 * shared memory.  Warp 0 should then wait at __syncthreads() until every
 * warp has stored its sum; here it does not, and reads the words at once.
 * A warp that is still in its loop has not written yet, so warp 0 may read
 * a stale word (whatever the shared memory held before, possibly a block
 * that ran earlier on the same multiprocessor) and the sum comes out wrong;
 * often every warp has finished in time and it comes out right.  The
 * result depends on scheduling, the size and the block, so the kernel is
 * declared undefined: conform records what happened without judging it.
 * The fix is one __syncthreads() between the stores and warp 0's reads.
 * compute-sanitizer --tool racecheck reports the read-after-write hazard
 * on the shared array (the stores and the loads by different warps with no
 * barrier between them) whatever the result.
 *
 * What conform reports: PASS at every size, as an undefined case does
 * whatever it does short of a crash; the observed column says
 * completed-correct or completed-wrong, and that is the finding.
 *
 * @kind     reduce
 * @entry    missing_sync
 * @summary  warp shuffles, leaders to shared memory, warp 0 reads with no barrier (a race)
 * @dtypes   f32
 * @ops      sum
 * @expect   undefined
 * @tunable  block 64..1024 pow2 default=256 space=128,256,512,1024 "threads per block"
 * @block    block
 * @grid     min(sms * occupancy, max(1, (n + block - 1) / block))
 * @scratch  8
 */

#define FULL_MASK 0xffffffffu

/* Scratch, zero at rest: the atomic total and the ticket. */
struct sum_scratch {
	float total;
	unsigned count;
};

static __device__ __forceinline__ float warp_sum(float v)
{
	for (int off = 16; off > 0; off /= 2)
		v += __shfl_xor_sync(FULL_MASK, v, off);
	return v;
}

/*
 * out[0] = the sum of in[0..n), unless the race strikes.
 * Requires: blockDim.x == BLOCK, a multiple of 32; scratch zeroed.
 */
extern "C" __global__ void __launch_bounds__(BLOCK)
missing_sync(const T *in, T *out, long long n, void *scratch)
{
	__shared__ float warp_total[BLOCK / 32];
	struct sum_scratch *s = (struct sum_scratch *)scratch;
	const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	const long long step = (long long)gridDim.x * BLOCK;
	float v = 0.0f;

	for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += step)
		v += in[i];
	v = warp_sum(v);
	if (lane == 0)
		warp_total[warp] = v;
	/* The missing __syncthreads(): nothing orders the stores above
	 * before warp 0's loads below. */
	if (warp == 0) {
		v = lane < BLOCK / 32 ? warp_total[lane] : 0.0f;
		v = warp_sum(v);
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
