/*
 * device_reduce.cuh - the device family's building blocks: whole-array and
 * per-row reductions of f32, f64, i32 and bf16 (accumulated and returned in
 * f32), shaped by the tunables block, items, vec, grid and evict_first.
 *
 * Layered as the rest of kernels/: a thread reduces a span of memory with
 * vector loads (reduce_span), a warp or a block combines the threads'
 * values (collectives.cuh), and the families differ only in how blocks
 * combine theirs (device_reduce.cu) or in what a span is (device_rows.cu).
 *
 * The tunables, template parameters (items, vec), launch dimensions (block,
 * grid) or a kernel argument (evict_first, a uniform branch on each load):
 *   block        threads per block, a multiple of 32 in 64..1024;
 *   items        vector loads each thread has in flight per iteration: 1, 2, 4, 8;
 *   vec          elements per vector load: 1, 2, 4 (4 x f32 is one 16-byte load);
 *   grid         blocks per SM: 1, 2, 4, 8, 16, or 0 for as many as fit (occupancy);
 *   evict_first  1: evict-first vector loads (load_vec), 0: plain ones.
 */
#ifndef CONFORM_DEVICE_REDUCE_CUH
#define CONFORM_DEVICE_REDUCE_CUH

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <type_traits>

#include "kernels/collectives.cuh"
#include "worker/reduce_driver.cuh"

/* bf16 as stored: the upper 16 bits of an f32 (the host's rng.h encoding). */
struct bf16_t {
	unsigned short bits;
};

/* The type a reduction of In accumulates and returns. */
template <class In> struct acc_of { using type = In; };
template <> struct acc_of<bf16_t> { using type = float; };
template <class In> using acc_t = typename acc_of<In>::type;

template <class In>
static __host__ __device__ __forceinline__ In to_acc(In x)
{
	return x;
}
static __host__ __device__ __forceinline__ float to_acc(bf16_t x)
{
#ifdef __CUDA_ARCH__
	return __uint_as_float((unsigned)x.bits << 16);
#else
	union { unsigned u; float f; } c = {(unsigned)x.bits << 16};
	return c.f;
#endif
}

/* VEC elements loaded as one aligned unit: one 16-byte load for 4 x f32,
 * two for 4 x f64, one 8-byte load for 4 x bf16. */
template <class T, int VEC>
struct alignas(sizeof(T) * VEC) vec_of {
	T v[VEC];
};

/*
 * One vector load, plain or, with EvictFirst, marked evict-first
 * (ld.global.cs): a reduction reads each element once, so its lines are the
 * first the L2 gives up and the rest of the cache stays, the caller's dirty
 * lines included, which plain loads would have written back on the way.
 * That wins when the input is a few times the L2 and
 * loses a few per cent on long streams: hence a tunable.
 */
template <bool EvictFirst, class V>
static __device__ __forceinline__ V load_vec(const V *p)
{
	V v;

	if constexpr (!EvictFirst) {
		v = *p;
	} else if constexpr (sizeof(V) == 32) {
		const uint4 x[2] = {__ldcs((const uint4 *)p), __ldcs((const uint4 *)p + 1)};
		memcpy(&v, x, sizeof v);
	} else if constexpr (sizeof(V) == 16) {
		const uint4 x = __ldcs((const uint4 *)p);
		memcpy(&v, &x, sizeof v);
	} else if constexpr (sizeof(V) == 8) {
		const uint2 x = __ldcs((const uint2 *)p);
		memcpy(&v, &x, sizeof v);
	} else if constexpr (sizeof(V) == 4) {
		const unsigned x = __ldcs((const unsigned *)p);
		memcpy(&v, &x, sizeof v);
	} else {
		static_assert(sizeof(V) == 2, "vectors of 2, 4, 8, 16 or 32 bytes");
		const unsigned short x = __ldcs((const unsigned short *)p);
		memcpy(&v, &x, sizeof v);
	}
	return v;
}

template <class Op, class In, int VEC>
static __device__ __forceinline__ acc_t<In> combine_vec(acc_t<In> acc, const vec_of<In, VEC> &x)
{
#pragma unroll
	for (int j = 0; j < VEC; j++)
		acc = Op::apply(acc, to_acc(x.v[j]));
	return acc;
}

/*
 * This lane's share of the reduction of the m elements at p, among `lanes`
 * lanes numbered 0..lanes-1: scalar head elements up to the first address
 * aligned for a VEC vector, then vectors lane, lane + lanes, ... with ITEMS
 * independent loads in flight per iteration (and one round of guarded
 * loads for the fewer than ITEMS left, so the tail costs one memory
 * latency, not several), then the scalar tail.  The lanes' shares differ
 * by at most one vector.  Deterministic: a lane combines its elements in a
 * fixed order.
 * Requires: lanes >= VEC (head and tail have fewer than VEC elements).
 */
template <class In, class Op, int VEC, int ITEMS, bool EvictFirst>
static __device__ __forceinline__ acc_t<In> reduce_span_loads(const In *__restrict__ p, int64_t m,
							     int64_t lane, int64_t lanes)
{
	using V = vec_of<In, VEC>;
	acc_t<In> acc = Op::identity();
	int64_t head = 0;

	if (VEC > 1) {
		const unsigned skew = (unsigned)((uintptr_t)p % sizeof(V)) / sizeof(In);
		head = skew ? VEC - skew : 0;
		head = head < m ? head : m;
		if (lane < head)
			acc = Op::apply(acc, to_acc(p[lane]));
	}
	const V *__restrict__ vp = reinterpret_cast<const V *>(p + head);
	const int64_t nv = (m - head) / VEC;
	int64_t i = lane;

	for (; i + (ITEMS - 1) * lanes < nv; i += ITEMS * lanes) {
		V x[ITEMS];
#pragma unroll
		for (int k = 0; k < ITEMS; k++)
			x[k] = load_vec<EvictFirst>(vp + i + k * lanes);
#pragma unroll
		for (int k = 0; k < ITEMS; k++)
			acc = combine_vec<Op>(acc, x[k]);
	}
	if (ITEMS > 1 && i < nv) {
		V x[ITEMS > 1 ? ITEMS - 1 : 1];
#pragma unroll
		for (int k = 0; k < ITEMS - 1; k++)
			if (i + k * lanes < nv)
				x[k] = load_vec<EvictFirst>(vp + i + k * lanes);
#pragma unroll
		for (int k = 0; k < ITEMS - 1; k++)
			if (i + k * lanes < nv)
				acc = combine_vec<Op>(acc, x[k]);
	}
	const int64_t done = head + nv * VEC;
	if (lane < m - done)
		acc = Op::apply(acc, to_acc(p[done + lane]));
	return acc;
}

/* reduce_span_loads with the load kind chosen once, outside the loops. */
template <class In, class Op, int VEC, int ITEMS>
static __device__ __forceinline__ acc_t<In> reduce_span(const In *__restrict__ p, int64_t m, int64_t lane,
						       int64_t lanes, bool evict_first)
{
	return evict_first ? reduce_span_loads<In, Op, VEC, ITEMS, true>(p, m, lane, lanes)
			   : reduce_span_loads<In, Op, VEC, ITEMS, false>(p, m, lane, lanes);
}

/* ---- host side ------------------------------------------------------------ */

#define DEVICE_DTYPES \
	(DTYPE_BIT(DTYPE_F32) | DTYPE_BIT(DTYPE_F64) | DTYPE_BIT(DTYPE_I32) | DTYPE_BIT(DTYPE_BF16))
#define DEVICE_OPS (OP_BIT(OP_SUM) | OP_BIT(OP_MAX) | OP_BIT(OP_MIN))

/* Bytes a thread may have in flight, vec x items x element size: 128, or
 * 64 for 8-byte elements (whose max and min take twice the registers);
 * more would spill at the 64 registers a block of 1024 leaves a thread. */
static constexpr size_t device_in_flight_max(size_t elem_size)
{
	return elem_size == 8 ? 64 : 128;
}

/*
 * The family's parameters, bound from the declared tunables (variant_bind):
 * threads per block, vector loads in flight, elements per vector load,
 * blocks per SM (0: as many as fit) and evict-first loads.
 */
struct device_params {
	int block, items, vec, grid, evict_first;
};

/* The tunables the device families share, declared once; a family's set
 * gives block's default, items' values and default, and what is tuned. */
#define DEVICE_TUNABLE_BLOCK(def_, space_)                                                          \
	{.name = "block", .doc = "threads per block", .lo = 64, .hi = 1024, .multiple_of = 32,       \
	 .def = def_, .space = space_, .field = offsetof(struct device_params, block)}
#define DEVICE_TUNABLE_ITEMS(values_, def_, space_)                                                 \
	{.name = "items", .doc = "vector loads in flight per thread", .values = values_, .def = def_, \
	 .space = space_, .field = offsetof(struct device_params, items)}
#define DEVICE_TUNABLE_VEC(space_)                                                                  \
	{.name = "vec", .doc = "elements per vector load", .values = "1|2|4", .def = "4",             \
	 .space = space_, .field = offsetof(struct device_params, vec)}
#define DEVICE_TUNABLE_GRID(space_)                                                                 \
	{.name = "grid", .doc = "blocks per SM, 0: as many as fit", .values = "0|1|2|4|8|16",         \
	 .def = "0", .space = space_, .field = offsetof(struct device_params, grid)}
#define DEVICE_TUNABLE_EVICT_FIRST(space_)                                                          \
	{.name = "evict_first", .doc = "evict-first vector loads", .values = "0|1", .def = "0",       \
	 .space = space_, .field = offsetof(struct device_params, evict_first)}

/* Bytes a thread may have in flight, vec x items x element size: 128, or
 * 64 for 8-byte elements (whose max and min take twice the registers);
 * more would spill at the 64 registers a block of 1024 leaves a thread.
 * The rule and items' default say the same as device_in_flight_max(). */
#define DEVICE_IN_FLIGHT "(esize == 8 ? 64 : 128)"
#define DEVICE_RULE_IN_FLIGHT \
	{"vec * items * esize <= " DEVICE_IN_FLIGHT, "bytes in flight per thread"}
/* items' default: at most `most`, halved until it fits the budget. */
#define DEVICE_ITEMS_DEFAULT(most) "min(" #most ", " DEVICE_IN_FLIGHT " / (vec * esize))"

/* The device family's references (device_cub.cu): the device-to-device
 * copy of 2^28 f32 (1 GiB each way streams from memory on any GPU) and
 * CUB's whole-array and segmented reductions. */
extern "C" const struct variant_refs device_refs;

/* The launch's block from the bound parameters, and f32 results for bf16. */
void device_shape(struct reduce_launch *l);

/*
 * Blocks per SM for l: the grid parameter, or when 0 the occupancy of `kernel` at
 * l->block threads; and the SM count.  `cooperative` refuses (INVALID) a
 * per_sm beyond the occupancy, which a cooperative launch cannot have
 * co-resident.  Returns 0, or -1 with r filled.
 */
int device_blocks_per_sm(const struct reduce_launch *l, const void *kernel, int cooperative,
			 int *per_sm, int *sms, struct case_result *r);

/*
 * Calls f(In(), Op(), VEC, ITEMS) for the case's dtype, operator and
 * tunables, VEC and ITEMS as std::integral_constant; Op works on acc_t<In>.
 * 4 dtypes x 3 operators x 3 vec x 4 items instantiations, less those
 * with items above MaxItems or beyond device_in_flight_max().
 */
template <class In, class Op, int VEC, int ITEMS, int MaxItems, class F>
static cudaError_t dispatch_shape(F &&f)
{
	if constexpr (ITEMS > MaxItems || sizeof(In) * VEC * ITEMS > device_in_flight_max(sizeof(In)))
		return cudaErrorInvalidValue; /* refused by device_tunables() */
	else
		return f(In(), Op(), std::integral_constant<int, VEC>(), std::integral_constant<int, ITEMS>());
}

template <class In, class Op, int VEC, int MaxItems, class F>
static cudaError_t dispatch_items(int items, F &&f)
{
	switch (items) {
	case 1: return dispatch_shape<In, Op, VEC, 1, MaxItems>(f);
	case 2: return dispatch_shape<In, Op, VEC, 2, MaxItems>(f);
	case 4: return dispatch_shape<In, Op, VEC, 4, MaxItems>(f);
	case 8: return dispatch_shape<In, Op, VEC, 8, MaxItems>(f);
	default: return cudaErrorInvalidValue;
	}
}

template <class In, class Op, int MaxItems, class F>
static cudaError_t dispatch_vec(int vec, int items, F &&f)
{
	switch (vec) {
	case 1: return dispatch_items<In, Op, 1, MaxItems>(items, f);
	case 2: return dispatch_items<In, Op, 2, MaxItems>(items, f);
	case 4: return dispatch_items<In, Op, 4, MaxItems>(items, f);
	default: return cudaErrorInvalidValue;
	}
}

template <class In, int MaxItems, class F>
static cudaError_t dispatch_device_op(enum op o, int vec, int items, F &&f)
{
	using A = acc_t<In>;
	switch (o) {
	case OP_SUM: return dispatch_vec<In, op_sum<A>, MaxItems>(vec, items, f);
	case OP_MAX: return dispatch_vec<In, op_max<A>, MaxItems>(vec, items, f);
	case OP_MIN: return dispatch_vec<In, op_min<A>, MaxItems>(vec, items, f);
	default: return cudaErrorInvalidValue;
	}
}

template <int MaxItems, class F>
static cudaError_t dispatch_device(const struct reduce_launch *l, F &&f)
{
	const struct device_params &p = launch_params<device_params>(l);

	switch (l->dtype) {
	case DTYPE_F32: return dispatch_device_op<float, MaxItems>(l->op, p.vec, p.items, f);
	case DTYPE_F64: return dispatch_device_op<double, MaxItems>(l->op, p.vec, p.items, f);
	case DTYPE_I32: return dispatch_device_op<int, MaxItems>(l->op, p.vec, p.items, f);
	case DTYPE_BF16: return dispatch_device_op<bf16_t, MaxItems>(l->op, p.vec, p.items, f);
	default: return cudaErrorInvalidValue;
	}
}

#endif
