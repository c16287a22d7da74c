/*
 * nvrtc_headers.c - the headers conform gives NVRTC (see nvrtc_headers.h).
 *
 * NVRTC compiles device code only and ships no C or C++ library: <cmath>
 * is "cannot open source file", and INFINITY, FLT_MAX or std::exp are
 * unknown, where nvcc finds the host compiler's headers.  These texts make
 * the usual includes of a kernel written for nvcc work unchanged:
 *
 * - libcu++ first: a header includes its <cuda/std/...> counterpart from
 *   the toolkit (found on the include path that user_build_options gives)
 *   where that does the work under NVRTC: the <climits> and <cstdint>
 *   macros and types, numeric_limits (INFINITY and NAN are spelled with
 *   it, as libcu++ spells them), and the values <cfloat>'s macros name
 *   (__FLT_MAX__ and the like, as GCC's <float.h> does);
 * - the std:: names are NVRTC's own global functions (::exp, ::isinf,
 *   ::printf, declared implicitly), brought into std by using-declarations
 *   as libstdc++ does, and not cuda::std's functions of the same names:
 *   those are other functions, and `using namespace std;` with a call to
 *   exp(x) would then be ambiguous between ::exp and cuda::std::exp, where
 *   under nvcc it compiles.  numeric_limits is cuda::std's; the few
 *   <cmath> functions NVRTC lacks globally (fpclassify, isnormal, the
 *   comparisons) are ours, see SHIM_CLASSIFY;
 * - std::max and std::min are ours, the standard's definitions (a < b ? b
 *   : a), since libcu++ keeps its own in an internal header; for floats
 *   they differ from CUDA's global max() and fmaxf() on a NaN, as they do
 *   under nvcc.  libstdc++'s <cmath> brings them and numeric_limits along,
 *   and so does this one;
 * - <cub/cub.cuh> is the toolkit's list less the device-wide algorithms
 *   (cub/device/: host code that launches kernels, which NVRTC refuses)
 *   and the caching allocator (host only, <map>): the block, warp and
 *   thread collectives, the iterators and the utilities.
 *
 * Every other shim includes <cstddef>, as every libstdc++ header declares
 * std::size_t.  Guards, not #pragma once: a header held in memory has no
 * file for the pragma to know it by.
 */
#include "worker/nvrtc_headers.h"

#include <stddef.h>

/* Where a reader of a compile error inside one of these is sent. */
#define SHIM_HEAD(name) "// <" name "> as conform gives it to NVRTC: docs/kernels.md, \"Headers\"\n"

static const char cstddef_text[] =
	SHIM_HEAD("cstddef")
	"#ifndef CONFORM_SHIM_CSTDDEF\n"
	"#define CONFORM_SHIM_CSTDDEF\n"
	"#include <cuda/std/cstddef>\n"
	"namespace std { using ::size_t; using ::ptrdiff_t; using ::cuda::std::nullptr_t; }\n"
	"#endif\n";

/* The classification functions NVRTC lacks, for float and double.  Ours:
 * libcu++ has them only in <cuda/std/cmath>, which takes several times
 * longer to compile than everything else here together, and every
 * configuration of a kernel is a compile of its own. */
#define SHIM_CLASSIFY(V)                                                                           \
	"__host__ __device__ inline int fpclassify(" V " x)\n"                                      \
	"{ return ::isnan(x) ? FP_NAN : ::isinf(x) ? FP_INFINITE : x == 0 ? FP_ZERO\n"              \
	"  : ::fabs(x) < ::cuda::std::numeric_limits<" V ">::min() ? FP_SUBNORMAL : FP_NORMAL; }\n"  \
	"__host__ __device__ inline bool isnormal(" V " x) { return fpclassify(x) == FP_NORMAL; }\n" \
	"__host__ __device__ inline bool isunordered(" V " a, " V " b) { return ::isnan(a) || ::isnan(b); }\n" \
	"__host__ __device__ inline bool isgreater(" V " a, " V " b) { return !isunordered(a, b) && a > b; }\n" \
	"__host__ __device__ inline bool isgreaterequal(" V " a, " V " b) { return !isunordered(a, b) && a >= b; }\n" \
	"__host__ __device__ inline bool isless(" V " a, " V " b) { return !isunordered(a, b) && a < b; }\n" \
	"__host__ __device__ inline bool islessequal(" V " a, " V " b) { return !isunordered(a, b) && a <= b; }\n" \
	"__host__ __device__ inline bool islessgreater(" V " a, " V " b) { return !isunordered(a, b) && a != b; }\n"

static const char cmath_text[] =
	SHIM_HEAD("cmath")
	"#ifndef CONFORM_SHIM_CMATH\n"
	"#define CONFORM_SHIM_CMATH\n"
	"#include <cstddef>\n"
	"#include <limits>\n"
	"#include <algorithm>\n"
	/* Token for token as libcu++'s <cuda/std/cmath> defines them under
	 * NVRTC (unguarded), so that including it after this is no
	 * incompatible redefinition. */
	"#ifndef INFINITY\n"
	"#define INFINITY _CUDA_VSTD::numeric_limits<float>::infinity()\n"
	"#endif\n"
	"#ifndef NAN\n"
	"#define NAN _CUDA_VSTD::numeric_limits<float>::quiet_NaN()\n"
	"#endif\n"
	"#ifndef HUGE_VALF\n"
	"#define HUGE_VALF ::cuda::std::numeric_limits<float>::infinity()\n"
	"#endif\n"
	"#ifndef HUGE_VAL\n"
	"#define HUGE_VAL ::cuda::std::numeric_limits<double>::infinity()\n"
	"#endif\n"
	"#ifndef FP_NAN\n"
	"#define FP_NAN 0\n"
	"#define FP_INFINITE 1\n"
	"#define FP_ZERO 2\n"
	"#define FP_SUBNORMAL 3\n"
	"#define FP_NORMAL 4\n"
	"#endif\n"
	"namespace std {\n"
	"using ::abs; using ::fabs; using ::fmod; using ::remainder; using ::remquo; using ::fma;\n"
	"using ::fmax; using ::fmin; using ::fdim; using ::nan;\n"
	"using ::exp; using ::exp2; using ::expm1; using ::log; using ::log10; using ::log2; using ::log1p;\n"
	"using ::pow; using ::sqrt; using ::cbrt; using ::hypot;\n"
	"using ::sin; using ::cos; using ::tan; using ::asin; using ::acos; using ::atan; using ::atan2;\n"
	"using ::sinh; using ::cosh; using ::tanh; using ::asinh; using ::acosh; using ::atanh;\n"
	"using ::erf; using ::erfc; using ::tgamma; using ::lgamma;\n"
	"using ::ceil; using ::floor; using ::trunc; using ::round; using ::lround; using ::llround;\n"
	"using ::nearbyint; using ::rint; using ::lrint; using ::llrint;\n"
	"using ::frexp; using ::ldexp; using ::modf; using ::scalbn; using ::scalbln; using ::ilogb; using ::logb;\n"
	"using ::nextafter; using ::copysign;\n"
	"using ::isfinite; using ::isinf; using ::isnan; using ::signbit;\n"
	SHIM_CLASSIFY("float")
	SHIM_CLASSIFY("double")
	"}\n"
	"#endif\n";

/* C's names are global: the few NVRTC lacks join them from libcu++. */
static const char math_h_text[] =
	SHIM_HEAD("math.h")
	"#ifndef CONFORM_SHIM_MATH_H\n"
	"#define CONFORM_SHIM_MATH_H\n"
	"#include <cmath>\n"
	"using std::fpclassify; using std::isnormal; using std::isgreater; using std::isgreaterequal;\n"
	"using std::isless; using std::islessequal; using std::islessgreater; using std::isunordered;\n"
	"#endif\n";

static const char cstdint_text[] =
	SHIM_HEAD("cstdint")
	"#ifndef CONFORM_SHIM_CSTDINT\n"
	"#define CONFORM_SHIM_CSTDINT\n"
	"#include <cuda/std/cstdint>\n"
	"#include <cstddef>\n"
	"namespace std {\n"
	"using ::int8_t; using ::int16_t; using ::int32_t; using ::int64_t;\n"
	"using ::uint8_t; using ::uint16_t; using ::uint32_t; using ::uint64_t;\n"
	"using ::int_least8_t; using ::int_least16_t; using ::int_least32_t; using ::int_least64_t;\n"
	"using ::uint_least8_t; using ::uint_least16_t; using ::uint_least32_t; using ::uint_least64_t;\n"
	"using ::int_fast8_t; using ::int_fast16_t; using ::int_fast32_t; using ::int_fast64_t;\n"
	"using ::uint_fast8_t; using ::uint_fast16_t; using ::uint_fast32_t; using ::uint_fast64_t;\n"
	"using ::intmax_t; using ::uintmax_t; using ::intptr_t; using ::uintptr_t;\n"
	"}\n"
	"#endif\n";

static const char climits_text[] =
	SHIM_HEAD("climits")
	"#ifndef CONFORM_SHIM_CLIMITS\n"
	"#define CONFORM_SHIM_CLIMITS\n"
	"#include <cuda/std/climits>\n"
	"#include <cstddef>\n"
	"#endif\n";

/* libcu++'s <cfloat> is empty under NVRTC; its <climits> defines the
 * values as GCC predefines them, which <float.h> then names. */
static const char cfloat_text[] =
	SHIM_HEAD("cfloat")
	"#ifndef CONFORM_SHIM_CFLOAT\n"
	"#define CONFORM_SHIM_CFLOAT\n"
	"#include <cuda/std/cfloat>\n"
	"#include <cuda/std/climits>\n"
	"#include <cstddef>\n"
	"#ifndef FLT_MAX\n"
	"#define FLT_RADIX __FLT_RADIX__\n"
	"#define FLT_MANT_DIG __FLT_MANT_DIG__\n"
	"#define FLT_DIG __FLT_DIG__\n"
	"#define FLT_MIN_EXP __FLT_MIN_EXP__\n"
	"#define FLT_MIN_10_EXP __FLT_MIN_10_EXP__\n"
	"#define FLT_MAX_EXP __FLT_MAX_EXP__\n"
	"#define FLT_MAX_10_EXP __FLT_MAX_10_EXP__\n"
	"#define FLT_MAX __FLT_MAX__\n"
	"#define FLT_MIN __FLT_MIN__\n"
	"#define FLT_EPSILON __FLT_EPSILON__\n"
	"#define FLT_TRUE_MIN __FLT_DENORM_MIN__\n"
	"#define FLT_DECIMAL_DIG 9\n"
	"#define FLT_HAS_SUBNORM 1\n"
	"#define DBL_MANT_DIG __DBL_MANT_DIG__\n"
	"#define DBL_DIG __DBL_DIG__\n"
	"#define DBL_MIN_EXP __DBL_MIN_EXP__\n"
	"#define DBL_MIN_10_EXP __DBL_MIN_10_EXP__\n"
	"#define DBL_MAX_EXP __DBL_MAX_EXP__\n"
	"#define DBL_MAX_10_EXP __DBL_MAX_10_EXP__\n"
	"#define DBL_MAX __DBL_MAX__\n"
	"#define DBL_MIN __DBL_MIN__\n"
	"#define DBL_EPSILON __DBL_EPSILON__\n"
	"#define DBL_TRUE_MIN __DBL_DENORM_MIN__\n"
	"#define DBL_DECIMAL_DIG 17\n"
	"#define DBL_HAS_SUBNORM 1\n"
	"#define DECIMAL_DIG 17\n" /* device code has no long double wider than double */
	"#define FLT_EVAL_METHOD 0\n"
	"#endif\n"
	"#endif\n";

/* printf is NVRTC's own, declared implicitly. */
static const char cstdio_text[] =
	SHIM_HEAD("cstdio")
	"#ifndef CONFORM_SHIM_CSTDIO\n"
	"#define CONFORM_SHIM_CSTDIO\n"
	"#include <cstddef>\n"
	"namespace std { using ::printf; }\n"
	"#endif\n";

/* assert is NVRTC's own too (libcu++'s <cassert> is empty under NVRTC):
 * a failed one stops the kernel, an ERROR ("device-side assert
 * triggered") after which conform starts a fresh worker. */
static const char cassert_text[] =
	SHIM_HEAD("cassert")
	"#ifndef CONFORM_SHIM_CASSERT\n"
	"#define CONFORM_SHIM_CASSERT\n"
	"#include <cuda/std/cassert>\n"
	"#endif\n";

static const char limits_text[] =
	SHIM_HEAD("limits")
	"#ifndef CONFORM_SHIM_LIMITS\n"
	"#define CONFORM_SHIM_LIMITS\n"
	"#include <cuda/std/limits>\n"
	"#include <cstddef>\n"
	"namespace std { using ::cuda::std::numeric_limits; }\n"
	"#endif\n";

static const char algorithm_text[] =
	SHIM_HEAD("algorithm")
	"#ifndef CONFORM_SHIM_ALGORITHM\n"
	"#define CONFORM_SHIM_ALGORITHM\n"
	"#include <cstddef>\n"
	"namespace std {\n"
	"template <class V> __host__ __device__ constexpr const V &max(const V &a, const V &b)\n"
	"{ return a < b ? b : a; }\n"
	"template <class V, class C> __host__ __device__ constexpr const V &max(const V &a, const V &b, C less)\n"
	"{ return less(a, b) ? b : a; }\n"
	"template <class V> __host__ __device__ constexpr const V &min(const V &a, const V &b)\n"
	"{ return b < a ? b : a; }\n"
	"template <class V, class C> __host__ __device__ constexpr const V &min(const V &a, const V &b, C less)\n"
	"{ return less(b, a) ? b : a; }\n"
	"}\n"
	"#endif\n";

static const char cub_text[] =
	SHIM_HEAD("cub/cub.cuh")
	"#ifndef CONFORM_SHIM_CUB\n"
	"#define CONFORM_SHIM_CUB\n"
	"#include <cub/config.cuh>\n"
	"#include <cub/block/block_adjacent_difference.cuh>\n"
	"#include <cub/block/block_discontinuity.cuh>\n"
	"#include <cub/block/block_exchange.cuh>\n"
	"#include <cub/block/block_histogram.cuh>\n"
	"#include <cub/block/block_load.cuh>\n"
	"#include <cub/block/block_merge_sort.cuh>\n"
	"#include <cub/block/block_radix_rank.cuh>\n"
	"#include <cub/block/block_radix_sort.cuh>\n"
	"#include <cub/block/block_reduce.cuh>\n"
	"#include <cub/block/block_scan.cuh>\n"
	"#include <cub/block/block_store.cuh>\n"
	"#include <cub/grid/grid_even_share.cuh>\n"
	"#include <cub/grid/grid_mapping.cuh>\n"
	"#include <cub/grid/grid_queue.cuh>\n"
	"#include <cub/thread/thread_load.cuh>\n"
	"#include <cub/thread/thread_operators.cuh>\n"
	"#include <cub/thread/thread_reduce.cuh>\n"
	"#include <cub/thread/thread_scan.cuh>\n"
	"#include <cub/thread/thread_store.cuh>\n"
	"#include <cub/warp/warp_exchange.cuh>\n"
	"#include <cub/warp/warp_load.cuh>\n"
	"#include <cub/warp/warp_merge_sort.cuh>\n"
	"#include <cub/warp/warp_reduce.cuh>\n"
	"#include <cub/warp/warp_scan.cuh>\n"
	"#include <cub/warp/warp_store.cuh>\n"
	"#include <cub/iterator/arg_index_input_iterator.cuh>\n"
	"#include <cub/iterator/cache_modified_input_iterator.cuh>\n"
	"#include <cub/iterator/cache_modified_output_iterator.cuh>\n"
	"#include <cub/iterator/tex_obj_input_iterator.cuh>\n"
	"#include <cub/util_debug.cuh>\n"
	"#include <cub/util_device.cuh>\n"
	"#include <cub/util_ptx.cuh>\n"
	"#include <cub/util_temporary_storage.cuh>\n"
	"#include <cub/util_type.cuh>\n"
	"#endif\n";

/* What nvcc's implicit <cuda_runtime.h> brings along from the host's
 * library, so that a kernel uses INFINITY, std::exp, INT_MAX or int32_t
 * with no #include: the prelude includes this (user_build_source).  Only
 * where the toolkit's headers are found: without them a kernel that
 * includes nothing still compiles. */
static const char nvcc_implicit_text[] =
	SHIM_HEAD("conform/nvcc_implicit.h")
	"#ifndef CONFORM_SHIM_NVCC_IMPLICIT\n"
	"#define CONFORM_SHIM_NVCC_IMPLICIT\n"
	"#if __has_include(<cuda/std/limits>)\n"
	"#include <cmath>\n"
	"#include <climits>\n"
	"#include <cstdint>\n"
	"#endif\n"
	"#endif\n";

/* A C header that is its C++ one: <stdint.h> is <cstdint>. */
#define C_HEADER(c, cxx) {c, SHIM_HEAD(c) "#include <" cxx ">\n"}

const struct nvrtc_header nvrtc_headers[] = {
	{"cstddef", cstddef_text}, C_HEADER("stddef.h", "cstddef"),
	{"cmath", cmath_text},     {"math.h", math_h_text},
	{"cstdint", cstdint_text}, C_HEADER("stdint.h", "cstdint"),
	{"climits", climits_text}, C_HEADER("limits.h", "climits"),
	{"cfloat", cfloat_text},   C_HEADER("float.h", "cfloat"),
	{"cstdio", cstdio_text},   C_HEADER("stdio.h", "cstdio"),
	{"cassert", cassert_text}, C_HEADER("assert.h", "cassert"),
	{"limits", limits_text},   {"algorithm", algorithm_text},
	{"cub/cub.cuh", cub_text},  {"conform/nvcc_implicit.h", nvcc_implicit_text},
};

const int nvrtc_headers_count = (int)(sizeof nvrtc_headers / sizeof nvrtc_headers[0]);
