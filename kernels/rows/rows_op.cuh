/*
 * rows_op.cuh - the combiners of the rows.op family: one row-reduction
 * template (kernels/rows/rows_op.cu), different states and merges.
 *
 * A combiner C has a state of 32-bit fields (shuffled field by field) and
 *   identity()         the state of no elements (lanes past the row's end);
 *   push(s, x, i)      s with element x (column i) added, columns pushed
 *                      in increasing order within a lane;
 *   merge(a, b)        the state of both parts, for any split of the row;
 *   write(out, r, s)   the row's outputs (rows_op_ref.h: how many, where).
 * Every value is f32 (bf16 input is widened first).  What each computes and
 * its tolerance: kernels/rows/rows_op_ref.h.
 */
#ifndef CONFORM_ROWS_OP_CUH
#define CONFORM_ROWS_OP_CUH

#include <climits>
#include <cstring>

#include "kernels/collectives.cuh"

/* Welford updates; Chan, Golub and LeVeque's pairwise merge. */
struct comb_welford {
	using out_t = float;
	struct state {
		float n, mean, m2;
	};
	static __device__ __forceinline__ state identity() { return {0.0f, 0.0f, 0.0f}; }
	static __device__ __forceinline__ state push(state s, float x, int)
	{
		s.n += 1.0f;
		const float d = x - s.mean;
		s.mean += d / s.n;
		s.m2 += d * (x - s.mean);
		return s;
	}
	static __device__ __forceinline__ state merge(state a, state b)
	{
		if (b.n == 0.0f)
			return a;
		if (a.n == 0.0f)
			return b;
		const float n = a.n + b.n, d = b.mean - a.mean;
		return {n, a.mean + d * (b.n / n), a.m2 + b.m2 + d * d * (a.n * b.n / n)};
	}
	static __device__ __forceinline__ void write(float *out, int64_t row, state s)
	{
		out[2 * row] = s.mean;
		out[2 * row + 1] = s.m2 / s.n;
	}
};

/* E[x^2] - E[x]^2 from plain sums: cancels catastrophically when the
 * mean is large against the spread (the case rows.op.var_naive shows). */
struct comb_moments {
	using out_t = float;
	struct state {
		float n, s1, s2;
	};
	static __device__ __forceinline__ state identity() { return {0.0f, 0.0f, 0.0f}; }
	static __device__ __forceinline__ state push(state s, float x, int)
	{
		return {s.n + 1.0f, s.s1 + x, s.s2 + x * x};
	}
	static __device__ __forceinline__ state merge(state a, state b)
	{
		return {a.n + b.n, a.s1 + b.s1, a.s2 + b.s2};
	}
	static __device__ __forceinline__ void write(float *out, int64_t row, state s)
	{
		const float mean = s.s1 / s.n;
		out[2 * row] = mean;
		out[2 * row + 1] = s.s2 / s.n - mean * mean;
	}
};

/* The online (max, sum of exp(x - max)) pair; no exp ever overflows. */
struct comb_lse {
	using out_t = float;
	struct state {
		float m, s;
	};
	static __device__ __forceinline__ state identity() { return {bounds<float>::lowest(), 0.0f}; }
	static __device__ __forceinline__ state push(state s, float x, int)
	{
		/* From the identity, s * exp(-inf) = 0 * 0: the first x gives (x, 1). */
		if (x > s.m)
			return {x, s.s * expf(s.m - x) + 1.0f};
		if (x == bounds<float>::lowest()) /* exp(-inf) adds 0; -inf - -inf would be NaN */
			return s;
		return {s.m, s.s + expf(x - s.m)};
	}
	static __device__ __forceinline__ state merge(state a, state b)
	{
		const float m = fmaxf(a.m, b.m);
		if (m == bounds<float>::lowest()) /* both empty: -inf - -inf is NaN */
			return a;
		return {m, a.s * expf(a.m - m) + b.s * expf(b.m - m)};
	}
	static __device__ __forceinline__ void write(float *out, int64_t row, state s)
	{
		out[row] = s.m + logf(s.s);
	}
};

/* Sum of squares, then its square root. */
struct comb_l2 {
	using out_t = float;
	struct state {
		float ss;
	};
	static __device__ __forceinline__ state identity() { return {0.0f}; }
	static __device__ __forceinline__ state push(state s, float x, int) { return {fmaf(x, x, s.ss)}; }
	static __device__ __forceinline__ state merge(state a, state b) { return {a.ss + b.ss}; }
	static __device__ __forceinline__ void write(float *out, int64_t row, state s)
	{
		out[row] = sqrtf(s.ss);
	}
};

/* (value, column): the larger value, the lower column on ties.  A lane's
 * columns arrive in increasing order, so push keeps the first of equals;
 * merge decides ties by the column, so it is symmetric and any merge
 * order gives the row's lowest index of the maximum. */
struct comb_argmax {
	using out_t = int;
	struct state {
		float v;
		int i;
	};
	static __device__ __forceinline__ state identity() { return {bounds<float>::lowest(), INT_MAX}; }
	static __device__ __forceinline__ state push(state s, float x, int i)
	{
		/* The first column taken even when it is -inf (no value exceeds the identity's). */
		return x > s.v || s.i == INT_MAX ? state{x, i} : s;
	}
	static __device__ __forceinline__ state merge(state a, state b)
	{
		return b.v > a.v || (b.v == a.v && b.i < a.i) ? b : a;
	}
	static __device__ __forceinline__ void write(int *out, int64_t row, state s) { out[row] = s.i; }
};

/* A state shuffled one 32-bit field at a time.
 * Requires: all 32 lanes converged and non-exited. */
template <class S>
static __device__ __forceinline__ S shfl_xor_state(const S &s, int o)
{
	static_assert(sizeof(S) % 4 == 0, "states are made of 32-bit fields");
	unsigned w[sizeof(S) / 4];
	S r;

	memcpy(w, &s, sizeof s);
#pragma unroll
	for (unsigned f = 0; f < sizeof(S) / 4; f++)
		w[f] = __shfl_xor_sync(FULL_MASK, w[f], o);
	memcpy(&r, w, sizeof r);
	return r;
}

/* Butterfly merge: every lane ends with the warp's state (up to rounding
 * order).  Requires: as shfl_xor_state. */
template <class C>
static __device__ __forceinline__ typename C::state warp_merge(typename C::state s)
{
#pragma unroll
	for (int o = 16; o > 0; o /= 2)
		s = C::merge(s, shfl_xor_state(s, o));
	return s;
}

/*
 * Block merge: a warp merge per warp, the warps' states through shared
 * memory, a warp merge of those by warp 0; thread 0 returns the block's.
 * Requires: blockDim.x a multiple of 32, <= 1024; every thread calls it;
 * a second call comes after a __syncthreads (warp 0 may still be reading
 * the shared states).
 */
template <class C>
static __device__ __forceinline__ typename C::state block_merge(typename C::state s)
{
	__shared__ typename C::state part[32];
	const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;

	s = warp_merge<C>(s);
	if (lane == 0)
		part[warp] = s;
	__syncthreads();
	if (warp == 0) {
		s = lane < blockDim.x / 32 ? part[lane] : C::identity();
		s = warp_merge<C>(s);
	}
	return s;
}

#endif
