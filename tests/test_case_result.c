/*
 * test_case_result.c - a case's verdict and message, and a case posed at
 * another size (common/case.h, common/case_result.c).
 *
 * Expected values are worked out by hand (or are published test vectors),
 * never recomputed with the code under test.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/case.h"
#include "tests/result_fixture.h"
#include "tests/test.h"

/* case_result_set formats and leaves err_norm alone. */
static void test_case_result_set(void)
{
	struct case_result r;

	fresh(&r);
	r.err_norm = 0.5;
	case_result_set(&r, OUTCOME_INVALID, "block=%d is not a power of two", 48);
	CHECK_INT(r.outcome, OUTCOME_INVALID);
	CHECK_STR(r.message, "block=48 is not a power of two");
	CHECK(r.err_norm == 0.5);
	char longtext[2 * RESULT_MESSAGE_MAX];
	memset(longtext, 'x', sizeof longtext - 1);
	longtext[sizeof longtext - 1] = '\0';
	case_result_set(&r, OUTCOME_WRONG, "%s", longtext);
	CHECK_INT(strlen(r.message), RESULT_MESSAGE_MAX - 1);
}

/* case_result_lead: the cause first, then ": " and what was there. */
static void test_case_result_lead(void)
{
	struct case_result r;
	fresh(&r);
	r.err_norm = 0.25;
	case_result_set(&r, OUTCOME_WRONG, "1 of %d outputs wrong", 4);
	case_result_lead(&r, "never written at [%d]", 3);
	CHECK_STR(r.message, "never written at [3]: 1 of 4 outputs wrong");
	CHECK_INT(r.outcome, OUTCOME_WRONG);
	CHECK(r.err_norm == 0.25);
	case_result_lead(&r, "%s", "second");
	CHECK_STR(r.message, "second: never written at [3]: 1 of 4 outputs wrong");

	/* An empty message: the cause alone, no ": ". */
	fresh(&r);
	case_result_lead(&r, "cause %s", "only");
	CHECK_STR(r.message, "cause only");
	CHECK_INT(r.outcome, OUTCOME_ERROR);

	/* A message that fills the buffer is cut from its end, the cause
	 * whole; nothing is written past the message. */
	char full[RESULT_MESSAGE_MAX];
	memset(full, 'x', sizeof full - 1);
	full[sizeof full - 1] = '\0';
	fresh(&r);
	case_result_set(&r, OUTCOME_WRONG, "%s", full);
	case_result_lead(&r, "%s", "lead");
	CHECK_INT(strlen(r.message), RESULT_MESSAGE_MAX - 1);
	CHECK(strncmp(r.message, "lead: xxx", 9) == 0);
	CHECK(r.message[RESULT_MESSAGE_MAX - 2] == 'x');

	/* A cause longer than the buffer: cut, terminated, the old message
	 * gone. */
	char big[2 * RESULT_MESSAGE_MAX];
	memset(big, 'c', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	struct { struct case_result r; char after[16]; } guard;
	memset(guard.after, '#', sizeof guard.after);
	fresh(&guard.r);
	case_result_set(&guard.r, OUTCOME_WRONG, "%s", "was");
	case_result_lead(&guard.r, "%s", big);
	CHECK_INT(strlen(guard.r.message), RESULT_MESSAGE_MAX - 1);
	CHECK(strstr(guard.r.message, "was") == NULL);
	for (size_t i = 0; i < sizeof guard.after; i++)
		CHECK(guard.after[i] == '#');
	/* Just room for the cause and ": " but not one byte of the rest. */
	fresh(&r);
	case_result_set(&r, OUTCOME_WRONG, "%s", "rest");
	memset(big, 'c', RESULT_MESSAGE_MAX - 3);
	big[RESULT_MESSAGE_MAX - 3] = '\0';
	case_result_lead(&r, "%s", big);
	CHECK_INT(strlen(r.message), RESULT_MESSAGE_MAX - 1);
	CHECK(strcmp(r.message + RESULT_MESSAGE_MAX - 3, ": ") == 0);
}

/* The name case_resized gives c (its own name) posed at n x cols. */
static const char *resized_name(const char *name, int64_t n, int64_t cols)
{
	static struct case_spec c, out;
	memset(&c, 0, sizeof c);
	snprintf(c.name, sizeof c.name, "%s", name);
	case_resized(&c, n, cols, &out);
	return out.name;
}

/* case_resized: the name's size token, a last ".n<N>" or ".r<R>.c<C>",
 * replaced by the new size, or the size added; the rest of the spec
 * copied. */
static void test_case_resized(void)
{
	CHECK_STR(resized_name("user.k.sum.f32.n33", 64, 0), "user.k.sum.f32.n64");
	CHECK_STR(resized_name("user.k.f32.r7.c33", 3, 32), "user.k.f32.r3.c32");
	/* Flat to rows and back. */
	CHECK_STR(resized_name("user.k.sum.f32.n33", 4, 8), "user.k.sum.f32.r4.c8");
	CHECK_STR(resized_name("user.k.f32.r7.c33", 5, 0), "user.k.f32.n5");
	/* No size token: the size added. */
	CHECK_STR(resized_name("harness.above.4097", 1001, 0), "harness.above.4097.n1001");
	CHECK_STR(resized_name("harness.pass.f32", 1001, 0), "harness.pass.f32.n1001");
	CHECK_STR(resized_name("harness.pass.f32", 2, 16), "harness.pass.f32.r2.c16");
	/* Not size tokens: no digits, no ".c" after ".r<R>", no ".r" before
	 * ".c<C>", digits missing between, a token not last. */
	CHECK_STR(resized_name("x.n", 1001, 0), "x.n.n1001");
	CHECK_STR(resized_name("x.r5", 1001, 0), "x.r5.n1001");
	CHECK_STR(resized_name("x.rc3", 1001, 0), "x.rc3.n1001");
	CHECK_STR(resized_name("x.c3", 1001, 0), "x.c3.n1001");
	CHECK_STR(resized_name("x.r.c3", 1001, 0), "x.r.c3.n1001");
	CHECK_STR(resized_name("x.q5.c3", 1001, 0), "x.q5.c3.n1001");
	CHECK_STR(resized_name("xr5.c3", 1001, 0), "xr5.c3.n1001");
	CHECK_STR(resized_name("x.n5a", 7, 0), "x.n5a.n7");
	CHECK_STR(resized_name("x.n5.f32", 7, 0), "x.n5.f32.n7");
	CHECK_STR(resized_name("n5", 7, 0), "n5.n7");
	CHECK_STR(resized_name(".n5", 7, 0), ".n7"); /* all token */
	CHECK_STR(resized_name("x.n5", CASE_ELEMENTS_MAX, 0), "x.n1099511627776");

	/* n and cols set, everything else copied. */
	struct case_spec c, out;
	memset(&c, 0, sizeof c);
	snprintf(c.name, sizeof c.name, "user.k.f32.r7.c33");
	snprintf(c.variant, sizeof c.variant, "rows.sum");
	c.dtype = DTYPE_BF16;
	c.n = 7;
	c.cols = 33;
	snprintf(c.params, sizeof c.params, "block=128,op=sum");
	c.template_params = 0x5;
	c.expect = EXPECT_FAIL;
	snprintf(c.req[0].what, sizeof c.req[0].what, "sm");
	c.req[0].cmp = REQ_GE;
	c.req[0].value = 80;
	c.nreq = 1;
	c.timeout_s = 2.5;
	c.tolerance = 4;
	snprintf(c.file, sizeof c.file, "suites/user.suite");
	c.line = 12;
	memset(&out, 0xA5, sizeof out);
	case_resized(&c, 3, 32, &out);
	CHECK_STR(out.name, "user.k.f32.r3.c32");
	CHECK_INT(out.n, 3);
	CHECK_INT(out.cols, 32);
	CHECK_STR(out.variant, "rows.sum");
	CHECK_INT(out.dtype, DTYPE_BF16);
	CHECK_STR(out.params, "block=128,op=sum");
	CHECK_INT(out.template_params, 0x5);
	CHECK_INT(out.expect, EXPECT_FAIL);
	CHECK_STR(out.req[0].what, "sm");
	CHECK_INT(out.req[0].cmp, REQ_GE);
	CHECK_INT(out.req[0].value, 80);
	CHECK_INT(out.nreq, 1);
	CHECK(out.timeout_s == 2.5);
	CHECK(out.tolerance == 4);
	CHECK_STR(out.file, "suites/user.suite");
	CHECK_INT(out.line, 12);
	CHECK_STR(c.name, "user.k.f32.r7.c33"); /* c left alone */
	CHECK_INT(c.n, 7);

	/* In place: out == c. */
	case_resized(&c, 1000, 0, &c);
	CHECK_STR(c.name, "user.k.f32.n1000");
	CHECK_INT(c.n, 1000);
	CHECK_INT(c.cols, 0);
	CHECK_STR(c.params, "block=128,op=sum");
	CHECK_INT(c.line, 12);
	case_resized(&c, 1001, 0, &c);
	CHECK_STR(c.name, "user.k.f32.n1001");

	/* A name near CASE_NAME_MAX: cut to fit, terminated, the size last. */
	memset(c.name, 'a', sizeof c.name - 1);
	c.name[sizeof c.name - 1] = '\0';
	case_resized(&c, 64, 0, &out);
	CHECK(strlen(out.name) < sizeof out.name);
	CHECK(strncmp(out.name, "aaaa", 4) == 0);
	CHECK_STR(out.name + strlen(out.name) - 4, ".n64");
	case_resized(&c, 1LL << 20, 1LL << 20, &out);
	CHECK(strlen(out.name) < sizeof out.name);
	CHECK_STR(out.name + strlen(out.name) - 18, ".r1048576.c1048576");
}

int main(void)
{
	test_case_result_set();
	test_case_result_lead();
	test_case_resized();
	return TEST_END();
}
