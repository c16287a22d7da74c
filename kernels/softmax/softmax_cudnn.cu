/*
 * softmax_cudnn.cu - softmax.cudnn, the baseline the softmax variants are
 * measured against in the same run: cudnnSoftmaxForward with
 * CUDNN_SOFTMAX_ACCURATE (max-subtracted) and CUDNN_SOFTMAX_MODE_INSTANCE
 * over an NCHW tensor of rows x cols x 1 x 1, f32 or bf16.
 *
 * cuDNN is not linked: when configure found cudnn.h (HAVE_CUDNN) the
 * worker opens libcudnn.so.9 at run time and resolves the few entry points
 * it needs, so the same worker runs on machines without cuDNN.  Without
 * the header or the library the case is SKIP ("cuDNN not found"), and so
 * is a softmax this cuDNN cannot run (a data type it has no softmax for, a
 * sub-library missing).
 *
 * Process state on purpose: the library, its handle and one tensor
 * descriptor are made once per worker (a handle costs far more than a
 * kernel) and live until the worker exits; configure() shapes the
 * descriptor for the case, so the timed launch is the cuDNN call alone.
 * The worker runs one case at a time, and conform never links this file.
 */
#ifdef HAVE_CONFIG_H
#include "config.h" /* HAVE_CUDNN */
#endif

#include <limits.h>
#include <stdio.h>

#include "kernels/softmax/softmax_driver.cuh"
#include "worker/cuda_check.cuh"

#ifdef HAVE_CUDNN
#include <dlfcn.h>

#include <cudnn.h>

struct cudnn_api {
	int state; /* 0: not tried, 1: ready, -1: unavailable (why says why) */
	char why[256];
	decltype(&cudnnCreate) create;
	decltype(&cudnnSetStream) set_stream;
	decltype(&cudnnCreateTensorDescriptor) create_tensor;
	decltype(&cudnnSetTensor4dDescriptor) set_tensor;
	decltype(&cudnnSoftmaxForward) softmax;
	decltype(&cudnnGetErrorString) error_string;
	cudnnHandle_t handle;
	cudnnTensorDescriptor_t rows; /* rows x cols x 1 x 1, both x and y */
};

static struct cudnn_api cudnn;

/* Resolves `name` into *fn; returns 0, or -1 with cudnn.why set. */
template <class F>
static int cudnn_symbol(void *lib, const char *name, F *fn)
{
	*fn = (F)dlsym(lib, name);
	if (!*fn) {
		snprintf(cudnn.why, sizeof cudnn.why, "cuDNN not found: libcudnn.so.9 has no %s", name);
		return -1;
	}
	return 0;
}

/* Loads the library and makes the handle, once.  Returns 0, or -1 with
 * cudnn.why set. */
static int cudnn_open(void)
{
	void *lib;
	cudnnStatus_t st;

	if (cudnn.state)
		return cudnn.state > 0 ? 0 : -1;
	cudnn.state = -1;
	lib = dlopen("libcudnn.so.9", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(cudnn.why, sizeof cudnn.why, "cuDNN not found (%s)", dlerror());
		return -1;
	}
	if (cudnn_symbol(lib, "cudnnCreate", &cudnn.create) < 0 ||
	    cudnn_symbol(lib, "cudnnSetStream", &cudnn.set_stream) < 0 ||
	    cudnn_symbol(lib, "cudnnCreateTensorDescriptor", &cudnn.create_tensor) < 0 ||
	    cudnn_symbol(lib, "cudnnSetTensor4dDescriptor", &cudnn.set_tensor) < 0 ||
	    cudnn_symbol(lib, "cudnnSoftmaxForward", &cudnn.softmax) < 0 ||
	    cudnn_symbol(lib, "cudnnGetErrorString", &cudnn.error_string) < 0)
		return -1; /* the library stays loaded: dlclose could run its destructors mid-run */
	if ((st = cudnn.create(&cudnn.handle)) != CUDNN_STATUS_SUCCESS ||
	    (st = cudnn.create_tensor(&cudnn.rows)) != CUDNN_STATUS_SUCCESS) {
		snprintf(cudnn.why, sizeof cudnn.why, "cuDNN: %s", cudnn.error_string(st));
		return -1;
	}
	cudnn.state = 1;
	return 0;
}

static cudnnStatus_t cudnn_softmax(const void *in, void *out)
{
	const float one = 1.0f, zero = 0.0f;

	return cudnn.softmax(cudnn.handle, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE, &one,
			     cudnn.rows, in, &zero, cudnn.rows, out);
}

/* Fills r for a failed cuDNN call: SKIP when cuDNN does not support it. */
static int cudnn_failed(struct case_result *r, const char *what, cudnnStatus_t st)
{
	case_result_set(r, CUDNN_STATUS_CATEGORY(st) == CUDNN_STATUS_NOT_SUPPORTED ? OUTCOME_SKIPPED
										 : OUTCOME_ERROR,
			"cuDNN %s: %s", what, cudnn.error_string(st));
	return -1;
}

/*
 * Opens cuDNN and shapes the descriptor: first as one row, on which a
 * softmax runs once on scratch buffers (so a softmax cuDNN cannot run is a
 * SKIP here, not a launch error later), then as the case's rows.
 */
static int cudnn_configure(struct reduce_launch *l, struct case_result *r)
{
	const cudnnDataType_t type = l->dtype == DTYPE_F32 ? CUDNN_DATA_FLOAT : CUDNN_DATA_BFLOAT16;
	const int rows = (int)(l->n / l->seg_len), cols = (int)l->seg_len;
	const size_t row_bytes = (size_t)cols * dtype_size(l->dtype);
	void *probe = NULL;
	cudnnStatus_t st;
	cudaError_t e;

	if (cudnn_open() < 0) {
		case_result_set(r, OUTCOME_SKIPPED, "%s", cudnn.why);
		return -1;
	}
	if ((st = cudnn.set_stream(cudnn.handle, l->stream)) != CUDNN_STATUS_SUCCESS)
		return cudnn_failed(r, "cudnnSetStream", st);
	if ((st = cudnn.set_tensor(cudnn.rows, CUDNN_TENSOR_NCHW, type, 1, cols, 1, 1)) !=
	    CUDNN_STATUS_SUCCESS)
		return cudnn_failed(r, "cudnnSetTensor4dDescriptor", st);
	if ((e = cudaMalloc(&probe, 2 * row_bytes)) != cudaSuccess ||
	    (e = cudaMemset(probe, 0, 2 * row_bytes)) != cudaSuccess) {
		(void)cudaFree(probe);
		return cuda_call_failed(r, "cuDNN probe", e);
	}
	st = cudnn_softmax(probe, (char *)probe + row_bytes);
	e = cudaDeviceSynchronize();
	(void)cudaFree(probe);
	if (e != cudaSuccess)
		return cuda_kernel_failed(r, e);
	if (st != CUDNN_STATUS_SUCCESS) {
		/* Unsupported, or a cuDNN that cannot run here (a sub-library
		 * missing): no baseline, not a failure of ours. */
		case_result_set(r, OUTCOME_SKIPPED, "cuDNN softmax of %s unavailable: %s",
				dtype_name(l->dtype), cudnn.error_string(st));
		return -1;
	}
	if ((st = cudnn.set_tensor(cudnn.rows, CUDNN_TENSOR_NCHW, type, rows, cols, 1, 1)) !=
	    CUDNN_STATUS_SUCCESS)
		return cudnn_failed(r, "cudnnSetTensor4dDescriptor", st);
	return 0;
}

static cudaError_t cudnn_launch(const struct reduce_launch *l)
{
	return cudnn_softmax(l->in, l->out) == CUDNN_STATUS_SUCCESS ? cudaSuccess : cudaErrorUnknown;
}
#else
static int cudnn_configure(struct reduce_launch *, struct case_result *r)
{
	case_result_set(r, OUTCOME_SKIPPED, "cuDNN not found (no cudnn.h when conform was configured)");
	return -1;
}

static cudaError_t cudnn_launch(const struct reduce_launch *)
{
	return cudaErrorNotSupported;
}
#endif

/* Nothing to set: cuDNN picks its own launch (the rules have checked the size). */
static int cudnn_shape(const struct case_args *, struct reduce_launch *, char *, size_t)
{
	return 0;
}

static const struct softmax_spec cudnn_spec = {
	.shape = cudnn_shape, .configure = cudnn_configure, .launch = cudnn_launch,
};

/* cuDNN takes int dimensions; its tensors stay below 2^31 elements. */
static const struct rule cudnn_rules[] = {
	{"cols >= 1", "n rows of cols"},
	{"n * cols <= 2147483647", "cuDNN tensors hold fewer than 2^31 elements"},
};

static const struct variant softmax_cudnn_variants[] = {
	{.name = "softmax.cudnn",
	 .summary = "cuDNN's softmax (accurate, per instance): the baseline, loaded at run time",
	 .dtypes = DTYPE_BIT(DTYPE_F32) | DTYPE_BIT(DTYPE_BF16), .gpu = 1, .check = softmax_variant_check,
	 .run = softmax_variant_run, .spec = &cudnn_spec, .requires = "libcudnn.so.9 at run time (else SKIP)",
	 .params = {RULE_LIST(cudnn_rules)}, .refs = &softmax_refs},
};

extern "C" const struct variant_table softmax_cudnn_table;
const struct variant_table softmax_cudnn_table = {
	softmax_cudnn_variants, sizeof softmax_cudnn_variants / sizeof softmax_cudnn_variants[0]};
