/*
 * Grid-stride reduction with a last-block finish: the example of a user
 * kernel written to be both right and fast.
 *
 * Each thread reads its share of the array sixteen bytes at a time (four
 * floats or ints, two doubles, eight bf16), with `items` such loads issued
 * before any is used so that enough bytes are in flight to keep DRAM busy.
 * The elements before the first 16-byte boundary (none for memory from
 * cudaMalloc) and after the last whole vector are read one by one.  A
 * block combines its threads with warp shuffles and one shared-memory stage,
 * writes its value to a partial in scratch and takes a ticket; the block
 * that takes the last ticket combines the partials, writes out[0] and zeroes
 * the ticket and the partials, so the next launch finds scratch as the first
 * did.  bf16 is summed in float and rounded once at the end.
 *
 * What conform reports: PASS for every dtype and operator over the whole
 * size ladder.  `conform tune --kernel grid_sum.cu --n 2^24 --dtype f32`
 * searches block x items x waves and times CUB and the device copy beside
 * it; the kernel is meant to read the array near the copy's bandwidth from
 * 2^24 elements up, as a one-atomic-per-block grid-stride sum does.
 *
 * Scratch: a 4-byte ticket, 4 bytes of padding, then one 8-byte slot per
 * block.  The grid never exceeds sms x waves blocks, and @scratch holds
 * exactly that many slots, so the two expressions must change together.
 *
 * @kind     reduce
 * @entry    grid_sum
 * @summary  grid-stride 16-byte loads, shuffles, last block combines the partials
 * @dtypes   f32 f64 i32 bf16
 * @ops      sum max min
 * @tunable  block 64..1024 pow2 default=256 space=128,256,512,1024 "threads per block"
 * @tunable  items 1|2|4|8 default=4 space=1,2,4,8 "16-byte loads in flight per thread"
 * @tunable  waves 1|2|4|8 default=2 space=1,2,4 "blocks per multiprocessor"
 * @block    block
 * @grid     min(sms * min(waves, occupancy), max(1, (n + block * items * (16 / esize) - 1) / (block * items * (16 / esize))))
 * @scratch  8 + 8 * sms * waves
 */
#include <cuda_bf16.h> /* the prelude includes it for bf16 only; elem<> names the type always */

#define FULL_MASK 0xffffffffu
#define TILE_VECS (BLOCK * ITEMS) /* 16-byte vectors a block reads per step */
#define PARTIALS_OFFSET 8         /* bytes of scratch before the first partial */

/*
 * How each element type is read and combined: A is the accumulator (float
 * for bf16, the type itself otherwise), VEC elements fill 16 bytes, unpack()
 * spreads one 16-byte word over VEC accumulators, and result() rounds the
 * accumulator back to the element type.
 */
template <class V> struct elem;

template <> struct elem<float> {
	typedef float A;
	enum { VEC = 4 };
	static __device__ __forceinline__ A load(const float *p) { return *p; }
	static __device__ __forceinline__ void unpack(uint4 w, A *v)
	{
		v[0] = __uint_as_float(w.x);
		v[1] = __uint_as_float(w.y);
		v[2] = __uint_as_float(w.z);
		v[3] = __uint_as_float(w.w);
	}
	static __device__ __forceinline__ float result(A a) { return a; }
};

template <> struct elem<int> {
	typedef int A;
	enum { VEC = 4 };
	static __device__ __forceinline__ A load(const int *p) { return *p; }
	static __device__ __forceinline__ void unpack(uint4 w, A *v)
	{
		v[0] = (int)w.x;
		v[1] = (int)w.y;
		v[2] = (int)w.z;
		v[3] = (int)w.w;
	}
	static __device__ __forceinline__ int result(A a) { return a; }
};

template <> struct elem<double> {
	typedef double A;
	enum { VEC = 2 };
	static __device__ __forceinline__ A load(const double *p) { return *p; }
	static __device__ __forceinline__ void unpack(uint4 w, A *v)
	{
		/* Little-endian: the low word comes first. */
		v[0] = __hiloint2double((int)w.y, (int)w.x);
		v[1] = __hiloint2double((int)w.w, (int)w.z);
	}
	static __device__ __forceinline__ double result(A a) { return a; }
};

template <> struct elem<__nv_bfloat16> {
	typedef float A;
	enum { VEC = 8 };
	static __device__ __forceinline__ A load(const __nv_bfloat16 *p) { return __bfloat162float(*p); }
	/* A bf16 is the top half of a float: widening is a shift, exact. */
	static __device__ __forceinline__ void unpack(uint4 w, A *v)
	{
		const unsigned words[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
		for (int i = 0; i < 4; i++) {
			v[2 * i] = __uint_as_float(words[i] << 16);
			v[2 * i + 1] = __uint_as_float(words[i] & 0xffff0000u);
		}
	}
	static __device__ __forceinline__ __nv_bfloat16 result(A a) { return __float2bfloat16(a); }
};

/* Every lane ends with the warp's value.  Requires: all 32 lanes present. */
template <class A> static __device__ __forceinline__ A warp_combine(A v)
{
#pragma unroll
	for (int off = 16; off > 0; off /= 2)
		v = conform_combine(v, __shfl_xor_sync(FULL_MASK, v, off));
	return v;
}

/*
 * Thread 0 returns the block's value (the other threads something partial).
 * Requires: blockDim.x == BLOCK, a multiple of 32; every thread calls it; a
 * second call comes after a barrier that follows the first (warp 0 may
 * still be reading the words the second call writes).
 */
template <class A> static __device__ __forceinline__ A block_combine(A v)
{
	__shared__ A warp_value[BLOCK / 32];
	const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;

	v = warp_combine(v);
	if (lane == 0)
		warp_value[warp] = v;
	__syncthreads();
	if (warp == 0) {
		v = lane < BLOCK / 32 ? warp_value[lane] : conform_identity<A>();
		v = warp_combine(v);
	}
	return v;
}

/* Folds one 16-byte word into the thread's VEC accumulators. */
template <class E> static __device__ __forceinline__ void take(typename E::A *acc, uint4 w)
{
	typename E::A v[E::VEC];

	E::unpack(w, v);
#pragma unroll
	for (int k = 0; k < E::VEC; k++)
		acc[k] = conform_combine(acc[k], v[k]);
}

/*
 * out[0] = the operator over in[0..n).
 * Requires: blockDim.x == BLOCK; scratch zeroed, with room for gridDim.x
 * partials of 8 bytes after PARTIALS_OFFSET (the declaration's @grid and
 * @scratch keep gridDim.x <= sms x waves slots).  The 1 of the launch
 * bounds lets a block of 1024 use up to 64 registers: with the default
 * target of two such blocks per multiprocessor the compiler spills.
 */
extern "C" __global__ void __launch_bounds__(BLOCK, 1)
grid_sum(const T *in, T *out, long long n, void *scratch)
{
	typedef elem<T> E;
	typedef typename E::A A;
	unsigned *ticket = (unsigned *)scratch;
	A *partials = (A *)((char *)scratch + PARTIALS_OFFSET);
	__shared__ bool last;

	/* The whole vectors lie in [head, tail); the few elements outside
	 * them are taken one each by the grid's first threads. */
	const long long misaligned = (long long)((16 - ((unsigned long long)in & 15)) & 15) / (long long)sizeof(T);
	const long long head = misaligned < n ? misaligned : n;
	const uint4 *vin = (const uint4 *)(in + head);
	const long long vecs = (n - head) / E::VEC;
	const long long tail = head + vecs * E::VEC;
	const long long thread = (long long)blockIdx.x * BLOCK + threadIdx.x;

	A acc[E::VEC];
#pragma unroll
	for (int k = 0; k < E::VEC; k++)
		acc[k] = conform_identity<A>();

	/* Whole tiles: ITEMS independent loads, then their use. */
	long long base = (long long)blockIdx.x * TILE_VECS;
	const long long step = (long long)gridDim.x * TILE_VECS;
	for (; base + TILE_VECS <= vecs; base += step) {
		uint4 w[ITEMS];
#pragma unroll
		for (int i = 0; i < ITEMS; i++)
			w[i] = __ldg(vin + base + i * BLOCK + threadIdx.x);
#pragma unroll
		for (int i = 0; i < ITEMS; i++)
			take<E>(acc, w[i]);
	}
	/* At most one tile of the array is partial, and one block lands on it. */
	if (base < vecs) {
#pragma unroll
		for (int i = 0; i < ITEMS; i++) {
			const long long v = base + i * BLOCK + threadIdx.x;
			if (v < vecs)
				take<E>(acc, __ldg(vin + v));
		}
	}
	if (thread < head)
		acc[0] = conform_combine(acc[0], E::load(in + thread));
	if (thread < n - tail)
		acc[0] = conform_combine(acc[0], E::load(in + tail + thread));

#pragma unroll
	for (int k = 1; k < E::VEC; k++)
		acc[0] = conform_combine(acc[0], acc[k]);
	const A total = block_combine(acc[0]);

	/* The fence makes the partial visible before the ticket says it is
	 * there; the last block's fence orders its reads after every ticket. */
	if (threadIdx.x == 0) {
		partials[blockIdx.x] = total;
		__threadfence();
		last = atomicAdd(ticket, 1u) == gridDim.x - 1;
	}
	__syncthreads();
	if (!last)
		return;
	__threadfence();

	A v = conform_identity<A>();
	for (unsigned b = threadIdx.x; b < gridDim.x; b += BLOCK) {
		v = conform_combine(v, __ldcg(partials + b)); /* past L1: written by other blocks */
		partials[b] = A();
	}
	v = block_combine(v);
	if (threadIdx.x == 0) {
		out[0] = E::result(v);
		*ticket = 0;
	}
}
