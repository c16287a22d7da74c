/*
 * Mutant: a softmax that writes each row's result one row down.
 *
 * One block per row, three passes (control_softmax.cu), but the output
 * pointer is computed from the next row, wrapping the last row's result
 * round to row 0: out row (r + 1) % rows = softmax of in row r.  Every
 * write stays inside out and every row is written, so nothing is
 * unwritten and every row sums to 1; only the values are in the wrong
 * rows.  With one row it is right, and with one column too (every row's
 * softmax is then [1]); any two rows of two columns or more that differ
 * tell.
 *
 * What conform should report: PASS at 1 x 1, 1 x 31 and 1001 x 1; FAIL
 * at 3 x 32, 7 x 33, 1001 x 257, 33 x 4099 and 4 x 2^20 + 1.
 *
 * @kind     softmax
 * @entry    softmax_row_off
 * @summary  mutant: three-pass softmax writing row r's result into row (r + 1) % rows
 * @dtypes   f32
 * @tunable  block 64..1024 pow2 default=256 "threads per block (one row at a time)"
 * @block    block
 * @grid     min(n, sms * occupancy)
 *
 * mutant-bug: a softmax that writes each row's result one row off (row r into row r+1, the last into row 0)
 * mutant-wrong: n >= 2 and cols >= 2
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

/* Row r of out should be the softmax of row r of in.  Requires:
 * blockDim.x == BLOCK; cols >= 1. */
extern "C" __global__ void __launch_bounds__(BLOCK)
softmax_row_off(const T *in, T *out, long long rows, long long cols, void *scratch)
{
	for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
		const T *x = in + r * cols;
		T *y = out + ((r + 1) % rows) * cols; /* the bug: out + r * cols */
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
