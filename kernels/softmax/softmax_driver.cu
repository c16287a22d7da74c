/*
 * softmax_driver.cu - check and run for the softmax variants (see
 * softmax_driver.cuh).
 *
 * check() and run() judge a case by the same softmax_shape(), so a case
 * that passes check() launches exactly the configuration it accepted.  The
 * reference and tolerances are computed before the launch; host memory is
 * the input, the output and two doubles per element (the largest suite
 * case, 2^20 rows of 128, takes the host a few seconds and 2.7 GB).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/softmax/softmax_driver.cuh"
#include "kernels/softmax/softmax_input.h"
#include "kernels/softmax/softmax_ref.h"
#include "worker/check.h"
#include "worker/memory_need.h"
#include "worker/par.h"
#include "worker/probe.h"
#include "worker/reference.h"

static int softmax_shape(const struct softmax_spec *s, const struct case_args *a,
			 struct reduce_launch *l, char *msg, size_t len)
{
	if (a->cols < 1) {
		snprintf(msg, len, "%s normalises rows: it needs cols >= 1", a->variant);
		return -1;
	}
	if (launch_prepare(a, l, msg, len) < 0)
		return -1;
	l->seg_len = l->seg_stride = a->cols;
	l->n_out = l->n;
	return s->shape(a, l, msg, len);
}

const struct variant_refs softmax_refs = {
	.copy = "device.copy", .copy_n = 1LL << 28, .baseline_rows = "softmax.cudnn",
};

int softmax_check(const struct softmax_spec *s, const struct case_args *a, char *msg, size_t len)
{
	struct reduce_launch l;

	return softmax_shape(s, a, &l, msg, len);
}

/*
 * The worker's one-entry cache of the last input and its reference, for
 * the reason reduce_driver.cu keeps one: the tuner checks every
 * configuration of a problem against the same draw, and drawing 2^27
 * elements and their reference takes the host seconds, far longer than
 * the kernel.  Process state on purpose: the worker runs one case at a
 * time, and conform never links this file.
 */
struct softmax_cache {
	uint64_t seed;
	enum dtype dtype;
	size_t rows, cols;
	int finite_only;
	void *in;
	double *ref, *tol;
};

static struct softmax_cache cache;

static int cache_holds(uint64_t seed, enum dtype d, size_t rows, size_t cols, int finite_only)
{
	return cache.in && cache.seed == seed && cache.dtype == d && cache.rows == rows &&
	       cache.cols == cols && cache.finite_only == finite_only;
}

static void cache_drop(void)
{
	free(cache.in);
	free(cache.ref);
	free(cache.tol);
	cache.in = NULL;
	cache.ref = cache.tol = NULL;
}

/* The input, reference and tolerances of the problem, drawn and computed
 * unless they are the cached ones.  Returns 0, or -1 when out of memory. */
static int cache_problem(uint64_t seed, enum dtype d, size_t rows, size_t cols, int finite_only)
{
	const size_t n = rows * cols;

	if (cache_holds(seed, d, rows, cols, finite_only))
		return 0;
	cache_drop();
	cache.in = malloc(n * dtype_size(d));
	cache.ref = (double *)malloc(n * sizeof *cache.ref);
	cache.tol = (double *)malloc(n * sizeof *cache.tol);
	if (!cache.in || !cache.ref || !cache.tol) {
		cache_drop();
		return -1;
	}
	cache.seed = seed;
	cache.dtype = d;
	cache.rows = rows;
	cache.cols = cols;
	cache.finite_only = finite_only;
	softmax_input_fill(seed, d, cache.in, rows, cols, finite_only);
	softmax_reference(d, d, cache.in, rows, cols, cache.ref, cache.tol);
	return 0;
}

/* The check of a softmax probe's outputs, a chunk of rows at a time on
 * every processor (par.h): each chunk counts its wrong outputs and keeps
 * its first, combined in row order by softmax_probe_check. */
struct probe_check_job {
	const struct probe *p;
	enum dtype d;
	const void *out;
	size_t rows, cols, rows_per_chunk;
	int64_t *first; /* per chunk: its first wrong output, or -1 */
	size_t *wrong;  /* per chunk: how many */
};

static void probe_check_chunk(void *ctx, size_t k)
{
	const struct probe_check_job *j = (const struct probe_check_job *)ctx;
	size_t lo, hi;
	double tol, want = probe_softmax_expect(j->p, j->d, 0, 0, &tol);
	const int onehot = j->p->kind == PROBE_ONEHOT;

	par_chunk_range(k, j->rows_per_chunk, j->rows, &lo, &hi);
	j->first[k] = -1;
	j->wrong[k] = 0;
	for (size_t row = lo; row < hi; row++) {
		const int64_t peak = onehot ? probe_onehot_column(j->p, (int64_t)row) : -1;
		for (size_t c = 0; c < j->cols; c++) {
			const size_t i = row * j->cols + c;
			const double got = reference_load(j->d, j->out, i);
			if (onehot)
				want = (int64_t)c == peak ? 1.0 : 0.0;
			if (fabs(got - want) <= tol) /* NaN and the poison never pass */
				continue;
			j->first[k] = j->first[k] < 0 ? (int64_t)i : j->first[k];
			j->wrong[k]++;
		}
	}
}

/* The first output of a softmax probe that is not its answer, and how
 * many are not; -1 when every one is (or -2 out of host memory). */
static int64_t softmax_probe_check(const struct probe *p, enum dtype d, const void *out, size_t rows,
				   size_t cols, size_t *wrong)
{
	const size_t per = PAR_CHUNK / cols > 0 ? PAR_CHUNK / cols : 1, chunks = par_chunks(rows, per);
	struct probe_check_job j = {p, d, out, rows, cols, per, (int64_t *)malloc(chunks * sizeof(int64_t)),
				    (size_t *)malloc(chunks * sizeof(size_t))};
	int64_t first = -1;

	*wrong = 0;
	if (!j.first || !j.wrong) {
		free(j.first);
		free(j.wrong);
		return -2;
	}
	par_for(chunks, probe_check_chunk, &j);
	for (size_t k = 0; k < chunks; k++) {
		first = first < 0 ? j.first[k] : first;
		*wrong += j.wrong[k];
	}
	free(j.first);
	free(j.wrong);
	return first;
}

/*
 * The softmax probes (probe.h: one-hot rows, exact; rows of equal values,
 * 1/cols) after the random rows passed, each on fresh buffers with the
 * input filled on the device.  Returns 0 when all pass (r as it was),
 * else -1 with r WRONG saying which probe and where.
 */
static int softmax_probes(const struct softmax_spec *s, const struct case_args *a,
			  struct reduce_launch *l, void *out, size_t rows, size_t cols,
			  struct case_result *r)
{
	struct probe_plan *plan = (struct probe_plan *)malloc(sizeof *plan);
	const struct case_result passed = *r;
	char name[160], msg[RESULT_MESSAGE_MAX];
	int rc = 0;

	if (!plan) {
		case_result_set(r, OUTCOME_ERROR, "out of host memory");
		return -1;
	}
	probe_softmax_plan(plan, (int64_t)cols, s->finite_only, a->seed);
	for (size_t k = 0; k < plan->count && rc == 0; k++) {
		const struct probe *p = &plan->p[k];
		size_t wrong;
		double tol;

		probe_name(p, OP_SUM, name, sizeof name);
		if (reduce_execute_probe(l, s->launch, a->variant, p, out, r) < 0) {
			snprintf(msg, sizeof msg, "%s", r->message);
			snprintf(r->message, sizeof r->message, "exact probe (%.100s): %.800s", name, msg);
			rc = -1;
			break;
		}
		const int64_t i = softmax_probe_check(p, l->dtype, out, rows, cols, &wrong);
		if (i == -1)
			continue;
		if (i < 0) {
			case_result_set(r, OUTCOME_ERROR, "out of host memory");
			rc = -1;
			break;
		}
		const int64_t row = i / (int64_t)cols, col = i % (int64_t)cols;
		const double want = probe_softmax_expect(p, l->dtype, row, col, &tol);
		case_result_set(r, OUTCOME_WRONG, "%s (%s): row %lld column %lld got %.9g want %.9g%s "
				"(%zu of %zu outputs wrong)%s", tol > 0 ? "probe" : "exact probe", name, (long long)row,
				(long long)col, reference_load(l->dtype, out, (size_t)i), want,
				tol > 0 ? " (within 2 units in the last place)" : "", wrong, rows * cols,
				p->kind == PROBE_ONEHOT && want == 1.0
					? ": the row's one large element should take all of its softmax"
					: "");
		rc = -1;
	}
	if (rc == 0)
		*r = passed;
	free(plan);
	return rc;
}

/*
 * The host memory a softmax case takes that the worker does not hold
 * already: the input and its reference (two doubles an element) when they
 * are not the cached ones (a stale problem is dropped first: its memory is
 * the new one's), and the output.  Returns 0 when the host has it
 * available, else -1 with r SKIPPED; m is left filled for the message of
 * a malloc that fails all the same.
 */
static int host_memory_check(const struct reduce_launch *l, uint64_t seed, size_t rows, size_t cols,
			     int finite_only, struct memory_need *m, struct case_result *r)
{
	const size_t n = rows * cols, esz = dtype_size(l->dtype);

	memory_need_init(m, "host");
	if (!cache_holds(seed, l->dtype, rows, cols, finite_only)) {
		cache_drop();
		memory_need_add(m, "input", n * esz, 0);
		memory_need_add(m, "reference", 2 * n * sizeof(double), 0);
	}
	memory_need_add(m, "output", n * esz, 0);
	return memory_need_check(m, memory_host_available(), r);
}

void softmax_run(const struct softmax_spec *s, const struct case_args *a, struct case_result *r)
{
	struct memory_need host;
	struct reduce_launch l;
	char msg[RESULT_MESSAGE_MAX];
	void *out;
	size_t n, rows, cols, esz;

	r->err_norm = -1;
	r->timing.result_spread = -1;
	if (softmax_shape(s, a, &l, msg, sizeof msg) < 0) {
		case_result_set(r, OUTCOME_INVALID, "%s", msg);
		return;
	}
	if (s->configure && s->configure(&l, r) < 0)
		return;
	n = (size_t)l.n;
	cols = (size_t)l.seg_len;
	rows = n / cols;
	esz = dtype_size(l.dtype);
	/* A case too large for this device or this host is a SKIP, found
	 * before the host draws its input. */
	if (launch_memory_check(&l, 1, r) < 0 ||
	    host_memory_check(&l, a->seed, rows, cols, s->finite_only, &host, r) < 0)
		return;
	out = malloc(n * esz);
	if (!out || cache_problem(a->seed, l.dtype, rows, cols, s->finite_only) < 0) {
		memory_need_skip(&host, memory_host_available(), "malloc ran out of memory", r);
		free(out);
		return;
	}
	if (reduce_execute(&l, s->launch, a->variant, cache.in, out, r) == 0) {
		check_values(l.dtype, out, cache.ref, cache.tol, n, r);
		if (r->outcome == OUTCOME_WRONG) {
			/* A NaN or infinity the row's finite inputs produced is
			 * the kernel's arithmetic (an overflowed exponential, a
			 * -inf minus -inf): named with that row. */
			const int64_t i = check_first_nonfinite(l.dtype, out, cache.ref, n);
			if (i >= 0)
				(void)check_note_nonfinite(r, l.dtype, out, i, "row", i / (int64_t)cols, l.dtype,
							   cache.in, i / (int64_t)cols * (int64_t)cols,
							   (int64_t)cols);
		}
		/* Row sums are checked after wrong values too, for err_ratio. */
		if (softmax_check_row_sums(l.dtype, out, cache.tol, rows, cols, r) == 0 &&
		    r->outcome == OUTCOME_CORRECT && softmax_probes(s, a, &l, out, rows, cols, r) == 0 &&
		    a->timing)
			(void)reduce_time(&l, s->launch, cache.in, a->timing, 2.0 * (double)n * (double)esz, r);
	}
	free(out);
}

int softmax_variant_check(const struct case_args *a, char *msg, size_t len)
{
	const struct softmax_spec *s = (const struct softmax_spec *)catalog_spec(a, msg, len);

	return s ? softmax_check(s, a, msg, len) : -1;
}

void softmax_variant_run(const struct case_args *a, struct case_result *r)
{
	const struct softmax_spec *s = (const struct softmax_spec *)catalog_spec_run(a, r);

	if (s)
		softmax_run(s, a, r);
}
