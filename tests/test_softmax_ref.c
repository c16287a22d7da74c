/*
 * test_softmax_ref.c - the softmax reference, its tolerance, the row-sum
 * check and the softmax inputs.
 *
 * Hand-worked rows first; then the awkward inputs run through host models
 * of the kernels' f32 arithmetic (three passes, and the online (max, sum)
 * merge in rows of one element per step) must pass the tolerance in f32 and
 * bf16, and outputs off by more than the model allows must not.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "kernels/softmax/softmax_input.h"
#include "kernels/softmax/softmax_ref.h"
#include "tests/test.h"
#include "worker/check.h"
#include "worker/par.h"
#include "worker/reference.h"

static void fresh(struct case_result *r)
{
	memset(r, 0, sizeof *r);
	r->err_norm = -1;
}

static void test_hand_rows(void)
{
	/* Rows of 4: equal values; a -inf among zeros; 0 and -30; length 1 is
	 * its own test below. */
	const float in[12] = {1, 1, 1, 1, 0, -INFINITY, 0, 0, 0, -30, -30, -30};
	const double u = 0x1p-24, e30 = exp(-30.0);
	double ref[12], tol[12];

	softmax_reference(DTYPE_F32, DTYPE_F32, in, 3, 4, ref, tol);
	for (int i = 0; i < 4; i++) {
		CHECK_NEAR(ref[i], 0.25, 1e-16);
		/* d = 0 and A = 0: 0.25 (u + u (12 + 18 * 2)) + 2^-125. */
		CHECK_NEAR(tol[i], 0.25 * 49 * u + 0x1p-125, 1e-20);
	}
	CHECK_NEAR(ref[4], 1.0 / 3, 1e-16);
	CHECK(ref[5] == 0.0 && tol[5] == 0.0); /* -inf: exactly 0 */
	CHECK_NEAR(ref[6], 1.0 / 3, 1e-16);
	CHECK_NEAR(ref[8], 1.0 / (1 + 3 * e30), 1e-15);
	CHECK_NEAR(ref[9], e30 / (1 + 3 * e30), 1e-28);
	/* A = 3 * 30 e^-30 / (1 + 3 e^-30); |d| = 30 adds 120 u. */
	{
		const double a = 90 * e30 / (1 + 3 * e30);
		CHECK_NEAR(tol[9], ref[9] * (u + u * (4 * a + 12 + 36) + 120 * u) + 0x1p-125, 1e-30);
	}

	/* bf16 output: half an ulp relative, 2^-8, on top. */
	{
		uint16_t b[4];
		for (int i = 0; i < 4; i++)
			b[i] = bf16_from_float(2.5f);
		softmax_reference(DTYPE_BF16, DTYPE_BF16, b, 1, 4, ref, tol);
		CHECK_NEAR(ref[0], 0.25, 1e-16);
		CHECK_NEAR(tol[0], 0.25 * (0x1p-8 + 48 * u) + 0x1p-125, 1e-15);
	}

	/* A row of length 1 is 1 whatever its value. */
	{
		const float one = -31000.0f;
		softmax_reference(DTYPE_F32, DTYPE_F32, &one, 1, 1, ref, tol);
		CHECK(ref[0] == 1.0);
		CHECK(tol[0] > 0 && tol[0] < 1e-5);
	}
}

static void test_row_sums(void)
{
	const float good[6] = {0.25f, 0.25f, 0.5f, 1.0f / 3, 1.0f / 3, 1.0f / 3};
	float bad[6];
	const double tol[6] = {1e-7, 1e-7, 1e-7, 1e-7, 1e-7, 1e-7};
	struct case_result r;

	fresh(&r);
	CHECK_INT(softmax_check_row_sums(DTYPE_F32, good, tol, 2, 3, &r), 0);
	memcpy(bad, good, sizeof bad);
	bad[4] = 0.34f; /* row 1 sums to 1.0067 */
	fresh(&r);
	CHECK_INT(softmax_check_row_sums(DTYPE_F32, bad, tol, 2, 3, &r), -1);
	CHECK_INT(r.outcome, OUTCOME_WRONG);
	CHECK_CONTAINS(r.message, "row 1 sums to 1.00");
	bad[4] = NAN;
	fresh(&r);
	CHECK_INT(softmax_check_row_sums(DTYPE_F32, bad, tol, 2, 3, &r), -1);
	CHECK_CONTAINS(r.message, "row 1");
}

#define LOG2E 1.44269504088896340736f

/* e^(x - m) as the kernels compute it: exp2f of the scaled difference, and
 * exactly 0 for a -inf entry (whatever m is). */
static float model_exp(float x, float m)
{
	return x == -INFINITY ? 0.0f : exp2f((x - m) * LOG2E);
}

/* Host models of the kernels' f32 arithmetic for one row: three passes, or
 * the online merge taking one element per step. */
static void model_row(const float *x, size_t n, int online, float *y)
{
	float m = -INFINITY, s = 0.0f;

	if (online) {
		for (size_t i = 0; i < n; i++) {
			const float mn = x[i] > m ? x[i] : m;
			s = s * (m == -INFINITY ? 0.0f : exp2f((m - mn) * LOG2E)) + model_exp(x[i], mn);
			m = mn;
		}
	} else {
		for (size_t i = 0; i < n; i++)
			m = x[i] > m ? x[i] : m;
		for (size_t i = 0; i < n; i++)
			s += model_exp(x[i], m);
	}
	const float inv = 1.0f / s;
	for (size_t i = 0; i < n; i++)
		y[i] = model_exp(x[i], m) * inv;
}

/* The awkward inputs through the models pass; a 2^-7 relative error on
 * one output of each of the first rows does not. */
static void test_models(enum dtype d, size_t rows, size_t cols, int online)
{
	const size_t n = rows * cols;
	void *in = malloc(n * 4), *out = malloc(n * 4);
	float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
	double *ref = malloc(n * sizeof *ref), *tol = malloc(n * sizeof *tol);
	struct case_result r;
	size_t neg_inf = 0;

	softmax_input_fill(7, d, in, rows, cols, 0);
	for (size_t i = 0; i < n; i++) {
		x[i] = (float)reference_load(d, in, i);
		neg_inf += x[i] == -INFINITY;
		CHECK(!isnan(x[i]) && x[i] < 32000 && (x[i] > -32000 || x[i] == -INFINITY));
	}
	CHECK(neg_inf > 0 || cols == 1);
	for (size_t row = 0; row < rows; row++)
		model_row(x + row * cols, cols, online, y + row * cols);
	for (size_t i = 0; i < n; i++) {
		if (d == DTYPE_BF16)
			((uint16_t *)out)[i] = bf16_from_float(y[i]);
		else
			((float *)out)[i] = y[i];
	}
	softmax_reference(d, d, in, rows, cols, ref, tol);
	fresh(&r);
	check_values(d, out, ref, tol, n, &r);
	CHECK_INT(r.outcome, OUTCOME_CORRECT);
	if (r.outcome != OUTCOME_CORRECT)
		fprintf(stderr, "  %s %zux%zu online=%d: %s\n", dtype_name(d), rows, cols, online, r.message);
	fresh(&r);
	CHECK_INT(softmax_check_row_sums(d, out, tol, rows, cols, &r), 0);

	/* Off by 2^-7 relative (an ulp of bf16 at 1) in the row's largest output. */
	for (size_t row = 0; row < 4 && row < rows; row++) {
		size_t top = row * cols;
		for (size_t i = row * cols; i < (row + 1) * cols; i++)
			top = ref[i] > ref[top] ? i : top;
		if (d == DTYPE_BF16)
			((uint16_t *)out)[top] = bf16_from_float((float)(ref[top] * (1 + 0x1p-6)));
		else
			((float *)out)[top] = (float)(ref[top] * (1 + 0x1p-7));
		fresh(&r);
		check_values(d, out, ref, tol, n, &r);
		CHECK_INT(r.outcome, OUTCOME_WRONG);
		if (d == DTYPE_BF16)
			((uint16_t *)out)[top] = bf16_from_float(y[top]);
		else
			((float *)out)[top] = y[top];
	}
	/* A -inf entry's output must be exactly 0. */
	for (size_t i = 0; i < n; i++) {
		if (x[i] != -INFINITY)
			continue;
		if (d == DTYPE_BF16)
			((uint16_t *)out)[i] = 0x0001; /* the smallest bf16 subnormal */
		else
			((float *)out)[i] = FLT_TRUE_MIN;
		fresh(&r);
		check_values(d, out, ref, tol, n, &r);
		CHECK_INT(r.outcome, OUTCOME_WRONG);
		break;
	}
	free(in);
	free(out);
	free(x);
	free(y);
	free(ref);
	free(tol);
}

static void test_input(void)
{
	enum { ROWS = 16, COLS = 64 };
	float a[ROWS * COLS], b[ROWS * COLS];
	uint16_t h[ROWS * COLS];
	int finite = 1;

	softmax_input_fill(42, DTYPE_F32, a, ROWS, COLS, 0);
	softmax_input_fill(42, DTYPE_F32, b, ROWS, COLS, 0);
	CHECK(memcmp(a, b, sizeof a) == 0);
	softmax_input_fill(43, DTYPE_F32, b, ROWS, COLS, 0);
	CHECK(memcmp(a, b, sizeof a) != 0);

	/* Row 1: all equal; row 2: one entry of 30, the rest in [-1, 1);
	 * row 3: -inf entries and at least one finite; row 4: within [-8, 8). */
	int equal = 1, thirty = 0, small = 1, neg_inf = 0, finite3 = 0, wide = 1;
	for (int i = 0; i < COLS; i++) {
		equal &= a[COLS + i] == a[COLS];
		thirty += a[2 * COLS + i] == 30.0f;
		small &= a[2 * COLS + i] == 30.0f || fabsf(a[2 * COLS + i]) <= 1.0f;
		neg_inf += a[3 * COLS + i] == -INFINITY;
		finite3 += isfinite(a[3 * COLS + i]);
		wide &= fabsf(a[4 * COLS + i]) <= 8.0f;
	}
	CHECK(equal && thirty == 1 && small && neg_inf > 0 && finite3 > 0 && wide);

	softmax_input_fill(42, DTYPE_F32, b, ROWS, COLS, 1);
	for (int i = 0; i < ROWS * COLS; i++)
		finite &= isfinite(b[i]);
	CHECK(finite);

	/* bf16 full range: strictly inside (-32000, 32000) after rounding. */
	softmax_input_fill(42, DTYPE_BF16, h, ROWS, COLS, 1);
	finite = 1;
	for (int i = 0; i < ROWS * COLS; i++)
		finite &= fabsf(bf16_to_float(h[i])) < 32000.0f;
	CHECK(finite);
}

/*
 * Large inputs are drawn in blocks of rows on every processor: row r
 * depends on the seed, cols and r alone, so fewer rows are a prefix of
 * more, across several blocks; the blocks' streams differ; and the rows
 * keep their kinds in every block.
 */
static void test_input_blocks(void)
{
	const size_t cols = 1000, rows = 5 * (RNG_BLOCK / cols) + 10, n = rows * cols;
	const size_t fewer = 2 * (RNG_BLOCK / cols) + 1;
	float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);

	softmax_input_fill(42, DTYPE_F32, a, rows, cols, 0);
	softmax_input_fill(42, DTYPE_F32, b, fewer, cols, 0);
	CHECK(memcmp(a, b, fewer * cols * sizeof *a) == 0);
	/* A random row (kind 4) of the first block and one of the second
	 * differ: each block has its own stream. */
	size_t second = RNG_BLOCK / cols + 8;
	while (second % 8 != 4)
		second++;
	CHECK(memcmp(a + 4 * cols, a + second * cols, cols * sizeof *a) != 0);
	/* The last all-equal row (kind 1) lies in the last block, and is one. */
	size_t last = rows - 1;
	while (last % 8 != 1)
		last--;
	CHECK(last >= 5 * (RNG_BLOCK / cols));
	int equal = 1;
	for (size_t i = 0; i < cols; i++)
		equal &= a[last * cols + i] == a[last * cols];
	CHECK(equal);
	free(a);
	free(b);
}

/*
 * Rows over several chunks (par.h) are computed and checked in parallel:
 * every row's reference and tolerance must equal the row's on its own, and
 * the row-sum check must name the first bad row of the whole output and
 * raise err_ratio to the largest of every chunk.
 */
static void test_chunked_rows(void)
{
	const size_t cols = 100, rows = 3 * PAR_CHUNK / cols + 7, n = rows * cols;
	float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
	double *ref = malloc(n * sizeof *ref), *tol = malloc(n * sizeof *tol);
	double one_ref[100], one_tol[100];
	struct case_result r;
	int same = 1;

	CHECK(in && out && ref && tol);
	if (!in || !out || !ref || !tol)
		return;
	softmax_input_fill(7, DTYPE_F32, in, rows, cols, 0);
	softmax_reference(DTYPE_F32, DTYPE_F32, in, rows, cols, ref, tol);
	for (size_t row = 0; row < rows; row += 97) {
		softmax_reference(DTYPE_F32, DTYPE_F32, in + row * cols, 1, cols, one_ref, one_tol);
		same &= memcmp(one_ref, ref + row * cols, sizeof one_ref) == 0 &&
			memcmp(one_tol, tol + row * cols, sizeof one_tol) == 0;
	}
	CHECK(same);
	for (size_t i = 0; i < n; i++)
		out[i] = (float)ref[i];
	fresh(&r);
	r.outcome = OUTCOME_CORRECT;
	r.tol_checked = 1;
	r.err_ratio = 0;
	CHECK_INT(softmax_check_row_sums(DTYPE_F32, out, tol, rows, cols, &r), 0);
	CHECK_INT(r.outcome, OUTCOME_CORRECT);
	CHECK(r.err_ratio >= 0.0 && r.err_ratio < 1.0);

	/* Bad rows in the last chunk and the second: the second's is named. */
	const size_t late = rows - 1, early = PAR_CHUNK / cols + 3;
	out[late * cols] += 0.5f;
	out[early * cols] += 0.25f;
	fresh(&r);
	r.outcome = OUTCOME_CORRECT;
	r.tol_checked = 1;
	r.err_ratio = 0;
	CHECK_INT(softmax_check_row_sums(DTYPE_F32, out, tol, rows, cols, &r), -1);
	CHECK_INT(r.outcome, OUTCOME_WRONG);
	char want[48];
	snprintf(want, sizeof want, "row %zu sums to 1.25", early);
	CHECK_CONTAINS(r.message, want);
	/* The late row is off by more: its ratio is the one kept. */
	double bound = (double)cols * 0x1p-50;
	for (size_t i = 0; i < cols; i++)
		bound += tol[late * cols + i];
	CHECK_NEAR(r.err_ratio, fabs((double)out[late * cols] - ref[late * cols]) / bound,
		   1e-3 * r.err_ratio);
	free(in);
	free(out);
	free(ref);
	free(tol);
}

int main(void)
{
	test_hand_rows();
	test_row_sums();
	test_chunked_rows();
	test_input();
	test_input_blocks();
	test_models(DTYPE_F32, 64, 1024, 0);
	test_models(DTYPE_F32, 64, 1024, 1);
	test_models(DTYPE_BF16, 64, 128, 0);
	test_models(DTYPE_BF16, 64, 128, 1);
	test_models(DTYPE_F32, 16, 1, 1);
	test_models(DTYPE_F32, 24, 7, 0);
	return TEST_END();
}
