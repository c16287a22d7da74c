/*
 * test_shrink.c - the smallest failing problem, searched against planted
 * failures: a threshold, failures off multiples of 32, a failure at one
 * size alone, a failure everywhere, a rows x cols threshold (and one
 * where the shrunk shape's row neighbour fails too), sizes that are
 * neither pass nor fail, and both budgets.  Every search is checked never
 * to ask a problem twice, nor the one it started from.
 */
#include <stdint.h>

#include "session/shrink.h"
#include "tests/test.h"

#define ASKED_MAX (SHRINK_PROBES_MAX + 1)

/* What a search asked, in order. */
struct asked {
	int64_t n[ASKED_MAX], cols[ASKED_MAX];
	int count;
};

typedef enum shrink_outcome (*planted_fn)(int64_t n, int64_t cols);

/* Runs a search from n x cols to its end against planted, the clock
 * moving step_s a probe; checks that no problem is asked twice. */
static void drive(struct shrink *s, int64_t n0, int64_t cols0, planted_fn planted, double step_s,
		  struct asked *a)
{
	double now = 1000.0; /* any origin */
	int64_t n, cols;

	a->count = 0;
	while (shrink_next(s, now, &n, &cols)) {
		if (a->count >= ASKED_MAX) {
			CHECK(!"more problems asked than any budget allows");
			return;
		}
		CHECK(!(n == n0 && cols == cols0));
		for (int i = 0; i < a->count; i++)
			if (a->n[i] == n && a->cols[i] == cols) {
				fprintf(stderr, "asked twice: %lld x %lld\n", (long long)n, (long long)cols);
				CHECK(!"a problem asked twice");
			}
		a->n[a->count] = n;
		a->cols[a->count] = cols;
		a->count++;
		shrink_tell(s, planted(n, cols));
		now += step_s;
	}
	/* Over is over. */
	CHECK_INT(shrink_next(s, now, &n, &cols), 0);
}

static enum shrink_outcome verdict(int fails)
{
	return fails ? SHRINK_FAIL : SHRINK_PASS;
}

static enum shrink_outcome from_97(int64_t n, int64_t cols)
{
	(void)cols;
	return verdict(n >= 97);
}

static enum shrink_outcome off_32(int64_t n, int64_t cols)
{
	(void)cols;
	return verdict(n % 32 != 0);
}

static enum shrink_outcome off_32_above_100(int64_t n, int64_t cols)
{
	(void)cols;
	return verdict(n > 100 && n % 32 != 0);
}

static enum shrink_outcome only_5000(int64_t n, int64_t cols)
{
	(void)cols;
	return verdict(n == 5000);
}

static enum shrink_outcome always(int64_t n, int64_t cols)
{
	(void)n;
	(void)cols;
	return SHRINK_FAIL;
}

/* Nothing below the start fails. */
static enum shrink_outcome never(int64_t n, int64_t cols)
{
	(void)n;
	(void)cols;
	return SHRINK_PASS;
}

static enum shrink_outcome rows3_cols33(int64_t rows, int64_t cols)
{
	return verdict(rows >= 3 && cols > 32);
}

/* Three rows fail past 32 columns, and any row count at 33..40 columns:
 * the shape the first round finds (3 x 33) has a failing row neighbour. */
static enum shrink_outcome narrow_band(int64_t rows, int64_t cols)
{
	return verdict((rows >= 3 && cols > 32) || (cols >= 33 && cols <= 40));
}

/* From 97 up, but 65 and 96 cannot be told (a SKIP). */
static enum shrink_outcome from_97_holes(int64_t n, int64_t cols)
{
	(void)cols;
	if (n == 65 || n == 96)
		return SHRINK_UNKNOWN;
	return verdict(n >= 97);
}

static void check_sequence(const struct asked *a, const int64_t *want, int nwant)
{
	CHECK_INT(a->count, nwant);
	for (int i = 0; i < nwant && i < a->count; i++)
		if (a->n[i] != want[i]) {
			fprintf(stderr, "probe %d: n = %lld, want %lld\n", i, (long long)a->n[i],
				(long long)want[i]);
			CHECK(!"probe sequence");
		}
}

static void test_threshold(void)
{
	struct shrink s;
	struct shrink_result r;
	struct asked a;
	char line[160];

	shrink_init(&s, 1000, 0, NULL);
	drive(&s, 1000, 0, from_97, 1.0, &a);
	/* The ladder up to its first failure (127), then bisection between
	 * the last pass (65) and 127. */
	static const int64_t want[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65,
				       127, 96, 111, 103, 99, 97};
	check_sequence(&a, want, (int)(sizeof want / sizeof want[0]));
	for (int i = 0; i < a.count; i++)
		CHECK_INT(a.cols[i], 0);
	shrink_result(&s, &r);
	CHECK_INT(r.n, 97);
	CHECK_INT(r.cols, 0);
	CHECK_INT(r.pass_n, 96);
	CHECK_INT(r.pass_cols, 0);
	CHECK_INT(r.pass_fewer_rows, -1);
	CHECK_INT(r.probes, 23);
	CHECK_INT(r.cut_short, 0);
	CHECK_STR(r.why_cut, "");
	shrink_describe(&r, line, sizeof line);
	CHECK_STR(line, "smallest failing size n = 97 (passes at n = 96); 23 probes");

	/* Every threshold below the start is found exactly, next to a pass. */
	for (int64_t t = 1; t <= 300; t++) {
		shrink_init(&s, 300, 0, NULL);
		double now = 0;
		int64_t n, cols;
		while (shrink_next(&s, now, &n, &cols))
			shrink_tell(&s, verdict(n >= t));
		shrink_result(&s, &r);
		if (r.n != t || r.pass_n != (t > 1 ? t - 1 : -1) || r.cut_short) {
			fprintf(stderr, "threshold %lld: n = %lld, passes at %lld\n", (long long)t,
				(long long)r.n, (long long)r.pass_n);
			CHECK(!"threshold found");
		}
	}
}

static void test_not_monotone(void)
{
	struct shrink s;
	struct shrink_result r;
	struct asked a;
	char line[160];

	/* Every size off a multiple of 32 fails: 1 is the first asked. */
	shrink_init(&s, 1000, 0, NULL);
	drive(&s, 1000, 0, off_32, 1.0, &a);
	static const int64_t want[] = {1};
	check_sequence(&a, want, 1);
	shrink_result(&s, &r);
	CHECK_INT(r.n, 1);
	CHECK_INT(r.pass_n, -1);
	shrink_describe(&r, line, sizeof line);
	CHECK_STR(line, "smallest failing size n = 1; 1 probe");

	/* Above 100 only: bisection lands on the boundary it brackets,
	 * through passes (96, 99, 100) that are not all below the failures
	 * above them. */
	shrink_init(&s, 1000, 0, NULL);
	drive(&s, 1000, 0, off_32_above_100, 1.0, &a);
	static const int64_t want2[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65,
					127, 96, 111, 103, 99, 101, 100};
	check_sequence(&a, want2, (int)(sizeof want2 / sizeof want2[0]));
	shrink_result(&s, &r);
	CHECK_INT(r.n, 101);
	CHECK_INT(r.pass_n, 100);
}

static void test_one_size(void)
{
	struct shrink s;
	struct shrink_result r;
	struct asked a;
	char line[160];

	/* Only 5000 fails: the 35 ladder sizes below it pass, so f stays
	 * 5000, p is the largest of them (4097), and bisection climbs from
	 * there through passes alone to 4999 (10 probes). */
	shrink_init(&s, 5000, 0, NULL);
	drive(&s, 5000, 0, only_5000, 1.0, &a);
	CHECK_INT(a.count, 45);
	CHECK_INT(a.n[34], 4097);
	CHECK_INT(a.n[35], 4097 + (5000 - 4097) / 2);
	CHECK_INT(a.n[44], 4999);
	shrink_result(&s, &r);
	CHECK_INT(r.n, 5000);
	CHECK_INT(r.pass_n, 4999);
	CHECK_INT(r.cut_short, 0);
	shrink_describe(&r, line, sizeof line);
	CHECK_STR(line, "smallest failing size n = 5000 (passes at n = 4999); 45 probes");
}

static void test_always(void)
{
	struct shrink s;
	struct shrink_result r;
	struct asked a;
	char line[160];

	shrink_init(&s, 1000, 0, NULL);
	drive(&s, 1000, 0, always, 1.0, &a);
	shrink_result(&s, &r);
	CHECK_INT(a.count, 1);
	CHECK_INT(r.n, 1);
	CHECK_INT(r.pass_n, -1);
	CHECK_INT(r.pass_cols, -1);

	/* Rows: 1 row, then 1 column; no fewer rows to confirm. */
	shrink_init(&s, 10, 10, NULL);
	drive(&s, 10, 10, always, 1.0, &a);
	shrink_result(&s, &r);
	CHECK_INT(a.count, 2);
	CHECK_INT(a.n[0], 1);
	CHECK_INT(a.cols[0], 10);
	CHECK_INT(a.n[1], 1);
	CHECK_INT(a.cols[1], 1);
	CHECK_INT(r.n, 1);
	CHECK_INT(r.cols, 1);
	CHECK_INT(r.pass_n, -1);
	CHECK_INT(r.pass_fewer_rows, -1);
	shrink_describe(&r, line, sizeof line);
	CHECK_STR(line, "smallest failing shape 1 x 1; 2 probes");

	/* A failing size of 1 has nothing below it: nothing is asked. */
	shrink_init(&s, 1, 0, NULL);
	drive(&s, 1, 0, always, 1.0, &a);
	CHECK_INT(a.count, 0);
	shrink_result(&s, &r);
	CHECK_INT(r.n, 1);
	shrink_describe(&r, line, sizeof line);
	CHECK_STR(line, "smallest failing size n = 1; 0 probes");
}

static void test_rows(void)
{
	struct shrink s;
	struct shrink_result r;
	struct asked a;
	char line[160];

	/* Rows first at 100 columns (1, 2 pass, 3 fails), then columns at 3
	 * rows (the ladder to 33), then 2 x 33 to confirm the row
	 * neighbour at the shrunk shape. */
	shrink_init(&s, 1000, 100, NULL);
	drive(&s, 1000, 100, rows3_cols33, 1.0, &a);
	static const int64_t rows[] = {1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2};
	static const int64_t cols[] = {100, 100, 100, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 33};
	CHECK_INT(a.count, 18);
	for (int i = 0; i < 18 && i < a.count; i++) {
		CHECK_INT(a.n[i], rows[i]);
		CHECK_INT(a.cols[i], cols[i]);
	}
	shrink_result(&s, &r);
	CHECK_INT(r.n, 3);
	CHECK_INT(r.cols, 33);
	CHECK_INT(r.pass_n, 3);
	CHECK_INT(r.pass_cols, 32);
	CHECK_INT(r.pass_fewer_rows, 2);
	shrink_describe(&r, line, sizeof line);
	CHECK_STR(line, "smallest failing shape 3 x 33 (passes at 3 x 32 and 2 x 33); 18 probes");

	/* 2 x 33 fails too: a second round from it, rows at 33 columns (1
	 * fails), then columns at 1 row.  One row has no fewer to confirm. */
	shrink_init(&s, 1000, 100, NULL);
	drive(&s, 1000, 100, narrow_band, 1.0, &a);
	shrink_result(&s, &r);
	CHECK_INT(r.n, 1);
	CHECK_INT(r.cols, 33);
	CHECK_INT(r.pass_n, 1);
	CHECK_INT(r.pass_cols, 32);
	CHECK_INT(r.pass_fewer_rows, -1);
	CHECK_INT(r.probes, 32);
	shrink_describe(&r, line, sizeof line);
	CHECK_STR(line, "smallest failing shape 1 x 33 (passes at 1 x 32); 32 probes");

	/* Every rows x cols threshold is found, next to both passes. */
	for (int64_t tr = 1; tr <= 12; tr++)
		for (int64_t tc = 1; tc <= 70; tc++) {
			shrink_init(&s, 12, 70, NULL);
			int64_t n, c;
			while (shrink_next(&s, 0, &n, &c))
				shrink_tell(&s, verdict(n >= tr && c >= tc));
			shrink_result(&s, &r);
			if (r.n != tr || r.cols != tc || r.pass_fewer_rows != (tr > 1 ? tr - 1 : -1) ||
			    r.pass_cols != (tc > 1 ? tc - 1 : -1) || r.cut_short) {
				fprintf(stderr, "threshold %lld x %lld: found %lld x %lld\n", (long long)tr,
					(long long)tc, (long long)r.n, (long long)r.cols);
				CHECK(!"rows threshold found");
			}
		}
}

static void test_unknown(void)
{
	struct shrink s;
	struct shrink_result r;
	struct asked a;
	char line[160];

	/* 65 is unknown: the ascent goes on, and the pass bound stays 64.
	 * 96, unknown in bisection, moves the lower bound but is never
	 * said to pass. */
	shrink_init(&s, 1000, 0, NULL);
	drive(&s, 1000, 0, from_97_holes, 1.0, &a);
	static const int64_t want[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65,
				       127, 95, 111, 103, 99, 97, 96};
	check_sequence(&a, want, (int)(sizeof want / sizeof want[0]));
	shrink_result(&s, &r);
	CHECK_INT(r.n, 97);
	CHECK_INT(r.pass_n, -1);
	shrink_describe(&r, line, sizeof line);
	CHECK_STR(line, "smallest failing size n = 97; 24 probes");

	/* A value outside the enum is unknown, not a pass. */
	int64_t n, cols;
	shrink_init(&s, 2, 0, NULL);
	CHECK_INT(shrink_next(&s, 0, &n, &cols), 1);
	CHECK_INT(n, 1);
	shrink_tell(&s, (enum shrink_outcome)7);
	CHECK_INT(shrink_next(&s, 0, &n, &cols), 0);
	shrink_result(&s, &r);
	CHECK_INT(r.n, 2);
	CHECK_INT(r.pass_n, -1);
}

static void test_protocol(void)
{
	struct shrink s;
	struct shrink_result r;
	int64_t n, cols;

	/* Asked again before the answer: the same problem, not a new one. */
	shrink_init(&s, 1000, 0, NULL);
	CHECK_INT(shrink_next(&s, 0, &n, &cols), 1);
	CHECK_INT(n, 1);
	CHECK_INT(shrink_next(&s, 0, &n, &cols), 1);
	CHECK_INT(n, 1);
	shrink_result(&s, &r);
	CHECK_INT(r.probes, 1);
	shrink_tell(&s, SHRINK_PASS);
	/* A second answer with nothing asked is ignored. */
	shrink_tell(&s, SHRINK_FAIL);
	CHECK_INT(shrink_next(&s, 0, &n, &cols), 1);
	CHECK_INT(n, 2);
	shrink_result(&s, &r);
	CHECK_INT(r.n, 1000);
	CHECK_INT(r.probes, 2);
}

static void test_budgets(void)
{
	struct shrink s;
	struct shrink_result r;
	struct asked a;
	char line[160];

	struct shrink_limits five = {.max_probes = 5};
	shrink_init(&s, 1000, 0, &five);
	drive(&s, 1000, 0, from_97, 1.0, &a);
	static const int64_t want[] = {1, 2, 3, 4, 5};
	check_sequence(&a, want, 5);
	shrink_result(&s, &r);
	CHECK_INT(r.n, 1000);
	CHECK_INT(r.pass_n, -1);
	CHECK_INT(r.probes, 5);
	CHECK_INT(r.cut_short, 1);
	CHECK_STR(r.why_cut, "5 probes");
	shrink_describe(&r, line, sizeof line);
	CHECK_STR(line, "search cut short after 5 probes: smallest failing found n = 1000");

	/* Cut in bisection: the smallest failure found so far, with the
	 * pass next to it only when that was run. */
	struct shrink_limits twenty = {.max_probes = 20};
	shrink_init(&s, 1000, 0, &twenty);
	drive(&s, 1000, 0, from_97, 1.0, &a);
	shrink_result(&s, &r);
	CHECK_INT(r.n, 111); /* after 127 and the pass at 96 */
	CHECK_INT(r.pass_n, -1);
	shrink_describe(&r, line, sizeof line);
	CHECK_STR(line, "search cut short after 20 probes: smallest failing found n = 111");

	/* A search that ends on its last allowed probe is not cut short. */
	struct shrink_limits exact = {.max_probes = 23};
	shrink_init(&s, 1000, 0, &exact);
	drive(&s, 1000, 0, from_97, 1.0, &a);
	shrink_result(&s, &r);
	CHECK_INT(r.n, 97);
	CHECK_INT(r.cut_short, 0);

	/* Time: 3 s a probe against 10 s, counted from the first ask:
	 * probes at 0, 3, 6 and 9 s, none at 12. */
	struct shrink_limits ten = {.max_s = 10};
	shrink_init(&s, 1000, 0, &ten);
	drive(&s, 1000, 0, from_97, 3.0, &a);
	CHECK_INT(a.count, 4);
	shrink_result(&s, &r);
	CHECK_INT(r.cut_short, 1);
	CHECK_STR(r.why_cut, "10 s");
	shrink_describe(&r, line, sizeof line);
	CHECK_STR(line, "search cut short after 10 s: smallest failing found n = 1000; 4 probes");

	/* The defaults: 48 probes, 60 s. */
	shrink_init(&s, (int64_t)1 << 40, 0, NULL);
	drive(&s, (int64_t)1 << 40, 0, only_5000, 1.0, &a);
	shrink_result(&s, &r);
	CHECK_INT(r.probes, SHRINK_PROBES_DEFAULT);
	CHECK_STR(r.why_cut, "48 probes");
	shrink_describe(&r, line, sizeof line);
	CHECK_STR(line, "search cut short after 48 probes: smallest failing found n = 2^40");
	shrink_init(&s, 1000, 0, NULL);
	drive(&s, 1000, 0, from_97, 61.0, &a);
	shrink_result(&s, &r);
	CHECK_INT(a.count, 1);
	CHECK_STR(r.why_cut, "60 s");

	/* A budget above the record's room is held to it (both ladders to
	 * 3 x 2^39 and their bisections would take 316). */
	struct shrink_limits huge = {.max_probes = 100000, .max_s = 1e9};
	int64_t big = (int64_t)3 << 39;
	shrink_init(&s, big, big, &huge);
	drive(&s, big, big, never, 1.0, &a);
	shrink_result(&s, &r);
	CHECK_INT(r.probes, SHRINK_PROBES_MAX);
	CHECK_STR(r.why_cut, "256 probes");
}

int main(void)
{
	test_threshold();
	test_not_monotone();
	test_one_size();
	test_always();
	test_rows();
	test_unknown();
	test_protocol();
	test_budgets();
	return TEST_END();
}
