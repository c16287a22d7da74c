/*
 * test_tunable.c - the expression evaluator and the binding of declared
 * tunables: values, ranges, defaults that name other tunables, rules, and
 * the texts derived from one declaration.
 */
#include <stddef.h>
#include <string.h>

#include "tests/test.h"
#include "worker/expr.h"
#include "worker/tunable.h"
#include "worker/variant.h"

/* Names for the evaluator: a = 6, b = 4. */
static int ab_lookup(void *ctx, const char *name, size_t len, long long *out)
{
	(void)ctx;
	if (len == 1 && (name[0] == 'a' || name[0] == 'b')) {
		*out = name[0] == 'a' ? 6 : 4;
		return 0;
	}
	return -1;
}

static long long eval(const char *text, int *ok)
{
	char err[128];
	long long v = -999;

	*ok = expr_eval(text, ab_lookup, NULL, &v, err, sizeof err) == 0;
	return v;
}

static void test_expr(void)
{
	int ok;

	CHECK_INT(eval("1 + 2 * 3", &ok), 7);
	CHECK(ok);
	CHECK_INT(eval("(1 + 2) * 3", &ok), 9);
	CHECK_INT(eval("a * b - 10 / 3 % 2", &ok), 23); /* 24 - (3 % 2) */
	CHECK_INT(eval("-a + !0", &ok), -5);
	CHECK_INT(eval("a <= 6 && b != 4 || a > 5", &ok), 1);
	CHECK_INT(eval("a == 8 ? 64 : 128", &ok), 128);
	CHECK_INT(eval("1 ? 2 : 3 ? 4 : 5", &ok), 2);
	CHECK_INT(eval("min(a, b) + max(a, b)", &ok), 10);
	CHECK_INT(eval("pow2(b) + pow2(a) + pow2(0)", &ok), 1);
	CHECK_INT(eval("a<b", &ok), 0);
	/* An untaken arm may divide by zero; a taken one may not. */
	CHECK_INT(eval("b == 4 ? 1 : 1 / 0", &ok), 1);
	CHECK(ok);
	CHECK_INT(eval("0 && 1 / 0", &ok), 0);
	CHECK(ok);
	eval("1 / (b - 4)", &ok);
	CHECK(!ok);
	eval("9223372036854775807 + 1", &ok);
	CHECK(!ok);
	eval("99999999999999999999", &ok);
	CHECK(!ok);

	char err[128];
	long long v;
	CHECK_INT(expr_eval("a + c", ab_lookup, NULL, &v, err, sizeof err), -1);
	CHECK_CONTAINS(err, "unknown name 'c'");
	CHECK_INT(expr_eval("a +", ab_lookup, NULL, &v, err, sizeof err), -1);
	CHECK_INT(expr_eval("(a", ab_lookup, NULL, &v, err, sizeof err), -1);
	CHECK_CONTAINS(err, "expected ')'");
	CHECK_INT(expr_eval("a b", ab_lookup, NULL, &v, err, sizeof err), -1);
	CHECK_INT(expr_eval("sqrt(a)", ab_lookup, NULL, &v, err, sizeof err), -1);
	CHECK_CONTAINS(err, "unknown function");
}

struct knobs {
	int block, items, vec, layout;
};

static const struct tunable knob_list[] = {
	{.name = "block", .doc = "threads per block", .lo = 32, .hi = 1024, .multiple_of = 32, .def = "256",
	 .space = "128,256", .field = offsetof(struct knobs, block)},
	/* Declared before vec, and defaults from it. */
	{.name = "items", .doc = "loads in flight", .values = "1|2|4|8", .def = "min(4, 64 / (vec * esize))",
	 .space = "2,4", .field = offsetof(struct knobs, items)},
	{.name = "vec", .doc = "elements per load", .lo = 1, .hi = 8, .pow2 = 1, .def = "16 / esize",
	 .field = offsetof(struct knobs, vec)},
	{.name = "layout", .doc = "output layout", .choices = "striped|blocked", .def = "blocked",
	 .space = "striped,blocked", .field = offsetof(struct knobs, layout)},
};
static const struct rule knob_rules[] = {
	{"vec * items * esize <= 64", "bytes in flight"},
};
static const struct tunable_set knob_set = {
	TUNABLE_LIST(knob_list), RULE_LIST(knob_rules), .size = sizeof(struct knobs),
};
static const struct rule rows_only[] = {{"cols >= 1", "rows"}};

static int bind(const struct variant_params *vp, enum dtype d, const char *params, struct knobs *k,
		char *msg, size_t len)
{
	const struct problem pb = {.dtype = d, .n = 1000, .cols = 10};

	memset(k, 0x5a, sizeof *k);
	return tunable_bind(vp, &pb, params, k, NULL, msg, len);
}

static void test_bind(void)
{
	const struct variant_params vp = {.set = &knob_set};
	struct knobs k;
	char msg[256];

	/* Defaults: vec = 16 / 4, items = min(4, 64 / 16), layout by name. */
	CHECK_INT(bind(&vp, DTYPE_F32, "", &k, msg, sizeof msg), 0);
	CHECK_INT(k.block, 256);
	CHECK_INT(k.vec, 4);
	CHECK_INT(k.items, 4);
	CHECK_INT(k.layout, 1);
	/* f64: vec 2, items min(4, 64 / 16) = 4; bf16: vec 8, items 4. */
	CHECK_INT(bind(&vp, DTYPE_F64, "", &k, msg, sizeof msg), 0);
	CHECK_INT(k.vec, 2);
	CHECK_INT(k.items, 4);
	/* A given vec moves items' default. */
	CHECK_INT(bind(&vp, DTYPE_F32, "vec=8,op=sum", &k, msg, sizeof msg), 0);
	CHECK_INT(k.items, 2);
	CHECK_INT(bind(&vp, DTYPE_F32, "block=2^9,layout=striped", &k, msg, sizeof msg), 0);
	CHECK_INT(k.block, 512);
	CHECK_INT(k.layout, 0);

	CHECK_INT(bind(&vp, DTYPE_F32, "block=48", &k, msg, sizeof msg), -1);
	CHECK_CONTAINS(msg, "block=48 is not a multiple of 32");
	CHECK_INT(bind(&vp, DTYPE_F32, "block=2048", &k, msg, sizeof msg), -1);
	CHECK_CONTAINS(msg, "block=2048 is outside 32..1024");
	CHECK_INT(bind(&vp, DTYPE_F32, "vec=3", &k, msg, sizeof msg), -1);
	CHECK_CONTAINS(msg, "vec=3 is not a power of two");
	CHECK_INT(bind(&vp, DTYPE_F32, "items=3", &k, msg, sizeof msg), -1);
	CHECK_CONTAINS(msg, "items=3 is not one of 1|2|4|8");
	CHECK_INT(bind(&vp, DTYPE_F32, "layout=diagonal", &k, msg, sizeof msg), -1);
	CHECK_CONTAINS(msg, "layout=diagonal: expected striped|blocked");
	CHECK_INT(bind(&vp, DTYPE_F32, "block=abc", &k, msg, sizeof msg), -1);
	CHECK_CONTAINS(msg, "block: not an integer");
	CHECK_INT(bind(&vp, DTYPE_F32, "block=-64", &k, msg, sizeof msg), -1);
	/* The rule, with the values it read. */
	CHECK_INT(bind(&vp, DTYPE_F32, "vec=8,items=4", &k, msg, sizeof msg), -1);
	CHECK_CONTAINS(msg, "vec * items * esize <= 64 does not hold (bytes in flight)");
	CHECK_CONTAINS(msg, "items=4");

	/* A variant's own defaults and rules over the family's. */
	const struct variant_params own = {.set = &knob_set, .defaults = "block=128,layout=striped",
					   RULE_LIST(rows_only)};
	CHECK_INT(bind(&own, DTYPE_F32, "", &k, msg, sizeof msg), 0);
	CHECK_INT(k.block, 128);
	CHECK_INT(k.layout, 0);
	const struct problem flat = {.dtype = DTYPE_F32, .n = 1000, .cols = 0};
	CHECK_INT(tunable_bind(&own, &flat, "", &k, NULL, msg, sizeof msg), -1);
	CHECK_CONTAINS(msg, "cols >= 1 does not hold (rows)");
	/* Rules alone, without tunables. */
	const struct variant_params rules_only = {RULE_LIST(rows_only)};
	CHECK_INT(tunable_bind(&rules_only, &flat, "", NULL, NULL, msg, sizeof msg), -1);
}

static void test_cycle(void)
{
	struct pair {
		int x, y;
	} p;
	static const struct tunable cyc[] = {
		{.name = "x", .lo = 0, .hi = 9, .def = "y", .field = offsetof(struct pair, x)},
		{.name = "y", .lo = 0, .hi = 9, .def = "x", .field = offsetof(struct pair, y)},
	};
	static const struct tunable_set set = {TUNABLE_LIST(cyc), .size = sizeof(struct pair)};
	const struct variant_params vp = {.set = &set};
	const struct problem pb = {.dtype = DTYPE_F32, .n = 1};
	char msg[256] = "";

	/* Two defaults naming each other: an error, not a loop. */
	CHECK_INT(tunable_bind(&vp, &pb, "", &p, NULL, msg, sizeof msg), -1);
	CHECK(msg[0] != '\0');
	/* Either given breaks the cycle. */
	CHECK_INT(tunable_bind(&vp, &pb, "y=3", &p, NULL, msg, sizeof msg), 0);
	CHECK_INT(p.x, 3);
}

static void test_texts(void)
{
	const struct variant_params vp = {.set = &knob_set, RULE_LIST(rows_only)};
	char buf[512];

	tunable_describe(&vp, buf, sizeof buf);
	CHECK_STR(buf, "block=32..1024 (multiple of 32) items=1|2|4|8 vec=1..8 (power of two) "
		       "layout=striped|blocked");
	tunable_contract(&vp, buf, sizeof buf);
	CHECK_STR(buf, "cols >= 1 (rows); vec * items * esize <= 64 (bytes in flight)");
	tunable_space(&vp, buf, sizeof buf);
	CHECK_STR(buf, "block=128,256 items=2,4 layout=striped,blocked");
	const struct variant_params narrowed = {.set = &knob_set, .space = "block=256 items=4"};
	tunable_space(&narrowed, buf, sizeof buf);
	CHECK_STR(buf, "block=256 items=4");
	/* A small buffer truncates, never overruns. */
	char small[8];
	tunable_describe(&vp, small, sizeof small);
	CHECK_INT(strlen(small), 7);
}

/* The tuner appends op= to every evaluation: a variant without operators
 * ignores it, one with operators takes only its own. */
static void test_op(void)
{
	const struct variant none = {.name = "x.none"}, sum_max = {.name = "x.sm", .ops = OP_BIT(OP_SUM) | OP_BIT(OP_MAX)};
	struct case_args a = {.name = "c", .variant = "x", .params = "op=max"};
	enum op o = OP_MIN;
	char msg[128];

	CHECK_INT(variant_op(&none, &a, &o, msg, sizeof msg), 0);
	CHECK_INT(o, OP_SUM);
	CHECK_INT(variant_op(&sum_max, &a, &o, msg, sizeof msg), 0);
	CHECK_INT(o, OP_MAX);
	a.params = "op=min";
	CHECK_INT(variant_op(&sum_max, &a, &o, msg, sizeof msg), -1);
	CHECK_CONTAINS(msg, "op=min: x.sm takes sum|max");
	a.params = "block=1";
	CHECK_INT(variant_op(&sum_max, &a, &o, msg, sizeof msg), 0);
	CHECK_INT(o, OP_SUM);
}

int main(void)
{
	test_op();
	test_expr();
	test_bind();
	test_cycle();
	test_texts();
	return TEST_END();
}
