/*
 * test_pattern.c - the facts drawn across one configuration's sizes, from
 * planted results: each property where it alone splits the sizes, the
 * verbs of timeouts and crashes, rows by their column counts, the 32-bit
 * index by shape, and the sets that must give no line at all (one
 * exception, too few sizes on a side, a size on both sides, nothing
 * failing).
 */
#include <stdint.h>

#include "session/pattern.h"
#include "tests/test.h"

#define P STATUS_PASS
#define F STATUS_FAIL

/* pattern_find's line for flat sizes n[i] with statuses st[i]. */
static int flat(const int64_t *n, const enum status *st, size_t count, char *buf, size_t len)
{
	struct pattern_case c[32];
	for (size_t i = 0; i < count && i < 32; i++)
		c[i] = (struct pattern_case){n[i], 0, st[i]};
	return pattern_find(c, count, buf, len);
}

#define FLAT(sizes, statuses, buf) \
	flat(sizes, statuses, sizeof sizes / sizeof sizes[0], buf, sizeof buf)

static void test_properties(void)
{
	char line[256];

	/* Not a power of two: 1 passing rules out every multiple. */
	static const int64_t n1[] = {1000, 5, 32, 31, 1, 33, 256, 100, 1024, 4096, 17};
	static const enum status s1[] = {F, F, P, F, P, F, P, F, P, P, F};
	CHECK_INT(FLAT(n1, s1, line), 1);
	CHECK_STR(line, "fails only at sizes that are not a power of two "
			"(fails at 5, 17, 31, 33, ...; passes at 1, 32, 256, 2^10, ...)");

	/* Not a multiple of 32: 96 passing rules out powers of two. */
	static const int64_t n2[] = {33, 32, 100, 96, 1000, 4096};
	static const enum status s2[] = {F, P, F, P, F, P};
	CHECK_INT(FLAT(n2, s2, line), 1);
	CHECK_STR(line, "fails only at sizes that are not a multiple of 32 (a partly idle warp) "
			"(fails at 33, 100, 1000; passes at 32, 96, 2^12)");

	/* Not a multiple of 4, every failure a timeout. */
	static const int64_t n3[] = {5, 4, 7, 12, 1001, 100};
	static const enum status s3[] = {STATUS_TIMEOUT, P, STATUS_TIMEOUT, P, STATUS_TIMEOUT, P};
	CHECK_INT(FLAT(n3, s3, line), 1);
	CHECK_STR(line, "times out only at sizes that are not a multiple of 4 (a tail shorter than a 4-element vector) "
			"(times out at 5, 7, 1001; passes at 4, 12, 100)");

	/* Not a multiple of 256: 32 failing rules out the ones before. */
	static const int64_t n4[] = {32, 256, 288, 768, 1000};
	static const enum status s4[] = {F, P, F, P, F};
	CHECK_INT(FLAT(n4, s4, line), 1);
	CHECK_STR(line, "fails only at sizes that are not a multiple of 256 (a partly idle block of 256) "
			"(fails at 32, 288, 1000; passes at 256, 768)");

	/* Above 2^31 - 1 elements, where no alignment splits them. */
	static const int64_t n5[] = {(1LL << 31) + 3, 1, 3LL << 31, 1000};
	static const enum status s5[] = {STATUS_CRASH, P, STATUS_CRASH, P};
	CHECK_INT(FLAT(n5, s5, line), 1);
	CHECK_STR(line, "crashes only above 2^31 - 1 elements (a 32-bit index) "
			"(crashes at 2147483651, 6442450944; passes at 1, 1000)");

	/* Failures of several kinds: "fails". */
	static const int64_t n6[] = {5, 33, 32, 64};
	static const enum status s6[] = {STATUS_TIMEOUT, STATUS_ERROR, P, P};
	CHECK_INT(FLAT(n6, s6, line), 1);
	CHECK_STR(line, "fails only at sizes that are not a power of two (fails at 5, 33; passes at 32, 64)");

	/* SKIP, XFAIL and XPASS are left out: the same line as without them. */
	static const int64_t n7[] = {5, 33, 32, 64, 7, 128, 9};
	static const enum status s7[] = {F, F, P, P, STATUS_SKIP, STATUS_XFAIL, STATUS_XPASS};
	CHECK_INT(FLAT(n7, s7, line), 1);
	CHECK_STR(line, "fails only at sizes that are not a power of two (fails at 5, 33; passes at 32, 64)");
}

static void test_rows(void)
{
	char line[256];

	/* Rows by their column counts, whatever the row counts. */
	struct pattern_case r1[] = {
		{1000, 33, F}, {7, 100, F}, {3, 32, P}, {1000, 64, P}, {5, 64, P},
	};
	CHECK_INT(pattern_find(r1, 5, line, sizeof line), 1);
	CHECK_STR(line, "fails only at column counts that are not a power of two "
			"(fails at 33, 100; passes at 32, 64)");

	/* The 32-bit index counts every element, and lists shapes. */
	struct pattern_case r2[] = {
		{2095107, 1025, F}, {1000, 1025, P}, {1048577, 4097, F}, {3, 4097, P},
	};
	CHECK_INT(pattern_find(r2, 4, line, sizeof line), 1);
	CHECK_STR(line, "fails only above 2^31 - 1 elements (a 32-bit index) "
			"(fails at 1048577 x 4097, 2095107 x 1025; passes at 3 x 4097, 1000 x 1025)");

	/* One column count fails at 3 rows and passes at 7: no size
	 * property can split them. */
	struct pattern_case r3[] = {
		{3, 33, F}, {3, 100, F}, {7, 33, P}, {3, 32, P}, {3, 64, P},
	};
	CHECK_INT(pattern_find(r3, 5, line, sizeof line), 0);
	CHECK_STR(line, "");
}

static void test_nothing(void)
{
	char line[256] = "left over";

	/* One exception (100 passes) and nothing else fits. */
	static const int64_t n1[] = {5, 31, 33, 1, 32, 100};
	static const enum status s1[] = {F, F, F, P, P, P};
	CHECK_INT(FLAT(n1, s1, line), 0);
	CHECK_STR(line, "");

	/* One failing size, however often it failed. */
	static const int64_t n2[] = {5, 5, 1, 32, 64};
	static const enum status s2[] = {F, STATUS_TIMEOUT, P, P, P};
	CHECK_INT(FLAT(n2, s2, line), 0);

	/* One passing size. */
	static const int64_t n3[] = {5, 33, 32};
	static const enum status s3[] = {F, F, P};
	CHECK_INT(FLAT(n3, s3, line), 0);

	/* A size on both sides. */
	static const int64_t n4[] = {5, 33, 32, 64, 33};
	static const enum status s4[] = {F, F, P, P, P};
	CHECK_INT(FLAT(n4, s4, line), 0);

	/* Nothing fails; nothing at all; only skips. */
	static const int64_t n5[] = {5, 33, 32, 64};
	static const enum status s5[] = {P, P, P, P};
	CHECK_INT(FLAT(n5, s5, line), 0);
	CHECK_INT(pattern_find(NULL, 0, line, sizeof line), 0);
	static const enum status s6[] = {STATUS_SKIP, STATUS_SKIP, STATUS_SKIP, STATUS_SKIP};
	CHECK_INT(FLAT(n5, s6, line), 0);

	/* A line longer than its buffer is cut, still terminated. */
	static const int64_t n7[] = {5, 33, 32, 64};
	static const enum status s7[] = {F, F, P, P};
	char small[24];
	CHECK_INT(FLAT(n7, s7, small), 1);
	CHECK_STR(small, "fails only at sizes tha");
}

int main(void)
{
	test_properties();
	test_rows();
	test_nothing();
	return TEST_END();
}
