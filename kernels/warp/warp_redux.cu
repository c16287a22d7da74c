/*
 * warp_redux.cu - warp reductions by the sm_80 __reduce_*_sync intrinsics
 * (the redux.sync instruction): one instruction per warp, 32-bit integers
 * only.  Float max is reached through the integer order of float bits.
 *
 * The intrinsics exist from sm_80 on.  Kernel bodies are compiled only for
 * __CUDA_ARCH__ >= 800; below that a kernel writes nothing, so a run would
 * report every output unwritten.  check() refuses nothing for this: the
 * suites mark these cases requires=sm>=80 and the host skips them.
 *
 * Layout as in warp_reduce.cu: one thread per element, whole warps, threads
 * past n carry the identity.
 */
#include "kernels/collectives.cuh"
#include "worker/reduce_driver.cuh"

#define WARP_BLOCK 256

/* The family's parameters, bound from the declared tunables: warp.partial's
 * active lanes per warp. */
struct warp_redux_params {
	int k;
};

#if __CUDA_ARCH__ >= 800
/* The redux intrinsic for each operator (int and unsigned overloads). */
template <class T> static __device__ __forceinline__ T redux_sync(op_sum<T>, unsigned m, T v)
{
	return __reduce_add_sync(m, v);
}
template <class T> static __device__ __forceinline__ T redux_sync(op_max<T>, unsigned m, T v)
{
	return __reduce_max_sync(m, v);
}
template <class T> static __device__ __forceinline__ T redux_sync(op_min<T>, unsigned m, T v)
{
	return __reduce_min_sync(m, v);
}

/*
 * Float -> unsigned key whose unsigned order is the float order (-0 below
 * +0): positive floats get the sign bit set, negative ones are inverted.
 */
static __device__ __forceinline__ unsigned float_to_ordered(float f)
{
	const unsigned b = __float_as_uint(f);
	return b ^ ((unsigned)((int)b >> 31) | 0x80000000u);
}

static __device__ __forceinline__ float ordered_to_float(unsigned key)
{
	return __uint_as_float(key ^ ((unsigned)((int)~key >> 31) | 0x80000000u));
}
#endif

/*
 * Every lane gets its warp's reduction by one __reduce_*_sync.
 * Requires: blockDim.x is a multiple of 32; sm_80.
 */
template <class T, class Op>
__global__ void redux_kernel(const T *in, T *out, int64_t n)
{
#if __CUDA_ARCH__ >= 800
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const T v = redux_sync(Op(), FULL_MASK, load_or_identity<Op>(in, i, n));

	if (i < n)
		out[i] = v;
#endif
}

/*
 * Max of non-negative floats as the unsigned max of their bits: for x, y
 * >= +0 (no NaN), x < y exactly when bits(x) < bits(y).  Lane 0 writes.
 * Requires: blockDim.x is a multiple of 32; inputs are +0 or positive
 * (a -0.0 would win as 0x80000000); sm_80.
 */
__global__ void fmax_bits_kernel(const float *in, float *out, int64_t n)
{
#if __CUDA_ARCH__ >= 800
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const float v = i < n ? in[i] : 0.0f;
	const unsigned bits = __reduce_max_sync(FULL_MASK, __float_as_uint(v));

	if (i < n && threadIdx.x % 32 == 0)
		out[i / 32] = __uint_as_float(bits);
#endif
}

/*
 * Max of any non-NaN floats (-0, infinities, denormals) through the ordered
 * key: bit-exact, and max(-0, +0) = +0.  Lane 0 writes.
 * Requires: blockDim.x is a multiple of 32; no NaN inputs; sm_80.
 */
__global__ void fmax_ordered_kernel(const float *in, float *out, int64_t n)
{
#if __CUDA_ARCH__ >= 800
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const float v = i < n ? in[i] : -__int_as_float(0x7f800000);
	const unsigned key = __reduce_max_sync(FULL_MASK, float_to_ordered(v));

	if (i < n && threadIdx.x % 32 == 0)
		out[i / 32] = ordered_to_float(key);
#endif
}

/*
 * Sum of the first k lanes of each warp while lanes k..31 stay idle: the
 * active lanes build their mask with __ballot_sync before diverging and
 * pass it to __reduce_add_sync inside the branch.
 * Requires: blockDim.x is a multiple of 32; 1 <= k <= 32; sm_80.
 */
__global__ void partial_redux_kernel(const int *in, int *out, int64_t n, int k)
{
#if __CUDA_ARCH__ >= 800
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const int lane = threadIdx.x % 32;
	const int v = i < n ? in[i] : 0;
	const unsigned mask = __ballot_sync(FULL_MASK, lane < k);

	if (lane < k) {
		const int sum = __reduce_add_sync(mask, v);
		if (lane == 0 && i < n)
			out[i / 32] = sum;
	}
#endif
}

static cudaError_t redux_launch(const struct reduce_launch *l)
{
	return dispatch_int(l->dtype, l->op, [&](auto t, auto op) {
		using T = decltype(t);
		redux_kernel<T, decltype(op)><<<grid_for(l->n, WARP_BLOCK), WARP_BLOCK, 0, l->stream>>>(
			(const T *)l->in, (T *)l->out, l->n);
		return cudaSuccess;
	});
}

static cudaError_t fmax_bits_launch(const struct reduce_launch *l)
{
	fmax_bits_kernel<<<grid_for(l->n, WARP_BLOCK), WARP_BLOCK, 0, l->stream>>>(
		(const float *)l->in, (float *)l->out, l->n);
	return cudaSuccess;
}

static cudaError_t fmax_ordered_launch(const struct reduce_launch *l)
{
	fmax_ordered_kernel<<<grid_for(l->n, WARP_BLOCK), WARP_BLOCK, 0, l->stream>>>(
		(const float *)l->in, (float *)l->out, l->n);
	return cudaSuccess;
}

static cudaError_t partial_launch(const struct reduce_launch *l)
{
	partial_redux_kernel<<<grid_for(l->n, WARP_BLOCK), WARP_BLOCK, 0, l->stream>>>(
		(const int *)l->in, (int *)l->out, l->n, launch_params<warp_redux_params>(l).k);
	return cudaSuccess;
}

/* The first k lanes of each warp: a segment of k elements every 32. */
static int first_k_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	l->seg_len = launch_params<warp_redux_params>(l).k;
	l->seg_stride = 32;
	return 0;
}

/* Segments are whole warps. */
static int warp_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	l->seg_len = l->seg_stride = 32;
	return 0;
}


static const struct reduce_spec redux_spec = {
	.layout = REDUCE_PER_ELEMENT, .input = INPUT_UNIFORM, .shape = warp_shape,
	.launch = redux_launch,
};
static const struct reduce_spec fmax_bits_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_NONNEGATIVE, .shape = warp_shape,
	.launch = fmax_bits_launch,
};
static const struct reduce_spec fmax_ordered_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_F32_SPECIALS, .shape = warp_shape,
	.launch = fmax_ordered_launch,
};
static const struct reduce_spec partial_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = first_k_shape,
	.launch = partial_launch,
};

static const struct tunable partial_tunables[] = {
	{.name = "k", .doc = "active lanes of each warp", .lo = 1, .hi = 32, .def = "32",
	 .field = offsetof(struct warp_redux_params, k)},
};
static const struct tunable_set partial_set = {
	TUNABLE_LIST(partial_tunables), .size = sizeof(struct warp_redux_params),
};

/* The redux intrinsics are sm_80's; the suites say so (requires=sm>=80). */
#define REDUX_SM80 "sm_80 (suite: requires=sm>=80)"

static const struct variant warp_redux_variants[] = {
	{.name = "warp.redux", .summary = "full-warp __reduce_{add,min,max}_sync; every lane writes",
	 .dtypes = DTYPE_BIT(DTYPE_I32) | DTYPE_BIT(DTYPE_U32), .gpu = 1, .check = reduce_variant_check,
	 .run = reduce_variant_run, .spec = &redux_spec,
	 .ops = OP_BIT(OP_SUM) | OP_BIT(OP_MIN) | OP_BIT(OP_MAX), .requires = REDUX_SM80},
	{.name = "warp.fmax_bits", .summary = "max of non-negative floats by __reduce_max_sync on their bits",
	 .dtypes = DTYPE_BIT(DTYPE_F32), .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &fmax_bits_spec, .ops = OP_BIT(OP_MAX),
	 .requires = REDUX_SM80 "; inputs non-negative (the driver draws |x|)"},
	{.name = "warp.fmax_ordered",
	 .summary = "bit-exact float max (-0, inf, denormals) by __reduce_max_sync on order-preserving keys",
	 .dtypes = DTYPE_BIT(DTYPE_F32), .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &fmax_ordered_spec, .ops = OP_BIT(OP_MAX), .requires = REDUX_SM80 "; no NaN inputs"},
	{.name = "warp.partial",
	 .summary = "sum of each warp's first k lanes by __reduce_add_sync on the ballot mask of the active lanes",
	 .dtypes = DTYPE_BIT(DTYPE_I32), .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &partial_spec, .ops = OP_BIT(OP_SUM), .requires = REDUX_SM80,
	 .params = {.set = &partial_set}},
};

extern "C" const struct variant_table warp_redux_table;
const struct variant_table warp_redux_table = {
	warp_redux_variants, sizeof warp_redux_variants / sizeof warp_redux_variants[0]};
