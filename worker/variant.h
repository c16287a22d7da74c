/*
 * variant.h - the catalog's descriptor for one kernel variant.
 *
 * Each family (kernels/<family>_*.cu, and src/harness.c for the host-only
 * self-test cases) exports a table of these; kernels/catalog.c collects the
 * tables.  Only the worker process calls check() and run(): the conform
 * process never touches CUDA and learns the catalog by asking the worker
 * (conform-worker --catalog).
 *
 * The worker calls check() before run(): a case that violates the variant's
 * launch contract is refused with OUTCOME_INVALID and a message saying which
 * precondition failed, never launched.
 */
#ifndef CONFORM_VARIANT_H
#define CONFORM_VARIANT_H

#include <stddef.h>
#include <stdint.h>

#include "case.h"
#include "dtype.h"
#include "status.h"
#include "timing.h"

#ifdef __cplusplus
extern "C" {
#endif

struct variant {
	const char *name;      /* "block.tree" */
	const char *summary;   /* one line: what it computes */
	const char *contract;  /* "Requires: block is a power of two, 32..1024; ..." */
	const char *tunables;  /* "block=32..1024 (power of two)"; "" when none */
	unsigned dtypes;       /* DTYPE_BIT() set of supported element types */
	int gpu;               /* 1: needs a CUDA device; 0: host-only */
	/* Returns 0 when the case meets the contract, else -1 and a message. */
	int (*check)(const struct case_args *a, char *msg, size_t len);
	/* Runs the case and fills r (outcome, message, err_norm); when
	 * a->timing is set and the result is correct, also r->timing. */
	void (*run)(const struct case_args *a, struct case_result *r);
	/* The tuning space, machine-readable: space-separated axes, each
	 * key=v1,v2,...  ("block=128,256,512 items=1,2,4 vec=1,4").  The tuner
	 * walks it; check() rejects the combinations the contract forbids.
	 * NULL when the variant is not tunable (or not timed at all). */
	const char *space;
};

/* A family's table, collected by kernels/catalog.c. */
struct variant_table {
	const struct variant *variants;
	size_t count;
};

/* All variants built into this worker, in catalog order. */
const struct variant *catalog_at(size_t i);
size_t catalog_count(void);
const struct variant *catalog_find(const char *name);
/* 1 if kernels were built (configure found nvcc), else 0. */
int catalog_has_kernels(void);
/* The CUDA architectures kernels were built for, e.g. "sm_80 sm_90 compute_90". */
const char *catalog_cuda_archs(void);

#ifdef __cplusplus
}
#endif
#endif
