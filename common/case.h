/*
 * case.h - one conformance case as read from a suite file.
 *
 * A case is a kernel variant applied to a problem (dtype, n elements or
 * n rows of `cols`) with parameters, and what is expected to happen.
 */
#ifndef CONFORM_CASE_H
#define CONFORM_CASE_H

#include <stdint.h>

#include "common/dtype.h"
#include "common/status.h"
#include "common/timing.h"
#include "common/tunable_limits.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CASE_NAME_MAX 128
#define CASE_VARIANT_MAX 64
/* A case's parameter text: every tunable of a variant with the longest
 * name and value ("name=value,"), and room for op= and a suite line's
 * template variables. */
#define CASE_PARAMS_MAX (TUNABLES_MAX * (TUNABLE_NAME_MAX + TUNABLE_VALUE_MAX + 2) + 64)
#define CASE_REQ_MAX 4

/* The most elements a case may pose (n, or n x cols for rows of cols):
 * 2^40 elements of the smallest type (bf16, 2 bytes) are 2 TiB, beyond
 * the memory of any GPU (a few hundred GB at most), so a larger size is a
 * typo, better refused when the suite or the command line is read than
 * found by the worker.  It also keeps n x cols, and the bytes of an f64
 * problem, far from int64 overflow. */
#define CASE_ELEMENTS_MAX_LOG2 40
#define CASE_ELEMENTS_MAX (1LL << CASE_ELEMENTS_MAX_LOG2)

/* A requirement: "sm>=80" compares the device's compute capability
 * (major*10+minor) with `value`; "mem>=16" its global memory in GiB. */
enum req_cmp { REQ_GE, REQ_GT, REQ_LE, REQ_LT, REQ_EQ, REQ_NE };
struct requirement {
	char what[8];      /* "sm" or "mem" */
	enum req_cmp cmp;
	int value;
};

struct case_spec {
	char name[CASE_NAME_MAX];       /* dotted path, e.g. warp.shfl_xor.sum.f32.w16 */
	char variant[CASE_VARIANT_MAX]; /* catalog name, e.g. warp.shfl_xor */
	enum dtype dtype;
	int64_t n;                      /* elements, or rows when cols > 0 */
	int64_t cols;                   /* 0 for flat problems */
	char params[CASE_PARAMS_MAX];   /* "block=256,op=sum" (see params.h) */
	/* Bit i set: the i-th pair of params is a template variable of its
	 * suite line (it fills another key's value through {key}, as stat=
	 * in variant=rows.op.{stat}), not a kernel parameter.  A suite
	 * line has at most SUITE_LINE_KEYS_MAX pairs (suite.h): 64 bits
	 * hold them. */
	uint64_t template_params;
	enum expect expect;
	struct requirement req[CASE_REQ_MAX];
	int nreq;
	double timeout_s;               /* 0: the run's default for its expectation */
	double tolerance;               /* tolerance=K: a wrong result whose every error is
					 * within K times conform's tolerance is accepted, and
					 * said (a baseline less accurate than conform asks);
					 * 0 for conform's own tolerance alone */
	char file[256];                 /* where it was defined, for messages */
	int line;
};

/* The most seconds conform takes from a user anywhere: a case's deadline
 * (--timeout, a suite's timeout=, a kernel file's @timeout) and every
 * other span given in seconds.  A day: anything longer is a typo
 * (999999999999999) that would leave a hung case holding the GPU for good.
 * Here, with the case, because the suites, the kernel files (read by the
 * worker) and the command line all bound by it. */
#define CASE_SECONDS_MAX 86400

#define RESULT_MESSAGE_MAX 1024

/* What the worker is asked to do. */
struct case_args {
	const char *name;    /* case name, for messages */
	const char *variant;
	enum dtype dtype;
	int64_t n;           /* elements, or rows when cols > 0 */
	int64_t cols;
	const char *params;  /* "block=256,op=sum" */
	uint64_t seed;       /* input seed for this case (already mixed with the name) */
	const struct timing_request *timing; /* NULL: check only; else check, then time */
};

/* What the worker reports. */
struct case_result {
	enum outcome outcome;
	int fatal;           /* the CUDA context is unusable: the worker must be replaced */
	double err_norm;     /* relative L2 error of the output, or -1 when not computed */
	/* The largest |got - want| / tolerance over the outputs checked with a
	 * tolerance (and softmax's row sums), when tol_checked; it is what a
	 * case's tolerance=K is compared with.  tol_checked is 0 when no
	 * tolerance applied or a wrong output has no finite ratio (NaN,
	 * unwritten, an exact comparison): such a result is never accepted. */
	int tol_checked;
	double err_ratio;
	double kernel_ms;    /* wall time of run(), ms (informational) */
	struct timing_stats timing; /* samples == 0 when not timed */
	char message[RESULT_MESSAGE_MAX];
};

/* Fills r with outcome o and a printf-style message. */
void case_result_set(struct case_result *r, enum outcome o, const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 3, 4)))
#endif
	;

/* Adds a printf-style remark to r's message ("; " after what is there),
 * leaving the outcome alone; what does not fit is cut. */
void case_result_note(struct case_result *r, const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* out = c posed at another size: n elements (rows when cols > 0) of cols,
 * its name's size (a last ".n<N>" or ".r<R>.c<C>") replaced by the new one,
 * or the new one added.  The one naming rule for a case at a size it was
 * not written with (run --n over suite cases, the search for the smallest
 * failing size): a case's input seed comes from its name, so the same
 * name is the same input. */
void case_resized(const struct case_spec *c, int64_t n, int64_t cols, struct case_spec *out);

/* Puts a printf-style cause before r's message ("<cause>: <what was
 * there>"), leaving the outcome alone: the cause is read first, and what
 * does not fit is cut from the end. */
void case_result_lead(struct case_result *r, const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 2, 3)))
#endif
	;

#ifdef __cplusplus
}
#endif
#endif
