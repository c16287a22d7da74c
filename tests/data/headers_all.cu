/*
 * Every header, macro and std:: name that docs/kernels.md's "Headers"
 * says a kernel file may use, used the way a kernel written for nvcc uses
 * them.  tests/test_nvrtc_headers.c compiles it through conform's build
 * (NVRTC and the headers conform gives it), once as it is and once with
 * its #include lines in the reverse order, and with nvcc -DT=float where
 * configure found nvcc: it is a kernel that compiles with nvcc and must
 * compile unchanged under conform.  It is never launched.
 *
 * @kind    reduce
 * @entry   headers_all
 * @dtypes  f32
 * @block   32
 * @grid    1
 */
#include <cmath>
#include <math.h>
#include <cstdint>
#include <stdint.h>
#include <cfloat>
#include <float.h>
#include <climits>
#include <limits.h>
#include <cstdio>
#include <stdio.h>
#include <cassert>
#include <assert.h>
#include <cstddef>
#include <stddef.h>
#include <limits>
#include <algorithm>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda/std/cmath>
#include <cuda/std/cstdint>
#include <cuda/std/cfloat>
#include <cuda/std/climits>
#include <cuda/std/cassert>
#include <cuda/std/limits>
#include <cuda/std/type_traits>
#include <cub/cub.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/warp/warp_reduce.cuh>

namespace cg = cooperative_groups;

__device__ const float float_macros[] = {
	INFINITY, -INFINITY, NAN, HUGE_VALF, FLT_MAX, FLT_MIN, FLT_EPSILON, FLT_TRUE_MIN,
	FLT_RADIX, FLT_MANT_DIG, FLT_DIG, FLT_MIN_EXP, FLT_MAX_EXP, FLT_MIN_10_EXP, FLT_MAX_10_EXP,
};
__device__ const double double_macros[] = {
	HUGE_VAL, DBL_MAX, DBL_MIN, DBL_EPSILON, DBL_TRUE_MIN, DBL_MANT_DIG, DBL_DIG,
	DBL_MIN_EXP, DBL_MAX_EXP, DBL_MIN_10_EXP, DBL_MAX_10_EXP, FP_NAN, FP_INFINITE, FP_ZERO,
};
__device__ const long long signed_limits[] = {
	INT_MAX, INT_MIN, LLONG_MAX, LLONG_MIN, LONG_MAX, LONG_MIN, SHRT_MAX, SHRT_MIN, SCHAR_MAX,
	SCHAR_MIN, CHAR_MAX, CHAR_MIN, CHAR_BIT, INT8_MIN, INT8_MAX, INT16_MIN, INT16_MAX, INT32_MIN,
	INT32_MAX, INT64_MIN, INT64_MAX, INT_LEAST8_MIN, INT_LEAST64_MAX, INT_FAST8_MIN, INT_FAST64_MAX,
	INTPTR_MIN, INTPTR_MAX, INTMAX_MIN, INTMAX_MAX, PTRDIFF_MIN, PTRDIFF_MAX, INT8_C(1), INT64_C(1),
	INTMAX_C(1),
};
__device__ const unsigned long long unsigned_limits[] = {
	UINT_MAX, ULLONG_MAX, ULONG_MAX, USHRT_MAX, UCHAR_MAX, UINT8_MAX, UINT16_MAX, UINT32_MAX,
	UINT64_MAX, UINT_LEAST16_MAX, UINT_FAST32_MAX, UINTPTR_MAX, UINTMAX_MAX, SIZE_MAX, UINT8_C(1),
	UINT64_C(1), UINTMAX_C(1),
};

/* The <stdint.h> types, global and in std, and <cstddef>'s. */
__device__ std::size_t type_sizes()
{
	return sizeof(int8_t) + sizeof(int16_t) + sizeof(int32_t) + sizeof(int64_t) + sizeof(uint8_t) +
	       sizeof(uint16_t) + sizeof(uint32_t) + sizeof(uint64_t) + sizeof(int_least8_t) +
	       sizeof(uint_least64_t) + sizeof(int_fast16_t) + sizeof(uint_fast32_t) + sizeof(intmax_t) +
	       sizeof(uintmax_t) + sizeof(intptr_t) + sizeof(uintptr_t) + sizeof(std::int8_t) +
	       sizeof(std::int16_t) + sizeof(std::int32_t) + sizeof(std::int64_t) + sizeof(std::uint8_t) +
	       sizeof(std::uint16_t) + sizeof(std::uint32_t) + sizeof(std::uint64_t) +
	       sizeof(std::int_least32_t) + sizeof(std::uint_fast8_t) + sizeof(std::intmax_t) +
	       sizeof(std::uintptr_t) + sizeof(std::intptr_t) + sizeof(size_t) + sizeof(ptrdiff_t) +
	       sizeof(std::ptrdiff_t) + sizeof(std::nullptr_t);
}

__device__ float std_float(float x, float y)
{
	return std::max(x, y) + std::min(x, y) + std::max<float>(x, 1) + std::exp(x) + std::log(x) +
	       std::sqrt(x) + std::fabs(x) + std::abs(x) + std::pow(x, y) + std::fmax(x, y) +
	       std::fmin(x, y) + std::floor(x) + std::ceil(x) + std::round(x) + std::trunc(x) +
	       std::tanh(x) + std::exp2(x) + std::log2(x) + std::log10(x) + std::expm1(x) +
	       std::log1p(x) + std::fma(x, y, x) + std::copysign(x, y) + std::hypot(x, y) + std::erf(x) +
	       std::sin(x) + std::cos(x) + std::atan2(x, y) + std::fmod(x, y) + std::ldexp(x, 2) +
	       (std::isinf(x) || std::isnan(y) || std::isfinite(x) || std::signbit(x) || std::isnormal(x) ||
		std::isgreater(x, y) || std::isless(x, y) || std::isunordered(x, y) ||
		std::fpclassify(x) == FP_NAN) +
	       std::numeric_limits<float>::infinity() + std::numeric_limits<float>::max() +
	       std::numeric_limits<float>::lowest() + std::numeric_limits<float>::epsilon() +
	       (float)std::numeric_limits<int>::max();
}

__device__ double std_double(double x, double y)
{
	return std::max(x, y) + std::min(x, y) + std::exp(x) + std::log(x) + std::sqrt(x) + std::abs(x) +
	       std::pow(x, y) + std::fmax(x, y) + (std::isinf(x) || std::isnan(y)) +
	       std::numeric_limits<double>::infinity() + std::numeric_limits<double>::max();
}

__device__ long long std_int(int a, int b, long long c)
{
	return std::max(a, b) + std::min(a, b) + std::abs(a) + std::max(c, 2LL) + std::abs(c) +
	       std::numeric_limits<long long>::max() / 2 + std::numeric_limits<unsigned>::digits;
}

/* What nvcc's headers allow unqualified after `using namespace std;`:
 * conform's std names must not make these calls ambiguous. */
namespace unqualified {
using namespace std;
__device__ float f(float x, float y)
{
	return exp(x) + sqrt(x) + fabs(x) + pow(x, y) + max(x, y) + min(x, y) + abs(x) + floor(x) +
	       (isinf(x) ? 1.0f : 0.0f) + (isnan(y) ? 1.0f : 0.0f) + fmaxf(x, y) + expf(y);
}
__device__ double g(double x) { return exp(x) + log(x) + max(x, 1.0) + (isinf(x) ? 1.0 : 0.0); }
__device__ int h(int a) { return abs(a) + max(a, 1) + min(a, 2); }
}

__device__ float halves(float x)
{
	const __half h = __float2half(x);
	const __nv_bfloat16 b = __float2bfloat16(x);
	return __half2float(h) + __bfloat162float(std::max(b, __float2bfloat16(1.0f)));
}

__device__ float libcu(float x)
{
	return cuda::std::exp(x) + (cuda::std::isinf(x) ? 1.0f : 0.0f) + cuda::std::numeric_limits<float>::max() +
	       (cuda::std::is_same<T, float>::value ? 1.0f : 0.0f) + (float)sizeof(cuda::std::int64_t);
}

__device__ void say(long long n)
{
	printf("n=%lld\n", n);
	std::printf("INT_MAX=%d\n", INT_MAX);
	assert(n >= 0);
}

extern "C" __global__ void headers_all(const T *in, T *out, long long n, void *scratch)
{
	typedef cub::BlockReduce<float, 32> Block;
	typedef cub::WarpReduce<float> Warp;
	__shared__ typename Block::TempStorage block_storage;
	__shared__ typename Warp::TempStorage warp_storage;
	cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
	const float x = n > 0 ? (float)in[threadIdx.x % n] : 0.0f;

	float v = std_float(x, 2.0f) + (float)std_double(x, 2.0) + (float)std_int((int)x, 3, n) +
		  unqualified::f(x, 1.0f) + (float)unqualified::g(x) + (float)unqualified::h((int)x) +
		  halves(x) + libcu(x) + (float)type_sizes() + float_macros[threadIdx.x % 15] +
		  (float)double_macros[threadIdx.x % 14] + (float)signed_limits[threadIdx.x % 34] +
		  (float)unsigned_limits[threadIdx.x % 17];
	v = cg::reduce(tile, v, cg::plus<float>());
	v = Warp(warp_storage).Sum(v);
	v = Block(block_storage).Sum(v);
	if (threadIdx.x == 0) {
		out[0] = v;
		say(n);
	}
	(void)scratch;
}
