/*
 * fault.cu - the fault.* family: kernels that fail on purpose.
 *
 * A trap and an illegal address leave the CUDA context unusable ("sticky"
 * errors): every later call in that process fails.  These cases prove that
 * conform reports such a failure as the kernel's error, with CUDA's message,
 * and replaces the worker so the cases after it run on a healthy context.
 * Each thread first writes its index, so a kernel that did not fault would
 * be checked like any other (and be XPASS against expect=error).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "worker/check.h"
#include "worker/reduce_driver.cuh"

enum fault_kind { FAULT_TRAP, FAULT_ILLEGAL_ADDRESS };

/* The family's parameters: threads per block (declared), and which fault
 * the variant commits (its run() sets it; not a tunable). */
struct fault_params {
	int block;
	int kind;
};

/*
 * out[i] = i for i < n, then thread 0 faults.
 * Requires: blockDim.x is 32..1024.
 */
__global__ void fault_kernel(int *out, int64_t n, int kind)
{
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = (int)i;
	if (i != 0)
		return;
	if (kind == FAULT_TRAP) {
		__trap();
	} else {
		/* Far beyond any allocation: the address is not mapped. */
		volatile int *wild = out + ((int64_t)1 << 40);
		*wild = 1;
	}
}

static cudaError_t fault_launch(const struct reduce_launch *l)
{
	fault_kernel<<<grid_for(l->n, l->block), l->block, 0, l->stream>>>(
		(int *)l->out, l->n, launch_params<fault_params>(l).kind);
	return cudaSuccess;
}

/* The common checks, then the declared tunables and rules. */
static int fault_shape(const struct case_args *a, struct reduce_launch *l, char *msg, size_t len)
{
	if (launch_prepare(a, l, msg, len) < 0)
		return -1;
	l->block = launch_params<fault_params>(l).block;
	l->n_out = l->n;
	return 0;
}

static int fault_check(const struct case_args *a, char *msg, size_t len)
{
	struct reduce_launch l;

	return fault_shape(a, &l, msg, len);
}

static void fault_run(const struct case_args *a, struct case_result *r, enum fault_kind kind)
{
	struct reduce_launch l;
	char msg[RESULT_MESSAGE_MAX];
	int *got = NULL, *want = NULL;

	r->err_norm = -1;
	if (fault_shape(a, &l, msg, sizeof msg) < 0) {
		case_result_set(r, OUTCOME_INVALID, "%s", msg);
		return;
	}
	launch_params<fault_params>(&l).kind = kind;
	got = (int *)malloc((size_t)l.n * sizeof *got);
	want = (int *)malloc((size_t)l.n * sizeof *want);
	if (!got || !want) {
		case_result_set(r, OUTCOME_ERROR, "out of host memory");
		goto done;
	}
	if (reduce_execute(&l, fault_launch, a->variant, NULL, got, r) < 0)
		goto done;
	for (int64_t i = 0; i < l.n; i++)
		want[i] = (int)i;
	check_ints(got, want, (size_t)l.n, r);
done:
	free(got);
	free(want);
}

static void trap_run(const struct case_args *a, struct case_result *r)
{
	fault_run(a, r, FAULT_TRAP);
}

static void illegal_address_run(const struct case_args *a, struct case_result *r)
{
	fault_run(a, r, FAULT_ILLEGAL_ADDRESS);
}

static const struct tunable fault_tunables[] = {
	{.name = "block", .doc = "threads per block", .lo = 32, .hi = 1024, .def = "128",
	 .field = offsetof(struct fault_params, block)},
};
/* n counts rows when cols > 0: the rule bounds the elements either way. */
static const struct rule fault_rules[] = {
	{"n * max(cols, 1) <= 16777216", "fault cases take at most 2^24 elements"},
};
static const struct tunable_set fault_set = {
	TUNABLE_LIST(fault_tunables), RULE_LIST(fault_rules), .size = sizeof(struct fault_params),
};

static const struct variant fault_variants[] = {
	{.name = "fault.trap", .summary = "each thread writes its index, then thread 0 executes __trap()",
	 .dtypes = DTYPE_BIT(DTYPE_I32), .gpu = 1, .check = fault_check, .run = trap_run,
	 .params = {.set = &fault_set}},
	{.name = "fault.illegal_address",
	 .summary = "each thread writes its index, then thread 0 stores to an unmapped address",
	 .dtypes = DTYPE_BIT(DTYPE_I32), .gpu = 1, .check = fault_check, .run = illegal_address_run,
	 .params = {.set = &fault_set}},
};

extern "C" const struct variant_table fault_table;
const struct variant_table fault_table = {
	fault_variants, sizeof fault_variants / sizeof fault_variants[0]};
