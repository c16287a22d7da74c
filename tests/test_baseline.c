/*
 * test_baseline.c - expected-failure baselines: the reader, the matcher,
 * the writer read back, the refusals and the message note.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/baseline.h"
#include "tests/test.h"

static char err[1024];

static int load(struct baseline *b, const char *text)
{
	err[0] = '\0';
	return baseline_load_buffer(b, "bl", text, strlen(text), err, sizeof err);
}

/* Loading size bytes of text fails with exactly one line starting with
 * want. */
static void refused_n(const char *text, size_t size, const char *want)
{
	struct baseline b;
	err[0] = '\0';
	CHECK_INT(baseline_load_buffer(&b, "bl", text, size, err, sizeof err), -1);
	CHECK_INT(strncmp(err, want, strlen(want)), 0);
	if (strncmp(err, want, strlen(want)) != 0)
		fprintf(stderr, "  got: %s\n  want: %s...\n", err, want);
	CHECK(!strchr(err, '\n'));
	CHECK_INT(b.count, 0);
	baseline_free(&b);
}

static void refused(const char *text, const char *want)
{
	refused_n(text, strlen(text), want);
}

static const char *reason_of(const struct baseline *b, const char *name)
{
	const struct baseline_entry *e = baseline_match(b, name);
	return e ? e->reason : "(none)";
}

static void test_read_and_match(void)
{
	struct baseline b;
	const char *text =
		"# known failures on this device\n"
		"\n"
		"harness.pass.f32   wrong sum on driver 550 (bug 123)\n"
		"  warp.*.bf16\tno bf16 shuffles here  \r\n"
		"block.tree.sum.f32.b1024\tneeds\tsm_80\n"
		"rows.[!x]*.i32 integer rows overflow\n"
		"    # an indented comment\n"
		"warp.shfl.*  too broad, listed after the bf16 one";
	CHECK_INT(load(&b, text), 0);
	CHECK_STR(err, "");
	CHECK_INT(b.count, 5);
	CHECK_STR(b.entries[0].name, "harness.pass.f32");
	CHECK_STR(b.entries[0].reason, "wrong sum on driver 550 (bug 123)");
	CHECK_INT(b.entries[0].line, 3);
	CHECK_STR(b.entries[1].reason, "no bf16 shuffles here");
	CHECK_INT(b.entries[1].line, 4);
	CHECK_STR(b.entries[2].reason, "needs sm_80");
	CHECK_INT(b.entries[4].line, 8);

	CHECK_STR(reason_of(&b, "harness.pass.f32"), "wrong sum on driver 550 (bug 123)");
	CHECK(!baseline_match(&b, "harness.pass.f64"));
	CHECK(!baseline_match(&b, "harness.pass"));
	/* '*' crosses dots; the first glob in file order wins. */
	CHECK_STR(reason_of(&b, "warp.shfl.sum.bf16"), "no bf16 shuffles here");
	CHECK_STR(reason_of(&b, "warp.shfl.sum.f32"), "too broad, listed after the bf16 one");
	CHECK_STR(reason_of(&b, "rows.sum.i32"), "integer rows overflow");
	CHECK(!baseline_match(&b, "rows.xsum.i32"));
	CHECK_STR(reason_of(&b, "block.tree.sum.f32.b1024"), "needs sm_80");

	/* Which entries some selected case matches. */
	unsigned char used[5] = {0};
	baseline_mark(&b, "warp.shfl.sum.bf16", used);
	baseline_mark(&b, "harness.pass.f32", used);
	CHECK_INT(used[0], 1);
	CHECK_INT(used[1], 1);
	CHECK_INT(used[2], 0);
	CHECK_INT(used[3], 0);
	CHECK_INT(used[4], 1); /* a glob that also matches, though not the one that applies */
	baseline_free(&b);

	/* Nothing but comments: no entries, not an error. */
	CHECK_INT(load(&b, "# nothing yet\n\n   \n"), 0);
	CHECK_INT(b.count, 0);
	CHECK(!baseline_match(&b, "harness.pass.f32"));
	baseline_free(&b);
}

/* What the writer writes, the reader reads back: same names, reasons and
 * order. */
static void test_round_trip(void)
{
	const struct baseline_entry in[] = {
		{.name = "harness.pass.f32", .reason = "wrong sum (bug 123)"},
		{.name = "warp.*.bf16", .reason = "no bf16 shuffles; caf\xc3\xa9 # not a comment"},
		{.name = "x", .reason = "a"},
	};
	const size_t n = sizeof in / sizeof in[0];
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	CHECK(f != NULL);
	CHECK_INT(baseline_write(f, in, n), 0);
	fclose(f);
	CHECK_STR(buf, "harness.pass.f32  wrong sum (bug 123)\n"
		       "warp.*.bf16       no bf16 shuffles; caf\xc3\xa9 # not a comment\n"
		       "x                 a\n");

	struct baseline b;
	CHECK_INT(baseline_load_buffer(&b, "written", buf, size, err, sizeof err), 0);
	CHECK_INT(b.count, n);
	for (size_t i = 0; i < n && i < b.count; i++) {
		CHECK_STR(b.entries[i].name, in[i].name);
		CHECK_STR(b.entries[i].reason, in[i].reason);
		CHECK_INT(b.entries[i].line, (int)i + 1);
	}
	baseline_free(&b);
	free(buf);

	/* Entries the format cannot hold are refused before a byte is
	 * written. */
	const struct baseline_entry bad[][2] = {
		{{.name = "ok", .reason = "fine"}, {.name = "a b", .reason = "space in the name"}},
		{{.name = "ok", .reason = "fine"}, {.name = "#x", .reason = "reads as a comment"}},
		{{.name = "ok", .reason = "fine"}, {.name = "x", .reason = ""}},
		{{.name = "ok", .reason = "fine"}, {.name = "x", .reason = " leading space"}},
		{{.name = "ok", .reason = "fine"}, {.name = "x", .reason = "trailing space "}},
		{{.name = "ok", .reason = "fine"}, {.name = "x", .reason = "two\nlines"}},
		{{.name = "ok", .reason = "fine"}, {.name = "x", .reason = "a\ttab"}},
		{{.name = "ok", .reason = "fine"}, {.name = "x", .reason = "bad \xff utf-8"}},
		{{.name = "ok", .reason = "fine"}, {.name = "", .reason = "no name"}},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		buf = NULL;
		size = 0;
		f = open_memstream(&buf, &size);
		errno = 0;
		CHECK_INT(baseline_write(f, bad[i], 2), -1);
		CHECK_INT(errno, EINVAL);
		fclose(f);
		CHECK_INT(size, 0);
		free(buf);
	}
}

static void test_refusals(void)
{
	refused("harness.pass.f32\n", "bl:1: 'harness.pass.f32' has no reason (expected 'CASE_NAME_OR_GLOB REASON...')");
	refused("a.b reason\nharness.pass.f32   \t \n", "bl:2: 'harness.pass.f32' has no reason");
	refused("a.b fine\nc.d bad \033[2J reason\n", "bl:2: control character 0x1b at column 9 (a baseline file is printable text)");
	refused("# a comment is text too \x01\n", "bl:1: control character 0x01 at column 25");
	refused_n("a.b fine\0 and more\n", 19, "bl:1: control character 0x00 at column 9");
	refused("a.b \xc2\x9b a C1 control\n", "bl:1: byte 0xc2 at column 5: the reason is not UTF-8 text");
	refused("a.b cut \xe2\x82\n", "bl:1: byte 0xe2 at column 9: the reason is not UTF-8 text");
	refused("caf\xc3\xa9.x reason\n", "bl:1: byte 0xc3 at column 4 in a case name (names are ASCII)");
	refused("a/b reason\n", "bl:1: bad character '/' at column 2 in 'a/b' (a case name or glob");
	refused("a.b first\nc.d other\na.b again\na.b thrice\n", "bl:3: 'a.b' is listed twice (first at line 1)");
	refused("w.* first\nw.* again\n", "bl:2: 'w.*' is listed twice (first at line 1)");

	char name[CASE_NAME_MAX + 8];
	memset(name, 'n', sizeof name);
	snprintf(name + CASE_NAME_MAX, 8, " r\n");
	refused(name, "bl:1: case name or glob 'nnnn");
	char reason[BASELINE_REASON_MAX + 8] = "a.b ";
	memset(reason + 4, 'r', BASELINE_REASON_MAX);
	strcpy(reason + 4 + BASELINE_REASON_MAX, "\n");
	refused(reason, "bl:1: the reason is longer than 511 bytes");

	/* Sizes: one byte past 1 MiB, and more entries than the suites may
	 * hold cases. */
	size_t big = BASELINE_FILE_BYTES_MAX + 1;
	char *text = malloc(big + 1);
	for (size_t i = 0; i < big; i++)
		text[i] = i % 16 == 15 ? '\n' : 'x';
	text[big] = '\0';
	struct baseline b;
	CHECK_INT(baseline_load_buffer(&b, "bl", text, big, err, sizeof err), -1);
	CHECK_STR(err, "bl:65537: the file goes past 1048576 bytes here (the most a baseline file may hold)");
	free(text);
	size_t lines = BASELINE_ENTRIES_MAX + 1, each = 12; /* "c000000 r\n" padded */
	text = malloc(lines * each + 1);
	char *p = text;
	for (size_t i = 0; i < lines; i++)
		p += sprintf(p, "c%06zu r\n", i);
	CHECK_INT(baseline_load_buffer(&b, "bl", text, (size_t)(p - text), err, sizeof err), -1);
	CHECK_STR(err, "bl:65537: more than 65536 entries (the most a baseline may hold)");
	free(text);

	CHECK_INT(baseline_load_file(&b, "/nonexistent/baseline", err, sizeof err), -1);
	CHECK_STR(err, "/nonexistent/baseline: cannot read: No such file or directory");
}

static void test_note(void)
{
	char msg[64] = "1 of 1 outputs wrong";
	baseline_note(msg, sizeof msg, "bug 123");
	CHECK_STR(msg, "known failure (baseline): bug 123; 1 of 1 outputs wrong");
	CHECK_STR(baseline_note_skip(msg, "bug 123"), "1 of 1 outputs wrong");
	CHECK_STR(baseline_note_skip(msg, "bug 12"), msg);

	char empty[64] = "";
	baseline_note(empty, sizeof empty, "bug 123");
	CHECK_STR(empty, "known failure (baseline): bug 123");
	CHECK_STR(baseline_note_skip(empty, "bug 123"), "");

	/* The message's end gives way to the note. */
	char small[40] = "0123456789abcdefghij";
	baseline_note(small, sizeof small, "r");
	CHECK_STR(small, "known failure (baseline): r; 0123456789");
	char tiny[12] = "observed";
	baseline_note(tiny, sizeof tiny, "a long reason");
	CHECK_STR(tiny, "known failu");
	CHECK_STR(baseline_note_skip(tiny, "a long reason"), "known failu");
}

int main(void)
{
	test_read_and_match();
	test_round_trip();
	test_refusals();
	test_note();
	return TEST_END();
}
