/*
 * reduce_ops.cuh - reduction operators as types, and the typed dispatch that
 * turns a case's (dtype, op) into a kernel template instantiation.
 *
 * A kernel is written once as kernel<T, Op> and launched from a generic
 * lambda: dispatch_typed(l->dtype, l->op, [&](auto t, auto op) { ... }).
 * Op is op_sum<T>, op_max<T> or op_min<T>; each gives the identity (the
 * value that padding lanes and threads past n contribute), the combining
 * function, and the matching cooperative_groups functor.
 */
#ifndef CONFORM_REDUCE_OPS_CUH
#define CONFORM_REDUCE_OPS_CUH

#include <climits>
#include <cstdint>

#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "common/dtype.h"

/* The smallest and largest values of T: identities of max and min. */
template <class T> struct bounds;
template <> struct bounds<float> {
	static __device__ __forceinline__ float lowest() { return -__int_as_float(0x7f800000); }
	static __device__ __forceinline__ float highest() { return __int_as_float(0x7f800000); }
};
template <> struct bounds<double> {
	static __device__ __forceinline__ double lowest() { return -__longlong_as_double(0x7ff0000000000000ll); }
	static __device__ __forceinline__ double highest() { return __longlong_as_double(0x7ff0000000000000ll); }
};
template <> struct bounds<int> {
	static __device__ __forceinline__ int lowest() { return INT_MIN; }
	static __device__ __forceinline__ int highest() { return INT_MAX; }
};
template <> struct bounds<unsigned> {
	static __device__ __forceinline__ unsigned lowest() { return 0u; }
	static __device__ __forceinline__ unsigned highest() { return UINT_MAX; }
};

template <class T> struct op_sum {
	using cg = cooperative_groups::plus<T>;
	static __device__ __forceinline__ T identity() { return T(0); }
	static __device__ __forceinline__ T apply(T a, T b) { return a + b; }
};

template <class T> struct op_max {
	using cg = cooperative_groups::greater<T>;
	static __device__ __forceinline__ T identity() { return bounds<T>::lowest(); }
	static __device__ __forceinline__ T apply(T a, T b) { return b > a ? b : a; }
};

template <class T> struct op_min {
	using cg = cooperative_groups::less<T>;
	static __device__ __forceinline__ T identity() { return bounds<T>::highest(); }
	static __device__ __forceinline__ T apply(T a, T b) { return b < a ? b : a; }
};

/* Element i of in, or the identity past the end (so partial blocks, warps
 * and sub-warp sections reduce correctly with every lane taking part). */
template <class Op, class T>
static __device__ __forceinline__ T load_or_identity(const T *in, int64_t i, int64_t n)
{
	return i < n ? in[i] : Op::identity();
}

/* Calls f(T(), Op()) for the case's operator; the element type is fixed. */
template <class T, class F>
static cudaError_t dispatch_op(enum op o, F &&f)
{
	switch (o) {
	case OP_SUM: return f(T(), op_sum<T>());
	case OP_MAX: return f(T(), op_max<T>());
	case OP_MIN: return f(T(), op_min<T>());
	default: return cudaErrorInvalidValue;
	}
}

/* f32 and i32: the types of the shuffle, block and divergence kernels. */
template <class F>
static cudaError_t dispatch_typed(enum dtype d, enum op o, F &&f)
{
	switch (d) {
	case DTYPE_F32: return dispatch_op<float>(o, f);
	case DTYPE_I32: return dispatch_op<int>(o, f);
	default: return cudaErrorInvalidValue;
	}
}

/* i32 and u32: the types __reduce_*_sync accepts. */
template <class F>
static cudaError_t dispatch_int(enum dtype d, enum op o, F &&f)
{
	switch (d) {
	case DTYPE_I32: return dispatch_op<int>(o, f);
	case DTYPE_U32: return dispatch_op<unsigned>(o, f);
	default: return cudaErrorInvalidValue;
	}
}

/* Calls f(T()) for kernels whose operator is fixed (f32 and i32). */
template <class F>
static cudaError_t dispatch_dtype(enum dtype d, F &&f)
{
	switch (d) {
	case DTYPE_F32: return f(float());
	case DTYPE_I32: return f(int());
	default: return cudaErrorInvalidValue;
	}
}

#endif
