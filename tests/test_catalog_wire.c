/*
 * test_catalog_wire.c - the catalog's line format: what the worker writes
 * conform reads back unchanged, whatever the length of a field, and what
 * cannot travel whole is refused on either side with a message; control
 * bytes are read as '?'.
 */
#include <stdlib.h>
#include <string.h>

#include "common/catalog_wire.h"
#include "tests/test.h"

static const struct catalog_entry tree = {
	.name = "block.tree", .gpu = 1, .dtypes = "f32,i32",
	.summary = "shared-memory tree reduction",
	.contract = "Requires: block is a power of two, 32..1024",
	.tunables = "", .space = "block=128,256 items=1,2",
	.copy = "device.copy", .copy_n = 268435456, .baseline = "device.cub", .baseline_rows = "",
};

/* Formats e, parses the line back into *out; returns the parse's answer. */
static int round_trip(const struct catalog_entry *e, struct catalog_entry *out)
{
	char err[256];
	struct catalog_build b;
	char *line = catalog_wire_format_variant(e, err, sizeof err);
	CHECK(line != NULL);
	if (!line)
		return -1;
	int kind = catalog_wire_parse(line, &b, out, err, sizeof err);
	free(line);
	return kind;
}

static void test_format(void)
{
	char err[256];
	char *line = catalog_wire_format_variant(&tree, err, sizeof err);
	/* Empty optionals travel as "-", the copy's size as a decimal count. */
	CHECK_STR(line, "variant\tblock.tree\t1\tf32,i32\tshared-memory tree reduction\t"
			"Requires: block is a power of two, 32..1024\t-\tblock=128,256 items=1,2\t"
			"device.copy\t268435456\tdevice.cub\t-\t-\t-\t-\t-\t-\t-\t0\n");
	free(line);
	struct catalog_build b = {.has_kernels = 0, .archs = "sm_80 sm_90"};
	line = catalog_wire_format_build(&b, err, sizeof err);
	CHECK_STR(line, "build\tno-kernels\tsm_80 sm_90\n");
	free(line);
}

static void test_round_trip(void)
{
	struct catalog_entry e;
	CHECK_INT(round_trip(&tree, &e), CATALOG_WIRE_VARIANT);
	CHECK_STR(e.name, "block.tree");
	CHECK_INT(e.gpu, 1);
	CHECK_STR(e.dtypes, "f32,i32");
	CHECK_STR(e.summary, tree.summary);
	CHECK_STR(e.contract, tree.contract);
	CHECK_STR(e.tunables, ""); /* "-" on the wire, empty again here */
	CHECK_STR(e.space, tree.space);
	CHECK_STR(e.copy, "device.copy");
	CHECK_INT(e.copy_n, 268435456);
	CHECK_STR(e.baseline, "device.cub");
	CHECK_STR(e.baseline_rows, "");
	CHECK_INT(e.huge_cols, 0);
	catalog_wire_free_variant(&e);
	CHECK(e.name == NULL);

	/* A rows kernel file's: the columns of its shape past 32-bit indices. */
	struct catalog_entry rows = tree;
	rows.kind = "softmax";
	rows.huge_cols = 1025;
	CHECK_INT(round_trip(&rows, &e), CATALOG_WIRE_VARIANT);
	CHECK_STR(e.kind, "softmax");
	CHECK_INT(e.huge_cols, 1025);
	catalog_wire_free_variant(&e);

	/* NULL strings (a variant with no space) travel as empty ones. */
	struct catalog_entry host = {.name = "harness.ok", .gpu = 0, .dtypes = "f32",
				     .summary = "", .contract = "none", .tunables = NULL, .space = NULL};
	CHECK_INT(round_trip(&host, &e), CATALOG_WIRE_VARIANT);
	CHECK_INT(e.gpu, 0);
	CHECK_STR(e.summary, "");
	CHECK_STR(e.tunables, "");
	CHECK_STR(e.space, "");
	catalog_wire_free_variant(&e);

	char err[256];
	struct catalog_build b;
	CHECK_INT(catalog_wire_parse("build\tkernels\t\n", &b, &e, err, sizeof err), CATALOG_WIRE_BUILD);
	CHECK_INT(b.has_kernels, 1);
	CHECK_STR(b.archs, "");
	catalog_wire_free_build(&b);
}

/* A field far longer than the fixed buffers the catalog used to be cut
 * to (512 bytes for a contract) comes back whole. */
static void test_long_field(void)
{
	size_t n = 20000;
	char *contract = malloc(n + 1);
	for (size_t i = 0; i < n; i++)
		contract[i] = (char)('a' + i % 26);
	contract[n] = '\0';
	struct catalog_entry big = tree, e;
	big.contract = contract;
	CHECK_INT(round_trip(&big, &e), CATALOG_WIRE_VARIANT);
	CHECK_INT(strlen(e.contract), n);
	CHECK(strcmp(e.contract, contract) == 0);
	CHECK_STR(e.space, tree.space); /* the fields after it are intact too */
	catalog_wire_free_variant(&e);

	/* Past the line limit: the writer refuses, and so does the reader. */
	char err[256];
	size_t huge = CATALOG_WIRE_LINE_MAX;
	char *summary = malloc(huge + 1);
	memset(summary, 'x', huge);
	summary[huge] = '\0';
	big.summary = summary;
	CHECK(catalog_wire_format_variant(&big, err, sizeof err) == NULL);
	CHECK_CONTAINS(err, "over the 65536");

	char *line = malloc(huge + 64);
	snprintf(line, huge + 64, "variant\tx\t0\tf32\t%s\tc\t-\t-\n", summary);
	struct catalog_build b;
	CHECK_INT(catalog_wire_parse(line, &b, &e, err, sizeof err), -1);
	CHECK_CONTAINS(err, "over the 65536");
	free(line);
	free(summary);
	free(contract);
}

static void test_malformed(void)
{
	char err[256];
	struct catalog_build b;
	struct catalog_entry e;
	CHECK_INT(catalog_wire_parse("variant\tblock.tree\t1\tf32\tsummary\n", &b, &e, err, sizeof err), -1);
	CHECK_CONTAINS(err, "4 fields after the tag, not 18");
	CHECK_INT(catalog_wire_parse("variant\ta\t1\tf32\ts\tc\t-\t-\t-\t0\t-\t-\t-\t-\t-\t-\t-\t-\t0\textra\n", &b, &e, err,
				     sizeof err), -1);
	CHECK_CONTAINS(err, "19 fields after the tag, not 18");
	CHECK_INT(catalog_wire_parse("variant\ta\tyes\tf32\ts\tc\t-\t-\t-\t0\t-\t-\t-\t-\t-\t-\t-\t-\t0\n", &b, &e, err, sizeof err),
		  -1);
	CHECK_CONTAINS(err, "field 'gpu' is 'yes'");
	/* The copy's size is a count: no sign, no junk. */
	CHECK_INT(catalog_wire_parse("variant\ta\t1\tf32\ts\tc\t-\t-\t-\t-5\t-\t-\t-\t-\t-\t-\t-\t-\t0\n", &b, &e, err, sizeof err),
		  -1);
	CHECK_CONTAINS(err, "field 'copy_n' is '-5', not a count");
	CHECK_INT(catalog_wire_parse("variant\ta\t1\tf32\ts\tc\t-\t-\t-\t12x\t-\t-\t-\t-\t-\t-\t-\t-\t0\n", &b, &e, err, sizeof err),
		  -1);
	CHECK_CONTAINS(err, "not a count");
	CHECK_INT(catalog_wire_parse("variant\ta\t1\tf32\ts\tc\t-\t-\t-\t0\t-\t-\t-\t-\t-\t-\t-\t-\t-\n", &b, &e, err,
				     sizeof err), -1);
	CHECK_CONTAINS(err, "field 'huge_cols' is '-', not a count");
	CHECK_INT(catalog_wire_parse("build\tmaybe\tsm_80\n", &b, &e, err, sizeof err), -1);
	CHECK_CONTAINS(err, "field 'has_kernels'");
	/* The worker's refusal is handed back as the message, made printable. */
	char *refusal = catalog_wire_format_error("k.cu:3: unknown kind\t'x'\x1b");
	CHECK(refusal != NULL);
	if (refusal) {
		CHECK_STR(refusal, "error\tk.cu:3: unknown kind 'x'\x1b\n");
		CHECK_INT(catalog_wire_parse(refusal, &b, &e, err, sizeof err), CATALOG_WIRE_ERROR);
		CHECK_STR(err, "k.cu:3: unknown kind 'x'?");
	}
	free(refusal);

	CHECK_INT(catalog_wire_parse("kernel\ta\n", &b, &e, err, sizeof err), -1);
	CHECK_CONTAINS(err, "unknown record 'kernel'");
	CHECK_INT(catalog_wire_parse("\n", &b, &e, err, sizeof err), -1);
	CHECK_INT(catalog_wire_parse("a\tb\tc\td\te\tf\tg\th\ti\tj\tk\tl\tm\tn\to\tp\tq\tr\ts\tt\tu\tv"
				     "\tw\tx\ty\tz\t1\t2\t3\t4\t5\t6\t7\n", &b, &e, err, sizeof err), -1);
	CHECK_CONTAINS(err, "more than");

	/* Control bytes are made visible, in the values and in the messages
	 * that quote them. */
	CHECK_INT(catalog_wire_parse("variant\ta\t1\tf32\t\x1b[2Jx\tc\x07\t-\t-\t-\t0\t-\t-\t-\t-\t-\t-\t-\t-\t0\n", &b, &e, err,
				     sizeof err), CATALOG_WIRE_VARIANT);
	CHECK_STR(e.summary, "?[2Jx");
	CHECK_STR(e.contract, "c?");
	catalog_wire_free_variant(&e);
	CHECK_INT(catalog_wire_parse("variant\ta\t1\x1b[8m\tf32\ts\tc\t-\t-\t-\t0\t-\t-\t-\t-\t-\t-\t-\t-\t0\n", &b, &e, err,
				     sizeof err), -1);
	CHECK_CONTAINS(err, "field 'gpu' is '1?[8m'");

	/* The writer sends an empty optional field as "-": an empty one is
	 * refused, as it would not format back within the same length. */
	CHECK_INT(catalog_wire_parse("variant\ta\t1\tf32\ts\tc\t\t-\t-\t0\t-\t-\t-\t-\t-\t-\t-\t-\t0\n", &b, &e, err, sizeof err),
		  -1);
	CHECK_CONTAINS(err, "field 'tunables' is empty");
	/* A quoted value cut inside a character leaves no stray byte. */
	CHECK_INT(catalog_wire_parse("0123456789012345678901234567890123456789\xc2\xb1\tx\n", &b, &e, err,
				     sizeof err), -1);
	CHECK_STR(err, "unknown record '0123456789012345678901234567890123456789'");
	CHECK_INT(catalog_wire_parse("012345678901234567890123456789012345678\xc2\xb1\tx\n", &b, &e, err,
				     sizeof err), -1);
	CHECK_STR(err, "unknown record '012345678901234567890123456789012345678?'");

	/* What would not read back unchanged is not written. */
	struct catalog_entry bad = tree;
	bad.summary = "one\ttwo";
	CHECK(catalog_wire_format_variant(&bad, err, sizeof err) == NULL);
	CHECK_CONTAINS(err, "field 'summary' holds a tab");
	bad = tree;
	bad.contract = "line\nbreak";
	CHECK(catalog_wire_format_variant(&bad, err, sizeof err) == NULL);
	CHECK_CONTAINS(err, "field 'contract'");
	bad = tree;
	bad.tunables = "-";
	CHECK(catalog_wire_format_variant(&bad, err, sizeof err) == NULL);
	CHECK_CONTAINS(err, "field 'tunables' is \"-\"");
}

int main(void)
{
	test_format();
	test_round_trip();
	test_long_field();
	test_malformed();
	return TEST_END();
}
