/*
 * device_cub.cu - the device family's baselines, what our variants are
 * measured against in the same run:
 *
 *   device.cub            cub::DeviceReduce::Sum, Max or Min (bf16 through
 *                         TransformReduce into f32), from the toolkit's CCCL.
 *   device.cub_segmented  cub::DeviceSegmentedReduce over rows x cols.
 *   device.copy           cudaMemcpyAsync device to device of the n inputs:
 *                         the copy-bandwidth reference (bytes = read +
 *                         written); correct when the copy is exact.
 *
 * CUB's temporary storage is sized in configure() and allocated once, as
 * the driver's scratch, so timing never includes an allocation.
 */
#include <math.h>
#include <stdio.h>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "kernels/device/device_reduce.cuh"
#include "worker/cuda_check.cuh"
#include "worker/reference.h"

/* An input element as its accumulator type (bf16 to f32), as CUB's input
 * transform. */
template <class In>
struct widen {
	__host__ __device__ acc_t<In> operator()(In x) const { return to_acc(x); }
};

/* Row r of a rows x cols array starts at r * cols. */
struct row_start {
	int64_t cols;
	__host__ __device__ int64_t operator()(int64_t r) const { return r * cols; }
};

/* The reduction operator and its identity, as CUB takes them. */
template <class A>
static A identity_of(op_sum<A>)
{
	return A(0);
}
template <class A>
static A identity_of(op_max<A>)
{
	return std::is_integral<A>::value ? (A)INT_MIN : (A)-INFINITY;
}
template <class A>
static A identity_of(op_min<A>)
{
	return std::is_integral<A>::value ? (A)INT_MAX : (A)INFINITY;
}
template <class A> static ::cuda::std::plus<> functor_of(op_sum<A>) { return {}; }
template <class A> static ::cuda::maximum<> functor_of(op_max<A>) { return {}; }
template <class A> static ::cuda::minimum<> functor_of(op_min<A>) { return {}; }

/* Calls f(In(), Op()) for the case's dtype and operator (Op on acc_t<In>). */
template <class In, class F>
static cudaError_t dispatch_cub_op(enum op o, F &&f)
{
	using A = acc_t<In>;
	switch (o) {
	case OP_SUM: return f(In(), op_sum<A>());
	case OP_MAX: return f(In(), op_max<A>());
	case OP_MIN: return f(In(), op_min<A>());
	default: return cudaErrorInvalidValue;
	}
}

template <class F>
static cudaError_t dispatch_cub(const struct reduce_launch *l, F &&f)
{
	switch (l->dtype) {
	case DTYPE_F32: return dispatch_cub_op<float>(l->op, f);
	case DTYPE_F64: return dispatch_cub_op<double>(l->op, f);
	case DTYPE_I32: return dispatch_cub_op<int>(l->op, f);
	case DTYPE_BF16: return dispatch_cub_op<bf16_t>(l->op, f);
	default: return cudaErrorInvalidValue;
	}
}

/* cub::DeviceReduce for l; with temp == NULL it only sizes temp_bytes. */
static cudaError_t cub_reduce(const struct reduce_launch *l, void *temp, size_t &temp_bytes)
{
	return dispatch_cub(l, [&](auto in_t, auto op) {
		using In = decltype(in_t);
		using A = acc_t<In>;
		const In *in = (const In *)l->in;
		A *out = (A *)l->out;

		if constexpr (std::is_same<In, bf16_t>::value) {
			return cub::DeviceReduce::TransformReduce(temp, temp_bytes, in, out, l->n, functor_of(op),
								  widen<In>(), identity_of(op), l->stream);
		} else {
			switch (l->op) {
			case OP_SUM: return cub::DeviceReduce::Sum(temp, temp_bytes, in, out, l->n, l->stream);
			case OP_MAX: return cub::DeviceReduce::Max(temp, temp_bytes, in, out, l->n, l->stream);
			default: return cub::DeviceReduce::Min(temp, temp_bytes, in, out, l->n, l->stream);
			}
		}
	});
}

/* cub::DeviceSegmentedReduce over l's rows; with temp == NULL it only
 * sizes temp_bytes. */
static cudaError_t cub_segmented(const struct reduce_launch *l, void *temp, size_t &temp_bytes)
{
	return dispatch_cub(l, [&](auto in_t, auto op) {
		using In = decltype(in_t);
		using A = acc_t<In>;
		const auto starts = thrust::make_transform_iterator(thrust::counting_iterator<int64_t>(0),
								    row_start{l->seg_len});
		const auto in = thrust::make_transform_iterator((const In *)l->in, widen<In>());

		return cub::DeviceSegmentedReduce::Reduce(temp, temp_bytes, in, (A *)l->out, l->n_out, starts,
							  starts + 1, functor_of(op), identity_of(op), l->stream);
	});
}

template <cudaError_t (*Cub)(const struct reduce_launch *, void *, size_t &)>
static int cub_configure(struct reduce_launch *l, struct case_result *r)
{
	size_t bytes = 0;
	const cudaError_t e = Cub(l, NULL, bytes);

	if (e != cudaSuccess)
		return cuda_call_failed(r, "CUB temporary storage size", e);
	l->scratch_bytes = bytes ? bytes : 1;
	return 0;
}

template <cudaError_t (*Cub)(const struct reduce_launch *, void *, size_t &)>
static cudaError_t cub_launch(const struct reduce_launch *l)
{
	size_t bytes = l->scratch_bytes;

	return Cub(l, l->scratch, bytes);
}

/* The variants' rules keep cols at 0 for cub, >= 1 for cub_segmented. */
static int cub_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	if (l->dtype == DTYPE_BF16)
		l->out_dtype = DTYPE_F32;
	l->seg_len = l->seg_stride = l->n;
	return 0;
}

static int cub_segmented_shape(const struct case_args *a, struct reduce_launch *l, char *, size_t)
{
	if (l->dtype == DTYPE_BF16)
		l->out_dtype = DTYPE_F32;
	l->seg_len = l->seg_stride = a->cols;
	return 0;
}

/* ---- device.copy ---------------------------------------------------------- */

/* Every element its own segment: the output is the input. */
static int copy_shape(const struct case_args *, struct reduce_launch *l, char *, size_t)
{
	l->seg_len = l->seg_stride = 1;
	return 0;
}

static cudaError_t copy_launch(const struct reduce_launch *l)
{
	return cudaMemcpyAsync(l->out, l->in, (size_t)l->n * dtype_size(l->dtype), cudaMemcpyDeviceToDevice,
			       l->stream);
}

/* The copy must be exact. */
static void copy_expect(const struct reduce_launch *l, const void *in, double *ref, double *tol)
{
	for (int64_t i = 0; i < l->n; i++) {
		ref[i] = reference_load(l->dtype, in, (size_t)i);
		tol[i] = 0;
	}
}

/* CUB promises run-to-run determinism on one GPU: hold it to that. */
static const struct reduce_spec cub_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = cub_shape,
	.configure = cub_configure<cub_reduce>, .launch = cub_launch<cub_reduce>,
	.repeat = {.runs = 3, .deterministic = 1},
};
static const struct reduce_spec cub_segmented_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = cub_segmented_shape,
	.configure = cub_configure<cub_segmented>, .launch = cub_launch<cub_segmented>,
	.repeat = {.runs = 3, .deterministic = 1},
};
static const struct reduce_spec copy_spec = {
	.layout = REDUCE_PER_ELEMENT, .input = INPUT_UNIFORM, .shape = copy_shape,
	.launch = copy_launch, .expect = copy_expect,
};

const struct variant_refs device_refs = {
	.copy = "device.copy", .copy_n = 1LL << 28, .baseline = "device.cub", .baseline_rows = "device.cub_segmented",
};

static const struct rule whole_rules[] = {{"cols == 0", "reduces the whole array"}};
static const struct rule rows_rules[] = {{"cols >= 1", "reduces rows"}};

static const struct variant device_cub_variants[] = {
	{.name = "device.cub", .summary = "baseline: cub::DeviceReduce::Sum, Max or Min of the whole array",
	 .dtypes = DEVICE_DTYPES, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &cub_spec, .ops = DEVICE_OPS, .params = {RULE_LIST(whole_rules)}, .refs = &device_refs},
	{.name = "device.cub_segmented",
	 .summary = "baseline: cub::DeviceSegmentedReduce, one result per row of rows x cols",
	 .dtypes = DEVICE_DTYPES, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &cub_segmented_spec, .ops = DEVICE_OPS, .params = {RULE_LIST(rows_rules)},
	 .refs = &device_refs},
	/* op=sum only: the parameter is accepted and ignored, a copy reduces nothing. */
	{.name = "device.copy",
	 .summary = "baseline: cudaMemcpyAsync of the n inputs, device to device (bytes read + written)",
	 .dtypes = DEVICE_DTYPES, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
	 .spec = &copy_spec, .ops = OP_BIT(OP_SUM), .refs = &device_refs},
};

extern "C" const struct variant_table device_cub_table;
const struct variant_table device_cub_table = {device_cub_variants,
					       sizeof device_cub_variants / sizeof device_cub_variants[0]};
