/*
 * Control: a correct grid-stride max and min, the skeleton of
 * control_grid_sum.cu with the identity of each operator (-inf for max,
 * +inf for min) wherever nothing has been read yet.
 *
 * Each thread takes the operator over a grid-stride slice with a 64-bit
 * index, the warp and the block combine their values, and the last block
 * to take a ticket combines the blocks' partials, writes out[0] and
 * zeroes the ticket and the partials.  Max and min are exact, so conform
 * compares them bit for bit.
 *
 * What conform reports: PASS for max and min at every size given.  A FAIL
 * here is a false failure of conform.
 *
 * @kind     reduce
 * @entry    control_max_min
 * @summary  control: grid-stride max and min, last block combines the partials (correct)
 * @dtypes   f32
 * @ops      max min
 * @tunable  block 64..1024 pow2 default=256 space=128,256,512 "threads per block"
 * @block    block
 * @grid     min(sms * occupancy, max(1, (n + block - 1) / block))
 * @scratch  8 + esize * sms * occupancy
 *
 * mutant-bug: none (control): a correct grid-stride max and min
 * mutant-wrong: False
 * mutant-args: --n 1,31,32,33,255,257,4097,65521,1000003,16777215,16777217
 */

#define FULL_MASK 0xffffffffu
#define PARTIALS_OFFSET 8 /* bytes of scratch before the first partial */

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

/*
 * out[0] = the operator over in[0..n).
 * Requires: blockDim.x == BLOCK; scratch zeroed, a 4-byte ticket, 4 bytes
 * of padding and gridDim.x partials.
 */
extern "C" __global__ void __launch_bounds__(BLOCK)
control_max_min(const T *in, T *out, long long n, void *scratch)
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
	if (threadIdx.x == 0) {
		out[0] = acc;
		*ticket = 0;
	}
}
