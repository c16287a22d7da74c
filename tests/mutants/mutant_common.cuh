/*
 * mutant_common.cuh - the correct device helpers the mutants and controls
 * beside it share, so that each kernel file keeps only its own kernel and
 * its one bug.  Not a kernel file: it declares nothing for conform, and
 * scripts/mutants and tests/mutants.sh take only *.cu.
 *
 * A kernel file includes it by a quoted name (conform hashes it with the
 * file, docs/kernels.md), after conform's prelude: T, conform_combine()
 * and conform_identity<V>() come from there.  The helpers that need the
 * block size read the macro BLOCK, so they exist only where BLOCK is
 * defined before the #include: by conform, for a tunable named block, or
 * by the file's own `#define BLOCK 256` for a fixed @block.
 *
 * Every helper here is correct; a file whose bug lies in one of these
 * patterns keeps its own wrong copy instead of including the right one.
 */
#ifndef MUTANT_COMMON_CUH
#define MUTANT_COMMON_CUH

#define FULL_MASK 0xffffffffu                  /* every lane of a warp */
#define NEG_INF __int_as_float(0xff800000)      /* float -inf */
#define PARTIALS_OFFSET 8 /* bytes of scratch before the first partial (finish()) */

/*
 * The operator over the 32 lanes' v; every lane ends with the warp's
 * value (a butterfly of shuffles from offset 16 down to 1).  Requires:
 * all 32 lanes of the warp call it together.
 */
static __device__ __forceinline__ T warp_combine(T v)
{
#pragma unroll
	for (int off = 16; off > 0; off /= 2)
		v = conform_combine(v, __shfl_xor_sync(FULL_MASK, v, off));
	return v;
}

#ifdef BLOCK

/*
 * The operator over the block's v: each warp combines its lanes, lane 0
 * stores the warp's value in shared memory, and warp 0 combines those.
 * Thread 0 returns the block's value (the other lanes of warp 0 hold it
 * too; the other warps hold their own warp's value).  Requires:
 * blockDim.x == BLOCK, a multiple of 32 up to 1024; every thread of the
 * block calls it.  The leading barrier lets a block call it more than
 * once (twice in a launch, or once per row).
 */
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
 * This thread's share of a grid-stride pass over in[0..n): the operator
 * over in[i], i = blockIdx.x * BLOCK + threadIdx.x stepping by
 * gridDim.x * BLOCK, with a 64-bit index (conform_identity<T>() when the
 * thread has no element).  Requires: blockDim.x == BLOCK.
 */
static __device__ __forceinline__ T grid_stride_combine(const T *in, long long n)
{
	T acc = conform_identity<T>();

	for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK)
		acc = conform_combine(acc, in[i]);
	return acc;
}

/*
 * The last-block finish: thread 0 of each block passes its block's value
 * `total` (as block_combine() returns it); it is stored as the block's
 * partial, and the block that takes the last ticket combines the
 * partials, writes out[0] and puts the ticket and the partials back to
 * zero, so the next launch finds scratch as this one did.  Every thread of
 * the block calls it.  Requires: blockDim.x == BLOCK; scratch zeroed, a
 * 4-byte ticket, 4 bytes of padding (PARTIALS_OFFSET) and gridDim.x
 * partials of T.
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

/*
 * The block's maximum (is_max) or sum of the float v, returned in every
 * thread (through shared memory), for the softmax kernels, which reduce in
 * float whatever the operator.  Requires: blockDim.x == BLOCK, a multiple
 * of 32 up to 1024; every thread of the block calls it.  The barrier
 * before its shared stores lets a block call it again and again.
 */
static __device__ float block_all(float v, bool is_max)
{
	__shared__ float warp_value[32];
	__shared__ float result;
	const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;

#pragma unroll
	for (int off = 16; off > 0; off /= 2) {
		const float o = __shfl_xor_sync(FULL_MASK, v, off);
		v = is_max ? fmaxf(v, o) : v + o;
	}
	__syncthreads();
	if (lane == 0)
		warp_value[warp] = v;
	__syncthreads();
	if (warp == 0) {
		v = lane < BLOCK / 32 ? warp_value[lane] : (is_max ? NEG_INF : 0.0f);
#pragma unroll
		for (int off = 16; off > 0; off /= 2) {
			const float o = __shfl_xor_sync(FULL_MASK, v, off);
			v = is_max ? fmaxf(v, o) : v + o;
		}
		if (lane == 0)
			result = v;
	}
	__syncthreads();
	return result;
}

/*
 * The three passes of a softmax row in float, one block per row (x and y
 * the row's input and output, cols >= 1 entries); every thread of the
 * block calls each, with the same row.  Requires: blockDim.x == BLOCK, a
 * multiple of 32 up to 1024.
 *
 * softmax_row_max: the row's maximum, in every thread.
 * softmax_row_sum_exp: the sum of e^(x[c] - m) over the row, in every
 *   thread (m: the row's maximum).
 * softmax_row_store: y[c] = e^(x[c] - m) / s for the columns this thread
 *   strides over (s: the sum above).
 */
static __device__ __forceinline__ float softmax_row_max(const T *x, long long cols)
{
	float m = NEG_INF;

	for (long long c = threadIdx.x; c < cols; c += BLOCK)
		m = fmaxf(m, x[c]);
	return block_all(m, true);
}

static __device__ __forceinline__ float softmax_row_sum_exp(const T *x, long long cols, float m)
{
	float s = 0.0f;

	for (long long c = threadIdx.x; c < cols; c += BLOCK)
		s += expf(x[c] - m);
	return block_all(s, false);
}

static __device__ __forceinline__ void softmax_row_store(const T *x, T *y, long long cols, float m, float s)
{
	for (long long c = threadIdx.x; c < cols; c += BLOCK)
		y[c] = expf(x[c] - m) / s;
}

#endif /* BLOCK */
#endif /* MUTANT_COMMON_CUH */
