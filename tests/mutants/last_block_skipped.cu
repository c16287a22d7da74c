/*
 * Mutant: the last, partial block is never launched.
 *
 * One thread per element, one 256-element tile per block, and the grid
 * computed as n / 256, rounded down (with at least one block).  The
 * elements of the last partial tile, from 256 * floor(n / 256) to n - 1,
 * belong to a block that does not exist.  Below 256 elements the single
 * block covers them all, and a multiple of 256 has no partial tile; every
 * other n from 257 on loses 1 .. 255 elements.
 *
 * What conform should report: PASS at 1 .. 256, 512 and other multiples
 * of 256; FAIL at 257, 513, 4097 and every ladder size above.  At 2^24 +
 * 1 and 2^31 + 3 only 1 and 3 elements are lost: random inputs hide that
 * in the sum's tolerance; a probe with ones at the end shows it.
 *
 * @kind     reduce
 * @entry    last_block_skipped
 * @summary  mutant: grid = n / 256 rounded down, the partial last tile is never read
 * @dtypes   f32
 * @ops      sum
 * @block    256
 * @grid     max(1, n / 256)
 * @scratch  8 + esize * max(1, n / 256)
 *
 * mutant-bug: the last block skipped (grid = n / 256 rounded down)
 * mutant-wrong: n > 256 and n % 256 != 0
 * mutant-args: --n 1,31,32,33,255,256,257,512,513,4097,65521,1000003,16777215,16777217,2147483651
 */

#define BLOCK 256 /* @block, and the tile: one element per thread */

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

/* out[0] should be the sum of in[0..n).  Requires: 256 threads. */
extern "C" __global__ void __launch_bounds__(BLOCK)
last_block_skipped(const T *in, T *out, long long n, void *scratch)
{
	const long long i = (long long)blockIdx.x * BLOCK + threadIdx.x;
	T acc = i < n ? in[i] : conform_identity<T>();

	finish(block_combine(acc), out, scratch);
}
