/*
 * One kernel, two stages, joined by grid.sync(): every block reduces its
 * grid-stride slice to one partial in scratch, the whole grid waits, and
 * block 0 reduces the partials into out[0].
 *
 * grid.sync() is only defined when every block of the grid is resident at
 * once, which a cooperative launch guarantees or refuses: @cooperative asks
 * conform for one (cudaLaunchCooperativeKernel), and @grid asks for exactly
 * what fits, sms x occupancy blocks (conform refuses a larger cooperative
 * grid before it launches).  Block 0 zeroes each partial as it reads it:
 * conform zeroes the scratch once and checks after every launch that the
 * kernel left it zeroed (a kernel that does not FAILs: "left its scratch
 * dirty").  Declared
 * without @cooperative the same kernel is undefined: the grid may not be resident,
 * and the blocks waiting at grid.sync() would wait for blocks that cannot
 * start.
 *
 * What conform reports: PASS for every dtype and operator over the size
 * ladder.
 *
 * @kind        reduce
 * @entry       coop_sum
 * @summary     grid-stride partials, grid.sync() in a cooperative launch, block 0 finishes
 * @dtypes      f32 f64 i32
 * @ops         sum max min
 * @cooperative
 * @tunable     block 64..1024 pow2 default=256 space=128,256,512,1024 "threads per block"
 * @block       block
 * @grid        sms * occupancy
 * @scratch     esize * sms * occupancy
 */
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

/* The operator over a warp: every lane ends with the warp's value. */
__device__ __forceinline__ T warp_combine(T v)
{
	for (int off = 16; off > 0; off >>= 1)
		v = conform_combine(v, __shfl_xor_sync(0xffffffffu, v, off));
	return v;
}

/* The operator over the block; thread 0 returns it.  The leading barrier
 * lets the block call it twice on the same shared array. */
__device__ T block_combine(T v, T *warps)
{
	const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;

	v = warp_combine(v);
	__syncthreads();
	if (lane == 0)
		warps[warp] = v;
	__syncthreads();
	v = threadIdx.x < BLOCK / 32 ? warps[threadIdx.x] : conform_identity<T>();
	return warp < 1 ? warp_combine(v) : v;
}

extern "C" __global__ void __launch_bounds__(BLOCK)
coop_sum(const T *in, T *out, long long n, void *scratch)
{
	__shared__ T warps[32];
	cg::grid_group grid = cg::this_grid();
	T *partial = (T *)scratch;
	T acc = conform_identity<T>();

	for (long long i = (long long)grid.thread_rank(); i < n; i += (long long)grid.size())
		acc = conform_combine(acc, in[i]);
	acc = block_combine(acc, warps);
	if (threadIdx.x == 0)
		partial[blockIdx.x] = acc;
	grid.sync();
	if (blockIdx.x != 0)
		return;
	acc = conform_identity<T>();
	/* Each partial is read once, here, and zeroed as it is read: a
	 * kernel leaves its scratch as it found it (docs/kernels.md). */
	for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) {
		acc = conform_combine(acc, partial[b]);
		memset(&partial[b], 0, sizeof partial[b]);
	}
	acc = block_combine(acc, warps);
	if (threadIdx.x == 0)
		out[0] = acc;
}
