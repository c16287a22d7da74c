/*
 * test_rows_op.c - the rows.op family's inputs, references and tolerances
 * (src/rows_op_ref.c).
 *
 * Expected values are worked out by hand.  The last test replays the
 * kernels' f32 arithmetic on the host (32 lanes of sequential updates, then
 * a merge tree) for the suite's offset rows: Welford must land within the
 * variance tolerance and E[x^2] - E[x]^2 far outside it, which is what
 * rows.op.var_naive.offset's expected XFAIL rests on.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "rng.h"
#include "rows_op_ref.h"
#include "test.h"

static void test_shapes(void)
{
	CHECK_INT(rows_ref_outputs(ROWS_OP_WELFORD), 2);
	CHECK_INT(rows_ref_outputs(ROWS_OP_VAR_NAIVE), 2);
	CHECK_INT(rows_ref_outputs(ROWS_OP_LSE), 1);
	CHECK_INT(rows_ref_outputs(ROWS_OP_L2), 1);
	CHECK_INT(rows_ref_outputs(ROWS_OP_ARGMAX), 1);
	CHECK_INT(rows_ref_out_dtype(ROWS_OP_ARGMAX), DTYPE_I32);
	CHECK_INT(rows_ref_out_dtype(ROWS_OP_WELFORD), DTYPE_F32);
	CHECK_NEAR(rows_ref_growth(1), 2.0, 0);
	CHECK_NEAR(rows_ref_growth(4), 5.0, 0);
	CHECK_NEAR(rows_ref_growth(1000), sqrt(1000.0) + 11.0, 1e-12);
}

static void test_moments(void)
{
	/* Two rows: [1 2 3 4] (mean 2.5, variance 5/4) and [7 7 7 7]. */
	const float x[8] = {1, 2, 3, 4, 7, 7, 7, 7};
	double ref[4], tol[4];

	CHECK_INT(rows_ref_compute(ROWS_OP_WELFORD, DTYPE_F32, x, 2, 4, ref, tol), 0);
	CHECK_NEAR(ref[0], 2.5, 0);
	CHECK_NEAR(ref[1], 1.25, 0);
	CHECK_NEAR(ref[2], 7.0, 0);
	CHECK_NEAR(ref[3], 0.0, 0);
	/* mean: 6 u g max|x| with g = 2 + 2 + 1 */
	CHECK_NEAR(tol[0], 6 * 0x1p-24 * 5 * 4 + FLT_MIN, 1e-20);
	CHECK_NEAR(tol[1], 12 * 0x1p-24 * 5 * sqrt(1.25) * 4 + FLT_MIN, 1e-20);
	/* A constant row has no spread, so its variance must be exact-ish. */
	CHECK(tol[3] < 1e-30);

	/* One value: the mean is the value, the variance 0. */
	CHECK_INT(rows_ref_compute(ROWS_OP_VAR_NAIVE, DTYPE_F32, x + 2, 1, 1, ref, tol), 0);
	CHECK_NEAR(ref[0], 3.0, 0);
	CHECK_NEAR(ref[1], 0.0, 0);
}

static void test_lse_l2(void)
{
	const float zeros[2] = {0, 0}, big[2] = {1000, 1000}, one[1] = {-3.5f}, tri[2] = {3, 4};
	double ref, tol;

	CHECK_INT(rows_ref_compute(ROWS_OP_LSE, DTYPE_F32, zeros, 1, 2, &ref, &tol), 0);
	CHECK_NEAR(ref, log(2.0), 1e-15);
	CHECK(tol > 0 && tol < 1e-4);
	/* exp(1000) overflows double: the reference works around the max. */
	CHECK_INT(rows_ref_compute(ROWS_OP_LSE, DTYPE_F32, big, 1, 2, &ref, &tol), 0);
	CHECK_NEAR(ref, 1000 + log(2.0), 1e-12);
	CHECK_INT(rows_ref_compute(ROWS_OP_LSE, DTYPE_F32, one, 1, 1, &ref, &tol), 0);
	CHECK_NEAR(ref, -3.5, 0);
	CHECK_INT(rows_ref_compute(ROWS_OP_L2, DTYPE_F32, tri, 1, 2, &ref, &tol), 0);
	CHECK_NEAR(ref, 5.0, 0);
	CHECK(tol > 0 && tol < 1e-5);
}

static void test_argmax(void)
{
	const float x[4] = {1, 3, 3, 2}, zeros[2] = {-0.0f, 0.0f};
	uint16_t b[4];
	double ref, tol;

	CHECK_INT(rows_ref_compute(ROWS_OP_ARGMAX, DTYPE_F32, x, 1, 4, &ref, &tol), 0);
	CHECK_NEAR(ref, 1, 0);
	CHECK_NEAR(tol, 0, 0);
	/* -0 and +0 tie: the lower index. */
	CHECK_INT(rows_ref_compute(ROWS_OP_ARGMAX, DTYPE_F32, zeros, 1, 2, &ref, &tol), 0);
	CHECK_NEAR(ref, 0, 0);
	for (int i = 0; i < 4; i++)
		b[i] = bf16_from_float(x[3 - i]); /* 2 3 3 1 */
	CHECK_INT(rows_ref_compute(ROWS_OP_ARGMAX, DTYPE_BF16, b, 1, 4, &ref, &tol), 0);
	CHECK_NEAR(ref, 1, 0);
}

static void test_fill(void)
{
	enum { N = 4096 };
	float *f = malloc(N * sizeof *f), *g = malloc(N * sizeof *g);
	uint16_t *h = malloc(N * sizeof *h);
	int bad = 0, top = 0;

	CHECK(f && g && h);
	if (!f || !g || !h)
		goto done;
	rows_ref_fill(ROWS_INPUT_OFFSET, 5, DTYPE_F32, f, N);
	for (int i = 0; i < N; i++)
		bad += !(f[i] >= ROWS_OFFSET - 1 && f[i] <= ROWS_OFFSET + 1);
	CHECK_INT(bad, 0);
	rows_ref_fill(ROWS_INPUT_TIES, 5, DTYPE_F32, f, N);
	rows_ref_fill(ROWS_INPUT_TIES, 5, DTYPE_BF16, h, N);
	for (int i = 0; i < N; i++) {
		const double k = (f[i] * 8 - 1) / 2; /* (2k + 1) / 8, k in -4..3 */
		bad += k != floor(k) || k < -4 || k > 3 || f[i] == 0 || bf16_to_float(h[i]) != f[i];
		top += f[i] == 0.875f;
	}
	CHECK_INT(bad, 0);
	CHECK(top > N / 16); /* the maximum recurs: ties on purpose */
	rows_ref_fill(ROWS_INPUT_UNIFORM, 9, DTYPE_F32, f, N);
	rows_ref_fill(ROWS_INPUT_UNIFORM, 9, DTYPE_F32, g, N);
	CHECK(memcmp(f, g, N * sizeof *f) == 0);
done:
	free(f);
	free(g);
	free(h);
}

/* The kernels' f32 arithmetic, replayed: 32 lanes take columns lane,
 * lane + 32, ..., then a pairwise merge tree. */
struct moments {
	float n, a, b; /* Welford: count, mean, m2; naive: count, sum, sum of squares */
};

static struct moments welford_merge(struct moments x, struct moments y)
{
	if (y.n == 0)
		return x;
	if (x.n == 0)
		return y;
	const float n = x.n + y.n, d = y.a - x.a;
	return (struct moments){n, x.a + d * (y.n / n), x.b + y.b + d * d * (x.n * y.n / n)};
}

static void replay(const float *x, int cols, int welford, double *mean, double *var)
{
	struct moments lane[32] = {{0, 0, 0}};

	for (int c = 0; c < cols; c++) {
		struct moments *s = &lane[c % 32];
		if (welford) {
			s->n += 1;
			const float d = x[c] - s->a;
			s->a += d / s->n;
			s->b += d * (x[c] - s->a);
		} else {
			s->n += 1;
			s->a += x[c];
			s->b += x[c] * x[c];
		}
	}
	for (int o = 16; o > 0; o /= 2)
		for (int l = 0; l < o; l++)
			lane[l] = welford ? welford_merge(lane[l], lane[l + o])
					  : (struct moments){lane[l].n + lane[l + o].n, lane[l].a + lane[l + o].a,
							     lane[l].b + lane[l + o].b};
	if (welford) {
		*mean = lane[0].a;
		*var = lane[0].b / lane[0].n;
	} else {
		const float m = lane[0].a / lane[0].n;
		*mean = m;
		*var = lane[0].b / lane[0].n - m * m;
	}
}

static void test_offset_variance(void)
{
	enum { ROWS = 16, COLS = 1000 };
	float *x = malloc(ROWS * COLS * sizeof *x);
	double ref[2 * ROWS], tol[2 * ROWS];
	int welford_bad = 0, naive_bad = 0, uniform_bad = 0;

	CHECK(x != NULL);
	if (!x)
		return;
	rows_ref_fill(ROWS_INPUT_OFFSET, 77, DTYPE_F32, x, ROWS * COLS);
	CHECK_INT(rows_ref_compute(ROWS_OP_WELFORD, DTYPE_F32, x, ROWS, COLS, ref, tol), 0);
	for (int r = 0; r < ROWS; r++) {
		double mean, var;
		CHECK_NEAR(ref[2 * r + 1], 1.0 / 3, 0.05);
		replay(x + r * COLS, COLS, 1, &mean, &var);
		welford_bad += fabs(mean - ref[2 * r]) > tol[2 * r] || fabs(var - ref[2 * r + 1]) > tol[2 * r + 1];
		replay(x + r * COLS, COLS, 0, &mean, &var);
		naive_bad += fabs(var - ref[2 * r + 1]) > tol[2 * r + 1];
	}
	CHECK_INT(welford_bad, 0);
	CHECK_INT(naive_bad, ROWS);

	/* Rows near zero: the naive form is within the same tolerance. */
	rows_ref_fill(ROWS_INPUT_UNIFORM, 78, DTYPE_F32, x, ROWS * COLS);
	CHECK_INT(rows_ref_compute(ROWS_OP_VAR_NAIVE, DTYPE_F32, x, ROWS, COLS, ref, tol), 0);
	for (int r = 0; r < ROWS; r++) {
		double mean, var;
		replay(x + r * COLS, COLS, 0, &mean, &var);
		uniform_bad += fabs(mean - ref[2 * r]) > tol[2 * r] || fabs(var - ref[2 * r + 1]) > tol[2 * r + 1];
	}
	CHECK_INT(uniform_bad, 0);
	free(x);
}

int main(void)
{
	test_shapes();
	test_moments();
	test_lse_l2();
	test_argmax();
	test_fill();
	test_offset_variance();
	return TEST_END();
}
