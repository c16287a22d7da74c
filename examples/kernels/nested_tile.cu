/*
 * Block reduction by cooperative groups on nested tiles: a 4-thread tile
 * partitioned from an 8-thread tile, each doing its own part.
 *
 * Each thread combines a grid-stride slice of the array.  The block is cut
 * into 8-thread tiles and each of those into two 4-thread tiles
 * (cg::tiled_partition<4> of the 8-thread tile: meta_group_size() is 2, and
 * meta_group_rank() says which half a thread is in).  cg::reduce combines
 * each 4-thread tile; one shuffle of the 8-thread tile brings the upper
 * half's value to the lower half, and the 8-thread tile's first thread
 * stores the sum in shared memory.  After the block's barrier the first
 * warp, as a 32-thread tile, combines those values with cg::reduce.  Every
 * collective names only its own tile's threads, and every tile is whole,
 * so nothing depends on which threads have data: threads past n combine
 * the identity.  Blocks write a partial each to scratch and take a ticket;
 * the last block combines the partials, writes out[0] and zeroes what it
 * used.  Indices are 64-bit, so n may exceed 2^31.
 *
 * What conform reports: PASS for f32 and i32, sum, max and min, over the
 * whole size ladder.
 *
 * Scratch: a 4-byte ticket, 4 bytes of padding, then one element per block;
 * the grid is at most sms x occupancy blocks and @scratch holds that many.
 *
 * @kind     reduce
 * @entry    nested_tile
 * @summary  cg::reduce on 4-thread tiles partitioned from 8-thread tiles, last block finishes
 * @dtypes   f32 i32
 * @ops      sum max min
 * @tunable  block 64..1024 pow2 default=256 space=128,256,512,1024 "threads per block"
 * @block    block
 * @grid     min(sms * occupancy, max(1, (n + block - 1) / block))
 * @scratch  8 + esize * sms * occupancy
 */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

#define PARTIALS_OFFSET 8 /* bytes of scratch before the first partial */

/* The case's operator as the functor cg::reduce takes. */
#if CONFORM_OP == CONFORM_SUM
typedef cg::plus<T> tile_op;
#elif CONFORM_OP == CONFORM_MAX
typedef cg::greater<T> tile_op;
#else
typedef cg::less<T> tile_op;
#endif

/*
 * Thread 0 returns the block's value (the other threads something partial).
 * Requires: blockDim.x == BLOCK, a multiple of 32; every thread calls it; a
 * second call comes after a barrier that follows the first.
 */
static __device__ T block_value(T v)
{
	__shared__ T eight_value[BLOCK / 8];
	const cg::thread_block block = cg::this_thread_block();
	const cg::thread_block_tile<8> eight = cg::tiled_partition<8>(block);
	const cg::thread_block_tile<4> four = cg::tiled_partition<4>(eight);
	const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);

	v = cg::reduce(four, v, tile_op());
	/* Threads 0..3 of the eight take the value of threads 4..7 (the
	 * other half, meta_group_rank() 1). */
	const T upper = eight.shfl_down(v, 4);
	if (four.meta_group_rank() == 0)
		v = conform_combine(v, upper);
	if (eight.thread_rank() == 0)
		eight_value[eight.meta_group_rank()] = v;
	block.sync();
	if (warp.meta_group_rank() == 0) {
		/* BLOCK / 8 values, up to 128: up to four per thread. */
		v = conform_identity<T>();
		for (unsigned k = warp.thread_rank(); k < BLOCK / 8; k += 32)
			v = conform_combine(v, eight_value[k]);
		v = cg::reduce(warp, v, tile_op());
	}
	return v;
}

/*
 * out[0] = the operator over in[0..n).
 * Requires: blockDim.x == BLOCK; scratch zeroed, with room for gridDim.x
 * elements after PARTIALS_OFFSET.
 */
extern "C" __global__ void __launch_bounds__(BLOCK)
nested_tile(const T *in, T *out, long long n, void *scratch)
{
	unsigned *ticket = (unsigned *)scratch;
	T *partials = (T *)((char *)scratch + PARTIALS_OFFSET);
	const long long step = (long long)gridDim.x * BLOCK;
	__shared__ bool last;
	T v = conform_identity<T>();

	for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += step)
		v = conform_combine(v, in[i]);
	v = block_value(v);

	if (threadIdx.x == 0) {
		partials[blockIdx.x] = v;
		__threadfence();
		last = atomicAdd(ticket, 1u) == gridDim.x - 1;
	}
	__syncthreads();
	if (!last)
		return;
	__threadfence();

	v = conform_identity<T>();
	for (unsigned b = threadIdx.x; b < gridDim.x; b += BLOCK) {
		v = conform_combine(v, __ldcg(partials + b)); /* past L1: written by other blocks */
		partials[b] = T();
	}
	v = block_value(v);
	if (threadIdx.x == 0) {
		out[0] = v;
		*ticket = 0;
	}
}
