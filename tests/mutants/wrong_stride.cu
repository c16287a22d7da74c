/*
 * Mutant: a grid-stride loop that strides by blockDim.x instead of
 * gridDim.x * blockDim.x.
 *
 * Thread t of block b starts at b * 256 + t, as it should, but steps by
 * 256: block b reads everything from b * 256 to the end, so element i is
 * counted by blocks 0 .. min(i / 256, gridDim.x - 1), up to 64 times.  The
 * grid is min(64, ceil(n / 256)) blocks: with one block (n <= 256) the
 * stride is the grid's and the sum is right; from 257 on there are two
 * blocks or more and in[256] is counted twice at least.
 *
 * What conform should report: PASS at 1 .. 256, FAIL from 257 on.
 *
 * @kind     reduce
 * @entry    wrong_stride
 * @summary  mutant: grid-stride loop stepping by blockDim.x (elements counted by several blocks)
 * @dtypes   f32
 * @ops      sum
 * @tunable  block 256 default=256 "threads per block"
 * @block    block
 * @grid     min(64, max(1, (n + block - 1) / block))
 * @scratch  8 + esize * 64
 *
 * mutant-bug: grid-stride loop with stride blockDim.x instead of gridDim.x*blockDim.x (elements counted several times)
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

/* out[0] should be the sum of in[0..n). */
extern "C" __global__ void __launch_bounds__(BLOCK)
wrong_stride(const T *in, T *out, long long n, void *scratch)
{
	T acc = conform_identity<T>();

	/* The bug: the step should be (long long)gridDim.x * BLOCK. */
	for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += BLOCK)
		acc = conform_combine(acc, in[i]);
	finish(block_combine(acc), out, scratch);
}
