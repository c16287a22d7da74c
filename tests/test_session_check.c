/*
 * test_session_check.c - suite cases against a catalog (session_check.h):
 * what the worker would refuse at run time is refused before, with the
 * case's file:line; template variables and op pass.
 *
 * The catalog is written out here in the worker's words (its tunables
 * text as conform-worker --catalog prints it), so no worker is needed.
 */
#include <stdio.h>
#include <string.h>

#include "session/session_check.h"
#include "suite/suite.h"
#include "tests/test.h"

static struct catalog_entry entries[] = {
	{.name = "harness.pass", .dtypes = "f32,f64,i32", .summary = "", .contract = "", .tunables = "",
	 .space = "", .copy = "", .baseline = "", .baseline_rows = ""},
	{.name = "harness.spin", .dtypes = "f32,f64,i32", .summary = "", .contract = "",
	 .tunables = "op=sum block=32..1024 (power of two) items=1..64 (power of two) vec=1..4 (power of two)",
	 .space = "", .copy = "", .baseline = "", .baseline_rows = ""},
	{.name = "rows.op.lse", .gpu = 1, .dtypes = "f32,bf16", .summary = "", .contract = "",
	 .tunables = "by=warp|block", .space = "", .copy = "", .baseline = "", .baseline_rows = ""},
	{.name = "block.tree", .gpu = 1, .dtypes = "f32,i32", .summary = "", .contract = "",
	 .tunables = "op=sum|max|min block=32..1024 (multiple of 32)", .space = "", .copy = "",
	 .baseline = "", .baseline_rows = ""},
};

static struct catalog cat = {
	.v = entries, .count = sizeof entries / sizeof *entries, .has_kernels = 1, .archs = "sm_90",
};

/* Loads one suite line and checks its every case; returns the result,
 * the message in err. */
static int check_text(const char *text, char *err, size_t len)
{
	struct suite s = {0};
	int rc = suite_load_text(&s, "t.suite", text, err, len);

	CHECK_INT(rc, 0);
	for (size_t i = 0; rc == 0 && i < s.count; i++)
		rc = session_check_case(&cat, &s.cases[i], err, len);
	suite_free(&s);
	return rc;
}

static void expect_ok(const char *text)
{
	char err[512] = "";
	CHECK_INT(check_text(text, err, sizeof err), 0);
	CHECK_STR(err, "");
}

static void expect_refused(const char *text, const char *want)
{
	char err[512] = "";
	CHECK_INT(check_text(text, err, sizeof err), -1);
	CHECK_STR(err, want);
}

int main(void)
{
	expect_ok("case a variant=harness.pass n=10 dtype=i32\n");
	expect_ok("case a.{op}.{dtype} variant=block.tree op=sum|max|min dtype=f32|i32 block=64 n=100\n");
	expect_ok("case a variant=harness.spin op=sum block=64 items=2 vec=4 n=10\n");
	/* A template variable fills the variant; by is the tunable. */
	expect_ok("case r.{stat} variant=rows.op.{stat} stat=lse by=warp dtype=bf16 n=10 cols=3\n");
	/* A variant without operators ignores op (the tuner gives every
	 * case one). */
	expect_ok("case a variant=harness.pass op=max n=10\n");

	/* Unknown variants, as before. */
	expect_refused("\ncase a variant=harness.nope n=10\n",
		       "t.suite:2: unknown variant 'harness.nope' (conform --variants lists them)");
	/* A dtype the variant lacks was an ERROR at run time. */
	expect_refused("case a variant=harness.pass dtype=u32 n=10\n",
		       "t.suite:1: case 'a': harness.pass does not support dtype u32 (it has f32,f64,i32)");
	expect_refused("case a.{dtype} variant=block.tree dtype=f32|bf16 n=10\n",
		       "t.suite:1: case 'a.bf16': block.tree does not support dtype bf16 (it has f32,i32)");
	/* A parameter the variant does not read was silently ignored. */
	expect_refused("case a variant=harness.spin blok=64 n=10\n",
		       "t.suite:1: case 'a': harness.spin has no parameter 'blok' (it takes op, block, items, vec)");
	expect_refused("case a variant=harness.pass block=64 n=10\n",
		       "t.suite:1: case 'a': harness.pass has no parameter 'block' (it takes no parameters)");
	/* A key used only in the name is a parameter all the same. */
	expect_refused("case r.{stat} variant=rows.op.lse stat=lse n=10 cols=3\n",
		       "t.suite:1: case 'r.lse': rows.op.lse has no parameter 'stat' (it takes by)");
	/* An op the variant does not take. */
	expect_refused("case a variant=harness.spin op=max n=10\n",
		       "t.suite:1: case 'a': op=max: harness.spin takes op=sum");

	/* Without kernels, a GPU family's variant is absent, not unknown;
	 * the harness's are always there. */
	struct catalog host = {.v = entries, .count = 2, .has_kernels = 0, .archs = ""};
	struct suite s = {0};
	char err[512] = "";
	CHECK_INT(suite_load_text(&s, "h", "case g variant=block.tree n=1 dtype=u32 blok=1\n"
					   "case h variant=harness.gone n=1\n", err, sizeof err), 0);
	const struct case_spec *sel[] = {&s.cases[0], &s.cases[1]};
	CHECK_INT(session_check_cases(&host, sel, 1, err, sizeof err), 0);
	CHECK_INT(session_check_cases(&host, sel, 2, err, sizeof err), -1);
	CHECK_STR(err, "h:2: unknown variant 'harness.gone' (conform --variants lists them)");
	suite_free(&s);

	CHECK_INT(session_variant_has_dtype(&entries[3], DTYPE_I32), 1);
	CHECK_INT(session_variant_has_dtype(&entries[3], DTYPE_F64), 0);
	CHECK_INT(session_variant_has_dtype(&entries[2], DTYPE_BF16), 1);
	return TEST_END();
}
