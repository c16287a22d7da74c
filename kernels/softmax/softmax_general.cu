/*
 * softmax_general.cu - softmax over rows x cols of f32 or bf16 (computed
 * in f32), three ways of spending reads:
 *
 *   softmax.three_pass  read the row for its max, again for the sum of
 *                       e^(x - max), again to write e^(x - max) / sum;
 *   softmax.online      one read keeps a running (max, sum) per thread -
 *                       the sum rescaled by e^(old max - new max) when the
 *                       max grows - merged across the row's threads the
 *                       same way, then a second read writes;
 *   softmax.registers   the one to tune: with passes=1 the row is read once
 *                       into registers (8 vectors, 32 elements a thread; all
 *                       its loads in flight at once), max, exponentials kept
 *                       in registers, sum, write: one read and one write,
 *                       what a copy moves; with passes=2, for rows longer
 *                       than that, softmax.online's two reads.
 *
 * The tunables, shared by the three (struct softmax_params; block = rpb x tpr):
 *   tpr  threads per row, a power of two 1..1024: a sub-warp section
 *        (shuffles of width tpr), a warp, or several warps (shuffles, then
 *        one value per warp through shared memory between two barriers);
 *   rpb  row groups per block (rows per block, but for rpt), a power of
 *        two; rpb x tpr = block, 32..1024;
 *   vec  elements per vector load and store: 1, 2, 4 (f32) or 8 (bf16),
 *        at most 16 bytes; cols a multiple of vec, so every row starts on
 *        a vector boundary;
 *   passes (softmax.registers only) 1: the row in registers, 2: two reads;
 *        its default is 1 wherever the rows fit, and the tuner leaves it
 *        to that default (SOFTMAX_REGISTERS_SPACE says why);
 *   rpt  (softmax.registers only) rows a group holds at once, 1, 2 or 4:
 *        rpb x rpt rows a block, each thread with the vectors of rpt rows
 *        in flight together;
 *   prefetch (softmax.registers with passes=1 only) 0 or 256: the bytes
 *        the L2 fetches for a load that misses it, as a hint on every load
 *        (PTX's .L2::256B; 0: only the sectors the load asks for).
 * Short rows want several rows per warp (tpr < 32: the row's max and sum
 * are shuffles of width tpr, no shared memory, no barrier), several rows a
 * thread (rpt) so that enough bytes are in flight, and long ones several
 * warps per row, so that each thread holds a few 16-byte vectors.
 * The row loop of three_pass and online (and of softmax.registers with
 * passes=2) is block-uniform (a persistent stride over rows, rpb rows at a
 * time); softmax.registers with passes=1 takes its block's rows once, with
 * no loop.  Either way every thread of the block runs every collective,
 * threads of rows past the end carrying identities and writing nothing,
 * so full-mask shuffles and barriers are always reached by all the threads
 * they name.
 *
 * -inf inputs give exactly 0 (exp_shifted never forms -inf - -inf;
 * softmax.registers replaces a max of -inf by 0 once a row, and ex2 of
 * -inf is +0), so -inf entries, and running maxima that are still -inf,
 * are harmless.
 */
#include <limits.h>
#include <stddef.h>

#include <type_traits>

#include <cuda_bf16.h>

#include "kernels/device/device_reduce.cuh"
#include "kernels/softmax/softmax_driver.cuh"

#define SOFTMAX_LOG2E 1.44269504088896340736f
/* What a thread holds in registers in softmax.registers, over its rpt
 * rows: at most 8 vectors and 32 elements (more spills at the 64 registers
 * a block of 1024 leaves a thread); the rule "passes == 2 || cols * rpt <=
 * tpr * min(8 * vec, 32)" below says the same. */
#define SOFTMAX_REG_VECS 8
#define SOFTMAX_REG_ELEMS 32

enum softmax_alg { ALG_THREE_PASS, ALG_ONLINE };

/* The family's parameters: threads per row, row groups per block, elements
 * per vector load, and softmax.registers' passes, rows per group and L2
 * prefetch (the tunables above; 0 where a variant does not declare them). */
struct softmax_params {
	int tpr, rpb, vec, passes, rpt, prefetch;
};

/* e^(x - m) as exp2f of the scaled difference; exactly 0 when x is -inf
 * (m >= x, so m is -inf only with x). */
static __device__ __forceinline__ float exp_shifted(float x, float m)
{
	return x == bounds<float>::lowest() ? 0.0f : exp2f((x - m) * SOFTMAX_LOG2E);
}

static __device__ __forceinline__ float to_f32(float x) { return x; }
static __device__ __forceinline__ float to_f32(bf16_t x) { return to_acc(x); }

template <class T> static __device__ __forceinline__ T from_f32(float f);
template <> __device__ __forceinline__ float from_f32<float>(float f) { return f; }
template <> __device__ __forceinline__ bf16_t from_f32<bf16_t>(float f)
{
	return bf16_t{__bfloat16_as_ushort(__float2bfloat16_rn(f))};
}

/* One thread's view of its row: vectors lane, lane + tpr, ... of nvec. */
template <class T, int VEC>
struct row_part {
	const vec_of<T, VEC> *src;
	vec_of<T, VEC> *dst;
	int64_t nvec;
	int lane, tpr;
	bool busy; /* the row exists */
};

/*
 * v combined over the caller's row group (threads [g tpr, (g + 1) tpr) of
 * the block); every thread of the group gets the result, combined in the
 * same order.  smem holds a value per warp.
 * Requires: every thread of the block calls it, tpr a power of two
 * dividing blockDim.x (a multiple of 32).
 */
template <class Op>
static __device__ __forceinline__ float group_reduce(float v, int tpr, float *smem)
{
	v = warp_reduce_xor<Op>(v, tpr < 32 ? tpr : 32);
	if (tpr > 32) {
		const int warp = threadIdx.x / 32, first = warp - warp % (tpr / 32);

		__syncthreads(); /* readers of the last use of smem are done */
		if (threadIdx.x % 32 == 0)
			smem[warp] = v;
		__syncthreads();
		v = smem[first];
		for (int w = first + 1; w < first + tpr / 32; w++)
			v = Op::apply(v, smem[w]);
	}
	return v;
}

/* (m, s) := the merge of the running (max, sum) pairs (m, s) and (m2, s2).
 * Symmetric, so both lanes of a butterfly step agree bit for bit: the two
 * products are rounded separately (__fmul_rn is never contracted into an
 * FMA, which would round the lanes' sums differently). */
static __device__ __forceinline__ void online_merge(float &m, float &s, float m2, float s2)
{
	const float mn = fmaxf(m, m2);

	s = __fmul_rn(s, exp_shifted(m, mn)) + __fmul_rn(s2, exp_shifted(m2, mn));
	m = mn;
}

/* group_reduce for (max, sum) pairs; smem holds two values per warp. */
static __device__ __forceinline__ void group_merge(float &m, float &s, int tpr, float *smem)
{
	const int width = tpr < 32 ? tpr : 32;

	for (int off = width / 2; off > 0; off /= 2) {
		const float m2 = __shfl_xor_sync(FULL_MASK, m, off, width);
		const float s2 = __shfl_xor_sync(FULL_MASK, s, off, width);
		online_merge(m, s, m2, s2);
	}
	if (tpr > 32) {
		const int warp = threadIdx.x / 32, first = warp - warp % (tpr / 32);

		__syncthreads();
		if (threadIdx.x % 32 == 0) {
			smem[warp] = m;
			smem[32 + warp] = s;
		}
		__syncthreads();
		m = smem[first];
		s = smem[32 + first];
		for (int w = first + 1; w < first + tpr / 32; w++)
			online_merge(m, s, smem[w], smem[32 + w]);
	}
}

/* f(x, i) for each vector x (number i) of the thread's part of the row,
 * none when the row does not exist. */
template <class T, int VEC, class F>
static __device__ __forceinline__ void for_each_vec(const row_part<T, VEC> &r, F &&f)
{
	if (r.busy)
		for (int64_t i = r.lane; i < r.nvec; i += r.tpr)
			f(r.src[i], i);
}

/* Writes e^(x - m) * inv for the thread's part of the row (a fresh read). */
template <class T, int VEC>
static __device__ __forceinline__ void write_row(const row_part<T, VEC> &r, float m, float inv)
{
	for_each_vec(r, [&](const vec_of<T, VEC> &x, int64_t i) {
		vec_of<T, VEC> y;
#pragma unroll
		for (int j = 0; j < VEC; j++)
			y.v[j] = from_f32<T>(exp_shifted(to_f32(x.v[j]), m) * inv);
		r.dst[i] = y;
	});
}

template <class T, int VEC>
static __device__ __forceinline__ void row_three_pass(const row_part<T, VEC> &r, float *smem)
{
	float m = bounds<float>::lowest(), s = 0.0f;

	for_each_vec(r, [&](const vec_of<T, VEC> &x, int64_t) {
#pragma unroll
		for (int j = 0; j < VEC; j++)
			m = fmaxf(m, to_f32(x.v[j]));
	});
	m = group_reduce<op_max<float>>(m, r.tpr, smem);
	for_each_vec(r, [&](const vec_of<T, VEC> &x, int64_t) {
#pragma unroll
		for (int j = 0; j < VEC; j++)
			s += exp_shifted(to_f32(x.v[j]), m);
	});
	s = group_reduce<op_sum<float>>(s, r.tpr, smem);
	write_row(r, m, 1.0f / s);
}

template <class T, int VEC>
static __device__ __forceinline__ void row_online(const row_part<T, VEC> &r, float *smem)
{
	float m = bounds<float>::lowest(), s = 0.0f;

	for_each_vec(r, [&](const vec_of<T, VEC> &x, int64_t) {
		float vm = to_f32(x.v[0]);
#pragma unroll
		for (int j = 1; j < VEC; j++)
			vm = fmaxf(vm, to_f32(x.v[j]));
		const float mn = fmaxf(m, vm);
		s *= exp_shifted(m, mn); /* one rescaling per vector, not per element */
#pragma unroll
		for (int j = 0; j < VEC; j++)
			s += exp_shifted(to_f32(x.v[j]), mn);
		m = mn;
	});
	group_merge(m, s, r.tpr, smem);
	write_row(r, m, 1.0f / s);
}

/* VEC elements of a vector as f32.  bf16 pairs are one 32-bit word each:
 * the lower element is the word shifted up, the upper one the word's upper
 * half, one instruction an element. */
template <int VEC>
static __device__ __forceinline__ void vec_to_f32(const vec_of<float, VEC> v, float (&f)[VEC])
{
#pragma unroll
	for (int j = 0; j < VEC; j++)
		f[j] = v.v[j];
}
template <int VEC>
static __device__ __forceinline__ void vec_to_f32(const vec_of<bf16_t, VEC> v, float (&f)[VEC])
{
	if constexpr (VEC == 1) {
		f[0] = to_f32(v.v[0]);
	} else {
		unsigned w[VEC / 2];
		memcpy(w, &v, sizeof w);
#pragma unroll
		for (int j = 0; j < VEC / 2; j++) {
			f[2 * j] = __uint_as_float(w[j] << 16);
			f[2 * j + 1] = __uint_as_float(w[j] & 0xffff0000u);
		}
	}
}

/* f rounded to nearest into a vector; bf16 two at a time (one cvt.bf16x2). */
template <int VEC>
static __device__ __forceinline__ vec_of<float, VEC> vec_from_f32(const float (&f)[VEC], float)
{
	vec_of<float, VEC> v;
#pragma unroll
	for (int j = 0; j < VEC; j++)
		v.v[j] = f[j];
	return v;
}
template <int VEC>
static __device__ __forceinline__ vec_of<bf16_t, VEC> vec_from_f32(const float (&f)[VEC], bf16_t)
{
	vec_of<bf16_t, VEC> v;
	if constexpr (VEC == 1) {
		v.v[0] = from_f32<bf16_t>(f[0]);
	} else {
		__nv_bfloat162 h[VEC / 2];
#pragma unroll
		for (int j = 0; j < VEC / 2; j++)
			h[j] = __floats2bfloat162_rn(f[2 * j], f[2 * j + 1]);
		memcpy(&v, h, sizeof v);
	}
	return v;
}

/* 2^x by the special-function unit alone.  Subnormal results flush to 0,
 * which the tolerance's 2^-125 floor covers (softmax_ref.h): exp2f's
 * handling of them costs three more instructions an element. */
static __device__ __forceinline__ float exp2_ftz(float x)
{
	float y;
	asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
	return y;
}

/* max as one FMNMX (op_max's compare-and-select is two instructions on
 * the row's critical path); the rows hold no NaN. */
struct op_fmax {
	static __device__ __forceinline__ float apply(float a, float b) { return fmaxf(a, b); }
};

/* The N values at t combined pairwise: a tree of depth log2(N) instead of
 * a chain of N dependent steps (a sum's rounding only improves).  Written
 * as recursion on N so that every index is a constant once inlined: a loop
 * over a scratch array (halving its width each pass) was left partly
 * rolled by nvcc 13.0 at N = 32, which put the row in local memory and
 * made softmax.registers several times slower.
 * Requires: N a power of two. */
template <class Op, int N>
static __device__ __forceinline__ float tree_reduce(const float *t)
{
	if constexpr (N == 1)
		return t[0];
	else
		return Op::apply(tree_reduce<Op, N / 2>(t), tree_reduce<Op, N / 2>(t + N / 2));
}

/*
 * v[r] combined over each row group of 2^TL threads, for R rows at once;
 * every thread of a group gets its group's results.  Up to a warp (TL <=
 * 5, a constant: the butterfly's steps are straight-line code, with no
 * test of the width between two shuffles of the row's chain) the R
 * butterflies are interleaved (independent shuffles in flight together);
 * past a warp (TL < 0, the width 2^tpr_log2 from the launch),
 * group_reduce's shared-memory stage, which takes one row.
 * Requires: every thread of the block calls it; R == 1 when TL < 0.
 */
template <class Op, int R, int TL>
static __device__ __forceinline__ void group_reduce_rows(float (&v)[R], int tpr_log2, float *smem)
{
	if constexpr (TL >= 0) {
#pragma unroll
		for (int off = (1 << TL) / 2; off > 0; off /= 2)
#pragma unroll
			for (int r = 0; r < R; r++)
				v[r] = Op::apply(v[r], __shfl_xor_sync(FULL_MASK, v[r], off));
	} else {
		static_assert(R == 1, "one row a group past a warp");
		v[0] = group_reduce<Op>(v[0], 1 << tpr_log2, smem);
	}
}

/* 1 / s for a row's sum s >= 1 (its max contributes e^0): one MUFU.RCP,
 * within an ulp; rcp.rn's exact rounding costs a refinement and a
 * branch for cases no such s reaches. */
static __device__ __forceinline__ float rcp_sum(float s)
{
	float r;
	asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(s));
	return r;
}

/* vec_load_or_lowest's predicated load of `bytes` bytes at p into w (-inf
 * of T in every word it leaves), by the PTX load ld: a string literal, so
 * that the two hints share the rest. */
#define SOFTMAX_LOAD_OR_LOWEST(ld)                                                                 \
	do {                                                                                       \
		if constexpr (bytes == 16) {                                                       \
			w[0] = w[1] = w[2] = w[3] = lowest;                                        \
			asm("{ .reg .pred p; setp.ne.b32 p, %4, 0; @p " ld ".v4.b32 {%0, %1, %2, %3}, [%5]; }" \
			    : "+r"(w[0]), "+r"(w[1]), "+r"(w[2]), "+r"(w[3]) : "r"(on), "l"(p));   \
		} else if constexpr (bytes == 8) {                                                 \
			w[0] = w[1] = lowest;                                                      \
			asm("{ .reg .pred p; setp.ne.b32 p, %2, 0; @p " ld ".v2.b32 {%0, %1}, [%3]; }" \
			    : "+r"(w[0]), "+r"(w[1]) : "r"(on), "l"(p));                           \
		} else if constexpr (bytes == 4) {                                                 \
			w[0] = lowest;                                                             \
			asm("{ .reg .pred p; setp.ne.b32 p, %1, 0; @p " ld ".b32 %0, [%2]; }"      \
			    : "+r"(w[0]) : "r"(on), "l"(p));                                       \
		} else {                                                                           \
			unsigned short h = (unsigned short)lowest;                                 \
			asm("{ .reg .pred p; setp.ne.b32 p, %1, 0; @p " ld ".u16 %0, [%2]; }"      \
			    : "+h"(h) : "r"(on), "l"(p));                                          \
			w[0] = h;                                                                  \
		}                                                                                  \
	} while (0)

/*
 * VEC elements at p into f as f32 when pred, else -inf: one predicated
 * load, with no branch.  The C form ("if (pred) load, else -inf") compiled
 * to a branch around the load, which put softmax.registers behind this
 * one at 2^14 rows of 128 bf16, where the time is the chain from the
 * block's start to its store (docs/PERFORMANCE.md).
 * PF = 256 asks the L2 to fetch the 256 bytes around a load that misses
 * it (.L2::256B), not just the load's sectors: the loads of a block's
 * rows that follow find them on their way.  At 2^14 rows of 128 bf16 (one
 * wave, every load at once) it made the best mappings faster, and at
 * 2^17 rows and on rows of 1024 f32 slower (docs/PERFORMANCE.md): a
 * tunable, not a default.
 * The words that stay unloaded hold -inf of T (two of them for bf16).
 * Requires: p aligned for the vector when pred; PF 0 or 256.
 */
template <class T, int VEC, int PF>
static __device__ __forceinline__ void vec_load_or_lowest(const vec_of<T, VEC> *p, bool pred, float (&f)[VEC])
{
	constexpr int bytes = sizeof(T) * VEC;
	const unsigned lowest = sizeof(T) == 2 ? 0xff80ff80u : 0xff800000u;
	const int on = pred;
	unsigned w[bytes >= 4 ? bytes / 4 : 1] = {};
	vec_of<T, VEC> v;

	static_assert(bytes == 2 || bytes == 4 || bytes == 8 || bytes == 16, "a vector of 2, 4, 8 or 16 bytes");
	static_assert(PF == 0 || PF == 256, "no L2 prefetch, or 256 bytes");
	if constexpr (PF == 256)
		SOFTMAX_LOAD_OR_LOWEST("ld.global.nc.L2::256B");
	else
		SOFTMAX_LOAD_OR_LOWEST("ld.global.nc");
	memcpy(&v, w, sizeof v);
	vec_to_f32(v, f);
}

/*
 * softmax.registers with passes=1.  A block is rpb groups of tpr threads;
 * each group takes R rows at once (the tunable rpt), rows b rpb R + r rpb
 * + g of block b for r < R, so that every r is a coalesced sweep over the
 * block's rows.  A thread holds NV vectors of VEC of each of its R rows (R
 * x NV <= SOFTMAX_REG_VECS, R x NV x VEC <= SOFTMAX_REG_ELEMS; every index
 * into x is a compile-time constant, so nothing goes to local memory) and
 * issues all R x NV loads before the first use: one read and one write an
 * element, as a copy, with R x NV x 16 bytes a thread in flight.  Slots
 * past a row's end hold -inf, which gives e^(-inf) = 0.  A row past the
 * last has a max of -inf, replaced by 0 so that its slots give 0, not NaN
 * (a real row has a finite entry: the contract); it writes nothing.
 * Each block takes its rows once and ends, with no loop over further rows:
 * at 2^14 rows (a single wave, where the time is the chain from a block's
 * start to its store) a block-uniform row loop made a minimal kernel
 * slower (docs/PERFORMANCE.md).  Every thread reaches
 * every shuffle and barrier: threads of rows past the end carry
 * identities.
 * TL is tpr_log2 where tpr <= 32, a constant for the shuffles and the
 * indexing, and -1 past a warp.
 * The index arithmetic in front of the loads is kept to what 2^14 rows of
 * 128 bf16 showed to matter, where the time is the chain from a block's
 * start to its store (docs/PERFORMANCE.md): rows, cols and
 * rpb are 32-bit arguments (registers_grids launches a grid for every
 * INT_MAX rows or 2^32 elements, whichever is fewer); rpb comes as an
 * argument rather than from blockDim, and the block's first row is or-ed
 * with the group's rather than added (reading blockDim, or adding, each
 * cost time in a kernel that did only that); each row's offset is
 * computed once, for its loads and its stores.
 * Requires: gridDim.x x rpb x R >= rows, gridDim.x x rpb x R <= 2^32,
 * rows x cols <= 2^32; rpb and R powers of two (for the or); blockDim.x =
 * rpb x tpr, a multiple of 32, tpr = 2^tpr_log2; cols a multiple of VEC
 * and <= NV x tpr x VEC; R == 1 when tpr > 32; TL == tpr_log2 when tpr
 * <= 32, else TL == -1; PF 0 or 256 (vec_load_or_lowest's L2 prefetch);
 * in and out aligned for VEC elements.
 */
template <class T, int VEC, int NV, int R, int TL, int PF>
__global__ void __launch_bounds__(1024)
softmax_registers_kernel(const T *__restrict__ in, T *__restrict__ out, unsigned rows, unsigned cols,
			 unsigned rpb, int tpr_log2_arg)
{
	__shared__ float smem[2 * 32];
	const unsigned tpr_log2 = TL >= 0 ? TL : tpr_log2_arg;
	const unsigned tpr = 1u << tpr_log2;
	const unsigned lane = threadIdx.x & (tpr - 1), g = threadIdx.x >> tpr_log2;
	const unsigned nvec = cols / VEC;
	/* a multiple of rpb x R, a power of two above r rpb + g: or adds */
	const unsigned first = blockIdx.x * (rpb * R);
	float x[R][NV][VEC], m[R], s[R];
	/* Each row's offset: 64-bit where a row group is a warp or less (at
	 * 2^14 rows of 128 bf16, 32-bit ones were slower),
	 * 32-bit past a warp (64-bit ones spilled in two instantiations with
	 * the barriers' stage, and rows x cols <= 2^32: registers_grids). */
	using offset_t = std::conditional_t<(TL >= 0), uint64_t, unsigned>;
	offset_t off[R];
	bool ok[R];

	/* & rather than &&: a short-circuit is a branch that ptxas may keep
	 * around the load */
#pragma unroll
	for (int r = 0; r < R; r++) {
		const unsigned row = first | (r * rpb + g);
		ok[r] = row < rows;
		off[r] = (offset_t)(ok[r] ? row : 0) * cols;
		const vec_of<T, VEC> *src = reinterpret_cast<const vec_of<T, VEC> *>(in + off[r]);
#pragma unroll
		for (int k = 0; k < NV; k++) {
			const unsigned i = lane + k * tpr;
			vec_load_or_lowest<T, VEC, PF>(src + i, ok[r] & (i < nvec), x[r][k]);
		}
	}
#pragma unroll
	for (int r = 0; r < R; r++)
		m[r] = tree_reduce<op_fmax, NV * VEC>(&x[r][0][0]);
	group_reduce_rows<op_fmax, R, TL>(m, tpr_log2, smem);
	/* (x - m) is exact near the max, so the scaling by log2(e) comes
	 * after it: x log2(e) - m log2(e) as one FMA would round m log2(e)
	 * and, for rows in +-32000, be 0.2 % off. */
#pragma unroll
	for (int r = 0; r < R; r++) {
		if (m[r] == bounds<float>::lowest())
			m[r] = 0.0f;
#pragma unroll
		for (int k = 0; k < NV; k++)
#pragma unroll
			for (int j = 0; j < VEC; j++)
				x[r][k][j] = exp2_ftz((x[r][k][j] - m[r]) * SOFTMAX_LOG2E);
		s[r] = tree_reduce<op_sum<float>, NV * VEC>(&x[r][0][0]);
	}
	group_reduce_rows<op_sum<float>, R, TL>(s, tpr_log2, smem);
#pragma unroll
	for (int r = 0; r < R; r++) {
		const float inv = rcp_sum(s[r]);
		vec_of<T, VEC> *dst = reinterpret_cast<vec_of<T, VEC> *>(out + off[r]);

#pragma unroll
		for (int k = 0; k < NV; k++) {
			const unsigned i = lane + k * tpr;
			if (ok[r] & (i < nvec)) {
#pragma unroll
				for (int j = 0; j < VEC; j++)
					x[r][k][j] *= inv;
				dst[i] = vec_from_f32<VEC>(x[r][k], T());
			}
		}
	}
}

/*
 * Block b takes rows b rpb .. b rpb + rpb - 1, then strides by gridDim.x
 * rpb; threads [g tpr, (g + 1) tpr) take the block's row g.
 * Requires: blockDim.x = rpb x tpr, a multiple of 32, 32..1024, tpr a power
 * of two; cols a multiple of VEC; in and out aligned for VEC elements.
 */
template <class T, int VEC, int Alg>
__global__ void __launch_bounds__(1024)
softmax_rows_kernel(const T *__restrict__ in, T *__restrict__ out, int64_t rows, int64_t cols, int tpr)
{
	__shared__ float smem[2 * 32];
	const int rpb = blockDim.x / tpr;
	row_part<T, VEC> r;

	r.nvec = cols / VEC;
	r.lane = threadIdx.x % tpr;
	r.tpr = tpr;
	for (int64_t base = (int64_t)blockIdx.x * rpb; base < rows; base += (int64_t)gridDim.x * rpb) {
		const int64_t row = base + threadIdx.x / tpr;

		r.busy = row < rows;
		r.src = reinterpret_cast<const vec_of<T, VEC> *>(in + (r.busy ? row : 0) * cols);
		r.dst = reinterpret_cast<vec_of<T, VEC> *>(out + (r.busy ? row : 0) * cols);
		if constexpr (Alg == ALG_THREE_PASS)
			row_three_pass(r, smem);
		else
			row_online(r, smem);
	}
}

/* Calls f(T(), VEC) for the case's dtype and vec (VEC an integral_constant). */
template <class F>
static cudaError_t softmax_dispatch(const struct reduce_launch *l, F &&f)
{
	using std::integral_constant;
	const int vec = launch_params<softmax_params>(l).vec;

	if (l->dtype == DTYPE_F32) {
		switch (vec) {
		case 1: return f(float(), integral_constant<int, 1>());
		case 2: return f(float(), integral_constant<int, 2>());
		case 4: return f(float(), integral_constant<int, 4>());
		default: return cudaErrorInvalidValue;
		}
	}
	switch (vec) {
	case 1: return f(bf16_t(), integral_constant<int, 1>());
	case 2: return f(bf16_t(), integral_constant<int, 2>());
	case 4: return f(bf16_t(), integral_constant<int, 4>());
	case 8: return f(bf16_t(), integral_constant<int, 8>());
	default: return cudaErrorInvalidValue;
	}
}

template <int Alg>
static cudaError_t softmax_launch(const struct reduce_launch *l)
{
	return softmax_dispatch(l, [&](auto t, auto vec) {
		using T = decltype(t);
		softmax_rows_kernel<T, vec, Alg><<<(unsigned)l->grid, l->block, 0, l->stream>>>(
			(const T *)l->in, (T *)l->out, l->n / l->seg_len, l->seg_len,
			launch_params<softmax_params>(l).tpr);
		return cudaSuccess;
	});
}

/* The blocks of rows_per_block rows that cover rows. */
static int64_t softmax_blocks(int64_t rows, int64_t rows_per_block)
{
	return (rows + rows_per_block - 1) / rows_per_block;
}

/* softmax_registers_kernel<T, VEC, NV, R, TL, PF> over the case's rows: a
 * grid of a block for every rpb x R rows, and as many grids as keep each
 * one's rows at most INT_MAX (gridDim.x's bound, a block holding one row
 * at the least) and its elements at most 2^32, a multiple of the block's
 * rows each, so that the kernel's row indices and offsets fit in 32 bits.
 * The rules keep rpb x rpt x cols <= 32 x 1024 with passes=1: a grid
 * still holds 2^17 rows or more. */
template <class T, int VEC, int NV, int R, int TL, int PF>
static cudaError_t registers_grids(const struct reduce_launch *l, int tpr_log2)
{
	const unsigned rpb = (unsigned)launch_params<softmax_params>(l).rpb, per_block = rpb * R;
	const int64_t rows = l->n / l->seg_len, cols = l->seg_len;
	const int64_t by_elems = ((int64_t)1 << 32) / cols;
	const int64_t chunk = (by_elems < INT_MAX ? by_elems : INT_MAX) / per_block * per_block;

	if (chunk == 0) /* a block of more than 2^32 elements: the rules refuse it */
		return cudaErrorInvalidValue;
	for (int64_t done = 0; done < rows; done += chunk) {
		const int64_t n = rows - done < chunk ? rows - done : chunk;
		softmax_registers_kernel<T, VEC, NV, R, TL, PF>
			<<<(unsigned)softmax_blocks(n, per_block), l->block, 0, l->stream>>>(
				(const T *)l->in + done * cols, (T *)l->out + done * cols, (unsigned)n,
				(unsigned)cols, rpb, tpr_log2);
	}
	return cudaSuccess;
}

/* registers_grids for tpr = 2^tpr_log2: TL = tpr_log2 up to a warp, -1
 * past it (then R == 1: the rules). */
template <class T, int VEC, int NV, int R, int PF, int TL = 0>
static cudaError_t registers_launch_tl(const struct reduce_launch *l, int tpr_log2)
{
	if constexpr (TL > 5) {
		if constexpr (R != 1)
			return cudaErrorInvalidValue;
		else
			return registers_grids<T, VEC, NV, 1, -1, PF>(l, tpr_log2);
	} else {
		if (tpr_log2 > TL)
			return registers_launch_tl<T, VEC, NV, R, PF, TL + 1>(l, tpr_log2);
		return registers_grids<T, VEC, NV, R, TL, PF>(l, tpr_log2);
	}
}

/* softmax_registers_kernel for R rows a group with the fewest vectors a
 * thread, NV (a power of two), that hold nv of them.  Requires: nv x R <=
 * SOFTMAX_REG_VECS and nv x R x VEC <= SOFTMAX_REG_ELEMS (the rule). */
template <class T, int VEC, int R, int PF, int NV = 1>
static cudaError_t registers_launch_nv(const struct reduce_launch *l, int64_t nv, int tpr)
{
	if constexpr (NV * R > SOFTMAX_REG_VECS || NV * R * VEC > SOFTMAX_REG_ELEMS) {
		return cudaErrorInvalidValue;
	} else {
		if (nv > NV)
			return registers_launch_nv<T, VEC, R, PF, 2 * NV>(l, nv, tpr);
		return registers_launch_tl<T, VEC, NV, R, PF>(l, __builtin_ctz(tpr));
	}
}

/* passes=2 is softmax.online's kernel.  rpt > 1 comes with tpr <= 32: the
 * rules refuse the rest before any launch. */
static cudaError_t registers_launch(const struct reduce_launch *l)
{
	const struct softmax_params &p = launch_params<softmax_params>(l);

	if (p.passes == 2)
		return softmax_launch<ALG_ONLINE>(l);
	return softmax_dispatch(l, [&](auto t, auto vec) {
		using T = decltype(t);
		const int64_t nv = (l->seg_len / vec + p.tpr - 1) / p.tpr;
		auto by_rpt = [&](auto pf) {
			switch (p.rpt) {
			case 1: return registers_launch_nv<T, vec, 1, pf>(l, nv, p.tpr);
			case 2: return registers_launch_nv<T, vec, 2, pf>(l, nv, p.tpr);
			case 4: return registers_launch_nv<T, vec, 4, pf>(l, nv, p.tpr);
			default: return cudaErrorInvalidValue;
			}
		};

		switch (p.prefetch) {
		case 0: return by_rpt(std::integral_constant<int, 0>());
		case 256: return by_rpt(std::integral_constant<int, 256>());
		default: return cudaErrorInvalidValue;
		}
	});
}

/* block = rpb x tpr; the grid is a block per rpb x rpt rows (rpt 1 where
 * a variant has none), at most INT_MAX: softmax_rows_kernel's row loop
 * strides over the rest (softmax.registers with passes=1 sizes its own
 * grids, registers_grids).  The rules have checked the rest. */
static int softmax_shape(const struct case_args *a, struct reduce_launch *l, char *, size_t)
{
	const struct softmax_params &p = launch_params<softmax_params>(l);
	const int64_t blocks = softmax_blocks(a->n, (int64_t)p.rpb * (p.rpt > 0 ? p.rpt : 1));

	l->block = p.rpb * p.tpr;
	l->grid = (int)(blocks < INT_MAX ? blocks : INT_MAX);
	return 0;
}

static const struct softmax_spec three_pass_spec = {
	.shape = softmax_shape, .launch = softmax_launch<ALG_THREE_PASS>,
};
static const struct softmax_spec online_spec = {
	.shape = softmax_shape, .launch = softmax_launch<ALG_ONLINE>,
};
static const struct softmax_spec registers_spec = {
	.shape = softmax_shape, .launch = registers_launch,
};

#define SOFTMAX_TYPES (DTYPE_BIT(DTYPE_F32) | DTYPE_BIT(DTYPE_BF16))
/* Declared in the order the tuner walks them: rpb, tpr, vec, then
 * softmax.registers' passes, rpt and prefetch (its set is this list, the
 * others' the first three). */
static const struct tunable softmax_tunables[] = {
	{.name = "rpb", .doc = "rows per block (groups of tpr threads; x rpt rows for softmax.registers)",
	 .lo = 1, .hi = 1024, .pow2 = 1, .def = "4",
	 .space = "1,2,4,8,16,32,64", .field = offsetof(struct softmax_params, rpb)},
	{.name = "tpr", .doc = "threads per row", .lo = 1, .hi = 1024, .pow2 = 1, .def = "32",
	 .space = "1,2,4,8,16,32,64,128,256,512,1024", .field = offsetof(struct softmax_params, tpr)},
	{.name = "vec", .doc = "elements per vector load", .lo = 1, .hi = 8, .pow2 = 1, .def = "16 / esize",
	 .space = "1,2,4,8", .field = offsetof(struct softmax_params, vec)},
	{.name = "passes", .doc = "1: the row in registers, 2: read twice", .values = "1|2",
	 .def = "cols * rpt <= tpr * min(8 * vec, 32) ? 1 : 2", .space = "1,2",
	 .field = offsetof(struct softmax_params, passes)},
	{.name = "rpt", .doc = "rows a group of tpr threads holds at once", .values = "1|2|4", .def = "1",
	 .space = "1,2,4", .field = offsetof(struct softmax_params, rpt)},
	{.name = "prefetch", .doc = "bytes the L2 fetches for a load that misses it (0: the sectors loaded)",
	 .values = "0|256", .def = "0", .space = "0,256", .field = offsetof(struct softmax_params, prefetch)},
};
#define SOFTMAX_FAMILY_TUNABLES 3
static const struct rule softmax_rules[] = {
	{"cols >= 1", "n rows of cols"},
	{"rpb * tpr >= 32 && rpb * tpr <= 1024", "threads per block"},
	{"vec * esize <= 16", "one load of at most 16 bytes"},
	{"cols % vec == 0", "every row starts on a vector boundary"},
};
static const struct tunable_set softmax_set = {
	.tunables = softmax_tunables, .count = SOFTMAX_FAMILY_TUNABLES, RULE_LIST(softmax_rules),
	.size = sizeof(struct softmax_params),
};
static const struct tunable_set registers_set = {
	TUNABLE_LIST(softmax_tunables), RULE_LIST(softmax_rules), .size = sizeof(struct softmax_params),
};
/* softmax.registers holds at most 8 vectors and 32 elements a thread, over
 * its rpt rows; several rows a group are for short rows, whose group is at
 * most a warp (the shared-memory stage takes one row). */
static const struct rule registers_rules[] = {
	{"passes == 2 || cols * rpt <= tpr * min(8 * vec, 32)", "with passes=1 the rows fit in registers"},
	{"rpt == 1 || passes == 1 && tpr <= 32",
	 "several rows a group (rpt > 1) need rows that fit in registers (passes=1) and a group within a warp"},
	{"prefetch == 0 || passes == 1", "the L2 prefetch is the one-pass kernel's (passes=1)"},
};
/* The two that read a row several times keep the spaces they were tuned
 * over; rows per block beyond 16 and fewer than 4 threads a row pay only
 * where the row is read once. */
#define SOFTMAX_MULTIPASS_SPACE "rpb=1,2,4,8,16 tpr=4,8,16,32,64,128,256,512,1024"
/* softmax.registers' search leaves passes to its default: the row in
 * registers wherever it fits at the configuration's tpr, vec and rpt, two
 * reads where it does not.  With passes an axis of its own, passes=1 is
 * refused at every tpr too small for the row, so a search that starts
 * among the two-pass configurations of a long row (most of its space)
 * has no step into the one-pass ones: short searches of long rows all
 * ended two-pass, far from the copy (docs/PERFORMANCE.md).  With the
 * fallback following tpr,
 * a larger tpr is one step from the two-pass region into the one-pass
 * region.  passes=2 stays a tunable for a case to ask for. */
#define SOFTMAX_REGISTERS_SPACE \
	"rpb=1,2,4,8,16,32,64 tpr=1,2,4,8,16,32,64,128,256,512,1024 vec=1,2,4,8 rpt=1,2,4 prefetch=0,256"

/* -inf entries are fine (they give 0); a row of only -inf has no softmax. */

static const struct variant softmax_general_variants[] = {
	{.name = "softmax.three_pass",
	 .summary = "row softmax reading each row three times: max, sum of exponentials, write",
	 .dtypes = SOFTMAX_TYPES, .gpu = 1, .check = softmax_variant_check, .run = softmax_variant_run,
	 .spec = &three_pass_spec, .requires = "each row has a finite entry",
	 .params = {.set = &softmax_set, .space = SOFTMAX_MULTIPASS_SPACE}, .refs = &softmax_refs},
	{.name = "softmax.online",
	 .summary = "row softmax with the online (max, sum) merge: one read for both, one to write",
	 .dtypes = SOFTMAX_TYPES, .gpu = 1, .check = softmax_variant_check, .run = softmax_variant_run,
	 .spec = &online_spec, .requires = "each row has a finite entry",
	 .params = {.set = &softmax_set, .space = SOFTMAX_MULTIPASS_SPACE}, .refs = &softmax_refs},
	{.name = "softmax.registers",
	 .summary = "row softmax holding the row in registers: one read, one write (passes=2: two reads, any length)",
	 .dtypes = SOFTMAX_TYPES, .gpu = 1, .check = softmax_variant_check, .run = softmax_variant_run,
	 .spec = &registers_spec, .requires = "each row has a finite entry",
	 .params = {.set = &registers_set, RULE_LIST(registers_rules), .space = SOFTMAX_REGISTERS_SPACE},
	 .refs = &softmax_refs},
};

extern "C" const struct variant_table softmax_general_table;
const struct variant_table softmax_general_table = {
	softmax_general_variants, sizeof softmax_general_variants / sizeof softmax_general_variants[0]};
