/*
 * collectives.cuh - warp- and block-level reductions shared by the families.
 *
 * Layered as in CUB: a warp reduction made of shuffles (or of cg::reduce),
 * and a block reduction made of a warp reduction per warp plus one small
 * shared-memory stage.  The kernels under test compose these; the functions
 * here carry their own preconditions.
 */
#ifndef CONFORM_COLLECTIVES_CUH
#define CONFORM_COLLECTIVES_CUH

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "kernels/reduce_ops.cuh"

#define FULL_MASK 0xffffffffu

/*
 * Tree reduction by __shfl_down_sync within sections of `width` lanes:
 * lane 0 of each section ends with the section's result, other lanes with
 * partial values.  Requires: all 32 lanes converged and non-exited; width a
 * power of two <= 32.
 */
template <class Op, class T>
static __device__ __forceinline__ T warp_reduce_down(T v, int width = 32)
{
	for (int off = width / 2; off > 0; off /= 2)
		v = Op::apply(v, __shfl_down_sync(FULL_MASK, v, off, width));
	return v;
}

/*
 * Butterfly reduction by __shfl_xor_sync: every lane of each `width`-lane
 * section ends with the section's result.  Requires: as warp_reduce_down.
 */
template <class Op, class T>
static __device__ __forceinline__ T warp_reduce_xor(T v, int width = 32)
{
	for (int off = width / 2; off > 0; off /= 2)
		v = Op::apply(v, __shfl_xor_sync(FULL_MASK, v, off, width));
	return v;
}

/* Warp-reduction policies for block_reduce_two_stage: lane 0 gets the result. */
struct warp_by_shfl {
	template <class Op, class T>
	static __device__ __forceinline__ T reduce(T v) { return warp_reduce_down<Op>(v); }
};

struct warp_by_cg {
	template <class Op, class T>
	static __device__ __forceinline__ T reduce(T v)
	{
		namespace cg = cooperative_groups;
		cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());
		return cg::reduce(w, v, typename Op::cg());
	}
};

/*
 * Block reduction: each warp reduces its values, warp leaders write the 32
 * or fewer partials to shared memory, one __syncthreads, then warp 0 reduces
 * the partials.  Thread 0 returns the block's result.
 * Requires: blockDim.x a multiple of 32, 32..1024; every thread of the block
 * calls it; a second call in the same kernel comes after a block-wide
 * barrier (warp 0 may still be reading the partials of the first).
 */
template <class Op, class Warp, class T>
static __device__ __forceinline__ T block_reduce_two_stage(T v)
{
	__shared__ T partial[32];
	const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;

	v = Warp::template reduce<Op>(v);
	if (lane == 0)
		partial[warp] = v;
	__syncthreads();
	if (warp == 0) {
		v = lane < blockDim.x / 32 ? partial[lane] : Op::identity();
		v = Warp::template reduce<Op>(v);
	}
	return v;
}

#endif
