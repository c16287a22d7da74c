/*
 * test_text.c - the tab splitter shared by the worker protocol and the
 * catalog wire format.
 */
#include "test.h"
#include "text.h"

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

int main(void)
{
	test_split_tabs();
	return TEST_END();
}
