/*
 * reduce_driver.cu - the host side shared by every reduction variant
 * (see reduce_driver.cuh for the segment model).
 *
 * Invariants: check() and run() judge a case by the same reduce_shape(), so
 * a case that passes check() launches exactly the configuration check()
 * accepted; device and host buffers are released on every path, including
 * after sticky errors (the frees then fail harmlessly).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuda_check.cuh"
#include "params.h"
#include "reduce_driver.cuh"
#include "reference.h"
#include "rng.h"

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
	return 0;
}

int param_int(const struct case_args *a, const char *key, long long fallback, long long lo,
	      long long hi, int *out, char *msg, size_t len)
{
	int bad = 0;
	long long v = params_long_or(a->params, key, fallback, &bad);

	if (bad) {
		snprintf(msg, len, "%s: not an integer", key);
		return -1;
	}
	if (v < lo || v > hi) {
		snprintf(msg, len, "%s=%lld is outside %lld..%lld", key, v, lo, hi);
		return -1;
	}
	*out = (int)v;
	return 0;
}

int param_choice(const struct case_args *a, const char *key, const char *const *choices,
		 int nchoices, int fallback, int *out, char *msg, size_t len)
{
	char word[64];
	size_t used;

	if (params_get(a->params, key, word, sizeof word) != 0) {
		*out = fallback;
		return 0;
	}
	for (int i = 0; i < nchoices; i++) {
		if (strcmp(word, choices[i]) == 0) {
			*out = i;
			return 0;
		}
	}
	used = (size_t)snprintf(msg, len, "%s=%s: expected", key, word);
	for (int i = 0; i < nchoices && used < len; i++)
		used += (size_t)snprintf(msg + used, len - used, "%s%s", i ? "|" : " ", choices[i]);
	return -1;
}

/* Parses op, runs the variant's shape() and derives the output count. */
static int reduce_shape(const struct reduce_spec *s, const struct case_args *a,
			struct reduce_launch *l, char *msg, size_t len)
{
	char word[64];

	memset(l, 0, sizeof *l);
	if (case_check_common(a, l, msg, len) < 0)
		return -1;
	if (s->input != INPUT_UNIFORM && l->dtype != DTYPE_F32) {
		snprintf(msg, len, "%s draws f32 inputs only", a->variant);
		return -1;
	}

	l->op = OP_SUM;
	while (!(s->ops & OP_BIT(l->op)) && l->op + 1 < OP_COUNT)
		l->op = (enum op)(l->op + 1);
	if (params_get(a->params, "op", word, sizeof word) == 0 && op_parse(word, &l->op) != 0) {
		snprintf(msg, len, "op=%s: unknown operator", word);
		return -1;
	}
	if (!(s->ops & OP_BIT(l->op))) {
		snprintf(msg, len, "op=%s is not supported by %s", op_name(l->op), a->variant);
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
	l->n_out = s->layout == REDUCE_PER_ELEMENT ? l->n
						   : (l->n + l->seg_stride - 1) / l->seg_stride;
	return 0;
}

int reduce_check(const struct reduce_spec *s, const struct case_args *a, char *msg, size_t len)
{
	struct reduce_launch l;

	return reduce_shape(s, a, &l, msg, len);
}

static void reduce_fill_input(enum reduce_input kind, uint64_t seed, enum dtype d, void *buf,
			      size_t n)
{
	struct rng g;

	rng_init(&g, seed);
	if (kind == INPUT_F32_SPECIALS) {
		rng_fill_f32_specials(&g, (float *)buf, n);
		return;
	}
	rng_fill(&g, d, buf, n);
	if (kind == INPUT_NONNEGATIVE) {
		float *f = (float *)buf;
		for (size_t i = 0; i < n; i++)
			f[i] = fabsf(f[i]);
	}
}

int reduce_execute(struct reduce_launch *l, reduce_launch_fn launch, const char *name,
		   const void *host_in, void *host_out, struct case_result *r)
{
	const size_t esz = dtype_size(l->dtype);
	const size_t in_bytes = host_in ? (size_t)l->n * esz : 0;
	const size_t out_bytes = (size_t)l->n_out * esz;
	void *d_in = NULL, *d_out = NULL, *d_scratch = NULL;
	cudaError_t e;
	int rc = -1;

	if (in_bytes && (e = cudaMalloc(&d_in, in_bytes)) != cudaSuccess) {
		cuda_call_failed(r, "cudaMalloc", e);
		goto done;
	}
	if ((e = cudaMalloc(&d_out, out_bytes)) != cudaSuccess) {
		cuda_call_failed(r, "cudaMalloc", e);
		goto done;
	}
	if (l->scratch_bytes && ((e = cudaMalloc(&d_scratch, l->scratch_bytes)) != cudaSuccess ||
				 (e = cudaMemset(d_scratch, 0, l->scratch_bytes)) != cudaSuccess)) {
		cuda_call_failed(r, "scratch", e);
		goto done;
	}
	if (in_bytes && (e = cudaMemcpy(d_in, host_in, in_bytes, cudaMemcpyHostToDevice)) != cudaSuccess) {
		cuda_call_failed(r, "copy input", e);
		goto done;
	}
	/* Poison from the host so that an element the kernel never wrote is
	 * told apart from a wrong one. */
	check_poison(l->dtype, host_out, (size_t)l->n_out);
	if ((e = cudaMemcpy(d_out, host_out, out_bytes, cudaMemcpyHostToDevice)) != cudaSuccess) {
		cuda_call_failed(r, "poison output", e);
		goto done;
	}

	l->in = d_in;
	l->out = d_out;
	l->scratch = d_scratch;
	e = launch(l);
	if (e == cudaSuccess)
		e = cudaGetLastError();
	if (e != cudaSuccess) {
		cuda_launch_failed(r, name, e);
		goto done;
	}
	if ((e = cudaDeviceSynchronize()) != cudaSuccess) {
		cuda_kernel_failed(r, e);
		goto done;
	}
	if ((e = cudaMemcpy(host_out, d_out, out_bytes, cudaMemcpyDeviceToHost)) != cudaSuccess) {
		cuda_call_failed(r, "copy output", e);
		goto done;
	}
	rc = 0;
done:
	(void)cudaFree(d_in);
	(void)cudaFree(d_out);
	(void)cudaFree(d_scratch);
	l->in = NULL;
	l->out = NULL;
	l->scratch = NULL;
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
	reference_segments(l->op, l->dtype, acc, l->dtype, src, count, (size_t)l->seg_len, sref, stol);
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

void reduce_run(const struct reduce_spec *s, const struct case_args *a, struct case_result *r)
{
	struct reduce_launch l;
	char msg[RESULT_MESSAGE_MAX];
	void *in = NULL, *out = NULL;
	double *ref = NULL, *tol = NULL;
	size_t esz;

	r->err_norm = -1;
	if (reduce_shape(s, a, &l, msg, sizeof msg) < 0) {
		case_result_set(r, OUTCOME_INVALID, "%s", msg);
		return;
	}
	if (s->configure && s->configure(&l, r) < 0)
		return;

	esz = dtype_size(l.dtype);
	in = malloc((size_t)l.n * esz);
	out = malloc((size_t)l.n_out * esz);
	ref = (double *)malloc((size_t)l.n_out * sizeof *ref);
	tol = (double *)malloc((size_t)l.n_out * sizeof *tol);
	if (!in || !out || !ref || !tol) {
		case_result_set(r, OUTCOME_ERROR, "out of host memory");
		goto done;
	}
	reduce_fill_input(s->input, a->seed, l.dtype, in, (size_t)l.n);

	if (reduce_execute(&l, s->launch, a->variant, in, out, r) < 0)
		goto done;

	if (s->expect) {
		s->expect(&l, in, ref, tol);
	} else if (reduce_reference(&l, s->layout, in, ref, tol) < 0) {
		case_result_set(r, OUTCOME_ERROR, "out of host memory");
		goto done;
	}
	check_values(l.dtype, out, ref, tol, (size_t)l.n_out, r);
done:
	free(in);
	free(out);
	free(ref);
	free(tol);
}

int shape_first_k_lanes(const struct case_args *a, struct reduce_launch *l, char *msg, size_t len)
{
	if (param_int(a, "k", 32, 1, 32, &l->k, msg, len) < 0)
		return -1;
	l->seg_len = l->k;
	l->seg_stride = 32;
	return 0;
}
