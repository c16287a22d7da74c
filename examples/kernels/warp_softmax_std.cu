/*
 * Softmax, one warp per row, in three passes, written as for nvcc with the
 * C and C++ library headers: <cmath>'s std::exp, std::fmax and INFINITY,
 * <cfloat>'s FLT_MAX, <cassert>'s assert and <cstdio>'s printf.  NVRTC has
 * none of these headers; conform gives it its own (docs/kernels.md,
 * "Headers"), so the file compiles unchanged.
 *
 * Each warp takes a row; its lanes stride over the columns (lane j reads
 * columns j, j + 32, ...) three times: for the row's maximum m, starting
 * from -INFINITY (the identity of max, which a lane past the row's end
 * keeps), for the sum s of e^(x - m), and to write e^(x - m) / s.  A
 * butterfly of shuffles gives every lane the row's m, then its s.  All in
 * float: bf16 entries are widened, and each output rounded once.
 * Subtracting the maximum keeps every exponent at or below 0, so rows of
 * +-32000 neither overflow nor give inf / inf, and a -inf entry gives
 * e^(-inf) = 0, exactly as conform requires.  The maximum's own term is
 * e^0 = 1, so s lies in [1, cols], which the assert states (a failed
 * assert stops the kernel: the case is an ERROR, "device-side assert
 * triggered", and -v shows the assertion's line).
 *
 * Thread 0 of block 0 prints the launch's geometry once per launch.  The
 * output reaches conform's stderr with -v (`conform run --kernel
 * warp_softmax_std.cu --n 4 --cols 100 -v`), before the case's line;
 * without -v it is discarded.  Every launch prints, the timed ones of
 * `conform tune` too, and a printf costs time: a kernel meant to be timed
 * prints nothing.
 *
 * What conform reports: PASS for f32 and bf16 over the rows x cols ladder
 * (1 x 1 to 4 x 2^20 + 1, and 2095107 x 1025 in bf16, past 32-bit
 * indices).
 *
 * @kind     softmax
 * @entry    warp_softmax_std
 * @summary  one warp per row, three passes (max, sum, write) with std::exp, printf of the geometry
 * @dtypes   f32 bf16
 * @tunable  warps 1|2|4|8 default=4 space=1,2,4,8 "warps per block (one row per warp at a time)"
 * @block    32 * warps
 * @grid     min((n + warps - 1) / warps, sms * occupancy)
 */
#include <cassert>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cuda_bf16.h> /* the prelude includes it for bf16 only; elem<> names the type always */

#define FULL_MASK 0xffffffffu

/* The widening load to float and the rounding back of each element type. */
template <class V> struct elem {
	static __device__ __forceinline__ float load(const V *p) { return *p; }
	static __device__ __forceinline__ V store(float y) { return y; }
};
template <> struct elem<__nv_bfloat16> {
	static __device__ __forceinline__ float load(const __nv_bfloat16 *p) { return __bfloat162float(*p); }
	static __device__ __forceinline__ __nv_bfloat16 store(float y) { return __float2bfloat16(y); }
};

/*
 * Row r of out = the softmax of row r of in (rows x cols, row-major).
 * Requires: blockDim.x == 32 * WARPS; cols >= 1; every row holds a finite
 * entry (conform's rows do), else m is -inf or NaN and the assert fails.
 */
extern "C" __global__ void __launch_bounds__(32 * WARPS)
warp_softmax_std(const T *in, T *out, long long rows, long long cols, void *scratch)
{
	typedef elem<T> E;
	const int lane = threadIdx.x % 32;
	const long long stride = (long long)gridDim.x * WARPS;

	if (blockIdx.x == 0 && threadIdx.x == 0)
		printf("warp_softmax_std: %lld rows of %lld, %u blocks of %u threads, %d warps a block\n", rows,
		       cols, gridDim.x, blockDim.x, WARPS);

	/* r is the same in every lane of a warp, so the shuffles always have
	 * the whole warp. */
	for (long long r = (long long)blockIdx.x * WARPS + threadIdx.x / 32; r < rows; r += stride) {
		const T *x = in + r * cols;
		T *y = out + r * cols;

		float m = -INFINITY;
		for (long long c = lane; c < cols; c += 32)
			m = std::fmax(m, E::load(x + c));
#pragma unroll
		for (int off = 16; off > 0; off /= 2)
			m = std::fmax(m, __shfl_xor_sync(FULL_MASK, m, off));

		float s = 0.0f;
		for (long long c = lane; c < cols; c += 32)
			s += std::exp(E::load(x + c) - m);
#pragma unroll
		for (int off = 16; off > 0; off /= 2)
			s += __shfl_xor_sync(FULL_MASK, s, off);
		assert(s >= 1.0f && s <= FLT_MAX);

		for (long long c = lane; c < cols; c += 32)
			y[c] = E::store(std::exp(E::load(x + c) - m) / s);
	}
}
