/*
 * Control: a correct three-pass softmax, one block per row.
 *
 * Block b takes rows b, b + gridDim.x, ...; the block finds the row's
 * maximum m, then the sum s of e^(x - m), then writes e^(x - m) / s, all
 * in float with expf.  Subtracting the maximum keeps every exponent at or
 * below 0, so the full-range rows (+-32000) neither overflow nor give
 * inf / inf; an entry of -inf gives e^(-inf) = 0 exactly, as conform
 * requires, and a row always keeps one finite entry, so m is finite.
 *
 * What conform reports: PASS over the whole rows x cols ladder.  A FAIL
 * here is a false failure of conform.
 *
 * @kind     softmax
 * @entry    control_softmax
 * @summary  control: three passes (max, sum of exponentials, write), one block per row (correct)
 * @dtypes   f32
 * @tunable  block 64..1024 pow2 default=256 space=128,256,512 "threads per block (one row at a time)"
 * @block    block
 * @grid     min(n, sms * occupancy)
 *
 * mutant-bug: none (control): a correct three-pass softmax
 * mutant-wrong: False
 */

#define FULL_MASK 0xffffffffu
#define NEG_INF __int_as_float(0xff800000)

/* The block's maximum (is_max) or sum of v, in every thread.  Requires:
 * blockDim.x == BLOCK, a multiple of 32; every thread calls it. */
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
 * Row r of out = softmax of row r of in, r < rows.
 * Requires: blockDim.x == BLOCK; cols >= 1; each row has a finite entry.
 */
extern "C" __global__ void __launch_bounds__(BLOCK)
control_softmax(const T *in, T *out, long long rows, long long cols, void *scratch)
{
	for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
		const T *x = in + r * cols;
		T *y = out + r * cols;
		float m = NEG_INF, s = 0.0f;

		for (long long c = threadIdx.x; c < cols; c += BLOCK)
			m = fmaxf(m, x[c]);
		m = block_all(m, true);
		for (long long c = threadIdx.x; c < cols; c += BLOCK)
			s += expf(x[c] - m);
		s = block_all(s, false);
		for (long long c = threadIdx.x; c < cols; c += BLOCK)
			y[c] = expf(x[c] - m) / s;
	}
}
