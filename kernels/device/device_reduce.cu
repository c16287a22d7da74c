/*
 * device_reduce.cu - the device family: one result from the whole array.
 *
 * Every variant runs the same first stage: a persistent grid of
 * blocks-per-SM x SMs blocks (never more than the array has tiles of
 * block x items vectors, so a small array gets few blocks and a short
 * kernel), each thread reducing its share with vector loads (reduce_span),
 * each block combining its threads' values (warp shuffles, one barrier).
 * They differ in how the blocks' values become one:
 *
 *   device.atomic      one atomic per block into an accumulator; the last
 *                      block to arrive (an atomic ticket) writes the result.
 *                      Float sums depend on the blocks' order: not
 *                      deterministic, so its spread over runs is measured.
 *   device.two_pass    each block writes its partial; a second kernel of
 *                      one block reduces the partials.  Deterministic.
 *   device.last_block  each block writes its partial and takes a ticket;
 *                      the last block reduces the partials.  One kernel,
 *                      deterministic.
 *   device.coop        each block writes its partial, grid.sync(), block 0
 *                      reduces them.  Launched cooperatively, so the grid
 *                      must fit co-resident.  Deterministic.
 *
 * Scratch (zeroed once by the driver) holds the atomic accumulator, the
 * ticket counter and the partials; the last block resets what it used, so
 * a kernel can run again on the same buffers (the timing loop does).
 */
#include <stdio.h>
#include <string.h>

#include <cuda/atomic>

#include "kernels/device/device_reduce.cuh"
#include "worker/cuda_check.cuh"

/* How the blocks' values are combined (a run-time switch: one kernel per
 * type and shape serves all four variants). */
enum finish { FINISH_ATOMIC, FINISH_PARTIALS, FINISH_LAST_BLOCK, FINISH_GRID_SYNC };

/* The head of scratch; the partials follow at DEVICE_PARTIALS_OFFSET. */
struct device_scratch {
	unsigned long long acc; /* atomic accumulator (order keys for max and min) */
	unsigned count;         /* blocks done, for the ticket */
};
#define DEVICE_PARTIALS_OFFSET 16

/*
 * Max and min by integer atomics on order keys: key(x) is unsigned, grows
 * with x (with -0.0 below +0.0), and key 0 lies below every value, so a
 * zeroed word is the identity of atomicMax.  Min takes ~key.
 */
template <class A> struct order_key;
template <> struct order_key<float> {
	using U = unsigned;
	static __device__ __forceinline__ U of(float x)
	{
		const U b = __float_as_uint(x);
		return b & 0x80000000u ? ~b : b | 0x80000000u;
	}
	static __device__ __forceinline__ float value(U k)
	{
		return __uint_as_float(k & 0x80000000u ? k & 0x7fffffffu : ~k);
	}
};
template <> struct order_key<double> {
	using U = unsigned long long;
	static __device__ __forceinline__ U of(double x)
	{
		const U b = (U)__double_as_longlong(x);
		return b >> 63 ? ~b : b | (1ull << 63);
	}
	static __device__ __forceinline__ double value(U k)
	{
		return __longlong_as_double((long long)(k >> 63 ? k & ~(1ull << 63) : ~k));
	}
};
template <> struct order_key<int> {
	using U = unsigned;
	static __device__ __forceinline__ U of(int x) { return (U)x ^ 0x80000000u; }
	static __device__ __forceinline__ int value(U k) { return (int)(k ^ 0x80000000u); }
};

/* add(): combines a block's value into the zeroed-at-rest accumulator;
 * take(): returns the total and zeroes the accumulator. */
template <class Op> struct atomic_acc;
template <class A> struct atomic_acc<op_sum<A>> {
	using U = typename order_key<A>::U; /* a word of A's size */
	static __device__ __forceinline__ void add(unsigned long long *w, A v) { atomicAdd((A *)w, v); }
	static __device__ __forceinline__ A take(unsigned long long *w)
	{
		const U bits = atomicExch((U *)w, (U)0);
		A v;
		memcpy(&v, &bits, sizeof v);
		return v;
	}
};
template <class A> struct atomic_acc<op_max<A>> {
	using K = order_key<A>;
	using U = typename K::U;
	static __device__ __forceinline__ void add(unsigned long long *w, A v) { atomicMax((U *)w, K::of(v)); }
	static __device__ __forceinline__ A take(unsigned long long *w) { return K::value(atomicExch((U *)w, (U)0)); }
};
template <class A> struct atomic_acc<op_min<A>> {
	using K = order_key<A>;
	using U = typename K::U;
	static __device__ __forceinline__ void add(unsigned long long *w, A v) { atomicMax((U *)w, ~K::of(v)); }
	static __device__ __forceinline__ A take(unsigned long long *w) { return K::value(~atomicExch((U *)w, (U)0)); }
};

/*
 * The ticket: 1 for the last block of the grid to take one.  Acquire and
 * release at device scope: the block's earlier writes (its partial, its
 * atomic) are visible to whoever takes a later ticket, and the last block
 * sees every block's.  Lighter than __threadfence() (a sequentially
 * consistent fence) around a relaxed atomic.
 */
static __device__ __forceinline__ bool take_ticket(unsigned *count)
{
	cuda::atomic_ref<unsigned, cuda::thread_scope_device> c(*count);

	return c.fetch_add(1u, cuda::std::memory_order_acq_rel) == gridDim.x - 1;
}

/*
 * The whole block reduces count partials (written by other blocks, read
 * past L1) in a fixed order; thread 0 stores the result.
 * Requires: blockDim.x a multiple of 32; a block-wide barrier since the
 * block's last block_reduce_two_stage, if any.
 */
template <class Op, class A>
static __device__ __forceinline__ void reduce_partials(const A *partials, int count, A *out)
{
	A v = Op::identity();

	for (int i = threadIdx.x; i < count; i += blockDim.x)
		v = Op::apply(v, __ldcg(partials + i));
	v = block_reduce_two_stage<Op, warp_by_shfl>(v);
	if (threadIdx.x == 0)
		*out = v;
}

/*
 * The first stage and the chosen finish.  FINISH_GRID_SYNC needs a
 * cooperative launch; the others any grid.
 * Requires: blockDim.x a multiple of 32, 64..1024; scratch zeroed (as each
 * launch leaves it) with room for gridDim.x partials; in aligned for VEC.
 */
template <class In, class Op, int VEC, int ITEMS>
__global__ void __launch_bounds__(1024, 1)
device_reduce_kernel(const In *__restrict__ in, int64_t n, acc_t<In> *out, unsigned char *scratch, int finish,
		     bool evict_first)
{
	using A = acc_t<In>;
	struct device_scratch *s = (struct device_scratch *)scratch;
	A *partials = (A *)(scratch + DEVICE_PARTIALS_OFFSET);
	__shared__ int last;

	A v = reduce_span<In, Op, VEC, ITEMS>(in, n, (int64_t)blockIdx.x * blockDim.x + threadIdx.x,
					      (int64_t)gridDim.x * blockDim.x, evict_first);
	v = block_reduce_two_stage<Op, warp_by_shfl>(v);

	if (finish == FINISH_ATOMIC) {
		if (threadIdx.x == 0) {
			atomic_acc<Op>::add(&s->acc, v);
			if (take_ticket(&s->count)) {
				*out = atomic_acc<Op>::take(&s->acc);
				s->count = 0;
			}
		}
		return;
	}
	if (threadIdx.x == 0)
		partials[blockIdx.x] = v;
	if (finish == FINISH_PARTIALS)
		return;
	if (finish == FINISH_GRID_SYNC) {
		cooperative_groups::this_grid().sync();
		if (blockIdx.x == 0)
			reduce_partials<Op>(partials, gridDim.x, out);
		return;
	}
	/* FINISH_LAST_BLOCK: thread 0's acquire and the barrier order the
	 * block's reads of the partials after every block's release. */
	if (threadIdx.x == 0)
		last = take_ticket(&s->count);
	__syncthreads();
	if (last) {
		reduce_partials<Op>(partials, gridDim.x, out);
		if (threadIdx.x == 0)
			s->count = 0;
	}
}

/* The second pass of device.two_pass: one block reduces the partials.
 * Requires: blockDim.x a multiple of 32, 64..1024. */
template <class Op, class A>
__global__ void __launch_bounds__(1024, 1) device_partials_kernel(const unsigned char *scratch, int count, A *out)
{
	reduce_partials<Op>((const A *)(scratch + DEVICE_PARTIALS_OFFSET), count, out);
}

/* ---- host side ------------------------------------------------------------ */

void device_shape(struct reduce_launch *l)
{
	l->block = launch_params<device_params>(l).block;
	if (l->dtype == DTYPE_BF16)
		l->out_dtype = DTYPE_F32;
}

int device_blocks_per_sm(const struct reduce_launch *l, const void *kernel, int cooperative,
			 int *per_sm, int *sms, struct case_result *r)
{
	int dev = 0, fit = 0;
	cudaError_t e;

	if ((e = cudaGetDevice(&dev)) != cudaSuccess ||
	    (e = cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess ||
	    (e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, l->block, 0)) != cudaSuccess)
		return cuda_call_failed(r, "occupancy", e);
	if (fit < 1) {
		case_result_set(r, OUTCOME_INVALID, "block=%d does not fit on an SM", l->block);
		return -1;
	}
	const int want = launch_params<device_params>(l).grid;
	if (cooperative && want > fit) {
		case_result_set(r, OUTCOME_INVALID,
				"grid=%d blocks per SM of %d threads cannot be co-resident (at most %d fit)",
				want, l->block, fit);
		return -1;
	}
	*per_sm = want ? want : fit;
	return 0;
}

/* The first-stage kernel for l's type and shape. */
static const void *whole_kernel(const struct reduce_launch *l)
{
	const void *k = NULL;

	dispatch_device<8>(l, [&](auto in, auto op, auto vec, auto items) {
		k = (const void *)device_reduce_kernel<decltype(in), decltype(op), vec, items>;
		return cudaSuccess;
	});
	return k;
}

/* The whole array is one segment (the set's rules keep cols at 0). */
static int whole_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	device_shape(l);
	l->seg_len = l->seg_stride = l->n;
	return 0;
}

/* Grid: blocks per SM x SMs, but no more blocks than tiles of block x items
 * vectors (a small array gets a short kernel).  Scratch: the head and one
 * partial per block. */
template <int Finish>
static int whole_configure(struct reduce_launch *l, struct case_result *r)
{
	const struct device_params &p = launch_params<device_params>(l);
	const int64_t vectors = l->n / p.vec > 0 ? l->n / p.vec : 1;
	const int64_t tiles = (vectors + (int64_t)l->block * p.items - 1) / ((int64_t)l->block * p.items);
	int per_sm, sms;

	if (device_blocks_per_sm(l, whole_kernel(l), Finish == FINISH_GRID_SYNC, &per_sm, &sms, r) < 0)
		return -1;
	l->grid = (int64_t)per_sm * sms < tiles ? per_sm * sms : (int)tiles;
	l->scratch_bytes = DEVICE_PARTIALS_OFFSET + (size_t)l->grid * dtype_size(l->out_dtype);
	return 0;
}

template <int Finish>
static cudaError_t whole_launch(const struct reduce_launch *l)
{
	return dispatch_device<8>(l, [&](auto in_t, auto op_t, auto vec, auto items) {
		using In = decltype(in_t);
		using Op = decltype(op_t);
		using A = acc_t<In>;
		const In *in = (const In *)l->in;
		A *out = (A *)l->out;
		unsigned char *scratch = (unsigned char *)l->scratch;
		int64_t n = l->n;
		int finish = Finish;
		bool evict_first = launch_params<device_params>(l).evict_first;

		if (Finish == FINISH_GRID_SYNC) {
			void *args[] = {(void *)&in,      (void *)&n,      (void *)&out,
					(void *)&scratch, (void *)&finish, (void *)&evict_first};
			return cudaLaunchCooperativeKernel((const void *)device_reduce_kernel<In, Op, vec, items>,
							   dim3((unsigned)l->grid), dim3((unsigned)l->block), args,
							   0, l->stream);
		}
		device_reduce_kernel<In, Op, vec, items>
			<<<(unsigned)l->grid, l->block, 0, l->stream>>>(in, n, out, scratch, finish, evict_first);
		if (Finish == FINISH_PARTIALS) {
			const cudaError_t e = cudaGetLastError();
			if (e != cudaSuccess)
				return e;
			device_partials_kernel<Op, A><<<1, l->block, 0, l->stream>>>(scratch, l->grid, out);
		}
		return cudaSuccess;
	});
}

/* Atomic float sums vary with the blocks' order: five runs measure it.
 * The others must repeat bit for bit. */
static const struct reduce_spec atomic_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = whole_shape,
	.configure = whole_configure<FINISH_ATOMIC>, .launch = whole_launch<FINISH_ATOMIC>,
	.repeat = {.runs = 5},
};
static const struct reduce_spec two_pass_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = whole_shape,
	.configure = whole_configure<FINISH_PARTIALS>, .launch = whole_launch<FINISH_PARTIALS>,
	.repeat = {.runs = 3, .deterministic = 1},
};
static const struct reduce_spec last_block_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = whole_shape,
	.configure = whole_configure<FINISH_LAST_BLOCK>, .launch = whole_launch<FINISH_LAST_BLOCK>,
	.repeat = {.runs = 3, .deterministic = 1},
};
static const struct reduce_spec coop_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = whole_shape,
	.configure = whole_configure<FINISH_GRID_SYNC>, .launch = whole_launch<FINISH_GRID_SYNC>,
	.repeat = {.runs = 3, .deterministic = 1},
};

/* The whole-array variants' tunables and rules. */
static const struct tunable whole_tunables[] = {
	DEVICE_TUNABLE_BLOCK("512", "64,128,256,512,1024"),
	DEVICE_TUNABLE_ITEMS("1|2|4|8", DEVICE_ITEMS_DEFAULT(4), "2,4,8"),
	DEVICE_TUNABLE_VEC("1,2,4"),
	DEVICE_TUNABLE_GRID("0"),
	DEVICE_TUNABLE_EVICT_FIRST("0,1"),
};
static const struct rule whole_rules[] = {
	{"cols == 0", "reduces the whole array"},
	DEVICE_RULE_IN_FLIGHT,
};
static const struct tunable_set whole_set = {
	TUNABLE_LIST(whole_tunables), RULE_LIST(whole_rules), .size = sizeof(struct device_params),
};
/* device.coop's grid must be co-resident; the occupancy is checked at launch. */
static const struct rule coop_rules[] = {
	{"grid * block <= 2048", "co-resident threads per SM"},
};

static const struct variant device_variants[] = {
	{.name = "device.atomic",
	 .summary = "whole-array reduction: one atomic per block, the last block writes the result",
	 .dtypes = DEVICE_DTYPES, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &atomic_spec, .ops = DEVICE_OPS, .params = {.set = &whole_set}, .refs = &device_refs},
	{.name = "device.two_pass",
	 .summary = "whole-array reduction: block partials, then one block reduces them",
	 .dtypes = DEVICE_DTYPES, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &two_pass_spec, .ops = DEVICE_OPS, .params = {.set = &whole_set}, .refs = &device_refs},
	{.name = "device.last_block",
	 .summary = "whole-array reduction in one pass: the last block to finish reduces the partials",
	 .dtypes = DEVICE_DTYPES, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &last_block_spec, .ops = DEVICE_OPS, .params = {.set = &whole_set}, .refs = &device_refs},
	{.name = "device.coop",
	 .summary = "whole-array reduction in one cooperative kernel: partials, grid.sync(), block 0",
	 .dtypes = DEVICE_DTYPES, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &coop_spec, .ops = DEVICE_OPS, .params = {.set = &whole_set, RULE_LIST(coop_rules)},
	 .refs = &device_refs},
};

extern "C" const struct variant_table device_table;
const struct variant_table device_table = {device_variants,
					   sizeof device_variants / sizeof device_variants[0]};
