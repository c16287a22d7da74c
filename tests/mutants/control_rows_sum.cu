/*
 * Control: a correct row sum, one block per row.
 *
 * Block b takes rows b, b + gridDim.x, ...; its threads stride over the
 * row's columns with a 64-bit offset r * cols + c, a warp combines its
 * lanes with shuffles and the block its warps through shared memory, and
 * thread 0 writes out[r].  Any cols >= 1 works: threads past the row's
 * end hold 0.  With 256 threads a row of 2^20 + 1 columns is about 4100
 * additions per thread and a tree of 8 levels, well inside conform's
 * tolerance for any input.
 *
 * What conform reports: PASS over the whole rows x cols ladder.  A FAIL
 * here is a false failure of conform.
 *
 * @kind     rows
 * @entry    control_rows_sum
 * @summary  control: one block per row, strided columns, shuffles (correct)
 * @dtypes   f32
 * @ops      sum
 * @tunable  block 64..1024 pow2 default=256 space=128,256,512 "threads per block (one row at a time)"
 * @block    block
 * @grid     min(n, sms * occupancy)
 *
 * mutant-bug: none (control): a correct row sum, one block per row
 * mutant-wrong: False
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
 * block call it once per row. */
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
 * out[r] = the sum of in[r * cols .. r * cols + cols), r < rows.
 * Requires: blockDim.x == BLOCK; cols >= 1.
 */
extern "C" __global__ void __launch_bounds__(BLOCK)
control_rows_sum(const T *in, T *out, long long rows, long long cols, void *scratch)
{
	/* r is the same in every thread of a block: the barriers inside
	 * block_combine() see the whole block. */
	for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
		const T *row = in + r * cols;
		T acc = conform_identity<T>();

		for (long long c = threadIdx.x; c < cols; c += BLOCK)
			acc = conform_combine(acc, row[c]);
		acc = block_combine(acc);
		if (threadIdx.x == 0)
			out[r] = acc;
	}
}
