/*
 * Control: a correct grid-stride sum, the pattern most of the mutants
 * beside it break in one place.
 *
 * Each thread sums a grid-stride slice of the array with a 64-bit index,
 * a warp combines its lanes with shuffles and the block its warps through
 * shared memory; each block stores its value as a partial in scratch and
 * takes a ticket, and the block that takes the last ticket adds the
 * partials, writes out[0] and puts the ticket and the partials back to
 * zero, so the next launch finds scratch as the first did.  The grid is
 * at most sms x occupancy blocks, so a thread's chain of additions is
 * short (about n / (sms x occupancy x block) terms, some 8000 at 2^31 + 3
 * on a 132-SM GPU) and the sum stays well inside conform's tolerance even
 * for an adversarial input.
 *
 * What conform reports: PASS at every size of the ladder, 2^31 + 3
 * included.  A FAIL here is a false failure of conform (or of the GPU).
 *
 * @kind     reduce
 * @entry    control_grid_sum
 * @summary  control: grid-stride sum, shuffles, last block combines the partials (correct)
 * @dtypes   f32
 * @ops      sum
 * @tunable  block 64..1024 pow2 default=256 space=128,256,512 "threads per block"
 * @block    block
 * @grid     min(sms * occupancy, max(1, (n + block - 1) / block))
 * @scratch  8 + esize * sms * occupancy
 *
 * mutant-bug: none (control): a correct grid-stride sum with a last-block finish
 * mutant-wrong: False
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
 * out[0] = the sum of in[0..n).
 * Requires: blockDim.x == BLOCK; scratch zeroed, a 4-byte ticket, 4 bytes
 * of padding and gridDim.x partials.
 */
extern "C" __global__ void __launch_bounds__(BLOCK)
control_grid_sum(const T *in, T *out, long long n, void *scratch)
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
