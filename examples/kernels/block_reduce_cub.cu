/*
 * Grid-stride reduction with CUB's block collective: each block reduces its
 * threads with cub::BlockReduce, and the last block to finish combines the
 * blocks' partials through scratch.  The example of a kernel that includes
 * the toolkit's CUDA C++ libraries as it would under nvcc.
 *
 * Each thread combines the elements i, i + gridDim.x * BLOCK, ... (one load
 * at a time: this kernel shows the collective, grid_sum.cu the loads that
 * keep DRAM busy), cub::BlockReduce combines the block's threads with the
 * kernel's operator (conform_combine, through a functor), and thread 0
 * writes the block's value to a partial in scratch and takes a ticket.  The
 * block that takes the last ticket combines the partials with a second
 * BlockReduce, writes out[0] and zeroes the ticket and the partials, so the
 * next launch finds scratch as the first did.  bf16 is combined in float
 * and rounded once, at the end.
 *
 * conform compiles the file with NVRTC, which ships no library headers:
 * <cub/block/block_reduce.cuh> comes from the toolkit (its include path),
 * and <cub/cub.cuh> would work too, as conform's own version with the
 * block, warp and thread collectives (docs/kernels.md, "Headers").
 *
 * What conform reports: PASS for every dtype and operator over the whole
 * size ladder.
 *
 * Scratch: a 4-byte ticket, 4 bytes of padding, then one 8-byte slot per
 * block.  The grid never exceeds sms x occupancy blocks, and @scratch holds
 * exactly that many slots, so the two expressions must change together.
 *
 * @kind     reduce
 * @entry    block_reduce_cub
 * @summary  grid-stride, cub::BlockReduce per block, last block combines the partials
 * @dtypes   f32 f64 i32 bf16
 * @ops      sum max min
 * @tunable  block 64..1024 pow2 default=256 space=128,256,512,1024 "threads per block"
 * @block    block
 * @grid     min(sms * occupancy, max(1, (n + block - 1) / block))
 * @scratch  8 + 8 * sms * occupancy
 */
#include <cub/block/block_reduce.cuh>
#include <cuda_bf16.h> /* the prelude includes it for bf16 only; accumulator<> names the type always */

#define PARTIALS_OFFSET 8 /* bytes of scratch before the first partial */

/* What each element type is combined in: float for bf16, itself otherwise.
 * The conversions both ways are the types' own (bf16 rounds to nearest). */
template <class V> struct accumulator {
	typedef V type;
};
template <> struct accumulator<__nv_bfloat16> {
	typedef float type;
};

/* The case's operator as the functor cub::BlockReduce::Reduce takes. */
struct combine {
	template <class V> __device__ __forceinline__ V operator()(const V &a, const V &b) const
	{
		return conform_combine(a, b);
	}
};

/*
 * out[0] = the operator over in[0..n).
 * Requires: blockDim.x == BLOCK; scratch zeroed, with room for gridDim.x
 * partials of 8 bytes after PARTIALS_OFFSET (the declaration's @grid and
 * @scratch keep gridDim.x <= sms x occupancy slots).
 */
extern "C" __global__ void __launch_bounds__(BLOCK)
block_reduce_cub(const T *in, T *out, long long n, void *scratch)
{
	typedef typename accumulator<T>::type A;
	typedef cub::BlockReduce<A, BLOCK> BlockReduce;
	__shared__ typename BlockReduce::TempStorage temp;
	__shared__ bool last;
	unsigned *ticket = (unsigned *)scratch;
	A *partials = (A *)((char *)scratch + PARTIALS_OFFSET);

	A acc = conform_identity<A>();
	for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK)
		acc = conform_combine(acc, A(in[i]));
	/* Only thread 0 receives the block's value. */
	const A total = BlockReduce(temp).Reduce(acc, combine());

	/* The fence makes the partial visible before the ticket says it is
	 * there; the last block's fence orders its reads after every ticket. */
	if (threadIdx.x == 0) {
		partials[blockIdx.x] = total;
		__threadfence();
		last = atomicAdd(ticket, 1u) == gridDim.x - 1;
	}
	/* Also the barrier CUB asks for before temp is used again. */
	__syncthreads();
	if (!last)
		return;
	__threadfence();

	A v = conform_identity<A>();
	for (unsigned b = threadIdx.x; b < gridDim.x; b += BLOCK) {
		v = conform_combine(v, __ldcg(partials + b)); /* past L1: written by other blocks */
		partials[b] = A();
	}
	v = BlockReduce(temp).Reduce(v, combine());
	if (threadIdx.x == 0) {
		out[0] = T(v);
		*ticket = 0;
	}
}
