/*
 * warp_scan.cu - prefix sums built from __shfl_up_sync.
 *
 *   warp.scan        inclusive or exclusive scan within sections of `width`
 *                    lanes: log2(width) __shfl_up_sync steps (Kogge-Stone),
 *                    a lane adding what came up only when it came from
 *                    inside its section (lane >= offset); the exclusive scan
 *                    shifts the inclusive one up a lane with
 *                    __shfl_up_sync(width), and lane 0 of each section takes
 *                    the identity.
 *   warp.scan_block  the same over a whole block: every warp scans, the warp
 *                    totals go through shared memory, warp 0 scans them, and
 *                    each warp adds the total of the warps before it.
 *
 * One thread per element in whole warps.  Threads past n add 0 and write
 * nothing; they follow every element of their section, so they change no
 * prefix.  f32 adds in float; i32 adds in unsigned, so that overflow wraps
 * by definition, as the reference's uint32 sums do.
 */
#include <stdio.h>

#include <type_traits>

#include "kernels/collectives.cuh"
#include "kernels/warp/warp_reference.h"
#include "worker/reduce_driver.cuh"

#define SCAN_WARP_BLOCK 256

enum scan_kind { SCAN_INCLUSIVE, SCAN_EXCLUSIVE };

/* The family's parameters, bound from the declared tunables: the scan
 * (enum scan_kind), the section width of warp.scan, the block of
 * warp.scan_block. */
struct scan_params {
	int scan, width, block;
};

/* The type an element type is scanned in: float, or unsigned for int. */
template <class T>
using scan_t = typename std::conditional<std::is_same<T, int>::value, unsigned, T>::type;

/*
 * Inclusive prefix sum within width-lane sections.  A section starts at a
 * multiple of width within the warp, so threadIdx.x & (width - 1) is the
 * lane's place in it; __shfl_up_sync returns the caller's own value when
 * the source is below the section, and the guard keeps it from being added.
 * Requires: blockDim.x a multiple of 32; all 32 lanes converged and
 * non-exited; width a power of two, 1..32.
 */
template <class S>
static __device__ __forceinline__ S warp_scan_inclusive(S v, int width)
{
	const int lane = (int)(threadIdx.x & (unsigned)(width - 1));

	for (int off = 1; off < width; off *= 2) {
		const S up = __shfl_up_sync(FULL_MASK, v, (unsigned)off, width);
		if (lane >= off)
			v += up;
	}
	return v;
}

/* The exclusive prefix from the inclusive one: the lane below's inclusive
 * prefix, the identity in lane 0 of each section.  Requires: as above. */
template <class S>
static __device__ __forceinline__ S warp_scan_shift(S inclusive, int width)
{
	const S up = __shfl_up_sync(FULL_MASK, inclusive, 1u, width);

	return (threadIdx.x & (unsigned)(width - 1)) == 0 ? S(0) : up;
}

/*
 * out[i] = the inclusive or exclusive prefix sum of in[i]'s width-lane section.
 * Requires: blockDim.x a multiple of 32; width a power of two, 1..32.
 */
template <class T>
__global__ void warp_scan_kernel(const T *in, T *out, int64_t n, int width, int exclusive)
{
	using S = scan_t<T>;
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	S v = i < n ? (S)in[i] : S(0);

	v = warp_scan_inclusive(v, width);
	if (exclusive) /* uniform across the grid: the shift's shuffle is converged */
		v = warp_scan_shift(v, width);
	if (i < n)
		out[i] = (T)v;
}

/*
 * out[i] = the inclusive or exclusive prefix sum of in[i]'s block.  Lane 31
 * of each warp publishes the warp's total; warp 0 turns the totals into
 * inclusive prefixes in place (each lane reads and writes only its own
 * slot); warp w > 0 then adds prefix w - 1.  Every thread reaches both
 * barriers: threads past n only skip the store.
 * Requires: blockDim.x a multiple of 32, 32..1024.
 */
template <class T>
__global__ void block_scan_kernel(const T *in, T *out, int64_t n, int exclusive)
{
	using S = scan_t<T>;
	__shared__ S warp_prefix[32];
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	const S inclusive = warp_scan_inclusive(i < n ? (S)in[i] : S(0), 32);
	S v;

	if (lane == 31)
		warp_prefix[warp] = inclusive;
	__syncthreads();
	if (warp == 0) {
		const S total = lane < blockDim.x / 32 ? warp_prefix[lane] : S(0);
		warp_prefix[lane] = warp_scan_inclusive(total, 32);
	}
	__syncthreads();
	v = exclusive ? warp_scan_shift(inclusive, 32) : inclusive;
	if (warp > 0)
		v += warp_prefix[warp - 1];
	if (i < n)
		out[i] = (T)v;
}

static cudaError_t warp_scan_launch(const struct reduce_launch *l)
{
	const struct scan_params &p = launch_params<scan_params>(l);

	return dispatch_dtype(l->dtype, [&](auto t) {
		using T = decltype(t);
		warp_scan_kernel<T><<<grid_for(l->n, SCAN_WARP_BLOCK), SCAN_WARP_BLOCK, 0, l->stream>>>(
			(const T *)l->in, (T *)l->out, l->n, p.width, p.scan);
		return cudaSuccess;
	});
}

static cudaError_t block_scan_launch(const struct reduce_launch *l)
{
	return dispatch_dtype(l->dtype, [&](auto t) {
		using T = decltype(t);
		block_scan_kernel<T><<<grid_for(l->n, l->block), l->block, 0, l->stream>>>(
			(const T *)l->in, (T *)l->out, l->n, launch_params<scan_params>(l).scan);
		return cudaSuccess;
	});
}

/* One section of width elements per segment. */
static int warp_scan_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	l->seg_len = l->seg_stride = launch_params<scan_params>(l).width;
	return 0;
}

/* One block of elements per segment. */
static int block_scan_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	l->block = launch_params<scan_params>(l).block;
	l->seg_len = l->seg_stride = l->block;
	return 0;
}

/* Prefix sums restarting at every section (seg_len elements). */
static void scan_expect(const struct reduce_launch *l, const void *in, double *ref, double *tol)
{
	warp_ref_scan(l->dtype, in, (size_t)l->n, (size_t)l->seg_len,
		      launch_params<scan_params>(l).scan == SCAN_EXCLUSIVE, ref, tol);
}

#define SCAN_DTYPES (DTYPE_BIT(DTYPE_F32) | DTYPE_BIT(DTYPE_I32))

static const struct reduce_spec warp_scan_spec = {
	.layout = REDUCE_PER_ELEMENT, .input = INPUT_UNIFORM, .shape = warp_scan_shape,
	.launch = warp_scan_launch, .expect = scan_expect,
};
static const struct reduce_spec block_scan_spec = {
	.layout = REDUCE_PER_ELEMENT, .input = INPUT_UNIFORM, .shape = block_scan_shape,
	.launch = block_scan_launch, .expect = scan_expect,
};

/* scan is bound as its index, in enum scan_kind's order. */
#define SCAN_TUNABLE_KIND                                                                          \
	{.name = "scan", .doc = "the prefix sum", .choices = "inclusive|exclusive", .def = "inclusive", \
	 .field = offsetof(struct scan_params, scan)}

static const struct tunable warp_scan_tunables[] = {
	SCAN_TUNABLE_KIND,
	{.name = "width", .doc = "lanes per section", .lo = 1, .hi = 32, .pow2 = 1, .def = "32",
	 .field = offsetof(struct scan_params, width)},
};
static const struct tunable_set warp_scan_set = {
	TUNABLE_LIST(warp_scan_tunables), .size = sizeof(struct scan_params),
};
static const struct tunable block_scan_tunables[] = {
	SCAN_TUNABLE_KIND,
	{.name = "block", .doc = "threads per block", .lo = 32, .hi = 1024, .multiple_of = 32, .def = "256",
	 .field = offsetof(struct scan_params, block)},
};
static const struct tunable_set block_scan_set = {
	TUNABLE_LIST(block_scan_tunables), .size = sizeof(struct scan_params),
};

static const struct variant warp_scan_variants[] = {
	{.name = "warp.scan",
	 .summary = "inclusive or exclusive prefix sum within width-lane sections by __shfl_up_sync; every lane writes",
	 .dtypes = SCAN_DTYPES, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &warp_scan_spec, .ops = OP_BIT(OP_SUM), .params = {.set = &warp_scan_set}},
	{.name = "warp.scan_block",
	 .summary = "inclusive or exclusive prefix sum over each block: warp scans, warp totals scanned by warp 0",
	 .dtypes = SCAN_DTYPES, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &block_scan_spec, .ops = OP_BIT(OP_SUM), .params = {.set = &block_scan_set}},
};

extern "C" const struct variant_table warp_scan_table;
const struct variant_table warp_scan_table = {
	warp_scan_variants, sizeof warp_scan_variants / sizeof warp_scan_variants[0]};
