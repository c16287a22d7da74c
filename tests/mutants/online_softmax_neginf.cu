/*
 * Mutant: one-pass ("online") softmax whose merge handles -inf but whose
 * per-element update does not.
 *
 * One warp per row; lane j takes columns j, j + 32, ... and keeps a running
 * maximum m and the sum s of e^(x - m): an element x moves the maximum to
 * m' = max(m, x) and rescales, s' = s * e^(m - m') + e^(x - m').  A
 * butterfly of shuffles merges the lanes' (m, s) pairs, and the merge is
 * guarded: a side whose sum is still 0 (a lane that has seen nothing, in a
 * row shorter than 32) contributes nothing.  The update is not: when a
 * lane's first element is -inf, m and m' are both -inf, m - m' is
 * -inf - (-inf) = NaN and the lane's sum is NaN from then on, which the
 * merges spread to the whole row.  A row of one column cannot hit it (its
 * one entry must be finite); every row of two columns or more can: a
 * finite entry in column 0 and -inf in column 1 (lane 1's first).
 *
 * conform's softmax inputs (kernels/softmax/softmax_input.c) give -inf
 * entries, at even odds, only to rows 3, 11, 19, ...: rows of 1 x 31 and
 * 3 x 32 never have one, so those two ladder cases are wrong but look
 * right unless conform also tries rows with -inf at the start of a lane.
 *
 * What conform should report: PASS at 1 x 1 and 1001 x 1 (right), FAIL
 * (NaN outputs, rows not summing to 1) at 7 x 33, 1001 x 257, 33 x 4099,
 * 4 x 2^20 + 1 and 2095107 x 1025; 1 x 31 and 3 x 32 need a -inf probe.
 *
 * @kind     softmax
 * @entry    online_softmax_neginf
 * @summary  mutant: online softmax, merge guarded, update not (NaN where a lane starts with -inf)
 * @dtypes   f32
 * @tunable  warps 1|2|4|8 default=4 "warps per block (one row per warp at a time)"
 * @block    32 * warps
 * @grid     min((n + warps - 1) / warps, sms * occupancy)
 *
 * mutant-bug: online softmax update without the -inf guard: -inf - -inf = NaN when a lane's first entry is -inf
 * mutant-wrong: cols >= 2
 */

#include "mutant_common.cuh"

/* Takes x into the running (m, s).  The bug: m == m' == -inf makes
 * e^(m - m') NaN; it should leave s alone while m' is -inf. */
static __device__ __forceinline__ void update(float &m, float &s, float x)
{
	const float m2 = fmaxf(m, x);

	s = s * expf(m - m2) + expf(x - m2);
	m = m2;
}

/* Merges another lane's (mo, so) into (m, s); a side that has seen
 * nothing (an empty sum, 0) contributes nothing.  A NaN sum is not 0: it
 * goes on into the row's. */
static __device__ __forceinline__ void merge(float &m, float &s, float mo, float so)
{
	if (so == 0.0f)
		return;
	if (s == 0.0f) {
		m = mo;
		s = so;
		return;
	}
	const float m2 = fmaxf(m, mo);

	s = s * expf(m - m2) + so * expf(mo - m2);
	m = m2;
}

/*
 * Row r of out should be the softmax of row r of in.
 * Requires: blockDim.x == 32 * WARPS; cols >= 1.
 */
extern "C" __global__ void __launch_bounds__(32 * WARPS)
online_softmax_neginf(const T *in, T *out, long long rows, long long cols, void *scratch)
{
	const int lane = threadIdx.x % 32;
	const long long stride = (long long)gridDim.x * WARPS;

	for (long long r = (long long)blockIdx.x * WARPS + threadIdx.x / 32; r < rows; r += stride) {
		const T *x = in + r * cols;
		T *y = out + r * cols;
		float m = NEG_INF, s = 0.0f; /* nothing seen */

		for (long long c = lane; c < cols; c += 32)
			update(m, s, x[c]);
#pragma unroll
		for (int off = 16; off > 0; off /= 2) {
			const float mo = __shfl_xor_sync(FULL_MASK, m, off);
			const float so = __shfl_xor_sync(FULL_MASK, s, off);
			merge(m, s, mo, so);
		}
		for (long long c = lane; c < cols; c += 32)
			y[c] = expf(x[c] - m) / s;
	}
}
