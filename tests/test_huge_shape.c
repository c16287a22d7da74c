/*
 * test_huge_shape.c - the rows x cols problem past 32-bit indices: each
 * candidate's rows are the fewest with (rows - 1) * cols > INT_MAX, the
 * choice is the first candidate accepted (or the first of all), and a
 * kernel file's rules choose among them as the worker's catalog says
 * (variant_huge_cols).
 */
#include <stdint.h>
#include <string.h>

#include "common/huge_shape.h"
#include "tests/test.h"
#include "worker/kernel_file.h"

static void test_rows(void)
{
	for (int k = 0; k < HUGE_SHAPE_CANDIDATES; k++) {
		const int64_t cols = huge_shape_cols[k], rows = huge_shape_rows(cols);
		CHECK(cols >= 1);
		CHECK((rows - 1) * cols > INT32_MAX);       /* the last row's offset wraps an int */
		CHECK((rows - 2) * cols <= INT32_MAX);      /* and no fewer rows would do */
		CHECK(rows * cols > ((int64_t)1 << 31));    /* past 2^31 elements */
		CHECK(rows * cols < ((int64_t)1 << 31) + 2 * cols); /* by less than two rows */
	}
	CHECK_INT(huge_shape_rows(1025), 2095107);
	CHECK_INT(huge_shape_rows(1), 2147483649LL);
	CHECK_INT(huge_shape_cols[0], 1025);
}

/* A stand-in for a kernel's rules: cols at most *ctx. */
static int cols_at_most(void *ctx, int64_t rows, int64_t cols)
{
	(void)rows;
	return cols <= *(const int64_t *)ctx;
}

static int none(void *ctx, int64_t rows, int64_t cols)
{
	(void)ctx;
	(void)rows;
	(void)cols;
	return 0;
}

static void test_choose(void)
{
	int64_t most = INT64_MAX;
	CHECK_INT(huge_shape_choose(cols_at_most, &most), 1025);
	most = 1024;
	CHECK_INT(huge_shape_choose(cols_at_most, &most), 1000);
	most = 128;
	CHECK_INT(huge_shape_choose(cols_at_most, &most), 32);
	CHECK_INT(huge_shape_choose(none, NULL), 1025); /* none taken: the first, refused when run */
}

static struct kernel_file k; /* large: not on the stack */

/* The huge cols the catalog gives a softmax kernel file with these
 * extra directives (after its @tunable block), or -1 when it does not
 * parse. */
static long long huge_cols_of(const char *extra)
{
	char text[2048], err[512];

	snprintf(text, sizeof text,
		 "/*\n * @kind softmax\n * @entry s\n * @dtypes f32 bf16\n"
		 " * @tunable block 32..1024 pow2 default=256\n%s"
		 " * @block block\n * @grid n\n */\n"
		 "extern \"C\" __global__ void s(const T *in, T *out, long long rows, long long cols,"
		 " void *scratch) {}\n",
		 extra);
	if (kernel_file_parse(&k, "s.cu", text, strlen(text), NULL, err, sizeof err) < 0) {
		fprintf(stderr, "s.cu: %s\n", err);
		return -1;
	}
	long long cols = variant_huge_cols(&k.variant);
	kernel_file_free(&k);
	return cols;
}

static void test_rules_choose(void)
{
	CHECK_INT(huge_cols_of(""), 1025);
	/* The first candidate refused, the next taken. */
	CHECK_INT(huge_cols_of(" * @rule cols <= 1024 ; a row per block\n"), 1000);
	CHECK_INT(huge_cols_of(" * @rule cols == 128 ; one warp of float4\n"), 128);
	CHECK_INT(huge_cols_of(" * @rule cols % 32 == 0\n"), 32);
	/* Rules of the tunables and the problem together, at the defaults. */
	CHECK_INT(huge_cols_of(" * @rule cols <= block * 4\n"), 1000);
	/* The smallest dtype decides (bf16: esize 2). */
	CHECK_INT(huge_cols_of(" * @rule cols * esize <= 2048\n"), 1000);
	/* No candidate taken: the first, which the rule refuses when it runs. */
	CHECK_INT(huge_cols_of(" * @rule n <= 65535 ; rows in gridDim.y\n"), 1025);
}

int main(void)
{
	test_rows();
	test_choose();
	test_rules_choose();
	return TEST_END();
}
