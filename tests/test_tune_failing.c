/*
 * test_tune_failing.c - the tunable values a tune's failures go with,
 * from planted tunes: threads off powers of two, one vector width, a
 * failure no single tunable explains, every configuration failing, none
 * failing; skips left out, keys some configuration lacks, the first key
 * in order, values in number order, and parameters that cannot be read.
 */
#include <stdio.h>

#include "tests/test.h"
#include "tune/tune_failing.h"

#define CONFIGS_MAX 64

struct tune {
	char params[CONFIGS_MAX][96];
	struct tune_failing_config c[CONFIGS_MAX];
	size_t n;
};

static void add(struct tune *t, enum status st, const char *params)
{
	if (t->n == CONFIGS_MAX) {
		CHECK(!"too many configurations");
		return;
	}
	snprintf(t->params[t->n], sizeof t->params[0], "%s", params);
	t->c[t->n].params = t->params[t->n];
	t->c[t->n].status = st;
	t->n++;
}

static void test_threads(void)
{
	struct tune t = {.n = 0};
	char line[256], p[96];
	static const int threads[] = {64, 96, 128, 192, 256};
	for (int i = 0; i < 5; i++)
		for (int items = 1; items <= 2; items++) {
			snprintf(p, sizeof p, "threads=%d,items=%d,op=sum", threads[i], items);
			add(&t, threads[i] % 96 == 0 ? STATUS_FAIL : STATUS_PASS, p);
		}
	CHECK_INT(tune_failing_describe(t.c, t.n, line, sizeof line), 1);
	CHECK_STR(line, "fails for threads ∈ {96, 192} (every configuration with them); "
			"passes at every power of two ({64, 128, 256})");
}

/* block x items x vec, failing (with status st) where fails(block, vec). */
static void grid(struct tune *t, int (*fails)(int block, int vec), enum status st)
{
	static const int vecs[] = {1, 2, 4};
	char p[96];
	t->n = 0;
	for (int block = 128; block <= 256; block *= 2)
		for (int items = 1; items <= 4; items *= 4)
			for (int v = 0; v < 3; v++) {
				snprintf(p, sizeof p, "block=%d,items=%d,vec=%d,op=sum", block, items, vecs[v]);
				add(t, fails(block, vecs[v]) ? st : STATUS_PASS, p);
			}
}

static int vec4(int block, int vec)
{
	(void)block;
	return vec == 4;
}

static int block256_vec4(int block, int vec)
{
	return block == 256 && vec == 4;
}

static int every(int block, int vec)
{
	(void)block;
	(void)vec;
	return 1;
}

static int none(int block, int vec)
{
	(void)block;
	(void)vec;
	return 0;
}

static void test_grid(void)
{
	struct tune t;
	char line[256];

	/* block and items fail and pass alike; vec = 4 alone fails. */
	grid(&t, vec4, STATUS_FAIL);
	CHECK_INT(tune_failing_describe(t.c, t.n, line, sizeof line), 1);
	CHECK_STR(line, "fails for vec = 4 (every configuration with it); passes with vec ∈ {1, 2}");

	/* Timeouts and crashes are failures too. */
	grid(&t, vec4, STATUS_TIMEOUT);
	t.c[2].status = STATUS_CRASH;
	CHECK_INT(tune_failing_describe(t.c, t.n, line, sizeof line), 1);
	CHECK_STR(line, "fails for vec = 4 (every configuration with it); passes with vec ∈ {1, 2}");

	/* Only the two together fail: no one tunable explains it. */
	grid(&t, block256_vec4, STATUS_FAIL);
	CHECK_INT(tune_failing_describe(t.c, t.n, line, sizeof line), 1);
	CHECK_STR(line, "fails at 2 of 12 configurations");

	/* Every configuration; and a skip among them is not a pass. */
	grid(&t, every, STATUS_FAIL);
	add(&t, STATUS_SKIP, "block=512,items=1,vec=1,op=sum");
	CHECK_INT(tune_failing_describe(t.c, t.n, line, sizeof line), 1);
	CHECK_STR(line, "fails at every configuration");

	/* None: nothing to say. */
	grid(&t, none, STATUS_FAIL);
	snprintf(line, sizeof line, "left over");
	CHECK_INT(tune_failing_describe(t.c, t.n, line, sizeof line), 0);
	CHECK_STR(line, "");
	CHECK_INT(tune_failing_describe(NULL, 0, line, sizeof line), 0);
}

static void test_left_out(void)
{
	struct tune t;
	char line[256];

	/* A skip (the contract refuses vec = 8) and an XFAIL are neither
	 * side: vec still explains, and 8 is not listed. */
	grid(&t, vec4, STATUS_FAIL);
	add(&t, STATUS_SKIP, "block=128,items=1,vec=8,op=sum");
	add(&t, STATUS_XFAIL, "block=128,items=1,vec=1,op=max");
	add(&t, STATUS_SKIP, "block=128,items=1,vec=4,op=sum");
	CHECK_INT(tune_failing_describe(t.c, t.n, line, sizeof line), 1);
	CHECK_STR(line, "fails for vec = 4 (every configuration with it); passes with vec ∈ {1, 2}");

	/* A key some configuration lacks explains nothing, even first. */
	t.n = 0;
	add(&t, STATUS_FAIL, "extra=1,vec=4");
	add(&t, STATUS_PASS, "vec=1");
	add(&t, STATUS_PASS, "vec=2");
	CHECK_INT(tune_failing_describe(t.c, t.n, line, sizeof line), 1);
	CHECK_STR(line, "fails for vec = 4 (every configuration with it); passes with vec ∈ {1, 2}");
}

static void test_order(void)
{
	struct tune t;
	char line[256];

	/* Both keys split the configurations: the first in order is said. */
	t.n = 0;
	add(&t, STATUS_FAIL, "algo=tree,width=3");
	add(&t, STATUS_PASS, "algo=shfl,width=4");
	add(&t, STATUS_PASS, "algo=atomic,width=8");
	add(&t, STATUS_FAIL, "algo=tree,width=3");
	CHECK_INT(tune_failing_describe(t.c, t.n, line, sizeof line), 1);
	CHECK_STR(line, "fails for algo = tree (every configuration with it); passes with algo ∈ {atomic, shfl}");

	/* Numbers in number order (not 16, 2, 8), whatever order they came
	 * in; not all powers of two fail, so no power-of-two line. */
	t.n = 0;
	add(&t, STATUS_PASS, "items=16");
	add(&t, STATUS_FAIL, "items=6");
	add(&t, STATUS_PASS, "items=2");
	add(&t, STATUS_FAIL, "items=4");
	add(&t, STATUS_PASS, "items=8");
	CHECK_INT(tune_failing_describe(t.c, t.n, line, sizeof line), 1);
	CHECK_STR(line, "fails for items ∈ {4, 6} (every configuration with them); passes with items ∈ {2, 8, 16}");

	/* At most eight values of a side are listed. */
	t.n = 0;
	char p[32];
	for (int v = 1; v <= 11; v++) {
		snprintf(p, sizeof p, "unroll=%d", v * 3);
		add(&t, STATUS_FAIL, p);
	}
	add(&t, STATUS_PASS, "unroll=64");
	add(&t, STATUS_PASS, "unroll=128");
	CHECK_INT(tune_failing_describe(t.c, t.n, line, sizeof line), 1);
	CHECK_STR(line, "fails for unroll ∈ {3, 6, 9, 12, 15, 18, 21, 24, ...} (every configuration with them); "
			"passes at every power of two ({64, 128})");
}

static void test_unreadable(void)
{
	struct tune t = {.n = 0};
	char line[256];

	add(&t, STATUS_PASS, "block=256");
	add(&t, STATUS_FAIL, "block");
	CHECK_INT(tune_failing_describe(t.c, t.n, line, sizeof line), -1);
	CHECK_STR(line, "configuration 2: parameters \"block\" cannot be read");
}

int main(void)
{
	test_threads();
	test_grid();
	test_left_out();
	test_order();
	test_unreadable();
	return TEST_END();
}
