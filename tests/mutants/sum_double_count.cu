/*
 * Mutant: a sum that adds the element at each tile boundary twice.
 *
 * Blocks take 256-element tiles in turn; a tile's bounds are computed as
 * lo = tile * 256 and an inclusive hi = min(lo + 256, n - 1), and the
 * threads read lo + t, lo + t + 256, ... while <= hi.  The right inclusive
 * bound is lo + 255: as written, thread 0 also reads in[lo + 256], which
 * is the first element of the next tile and is read again there.  Every
 * element at a multiple of 256 below n (other than 0) is counted twice,
 * so the kernel is right up to n = 256 and wrong from 257 on (in[256]
 * != 0 tells).
 *
 * What conform should report: PASS at 1 .. 256, FAIL from 257 on.  With
 * random inputs the n / 256 extra terms hide in the sum's tolerance from
 * about 10^6 elements on; a window of ones shows them.
 *
 * @kind     reduce
 * @entry    sum_double_count
 * @summary  mutant: inclusive tile bound, each tile boundary element added twice
 * @dtypes   f32
 * @ops      sum
 * @tunable  block 256 default=256 "threads per block (the tile is one element per thread)"
 * @block    block
 * @grid     min(1024, max(1, (n + block - 1) / block))
 * @scratch  8 + esize * 1024
 *
 * mutant-bug: adds the element at every 256-element tile boundary twice (inclusive upper bound)
 * mutant-wrong: n > 256
 * mutant-args: --n 1,31,32,33,255,256,257,4097,65521,1000003,16777215,16777217
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

/* out[0] should be the sum of in[0..n).  Requires: blockDim.x == BLOCK. */
extern "C" __global__ void __launch_bounds__(BLOCK)
sum_double_count(const T *in, T *out, long long n, void *scratch)
{
	T acc = conform_identity<T>();

	for (long long tile = blockIdx.x; tile * BLOCK < n; tile += gridDim.x) {
		const long long lo = tile * BLOCK;
		const long long hi = lo + BLOCK < n - 1 ? lo + BLOCK : n - 1; /* the bug: lo + BLOCK - 1 */
		for (long long i = lo + threadIdx.x; i <= hi; i += BLOCK)
			acc = conform_combine(acc, in[i]);
	}
	finish(block_combine(acc), out, scratch);
}
