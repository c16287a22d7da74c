/*
 * test_check.c - the output checks: values against a reference and its
 * tolerance, integers exactly, poison and unwritten outputs, the first
 * non-finite value, and their messages (worker/check.h).
 *
 * Expected values are worked out by hand (or are published test vectors),
 * never recomputed with the code under test.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/dtype.h"
#include "common/rng.h"
#include "tests/result_fixture.h"
#include "tests/test.h"
#include "worker/check.h"
#include "worker/par.h"
#include "worker/reference.h"

static void test_check_values(void)
{
	struct case_result r;

	/* Within the tolerance and just outside it. */
	double ref1 = 1.0, tol1 = 1e-6, g;
	g = 1.0 + 0.9e-6;
	fresh(&r);
	check_values(DTYPE_F64, &g, &ref1, &tol1, 1, &r);
	CHECK_INT(r.outcome, OUTCOME_CORRECT);
	CHECK_NEAR(r.err_norm, 0.9e-6, 1e-12);
	g = 1.0 + 1.1e-6;
	fresh(&r);
	check_values(DTYPE_F64, &g, &ref1, &tol1, 1, &r);
	CHECK_INT(r.outcome, OUTCOME_WRONG);
	CHECK_CONTAINS(r.message, "1 of 1 outputs wrong: [0] got 1.0000011");
	CHECK_CONTAINS(r.message, "want 1 (tol 1e-06)");
	CHECK_CONTAINS(r.message, "max |err|/tol 1.1");
	/* The ratio a case's tolerance=K is compared with. */
	CHECK_INT(r.tol_checked, 1);
	CHECK_NEAR(r.err_ratio, 1.1, 1e-6);
	g = 1.0 + 0.5e-6;
	fresh(&r);
	check_values(DTYPE_F64, &g, &ref1, &tol1, 1, &r);
	CHECK_INT(r.tol_checked, 1);
	CHECK_NEAR(r.err_ratio, 0.5, 1e-6);

	float gf = 1.0009f;
	double reff = 1.0, tolf = 1e-3;
	fresh(&r);
	check_values(DTYPE_F32, &gf, &reff, &tolf, 1, &r);
	CHECK_INT(r.outcome, OUTCOME_CORRECT);
	gf = 1.0011f;
	fresh(&r);
	check_values(DTYPE_F32, &gf, &reff, &tolf, 1, &r);
	CHECK_INT(r.outcome, OUTCOME_WRONG);

	/* NaN never passes, whatever the tolerance or the reference. */
	float nanv = NAN;
	double inf = INFINITY, nanref = NAN;
	fresh(&r);
	check_values(DTYPE_F32, &nanv, &reff, &inf, 1, &r);
	CHECK_INT(r.outcome, OUTCOME_WRONG);
	fresh(&r);
	check_values(DTYPE_F32, &nanv, &nanref, NULL, 1, &r);
	CHECK_INT(r.outcome, OUTCOME_WRONG);
	fresh(&r);
	check_values(DTYPE_F32, &nanv, &nanref, &inf, 1, &r);
	CHECK_INT(r.outcome, OUTCOME_WRONG);
	/* A NaN has no ratio, so no tolerance=K can accept it. */
	CHECK_INT(r.tol_checked, 0);
	/* Nor an integer, which has no tolerance. */
	int gi = 3, wi = 4;
	fresh(&r);
	check_ints(&gi, &wi, 1, &r);
	CHECK_INT(r.tol_checked, 0);

	/* Infinities equal only the same infinity. */
	float pinf = INFINITY, big = 1e30f;
	double one = 1.0, ninf = -INFINITY;
	fresh(&r);
	check_values(DTYPE_F32, &pinf, &inf, &one, 1, &r);
	CHECK_INT(r.outcome, OUTCOME_CORRECT);
	fresh(&r);
	check_values(DTYPE_F32, &pinf, &ninf, &one, 1, &r);
	CHECK_INT(r.outcome, OUTCOME_WRONG);
	fresh(&r);
	check_values(DTYPE_F32, &big, &inf, &inf, 1, &r);
	CHECK_INT(r.outcome, OUTCOME_WRONG);

	/* Zero tolerance is bit-exact: the sign of zero counts. */
	float zneg = -0.0f, zpos = 0.0f;
	double rz = 0.0, zero = 0.0;
	fresh(&r);
	check_values(DTYPE_F32, &zpos, &rz, &zero, 1, &r);
	CHECK_INT(r.outcome, OUTCOME_CORRECT);
	fresh(&r);
	check_values(DTYPE_F32, &zneg, &rz, &zero, 1, &r);
	CHECK_INT(r.outcome, OUTCOME_WRONG);
	CHECK_CONTAINS(r.message, "[0] got -0 want 0 (exact)");
	fresh(&r);
	check_values(DTYPE_F32, &zneg, &rz, NULL, 1, &r);
	CHECK_INT(r.outcome, OUTCOME_WRONG);
	double rn = -0.0;
	fresh(&r);
	check_values(DTYPE_F32, &zneg, &rn, NULL, 1, &r);
	CHECK_INT(r.outcome, OUTCOME_CORRECT);
	/* ... and compares at the output's precision. */
	float third = (float)(1.0 / 3.0);
	double rthird = 1.0 / 3.0;
	fresh(&r);
	check_values(DTYPE_F32, &third, &rthird, NULL, 1, &r);
	CHECK_INT(r.outcome, OUTCOME_CORRECT);
	float off = nextafterf(third, 1.0f);
	fresh(&r);
	check_values(DTYPE_F32, &off, &rthird, NULL, 1, &r);
	CHECK_INT(r.outcome, OUTCOME_WRONG);

	/* bf16 exact: against the reference rounded to bf16. */
	uint16_t hb[2] = { 0x3F80, 0x3F81 };
	double rb[2] = { 1.00390625, 1.00390625 };
	fresh(&r);
	check_values(DTYPE_BF16, hb, rb, NULL, 1, &r);
	CHECK_INT(r.outcome, OUTCOME_CORRECT);
	fresh(&r);
	check_values(DTYPE_BF16, hb, rb, NULL, 2, &r);
	CHECK_INT(r.outcome, OUTCOME_WRONG);
	CHECK_CONTAINS(r.message, "1 of 2 outputs wrong: [1] got 1.0078125 want 1.00390625 (exact)");

	/* Integer outputs are exact whatever tol says. */
	int32_t iv[2] = { 5, -7 };
	double ri[2] = { 5, -6 }, ti[2] = { 10, 10 };
	fresh(&r);
	check_values(DTYPE_I32, iv, ri, ti, 2, &r);
	CHECK_INT(r.outcome, OUTCOME_WRONG);
	CHECK_CONTAINS(r.message, "[1] got -7 want -6;");
	uint32_t uv = 4294967295u;
	double ru = 4294967295.0;
	fresh(&r);
	check_values(DTYPE_U32, &uv, &ru, NULL, 1, &r);
	CHECK_INT(r.outcome, OUTCOME_CORRECT);
}

static void test_check_messages(void)
{
	struct case_result r;

	/* Unwritten elements are found by their poison bits. */
	double got[4];
	check_poison(DTYPE_F64, got, 4);
	got[0] = 1.0, got[1] = 2.5, got[3] = 4.0;
	const double ref[4] = { 1, 2, 3, 4 }, tol[4] = { 0.1, 0.1, 0.1, 0.1 };
	fresh(&r);
	check_values(DTYPE_F64, got, ref, tol, 4, &r);
	CHECK_INT(r.outcome, OUTCOME_WRONG);
	CHECK_STR(r.message, "2 of 4 outputs wrong (1 never written: still conform's poison): [1] got 2.5 want 2 (tol 0.1); "
		  "[2] got nan (unwritten); max |err|/tol 5; rel-L2 1.1e-01");
	CHECK_NEAR(r.err_norm, sqrt(0.25 / 21.0), 1e-15);

	/* A genuine NaN is wrong but not unwritten. */
	float f[2];
	check_poison(DTYPE_F32, f, 2);
	uint32_t pb;
	memcpy(&pb, &f[0], sizeof pb);
	CHECK(pb == 0x7FBADBADu);
	f[0] = NAN;
	const double fr[2] = { 0, 0 };
	fresh(&r);
	check_values(DTYPE_F32, f, fr, NULL, 2, &r);
	CHECK_CONTAINS(r.message, "2 of 2 outputs wrong (1 never written: still conform's poison): [0] got nan want 0 (exact); [1] got nan (unwritten)");
	CHECK(r.err_norm == -1); /* nothing finite to measure */

	uint16_t hb[3];
	check_poison(DTYPE_BF16, hb, 3);
	CHECK(hb[2] == 0x7FBA);
	hb[0] = 0x3F80, hb[1] = 0x4000;
	const double br[3] = { 1, 2, 2 };
	fresh(&r);
	check_values(DTYPE_BF16, hb, br, NULL, 3, &r);
	CHECK_STR(r.message, "1 of 3 outputs wrong (1 never written: still conform's poison): [2] got nan (unwritten); rel-L2 0.0e+00");
	uint64_t pd;
	check_poison(DTYPE_F64, &pd, 1);
	CHECK(pd == 0x7FF8BADBADBADBADull);

	/* Many mismatches: five listed, the rest counted, one bounded line. */
	enum { N = 300 };
	float many[N];
	double mr[N], mt[N];
	for (int i = 0; i < N; i++) {
		many[i] = (float)i + 0.5f;
		mr[i] = i;
		mt[i] = 1e-300;
	}
	many[0] = 0.0f; /* one right */
	fresh(&r);
	check_values(DTYPE_F32, many, mr, mt, N, &r);
	CHECK_INT(r.outcome, OUTCOME_WRONG);
	CHECK_CONTAINS(r.message, "299 of 300 outputs wrong: [1] got 1.5 want 1 (tol 1e-300); ");
	CHECK_CONTAINS(r.message, "[5] got 5.5 want 5 (tol 1e-300); ...; max |err|/tol 5e+299; rel-L2 ");
	CHECK(!strstr(r.message, "[6]"));
	CHECK(!strchr(r.message, '\n'));
	CHECK(strlen(r.message) < RESULT_MESSAGE_MAX);

	/* err_norm: relative, or absolute against an all-zero reference. */
	double g2[2] = { 1, 2 }, r2[2] = { 1, 2.5 }, t2[2] = { 1, 1 };
	fresh(&r);
	check_values(DTYPE_F64, g2, r2, t2, 2, &r);
	CHECK_INT(r.outcome, OUTCOME_CORRECT);
	CHECK_NEAR(r.err_norm, sqrt(0.25 / 7.25), 1e-15);
	double z2[2] = { 0, 0 };
	fresh(&r);
	check_values(DTYPE_F64, z2, z2, t2, 2, &r);
	CHECK(r.err_norm == 0.0);

	/* check_ints */
	int gi[4], wi[4] = { 3, 1, 4, 1 };
	check_poison(DTYPE_I32, gi, 4);
	gi[0] = 3, gi[1] = 1, gi[2] = 5;
	fresh(&r);
	check_ints(gi, wi, 4, &r);
	CHECK_INT(r.outcome, OUTCOME_WRONG);
	CHECK_STR(r.message, "2 of 4 outputs wrong (1 never written: still conform's poison): [2] got 5 want 4; "
		  "[3] got 2142952365 (unwritten); rel-L2 2.0e-01");
	gi[2] = 4, gi[3] = 1;
	fresh(&r);
	check_ints(gi, wi, 4, &r);
	CHECK_INT(r.outcome, OUTCOME_CORRECT);
	CHECK(r.err_norm == 0.0);
}

/* Outputs a kernel must leave alone: CHECK_UNWRITTEN passes only the
 * poison, whatever the type, and stays out of the error norm. */
static void test_check_unwritten(void)
{
	struct case_result r;
	int gi[3];
	const double ir[3] = { 7, 0, 0 }, it[3] = { 0, CHECK_UNWRITTEN, CHECK_UNWRITTEN };

	check_poison(DTYPE_I32, gi, 3);
	gi[0] = 7;
	fresh(&r);
	check_values(DTYPE_I32, gi, ir, it, 3, &r);
	CHECK_INT(r.outcome, OUTCOME_CORRECT);
	CHECK(r.err_norm == 0.0);
	gi[2] = 0;
	fresh(&r);
	check_values(DTYPE_I32, gi, ir, it, 3, &r);
	CHECK_INT(r.outcome, OUTCOME_WRONG);
	CHECK_STR(r.message, "1 of 3 outputs wrong: [2] got 0 (want unwritten); rel-L2 0.0e+00");

	float f[2];
	const double fr[2] = { 0.5, 0 }, ft[2] = { 1e-6, CHECK_UNWRITTEN };
	check_poison(DTYPE_F32, f, 2);
	f[0] = 0.5f;
	fresh(&r);
	check_values(DTYPE_F32, f, fr, ft, 2, &r);
	CHECK_INT(r.outcome, OUTCOME_CORRECT);
	f[1] = NAN; /* a genuine NaN is a write */
	fresh(&r);
	check_values(DTYPE_F32, f, fr, ft, 2, &r);
	CHECK_CONTAINS(r.message, "1 of 2 outputs wrong: [1] got nan (want unwritten)");
}

/* Every output left holding the poison: the kernel stored nothing, which
 * is said first, before the count. */
static void test_check_never_written(void)
{
	struct case_result r;
	float f[3];
	const double fr[3] = { 1, 2, 3 }, ft[3] = { 1e-3, 1e-3, 1e-3 };
	check_poison(DTYPE_F32, f, 3);
	fresh(&r);
	check_values(DTYPE_F32, f, fr, ft, 3, &r);
	CHECK_INT(r.outcome, OUTCOME_WRONG);
	CHECK_STR(r.message, "never written: every output still holds conform's poison; 3 of 3 outputs wrong: "
		  "[0] got nan (unwritten); [1] got nan (unwritten); [2] got nan (unwritten)");
	CHECK(r.err_norm == -1); /* nothing written to measure */
	CHECK_INT(r.tol_checked, 0);

	/* Integers too, the list cut after five. */
	int gi[7];
	const double ir[7] = { 1, 2, 3, 4, 5, 6, 7 };
	check_poison(DTYPE_I32, gi, 7);
	fresh(&r);
	check_values(DTYPE_I32, gi, ir, NULL, 7, &r);
	CHECK_STR(r.message, "never written: every output still holds conform's poison; 7 of 7 outputs wrong: "
		  "[0] got 2142952365 (unwritten); [1] got 2142952365 (unwritten); [2] got 2142952365 "
		  "(unwritten); [3] got 2142952365 (unwritten); [4] got 2142952365 (unwritten); ...");

	/* One written, right or not, and the lead is not said. */
	gi[6] = 7;
	fresh(&r);
	check_values(DTYPE_I32, gi, ir, NULL, 7, &r);
	CHECK(strncmp(r.message, "6 of 7 outputs wrong (6 never written: still conform's poison): [0] got ", 72) == 0);
	CHECK(strstr(r.message, "never written: every") == NULL);
}

/* check_first_nonfinite: a NaN or an infinity the kernel wrote where the
 * reference is finite; not the poison (a NaN that was never written), not
 * a NaN the reference has too. */
static void test_check_first_nonfinite(void)
{
	float f[5];
	const double fr[5] = { 1, 2, NAN, 4, 5 };
	check_poison(DTYPE_F32, f, 5);
	f[0] = 1.0f;            /* right */
	/* f[1] still the poison, a NaN by its bits */
	f[2] = NAN;             /* NaN where the reference is NaN */
	f[3] = NAN;             /* the one */
	f[4] = NAN;
	CHECK(isnan(f[1]));
	CHECK_INT(check_first_nonfinite(DTYPE_F32, f, fr, 5), 3);
	CHECK_INT(check_first_nonfinite(DTYPE_F32, f, fr, 3), -1); /* before it */
	check_poison(DTYPE_F32, f, 5);
	CHECK_INT(check_first_nonfinite(DTYPE_F32, f, fr, 5), -1); /* all poison */
	CHECK_INT(check_first_nonfinite(DTYPE_F32, f, fr, 0), -1);

	/* Infinities of either sign, and the reference's own. */
	f[0] = 1.0f, f[1] = INFINITY, f[3] = -INFINITY;
	CHECK_INT(check_first_nonfinite(DTYPE_F32, f, fr, 5), 1);
	const double finf[2] = { INFINITY, 0.5 };
	float g[2] = { INFINITY, -INFINITY };
	CHECK_INT(check_first_nonfinite(DTYPE_F32, g, finf, 2), 1);

	/* f64 and bf16, their poison passed over. */
	double d[3];
	const double dr[3] = { 0, 0, 0 };
	check_poison(DTYPE_F64, d, 3);
	d[2] = NAN;
	CHECK_INT(check_first_nonfinite(DTYPE_F64, d, dr, 3), 2);
	uint16_t h[3];
	check_poison(DTYPE_BF16, h, 3);
	h[1] = 0x7FC0; /* bf16 NaN */
	CHECK_INT(check_first_nonfinite(DTYPE_BF16, h, dr, 3), 1);
	h[0] = 0xFF80; /* bf16 -inf */
	CHECK_INT(check_first_nonfinite(DTYPE_BF16, h, dr, 3), 0);

	/* An integer type has no NaN: -1, whatever its bits. */
	uint32_t u[2] = { 0x7FC00000u, 0x7F800000u };
	CHECK_INT(check_first_nonfinite(DTYPE_I32, u, dr, 2), -1);
	CHECK_INT(check_first_nonfinite(DTYPE_U32, u, dr, 2), -1);
}

/* check_note_nonfinite: a NaN or infinity from inputs that are all finite
 * is the kernel's, and put before the message; one that an input explains
 * is left unsaid. */
static void test_check_note_nonfinite(void)
{
	struct case_result r;
	float out[3] = { 1.0f, 2.0f, NAN };
	float in[9] = { 9, 9, 9, 9, 0.5f, -1.0f, 2.25f, 0.0f, 7 };

	fresh(&r);
	r.outcome = OUTCOME_WRONG;
	snprintf(r.message, sizeof r.message, "1 of 3 outputs wrong");
	CHECK_INT(check_note_nonfinite(&r, DTYPE_F32, out, 2, "row", 3, DTYPE_F32, in, 4, 4), 1);
	CHECK_STR(r.message, "NaN from finite inputs: output [2] got nan where row 3's 4 inputs are all finite, "
		  "in [-1, 2.25] (first: 0.5, -1, 2.25, 0): 1 of 3 outputs wrong");
	CHECK_INT(r.outcome, OUTCOME_WRONG); /* left alone */

	/* No unit: the only output, of all the inputs; past four "...". */
	out[0] = INFINITY;
	fresh(&r);
	snprintf(r.message, sizeof r.message, "wrong");
	CHECK_INT(check_note_nonfinite(&r, DTYPE_F32, out, 0, NULL, 0, DTYPE_F32, in, 4, 5), 1);
	CHECK_STR(r.message, "infinity from finite inputs: output [0] got inf where all 5 inputs are finite, "
		  "in [-1, 7] (first: 0.5, -1, 2.25, 0, ...): wrong");
	out[0] = -INFINITY;
	fresh(&r);
	CHECK_INT(check_note_nonfinite(&r, DTYPE_F32, out, 0, "segment", 0, DTYPE_F32, in, 8, 1), 1);
	CHECK_STR(r.message, "infinity from finite inputs: output [0] got -inf where segment 0's 1 inputs are "
		  "all finite, in [7, 7] (first: 7)"); /* an empty message gets no ": " */

	/* Integer inputs, an f64 output. */
	int32_t iv[3] = { -3, 5, 2 };
	double dout[1] = { NAN };
	fresh(&r);
	CHECK_INT(check_note_nonfinite(&r, DTYPE_F64, dout, 0, "row", 0, DTYPE_I32, iv, 0, 3), 1);
	CHECK_STR(r.message, "NaN from finite inputs: output [0] got nan where row 0's 3 inputs are all finite, "
		  "in [-3, 5] (first: -3, 5, 2)");

	/* One input inf or NaN: the output's NaN may be its; nothing said. */
	in[6] = INFINITY;
	fresh(&r);
	snprintf(r.message, sizeof r.message, "1 of 3 outputs wrong");
	CHECK_INT(check_note_nonfinite(&r, DTYPE_F32, out, 2, "row", 3, DTYPE_F32, in, 4, 4), 0);
	CHECK_STR(r.message, "1 of 3 outputs wrong");
	in[6] = 2.25f, in[7] = NAN;
	CHECK_INT(check_note_nonfinite(&r, DTYPE_F32, out, 2, "row", 3, DTYPE_F32, in, 4, 4), 0);
	CHECK_STR(r.message, "1 of 3 outputs wrong");
	CHECK_INT(check_note_nonfinite(&r, DTYPE_F32, out, 2, NULL, 0, DTYPE_F32, in, 4, 3), 1); /* up to the NaN */
	CHECK_STR(r.message, "NaN from finite inputs: output [2] got nan where all 3 inputs are finite, in [-1, "
		  "2.25] (first: 0.5, -1, 2.25): 1 of 3 outputs wrong");
}

/* A full pass: random inputs, reference, a simulated f32 kernel summing
 * sequentially, and the check accepting it. */
static void test_end_to_end(void)
{
	enum { N = 100003, SEG = 1000, NSEG = (N + SEG - 1) / SEG };
	static float in[N];
	float out[NSEG];
	double ref[NSEG], tol[NSEG];
	struct rng r;
	struct case_result res;

	rng_init(&r, rng_case_seed(1, "e2e"));
	rng_fill(&r, DTYPE_F32, in, N);
	reference_segments(OP_SUM, DTYPE_F32, DTYPE_F32, DTYPE_F32, in, N, SEG, ref, tol);
	check_poison(DTYPE_F32, out, NSEG);
	for (int s = 0; s < NSEG; s++) {
		float acc = 0.0f;
		for (int i = s * SEG; i < N && i < (s + 1) * SEG; i++)
			acc += in[i];
		out[s] = acc;
	}
	fresh(&res);
	check_values(DTYPE_F32, out, ref, tol, NSEG, &res);
	CHECK_INT(res.outcome, OUTCOME_CORRECT);
	CHECK(res.err_norm > 0 && res.err_norm < 1e-5);

	/* A kernel that drops the last element of each segment is caught. */
	for (int s = 0; s < NSEG; s++)
		out[s] -= in[s * SEG + (s == NSEG - 1 ? (N - 1) % SEG : SEG - 1)];
	fresh(&res);
	check_values(DTYPE_F32, out, ref, tol, NSEG, &res);
	CHECK_INT(res.outcome, OUTCOME_WRONG);
}

/*
 * An output of several PAR_CHUNKs is checked in parallel chunks (par.h):
 * the counts, the worst ratio and the five mistakes listed must be those of
 * the whole output in index order, whichever chunk finished first.
 */
static void test_check_chunked(void)
{
	const size_t n = 3 * PAR_CHUNK + 17;
	float *got = malloc(n * sizeof *got);
	double *ref = malloc(n * sizeof *ref), *tol = malloc(n * sizeof *tol);
	struct case_result r;

	CHECK(got && ref && tol);
	if (!got || !ref || !tol)
		return;
	for (size_t i = 0; i < n; i++) {
		ref[i] = (double)(i % 1000) / 1000.0;
		tol[i] = 1e-3;
		got[i] = (float)ref[i];
	}
	fresh(&r);
	check_values(DTYPE_F32, got, ref, tol, n, &r);
	CHECK_INT(r.outcome, OUTCOME_CORRECT);
	CHECK_INT(r.tol_checked, 1);
	CHECK(r.err_ratio >= 0.0 && r.err_ratio < 1e-3);

	/* Mistakes in every chunk, the last (short) one included, planted
	 * out of order; one unwritten; the worst (ratio 9) in chunk 1. */
	const size_t bad[] = {2 * PAR_CHUNK + 5, 3 * PAR_CHUNK + 16, 7, PAR_CHUNK + 1,
			      PAR_CHUNK + 2, 2 * PAR_CHUNK + 9, PAR_CHUNK + 3};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
		got[bad[k]] = (float)(ref[bad[k]] + 2e-3);
	got[PAR_CHUNK + 2] = (float)(ref[PAR_CHUNK + 2] + 9e-3);
	check_poison(DTYPE_F32, got + 2 * PAR_CHUNK + 9, 1);
	fresh(&r);
	check_values(DTYPE_F32, got, ref, tol, n, &r);
	CHECK_INT(r.outcome, OUTCOME_WRONG);
	CHECK_CONTAINS(r.message, "7 of 786449 outputs wrong (1 never written: still conform's poison): [7] got ");
	char want[64];
	snprintf(want, sizeof want, "; [%zu] got ", (size_t)PAR_CHUNK + 1);
	CHECK_CONTAINS(r.message, want);
	/* The fifth listed is chunk 2's first; the unwritten one is sixth. */
	snprintf(want, sizeof want, "; [%zu] got ", (size_t)2 * PAR_CHUNK + 5);
	CHECK_CONTAINS(r.message, want);
	snprintf(want, sizeof want, "[%zu]", (size_t)2 * PAR_CHUNK + 9);
	CHECK(strstr(r.message, want) == NULL);
	CHECK_CONTAINS(r.message, "; ...; max |err|/tol 9");
	CHECK(strstr(r.message, "(unwritten)") == NULL);
	free(got);
	free(ref);
	free(tol);
}

int main(void)
{
	test_check_values();
	test_check_messages();
	test_check_unwritten();
	test_check_never_written();
	test_check_first_nonfinite();
	test_check_note_nonfinite();
	test_check_chunked();
	test_end_to_end();
	return TEST_END();
}
