/*
 * Mutant: a min whose accumulators start at 0 instead of +inf.
 *
 * The thread accumulators are initialised with `T(0)`, the identity of a
 * sum, where a min needs +inf (conform_identity<T>()).  The output is
 * min(0, the true minimum): right whenever the array holds a value <= 0,
 * wrong whenever every element is positive, and such an input exists at
 * every n >= 1.
 *
 * What conform should report: FAIL at every size for an all-positive
 * input.  Random inputs in [-1, 1) are all positive with odds of 2^-n: at
 * n = 1 half the seeds show it, above that practically none; a probe of
 * positive values (ones with a single extreme) shows it everywhere.
 *
 * @kind     reduce
 * @entry    min_init_zero
 * @summary  mutant: min with accumulators starting at 0 instead of +inf
 * @dtypes   f32
 * @ops      min
 * @tunable  block 64..1024 pow2 default=256 "threads per block"
 * @block    block
 * @grid     min(sms * occupancy, max(1, (n + block - 1) / block))
 * @scratch  8 + esize * sms * occupancy
 *
 * mutant-bug: a min initialised with 0 instead of +inf (wrong when every element is positive)
 * mutant-wrong: True
 * mutant-args: --n 1,31,32,33,255,257,4097,65521,1000003,16777215,16777217
 */

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

#define PARTIALS_OFFSET 8 /* bytes of scratch before the first partial */

/*
 * The last-block finish: thread 0 of each block passes its block's value
 * `total`; the block that takes the last ticket combines the partials,
 * writes out[0] and zeroes the ticket and the partials.  Every thread of
 * the block calls it.  Requires: scratch zeroed, a 4-byte ticket, 4 bytes
 * of padding and gridDim.x partials.
 */
static __device__ void finish(T total, T *out, void *scratch)
{
	unsigned *ticket = (unsigned *)scratch;
	T *partials = (T *)((char *)scratch + PARTIALS_OFFSET);
	__shared__ bool last;

	if (threadIdx.x == 0) {
		partials[blockIdx.x] = total;
		__threadfence();
		last = atomicAdd(ticket, 1u) == gridDim.x - 1;
	}
	__syncthreads();
	if (!last)
		return;
	__threadfence();
	T acc = conform_identity<T>();
	for (unsigned b = threadIdx.x; b < gridDim.x; b += BLOCK) {
		acc = conform_combine(acc, __ldcg(partials + b));
		partials[b] = T(0);
	}
	acc = block_combine(acc);
	if (threadIdx.x == 0) {
		out[0] = acc;
		*ticket = 0;
	}
}

/* out[0] should be the minimum of in[0..n). */
extern "C" __global__ void __launch_bounds__(BLOCK)
min_init_zero(const T *in, T *out, long long n, void *scratch)
{
	T acc = T(0); /* the bug: conform_identity<T>(), +inf for min */

	for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK)
		acc = conform_combine(acc, in[i]);
	finish(block_combine(acc), out, scratch);
}
