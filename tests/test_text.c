/*
 * test_text.c - the tab splitter shared by the worker protocol and the
 * catalog wire format, the sanitiser for text from outside, dates, lines
 * appended in pieces, and words quoted for a shell.
 */
#include <stdlib.h>
#include <time.h>

#include "common/text.h"
#include "tests/test.h"

static void test_split_tabs(void)
{
	char *f[4];
	char line[] = "RUN\t7\t\tlast\n";
	CHECK_INT(text_split_tabs(line, f, 4), 4);
	CHECK_STR(f[0], "RUN");
	CHECK_STR(f[1], "7");
	CHECK_STR(f[2], ""); /* empty fields count */
	CHECK_STR(f[3], "last"); /* the newline is dropped */

	char one[] = "alone";
	CHECK_INT(text_split_tabs(one, f, 4), 1);
	CHECK_STR(f[0], "alone");

	char empty[] = "\n";
	CHECK_INT(text_split_tabs(empty, f, 4), 1);
	CHECK_STR(f[0], "");

	/* One field too many: refused, not merged into the last field. */
	char more[] = "a\tb\tc\td\te";
	CHECK_INT(text_split_tabs(more, f, 4), -1);
	char trailing[] = "a\tb\tc\td\t";
	CHECK_INT(text_split_tabs(trailing, f, 4), -1);
}

/* sanitized(in, want, replaced): text_sanitize turns in into want. */
static void sanitized(const char *in, const char *want, size_t replaced)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", in);
	CHECK_INT(text_sanitize(buf), replaced);
	CHECK_STR(buf, want);
}

static void test_sanitize(void)
{
	sanitized("plain text, 1.5 ms", "plain text, 1.5 ms", 0);
	sanitized("", "", 0);
	/* Terminal controls: ESC sequences, BEL, backspace, carriage return. */
	sanitized("\x1b[2J\x1b]0;title\x07red", "?[2J?]0;title?red", 3);
	sanitized("a\bb\rc\td\ne\x7f", "a?b?c?d?e?", 5);
	/* Printable UTF-8 stays; C1 controls as UTF-8 (CSI is U+009B) go. */
	sanitized("\xc2\xb1 1 ulp \xe2\x89\xa4 2^-24 \xf0\x9f\x99\x82", "\xc2\xb1 1 ulp \xe2\x89\xa4 2^-24 \xf0\x9f\x99\x82", 0);
	sanitized("\xc2\x9b" "31m", "?31m", 1);
	sanitized("\xc2\x85", "?", 1);
	sanitized("\xc2\xa0", "\xc2\xa0", 0); /* no-break space: printable */
	/* Bytes that are not UTF-8 each become one '?': a raw C1 byte, a
	 * stray continuation, an overlong form, a surrogate, a sequence cut
	 * short, past U+10FFFF. */
	sanitized("\x9b" "31m", "?31m", 1);
	sanitized("x\x80y", "x?y", 1);
	sanitized("\xc0\xaf", "??", 2);
	sanitized("\xed\xa0\x80", "???", 3);
	sanitized("\xe2\x89", "??", 2);
	sanitized("\xe2\x89z", "??z", 2);
	sanitized("\xf4\x90\x80\x80", "????", 4);
	sanitized("\xff\xfe", "??", 2);
	/* Idempotent: sanitised text is left alone. */
	sanitized("?[2J\xc2\xb1", "?[2J\xc2\xb1", 0);
}

/* Dates: ISO-8601 in UTC whatever the local zone, seconds kept. */
static void test_utc_iso(void)
{
	char buf[32];

	setenv("TZ", "America/St_Johns", 1);
	tzset();
	text_utc_iso(buf, sizeof buf, 0);
	CHECK_STR(buf, "1970-01-01T00:00:00Z");
	text_utc_iso(buf, sizeof buf, 1767225613);
	CHECK_STR(buf, "2026-01-01T00:00:13Z");
}

static void test_appendf(void)
{
	char buf[12] = "";
	text_appendf(buf, sizeof buf, "n = %d", 97);
	text_appendf(buf, sizeof buf, "%s", "; ");
	CHECK_STR(buf, "n = 97; ");
	/* What does not fit is cut, and the line stays terminated. */
	text_appendf(buf, sizeof buf, "%d probes", 23);
	CHECK_STR(buf, "n = 97; 23 ");
	text_appendf(buf, sizeof buf, "more");
	CHECK_STR(buf, "n = 97; 23 ");
	char none[1] = "";
	text_appendf(none, sizeof none, "x");
	CHECK_STR(none, "");
}

/* A command line a user can paste: words a shell reads as they are stay
 * plain; others are single-quoted, a quote inside as '\''. */
static void test_shell_append(void)
{
	char buf[128] = "";
	text_shell_append(buf, sizeof buf, "conform");
	CHECK_STR(buf, "conform"); /* no space before the first word */
	text_shell_append(buf, sizeof buf, "run");
	text_shell_append(buf, sizeof buf, "--n=1001");
	text_shell_append(buf, sizeof buf, "user@host:1,2+3^4%5_a/b.c");
	CHECK_STR(buf, "conform run --n=1001 user@host:1,2+3^4%5_a/b.c");

	buf[0] = '\0';
	text_shell_append(buf, sizeof buf, "a b");
	text_shell_append(buf, sizeof buf, "harness.*");
	text_shell_append(buf, sizeof buf, "it's");
	text_shell_append(buf, sizeof buf, "");
	text_shell_append(buf, sizeof buf, "'");
	CHECK_STR(buf, "'a b' 'harness.*' 'it'\\''s' '' ''\\'''");
	buf[0] = '\0';
	text_shell_append(buf, sizeof buf, "$HOME");
	text_shell_append(buf, sizeof buf, "a;b|c");
	text_shell_append(buf, sizeof buf, "~x");
	text_shell_append(buf, sizeof buf, "tab\there");
	text_shell_append(buf, sizeof buf, "\"q\"");
	CHECK_STR(buf, "'$HOME' 'a;b|c' '~x' 'tab\there' '\"q\"'");

	/* A tiny buffer: cut, terminated, nothing written past it; a quoted
	 * word cut is still closed, and a quote is escaped whole or not at
	 * all. */
	struct {
		char buf[8];
		char after[8];
	} t;
	memset(&t, '#', sizeof t);
	t.buf[0] = '\0';
	text_shell_append(t.buf, sizeof t.buf, "abcdefghij");
	CHECK_STR(t.buf, "abcdefg");
	t.buf[0] = '\0';
	text_shell_append(t.buf, sizeof t.buf, "a b c d e");
	CHECK_STR(t.buf, "'a '");
	t.buf[0] = '\0';
	text_shell_append(t.buf, sizeof t.buf, "''''");
	CHECK_STR(t.buf, "''\\'''");
	snprintf(t.buf, sizeof t.buf, "abcdef");
	text_shell_append(t.buf, sizeof t.buf, "x y");
	CHECK_STR(t.buf, "abcdef "); /* room for the space only */
	snprintf(t.buf, sizeof t.buf, "abcdefg");
	text_shell_append(t.buf, sizeof t.buf, "x");
	CHECK_STR(t.buf, "abcdefg"); /* full: left as it was */
	int clean = 1;
	for (size_t i = 0; i < sizeof t.after; i++)
		clean &= t.after[i] == '#';
	CHECK(clean);

	/* Every length from 1: the bytes past it untouched, the line
	 * terminated within it. */
	static const char *const words[] = { "conform", "it's", "a b", "", "x'y'z", "--n=5" };
	char whole[128] = "";
	for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
		text_shell_append(whole, sizeof whole, words[w]);
	CHECK_STR(whole, "conform 'it'\\''s' 'a b' '' 'x'\\''y'\\''z' --n=5");
	for (size_t len = 1; len < 48; len++) {
		char b[64];
		memset(b, '#', sizeof b);
		b[0] = '\0';
		for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
			text_shell_append(b, len, words[w]);
		for (size_t i = len; i < sizeof b; i++)
			clean &= b[i] == '#';
		clean &= strnlen(b, len) < len;
	}
	CHECK(clean);
}

int main(void)
{
	test_appendf();
	test_split_tabs();
	test_sanitize();
	test_utc_iso();
	test_shell_append();
	return TEST_END();
}
