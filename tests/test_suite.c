/*
 * test_suite.c - suite file parsing, expansion, errors and globs.
 *
 * Fixtures live in $srcdir/tests/data (srcdir is set by automake's test
 * driver; "." when run by hand from the source tree).  Every malformed input
 * is checked for the exact "file:line: message" it must produce.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suite/suite.h"
#include "tests/test.h"

static char path_buf[512];

static const char *fixture(const char *name)
{
	const char *srcdir = getenv("srcdir");
	snprintf(path_buf, sizeof path_buf, "%s/tests/data/%s", srcdir && *srcdir ? srcdir : ".", name);
	return path_buf;
}

static const struct case_spec *find(const struct suite *s, const char *name)
{
	for (size_t i = 0; i < s->count; i++)
		if (strcmp(s->cases[i].name, name) == 0)
			return &s->cases[i];
	return NULL;
}

static void test_good_file(void)
{
	struct suite s = { 0 };
	char err[512] = "";
	const char *path = fixture("good.suite");

	CHECK_INT(suite_load_file(&s, path, err, sizeof err), 0);
	CHECK_STR(err, "");
	CHECK_INT(s.count, 12 + 1 + 4 + 1);
	if (s.count != 18) {
		suite_free(&s);
		return;
	}

	/* Cartesian product in key order, the last key fastest. */
	static const char *const block[] = {
		"block.tree.sum.f32.b32", "block.tree.sum.f32.b256", "block.tree.sum.f32.b1024",
		"block.tree.sum.i32.b32", "block.tree.sum.i32.b256", "block.tree.sum.i32.b1024",
		"block.tree.max.f32.b32", "block.tree.max.f32.b256", "block.tree.max.f32.b1024",
		"block.tree.max.i32.b32", "block.tree.max.i32.b256", "block.tree.max.i32.b1024",
	};
	for (int i = 0; i < 12; i++) {
		const struct case_spec *c = &s.cases[i];
		CHECK_STR(c->name, block[i]);
		CHECK_STR(c->variant, "block.tree");
		CHECK_INT(c->n, 100003);
		CHECK_INT(c->cols, 0);
		CHECK_INT(c->dtype, i % 6 < 3 ? DTYPE_F32 : DTYPE_I32);
		CHECK_INT(c->expect, EXPECT_PASS);
		CHECK_INT(c->nreq, 0);
		CHECK(c->timeout_s == 0);
		CHECK_STR(c->file, path);
		CHECK_INT(c->line, 4);
	}
	CHECK_STR(s.cases[0].params, "op=sum,block=32");
	CHECK_STR(s.cases[11].params, "op=max,block=1024");

	const struct case_spec *w = &s.cases[12];
	CHECK_STR(w->name, "warp.shfl.sum.bf16");
	CHECK_STR(w->variant, "warp.shfl");
	CHECK_INT(w->n, 1 << 20);
	CHECK_INT(w->dtype, DTYPE_BF16);
	CHECK_INT(w->expect, EXPECT_FAIL);
	CHECK(w->timeout_s == 2.5);
	CHECK_STR(w->params, "");
	CHECK_INT(w->line, 7);
	CHECK_INT(w->nreq, 2);
	CHECK_STR(w->req[0].what, "sm");
	CHECK_INT(w->req[0].cmp, REQ_GE);
	CHECK_INT(w->req[0].value, 80);
	CHECK_INT(w->req[1].cmp, REQ_LT);
	CHECK_INT(w->req[1].value, 100);

	/* Placeholders in values; a naming-only key is still a parameter. */
	static const char *const rows[] = { "rows.tree.c1", "rows.tree.c7", "rows.shfl.c1", "rows.shfl.c7" };
	for (int i = 0; i < 4; i++) {
		const struct case_spec *c = &s.cases[13 + i];
		CHECK_STR(c->name, rows[i]);
		CHECK_STR(c->variant, i < 2 ? "rows.tree" : "rows.shfl");
		CHECK_STR(c->params, i < 2 ? "algo=tree" : "algo=shfl");
		CHECK_INT(c->cols, i % 2 ? 7 : 1);
		CHECK_INT(c->n, 4096);
		CHECK_INT(c->expect, EXPECT_UNDEFINED);
		CHECK_INT(c->line, 11);
	}

	const struct case_spec *h = find(&s, "misc.spin-forever");
	CHECK(h != NULL);
	if (h) {
		CHECK_INT(h->expect, EXPECT_HANG);
		CHECK(h->timeout_s == 0.5);
		CHECK_INT(h->line, 14);
	}

	/* Loading the same file again collides with itself. */
	size_t before = s.count;
	CHECK_INT(suite_load_file(&s, path, err, sizeof err), -1);
	char want[1024];
	snprintf(want, sizeof want, "%s:4: duplicate case name 'block.tree.sum.f32.b32' (first defined at %s:4)",
		 path, path);
	CHECK_STR(err, want);
	CHECK_INT(s.count, before);
	suite_free(&s);
	CHECK(s.cases == NULL && s.count == 0);
}

/* Loads text and checks the exact error (origin "t"). */
static void expect_error(const char *text, const char *want)
{
	struct suite s = { 0 };
	char err[512] = "";

	CHECK_INT(suite_load_text(&s, "t", text, err, sizeof err), -1);
	CHECK_STR(err, want);
	CHECK(!strchr(err, '\n'));
	CHECK_INT(s.count, 0);
	suite_free(&s);
}

/* "kernel FILE" lines: kept relative to the suite file's directory (an
 * absolute path as given), in order; a line without exactly one path is
 * refused. */
static void test_kernel_lines(void)
{
	struct suite s = { 0 };
	char err[512] = "";

	CHECK_INT(suite_load_text(&s, "dir/sub/x.suite",
				  "kernel k.cu\nkernel ../ex/j.cu\nkernel /abs/m.cu\n"
				  "case user.k.a variant=user.k n=33 dtype=f32\n", err, sizeof err), 0);
	CHECK_INT(s.nkernels, 3);
	if (s.nkernels == 3) {
		CHECK_STR(s.kernels[0], "dir/sub/k.cu");
		CHECK_STR(s.kernels[1], "dir/sub/../ex/j.cu");
		CHECK_STR(s.kernels[2], "/abs/m.cu");
	}
	CHECK_INT(s.count, 1);
	suite_free(&s);
	CHECK_INT(s.nkernels, 0);
	expect_error("kernel\n", "t:1: expected 'kernel FILE' (one path, relative to the suite file)");
	expect_error("kernel a.cu b.cu\n", "t:1: expected 'kernel FILE' (one path, relative to the suite file)");
}

static void test_malformed_text(void)
{
	expect_error("case a variant=x\n", "t:1: case 'a' has no n= (the problem size)");
	expect_error("\n\ncase a n=5\n", "t:3: case 'a' has no variant= (the kernel variant to run)");
	expect_error("bogus a variant=x n=1\n",
		     "t:1: expected 'case NAME key=value ...' or 'kernel FILE', got 'bogus'");
	expect_error("case\n", "t:1: expected 'case NAME key=value ...', got 'case' alone");
	expect_error("case variant=x n=1\n", "t:1: expected a case name after 'case', got 'variant=x'");
	expect_error("case a variant=x n=1 blah\n", "t:1: expected key=value, got 'blah'");
	expect_error("case a variant=x n=0\n", "t:1: n must be a count from 1 to 2^40 (decimal or 2^K), got '0'");
	expect_error("case a variant=x n=-3\n", "t:1: n must be a count from 1 to 2^40 (decimal or 2^K), got '-3'");
	expect_error("case a variant=x n=2^63\n", "t:1: n must be a count from 1 to 2^40 (decimal or 2^K), got '2^63'");
	expect_error("case a variant=x n=1k\n", "t:1: n must be a count from 1 to 2^40 (decimal or 2^K), got '1k'");
	expect_error("case a variant=x n=8 cols=0\n", "t:1: cols must be a count from 1 to 2^40 (decimal or 2^K), got '0'");
	expect_error("case a variant=x n=8 dtype=f16\n", "t:1: unknown dtype 'f16' (one of f32, f64, i32, u32, bf16)");
	expect_error("case a variant=x n=8 expect=maybe\n",
		     "t:1: expect must be one of pass, fail, hang, launch-error, undefined, crash, error (got 'maybe')");
	expect_error("case a variant=x n=8 requires=cc>=80\n",
		     "t:1: unknown requirement 'cc>=80' (known: sm, e.g. sm>=80, and mem in GiB, e.g. mem>=16)");
	expect_error("case a variant=x n=8 requires=sm=>80\n",
		     "t:1: bad requirement 'sm=>80' (expected sm or mem, one of >= > <= < == !=, and a number)");
	expect_error("case a variant=x n=8 requires=sm>=80,\n", "t:1: empty requirement in requires=sm>=80,");
	expect_error("case a variant=x n=8 requires=sm>=70,sm<100,sm!=75,sm!=86,sm!=89\n",
		     "t:1: at most 4 requirements in requires=sm>=70,sm<100,sm!=75,sm!=86,sm!=89");
	expect_error("case a variant=x n=8 timeout=0\n", "t:1: timeout must be a number of seconds in (0, 86400], got '0'");
	expect_error("case a variant=x n=8 timeout=soon\n", "t:1: timeout must be a number of seconds in (0, 86400], got 'soon'");
	expect_error("case a variant=x n=8 timeout=-1\n", "t:1: timeout must be a number of seconds in (0, 86400], got '-1'");
	expect_error("case a variant=x n=8 timeout=1e3\n", "t:1: timeout must be a number of seconds in (0, 86400], got '1e3'");
	expect_error("case a variant=x n=8 timeout=inf\n", "t:1: timeout must be a number of seconds in (0, 86400], got 'inf'");
	expect_error("case a variant=x n=8 timeout=1.2.3\n", "t:1: timeout must be a number of seconds in (0, 86400], got '1.2.3'");
	expect_error("case a variant=x n=8 timeout=0.000\n", "t:1: timeout must be a number of seconds in (0, 86400], got '0.000'");
	expect_error("case a variant=x n=8 Block=3\n", "t:1: bad key 'Block' (keys are [a-z_][a-z0-9_]*)");
	expect_error("case a variant=x n=8 n=9\n", "t:1: duplicate key 'n'");
	expect_error("case a variant=x n=8 op=sum||max\n", "t:1: key 'op' has an empty value or alternative in 'sum||max'");
	expect_error("case a variant=x n=8 op=\n", "t:1: key 'op' has an empty value or alternative in ''");
	expect_error("case a variant=x op=sum|max n=8\n",
		     "t:1: list-valued key 'op' must appear as {op} in the case name");
	expect_error("case a.{opp} variant=x op=sum n=8\n",
		     "t:1: placeholder {opp} in the case name names no key of this line");
	expect_error("case a variant=k.{algo} n=8\n",
		     "t:1: placeholder {algo} in the value of 'variant' names no key of this line");
	expect_error("case a.{op variant=x op=sum n=8\n", "t:1: unterminated '{' in the case name 'a.{op'");
	expect_error("case a.{x} variant=x x={y} y=1 n=8\n",
		     "t:1: placeholder {x} in the case name names a key whose value has placeholders itself");
	expect_error("case a..b variant=x n=8\n",
		     "t:1: bad case name 'a..b' (a dotted path of [A-Za-z0-9_-] components)");
	expect_error("case a.b. variant=x n=8\n",
		     "t:1: bad case name 'a.b.' (a dotted path of [A-Za-z0-9_-] components)");
	/* Names are checked after expansion. */
	expect_error("case a.n{n} variant=x n=8|2^4\n",
		     "t:1: bad case name 'a.n2^4' (a dotted path of [A-Za-z0-9_-] components)");
	expect_error("case a.{op} variant=x op=sum|a/b n=8\n",
		     "t:1: bad case name 'a.a/b' (a dotted path of [A-Za-z0-9_-] components)");
	expect_error("case a variant=x n=8 list=1,2\n", "t:1: value of 'list' may not contain a comma, got '1,2'");
	expect_error("case a variant=block..x n=8\n",
		     "t:1: bad variant 'block..x' (a dotted catalog name such as block.tree)");
	expect_error("case a.{op} variant=x op=sum|sum n=8\n",
		     "t:1: duplicate case name 'a.sum' (first defined at t:1)");
	expect_error("case a.{x}.{y}.{z} variant=v x=1|2|3|4|5|6|7|8|9|10|11|12|13|14|15|16|17|18|19|20|21|22|23|24|25|26|27|28|29|30|31|32|33|34|35|36|37|38|39|40|41 "
		     "y=1|2|3|4|5|6|7|8|9|10|11|12|13|14|15|16|17|18|19|20|21|22|23|24|25|26|27|28|29|30|31|32|33|34|35|36|37|38|39|40|41 "
		     "z=1|2|3|4|5|6|7|8|9|10|11|12|13|14|15|16|17|18|19|20|21|22|23|24|25|26|27|28|29|30|31|32|33|34|35|36|37|38|39|40|41 n=1\n",
		     "t:1: case 'a.{x}.{y}.{z}' expands to more than 16384 cases");

	char longname[400];
	memset(longname, 'a', sizeof longname);
	memcpy(longname, "case ", 5);
	snprintf(longname + 5 + CASE_NAME_MAX, sizeof longname - 5 - CASE_NAME_MAX, " variant=x n=1\n");
	expect_error(longname, "t:1: case name 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...' is longer than 127 characters");

	/* Errors point at the first line of a continued line. */
	expect_error("case a variant=x n=1\ncase b variant=x \\\n  n=1 \\\n  bad=\n",
		     "t:2: key 'bad' has an empty value or alternative in ''");
	/* A '#' inside what would be a value ends the line. */
	expect_error("case a variant=x n=#1\n", "t:1: key 'n' has an empty value or alternative in ''");
}

static void expect_file_error(const char *name, int line, const char *msg)
{
	struct suite s = { 0 };
	char err[1024] = "", want[1024];
	const char *path = fixture(name);

	snprintf(want, sizeof want, "%s:%d: %s", path, line, msg);
	CHECK_INT(suite_load_file(&s, path, err, sizeof err), -1);
	CHECK_STR(err, want);
	CHECK_INT(s.count, 0); /* nothing of a failed file is kept */
	suite_free(&s);
}

static void test_malformed_files(void)
{
	char msg[1024];

	expect_file_error("bad_keyword.suite", 3, "expected 'case NAME key=value ...' or 'kernel FILE', got 'cas'");
	expect_file_error("bad_expect.suite", 3,
			  "expect must be one of pass, fail, hang, launch-error, undefined, crash, error (got 'maybe')");
	expect_file_error("bad_listkey.suite", 2, "list-valued key 'op' must appear as {op} in the case name");
	expect_file_error("bad_continuation.suite", 2, "line continues past the end of the file");
	snprintf(msg, sizeof msg, "duplicate case name 'dup.sum' (first defined at %s:2)", fixture("dup_name.suite"));
	expect_file_error("dup_name.suite", 3, msg);

	struct suite s = { 0 };
	char err[512];
	CHECK_INT(suite_load_file(&s, fixture("no_such.suite"), err, sizeof err), -1);
	snprintf(msg, sizeof msg, "%s: cannot read: %s", fixture("no_such.suite"), strerror(ENOENT));
	CHECK_STR(err, msg);
	suite_free(&s);
}

static void test_text_forms(void)
{
	struct suite s = { 0 };
	char err[512] = "";

	/* GPU memory in GiB is the second quantity a case can require. */
	CHECK_INT(suite_load_text(&s, "memreq", "case m.a variant=k n=8 requires=mem>=16,sm<100\n", err,
				  sizeof err), 0);
	CHECK_INT(s.count, 1);
	CHECK_INT(s.cases[0].nreq, 2);
	CHECK_STR(s.cases[0].req[0].what, "mem");
	CHECK_INT(s.cases[0].req[0].cmp, REQ_GE);
	CHECK_INT(s.cases[0].req[0].value, 16);
	CHECK_STR(s.cases[0].req[1].what, "sm");
	CHECK_INT(s.cases[0].req[1].cmp, REQ_LT);
	suite_free(&s);
	memset(&s, 0, sizeof s);

	/* Comments anywhere, CRLF, tabs, continuations with comments, an
	 * unterminated last line, and a continued blank. */
	const char *text =
		"# header\r\n"
		"\tcase x.a variant=k n=2^4 # trailing\r\n"
		"case x.{w}  variant=k \\   # comment after the backslash\n"
		"   w=p|q \\\n"
		"\n"
		"   # not part of the line above: the blank ended it\n"
		"case x.c variant=k n=7 cols=3 k_2=v";
	CHECK_INT(suite_load_text(&s, "mem", text, err, sizeof err), -1);
	/* x.{w} has no n: the blank line ended its continuation. */
	CHECK_STR(err, "mem:3: case 'x.{w}' has no n= (the problem size)");

	text =
		"# header\r\n"
		"\tcase x.a variant=k n=2^4 # trailing\r\n"
		"case x.{w}  variant=k \\   # comment after the backslash\n"
		"   w=p|q \\\n"
		"   n=3\n"
		"case x.c variant=k n=7 cols=3 k_2=v requires=sm==90 timeout=.05";
	CHECK_INT(suite_load_text(&s, "mem", text, err, sizeof err), 0);
	CHECK_INT(s.count, 4);
	if (s.count == 4) {
		CHECK_STR(s.cases[0].name, "x.a");
		CHECK_INT(s.cases[0].n, 16);
		CHECK_INT(s.cases[0].line, 2);
		CHECK_STR(s.cases[1].name, "x.p");
		CHECK_STR(s.cases[2].name, "x.q");
		CHECK_STR(s.cases[2].params, "w=q");
		CHECK_INT(s.cases[2].n, 3);
		CHECK_INT(s.cases[2].line, 3);
		CHECK_STR(s.cases[3].name, "x.c");
		CHECK_INT(s.cases[3].cols, 3);
		CHECK_STR(s.cases[3].params, "k_2=v");
		CHECK_INT(s.cases[3].line, 6);
		CHECK_INT(s.cases[3].nreq, 1);
		CHECK_INT(s.cases[3].req[0].cmp, REQ_EQ);
		CHECK_INT(s.cases[3].req[0].value, 90);
		CHECK(s.cases[3].timeout_s == 0.05);
		CHECK_STR(s.cases[3].file, "mem");
	}

	/* A second load appends; a clash with the first names both places,
	 * and the failed load adds nothing (even its good lines). */
	CHECK_INT(suite_load_text(&s, "more", "case y.a variant=k n=1\n", err, sizeof err), 0);
	CHECK_INT(s.count, 5);
	CHECK_INT(suite_load_text(&s, "other", "case z.a variant=k n=1\n\ncase x.{w} variant=k w=q|r n=1\n",
				  err, sizeof err), -1);
	CHECK_STR(err, "other:3: duplicate case name 'x.q' (first defined at mem:3)");
	CHECK_INT(s.count, 5);
	CHECK(find(&s, "z.a") == NULL);
	/* The names of the failed load are forgotten too. */
	CHECK_INT(suite_load_text(&s, "again", "case z.a variant=k n=1\n", err, sizeof err), 0);
	CHECK_INT(s.count, 6);

	/* Growth past the initial capacity keeps every case and the index. */
	char big[64];
	for (int i = 0; i < 300; i++) {
		snprintf(big, sizeof big, "case g.c%d variant=k n=%d\n", i, i + 1);
		if (suite_load_text(&s, "loop", big, err, sizeof err) != 0)
			break;
	}
	CHECK_INT(s.count, 306);
	CHECK_INT(suite_load_text(&s, "late", "case g.c17 variant=k n=1", err, sizeof err), -1);
	CHECK_STR(err, "late:1: duplicate case name 'g.c17' (first defined at loop:1)");
	const struct case_spec *c = find(&s, "g.c299");
	CHECK(c && c->n == 300);

	/* Empty input and comment-only input are fine. */
	CHECK_INT(suite_load_text(&s, "e", "", err, sizeof err), 0);
	CHECK_INT(suite_load_text(&s, "e", "# nothing\n\n   \n", err, sizeof err), 0);
	CHECK_INT(s.count, 306);
	suite_free(&s);
}

static int write_file(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (!(f = fopen(path, "w")))
		return -1;
	fputs(text, f);
	return fclose(f);
}

static void remove_file(const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	unlink(path);
}

static void test_dir(void)
{
	struct suite s = { 0 };
	char err[1024] = "", want[1024];
	const char *tmp = getenv("TMPDIR");
	char dir[256];

	snprintf(dir, sizeof dir, "%s/conform-suite-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		CHECK(!"mkdtemp");
		return;
	}
	CHECK_INT(write_file(dir, "b.suite", "case b.one variant=k n=1\n"), 0);
	CHECK_INT(write_file(dir, "a.suite", "case a.one variant=k n=1\ncase a.two variant=k n=2\n"), 0);
	CHECK_INT(write_file(dir, "notes.txt", "not a suite\n"), 0);
	CHECK_INT(write_file(dir, ".hidden.suite", "not a suite either\n"), 0);
	CHECK_INT(write_file(dir, "x.suite.bak", "nor this\n"), 0);

	CHECK_INT(suite_load_dir(&s, dir, err, sizeof err), 0);
	CHECK_STR(err, "");
	CHECK_INT(s.count, 3);
	if (s.count == 3) {
		CHECK_STR(s.cases[0].name, "a.one");
		CHECK_STR(s.cases[1].name, "a.two");
		CHECK_STR(s.cases[2].name, "b.one");
		snprintf(want, sizeof want, "%s/b.suite", dir);
		CHECK_STR(s.cases[2].file, want);
	}
	suite_free(&s);

	/* A clash between files names both; the whole directory is dropped. */
	CHECK_INT(write_file(dir, "c.suite", "# c\ncase a.two variant=k n=3\n"), 0);
	s.count = 0;
	CHECK_INT(suite_load_text(&s, "pre", "case p.one variant=k n=1\n", err, sizeof err), 0);
	CHECK_INT(suite_load_dir(&s, dir, err, sizeof err), -1);
	snprintf(want, sizeof want, "%s/c.suite:2: duplicate case name 'a.two' (first defined at %s/a.suite:2)",
		 dir, dir);
	CHECK_STR(err, want);
	CHECK_INT(s.count, 1);
	suite_free(&s);

	remove_file(dir, "a.suite");
	remove_file(dir, "b.suite");
	remove_file(dir, "c.suite");
	remove_file(dir, "notes.txt");
	remove_file(dir, ".hidden.suite");
	remove_file(dir, "x.suite.bak");
	CHECK_INT(rmdir(dir), 0);

	/* The fixture directory holds broken files: the first by name fails. */
	char data[256];
	snprintf(data, sizeof data, "%s", fixture(""));
	CHECK_INT(suite_load_dir(&s, data, err, sizeof err), -1);
	snprintf(want, sizeof want, "%sbad_continuation.suite:2: line continues past the end of the file", data);
	CHECK_STR(err, want);
	CHECK_INT(s.count, 0);
	suite_free(&s);

	CHECK_INT(suite_load_dir(&s, "/nonexistent/conform/suites", err, sizeof err), -1);
	snprintf(want, sizeof want, "/nonexistent/conform/suites: cannot read directory: %s", strerror(ENOENT));
	CHECK_STR(err, want);
}

/* Loads size bytes and checks the exact error (origin "t"). */
static void expect_buffer_error(const char *data, size_t size, const char *want)
{
	struct suite s = { 0 };
	char err[512] = "";

	CHECK_INT(suite_load_buffer(&s, "t", data, size, err, sizeof err), -1);
	CHECK_STR(err, want);
	CHECK_INT(s.count, 0);
	suite_free(&s);
}

static int loads(const char *text)
{
	struct suite s = { 0 };
	char err[512] = "";
	int rc = suite_load_text(&s, "t", text, err, sizeof err);

	if (rc != 0)
		fprintf(stderr, "  refused: %s\n", err);
	suite_free(&s);
	return rc;
}

/* Bytes that must not reach a terminal or the database are refused where
 * they are; a NUL no longer ends the file. */
static void test_bytes(void)
{
	expect_buffer_error("\0case a variant=k n=1\n", 22,
			    "t:1: control character 0x00 at column 1 (a suite file is printable text)");
	expect_buffer_error("case a variant=k n=1\ncase\0b variant=k n=1\n", 42,
			    "t:2: control character 0x00 at column 5 (a suite file is printable text)");
	expect_error("case \x1b[2Ja variant=k n=1\n",
		     "t:1: control character 0x1b at column 6 (a suite file is printable text)");
	expect_error("case a variant=k n=1 op=s\x1b]0;x\x07um\n",
		     "t:1: control character 0x1b at column 26 (a suite file is printable text)");
	expect_error("case a variant=k n=1\n# a comment \x1b[31m\n",
		     "t:2: control character 0x1b at column 13 (a suite file is printable text)");
	expect_error("case a variant=k n=1 x=\x7f\n",
		     "t:1: control character 0x7f at column 24 (a suite file is printable text)");
	expect_error("case caf\xc3\xa9 variant=k n=1\n",
		     "t:1: byte 0xc3 at column 9 outside a comment (names and values are ASCII)");
	expect_error("case a variant=k n=1 x=\x9b" "31m\n",
		     "t:1: byte 0x9b at column 24 outside a comment (names and values are ASCII)");
	/* White space and a UTF-8 comment are text. */
	CHECK_INT(loads("case a\tvariant=k\vn=1\f # caf\xc3\xa9 \xe2\x80\x94 ok\r\n"), 0);
}

/* A line stops at SUITE_LINE_KEYS_MAX keys, and its parameters are
 * refused as soon as they cannot fit, whatever follows. */
static void test_keys(void)
{
	struct sbuf_like { char *p; size_t n; } t = { NULL, 0 };
	size_t cap = 1 << 20;

	t.p = malloc(cap);
	if (!t.p) {
		CHECK(!"malloc");
		return;
	}
	/* 32 keys fit; a 33rd does not. */
	t.n = (size_t)snprintf(t.p, cap, "case a variant=k n=1");
	for (int i = 0; i < SUITE_LINE_KEYS_MAX - 2; i++)
		t.n += (size_t)snprintf(t.p + t.n, cap - t.n, " k%d=1", i);
	CHECK_INT(loads(t.p), 0);
	snprintf(t.p + t.n, cap - t.n, " k99=1");
	expect_error(t.p, "t:1: more than 32 key=value pairs on one line");

	/* 40000 keys: refused at the 33rd, and so at once (it was checked
	 * key against all keys). */
	t.n = (size_t)snprintf(t.p, cap, "case a variant=k n=1");
	for (int i = 0; i < 40000; i++)
		t.n += (size_t)snprintf(t.p + t.n, cap - t.n, " k%d=1", i);
	expect_error(t.p, "t:1: more than 32 key=value pairs on one line");

	/* Parameters: refused at the key that cannot fit, before the line
	 * ends (the bad key after it is never reached). */
	t.n = (size_t)snprintf(t.p, cap, "case a.{k0} variant=k n=1");
	for (int i = 0; i < 25; i++)
		t.n += (size_t)snprintf(t.p + t.n, cap - t.n, " k%d=%s", i,
					"0123456789012345678901234567890|x01234567890123456789012345678");
	snprintf(t.p + t.n, cap - t.n, " Bad=1\n");
	char want[128];
	snprintf(want, sizeof want, "t:1: parameters of case 'a.{k0}' exceed %d characters", CASE_PARAMS_MAX - 1);
	expect_error(t.p, want);
	free(t.p);
}

/* A file is read to SUITE_FILE_BYTES_MAX bytes and refused past them. */
static void test_file_size(void)
{
	struct suite s = { 0 };
	char err[512] = "", want[512];
	size_t big = SUITE_FILE_BYTES_MAX + 1;
	char *text = malloc(big + 1);

	if (!text) {
		CHECK(!"malloc");
		return;
	}
	/* A file of comment lines 64 bytes long: the full size loads, a
	 * byte more is refused at the line that holds it. */
	for (size_t i = 0; i < big; i++)
		text[i] = i % 64 == 63 ? '\n' : '#';
	text[big] = '\0';
	CHECK_INT(suite_load_buffer(&s, "t", text, big - 1, err, sizeof err), 0);
	snprintf(want, sizeof want, "t:%d: the file goes past %d bytes here (the most a suite file may hold)",
		 SUITE_FILE_BYTES_MAX / 64 + 1, SUITE_FILE_BYTES_MAX);
	expect_buffer_error(text, big, want);
	free(text);

	/* A device that never ends is not read at all: not a regular file. */
	CHECK_INT(suite_load_file(&s, "/dev/zero", err, sizeof err), -1);
	CHECK_STR(err, "/dev/zero: cannot read: it is a device, not a regular file");
	suite_free(&s);
}

/* Cases: of a line, of a file, in all, counted before they are built. */
static void test_case_caps(void)
{
	struct suite s = { 0 };
	char err[512] = "";

	/* Cases: 128 x 128 = 16384 a line at most ... */
	char line[4608], list[1024];
	size_t used = 0;
	for (int i = 1; i <= 128; i++)
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%d", i > 1 ? "|" : "", i);
	snprintf(line, sizeof line, "case x.{a}.{b}.{c} variant=k a=%s b=%s c=1|2 n=1\n", list, list);
	expect_error(line, "t:1: case 'x.{a}.{b}.{c}' expands to more than 16384 cases");
	/* ... two such lines a file ... */
	char *file = malloc(4 * sizeof line);
	if (!file) {
		CHECK(!"malloc");
		return;
	}
	file[0] = '\0';
	for (int k = 0; k < 3; k++) {
		snprintf(line, sizeof line, "case x%d.{a}.{b} variant=k a=%s b=%s n=1\n", k, list, list);
		strcat(file, line);
	}
	CHECK_INT(suite_load_text(&s, "f", file, err, sizeof err), -1);
	CHECK_STR(err, "f:3: case 'x2.{a}.{b}' brings this file past 32768 cases");
	CHECK_INT(s.count, 0);
	/* ... and four in all. */
	for (int k = 0; k < 2; k++) {
		char origin[8];
		snprintf(origin, sizeof origin, "f%d", k);
		snprintf(line, sizeof line, "case x%d.{a}.{b} variant=k a=%s b=%s n=1\n"
			 "case y%d.{a}.{b} variant=k a=%s b=%s n=1\n", k, list, list, k, list, list);
		CHECK_INT(suite_load_text(&s, origin, line, err, sizeof err), 0);
	}
	CHECK_INT(s.count, SUITE_CASES_MAX);
	CHECK_INT(suite_load_text(&s, "g", "case last variant=k n=1\n", err, sizeof err), -1);
	CHECK_STR(err, "g:1: case 'last' brings the suites past 65536 cases in all");
	CHECK_INT(s.count, SUITE_CASES_MAX);
	free(file);
	suite_free(&s);
}

/* Values the run would refuse, or misread, are refused at load. */
static void test_values(void)
{
	/* timeout: the command line's bound (CASE_SECONDS_MAX). */
	CHECK_INT(loads("case a variant=k n=1 timeout=86400\n"), 0);
	expect_error("case a variant=k n=1 timeout=86400.5\n",
		     "t:1: timeout must be a number of seconds in (0, 86400], got '86400.5'");
	expect_error("case a variant=k n=1 timeout=999999999999999\n",
		     "t:1: timeout must be a number of seconds in (0, 86400], got '999999999999999'");

	/* op: one of the operators, after substitution; one of 16 characters
	 * or more was stored without it. */
	CHECK_INT(loads("case a.{op} variant=k n=1 op=sum|max|min\n"), 0);
	expect_error("case a variant=k n=1 op=xor\n", "t:1: unknown op 'xor' (one of sum, max, min)");
	expect_error("case a variant=k n=1 op=sumsumsumsumsumsum\n",
		     "t:1: unknown op 'sumsumsumsumsumsum' (one of sum, max, min)");
	expect_error("case a.{o} variant=k n=1 o=sum|Max op={o}\n", "t:1: unknown op 'Max' (one of sum, max, min)");

	/* n, cols and their product: at most 2^40 elements. */
	CHECK_INT(loads("case a variant=k n=2^40\n"), 0);
	CHECK_INT(loads("case a variant=k n=2^20 cols=2^20\n"), 0);
	expect_error("case a variant=k n=2^62\n",
		     "t:1: n must be a count from 1 to 2^40 (decimal or 2^K), got '2^62'");
	expect_error("case a variant=k n=1099511627777\n",
		     "t:1: n must be a count from 1 to 2^40 (decimal or 2^K), got '1099511627777'");
	expect_error("case a variant=k n=1 cols=2^41\n",
		     "t:1: cols must be a count from 1 to 2^40 (decimal or 2^K), got '2^41'");
	expect_error("case a variant=k n=2^21 cols=2^20\n",
		     "t:1: n x cols = 2097152 x 1048576 is more than 2^40 elements");

	/* A key that fills another key's value is marked as a template
	 * variable, so that the catalog check lets it pass; one used only in
	 * the name is not. */
	struct suite s = { 0 };
	char err[512] = "";
	CHECK_INT(suite_load_text(&s, "t",
				  "case r.{stat}.{by} variant=rows.op.{stat} stat=lse|l2 by=warp|block n=1\n"
				  "case q.{x} variant=k x=1|2 n=1 op=sum y={x}\n",
				  err, sizeof err), 0);
	CHECK_INT(s.count, 6);
	if (s.count == 6) {
		CHECK_STR(s.cases[0].variant, "rows.op.lse");
		CHECK_STR(s.cases[0].params, "stat=lse,by=warp");
		CHECK_INT(s.cases[0].template_params, 1);
		CHECK_STR(s.cases[4].params, "x=1,op=sum,y=1");
		CHECK_INT(s.cases[4].template_params, 1);
	}
	suite_free(&s);
}

static void test_globs(void)
{
	const char *const one[] = { "block.*" };
	const char *const two[] = { "warp.*", "*.f32" };
	const char *const q[] = { "block.tree.s?m.*", "[bw]arp.x" };

	CHECK_INT(suite_glob_any("block.tree.sum.f32", one, 1), 1);
	CHECK_INT(suite_glob_any("blocks.tree", one, 1), 0);
	CHECK_INT(suite_glob_any("block", one, 1), 0);
	CHECK_INT(suite_glob_any("block.tree.sum.f32", two, 2), 1); /* '*' crosses dots */
	CHECK_INT(suite_glob_any("block.tree.sum.f64", two, 2), 0);
	CHECK_INT(suite_glob_any("warp.shfl", two, 2), 1);
	CHECK_INT(suite_glob_any("block.tree.sum.b32", q, 2), 1);
	CHECK_INT(suite_glob_any("block.tree.max.b32", q, 2), 0);
	CHECK_INT(suite_glob_any("barp.x", q, 2), 1);
	CHECK_INT(suite_glob_any("block.tree.sum.f32", NULL, 0), 0);
}

int main(void)
{
	test_good_file();
	test_malformed_text();
	test_kernel_lines();
	test_malformed_files();
	test_text_forms();
	test_dir();
	test_bytes();
	test_keys();
	test_file_size();
	test_case_caps();
	test_values();
	test_globs();
	return TEST_END();
}
