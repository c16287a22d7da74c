/*
 * variant.h - the catalog's descriptor for one kernel variant.
 *
 * Each family (the .cu files of kernels/<family>/, and
 * kernels/harness/harness.c for the host-only self-test cases) exports a
 * table of these; worker/catalog.c collects the tables.  Only the worker
 * process calls check() and run(): the conform process never touches CUDA
 * and learns the catalog by asking the worker
 * (conform-worker --catalog).
 *
 * The worker calls check() before run(): a case that violates the variant's
 * launch contract is refused with OUTCOME_INVALID and a message saying which
 * precondition failed, never launched.
 *
 * A variant is one declaration, every field named.  A reduction points at
 * its spec, and its check() and run() are the driver's, the same for
 * every reduction:
 *
 *     {.name = "block.tree", .summary = "per-block reduction by a shared-memory tree",
 *      .dtypes = BLOCK_DTYPES, .gpu = 1, .check = reduce_variant_check, .run = reduce_variant_run,
 *      .spec = &tree_spec, .ops = BLOCK_OPS, .params = {.set = &tree_set}},
 */
#ifndef CONFORM_VARIANT_H
#define CONFORM_VARIANT_H

#include <stddef.h>
#include <stdint.h>

#include "common/case.h"
#include "common/dtype.h"
#include "common/status.h"
#include "common/timing.h"
#include "worker/tunable.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a family's timings are measured against (conform tune): a copy
 * whose bandwidth is the ceiling, the elements it copies, and the untuned
 * baselines of whole-array and of rows x cols problems.  NULL where the
 * family has none.  Declared once per family, next to its kernels. */
struct variant_refs {
	const char *copy;
	long long copy_n;
	const char *baseline;
	const char *baseline_rows;
};

struct variant {
	const char *name;      /* "block.tree" */
	const char *summary;   /* one line: what it computes */
	unsigned dtypes;       /* DTYPE_BIT() set of supported element types */
	int gpu;               /* 1: needs a CUDA device; 0: host-only */
	/* The preconditions that are not about tunables, checked in code
	 * (the kernel's own: "cols=0", a toolkit feature); NULL when none.
	 * Returns 0 when the case meets them, else -1 and a message.  The
	 * worker binds the tunables (variant_bind) before calling it. */
	int (*check)(const struct case_args *a, char *msg, size_t len);
	/* Runs the case and fills r (outcome, message, err_norm); when
	 * a->timing is set and the result is correct, also r->timing. */
	void (*run)(const struct case_args *a, struct case_result *r);
	/* What check() and run() read when they are a family driver's, shared
	 * by every variant of the driver: a struct reduce_spec for
	 * reduce_variant_check() and reduce_variant_run()
	 * (worker/reduce_driver.cuh), a family's own spec for its driver
	 * (kernels/softmax/softmax_driver.cuh, kernels/rows/rows_op.cu).  NULL
	 * when check() and run() are the variant's own. */
	const void *spec;
	/* NULL for a built-in variant.  A user's kernel (kernel_file.h) is
	 * compiled before a case runs, outside its deadline: build() makes
	 * the case's configuration ready and says how (r->outcome
	 * OUTCOME_CORRECT and a note such as "cache hit"), or why not. */
	void (*build)(const struct case_args *a, struct case_result *r);
	int user;              /* 1: a user's kernel file (kernel_file.h), never a built-in */
	/* The typed declaration: */
	unsigned ops;          /* OP_BIT() set the op= parameter takes (the first is
				* the default); 0: it reduces by no operator and
				* ignores op= */
	const char *requires;  /* check()'s preconditions in words; NULL when none */
	struct variant_params params; /* tunables, their rules and defaults */
	const struct variant_refs *refs; /* NULL: timed against nothing */
};

/* The texts derived from a variant's declaration (variant.c), for the
 * catalog that conform shows: "Requires: ..." (the preconditions in words,
 * then the rules), "op=sum|max block=32..1024 ...", and the tuning space
 * ("" when not tunable).  Each returns 0, or -1 when the text did not fit
 * in len bytes (it is then cut). */
int variant_contract(const struct variant *v, char *buf, size_t len);
int variant_tunables(const struct variant *v, char *buf, size_t len);
int variant_space(const struct variant *v, char *buf, size_t len);

/* The case's op= parameter among v->ops (the first when absent; ignored,
 * OP_SUM, when v->ops is 0).  Returns 0, or -1 with a message. */
int variant_op(const struct variant *v, const struct case_args *a, enum op *out, char *msg, size_t len);

/* Binds the case's tunables into out (the family's parameter struct,
 * v->params.set->size bytes) and checks every rule (tunable_bind).
 * Returns 0, or -1 with a message. */
int variant_bind(const struct variant *v, const struct case_args *a, void *out, char *msg, size_t len);

/* The columns of the rows x cols problem past 32-bit indices
 * (huge_shape.h) that v takes with its default tunables, for its smallest
 * dtype: the first candidate whose shape binds (variant_bind, every rule
 * checked), or the first candidate when none does.  For the catalog of a
 * rows or softmax kernel file. */
long long variant_huge_cols(const struct variant *v);

/* A family's table, collected by worker/catalog.c. */
struct variant_table {
	const struct variant *variants;
	size_t count;
};

/* Adds a variant after the built-in ones (a user's kernel file, read at
 * start-up).  Returns 0, or -1 when its name is taken or the catalog is
 * full (CATALOG_ADDED_MAX). */
#define CATALOG_ADDED_MAX 64
int catalog_add(const struct variant *v);

/* All variants built into this worker, then the added ones, in catalog order. */
const struct variant *catalog_at(size_t i);
size_t catalog_count(void);
const struct variant *catalog_find(const char *name);
/* The .spec of the case's variant, for the family driver its check() and
 * run() are (a struct reduce_spec, a family's softmax_spec or
 * rows_op_spec).  NULL with a message when the case names no variant of
 * the catalog or one that declares no spec. */
const void *catalog_spec(const struct case_args *a, char *msg, size_t len);
/* The same for a run(): NULL with r set INVALID.  A run() follows a
 * check() that passed, so this is the drivers' one guard, not a verdict a
 * case can reach. */
const void *catalog_spec_run(const struct case_args *a, struct case_result *r);
/* 1 if kernels were built (configure found nvcc), else 0. */
int catalog_has_kernels(void);
/* The CUDA architectures kernels were built for, e.g. "sm_80 sm_90 compute_90". */
const char *catalog_cuda_archs(void);

#ifdef __cplusplus
}
#endif
#endif
