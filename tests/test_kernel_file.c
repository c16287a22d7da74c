/*
 * test_kernel_file.c - a user's kernel file read from text: every
 * directive of a full declaration, the variant built from it, its launch
 * expressions evaluated, its tunables bound, and each way a declaration is
 * refused with "ORIGIN:LINE: why" (or "ORIGIN: why" for what needs the
 * whole declaration).
 */
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "common/case.h"
#include "tests/test.h"
#include "worker/kernel_file.h"

static struct kernel_file k; /* large: not on the stack */
static char err[1024];

static int parse(const char *origin, const char *text)
{
	err[0] = '\0';
	return kernel_file_parse(&k, origin, text, strlen(text), NULL, err, sizeof err);
}

/* A declaration that is complete but for what `extra` adds on line 7
 * onwards, with the kind, dtypes, @block and @grid given (lines 2, 4, 5
 * and 6). */
static const char *decl(const char *kind, const char *dtypes, const char *block, const char *grid,
			const char *extra)
{
	static char buf[8192];

	snprintf(buf, sizeof buf,
		 "/*\n"
		 " * @kind %s\n"
		 " * @entry k\n"
		 " * @dtypes %s\n"
		 " * @block %s\n"
		 " * @grid %s\n"
		 "%s"
		 " */\n"
		 "extern \"C\" __global__ void k(const T *in, T *out, long long n, void *scratch) {}\n",
		 kind, dtypes, block, grid, extra);
	return buf;
}

static const char *with(const char *extra)
{
	return decl("reduce", "f32", "256", "1", extra);
}

/* The text is refused with a message that begins with `prefix` and says
 * `phrase`; nothing is left to free. */
#define CHECK_REFUSED(text, prefix, phrase) do { \
	CHECK_INT(parse("o.cu", (text)), -1); \
	CHECK_INT(strncmp(err, (prefix), strlen(prefix)), 0); \
	if (strncmp(err, (prefix), strlen(prefix)) != 0) \
		fprintf(stderr, "  message: %s\n", err); \
	CHECK_CONTAINS(err, (phrase)); \
	CHECK(k.source == NULL && k.arena == NULL); \
} while (0)

static const char full[] =
	"/*\n"                                                                          /* 1 */
	" * A sum with every directive.\n"                                              /* 2 */
	" *\n"                                                                          /* 3 */
	" * @kind     reduce\n"                                                         /* 4 */
	" * @entry    full_sum\n"                                                       /* 5 */
	" * @name     full\n"                                                           /* 6 */
	" * @summary  every directive once\n"                                           /* 7 */
	" * @dtypes   f32 f64, i32 bf16\n"                                              /* 8 */
	" * @ops      max sum\n"                                                        /* 9 */
	" * @tunable  block 64..1024 pow2 default=256 space=128,256,512 \"threads per block\"\n"
	" * @tunable  items 1|2|4|8 \"loads in flight\"\n"                              /* 11 */
	" * @tunable  layout striped|blocked default=blocked\n"                         /* 12 */
	" * @tunable  vec 4..16 multiple=4\n"                                           /* 13 */
	" * @tunable  tile 1..1024 default=block*items/32\n"                           /* 14 */
	" * @rule     block * items <= 2048 ; a block's tile stays small\n"            /* 15 */
	" * @rule     vec <= 16\n"                                                      /* 16 */
	" * @block    block\n"                                                          /* 17 */
	" * @shared   block * esize\n"                                                  /* 18 */
	" * @grid     min(sms * occupancy, (n + block - 1) / block)\n"                  /* 19 */
	" * @scratch  8 * sms + cols\n"                                                 /* 20 */
	" * @cooperative\n"                                                             /* 21 */
	" * @expect   fail\n"                                                           /* 22 */
	" * @requires sm>=80\n"                                                         /* 23 */
	" * @requires mem>=16\n"                                                        /* 24 */
	" * @timeout  2.5\n"                                                            /* 25 */
	" */\n"
	"extern \"C\" __global__ void full_sum(const T *in, T *out, long long n, void *scratch) {}\n";

static void test_full(void)
{
	CHECK_INT(parse("dir/full.cu", full), 0);
	CHECK_STR(err, "");
	if (err[0])
		return;
	CHECK_INT(k.kind, KERNEL_REDUCE);
	CHECK_STR(kernel_kind_name(k.kind), "reduce");
	CHECK_STR(k.entry, "full_sum");
	CHECK_STR(k.entry_name, "full_sum");
	CHECK_INT(k.entry_line, 5);
	/* Without @args, the kind's own parameters. */
	CHECK_INT(k.args_line, 0);
	CHECK_INT(k.nargs, 4);
	CHECK(k.nargs == 4 && k.args[0].role == KARG_IN && k.args[1].role == KARG_OUT &&
	      k.args[2].role == KARG_VALUE && strcmp(k.args[2].text, "n") == 0 && k.args[3].role == KARG_SCRATCH);
	CHECK_STR(k.name, "user.full");
	CHECK_STR(k.summary, "every directive once");
	CHECK_STR(k.path, "dir/full.cu");
	CHECK_INT(k.variant.dtypes, DTYPE_BIT(DTYPE_F32) | DTYPE_BIT(DTYPE_F64) | DTYPE_BIT(DTYPE_I32) |
				    DTYPE_BIT(DTYPE_BF16));
	CHECK_INT(k.variant.ops, OP_BIT(OP_SUM) | OP_BIT(OP_MAX));
	CHECK_INT(k.set.count, 5);

	const struct tunable *t = k.tunables;
	CHECK_STR(t[0].name, "block");
	CHECK_INT(t[0].lo, 64);
	CHECK_INT(t[0].hi, 1024);
	CHECK_INT(t[0].pow2, 1);
	CHECK(!t[0].values && !t[0].choices);
	CHECK_STR(t[0].def, "256");
	CHECK_STR(t[0].space, "128,256,512");
	CHECK_STR(t[0].doc, "threads per block");
	CHECK_INT(t[0].field, 0);
	CHECK_STR(t[1].values, "1|2|4|8");
	CHECK_STR(t[1].def, "1"); /* no default=: the lowest value */
	CHECK(t[1].space == NULL); /* no space=: not tuned */
	CHECK_STR(t[1].doc, "loads in flight");
	CHECK_INT(t[1].field, sizeof(int));
	CHECK_STR(t[2].choices, "striped|blocked");
	CHECK(t[2].values == NULL);
	CHECK_STR(t[2].def, "blocked");
	CHECK_STR(t[2].doc, "");
	CHECK_INT(t[3].multiple_of, 4);
	CHECK_STR(t[3].def, "4");
	CHECK_STR(t[4].def, "block*items/32");

	CHECK_INT(k.set.nrules, 2);
	CHECK_STR(k.rules[0].expr, "block * items <= 2048");
	CHECK_STR(k.rules[0].why, "a block's tile stays small");
	CHECK_STR(k.rules[1].expr, "vec <= 16");
	CHECK(k.rules[1].why == NULL);

	CHECK_STR(k.expr[KEXPR_BLOCK], "block");
	CHECK_STR(k.expr[KEXPR_SHARED], "block * esize");
	CHECK_STR(k.expr[KEXPR_GRID], "min(sms * occupancy, (n + block - 1) / block)");
	CHECK_STR(k.expr[KEXPR_SCRATCH], "8 * sms + cols");
	CHECK_INT(k.cooperative, 1);
	CHECK_STR(k.expect, "fail");
	CHECK_STR(k.requires, "sm>=80,mem>=16");
	CHECK_NEAR(k.timeout_s, 2.5, 0);
	CHECK_INT(k.source_len, strlen(full));
	CHECK_STR(k.source, full);
	CHECK_INT(strlen(k.sha256), 64);

	/* The variant, pointing into k. */
	const struct variant *v = &k.variant;
	CHECK_STR(v->name, "user.full");
	CHECK(v->name == k.name);
	CHECK_STR(v->summary, "every directive once");
	CHECK_INT(v->gpu, 1);
	CHECK(v->params.set == &k.set);
	CHECK_INT(v->params.set->count, 5);
	CHECK(v->params.set->tunables == k.tunables);
	CHECK_INT(v->params.set->nrules, 2);
	CHECK(v->check == NULL && v->run == NULL && v->build == NULL && v->refs == NULL);
	CHECK(kernel_file_of(v) == &k);

	/* The launch expressions: values in declaration order, the problem,
	 * the device. */
	const int values[] = {256, 4, 1, 8, 32};
	struct kernel_scope s = {.k = &k, .values = values,
				 .pb = {.dtype = DTYPE_F64, .n = 1000, .cols = 0},
				 .sms = 132, .occupancy = 8};
	long long out = -1;
	CHECK_INT(kernel_file_eval(&s, KEXPR_BLOCK, &out, err, sizeof err), 0);
	CHECK_INT(out, 256);
	CHECK_INT(kernel_file_eval(&s, KEXPR_SHARED, &out, err, sizeof err), 0);
	CHECK_INT(out, 256 * 8);
	CHECK_INT(kernel_file_eval(&s, KEXPR_GRID, &out, err, sizeof err), 0);
	CHECK_INT(out, 4); /* (1000 + 255) / 256, under 132 * 8 */
	s.pb.n = 1 << 24;
	CHECK_INT(kernel_file_eval(&s, KEXPR_GRID, &out, err, sizeof err), 0);
	CHECK_INT(out, 132 * 8);
	s.occupancy = 2;
	CHECK_INT(kernel_file_eval(&s, KEXPR_GRID, &out, err, sizeof err), 0);
	CHECK_INT(out, 132 * 2);
	CHECK_INT(kernel_file_eval(&s, KEXPR_SCRATCH, &out, err, sizeof err), 0);
	CHECK_INT(out, 8 * 132);
	s.pb.cols = 5;
	CHECK_INT(kernel_file_eval(&s, KEXPR_SCRATCH, &out, err, sizeof err), 0);
	CHECK_INT(out, 8 * 132 + 5);
	s.pb.dtype = DTYPE_BF16;
	CHECK_INT(kernel_file_eval(&s, KEXPR_SHARED, &out, err, sizeof err), 0);
	CHECK_INT(out, 256 * 2);

	/* The tunables bound through the variant's declaration: defaults,
	 * choices by index, defaults that name other tunables, rules. */
	const struct problem pb = {.dtype = DTYPE_F32, .n = 4096, .cols = 0};
	int fields[TUNABLES_MAX];
	long long bound[TUNABLES_MAX];
	char msg[512] = "";
	CHECK_INT(tunable_bind(&v->params, &pb, "block=128", fields, bound, msg, sizeof msg), 0);
	CHECK_STR(msg, "");
	CHECK_INT(bound[0], 128);
	CHECK_INT(bound[1], 1);
	CHECK_INT(bound[2], 1); /* blocked: the second choice */
	CHECK_INT(bound[3], 4);
	CHECK_INT(bound[4], 128 * 1 / 32);
	CHECK_INT(fields[0], 128);
	CHECK_INT(fields[4], 4);
	CHECK_INT(tunable_bind(&v->params, &pb, "block=512,items=4,layout=striped", fields, bound, msg,
			       sizeof msg), 0);
	CHECK_INT(bound[2], 0);
	CHECK_INT(bound[4], 64);
	/* 1024 x 4 breaks the first rule: refused, saying which and why. */
	CHECK_INT(tunable_bind(&v->params, &pb, "block=1024,items=4", fields, bound, msg, sizeof msg), -1);
	CHECK_CONTAINS(msg, "block * items <= 2048 does not hold (a block's tile stays small)");
	CHECK_CONTAINS(msg, "block=1024");
	CHECK_CONTAINS(msg, "items=4");
	/* The tunables' own ranges. */
	CHECK_INT(tunable_bind(&v->params, &pb, "block=96", fields, bound, msg, sizeof msg), -1);
	CHECK_CONTAINS(msg, "block=96 is not a power of two");
	CHECK_INT(tunable_bind(&v->params, &pb, "vec=6", fields, bound, msg, sizeof msg), -1);
	CHECK_CONTAINS(msg, "vec=6 is not a multiple of 4");
	CHECK_INT(tunable_bind(&v->params, &pb, "layout=tiled", fields, bound, msg, sizeof msg), -1);
	CHECK_CONTAINS(msg, "layout=tiled: expected striped|blocked");
	kernel_file_free(&k);
	CHECK(k.source == NULL && k.arena == NULL);
}

/* The same declaration as a run of // lines, and what is left out
 * defaults: no @ops is sum, no @shared evaluates to 0, the name comes from
 * the file name. */
static void test_line_comments(void)
{
	static const char text[] =
		"\n"
		"// A kernel declared in // lines.\n"      /* 2 */
		"//\n"                                     /* 3 */
		"//   @kind   rows\n"                      /* 4 */
		"// @dtypes f32\n"                         /* 5 */
		"//@entry row_sum\n"                       /* 6 */
		"// @tunable warps 1..8 pow2 default=4\n"  /* 7 */
		"// @rule warps * 32 <= 256\n"             /* 8 */
		"// @block 32 * warps\n"                   /* 9 */
		"// @grid (n + warps - 1) / warps\n"       /* 10 */
		"#include <cuda_bf16.h>\n"
		"// @kind softmax is not read: the first comment ended\n"
		"extern \"C\" __global__ void row_sum(const T *in, T *out, long long rows, long long cols,\n"
		"\tvoid *scratch) {}\n";

	CHECK_INT(parse("kernels/My-Kernel.cu", text), 0);
	CHECK_STR(err, "");
	CHECK_INT(k.kind, KERNEL_ROWS);
	CHECK_STR(k.entry, "row_sum");
	CHECK(k.nargs == 5 && strcmp(k.args[2].text, "rows") == 0 && strcmp(k.args[3].text, "cols") == 0 &&
	      k.args[4].role == KARG_SCRATCH);
	CHECK_INT(k.entry_line, 6);
	CHECK_STR(k.name, "user.my_kernel");
	CHECK_STR(k.variant.name, "user.my_kernel");
	CHECK_INT(k.variant.dtypes, DTYPE_BIT(DTYPE_F32));
	CHECK_INT(k.variant.ops, OP_BIT(OP_SUM));
	CHECK_INT(k.set.count, 1);
	CHECK_STR(k.tunables[0].def, "4");
	CHECK_INT(k.set.nrules, 1);
	CHECK(k.rules[0].why == NULL);
	CHECK(k.expr[KEXPR_SHARED] == NULL && k.expr[KEXPR_SCRATCH] == NULL);
	CHECK_INT(k.cooperative, 0);
	CHECK_STR(k.expect, "");
	CHECK_STR(k.requires, "");
	CHECK_NEAR(k.timeout_s, 0, 0);
	CHECK_CONTAINS(k.summary, "row_sum()");

	const int values[] = {2};
	struct kernel_scope s = {.k = &k, .values = values,
				 .pb = {.dtype = DTYPE_F32, .n = 7, .cols = 33}, .sms = 4, .occupancy = 1};
	long long out = -1;
	CHECK_INT(kernel_file_eval(&s, KEXPR_SHARED, &out, err, sizeof err), 0);
	CHECK_INT(out, 0);
	out = -1;
	CHECK_INT(kernel_file_eval(&s, KEXPR_SCRATCH, &out, err, sizeof err), 0);
	CHECK_INT(out, 0);
	CHECK_INT(kernel_file_eval(&s, KEXPR_BLOCK, &out, err, sizeof err), 0);
	CHECK_INT(out, 64);
	CHECK_INT(kernel_file_eval(&s, KEXPR_GRID, &out, err, sizeof err), 0);
	CHECK_INT(out, 4);

	const struct problem pb = {.dtype = DTYPE_F32, .n = 7, .cols = 33};
	int fields[TUNABLES_MAX];
	long long bound[TUNABLES_MAX];
	char msg[256];
	CHECK_INT(tunable_bind(&k.variant.params, &pb, "", fields, bound, msg, sizeof msg), 0);
	CHECK_INT(bound[0], 4);
	CHECK_INT(tunable_bind(&k.variant.params, &pb, "warps=8", fields, bound, msg, sizeof msg), 0);
	CHECK_INT(tunable_bind(&k.variant.params, &pb, "warps=16", fields, bound, msg, sizeof msg), -1);
	CHECK_CONTAINS(msg, "warps=16 is outside 1..8");
	kernel_file_free(&k);
}

/* A launch expression that fails on a case's values names its directive. */
static void test_eval_error(void)
{
	CHECK_INT(parse("o.cu", decl("rows", "f32", "256", "n / cols", "")), 0);
	struct kernel_scope s = {.k = &k, .values = NULL, .pb = {.dtype = DTYPE_F32, .n = 8, .cols = 0}};
	long long out;
	CHECK_INT(kernel_file_eval(&s, KEXPR_GRID, &out, err, sizeof err), -1);
	CHECK_CONTAINS(err, "@grid 'n / cols': ");
	CHECK_CONTAINS(err, "division by zero");
	kernel_file_free(&k);
}

/* Directives with an effect of their own: kinds, softmax's operators,
 * @name, @cooperative, @expect. */
static void test_directives(void)
{
	CHECK_INT(parse("o.cu", decl("softmax", "f32 bf16", "256", "n", "")), 0);
	CHECK_INT(k.kind, KERNEL_SOFTMAX);
	CHECK_INT(k.variant.ops, 0); /* a softmax reduces by no operator */
	CHECK_STR(k.name, "user.o");
	kernel_file_free(&k);
	/* The default operator is the first of sum, max, min it names. */
	CHECK_INT(parse("o.cu", with(" * @ops min max\n")), 0);
	enum op o = OP_COUNT;
	const struct case_args a = {.params = ""};
	CHECK_INT(variant_op(&k.variant, &a, &o, err, sizeof err), 0);
	CHECK_INT(o, OP_MAX);
	kernel_file_free(&k);
	CHECK_INT(parse("o.cu", with(" * @ops min\n * @name x_2\n * @expect hang\n")), 0);
	CHECK_INT(k.variant.ops, OP_BIT(OP_MIN));
	CHECK_STR(k.name, "user.x_2");
	CHECK_STR(k.expect, "hang");
	kernel_file_free(&k);
	/* The comment may close on a directive's line, and the first line
	 * may hold one. */
	CHECK_INT(parse("o.cu", "/* @kind reduce\n * @entry k\n * @dtypes i32\n * @block 32\n"
			 " * @grid 1 */\nint x;\n"), 0);
	CHECK_STR(k.expr[KEXPR_GRID], "1");
	CHECK_INT(k.variant.dtypes, DTYPE_BIT(DTYPE_I32));
	kernel_file_free(&k);
	/* occupancy is the launch's, in @grid and @scratch; sms in every
	 * launch expression. */
	CHECK_INT(parse("o.cu", decl("reduce", "f32", "min(sms, 1024)", "sms * occupancy",
				     " * @scratch occupancy * 8\n * @shared sms\n")), 0);
	kernel_file_free(&k);
}

/* The default of a tunable declared without default=: its lowest value,
 * one the tunable may take. */
static void test_default_default(void)
{
	CHECK_INT(parse("o.cu", with(" * @tunable a 3..9\n"
				     " * @tunable b 48..1024 pow2\n"
				     " * @tunable c 48..1024 multiple=32\n"
				     " * @tunable d 8|4|2\n"
				     " * @tunable e fast|slow\n"
				     " * @tunable f -5..5 multiple=4\n"
				     " * @tunable g 2^4..2^10\n")), 0);
	CHECK_STR(err, "");
	CHECK_STR(k.tunables[0].def, "3");
	CHECK_STR(k.tunables[1].def, "64");
	CHECK_STR(k.tunables[2].def, "64");
	CHECK_STR(k.tunables[3].def, "2");
	CHECK_STR(k.tunables[4].def, "fast");
	CHECK_STR(k.tunables[5].def, "-4");
	CHECK_INT(k.tunables[6].lo, 16);
	CHECK_INT(k.tunables[6].hi, 1024);
	CHECK_STR(k.tunables[6].def, "16");
	/* Each binds as its own default. */
	const struct problem pb = {.dtype = DTYPE_F32, .n = 1, .cols = 0};
	int fields[TUNABLES_MAX];
	long long bound[TUNABLES_MAX];
	char msg[256] = "";
	CHECK_INT(tunable_bind(&k.variant.params, &pb, "", fields, bound, msg, sizeof msg), 0);
	CHECK_STR(msg, "");
	kernel_file_free(&k);
	/* A range that holds no value the tunable may take. */
	CHECK_REFUSED(with(" * @tunable a 5..7 pow2\n"), "o.cu:7: ",
		      "@tunable a: no value of 5..7 is allowed by pow2");
	CHECK_STR(err, "o.cu:7: @tunable a: no value of 5..7 is allowed by pow2");
	CHECK_REFUSED(with(" * @tunable a 5..7 multiple=8\n"), "o.cu:7: ",
		      "@tunable a: no value of 5..7 is allowed by multiple=8");
	CHECK_REFUSED(with(" * @tunable a 1..16 pow2 multiple=32\n"), "o.cu:7: ",
		      "@tunable a: no value of 1..16 is allowed by pow2 and multiple=32");
	/* A default given must be a value the tunable takes, and so must
	 * every value of its space (else every case, or evaluation, of it
	 * would be refused). */
	CHECK_REFUSED(with(" * @tunable a 8..16 pow2 default=32\n"), "o.cu:7: ",
		      "tunable a: default=32: a=32 is outside 8..16");
	CHECK_REFUSED(with(" * @tunable a 32..1024 pow2 space=64,48\n"), "o.cu:7: ",
		      "tunable a: space= value '48' is not one it takes");
	CHECK_REFUSED(with(" * @tunable a 1|2|4 space=1,3\n"), "o.cu:7: ", "space= value '3'");
	CHECK_REFUSED(with(" * @tunable a x|y space=x,z\n"), "o.cu:7: ", "space= value 'z' is not one it takes (x|y)");
	CHECK_INT(parse("o.cu", with(" * @tunable a 8..16 pow2 default=16 space=8,16\n * @tunable b x|y space=y\n")), 0);
	kernel_file_free(&k);
}

/* The most a declaration holds (tunable_limits.h): twelve tunables with
 * the longest names and the widest range, each at its extremes; the
 * derived texts and a case's parameters hold them whole. */
static void test_limits(void)
{
	static char text[4096], params[1024], buf[4096];
	const struct problem pb = {.dtype = DTYPE_F32, .n = 1, .cols = 0};
	int fields[TUNABLES_MAX];
	long long bound[TUNABLES_MAX];
	char msg[256] = "";

	text[0] = params[0] = '\0';
	for (int i = 0; i < 12; i++) {
		snprintf(text + strlen(text), sizeof text - strlen(text),
			 " * @tunable tunable_with_a_long_name_nmbr_%02d -2147483648..2147483647 "
			 "default=-2147483648 space=-2147483648,2147483647 \"a tunable\"\n", i);
		snprintf(params + strlen(params), sizeof params - strlen(params),
			 "%stunable_with_a_long_name_nmbr_%02d=2147483647", i ? "," : "", i);
	}
	CHECK_INT(parse("o.cu", with(text)), 0);
	CHECK_STR(err, "");
	CHECK_INT(k.set.count, 12);
	CHECK_INT(strlen(params) < CASE_PARAMS_MAX, 1);
	CHECK_INT(tunable_bind(&k.variant.params, &pb, params, fields, bound, msg, sizeof msg), 0);
	CHECK_STR(msg, "");
	CHECK_INT(fields[11], 2147483647);
	CHECK_INT(tunable_bind(&k.variant.params, &pb, "", fields, bound, msg, sizeof msg), 0);
	CHECK_INT(fields[0], -2147483647 - 1);
	CHECK_INT(tunable_describe(&k.variant.params, buf, sizeof buf), 0);
	CHECK_CONTAINS(buf, "tunable_with_a_long_name_nmbr_11=-2147483648..2147483647");
	CHECK_INT(tunable_space(&k.variant.params, buf, sizeof buf), 0);
	CHECK_CONTAINS(buf, "tunable_with_a_long_name_nmbr_11=-2147483648,2147483647");
	kernel_file_free(&k);
	/* A thirteenth is refused on its line. */
	snprintf(text + strlen(text), sizeof text - strlen(text), " * @tunable thirteenth 1..4\n");
	CHECK_REFUSED(with(text), "o.cu:19: ", "at most 12 tunables");
	CHECK_REFUSED(with(" * @tunable tunable_with_a_long_name_nmbr_033 1..4\n"), "o.cu:7: ",
		      "is over 32 characters");
	CHECK_REFUSED(with(" * @tunable a fast|a_choice_name_of_33_characters_xy\n"), "o.cu:7: ",
		      "tunable a: a name of 'fast|a_choice_name_of_33_characters_xy' is over 32 characters");
	snprintf(text, sizeof text, " * @tunable a 0..100 space=0");
	for (int i = 1; i <= 64; i++)
		snprintf(text + strlen(text), sizeof text - strlen(text), ",%d", i);
	snprintf(text + strlen(text), sizeof text - strlen(text), "\n");
	CHECK_REFUSED(with(text), "o.cu:7: ", "tunable a: space= lists more than 64 values");
}

/* The kernel receives each value as an int: a range or a list beyond one
 * is refused where it is declared, never rounded past the largest long
 * long nor cut at a launch. */
static void test_int_range(void)
{
	CHECK_REFUSED(with(" * @tunable a 0..9223372036854775807 multiple=3\n"), "o.cu:7: ",
		      "tunable a: range '0..9223372036854775807' goes outside an int (-2147483648..2147483647)");
	CHECK_REFUSED(with(" * @tunable a 9223372036854775800..9223372036854775807 multiple=1024\n"), "o.cu:7: ",
		      "tunable a: range '9223372036854775800..9223372036854775807' goes outside an int");
	CHECK_REFUSED(with(" * @tunable a -2147483649..0\n"), "o.cu:7: ", "goes outside an int");
	CHECK_REFUSED(with(" * @tunable a 1|2|2147483648\n"), "o.cu:7: ",
		      "tunable a: values '1|2|2147483648' go outside an int");
	/* Rounded up to a multiple near the top of an int. */
	CHECK_INT(parse("o.cu", with(" * @tunable a 2147482000..2147483647 multiple=1024\n")), 0);
	CHECK_STR(k.tunables[0].def, "2147482624");
	kernel_file_free(&k);
	CHECK_REFUSED(with(" * @tunable a 2147483000..2147483647 multiple=1024\n"), "o.cu:7: ",
		      "@tunable a: no value of 2147483000..2147483647 is allowed by multiple=1024");
}

/* A default is a value its tunable takes, or every case leaving the
 * tunable out would be refused: one that reads constants and the tunables
 * declared before it is evaluated when the file is read. */
static void test_default_checked(void)
{
	CHECK_REFUSED(with(" * @tunable a 1..8 default=a+1\n"), "o.cu:7: ", "tunable a: default=a+1 names a itself");
	CHECK_REFUSED(with(" * @tunable a 1..8 default=b+1\n * @tunable b 1..8 default=8\n"), "o.cu:7: ",
		      "tunable a: default=b+1 names b, declared after it");
	CHECK_REFUSED(with(" * @tunable a 1|2|4 default=2\n * @tunable b 1|2|4 default=a+1\n"), "o.cu:8: ",
		      "tunable b: default=a+1: b=3 is not one of 1|2|4");
	CHECK_REFUSED(with(" * @tunable a 1..8 default=2*8\n"), "o.cu:7: ", "tunable a: default=2*8: a=16 is outside 1..8");
	CHECK_REFUSED(with(" * @tunable a 0..64 multiple=8 default=4+1\n"), "o.cu:7: ",
		      "tunable a: default=4+1: a=5 is not a multiple of 8");
	CHECK_REFUSED(with(" * @tunable a 1..64 pow2 default=3\n"), "o.cu:7: ", "a=3 is not a power of two");
	CHECK_REFUSED(with(" * @tunable a 1..8 default=1/0\n"), "o.cu:7: ", "tunable a: default=1/0: division by zero");
	CHECK_REFUSED(with(" * @tunable a x|y default=y\n * @tunable b 0..0 default=a\n"), "o.cu:8: ",
		      "tunable b: default=a: b=1 is outside 0..0");
	/* Through earlier defaults, and a choice's index. */
	CHECK_INT(parse("o.cu", with(" * @tunable a 1|2|4 default=2\n * @tunable b 1|2|4 default=a*2\n"
				     " * @tunable c x|y default=y\n * @tunable d 1..1 default=c\n")), 0);
	CHECK_STR(err, "");
	kernel_file_free(&k);
	/* One that reads the problem has a value only for a case. */
	CHECK_INT(parse("o.cu", with(" * @tunable a 1..1024 default=min(n,1024)\n * @tunable b 1..1024 default=a\n")), 0);
	CHECK_STR(err, "");
	kernel_file_free(&k);
}

static void test_default_name(void)
{
	char buf[KERNEL_NAME_MAX + 1];

	CHECK_INT(kernel_file_default_name("a/b/My-Kernel.cu", buf, sizeof buf), 0);
	CHECK_STR(buf, "my_kernel");
	CHECK_INT(kernel_file_default_name("grid_sum.cu", buf, sizeof buf), 0);
	CHECK_STR(buf, "grid_sum");
	CHECK_INT(kernel_file_default_name("x/v2.0 final.cuh", buf, sizeof buf), 0);
	CHECK_STR(buf, "v2_0_final_cuh");
	CHECK_INT(kernel_file_default_name("dir/", buf, sizeof buf), -1);
	/* At most KERNEL_NAME_MAX characters. */
	char longname[200];
	memset(longname, 'a', sizeof longname - 4);
	strcpy(longname + sizeof longname - 4, ".cu");
	CHECK_INT(kernel_file_default_name(longname, buf, sizeof buf), 0);
	CHECK_INT(strlen(buf), KERNEL_NAME_MAX);
	/* A file name that leaves nothing: the declaration must name it. */
	CHECK_INT(parse("dir/", with("")), -1);
	CHECK_STR(err, "dir/: no name for the variant: add @name");
	CHECK(k.source == NULL);
	CHECK_INT(parse("dir/", with(" * @name given\n")), 0);
	CHECK_STR(k.name, "user.given");
	kernel_file_free(&k);
}

static void test_kernel_file_of(void)
{
	const struct variant builtin = {.name = "block.tree"};
	/* A built-in named like a user's is still not a kernel file. */
	const struct variant lookalike = {.name = "user.lookalike"};

	CHECK(kernel_file_of(&builtin) == NULL);
	CHECK(kernel_file_of(&lookalike) == NULL);
	CHECK(kernel_file_of(NULL) == NULL);
}

/* The entry points a caller gives reach the variant; refs by kind. */
static int fake_check(const struct case_args *a, char *msg, size_t len)
{
	(void)a, (void)msg, (void)len;
	return 0;
}

static void fake_run(const struct case_args *a, struct case_result *r)
{
	(void)a, (void)r;
}

static void test_ops(void)
{
	static const struct variant_refs reduce_refs = {.copy = "device.copy"};
	static const struct variant_refs softmax_refs = {.copy = "softmax.copy"};
	const struct kernel_ops ops = {.check = fake_check, .run = fake_run, .build = fake_run,
				       .refs = {[KERNEL_REDUCE] = &reduce_refs,
						[KERNEL_SOFTMAX] = &softmax_refs}};
	const char *text = with("");

	CHECK_INT(kernel_file_parse(&k, "o.cu", text, strlen(text), &ops, err, sizeof err), 0);
	CHECK(k.variant.check == fake_check && k.variant.run == fake_run && k.variant.build == fake_run);
	CHECK(k.variant.refs == &reduce_refs);
	kernel_file_free(&k);
	text = decl("softmax", "f32", "256", "n", "");
	CHECK_INT(kernel_file_parse(&k, "o.cu", text, strlen(text), &ops, err, sizeof err), 0);
	CHECK(k.variant.refs == &softmax_refs);
	kernel_file_free(&k);
}

static void test_errors(void)
{
	static const char rest[] = " * @entry k\n * @dtypes f32\n * @block 1\n * @grid 1\n */\n";
	char text[4096];

	/* The first comment. */
	CHECK_REFUSED("int x;\n/* @kind reduce */\n", "o.cu: ", "no declaration: the file must begin with a comment");
	CHECK_REFUSED("", "o.cu: ", "no declaration");
	CHECK_REFUSED("\n\n#include <x.h>\n", "o.cu: ", "no declaration");
	CHECK_REFUSED("/*\n * @kind reduce\n * @entry k\n", "o.cu: ", "the first comment never ends (no */)");

	/* Directives. */
	CHECK_REFUSED(with(" * @kernel x\n"), "o.cu:7: ", "unknown directive '@kernel'");
	CHECK_REFUSED(with(" * @Kind reduce\n"), "o.cu:7: ", "a directive is '@word value'");
	CHECK_REFUSED(decl("scan", "f32", "1", "1", ""), "o.cu:2: ", "unknown kind 'scan' (reduce, rows or softmax)");
	CHECK_REFUSED(with(" * @kind rows\n"), "o.cu:7: ", "@kind is given twice (first on line 2)");
	CHECK_REFUSED(with(" * @grid 2\n"), "o.cu:7: ", "@grid is given twice (first on line 6)");
	CHECK_REFUSED(with(" * @entry 2k\n"), "o.cu:7: ", "@entry is given twice");
	CHECK_REFUSED("/*\n * @entry k-1\n */\n", "o.cu:2: ", "@entry: expected the name of a __global__ function");
	CHECK_REFUSED("/*\n * @entry k<1>x\n */\n", "o.cu:2: ", "@entry: expected the name of a __global__ function");
	CHECK_REFUSED("/*\n * @entry k<1>>2>\n */\n", "o.cu:2: ", "@entry: expected");
	CHECK_REFUSED("/*\n * @entry k<f(\"x\")>\n */\n", "o.cu:2: ", "@entry: expected");
	CHECK_REFUSED("/*\n * @entry k<1>; int x\n */\n", "o.cu:2: ", "@entry: expected");
	CHECK_REFUSED("/*\n * @entry 9k\n */\n", "o.cu:2: ", "@entry: expected");
	/* The unknown directive's message lists every directive there is. */
	CHECK_REFUSED(with(" * @argz in out\n"), "o.cu:7: ", "unknown directive '@argz' (kind, entry, args, dtypes, "
		      "ops, name, summary, tunable, rule, block, grid, shared, scratch, workspace, cooperative, expect, "
		      "requires, timeout)");

	/* @args: each parameter in order; in and out once each. */
	CHECK_REFUSED(with(" * @args\n"), "o.cu:7: ", "@args: expected what each parameter receives");
	CHECK_REFUSED(with(" * @args in n\n"), "o.cu:7: ", "@args: the entry must take both in and out");
	CHECK_REFUSED(with(" * @args in out in\n"), "o.cu:7: ", "@args: in is named twice");
	CHECK_REFUSED(with(" * @args in out \"n\"\n"), "o.cu:7: ", "@args: expected in, out, scratch or an expression");
	CHECK_REFUSED(with(" * @args in out nn\n"), "o.cu:7: ", "@args 'nn': unknown name");
	CHECK_REFUSED(with(" * @args in out n\n * @args in out\n"), "o.cu:8: ", "@args is given twice (first on line 7)");
	CHECK_REFUSED(with(" * @args in out n\n * @scratch 64\n"), "o.cu:7: ",
		      "@args passes no scratch, but @scratch (line 8) asks for some");
	CHECK_REFUSED(with(" * @args in out 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n"), "o.cu:7: ", "@args: at most 16 parameters");
	/* @workspace: the scratch under the other contract, never both. */
	CHECK_REFUSED(with(" * @scratch 64\n * @workspace 4 * n\n"), "o.cu:8: ",
		      "@workspace and @scratch are the same buffer: give one (@scratch is on line 7)");
	CHECK_REFUSED(with(" * @workspace 4 * n\n * @scratch 64\n"), "o.cu:8: ",
		      "@workspace and @scratch are the same buffer: give one (@workspace is on line 7)");
	CHECK_REFUSED(with(" * @args in out n\n * @workspace 64\n"), "o.cu:7: ",
		      "@args passes no scratch, but @workspace (line 8) asks for some");
	CHECK_INT(parse("o.cu", with(" * @workspace 4 * n\n")), 0);
	CHECK_INT(k.workspace, 1);
	CHECK_STR(k.expr[KEXPR_SCRATCH], "4 * n");
	kernel_file_free(&k);
	CHECK_INT(parse("o.cu", with(" * @scratch 4 * n\n")), 0);
	CHECK_INT(k.workspace, 0);
	kernel_file_free(&k);
	CHECK_INT(parse("o.cu", with(" * @args out in n/4 rows cols*2 scratch\n")), 0);
	/* Each value packed as the kernel declares it; one its type cannot
	 * hold is said, never wrapped. */
	{
		unsigned char b[8];
		char why[512];
		int32_t i32;
		long long i64;
		CHECK_INT(kernel_file_pack_arg(&k, 2, KARG_CODE_INTEGER | KARG_CODE_SIGNED | 4, 2147483647LL, b, why,
					       sizeof why), 0);
		memcpy(&i32, b, 4);
		CHECK_INT(i32, 2147483647);
		CHECK_INT(kernel_file_pack_arg(&k, 2, KARG_CODE_INTEGER | KARG_CODE_SIGNED | 4, 2147483651LL, b, why,
					       sizeof why), -1);
		CHECK_STR(why, "n/4 = 2147483651 does not fit parameter 3 of k, a 32-bit int (-2147483648..2147483647): "
			       "the kernel cannot take this problem");
		CHECK_INT(kernel_file_pack_arg(&k, 2, KARG_CODE_INTEGER | 4, 4294967295LL, b, why, sizeof why), 0);
		CHECK(b[0] == 0xff && b[3] == 0xff && b[4] == 0);
		CHECK_INT(kernel_file_pack_arg(&k, 2, KARG_CODE_INTEGER | 4, -1, b, why, sizeof why), -1);
		CHECK_CONTAINS(why, "a 32-bit unsigned (0..4294967295)");
		CHECK_INT(kernel_file_pack_arg(&k, 2, KARG_CODE_INTEGER | 8, -1, b, why, sizeof why), -1);
		CHECK_INT(kernel_file_pack_arg(&k, 2, KARG_CODE_INTEGER | KARG_CODE_SIGNED | 8, -5, b, why, sizeof why), 0);
		memcpy(&i64, b, 8);
		CHECK_INT(i64, -5);
		CHECK_INT(kernel_file_pack_arg(&k, 2, KARG_CODE_INTEGER | KARG_CODE_SIGNED | 2, 32768, b, why, sizeof why), -1);
		CHECK_INT(kernel_file_pack_arg(&k, 2, KARG_CODE_POINTER, 1, b, why, sizeof why), -2);
		CHECK_CONTAINS(why, "parameter 3 of k has type code 0x01, not an integer");
	}
	CHECK_INT(k.nargs, 6);
	CHECK_INT(k.args[0].role, KARG_OUT);
	CHECK_INT(k.args[1].role, KARG_IN);
	CHECK_INT(k.args[2].role, KARG_VALUE);
	CHECK_STR(k.args[2].text, "n/4");
	CHECK_INT(k.args[5].role, KARG_SCRATCH);
	CHECK_INT(k.args_line, 7);
	kernel_file_free(&k);

	/* What the whole declaration needs. */
	snprintf(text, sizeof text, "/*\n%s", rest);
	CHECK_REFUSED(text, "o.cu: ", "the declaration has no @kind");
	CHECK_REFUSED("/*\n * @kind reduce\n * @dtypes f32\n * @block 1\n * @grid 1\n */\n", "o.cu: ",
		      "the declaration has no @entry");
	CHECK_REFUSED("/*\n * @kind reduce\n * @entry k\n * @block 1\n * @grid 1\n */\n", "o.cu: ",
		      "the declaration has no @dtypes");
	CHECK_REFUSED("/*\n * @kind reduce\n * @entry k\n * @dtypes f32\n * @grid 1\n */\n", "o.cu: ",
		      "the declaration needs @block and @grid");
	CHECK_REFUSED("/*\n * @kind reduce\n * @entry k\n * @dtypes f32\n * @block 1\n */\n", "o.cu: ",
		      "the declaration needs @block and @grid");

	/* dtypes and operators. */
	CHECK_REFUSED(decl("reduce", "f32 f16", "1", "1", ""), "o.cu:4: ", "unknown dtype 'f16' (f32, f64, i32, bf16)");
	CHECK_REFUSED(decl("reduce", "u32", "1", "1", ""), "o.cu:4: ", "unknown dtype 'u32'");
	CHECK_REFUSED(decl("reduce", "", "1", "1", ""), "o.cu:4: ", "@dtypes needs at least one value");
	CHECK_REFUSED(with(" * @ops sum prod\n"), "o.cu:7: ", "unknown op 'prod' (sum, max, min)");
	CHECK_REFUSED(decl("softmax", "f32 f64", "1", "1", ""), "o.cu:4: ", "a softmax takes f32 and bf16 only");
	CHECK_REFUSED(decl("softmax", "f32", "1", "1", " * @ops max\n"), "o.cu:7: ",
		      "a softmax has no operator: leave out @ops");

	/* Tunables. */
	CHECK_REFUSED(with(" * @tunable n 1..4\n"), "o.cu:7: ", "@tunable: 'n' is a name conform gives expressions");
	CHECK_REFUSED(with(" * @tunable sms 1..4\n"), "o.cu:7: ", "'sms' is a name conform gives expressions");
	CHECK_REFUSED(with(" * @tunable occupancy 1..4\n"), "o.cu:7: ", "'occupancy' is a name conform gives");
	CHECK_REFUSED(with(" * @tunable Block 1..4\n"), "o.cu:7: ", "@tunable: expected NAME VALUES");
	CHECK_REFUSED(with(" * @tunable a 1..4\n * @tunable a 1|2\n"), "o.cu:8: ", "@tunable: 'a' is declared twice");
	CHECK_REFUSED(with(" * @tunable a\n"), "o.cu:7: ", "@tunable a: expected its values");
	CHECK_REFUSED(with(" * @tunable a 8..4\n"), "o.cu:7: ", "tunable a: range '8..4' is not LO..HI with LO <= HI");
	CHECK_REFUSED(with(" * @tunable a 1..x\n"), "o.cu:7: ", "range '1..x' is not LO..HI");
	CHECK_REFUSED(with(" * @tunable a 1|fast\n"), "o.cu:7: ", "tunable a: values '1|fast' are neither");
	CHECK_REFUSED(with(" * @tunable a 1|2|\n"), "o.cu:7: ", "values '1|2|' are neither");
	CHECK_REFUSED(with(" * @tunable a 1|2|4 pow2\n"), "o.cu:7: ", "@tunable a: unexpected 'pow2'");
	CHECK_REFUSED(with(" * @tunable a x|y multiple=2\n"), "o.cu:7: ", "@tunable a: unexpected 'multiple=2'");
	CHECK_REFUSED(with(" * @tunable a 1..8 multiple=0\n"), "o.cu:7: ", "@tunable a: multiple= takes a count");
	CHECK_REFUSED(with(" * @tunable a 1..8 fast\n"), "o.cu:7: ", "@tunable a: unexpected 'fast'");
	CHECK_REFUSED(with(" * @tunable a 1..8 \"threads\n"), "o.cu:7: ", "@tunable a: unterminated \"");
	CHECK_REFUSED(with(" * @tunable a x|y default=z\n"), "o.cu:7: ", "tunable a: default 'z' is not one of x|y");
	snprintf(text, sizeof text, "%s", "");
	for (int i = 0; i < TUNABLES_MAX + 1; i++)
		snprintf(text + strlen(text), sizeof text - strlen(text), " * @tunable t%d 1..4\n", i);
	CHECK_REFUSED(with(text), "o.cu:19: ", "at most 12 tunables");
	/* Twelve are fine. */
	snprintf(text, sizeof text, "%s", "");
	for (int i = 0; i < TUNABLES_MAX; i++)
		snprintf(text + strlen(text), sizeof text - strlen(text), " * @tunable t%d 1..4\n", i);
	CHECK_INT(parse("o.cu", with(text)), 0);
	CHECK_INT(k.set.count, TUNABLES_MAX);
	kernel_file_free(&k);

	/* Names an expression may not use. */
	CHECK_REFUSED(with(" * @tunable a 1..4\n * @rule a * b <= 4 ; why\n"), "o.cu:8: ",
		      "@rule 'a * b <= 4': unknown name 'b'");
	CHECK_CONTAINS(err, "not a declared tunable");
	CHECK_REFUSED(decl("reduce", "f32", "256", "(n + blk - 1) / blk", ""), "o.cu:6: ",
		      "@grid '(n + blk - 1) / blk': unknown name 'blk'");
	CHECK_CONTAINS(err, "not a declared tunable, nor one of n, rows, cols, esize, f32, f64, i32, bf16, sms, occupancy");
	CHECK_REFUSED(with(" * @tunable a 1..4 default=b*2\n"), "o.cu:7: ", "default 'b*2': unknown name 'b'");
	CHECK_CONTAINS(err, "not a declared tunable");
	CHECK_REFUSED(with(" * @scratch bytes\n"), "o.cu:7: ", "@scratch 'bytes': unknown name 'bytes'");
	CHECK_CONTAINS(err, "not a declared tunable");
	/* sms and occupancy belong to the launch: not in a rule or a
	 * default, occupancy not in @block or @shared. */
	CHECK_REFUSED(with(" * @rule sms > 1\n"), "o.cu:7: ", "@rule 'sms > 1': unknown name 'sms'");
	CHECK_CONTAINS(err, "nor one of n, rows, cols, esize, f32, f64, i32, bf16");
	CHECK_REFUSED(with(" * @tunable a 1..4 default=occupancy\n"), "o.cu:7: ", "unknown name 'occupancy'");
	CHECK_REFUSED(decl("reduce", "f32", "32 * occupancy", "1", ""), "o.cu:5: ",
		      "@block '32 * occupancy': unknown name 'occupancy'");
	CHECK_CONTAINS(err, "not a declared tunable, nor one of n, rows, cols, esize, f32, f64, i32, bf16, sms");
	CHECK(strstr(err, "sms, occupancy") == NULL);
	CHECK_REFUSED(with(" * @shared occupancy * 4\n"), "o.cu:7: ", "@shared 'occupancy * 4': unknown name");
	/* rows is a name: n of a rows kernel, 1 of a flat one. */
	CHECK_INT(parse("o.cu", decl("rows", "f32", "256", "rows", "")), 0);
	kernel_file_free(&k);
	/* Syntax. */
	CHECK_REFUSED(with(" * @rule n <=\n"), "o.cu:7: ", "@rule 'n <=': unexpected end");
	CHECK_REFUSED(with(" * @rule n <= 4 4\n"), "o.cu:7: ", "@rule 'n <= 4 4': unexpected text");
	CHECK_REFUSED(decl("reduce", "f32", "min(n, 4", "1", ""), "o.cu:5: ", "@block 'min(n, 4': expected ')'");
	CHECK_REFUSED(decl("reduce", "f32", "sqrt(n)", "1", ""), "o.cu:5: ", "unknown function");
	CHECK_REFUSED(with(" * @rule ; why\n"), "o.cu:7: ", "@rule: expected an expression");
	CHECK_REFUSED(with(" * @shared\n"), "o.cu:7: ", "@shared: expected an expression");
	/* A division by zero with the stand-in values is not an error here. */
	CHECK_INT(parse("o.cu", with(" * @rule n / (cols - 1) >= 0\n")), 0);
	kernel_file_free(&k);

	/* The case keys. */
	CHECK_REFUSED(with(" * @timeout 0\n"), "o.cu:7: ", "@timeout: expected seconds in (0, 86400], got '0'");
	CHECK_REFUSED(with(" * @timeout abc\n"), "o.cu:7: ", "@timeout: expected seconds in (0, 86400], got 'abc'");
	CHECK_REFUSED(with(" * @timeout 1\n * @timeout 2\n"), "o.cu:8: ", "@timeout is given twice (first on line 7)");
	CHECK_REFUSED(with(" * @cooperative yes\n"), "o.cu:7: ", "@cooperative takes no value");
	CHECK_REFUSED(with(" * @cooperative\n * @cooperative\n"), "o.cu:8: ", "@cooperative is given twice");
	CHECK_REFUSED(with(" * @expect sometimes\n"), "o.cu:7: ", "unknown expectation 'sometimes'");
	CHECK_REFUSED(with(" * @requires sm>=80 mem>=16\n"), "o.cu:7: ", "@requires: expected one requirement");
	CHECK_REFUSED(with(" * @name Big\n"), "o.cu:7: ", "@name: expected [a-z_][a-z0-9_]*");

	/* Not a kernel file at all. */
	snprintf(text, sizeof text, "%s", with(""));
	size_t len = strlen(text);
	text[len - 5] = '\0'; /* a NUL inside the source */
	CHECK_INT(kernel_file_parse(&k, "o.cu", text, len, NULL, err, sizeof err), -1);
	CHECK_STR(err, "o.cu: a NUL byte: not a CUDA source");
	CHECK(k.source == NULL);
	char *big = malloc(KERNEL_FILE_MAX + 2);
	if (big) {
		const char *head = with("");
		memset(big, ' ', KERNEL_FILE_MAX + 1);
		memcpy(big, head, strlen(head));
		big[KERNEL_FILE_MAX + 1] = '\0';
		CHECK_INT(kernel_file_parse(&k, "o.cu", big, KERNEL_FILE_MAX + 1, NULL, err, sizeof err), -1);
		CHECK_STR(err, "o.cu: more than 1048576 bytes: not a kernel file");
		/* Exactly the limit is read. */
		CHECK_INT(kernel_file_parse(&k, "o.cu", big, KERNEL_FILE_MAX, NULL, err, sizeof err), 0);
		kernel_file_free(&k);
		free(big);
	}
}

/* What the review of the parser found: names a macro would break, lists
 * in 2^K, tabs in values, malformed requirements, byte-order marks and
 * doc-comment openings. */
static void test_edges(void)
{
	CHECK_REFUSED(with(" * @tunable t 1|2\n"), "o.cu:7: ", "would be the macro of a name");
	CHECK_REFUSED(with(" * @tunable conform_op 1|2\n"), "o.cu:7: ", "would be the macro of a name");
	CHECK_REFUSED(with(" * @tunable _x 1|2\n"), "o.cu:7: ", "would be the macro of a name");
	CHECK_REFUSED(with(" * @tunable abcdefghijklmnopqrstuvwxyzabcdefg 1|2\n"), "o.cu:7: ", "over 32 characters");
	CHECK_INT(parse("o.cu", with(" * @tunable conf 1|2\n")), 0);
	kernel_file_free(&k);
	CHECK_REFUSED(with(" * @tunable v 2^4|2^5\n"), "o.cu:7: ", "are neither LO..HI");
	CHECK_REFUSED(with(" * @requires sm>=\n"), "o.cu:7: ", "@requires: expected one requirement");
	CHECK_REFUSED(with(" * @requires gpu>=80\n"), "o.cu:7: ", "@requires: expected one requirement");
	CHECK_REFUSED(with(" * @summary -\n"), "o.cu:7: ", "@summary: expected a line of text");
	CHECK_INT(parse("o.cu", with(" * @summary a\tb\n * @requires mem>=16\n")), 0);
	CHECK_STR(k.summary, "a b");
	CHECK_STR(k.requires, "mem>=16");
	kernel_file_free(&k);
	char text[2048];
	snprintf(text, sizeof text, "\xef\xbb\xbf%s", with(""));
	CHECK_INT(parse("o.cu", text), 0);
	kernel_file_free(&k);
	CHECK_REFUSED(decl("reduce", "f32", "BLOCK", "1", " * @tunable block 32..64 pow2\n"), "o.cu:5: ",
		      "expressions name the tunable 'block' (BLOCK is its macro in the code)");
	char name[64];
	CHECK_INT(kernel_file_default_name("dir/2d-Sum.cu", name, sizeof name), 0);
	CHECK_STR(name, "_2d_sum");
	CHECK_INT(parse("o.cu", with(" * @requires sm>=80\n")), 0);
	CHECK_STR(k.variant.requires, "sm>=80");
	kernel_file_free(&k);
	CHECK_INT(parse("o.cu", "/** @kind reduce\n * @entry k\n * @dtypes f32\n * @block 1\n * @grid 1\n */\n"), 0);
	CHECK_INT(k.kind, KERNEL_REDUCE);
	kernel_file_free(&k);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The source hash covers a quoted include beside the file: editing the
 * helper changes the hash; a file without one hashes its own bytes. */
static void test_include_hash(void)
{
	char dir[] = "/tmp/conform-kf-XXXXXX", path[256], helper[256], first[65];

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof path, "%s/k.cu", dir);
	snprintf(helper, sizeof helper, "%s/h.cuh", dir);
	char text[2048];
	snprintf(text, sizeof text, "%s#include \"h.cuh\"\n", with(""));
	write_file(path, text);
	write_file(helper, "#define HELPER 1\n");
	CHECK_INT(kernel_file_load(&k, path, NULL, err, sizeof err), 0);
	snprintf(first, sizeof first, "%s", k.sha256);
	kernel_file_free(&k);
	write_file(helper, "#define HELPER 2\n");
	CHECK_INT(kernel_file_load(&k, path, NULL, err, sizeof err), 0);
	CHECK(strcmp(first, k.sha256) != 0);
	kernel_file_free(&k);
	/* Without the helper, the hash is the source's own. */
	write_file(path, with(""));
	CHECK_INT(kernel_file_load(&k, path, NULL, err, sizeof err), 0);
	snprintf(first, sizeof first, "%s", k.sha256);
	kernel_file_free(&k);
	CHECK_INT(parse("o.cu", with("")), 0);
	CHECK_STR(k.sha256, first);
	kernel_file_free(&k);
	unlink(path);
	unlink(helper);
	rmdir(dir);
}

int main(void)
{
	test_full();
	test_line_comments();
	test_eval_error();
	test_directives();
	test_default_default();
	test_default_name();
	test_limits();
	test_int_range();
	test_default_checked();
	test_kernel_file_of();
	test_ops();
	test_errors();
	test_edges();
	test_include_hash();
	return TEST_END();
}
