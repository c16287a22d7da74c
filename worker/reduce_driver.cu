/*
 * reduce_driver.cu - the host side shared by every reduction variant
 * (see reduce_driver.cuh for the segment model).
 *
 * Invariants: check() and run() judge a case by the same reduce_shape(), so
 * a case that passes check() launches exactly the configuration check()
 * accepted; device and host buffers are released on every path, including
 * after sticky errors (the frees then fail harmlessly); a run is timed only
 * after every one of its repeated runs and its exact probes was checked
 * correct, on the same buffers (the random input copied back after the
 * probes), so the timing never includes an allocation or a copy; every
 * checked launch is audited (guards, input, scratch: device_audit).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/params.h"
#include "common/rng.h"
#include "worker/audit.cuh"
#include "worker/check.h"
#include "worker/cuda_check.cuh"
#include "worker/measure.cuh"
#include "worker/memory_need.h"
#include "worker/par.h"
#include "worker/probe.h"
#include "worker/probe_fill.cuh"
#include "worker/reduce_driver.cuh"
#include "worker/reference.h"

int case_check_common(const struct case_args *a, struct reduce_launch *l, char *msg, size_t len)
{
	const struct variant *v = catalog_find(a->variant);
	int64_t n = a->n;

	if ((unsigned)a->dtype >= DTYPE_COUNT || (v && !(v->dtypes & DTYPE_BIT(a->dtype)))) {
		snprintf(msg, len, "dtype %s is not supported by %s",
			 (unsigned)a->dtype < DTYPE_COUNT ? dtype_name(a->dtype) : "?", a->variant);
		return -1;
	}
	if (a->n < 1 || a->cols < 0) {
		snprintf(msg, len, "n=%lld cols=%lld: need n >= 1 and cols >= 0", (long long)a->n,
			 (long long)a->cols);
		return -1;
	}
	if (a->cols > 0) {
		if (a->n > REDUCE_MAX_ELEMENTS / a->cols)
			n = REDUCE_MAX_ELEMENTS + 1;
		else
			n = a->n * a->cols;
	}
	if (n > REDUCE_MAX_ELEMENTS) {
		snprintf(msg, len, "problem of more than %lld elements", (long long)REDUCE_MAX_ELEMENTS);
		return -1;
	}
	l->n = n;
	l->dtype = a->dtype;
	l->out_dtype = a->dtype;
	return 0;
}

int launch_prepare(const struct case_args *a, struct reduce_launch *l, char *msg, size_t len)
{
	const struct variant *v = catalog_find(a->variant);

	memset(l, 0, sizeof *l);
	if (case_check_common(a, l, msg, len) < 0)
		return -1;
	if (!v) {
		snprintf(msg, len, "%s: not in the catalog", a->variant);
		return -1;
	}
	if (v->params.set && v->params.set->size > sizeof l->params) {
		snprintf(msg, len, "%s: parameter struct of %zu bytes, the launch holds %zu", a->variant,
			 v->params.set->size, sizeof l->params);
		return -1;
	}
	if (variant_op(v, a, &l->op, msg, len) < 0)
		return -1;
	return variant_bind(v, a, l->params, msg, len);
}

/* Parses op, runs the variant's shape() and derives the output count. */
static int reduce_shape(const struct reduce_spec *s, const struct case_args *a,
			struct reduce_launch *l, char *msg, size_t len)
{
	if (launch_prepare(a, l, msg, len) < 0)
		return -1;
	if (s->input != INPUT_UNIFORM && l->dtype != DTYPE_F32) {
		snprintf(msg, len, "%s draws f32 inputs only", a->variant);
		return -1;
	}
	if (s->shape(a, l, msg, len) < 0)
		return -1;
	if (l->seg_len < 1 || l->seg_stride < l->seg_len ||
	    (s->layout == REDUCE_PER_ELEMENT && l->seg_stride != l->seg_len)) {
		snprintf(msg, len, "%s: bad segment geometry %lld/%lld", a->variant,
			 (long long)l->seg_len, (long long)l->seg_stride);
		return -1;
	}
	if (l->n_out != 0) { /* shape() fixed the output count itself */
		if (l->n_out < 0 || !s->expect) {
			snprintf(msg, len, "%s: an output count of its own needs an expect hook",
				 a->variant);
			return -1;
		}
		return 0;
	}
	l->n_out = s->layout == REDUCE_PER_ELEMENT ? l->n
						   : (l->n + l->seg_stride - 1) / l->seg_stride;
	return 0;
}

int reduce_check(const struct reduce_spec *s, const struct case_args *a, char *msg, size_t len)
{
	struct reduce_launch l;

	return reduce_shape(s, a, &l, msg, len);
}

struct fill_job {
	uint64_t seed;
	enum dtype d;
	void *buf;
	size_t n;
	int nonnegative;
};

static void fill_block(void *ctx, size_t k)
{
	const struct fill_job *j = (const struct fill_job *)ctx;
	size_t lo, hi;

	rng_fill_block(j->seed, k, j->d, j->buf, j->n);
	if (j->nonnegative) {
		float *f = (float *)j->buf;
		par_chunk_range(k, RNG_BLOCK, j->n, &lo, &hi);
		for (size_t i = lo; i < hi; i++)
			f[i] = fabsf(f[i]);
	}
}

/* The case's input: the standard draw in blocks (rng.h), on every
 * processor - 2^31 elements took a single thread most of a minute - or the
 * specials' mix, which stays small. */
static void reduce_fill_input(enum reduce_input kind, uint64_t seed, enum dtype d, void *buf,
			      size_t n)
{
	if (kind == INPUT_F32_SPECIALS) {
		struct rng g;
		rng_init(&g, seed);
		rng_fill_f32_specials(&g, (float *)buf, n);
		return;
	}
	struct fill_job j = {seed, d, buf, n, kind == INPUT_NONNEGATIVE};
	par_for(par_chunks(n, RNG_BLOCK), fill_block, &j);
	rng_fill_nonzero(d, buf, n);
}

static size_t input_bytes(const struct reduce_launch *l)
{
	return l->in ? (size_t)l->n * dtype_size(l->dtype) : 0;
}

static size_t output_bytes(const struct reduce_launch *l)
{
	return (size_t)l->n_out * dtype_size(l->out_dtype);
}

/* The launch's buffers as the audit reads them, in audit.cuh's order. */
static void audit_buffers(const struct reduce_launch *l, struct audit_buffer b[AUDIT_BUFFERS])
{
	b[AUDIT_IN] = (struct audit_buffer){l->in, input_bytes(l)};
	b[AUDIT_OUT] = (struct audit_buffer){l->out, output_bytes(l)};
	b[AUDIT_SCRATCH] = (struct audit_buffer){l->scratch, l->scratch_bytes};
}

/* The input's hash as it is now, as the next audit compares it (taken
 * on the device, without waiting). */
static cudaError_t audit_remember_input(struct reduce_launch *l)
{
	struct audit_buffer b[AUDIT_BUFFERS];

	audit_buffers(l, b);
	return audit_remember(&b[AUDIT_IN], l->audit);
}

/* The device memory l's buffers take: the input (with_input), the
 * output and the scratch, each between its guard zones, and the audit's
 * report. */
static void device_need(const struct reduce_launch *l, int with_input, struct memory_need *m)
{
	memory_need_init(m, "device");
	if (with_input)
		memory_need_add(m, "input", (size_t)l->n * dtype_size(l->dtype), 2 * (size_t)GUARD_BYTES);
	memory_need_add(m, "output", output_bytes(l), 2 * (size_t)GUARD_BYTES);
	if (l->scratch_bytes) /* named as the kernel file declares it */
		memory_need_add(m, l->scratch_poisoned ? "workspace" : "scratch", l->scratch_bytes,
				2 * (size_t)GUARD_BYTES);
	memory_need_add(m, NULL, 0, sizeof(struct audit_report));
}

int launch_memory_check(const struct reduce_launch *l, int with_input, struct case_result *r)
{
	struct memory_need m;
	size_t free_bytes, total;
	cudaError_t e;

	if ((e = cudaMemGetInfo(&free_bytes, &total)) != cudaSuccess)
		return cuda_call_failed(r, "cudaMemGetInfo", e);
	device_need(l, with_input, &m);
	return memory_need_check(&m, free_bytes, r);
}

/* An allocation of l's buffers failed with e.  Out of memory, after
 * launch_memory_check passed (the free memory fell since, or would not
 * give one piece that large), is its SKIP all the same; any other error
 * is the call's ERROR.  Returns -1. */
static int device_alloc_failed(const struct reduce_launch *l, int with_input, const char *what,
			       cudaError_t e, struct case_result *r)
{
	struct memory_need m;
	size_t free_bytes = 0, total;

	if (e != cudaErrorMemoryAllocation)
		return cuda_call_failed(r, what, e);
	(void)cudaGetLastError(); /* not sticky: taken, or the next call would read it as its own */
	(void)cudaMemGetInfo(&free_bytes, &total);
	device_need(l, with_input, &m);
	memory_need_skip(&m, free_bytes, "cudaMalloc ran out of memory", r);
	return -1;
}

/* Device buffers for l, each between guard zones (guard.h), with the
 * input copied in and scratch zeroed, and the input's hash taken.
 * Returns 0, or -1 with r filled and nothing left allocated: SKIPPED
 * when they do not fit the device (launch_memory_check). */
static int device_open(struct reduce_launch *l, const void *host_in, struct case_result *r)
{
	const size_t in_bytes = host_in ? (size_t)l->n * dtype_size(l->dtype) : 0;
	const size_t out_bytes = (size_t)l->n_out * dtype_size(l->out_dtype);
	void *d_in = NULL, *d_out = NULL, *d_scratch = NULL, *d_audit = NULL;
	cudaError_t e;

	l->in = l->out = l->scratch = l->audit = NULL;
	if (launch_memory_check(l, in_bytes != 0, r) < 0)
		return -1;
	if (in_bytes && (e = guarded_alloc(&d_in, in_bytes)) != cudaSuccess) {
		device_alloc_failed(l, 1, "cudaMalloc", e, r);
		goto fail;
	}
	if ((e = guarded_alloc(&d_out, out_bytes)) != cudaSuccess ||
	    (e = cudaMalloc(&d_audit, sizeof(struct audit_report))) != cudaSuccess) {
		device_alloc_failed(l, in_bytes != 0, "cudaMalloc", e, r);
		goto fail;
	}
	if (l->scratch_bytes && (e = guarded_alloc(&d_scratch, l->scratch_bytes)) != cudaSuccess) {
		device_alloc_failed(l, in_bytes != 0, "scratch", e, r);
		goto fail;
	}
	if (l->scratch_bytes && (e = cudaMemset(d_scratch, 0, l->scratch_bytes)) != cudaSuccess) {
		cuda_call_failed(r, "scratch", e);
		goto fail;
	}
	if (in_bytes && (e = cudaMemcpy(d_in, host_in, in_bytes, cudaMemcpyHostToDevice)) != cudaSuccess) {
		cuda_call_failed(r, "copy input", e);
		goto fail;
	}
	l->in = d_in;
	l->out = d_out;
	l->scratch = d_scratch;
	l->audit = d_audit;
	l->host_in = host_in;
	if ((e = audit_remember_input(l)) != cudaSuccess) {
		cuda_call_failed(r, "audit", e);
		l->in = l->out = l->scratch = l->audit = NULL;
		goto fail;
	}
	return 0;
fail:
	guarded_free(d_in);
	guarded_free(d_out);
	guarded_free(d_scratch);
	(void)cudaFree(d_audit);
	return -1;
}

/* After a sticky error the frees fail too, harmlessly. */
static void device_close(struct reduce_launch *l)
{
	guarded_free(l->in);
	guarded_free(l->out);
	guarded_free(l->scratch);
	(void)cudaFree(l->audit);
	l->in = NULL;
	l->out = NULL;
	l->scratch = NULL;
	l->audit = NULL;
}

/* The kernel changed its input: names the first element that differs from
 * what was copied in (when the driver knows it), as WRONG.  Returns -1. */
static int input_changed(const struct reduce_launch *l, struct case_result *r)
{
	const size_t esz = dtype_size(l->dtype), bytes = input_bytes(l);
	unsigned char *now = l->host_in ? (unsigned char *)malloc(bytes) : NULL;
	size_t first = (size_t)-1, changed = 0;

	if (now && cudaMemcpy(now, l->in, bytes, cudaMemcpyDeviceToHost) == cudaSuccess) {
		for (size_t i = 0; i < (size_t)l->n; i++)
			if (memcmp(now + i * esz, (const unsigned char *)l->host_in + i * esz, esz) != 0) {
				first = first == (size_t)-1 ? i : first;
				changed++;
			}
	}
	if (first != (size_t)-1)
		case_result_set(r, OUTCOME_WRONG, "the kernel wrote into its input: element %zu was %.9g, "
				"is %.9g (%zu of %lld elements changed)", first,
				reference_load(l->dtype, l->host_in, first), reference_load(l->dtype, now, first),
				changed, (long long)l->n);
	else
		case_result_set(r, OUTCOME_WRONG, "the kernel wrote into its input (its hash changed)");
	free(now);
	return -1;
}

/* What the launch did outside its output, from the audit device_run
 * queued behind it: a changed guard byte, a changed input, scratch left
 * dirty.  Returns 0 when none, else -1 with r WRONG. */
static int device_audit(const struct reduce_launch *l, struct case_result *r)
{
	static const char *const names[AUDIT_BUFFERS] = {"in", "out", "scratch"};
	struct audit_buffer b[AUDIT_BUFFERS];
	struct audit_report *rep = (struct audit_report *)malloc(sizeof *rep);
	char msg[RESULT_MESSAGE_MAX];
	cudaError_t e;
	int rc = 0;

	if (!rep) {
		case_result_set(r, OUTCOME_ERROR, "out of host memory");
		return -1;
	}
	if ((e = audit_fetch(l->audit, rep)) != cudaSuccess) {
		free(rep);
		return cuda_call_failed(r, "audit", e);
	}
	audit_buffers(l, b);
	for (int k = 0; k < AUDIT_BUFFERS && rc == 0; k++)
		if (b[k].data && guard_check(names[k], b[k].bytes, rep->guard[2 * k], rep->guard[2 * k + 1],
					     msg, sizeof msg) < 0) {
			case_result_set(r, OUTCOME_WRONG, "%s", msg);
			rc = -1;
		}
	if (rc == 0 && l->in && rep->hash != rep->hash_before)
		rc = input_changed(l, r);
	if (rc == 0 && l->scratch_stays_zero && rep->scratch_first != ~0ull) {
		case_result_set(r, OUTCOME_WRONG, "left its scratch dirty: byte %llu of %zu is not zero "
				"after the launch (a kernel must leave its scratch zeroed)",
				rep->scratch_first, l->scratch_bytes);
		rc = -1;
	}
	free(rep);
	return rc;
}

/* One run on open buffers: poison the output (zero it, with zero_out),
 * launch, wait, copy back, audit (device_audit). */
static int device_run_from(struct reduce_launch *l, reduce_launch_fn launch, const char *name,
			   int zero_out, void *host_out, struct case_result *r)
{
	struct audit_buffer b[AUDIT_BUFFERS];
	cudaError_t e;

	/* Poison so that an element the kernel never wrote is told apart
	 * from a wrong one: on the device, queued like the launch and the
	 * audit behind it, so that one wait serves all three. */
	e = zero_out ? cudaMemsetAsync(l->out, 0, output_bytes(l), l->stream)
		     : device_poison(l->out_dtype, l->out, (size_t)l->n_out);
	if (e != cudaSuccess)
		return cuda_call_failed(r, "poison output", e);
	if (l->scratch_poisoned && l->scratch_bytes &&
	    (e = cudaMemsetAsync(l->scratch, 0xff, l->scratch_bytes, l->stream)) != cudaSuccess)
		return cuda_call_failed(r, "poison scratch", e);
	e = launch(l);
	if (e == cudaSuccess)
		e = cudaGetLastError();
	if (e != cudaSuccess)
		return cuda_launch_failed(r, name, e);
	audit_buffers(l, b);
	if ((e = audit_enqueue(b, l->scratch_stays_zero, l->audit)) == cudaSuccess)
		e = cudaDeviceSynchronize();
	if (e != cudaSuccess)
		return cuda_kernel_failed(r, e);
	if ((e = cudaMemcpy(host_out, l->out, output_bytes(l), cudaMemcpyDeviceToHost)) != cudaSuccess)
		return cuda_call_failed(r, "copy output", e);
	return device_audit(l, r);
}

static int device_run(struct reduce_launch *l, reduce_launch_fn launch, const char *name,
		      void *host_out, struct case_result *r)
{
	return device_run_from(l, launch, name, 0, host_out, r);
}

int reduce_execute(struct reduce_launch *l, reduce_launch_fn launch, const char *name,
		   const void *host_in, void *host_out, struct case_result *r)
{
	int rc;

	if (device_open(l, host_in, r) < 0)
		return -1;
	rc = device_run(l, launch, name, host_out, r);
	device_close(l);
	return rc;
}

/*
 * The reference for segment reductions: gathers the counted elements when
 * segments are strided (only the last segment can be short, so the gathered
 * array is a plain segmented problem), reduces, and for per-element outputs
 * gives every element its segment's value.  Returns -1 when out of memory.
 */
static int reduce_reference(const struct reduce_launch *l, enum reduce_layout layout,
			    const void *in, double *ref, double *tol)
{
	const size_t esz = dtype_size(l->dtype);
	const enum dtype acc = l->dtype == DTYPE_BF16 ? DTYPE_F32 : l->dtype;
	const int64_t nseg = (l->n + l->seg_stride - 1) / l->seg_stride;
	const void *src = in;
	size_t count = (size_t)l->n;
	char *gathered = NULL;
	double *sref = ref, *stol = tol;
	int rc = -1;

	if (l->seg_stride > l->seg_len) {
		gathered = (char *)malloc((size_t)nseg * (size_t)l->seg_len * esz);
		if (!gathered)
			goto done;
		count = 0;
		for (int64_t s = 0; s < nseg; s++) {
			const int64_t start = s * l->seg_stride;
			const int64_t take = l->n - start < l->seg_len ? l->n - start : l->seg_len;
			memcpy(gathered + count * esz, (const char *)in + (size_t)start * esz,
			       (size_t)take * esz);
			count += (size_t)take;
		}
		src = gathered;
	}
	if (layout == REDUCE_PER_ELEMENT) {
		sref = (double *)malloc((size_t)nseg * sizeof *sref);
		stol = (double *)malloc((size_t)nseg * sizeof *stol);
		if (!sref || !stol)
			goto done;
	}
	reference_segments(l->op, l->dtype, acc, l->out_dtype, src, count, (size_t)l->seg_len, sref, stol);
	if (layout == REDUCE_PER_ELEMENT) {
		for (int64_t i = 0; i < l->n; i++) {
			ref[i] = sref[i / l->seg_len];
			tol[i] = stol[i / l->seg_len];
		}
	}
	rc = 0;
done:
	if (sref != ref)
		free(sref);
	if (stol != tol)
		free(stol);
	free(gathered);
	return rc;
}

/* The segment of output i. */
static int64_t output_segment(const struct reduce_launch *l, enum reduce_layout layout, int64_t i)
{
	return layout == REDUCE_PER_ELEMENT ? i / l->seg_len : i;
}

/*
 * What a wrong first run says about its cause, measured, put before the
 * message.  The launch is made once more on an output zeroed instead of
 * poisoned: right then, the kernel added into an output it never set
 * (an atomicAdd into out), which the poison's NaN turned into NaN.  Else
 * an output that is NaN or infinite where every input of its segment is
 * finite is named with those inputs.  Nothing is said unless measured.
 */
static void explain_wrong(const struct reduce_spec *s, struct reduce_launch *l, const void *in,
			  void *out, const double *ref, const double *tol, struct case_result *r)
{
	const size_t n_out = (size_t)l->n_out;
	struct case_result noted = *r, again;
	int nonfinite = 0;

	/* Named on this run's output, before the second launch replaces it;
	 * only where the reference reduces contiguous segments of the input. */
	const int64_t i = s->expect || !in ? -1 : check_first_nonfinite(l->out_dtype, out, ref, n_out);
	if (i >= 0) {
		const int64_t seg = output_segment(l, s->layout, i), lo = seg * l->seg_stride;
		const int64_t count = l->n - lo < l->seg_len ? l->n - lo : l->seg_len;
		nonfinite = check_note_nonfinite(&noted, l->out_dtype, out, i, n_out > 1 ? "segment" : NULL,
						 seg, l->dtype, in, lo, count);
	}
	memset(&again, 0, sizeof again);
	if (device_run_from(l, s->launch, "", 1, out, &again) == 0) {
		check_values(l->out_dtype, out, ref, tol, n_out, &again);
		if (again.outcome == OUTCOME_CORRECT) {
			case_result_lead(r, "accumulated into an output it did not initialise (the same "
					 "launch on an output zeroed beforehand is right; conform fills "
					 "outputs with NaN before each launch: set out first, or use "
					 "@scratch)");
			return;
		}
	}
	if (nonfinite)
		memcpy(r->message, noted.message, sizeof r->message);
}

/* How often run() launches s's kernel: its repeat's runs, at least once. */
static int spec_runs(const struct reduce_spec *s)
{
	return s->repeat.runs > 1 ? s->repeat.runs : 1;
}

/*
 * Runs spec_runs(s) times on the open buffers, checking each run.  `first` keeps
 * the first run's output; lo and hi (runs > 1 only) each output's range
 * over the runs.  Returns 0 when every run was correct (r->outcome set by
 * the last check), else -1 with r filled.
 */
static int run_and_check(const struct reduce_spec *s, const struct case_args *a, struct reduce_launch *l, const void *in,
			 void *out, void *first,
			 const double *ref, const double *tol, double *lo, double *hi,
			 struct case_result *r)
{
	const int runs = spec_runs(s);
	const size_t n_out = (size_t)l->n_out, out_bytes = n_out * dtype_size(l->out_dtype);

	for (int run = 0; run < runs; run++) {
		if (device_run(l, s->launch, a->variant, out, r) < 0)
			return -1;
		check_values(l->out_dtype, out, ref, tol, n_out, r);
		if (r->outcome != OUTCOME_CORRECT && run == 0)
			explain_wrong(s, l, in, out, ref, tol, r);
		if (r->outcome != OUTCOME_CORRECT) {
			if (run > 0) {
				char msg[RESULT_MESSAGE_MAX];
				snprintf(msg, sizeof msg, "run %d of %d: %.960s", run + 1, runs, r->message);
				snprintf(r->message, sizeof r->message, "%s", msg);
			}
			return -1;
		}
		if (runs < 2)
			continue;
		if (run == 0)
			memcpy(first, out, out_bytes);
		for (size_t i = 0; i < n_out; i++) {
			const double v = reference_load(l->out_dtype, out, i);
			lo[i] = run == 0 || v < lo[i] ? v : lo[i];
			hi[i] = run == 0 || v > hi[i] ? v : hi[i];
		}
		if (s->repeat.deterministic && memcmp(first, out, out_bytes) != 0) {
			size_t i = 0;
			while (i + 1 < n_out && lo[i] == hi[i])
				i++;
			case_result_set(r, OUTCOME_WRONG,
					"not deterministic: run %d of %d differs from run 1 (output %zu: "
					"%.17g vs %.17g)", run + 1, runs, i,
					reference_load(l->out_dtype, out, i),
					reference_load(l->out_dtype, first, i));
			return -1;
		}
	}
	return 0;
}

/* v as an output of type d holds it. */
static double as_stored(enum dtype d, double v)
{
	switch (d) {
	case DTYPE_F32: return (float)v;
	case DTYPE_BF16: return bf16_to_float(bf16_from_float((float)v));
	default: return v;
	}
}

/* Fills the device input with probe p (and remembers its hash), zeroes
 * the scratch, and runs the kernel once into out.  Returns 0, or -1 with
 * r filled. */
static int probe_launch(struct reduce_launch *l, reduce_launch_fn launch, const char *name,
			const struct probe *p, void *out, struct case_result *r)
{
	cudaError_t e;

	if ((e = probe_fill(p, l->dtype, (void *)l->in, l->n)) != cudaSuccess ||
	    (l->scratch_bytes && !l->scratch_poisoned &&
	     (e = cudaMemset(l->scratch, 0, l->scratch_bytes)) != cudaSuccess) ||
	    (e = audit_remember_input(l)) != cudaSuccess)
		return cuda_call_failed(r, "probe input", e);
	return device_run(l, launch, name, out, r);
}

/*
 * For a window of ones whose count came out wrong at output j: where in
 * the window the fault lies, found by bisecting prefix and suffix windows
 * (a loss of elements, or an excess, grows monotonically with the window),
 * appended to buf as "; elements [a, b) were never added".  About two
 * launches per bit of the window's width.
 */
static void probe_narrow(const struct reduce_spec *s, const struct case_args *a,
			 struct reduce_launch *l, const struct probe *p, int64_t j, double excess,
			 void *out, int64_t nseg, char *buf, size_t len)
{
	const int64_t seg = output_segment(l, s->layout, j);
	struct case_result quiet;
	int64_t lo, hi, first, last;

	/* Whether the window [wlo, whi) miscounts; -1 when it cannot run. */
	auto miscounts = [&](int64_t wlo, int64_t whi) -> int {
		struct probe q = *p;
		q.lo = wlo;
		q.hi = whi;
		memset(&quiet, 0, sizeof quiet);
		if (probe_launch(l, s->launch, a->variant, &q, out, &quiet) < 0)
			return -1;
		return reference_load(l->out_dtype, out, (size_t)j) != probe_expect(&q, l->n, seg);
	};
	int bad;
	/* The first: prefix [p->lo, lo) counts right, [p->lo, hi) does not. */
	for (lo = p->lo, hi = p->hi; hi - lo > 1;) {
		const int64_t mid = lo + (hi - lo) / 2;
		if ((bad = miscounts(p->lo, mid)) < 0)
			return;
		*(bad ? &hi : &lo) = mid;
	}
	first = hi - 1;
	/* The last: suffix [lo, p->hi) miscounts, [hi, p->hi) does not. */
	for (lo = p->lo, hi = p->hi; hi - lo > 1;) {
		const int64_t mid = lo + (hi - lo) / 2;
		if ((bad = miscounts(mid, p->hi)) < 0)
			return;
		*(bad ? &lo : &hi) = mid;
	}
	last = lo;
	const char *what = excess < 0 ? "never added" : "counted twice";
	const char *unit = nseg > 1 ? "offsets" : "elements";
	const size_t used = strlen(buf);
	if (used + 1 >= len || last < first)
		return;
	if (fabs(excess) == (double)(last - first + 1))
		snprintf(buf + used, len - used, "; %s [%lld, %lld) were %s", unit, (long long)first,
			 (long long)last + 1, what);
	else
		snprintf(buf + used, len - used, "; the %s %s lie in [%lld, %lld]", unit, what,
			 (long long)first, (long long)last);
}

/*
 * The exact probes of the case (probe.h), on the open buffers, after its
 * random input passed: each fills the input on the device, runs the kernel
 * once and compares every output with its exact answer (tolerance 0).
 * Variants with outputs of their own (an expect hook) or a special input
 * have none.  The random input is copied back for timing.  Returns 0 when
 * every probe passed (r as the random input's check left it), else -1
 * with r WRONG and a message that says which probe and what it means.
 */
static int run_probes(const struct reduce_spec *s, const struct case_args *a,
		      struct reduce_launch *l, void *out, struct case_result *r)
{
	const size_t n_out = (size_t)l->n_out;
	const int64_t nseg = (l->n + l->seg_stride - 1) / l->seg_stride;
	const struct case_result passed = *r;
	const void *host_in = l->host_in;
	struct probe_plan *plan;
	double *want;
	int rc = 0;

	if (s->expect || s->input == INPUT_F32_SPECIALS || !l->in)
		return 0;
	plan = (struct probe_plan *)malloc(sizeof *plan);
	want = (double *)malloc(n_out * sizeof *want);
	if (!plan || !want) {
		free(plan);
		free(want);
		case_result_set(r, OUTCOME_ERROR, "out of host memory");
		return -1;
	}
	probe_plan_make(plan, l->op, l->dtype, l->out_dtype, l->n, l->seg_len, l->seg_stride,
			s->input == INPUT_NONNEGATIVE, a->seed);
	l->host_in = NULL; /* the device holds a probe: no element to name */
	for (size_t k = 0; k < plan->count && rc == 0; k++) {
		const struct probe *p = &plan->p[k];
		char name[160], msg[RESULT_MESSAGE_MAX];

		probe_name(p, l->op, name, sizeof name);
		if (probe_launch(l, s->launch, a->variant, p, out, r) < 0) {
			snprintf(msg, sizeof msg, "%s", r->message);
			snprintf(r->message, sizeof r->message, "exact probe (%.100s): %.800s", name, msg);
			rc = -1;
			break;
		}
		/* Per-element outputs repeat their segment's answer. */
		int64_t prev = -1;
		for (size_t i = 0; i < n_out; i++) {
			const int64_t si = output_segment(l, s->layout, (int64_t)i);
			want[i] = si == prev ? want[i - 1] : probe_expect(p, l->n, si);
			prev = si;
		}
		check_values(l->out_dtype, out, want, NULL, n_out, r);
		if (r->outcome == OUTCOME_CORRECT)
			continue;
		/* The first wrong output, and what its answer means. */
		size_t j = 0;
		while (j + 1 < n_out && reference_load(l->out_dtype, out, j) == as_stored(l->out_dtype, want[j]))
			j++;
		const double got = reference_load(l->out_dtype, out, j);
		const int64_t seg = output_segment(l, s->layout, (int64_t)j);
		snprintf(msg, sizeof msg, "exact probe (%s): ", name);
		if (as_stored(l->out_dtype, want[j]) != want[j])
			snprintf(msg + strlen(msg), sizeof msg - strlen(msg),
				 "returned %.9g, want %.9g (the count %.17g as %s holds it)", got,
				 as_stored(l->out_dtype, want[j]), want[j], dtype_name(l->out_dtype));
		else
			probe_explain(p, l->op, l->n, seg, nseg, got, msg, sizeof msg);
		if (p->kind == PROBE_ONES && got == floor(got) && got != want[j] &&
		    as_stored(l->out_dtype, want[j]) == want[j])
			probe_narrow(s, a, l, p, (int64_t)j, got - want[j], out, nseg, msg, sizeof msg);
		snprintf(msg + strlen(msg), sizeof msg - strlen(msg), "; %.600s", r->message);
		case_result_set(r, OUTCOME_WRONG, "%s", msg);
		rc = -1;
	}
	l->host_in = host_in;
	if (rc == 0) {
		/* The random input's verdict and error norms stand. */
		*r = passed;
		if (a->timing) {
			cudaError_t e = cudaMemcpy((void *)l->in, host_in, (size_t)l->n * dtype_size(l->dtype),
						   cudaMemcpyHostToDevice);
			if (e == cudaSuccess)
				e = audit_remember_input(l);
			if (e != cudaSuccess)
				rc = cuda_call_failed(r, "restore input", e);
		}
	}
	free(plan);
	free(want);
	return rc;
}

int reduce_execute_probe(struct reduce_launch *l, reduce_launch_fn launch, const char *name,
			 const struct probe *p, void *host_out, struct case_result *r)
{
	void *d_in = NULL;
	cudaError_t e;
	int rc;

	if (launch_memory_check(l, 1, r) < 0 || device_open(l, NULL, r) < 0)
		return -1;
	if ((e = guarded_alloc(&d_in, (size_t)l->n * dtype_size(l->dtype))) != cudaSuccess) {
		device_close(l);
		return device_alloc_failed(l, 1, "cudaMalloc", e, r);
	}
	l->in = d_in;
	rc = probe_launch(l, launch, name, p, host_out, r);
	device_close(l);
	return rc;
}

/* The largest relative spread max - min over the runs among the outputs. */
static double result_spread(const double *lo, const double *hi, size_t n)
{
	double spread = 0;

	for (size_t i = 0; i < n; i++) {
		const double scale = fabs(lo[i]) > fabs(hi[i]) ? fabs(lo[i]) : fabs(hi[i]);
		if (hi[i] > lo[i] && scale > 0 && (hi[i] - lo[i]) / scale > spread)
			spread = (hi[i] - lo[i]) / scale;
	}
	return spread;
}

struct timed_launch {
	const struct reduce_launch *l;
	reduce_launch_fn launch;
};

static cudaError_t timed_launch_call(void *ctx)
{
	const struct timed_launch *t = (const struct timed_launch *)ctx;

	return t->launch(t->l);
}

int reduce_time(struct reduce_launch *l, reduce_launch_fn launch, const void *host_in,
		const struct timing_request *t, double bytes, struct case_result *r)
{
	struct timed_launch tl = {l, launch};
	int rc;

	if (device_open(l, host_in, r) < 0)
		return -1;
	rc = measure_kernel(t, timed_launch_call, &tl, bytes, &r->timing, r);
	device_close(l);
	return rc;
}

/*
 * The worker's one-entry cache of the last input and its reference.  The
 * tuner checks every configuration of a problem against the same draw (the
 * case seed does not depend on the configuration), and drawing and reducing
 * 2^30 elements on the host takes seconds, far longer than the kernel: so
 * the draw and the reference are kept until a case asks for another.  It is
 * process state on purpose: the worker runs one case at a time, and conform
 * never links this file.
 */
struct input_cache {
	/* what the input is */
	enum reduce_input kind;
	uint64_t seed;
	enum dtype dtype;
	int64_t n;
	void *in;
	/* what the reference was computed for (valid when ref != NULL) */
	enum op op;
	enum reduce_layout layout;
	enum dtype out_dtype;
	int64_t seg_len, seg_stride, n_out;
	double *ref, *tol;
};

static struct input_cache cache;

static void cache_drop_reference(void)
{
	free(cache.ref);
	free(cache.tol);
	cache.ref = cache.tol = NULL;
}

/* Whether the cache holds the input for (kind, seed, dtype, n). */
static int cache_holds(enum reduce_input kind, uint64_t seed, enum dtype d, int64_t n)
{
	return cache.in && cache.kind == kind && cache.seed == seed && cache.dtype == d && cache.n == n;
}

static void cache_drop(void)
{
	cache_drop_reference();
	free(cache.in);
	cache.in = NULL;
}

/* The input for (kind, seed, dtype, n), drawn unless it is the cached one.
 * Returns NULL when out of memory. */
static const void *cache_input(enum reduce_input kind, uint64_t seed, enum dtype d, int64_t n)
{
	if (cache_holds(kind, seed, d, n))
		return cache.in;
	cache_drop();
	cache.in = malloc((size_t)n * dtype_size(d));
	if (!cache.in)
		return NULL;
	cache.kind = kind;
	cache.seed = seed;
	cache.dtype = d;
	cache.n = n;
	reduce_fill_input(kind, seed, d, cache.in, (size_t)n);
	return cache.in;
}

/* The segment reference of the cached input for l, computed unless it is
 * the cached one.  Returns 0, or -1 when out of memory. */
static int cache_reference(const struct reduce_launch *l, enum reduce_layout layout,
			   const double **ref, const double **tol)
{
	if (!(cache.ref && cache.op == l->op && cache.layout == layout &&
	      cache.out_dtype == l->out_dtype && cache.seg_len == l->seg_len &&
	      cache.seg_stride == l->seg_stride && cache.n_out == l->n_out)) {
		cache_drop_reference();
		cache.ref = (double *)malloc((size_t)l->n_out * sizeof *cache.ref);
		cache.tol = (double *)malloc((size_t)l->n_out * sizeof *cache.tol);
		if (!cache.ref || !cache.tol || reduce_reference(l, layout, cache.in, cache.ref, cache.tol) < 0) {
			cache_drop_reference();
			return -1;
		}
		cache.op = l->op;
		cache.layout = layout;
		cache.out_dtype = l->out_dtype;
		cache.seg_len = l->seg_len;
		cache.seg_stride = l->seg_stride;
		cache.n_out = l->n_out;
	}
	*ref = cache.ref;
	*tol = cache.tol;
	return 0;
}

/*
 * The host memory a run of l takes that the worker does not hold already:
 * the input when it is not the cached one (a stale one is dropped first:
 * its memory is the new one's), the output buffers (with the first run's
 * copy and each output's range when it runs more than once), and the
 * reference.  Returns 0 when the host has it available, else -1 with r
 * SKIPPED; m is left filled for the message of a malloc that fails all
 * the same.
 */
static int host_memory_check(const struct reduce_spec *s,
			     const struct reduce_launch *l, uint64_t seed, struct memory_need *m,
			     struct case_result *r)
{
	const size_t n_out = (size_t)l->n_out, outs = n_out * dtype_size(l->out_dtype);

	memory_need_init(m, "host");
	if (!cache_holds(s->input, seed, l->dtype, l->n)) {
		cache_drop();
		memory_need_add(m, "input", (size_t)l->n * dtype_size(l->dtype), 0);
	}
	memory_need_add(m, "output", spec_runs(s) > 1 ? 2 * outs + 2 * n_out * sizeof(double) : outs, 0);
	memory_need_add(m, "reference", 2 * n_out * sizeof(double), 0);
	return memory_need_check(m, memory_host_available(), r);
}

void reduce_run(const struct reduce_spec *s, const struct case_args *a, struct case_result *r)
{
	struct memory_need host;
	struct reduce_launch l;
	char msg[RESULT_MESSAGE_MAX];
	const void *in;
	void *out = NULL, *first = NULL;
	double *own_ref = NULL, *own_tol = NULL, *lo = NULL, *hi = NULL;
	const double *ref = NULL, *tol = NULL;
	size_t esz, out_esz;
	int opened = 0;
	const int runs = spec_runs(s);

	r->err_norm = -1;
	r->timing.result_spread = -1;
	if (reduce_shape(s, a, &l, msg, sizeof msg) < 0) {
		case_result_set(r, OUTCOME_INVALID, "%s", msg);
		return;
	}
	if (s->configure && s->configure(&l, r) < 0)
		return;
	/* A case too large for this device or this host is a SKIP, found
	 * before the host draws its input. */
	if (launch_memory_check(&l, 1, r) < 0 || host_memory_check(s, &l, a->seed, &host, r) < 0)
		return;

	esz = dtype_size(l.dtype);
	out_esz = dtype_size(l.out_dtype);
	in = cache_input(s->input, a->seed, l.dtype, l.n);
	out = malloc((size_t)l.n_out * out_esz);
	if (runs > 1) {
		first = malloc((size_t)l.n_out * out_esz);
		lo = (double *)malloc((size_t)l.n_out * sizeof *lo);
		hi = (double *)malloc((size_t)l.n_out * sizeof *hi);
	}
	if (!in || !out || (runs > 1 && (!first || !lo || !hi))) {
		memory_need_skip(&host, memory_host_available(), "malloc ran out of memory", r);
		goto done;
	}
	if (s->expect) {
		own_ref = (double *)malloc((size_t)l.n_out * sizeof *own_ref);
		own_tol = (double *)malloc((size_t)l.n_out * sizeof *own_tol);
		if (!own_ref || !own_tol) {
			memory_need_skip(&host, memory_host_available(), "malloc ran out of memory", r);
			goto done;
		}
		s->expect(&l, in, own_ref, own_tol);
		ref = own_ref;
		tol = own_tol;
	} else if (cache_reference(&l, s->layout, &ref, &tol) < 0) {
		memory_need_skip(&host, memory_host_available(), "malloc ran out of memory", r);
		goto done;
	}

	if (device_open(&l, in, r) < 0)
		goto done;
	opened = 1;
	if (run_and_check(s, a, &l, in, out, first, ref, tol, lo, hi, r) < 0)
		goto done;
	if (runs > 1)
		r->timing.result_spread = result_spread(lo, hi, (size_t)l.n_out);
	if (run_probes(s, a, &l, out, r) < 0)
		goto done;
	if (a->timing) {
		struct timed_launch t = {&l, s->launch};
		const double bytes = (double)l.n * (double)esz + (double)l.n_out * (double)out_esz;
		(void)measure_kernel(a->timing, timed_launch_call, &t, bytes, &r->timing, r);
	}
done:
	if (opened)
		device_close(&l);
	free(out);
	free(first);
	free(own_ref);
	free(own_tol);
	free(lo);
	free(hi);
}

int reduce_variant_check(const struct case_args *a, char *msg, size_t len)
{
	const struct reduce_spec *s = (const struct reduce_spec *)catalog_spec(a, msg, len);

	return s ? reduce_check(s, a, msg, len) : -1;
}

void reduce_variant_run(const struct case_args *a, struct case_result *r)
{
	const struct reduce_spec *s = (const struct reduce_spec *)catalog_spec_run(a, r);

	if (s)
		reduce_run(s, a, r);
}

