/*
 * reduce_driver.cuh - the one host driver behind the reduction variants.
 *
 * A variant describes itself with a struct reduce_spec (which operators it
 * implements, how its outputs are laid out, what input it wants, how its
 * parameters map onto a launch) and supplies a launcher; the driver does
 * the rest the same way for every variant: parse and enforce the contract,
 * draw the input, run the kernel on device copies with a poisoned output,
 * classify CUDA errors (cuda_check.cuh), compute the reference and compare.
 *
 * The problem is segmented: output s reduces the input elements
 *   [s * seg_stride, s * seg_stride + seg_len)  clipped to [0, n),
 * so seg_stride == seg_len is a plain segmented reduction (a block's or a
 * warp section's elements) and seg_stride > seg_len counts only the first
 * seg_len elements of each stride (the first k lanes of each warp).
 */
#ifndef CONFORM_REDUCE_DRIVER_CUH
#define CONFORM_REDUCE_DRIVER_CUH

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime.h>

#include "common/dtype.h"
#include "worker/variant.h"

/* Element counts above this are refused: it keeps every grid of blocks of
 * 32 or more threads within gridDim.x and exceeds any GPU's memory. */
#define REDUCE_MAX_ELEMENTS ((int64_t)1 << 35)

/* Bytes a family's parameter struct may take in a launch. */
#define REDUCE_PARAMS_MAX 256

/* Everything a launcher needs; device pointers are filled by the driver. */
struct reduce_launch {
	const void *in;        /* device input: n elements of dtype (NULL if none) */
	void *out;             /* device output: n_out elements of dtype */
	void *scratch;         /* device scratch of scratch_bytes, zeroed, or NULL */
	size_t scratch_bytes;
	int64_t n;             /* input elements (rows * cols for row problems) */
	int64_t seg_len;       /* elements reduced into one output */
	int64_t seg_stride;    /* distance between segment starts, >= seg_len */
	int64_t n_out;         /* output elements; shape() may set it (0: from the layout) */
	enum op op;
	enum dtype dtype;      /* input element type */
	enum dtype out_dtype;  /* output element type: dtype unless shape() says
				* otherwise (f32 for bf16 input accumulated in f32) */
	/* The launch's geometry, set by the variant's shape() and configure(): */
	int block;             /* threads per block */
	int grid;              /* blocks when fixed by configure(); 0: from n */
	cudaStream_t stream;   /* 0: the legacy default stream, where timing records its events */
	/* The audit after every checked launch (audit.cuh), kept by the driver: */
	void *audit;           /* device memory for the audit's report */
	const void *host_in;   /* what the device input holds (NULL: a probe's, or none) */
	int scratch_stays_zero; /* the kernel must leave its scratch zeroed (user kernels) */
	int scratch_poisoned;  /* the kernel writes its scratch before reading it: every checked
				* launch finds it poisoned (0xff bytes), and it is not audited */
	/* The family's parameter struct, bound from the variant's declared
	 * tunables (variant_bind) before shape() runs: read it with
	 * launch_params<struct family_params>(l). */
	alignas(8) unsigned char params[REDUCE_PARAMS_MAX];
};

/* The family's parameters of a launch, typed. */
template <class P>
static inline P &launch_params(struct reduce_launch *l)
{
	static_assert(sizeof(P) <= REDUCE_PARAMS_MAX, "parameter struct larger than REDUCE_PARAMS_MAX");
	return *reinterpret_cast<P *>(l->params);
}
template <class P>
static inline const P &launch_params(const struct reduce_launch *l)
{
	static_assert(sizeof(P) <= REDUCE_PARAMS_MAX, "parameter struct larger than REDUCE_PARAMS_MAX");
	return *reinterpret_cast<const P *>(l->params);
}

typedef cudaError_t (*reduce_launch_fn)(const struct reduce_launch *l);

enum reduce_layout {
	REDUCE_PER_SEGMENT, /* one output per segment */
	REDUCE_PER_ELEMENT  /* one output per input element: its segment's result */
};

enum reduce_input {
	INPUT_UNIFORM,      /* rng_fill: the standard conformance input */
	INPUT_NONNEGATIVE,  /* rng_fill with floats made non-negative (|x|) */
	INPUT_F32_SPECIALS  /* rng_fill_f32_specials: -0, +-inf, denormals */
};

/*
 * How often run() launches a case's kernel on the same input and buffers.
 * Every run is checked against the reference.  With `deterministic` set the
 * runs must agree bit for bit, or the case is WRONG; otherwise their
 * relative spread is reported in r->timing.result_spread (which stays -1
 * for a single run).  The launcher must be able to run again on the same
 * buffers: scratch is zeroed once, before the first run.
 */
struct reduce_repeat {
	int runs;          /* 0 or 1: once */
	int deterministic;
};

/*
 * A reduction variant's description, declared next to its kernel and named
 * by its catalog entry (struct variant's .spec).  Every field is named in
 * the declaration, in this order (C++20's designated initialisers, which
 * nvcc's C++17 accepts as the GNU extension the tables already use):
 *
 *     static const struct reduce_spec tree_spec = {
 *         .layout = REDUCE_PER_SEGMENT, .input = INPUT_UNIFORM, .shape = block_shape,
 *         .launch = tree_launch,
 *     };
 *
 * A field left out is zero: no configure() or expect hook, one run.
 */
struct reduce_spec {
	enum reduce_layout layout;
	enum reduce_input input;
	/* Parses the case's parameters into l (block, width, k, ...), sets
	 * seg_len and seg_stride, and enforces the launch contract.  Runs
	 * without touching CUDA.  It may set n_out when the outputs are not
	 * laid out by segments (a histogram's bins); the expect hook then
	 * gives the reference.  Returns 0, or -1 with a message. */
	int (*shape)(const struct case_args *a, struct reduce_launch *l, char *msg, size_t len);
	/* Optional: device queries that fix the launch (grid, scratch_bytes),
	 * run once before buffers are allocated.  Returns 0, or -1 with r filled. */
	int (*configure)(struct reduce_launch *l, struct case_result *r);
	reduce_launch_fn launch;
	/* Optional: the expected outputs when they are not the segment
	 * reductions; fills l->n_out values of ref and tol (0: exact). */
	void (*expect)(const struct reduce_launch *l, const void *in, double *ref, double *tol);
	/* How often run() launches the kernel ({0}: once). */
	struct reduce_repeat repeat;
};

/*
 * The check() and run() of a spec-driven case.  run() checks the kernel's
 * result over s->repeat runs and, when the case asks for timing and the
 * result is correct, times the launch on the same buffers (measure.cuh),
 * with bytes = n inputs + n_out outputs.
 */
int reduce_check(const struct reduce_spec *s, const struct case_args *a, char *msg, size_t len);
void reduce_run(const struct reduce_spec *s, const struct case_args *a, struct case_result *r);

/*
 * The catalog's check() and run() of every variant whose .spec is a
 * struct reduce_spec: one pair serves them all.  They find the case's
 * variant (case_spec) and pass its spec to reduce_check() and reduce_run();
 * a variant without a spec is refused (INVALID), never launched.
 */
int reduce_variant_check(const struct case_args *a, char *msg, size_t len);
void reduce_variant_run(const struct case_args *a, struct case_result *r);

/*
 * One kernel round trip, also used by variants whose outputs are not
 * reductions: copies l->n elements of host_in to the device (no input when
 * host_in is NULL), poisons l->n_out output elements of l->out_dtype
 * (check_poison), zeroes scratch, calls launch, classifies errors and
 * copies the output into host_out.  Frees all device memory on every path.
 * Returns 0 when the kernel completed, else -1 with r filled.
 */
int reduce_execute(struct reduce_launch *l, reduce_launch_fn launch, const char *name,
		   const void *host_in, void *host_out, struct case_result *r);

/* reduce_execute() with the input filled on the device by an exact probe
 * (probe.h) instead of copied from the host. */
struct probe;
int reduce_execute_probe(struct reduce_launch *l, reduce_launch_fn launch, const char *name,
			 const struct probe *p, void *host_out, struct case_result *r);

/*
 * Times launch on fresh device copies of host_in (no input when NULL) the
 * way run() times a reduction (measure.cuh), with `bytes` as the bandwidth
 * basis; for variants whose outputs are not reductions, once their own
 * check has passed.  Fills r->timing (result_spread left alone); frees all
 * device memory on every path.  Returns 0, or -1 with r filled.
 */
int reduce_time(struct reduce_launch *l, reduce_launch_fn launch, const void *host_in,
		const struct timing_request *t, double bytes, struct case_result *r);

/* Whether l's device buffers - its input (with_input), output and
 * scratch, each between guard zones, and the audit's report - fit the
 * device's free memory now.  Returns 0, or -1 with r SKIPPED saying what
 * they need and what the device has (memory_need.h): a problem too large
 * for this device is no fault of the kernel.  Every allocation of the
 * driver's buffers checks first (an allocation that runs out all the same
 * is that SKIP too); a driver also calls it before drawing a case's input,
 * to spare the host's work on a case that cannot run here. */
int launch_memory_check(const struct reduce_launch *l, int with_input, struct case_result *r);

/* The checks every GPU variant shares: dtype among the variant's, n in
 * 1..REDUCE_MAX_ELEMENTS (rows * cols for row problems).  Sets l->n,
 * l->dtype and l->out_dtype (the same).  Returns 0, or -1 with a message. */
int case_check_common(const struct case_args *a, struct reduce_launch *l, char *msg, size_t len);

/* What every driver does first, before its shape(): l zeroed, the common
 * checks (case_check_common), then the operator and the tunables as the
 * case's variant declares them (variant_op into l->op, variant_bind into
 * l->params, every rule checked).  Returns 0, or -1 with a message. */
int launch_prepare(const struct case_args *a, struct reduce_launch *l, char *msg, size_t len);

/* Blocks of `block` threads covering `threads` threads. */
static inline unsigned grid_for(int64_t threads, int block)
{
	return (unsigned)((threads + block - 1) / block);
}

#endif
