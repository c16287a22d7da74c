/*
 * user_kernel.cu - running a user's kernel file (kernel_file.h) through
 * conform's drivers.
 *
 * A user variant is one of the built-in drivers with a launcher that
 * calls the user's entry: reduce and rows are reduce_driver's segment
 * model (one segment of n, or one per row), softmax is softmax_driver's.
 * Everything but the launch is the driver's: the input, the poisoned
 * output, the reference, the tolerance, the repeats and the timing.
 *
 * Before a case runs, the worker is asked to BUILD it (proto.h): the
 * configuration is compiled with NVRTC, or read from the cache, and
 * loaded with cudaLibraryLoadData, outside the case's deadline.  The
 * loaded kernels are kept for the worker's life in a small table keyed by
 * the build key, so the case (and every later one of the same
 * configuration) finds its kernel there; a RUN that finds none builds it
 * first, inside its deadline (a worker driven by hand).  The compile
 * itself is user_compile.h's, shared with the compile-only workers that
 * fill the cache ahead of the cases.  That table and
 * the NVRTC handle are process state on purpose, as the input cache is:
 * the worker runs one case at a time, and conform never links this file.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kernels/softmax/softmax_driver.cuh"
#include "worker/cuda_check.cuh"
#include "worker/kernel_file.h"
#include "worker/reduce_driver.cuh"
extern "C" {
#include "common/text.h" /* a C header without C++ guards */
}
#include "kernels/device/device_reduce.cuh"
#include "worker/user_build.h"
#include "worker/user_compile.h"

/* The launch's parameters: the tunables' values first (where
 * kernel_file.c binds them), then what configure() found. */
struct user_params {
	int value[TUNABLES_MAX];
	const struct kernel_file *k;
	cudaKernel_t kernel;
	int shared;
	/* Each value parameter of @args, as the entry declares it (4 or 8
	 * bytes), ready to be pointed at by the launch. */
	alignas(8) unsigned char arg[KERNEL_ARGS_MAX][8];
};
/* kernel_file.c binds tunable i at i * sizeof(int), set.size bytes. */
static_assert(offsetof(struct user_params, value) == 0 &&
		      sizeof(((struct user_params *)0)->value) == TUNABLES_MAX * sizeof(int),
	      "user_params must begin with the tunables' values as kernel_file.c binds them");

#define LOADED_MAX 32

struct loaded {
	char key[65];
	cudaLibrary_t lib;
	cudaKernel_t kernel;
	/* Each parameter's type as the launch check coded it (user_build.c's
	 * conform_arg_): 1 and 2 pointers, 0x40 | bytes an unsigned integer,
	 * 0xc0 | bytes a signed one. */
	unsigned char arg_code[KERNEL_ARGS_MAX];
};

static struct {
	struct user_compiler compiler;
	struct loaded loaded[LOADED_MAX];
	size_t nloaded, next_evict;
} user;

static int device_sm(void)
{
	int dev = 0, major = 0, minor = 0;

	if (cudaGetDevice(&dev) != cudaSuccess ||
	    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
	    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) != cudaSuccess)
		return 0;
	return major * 10 + minor;
}

static const struct loaded *loaded_find(const char *key)
{
	for (size_t i = 0; i < user.nloaded; i++)
		if (strcmp(user.loaded[i].key, key) == 0)
			return &user.loaded[i];
	return NULL;
}

/* Compiles (or reads from the cache) and loads the configuration of l,
 * unless it is loaded (*fresh 0).  Returns the kernel, or NULL with r
 * filled: SKIPPED without NVRTC, ERROR when it does not compile or load. */
static const struct loaded *user_load(const struct kernel_file *k, const struct reduce_launch *l,
				      struct case_result *r, int *fresh)
{
	const struct user_params &p = launch_params<struct user_params>(l);
	char msg[RESULT_MESSAGE_MAX];
	struct user_built b;
	cudaError_t e;

	*fresh = 0;
	if (user_compiler_open(&user.compiler, msg, sizeof msg) < 0) {
		case_result_set(r, OUTCOME_SKIPPED, "%s", msg);
		return NULL;
	}
	const struct user_config c = {k, l->dtype, l->op, p.value, device_sm(), user.compiler.include_dir};
	char key[65];
	/* A configuration this worker loaded already costs no build, not even
	 * a read of the cache. */
	const struct loaded *have =
		user_build_key_of(&user.compiler.nvrtc, &c, key) == 0 ? loaded_find(key) : NULL;
	*fresh = !have;
	if (have) {
		case_result_set(r, OUTCOME_CORRECT, "loaded already (%.12s)", key);
		return have;
	}
	/* r holds the build's note from here on; a failed load replaces it. */
	if (user_compile(&user.compiler, &c, &b, r) < 0)
		return NULL;
	struct loaded *slot;
	if (user.nloaded < LOADED_MAX) {
		slot = &user.loaded[user.nloaded++];
	} else {
		slot = &user.loaded[user.next_evict];
		user.next_evict = (user.next_evict + 1) % LOADED_MAX;
		if (slot->lib)
			(void)cudaLibraryUnload(slot->lib);
	}
	memset(slot, 0, sizeof *slot);
	const char *failed = "cudaLibraryLoadData";
	e = cudaLibraryLoadData(&slot->lib, b.code, NULL, NULL, 0, NULL, NULL, 0);
	free(b.code);
	if (e == cudaSuccess && (e = cudaLibraryGetKernel(&slot->kernel, slot->lib, b.entry)) != cudaSuccess)
		failed = "cudaLibraryGetKernel";
	void *codes = NULL;
	size_t codes_bytes = 0;
	if (e == cudaSuccess &&
	    ((e = cudaLibraryGetGlobal(&codes, &codes_bytes, slot->lib, "conform_args_")) != cudaSuccess ||
	     (e = cudaMemcpy(slot->arg_code, codes, sizeof slot->arg_code, cudaMemcpyDeviceToHost)) != cudaSuccess))
		failed = "the launch check's conform_args_";
	if (e != cudaSuccess && strcmp(failed, "cudaLibraryLoadData") != 0)
		(void)cudaLibraryUnload(slot->lib);
	if (e != cudaSuccess) {
		/* The slot stays empty (no key, no library): nothing finds it,
		 * and its eviction unloads nothing.  The runtime keeps the
		 * error as its last, which the next case's launch check would
		 * read as its own: taken here. */
		memset(slot, 0, sizeof *slot);
		(void)cudaGetLastError();
		if (b.cached && strcmp(failed, "cudaLibraryLoadData") == 0)
			user_cache_drop(b.key); /* the driver refuses the cached code */
		cuda_call_failed(r, failed, e);
		return NULL;
	}
	snprintf(slot->key, sizeof slot->key, "%s", b.key);
	return slot;
}

/* The problem as the declaration's expressions see it. */
static struct problem user_problem(const struct kernel_file *k, const struct reduce_launch *l)
{
	struct problem pb = {l->dtype, l->n, 0};

	if (k->kind != KERNEL_REDUCE) {
		pb.n = l->n / l->seg_len;
		pb.cols = l->seg_len;
	}
	return pb;
}

static int user_shape(const struct case_args *a, struct reduce_launch *l, char *msg, size_t len)
{
	const struct kernel_file *k = kernel_file_of(catalog_find(a->variant));
	struct user_params &p = launch_params<struct user_params>(l);

	if (!k) {
		snprintf(msg, len, "%s: not a user kernel", a->variant);
		return -1;
	}
	p.k = k;
	if (k->kind == KERNEL_REDUCE) {
		if (a->cols != 0) {
			snprintf(msg, len, "@kind reduce takes n elements, not rows of cols (cols=%lld)",
				 (long long)a->cols);
			return -1;
		}
		l->seg_len = l->seg_stride = l->n;
	} else if (a->cols < 1) {
		snprintf(msg, len, "@kind %s takes rows of cols >= 1 elements", kernel_kind_name(k->kind));
		return -1;
	} else {
		l->seg_len = l->seg_stride = a->cols;
	}
	return 0;
}

/* Evaluates one launch expression into *out within [lo, hi]; -1 with r
 * filled (INVALID: the declaration refuses this configuration). */
static int eval_in(const struct kernel_scope *s, enum kernel_expr e, long long lo, long long hi,
		   const char *what, long long *out, struct case_result *r)
{
	char msg[512];

	if (kernel_file_eval(s, e, out, msg, sizeof msg) < 0) {
		case_result_set(r, OUTCOME_INVALID, "%s", msg);
		return -1;
	}
	if (*out < lo || *out > hi) {
		case_result_set(r, OUTCOME_INVALID, "%s '%s' is %lld: %s must be in %lld..%lld",
				kernel_expr_name(e), s->k->expr[e] ? s->k->expr[e] : "0", *out, what, lo, hi);
		return -1;
	}
	return 0;
}

/* Evaluates each value parameter of @args and stores it as the entry
 * declares it.  A value its type cannot hold (n past INT_MAX for an int
 * n, a negative one for an unsigned) is a SKIP that says so: the kernel
 * cannot be given this problem, which is no fault of its code. */
static int user_pass_values(const struct kernel_scope *s, const unsigned char *code, struct user_params *p,
			    struct case_result *r)
{
	const struct kernel_file *k = s->k;

	for (size_t i = 0; i < k->nargs; i++) {
		long long v;
		char msg[512];
		if (k->args[i].role != KARG_VALUE)
			continue;
		if (kernel_file_eval_arg(s, i, &v, msg, sizeof msg) < 0) {
			case_result_set(r, OUTCOME_INVALID, "%s", msg);
			return -1;
		}
		switch (kernel_file_pack_arg(k, i, code[i], v, p->arg[i], msg, sizeof msg)) {
		case -1:
			case_result_set(r, OUTCOME_SKIPPED, "%s", msg);
			return -1;
		case -2:
			case_result_set(r, OUTCOME_ERROR, "%s: %s", k->path, msg);
			return -1;
		}
	}
	return 0;
}

/* Loads the kernel and fixes the launch from the declaration's
 * expressions: block, shared memory, occupancy, grid, scratch. */
static int user_configure(struct reduce_launch *l, struct case_result *r)
{
	struct user_params &p = launch_params<struct user_params>(l);
	const struct kernel_file *k = p.k;
	struct kernel_scope s = {k, p.value, user_problem(k, l), 0, 0};
	long long block, shared, grid, scratch;
	int dev = 0, sms = 0, smem_max = 0, occ = 0;
	cudaError_t e;

	int fresh;
	const struct loaded *loaded = user_load(k, l, r, &fresh);
	if (!loaded)
		return -1;
	p.kernel = loaded->kernel;
	case_result_set(r, OUTCOME_CORRECT, "%s", ""); /* the load's note is the BUILD's */
	if ((e = cudaGetDevice(&dev)) != cudaSuccess ||
	    (e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess ||
	    (e = cudaDeviceGetAttribute(&smem_max, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev)) != cudaSuccess)
		return cuda_call_failed(r, "cudaDeviceGetAttribute", e);
	s.sms = sms;
	/* The kernel's own limits: its registers bound its block, and its
	 * static shared memory takes from what the dynamic part may have. */
	struct cudaFuncAttributes fa;
	if ((e = cudaFuncGetAttributes(&fa, (const void *)p.kernel)) != cudaSuccess)
		return cuda_call_failed(r, "cudaFuncGetAttributes", e);
	if (eval_in(&s, KEXPR_BLOCK, 1, fa.maxThreadsPerBlock,
		    fa.maxThreadsPerBlock < 1024 ? "threads per block (this kernel's registers allow no more)"
						 : "threads per block", &block, r) < 0 ||
	    eval_in(&s, KEXPR_SHARED, 0, smem_max - (long long)fa.sharedSizeBytes,
		    fa.sharedSizeBytes ? "bytes of dynamic shared memory (after the kernel's static)"
				       : "bytes of dynamic shared memory", &shared, r) < 0)
		return -1;
	if ((size_t)shared + fa.sharedSizeBytes > 48 * 1024 &&
	    (e = cudaKernelSetAttributeForDevice(p.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
						 (int)shared, dev)) != cudaSuccess)
		return cuda_call_failed(r, "cudaKernelSetAttributeForDevice", e);
	if ((e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, (const void *)p.kernel, (int)block,
							      (size_t)shared)) != cudaSuccess)
		return cuda_call_failed(r, "cudaOccupancyMaxActiveBlocksPerMultiprocessor", e);
	if (occ < 1) {
		case_result_set(r, OUTCOME_INVALID, "no block of %lld threads and %lld bytes of shared "
				"memory fits a multiprocessor (registers?)", block, shared);
		return -1;
	}
	s.occupancy = occ;
	if (eval_in(&s, KEXPR_GRID, 1, k->cooperative ? (long long)occ * sms : 2147483647LL,
		    k->cooperative ? "blocks (a cooperative grid is co-resident: sms x occupancy)" : "blocks",
		    &grid, r) < 0 ||
	    /* Any size: one the device cannot hold is the driver's SKIP
	     * (launch_memory_check), not the kernel's fault. */
	    eval_in(&s, KEXPR_SCRATCH, 0, INT64_MAX, "bytes of scratch", &scratch, r) < 0)
		return -1;
	if (user_pass_values(&s, loaded->arg_code, &p, r) < 0)
		return -1;
	l->block = (int)block;
	l->grid = (int)grid;
	l->scratch_bytes = (size_t)scratch;
	/* docs/kernels.md: a kernel must leave its @scratch zeroed (audited);
	 * its @workspace is poisoned before every checked launch instead. */
	l->scratch_stays_zero = !k->workspace;
	l->scratch_poisoned = k->workspace;
	p.shared = (int)shared;
	return 0;
}

static cudaError_t user_launch(const struct reduce_launch *l)
{
	const struct user_params &p = launch_params<struct user_params>(l);
	const void *in = l->in;
	void *out = l->out, *scratch = l->scratch;
	void *args[KERNEL_ARGS_MAX];

	for (size_t i = 0; i < p.k->nargs; i++) {
		switch (p.k->args[i].role) {
		case KARG_IN: args[i] = &in; break;
		case KARG_OUT: args[i] = &out; break;
		case KARG_SCRATCH: args[i] = &scratch; break;
		default: args[i] = (void *)p.arg[i]; break;
		}
	}
	if (p.k->cooperative)
		return cudaLaunchCooperativeKernel((const void *)p.kernel, dim3((unsigned)l->grid),
						   dim3((unsigned)l->block), args, (size_t)p.shared, l->stream);
	return cudaLaunchKernel((const void *)p.kernel, dim3((unsigned)l->grid), dim3((unsigned)l->block),
				args, (size_t)p.shared, l->stream);
}

/* Every run is checked, and the repeats find a kernel that leaves its
 * scratch dirty; a user kernel may use atomics, so runs need not agree
 * bit for bit. */
static const struct reduce_spec user_reduce_spec = {
	.layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = user_shape,
	.configure = user_configure, .launch = user_launch, .repeat = {.runs = 3},
};

static const struct softmax_spec user_softmax_spec = {
	.shape = user_shape, .configure = user_configure, .launch = user_launch,
};

static int user_check(const struct case_args *a, char *msg, size_t len)
{
	const struct kernel_file *k = kernel_file_of(catalog_find(a->variant));

	if (k && k->kind == KERNEL_SOFTMAX)
		return softmax_check(&user_softmax_spec, a, msg, len);
	return reduce_check(&user_reduce_spec, a, msg, len);
}

static void user_run(const struct case_args *a, struct case_result *r)
{
	const struct kernel_file *k = kernel_file_of(catalog_find(a->variant));

	if (k && k->kind == KERNEL_SOFTMAX)
		softmax_run(&user_softmax_spec, a, r);
	else
		reduce_run(&user_reduce_spec, a, r);
}

static void user_build_case(const struct case_args *a, struct case_result *r)
{
	const struct kernel_file *k = kernel_file_of(catalog_find(a->variant));
	struct reduce_launch l;
	char msg[RESULT_MESSAGE_MAX];

	if (!k) {
		case_result_set(r, OUTCOME_INVALID, "%s: not a user kernel", a->variant);
		return;
	}
	if (launch_prepare(a, &l, msg, sizeof msg) < 0) {
		case_result_set(r, OUTCOME_INVALID, "launch contract violated: %s", msg);
		return;
	}
	/* -v says what each configuration cost: compiled, or a cache hit
	 * (one already loaded by this worker goes unsaid). */
	int fresh;
	if (user_load(k, &l, r, &fresh) && fresh)
		user_compile_tell(a, r, "");
}

extern "C" const struct kernel_ops user_kernel_ops = {
	.check = user_check,
	.run = user_run,
	.build = user_build_case,
	.refs = {&device_refs, &device_refs, &softmax_refs},
};
