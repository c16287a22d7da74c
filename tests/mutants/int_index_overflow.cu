/*
 * Mutant: a 32-bit element count and index, wrong past 2^31 elements.
 *
 * The grid-stride loop is written the way most CUDA samples write it,
 * with int: `const int count = n; for (int i = blockIdx.x * blockDim.x +
 * threadIdx.x; i < count; i += stride)`.  Up to 2^31 - 2^18 elements that
 * is exact (the grid is fixed at 1024 blocks of 256 threads, a stride of
 * 2^18, so i + stride stays below 2^31).  Above that it breaks two ways:
 * between 2^31 - 2^18 and 2^31 - 1, i + stride overflows int (undefined
 * behaviour: in practice a negative index and an illegal address); from
 * 2^31 on, `count` itself wraps negative, the loop runs no iteration at
 * all, and out[0] is the identity.  The ladder's 2^31 + 3 is the second
 * case: count = -2147483645, every partial is -inf, the output -inf, and
 * nothing out of bounds is read, so conform sees a plain wrong answer.
 * The operator is max so that the answer is unmistakably wrong: a sum of
 * nothing (0) could hide in the tolerance of 2^31 random terms.
 *
 * What conform should report: PASS up to 2^24 + 1, FAIL at 2^31 + 3
 * (-inf against the array's maximum).
 *
 * @kind     reduce
 * @entry    int_index_overflow
 * @summary  mutant: int count and int grid-stride index (no iteration past 2^31 elements)
 * @dtypes   f32
 * @ops      max
 * @block    256
 * @grid     1024
 * @scratch  8 + esize * 1024
 *
 * mutant-bug: 32-bit count and grid-stride index: past 2^31 elements the int count wraps negative and nothing is read
 * mutant-wrong: n > 2**31 - 2**18
 */

#define BLOCK 256 /* @block: the finish below strides by it */

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

/* out[0] should be the maximum of in[0..n).  Requires: 256 threads. */
extern "C" __global__ void __launch_bounds__(BLOCK)
int_index_overflow(const T *in, T *out, long long n, void *scratch)
{
	const int count = n;                        /* the bug: 32 bits */
	const int stride = gridDim.x * blockDim.x;
	T acc = conform_identity<T>();

	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
		acc = conform_combine(acc, in[i]);
	finish(block_combine(acc), out, scratch);
}
