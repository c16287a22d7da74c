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
 *   softmax.registers   one read into registers (at most 8 vectors and 32
 *                       elements per thread), max, exponentials kept in registers, sum,
 *                       write: the row is read once and written once.
 *
 * The tunables, shared by the three (struct softmax_params; block = rpb x tpr):
 *   tpr  threads per row, a power of two 1..1024: a sub-warp section
 *        (shuffles of width tpr), a warp, or several warps (shuffles, then
 *        one value per warp through shared memory between two barriers);
 *   rpb  rows per block, a power of two; rpb x tpr = block, 32..1024;
 *   vec  elements per vector load and store: 1, 2, 4 (f32) or 8 (bf16),
 *        at most 16 bytes; cols a multiple of vec, so every row starts on
 *        a vector boundary.
 * The row loop is block-uniform (a persistent stride over rows, rpb rows
 * at a time): every thread of the block runs every iteration and every
 * collective, threads of rows past the end carrying identities and
 * writing nothing, so full-mask shuffles and barriers are always reached
 * by all the threads they name.
 *
 * -inf inputs give exactly 0 (exp_shifted never forms -inf - -inf), so
 * -inf entries, and running maxima that are still -inf, are harmless.
 */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#include <cuda_bf16.h>

#include "device_reduce.cuh"
#include "softmax_driver.cuh"

#define SOFTMAX_LOG2E 1.44269504088896340736f
/* What a thread holds in registers in softmax.registers: at most 8
 * vectors and 32 elements (more spills at the 64 registers a block of 1024
 * leaves a thread). */
#define SOFTMAX_REG_VECS 8
#define SOFTMAX_REG_ELEMS 32

/* Elements per thread of softmax.registers at vec: min(8 vec, 32). */
static __host__ __device__ constexpr int reg_elems(int vec)
{
	return SOFTMAX_REG_VECS * vec < SOFTMAX_REG_ELEMS ? SOFTMAX_REG_VECS * vec : SOFTMAX_REG_ELEMS;
}

enum softmax_alg { ALG_THREE_PASS, ALG_ONLINE, ALG_REGISTERS };

/* The family's parameters: threads per row, rows per block, elements per
 * vector load (the tunables above). */
struct softmax_params {
	int tpr, rpb, vec;
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

/* Requires: cols <= tpr x reg_elems(VEC) (the shape checks it). */
template <class T, int VEC>
static __device__ __forceinline__ void row_registers(const row_part<T, VEC> &r, float *smem)
{
	constexpr int NV = reg_elems(VEC) / VEC;
	float e[NV][VEC];
	float m = bounds<float>::lowest(), s = 0.0f;

#pragma unroll
	for (int k = 0; k < NV; k++) {
		const int64_t i = r.lane + (int64_t)k * r.tpr;
		if (r.busy && i < r.nvec) {
			const vec_of<T, VEC> x = r.src[i];
#pragma unroll
			for (int j = 0; j < VEC; j++) {
				e[k][j] = to_f32(x.v[j]);
				m = fmaxf(m, e[k][j]);
			}
		}
	}
	m = group_reduce<op_max<float>>(m, r.tpr, smem);
#pragma unroll
	for (int k = 0; k < NV; k++) {
		const int64_t i = r.lane + (int64_t)k * r.tpr;
		if (r.busy && i < r.nvec) {
#pragma unroll
			for (int j = 0; j < VEC; j++) {
				e[k][j] = exp_shifted(e[k][j], m);
				s += e[k][j];
			}
		}
	}
	s = group_reduce<op_sum<float>>(s, r.tpr, smem);
	const float inv = 1.0f / s;
#pragma unroll
	for (int k = 0; k < NV; k++) {
		const int64_t i = r.lane + (int64_t)k * r.tpr;
		if (r.busy && i < r.nvec) {
			vec_of<T, VEC> y;
#pragma unroll
			for (int j = 0; j < VEC; j++)
				y.v[j] = from_f32<T>(e[k][j] * inv);
			r.dst[i] = y;
		}
	}
}

/*
 * Block b takes rows b rpb .. b rpb + rpb - 1, then strides by gridDim.x
 * rpb; threads [g tpr, (g + 1) tpr) take the block's row g.
 * Requires: blockDim.x = rpb x tpr, a multiple of 32, 32..1024, tpr a power
 * of two; cols a multiple of VEC; in and out aligned for VEC elements; for
 * ALG_REGISTERS, cols <= tpr x reg_elems(VEC).
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
		else if constexpr (Alg == ALG_ONLINE)
			row_online(r, smem);
		else
			row_registers(r, smem);
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

/* block = rpb x tpr; the grid is a block per rpb rows, at most INT_MAX
 * (the row loop strides over the rest).  The rules have checked the rest. */
static int softmax_shape(const struct case_args *a, struct reduce_launch *l, char *, size_t)
{
	const struct softmax_params &p = launch_params<softmax_params>(l);
	const int64_t blocks = (a->n + p.rpb - 1) / p.rpb;

	l->block = p.rpb * p.tpr;
	l->grid = (int)(blocks < INT_MAX ? blocks : INT_MAX);
	return 0;
}

static const struct softmax_spec three_pass_spec = {softmax_shape, NULL,
						     softmax_launch<ALG_THREE_PASS>, 0};
static const struct softmax_spec online_spec = {softmax_shape, NULL,
						 softmax_launch<ALG_ONLINE>, 0};
static const struct softmax_spec registers_spec = {softmax_shape, NULL,
						    softmax_launch<ALG_REGISTERS>, 0};

SOFTMAX_ENTRY_POINTS(three_pass, three_pass_spec)
SOFTMAX_ENTRY_POINTS(online, online_spec)
SOFTMAX_ENTRY_POINTS(registers, registers_spec)

#define SOFTMAX_TYPES (DTYPE_BIT(DTYPE_F32) | DTYPE_BIT(DTYPE_BF16))
/* Declared in the order the tuner walks them: rpb, tpr, vec. */
static const struct tunable softmax_tunables[] = {
	{.name = "rpb", .doc = "rows per block", .lo = 1, .hi = 1024, .pow2 = 1, .def = "4",
	 .space = "1,2,4,8,16", .field = offsetof(struct softmax_params, rpb)},
	{.name = "tpr", .doc = "threads per row", .lo = 1, .hi = 1024, .pow2 = 1, .def = "32",
	 .space = "4,8,16,32,64,128,256,512,1024", .field = offsetof(struct softmax_params, tpr)},
	{.name = "vec", .doc = "elements per vector load", .lo = 1, .hi = 8, .pow2 = 1, .def = "16 / esize",
	 .space = "1,2,4,8", .field = offsetof(struct softmax_params, vec)},
};
static const struct rule softmax_rules[] = {
	{"cols >= 1", "n rows of cols"},
	{"rpb * tpr >= 32 && rpb * tpr <= 1024", "threads per block"},
	{"vec * esize <= 16", "one load of at most 16 bytes"},
	{"cols % vec == 0", "every row starts on a vector boundary"},
};
static const struct tunable_set softmax_set = {
	TUNABLE_LIST(softmax_tunables), RULE_LIST(softmax_rules), .size = sizeof(struct softmax_params),
};
/* softmax.registers holds at most 8 vectors and 32 elements a thread. */
static const struct rule registers_rules[] = {
	{"cols <= tpr * min(8 * vec, 32)", "the row fits in registers"},
};

/* -inf entries are fine (they give 0); a row of only -inf has no softmax. */
#define SOFTMAX(name_, summary_, prefix, ...)                                                       \
	{.name = name_, .summary = summary_, .dtypes = SOFTMAX_TYPES, .gpu = 1,                      \
	 .check = prefix##_check, .run = prefix##_run, .requires = "each row has a finite entry",    \
	 .params = {.set = &softmax_set, __VA_ARGS__}, .refs = &softmax_refs}

static const struct variant softmax_general_variants[] = {
	SOFTMAX("softmax.three_pass", "row softmax reading each row three times: max, sum of exponentials, write",
		three_pass),
	SOFTMAX("softmax.online", "row softmax with the online (max, sum) merge: one read for both, one to write",
		online),
	SOFTMAX("softmax.registers", "row softmax holding the row in registers: one read, one write",
		registers, RULE_LIST(registers_rules)),
};

extern "C" const struct variant_table softmax_general_table;
const struct variant_table softmax_general_table = {
	softmax_general_variants, sizeof softmax_general_variants / sizeof softmax_general_variants[0]};
