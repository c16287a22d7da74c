/*
 * Mutant: a last-block reduction that leaves its ticket counter dirty.
 *
 * Blocks store their partials in scratch and take a ticket with
 * atomicAdd; the block that draws ticket gridDim.x - 1 combines the
 * partials and writes out[0] (control_grid_sum.cu).  It zeroes the
 * partials but not the ticket.  The first launch is right; it leaves the
 * counter at gridDim.x, so on the next launch on the same scratch the
 * tickets run from gridDim.x up, no block draws gridDim.x - 1, and out[0]
 * is never written.  conform zeroes scratch once and launches each reduce
 * case three times, and the contract (docs/kernels.md) is that a kernel
 * leaves its scratch zeroed: wrong at every n.
 *
 * What conform should report: FAIL at every size, from the second run
 * ("run 2 of 3": out[0] unwritten), and from the first with a check that
 * scratch is left zeroed.
 *
 * @kind     reduce
 * @entry    scratch_left_dirty
 * @summary  mutant: last-block finish that never resets its ticket counter
 * @dtypes   f32
 * @ops      sum
 * @tunable  block 64..1024 pow2 default=256 "threads per block"
 * @block    block
 * @grid     min(sms * occupancy, max(1, (n + block - 1) / block))
 * @scratch  8 + esize * sms * occupancy
 *
 * mutant-bug: leaves its @scratch dirty (the last-block ticket counter is never reset)
 * mutant-wrong: True
 * mutant-args: --n 1,31,32,33,255,257,4097,65521,1000003,16777215,16777217
 */

#define PARTIALS_OFFSET 8 /* bytes of scratch before the first partial */

#define FULL_MASK 0xffffffffu

/* Every lane ends with the warp's value. */
static __device__ __forceinline__ T warp_combine(T v)
{
#pragma unroll
	for (int off = 16; off > 0; off /= 2)
		v = conform_combine(v, __shfl_xor_sync(FULL_MASK, v, off));
	return v;
}

/* Thread 0 returns the block's value.  Requires: blockDim.x == BLOCK, a
 * multiple of 32; every thread calls it.  The leading barrier lets a
 * block call it twice. */
static __device__ T block_combine(T v)
{
	__shared__ T warp_value[32];
	const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;

	v = warp_combine(v);
	__syncthreads();
	if (lane == 0)
		warp_value[warp] = v;
	__syncthreads();
	if (warp == 0) {
		v = lane < BLOCK / 32 ? warp_value[lane] : conform_identity<T>();
		v = warp_combine(v);
	}
	return v;
}

/* out[0] should be the sum of in[0..n), launch after launch. */
extern "C" __global__ void __launch_bounds__(BLOCK)
scratch_left_dirty(const T *in, T *out, long long n, void *scratch)
{
	unsigned *ticket = (unsigned *)scratch;
	T *partials = (T *)((char *)scratch + PARTIALS_OFFSET);
	__shared__ bool last;
	T acc = conform_identity<T>();

	for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK)
		acc = conform_combine(acc, in[i]);
	acc = block_combine(acc);
	if (threadIdx.x == 0) {
		partials[blockIdx.x] = acc;
		__threadfence();
		last = atomicAdd(ticket, 1u) == gridDim.x - 1;
	}
	__syncthreads();
	if (!last)
		return;
	__threadfence();
	acc = conform_identity<T>();
	for (unsigned b = threadIdx.x; b < gridDim.x; b += BLOCK) {
		acc = conform_combine(acc, __ldcg(partials + b));
		partials[b] = T(0);
	}
	acc = block_combine(acc);
	if (threadIdx.x == 0)
		out[0] = acc; /* the bug: *ticket = 0 is missing */
}
