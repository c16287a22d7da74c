/*
 * softmax_driver.cuh - the host driver behind the softmax variants.
 *
 * The problem: n rows of cols elements (cols >= 1) of f32 or bf16, each
 * row replaced by its softmax in the same type, computed in f32.  A
 * variant describes its launch with a softmax_spec; the driver does the
 * rest the same way for every variant: enforce the contract, draw the
 * rows (kernels/softmax/softmax_input.h: random rows and the awkward ones), run the
 * kernel once on device copies with a poisoned output (reduce_execute),
 * compare every output with the double reference within its tolerance
 * (kernels/softmax/softmax_ref.h; -inf inputs must give exactly 0, NaN never passes),
 * check that every row sums to 1, and, when the case asks for timing and
 * the result is correct, time the launch (reduce_time) with bytes read +
 * written as the bandwidth basis.
 *
 * The launch sees l->n = rows x cols elements in and out, l->seg_len =
 * l->seg_stride = cols, l->n_out = l->n, out_dtype = dtype, the variant's
 * declared tunables bound into l->params (launch_params<>()), and the
 * launch geometry the spec's shape() set from them (block, grid).
 */
#ifndef CONFORM_SOFTMAX_DRIVER_CUH
#define CONFORM_SOFTMAX_DRIVER_CUH

#include "worker/reduce_driver.cuh"

/* A softmax variant's description, named by its catalog entry (struct
 * variant's .spec), every field named in the declaration in this order. */
struct softmax_spec {
	/* Sets the launch from the bound parameters and enforces what the
	 * declaration cannot say, without touching CUDA.  Returns 0, or -1
	 * with a message. */
	int (*shape)(const struct case_args *a, struct reduce_launch *l, char *msg, size_t len);
	/* Optional: run once before buffers are allocated; returns 0, or -1
	 * with r filled (a missing library is OUTCOME_SKIPPED). */
	int (*configure)(struct reduce_launch *l, struct case_result *r);
	reduce_launch_fn launch;
	int finite_only; /* the contract takes finite inputs only: no -inf rows */
};

/* The family's references: the device copy of 2^28 f32 (softmax reads and
 * writes each element once, as a copy does) and, over rows, cuDNN's
 * softmax (softmax_driver.cu). */
extern "C" const struct variant_refs softmax_refs;

int softmax_check(const struct softmax_spec *s, const struct case_args *a, char *msg, size_t len);
void softmax_run(const struct softmax_spec *s, const struct case_args *a, struct case_result *r);

/* The catalog's check() and run() of every variant whose .spec is a
 * struct softmax_spec: softmax_check() and softmax_run() on the case's
 * variant's spec (case_spec); one without a spec is refused (INVALID). */
int softmax_variant_check(const struct case_args *a, char *msg, size_t len);
void softmax_variant_run(const struct case_args *a, struct case_result *r);

#endif
