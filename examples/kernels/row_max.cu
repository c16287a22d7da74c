/*
 * Row reduction, one warp per row: the example of a @kind rows kernel.
 *
 * Each warp takes a row, its lanes stride over the columns (lane j reads
 * columns j, j + 32, ...; four loads in flight per lane while four whole
 * warp-widths remain), and a butterfly of shuffles leaves the row's value in
 * every lane; lane 0 writes it.  Warps move on by the grid's warp count, so
 * any number of rows fits a grid of resident blocks, and any cols >= 1 works
 * (lanes past the row's end hold the identity).  bf16 is combined in float
 * and rounded once, which is exact for max and min and what the reference
 * does for sum.
 *
 * What conform reports: PASS for every dtype and operator over the rows x
 * cols ladder (1 x 1 to 4 x 2^20 + 1, and 2095107 x 1025, past 32-bit
 * indices).
 *
 * @kind     rows
 * @entry    row_max
 * @summary  one warp per row, strided loads, shuffle butterfly
 * @dtypes   f32 f64 bf16
 * @ops      max sum min
 * @tunable  warps 1|2|4|8 default=4 space=1,2,4,8 "warps per block (one row per warp at a time)"
 * @block    32 * warps
 * @grid     min((n + warps - 1) / warps, sms * occupancy)
 */
#include <cuda_bf16.h> /* the prelude includes it for bf16 only; elem<> names the type always */

#define FULL_MASK 0xffffffffu

/* The accumulator of each element type (float for bf16), the widening
 * load and the rounding back. */
template <class V> struct elem {
	typedef V A;
	static __device__ __forceinline__ A load(const V *p) { return *p; }
	static __device__ __forceinline__ V result(A a) { return a; }
};

template <> struct elem<__nv_bfloat16> {
	typedef float A;
	static __device__ __forceinline__ A load(const __nv_bfloat16 *p) { return __bfloat162float(*p); }
	static __device__ __forceinline__ __nv_bfloat16 result(A a) { return __float2bfloat16(a); }
};

/*
 * out[r] = the operator over in[r * cols .. r * cols + cols).
 * Requires: blockDim.x == 32 * WARPS; cols >= 1.
 */
extern "C" __global__ void __launch_bounds__(32 * WARPS)
row_max(const T *in, T *out, long long rows, long long cols, void *scratch)
{
	typedef elem<T> E;
	typedef typename E::A A;
	const int lane = threadIdx.x % 32;
	const long long stride = (long long)gridDim.x * WARPS;

	/* r is the same in every lane of a warp, so the shuffles below always
	 * have the whole warp. */
	for (long long r = (long long)blockIdx.x * WARPS + threadIdx.x / 32; r < rows; r += stride) {
		const T *row = in + r * cols;
		A a0 = conform_identity<A>(), a1 = a0, a2 = a0, a3 = a0;
		long long c = lane;

		for (; c + 96 < cols; c += 128) {
			const A x0 = E::load(row + c), x1 = E::load(row + c + 32);
			const A x2 = E::load(row + c + 64), x3 = E::load(row + c + 96);
			a0 = conform_combine(a0, x0);
			a1 = conform_combine(a1, x1);
			a2 = conform_combine(a2, x2);
			a3 = conform_combine(a3, x3);
		}
		for (; c < cols; c += 32)
			a0 = conform_combine(a0, E::load(row + c));

		A v = conform_combine(conform_combine(a0, a1), conform_combine(a2, a3));
#pragma unroll
		for (int off = 16; off > 0; off /= 2)
			v = conform_combine(v, __shfl_xor_sync(FULL_MASK, v, off));
		if (lane == 0)
			out[r] = E::result(v);
	}
}
