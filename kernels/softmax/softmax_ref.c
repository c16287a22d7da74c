/*
 * softmax_ref.c - reference, tolerance and row-sum check of row softmax
 * (see softmax_ref.h for the error model).
 *
 * Everything is in double and reads the input through reference_load, so a
 * bf16 input is judged by the values the kernel reads.  Two passes per
 * row: the maximum, then e^(x - m) with its sum and weighted |d| sum; the
 * outputs and tolerances follow from those.
 */
#include "kernels/softmax/softmax_ref.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "worker/par.h"
#include "worker/reference.h"
#include "worker/tolerance.h"

/* Below f32's smallest normal: what flushing or subnormal rounding loses. */
#define SOFTMAX_ABS_FLOOR 0x1p-125

/* Relative error of the f32 pipeline for an output, less its |d_i| part. */
static double row_relative_error(double a, size_t cols, double u)
{
	return u * (4.0 * a + 12.0 + 18.0 * sqrt((double)cols));
}

/* What softmax_reference computes, for par_for over chunks of rows. */
struct reference_job {
	enum dtype in_dtype, out_dtype;
	const void *in;
	size_t rows, cols, rows_per_chunk;
	double *ref, *tol;
};

/* Rows [lo, hi) of the reference and tolerances. */
static void reference_rows(const struct reference_job *j, size_t lo, size_t hi)
{
	const double u = tolerance_unit_roundoff(DTYPE_F32);
	const double u_out = tolerance_unit_roundoff(j->out_dtype);
	const size_t cols = j->cols;
	double *ref = j->ref, *tol = j->tol;

	for (size_t r = lo; r < hi; r++) {
		const size_t base = r * cols;
		double m = -INFINITY, s = 0.0, wd = 0.0;

		/* tol holds x_i, then |d_i| (-1 for -inf); ref holds e^(d_i). */
		for (size_t i = 0; i < cols; i++) {
			const double x = reference_load(j->in_dtype, j->in, base + i);
			tol[base + i] = x;
			m = x > m ? x : m;
		}
		for (size_t i = 0; i < cols; i++) {
			const double x = tol[base + i], d = x - m;

			if (isinf(x)) {
				ref[base + i] = 0.0;
				tol[base + i] = -1.0;
				continue;
			}
			/* e^d underflows double below -745: skip the call. */
			ref[base + i] = d < -746.0 ? 0.0 : exp(d);
			tol[base + i] = -d;
			s += ref[base + i];
			wd += ref[base + i] * -d;
		}
		const double rel = row_relative_error(wd / s, cols, u);
		for (size_t i = 0; i < cols; i++) {
			const double y = ref[base + i] / s;
			const double ad = tol[base + i];

			ref[base + i] = y;
			/* -inf inputs: exactly 0, bit for bit. */
			tol[base + i] = ad < 0.0 ? 0.0 : y * (u_out + rel + 4.0 * u * ad) + SOFTMAX_ABS_FLOOR;
		}
	}
}

static void reference_chunk(void *ctx, size_t k)
{
	const struct reference_job *j = ctx;
	size_t lo, hi;

	par_chunk_range(k, j->rows_per_chunk, j->rows, &lo, &hi);
	reference_rows(j, lo, hi);
}

/* Rows per chunk of about PAR_CHUNK elements, at least one. */
static size_t rows_per_chunk(size_t cols)
{
	return cols >= PAR_CHUNK ? 1 : PAR_CHUNK / cols;
}

/* Rows are independent: chunks of them in parallel give the same values. */
void softmax_reference(enum dtype in_dtype, enum dtype out_dtype, const void *in, size_t rows,
		       size_t cols, double *ref, double *tol)
{
	struct reference_job j = {in_dtype, out_dtype, in, rows, cols, rows_per_chunk(cols), ref, tol};

	par_for(par_chunks(rows, j.rows_per_chunk), reference_chunk, &j);
}

/* A chunk of rows' part of the row-sum check. */
struct sums_chunk {
	size_t first_bad;  /* the first row that does not sum to 1; SIZE_MAX: none */
	double bad_sum, bad_bound;
	double ratio;      /* the largest |sum - 1| / bound of a finite ratio */
	int nonfinite;     /* some row's ratio was not finite */
};

struct sums_job {
	enum dtype d;
	const void *got;
	const double *tol;
	size_t rows, cols, rows_per_chunk;
	struct sums_chunk *chunks;
};

static void sums_rows(const struct sums_job *j, size_t lo, size_t hi, struct sums_chunk *c)
{
	c->first_bad = SIZE_MAX;
	c->ratio = 0.0;
	c->nonfinite = 0;
	for (size_t row = lo; row < hi; row++) {
		const size_t base = row * j->cols;
		/* The double reference itself sums to 1 within cols * 2^-52. */
		double sum = 0.0, bound = (double)j->cols * 0x1p-50;

		for (size_t i = 0; i < j->cols; i++) {
			sum += reference_load(j->d, j->got, base + i);
			bound += j->tol[base + i];
		}
		double ratio = fabs(sum - 1.0) / bound;
		if (!(ratio <= 1.0) && c->first_bad == SIZE_MAX) {
			c->first_bad = row;
			c->bad_sum = sum;
			c->bad_bound = bound;
		}
		if (!isfinite(ratio))
			c->nonfinite = 1;
		else if (ratio > c->ratio)
			c->ratio = ratio;
	}
}

static void sums_chunk(void *ctx, size_t k)
{
	const struct sums_job *j = ctx;
	size_t lo, hi;

	par_chunk_range(k, j->rows_per_chunk, j->rows, &lo, &hi);
	sums_rows(j, lo, hi, &j->chunks[k]);
}

int softmax_check_row_sums(enum dtype d, const void *got, const double *tol, size_t rows,
			   size_t cols, struct case_result *r)
{
	struct sums_job j = {d, got, tol, rows, cols, rows_per_chunk(cols), NULL};
	size_t nchunks = par_chunks(rows, j.rows_per_chunk);
	struct sums_chunk whole;

	j.chunks = nchunks > 1 ? calloc(nchunks, sizeof *j.chunks) : NULL;
	if (j.chunks) {
		par_for(nchunks, sums_chunk, &j);
	} else {
		/* One chunk, or no memory for a result each: all rows here. */
		sums_rows(&j, 0, rows, &whole);
		j.chunks = &whole;
		nchunks = 1;
	}
	/* Every row is looked at, so err_ratio covers the sums too: a
	 * case's tolerance=K holds for both. */
	int bad = 0;
	for (size_t k = 0; k < nchunks; k++) {
		const struct sums_chunk *c = &j.chunks[k];

		if (c->first_bad != SIZE_MAX && !bad) {
			bad = 1;
			if (r->outcome == OUTCOME_CORRECT)
				case_result_set(r, OUTCOME_WRONG, "row %zu sums to %.9g, not 1 within %.2g",
						c->first_bad, c->bad_sum, c->bad_bound);
		}
		if (c->nonfinite)
			r->tol_checked = 0;
		else if (r->tol_checked && c->ratio > r->err_ratio)
			r->err_ratio = c->ratio;
	}
	if (j.chunks != &whole)
		free(j.chunks);
	if (!r->tol_checked)
		r->err_ratio = -1.0;
	return bad ? -1 : 0;
}
