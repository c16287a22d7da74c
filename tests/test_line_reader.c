/*
 * test_line_reader.c - reading a pipe under a deadline: lines split
 * across writes come back whole, a silent writer costs exactly the
 * deadline, an overlong line is refused, the last line counts without
 * its newline, and end of file is told apart from silence.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/text.h"
#include "session/line_reader.h"
#include "tests/test.h"

static void put(int fd, const char *s)
{
	CHECK_INT(write(fd, s, strlen(s)), (long long)strlen(s));
}

int main(void)
{
	int p[2];
	CHECK_INT(pipe(p), 0);
	struct line_reader r;
	CHECK_INT(line_reader_open(&r, 8), 0);
	char *line;
	size_t n;

	put(p[1], "one\ntw");
	CHECK_INT(line_reader_next(&r, p[0], text_now() + 1, NULL, &line, &n), WAIT_LINE);
	CHECK_STR(line, "one");
	CHECK_INT(n, 3);
	/* "tw" waits for the rest of its line: the deadline passes. */
	double t0 = text_now();
	CHECK_INT(line_reader_next(&r, p[0], t0 + 0.2, NULL, &line, &n), WAIT_TIMEOUT);
	double waited = text_now() - t0;
	CHECK(waited >= 0.2 && waited < 0.7);
	put(p[1], "o\n12345678\n");
	CHECK_INT(line_reader_next(&r, p[0], text_now() + 1, NULL, &line, &n), WAIT_LINE);
	CHECK_STR(line, "two");
	/* A line of exactly max bytes fits. */
	CHECK_INT(line_reader_next(&r, p[0], text_now() + 1, NULL, &line, &n), WAIT_LINE);
	CHECK_STR(line, "12345678");

	/* A full buffer whose first line was taken is not an overlong line:
	 * the part of the next one read so far moves to the front. */
	put(p[1], "ab\ncdefgh");
	CHECK_INT(line_reader_next(&r, p[0], text_now() + 1, NULL, &line, &n), WAIT_LINE);
	CHECK_STR(line, "ab");
	put(p[1], "ij\nk\n");
	CHECK_INT(line_reader_next(&r, p[0], text_now() + 1, NULL, &line, &n), WAIT_LINE);
	CHECK_STR(line, "cdefghij");
	CHECK_INT(line_reader_next(&r, p[0], text_now() + 1, NULL, &line, &n), WAIT_LINE);
	CHECK_STR(line, "k");

	/* A stop flag already set ends the wait at once. */
	volatile sig_atomic_t stop = 1;
	CHECK_INT(line_reader_next(&r, p[0], text_now() + 5, &stop, &line, &n), WAIT_INTERRUPTED);

	/* A NUL byte does not end a line: the length tells. */
	CHECK_INT(write(p[1], "a\0b\n", 4), 4);
	CHECK_INT(line_reader_next(&r, p[0], text_now() + 1, NULL, &line, &n), WAIT_LINE);
	CHECK_INT(n, 3);

	/* One byte over max, with or without its newline, is refused. */
	put(p[1], "123456789");
	CHECK_INT(line_reader_next(&r, p[0], text_now() + 1, NULL, &line, &n), WAIT_TOO_LONG);
	line_reader_close(&r);
	CHECK(r.buf == NULL);
	close(p[0]);
	close(p[1]);

	/* The last line counts without its newline; then end of file. */
	CHECK_INT(pipe(p), 0);
	CHECK_INT(line_reader_open(&r, 64), 0);
	put(p[1], "last\nno newline");
	close(p[1]);
	CHECK_INT(line_reader_next(&r, p[0], text_now() + 1, NULL, &line, &n), WAIT_LINE);
	CHECK_STR(line, "last");
	CHECK_INT(line_reader_next(&r, p[0], text_now() + 1, NULL, &line, &n), WAIT_LINE);
	CHECK_STR(line, "no newline");
	CHECK_INT(line_reader_next(&r, p[0], text_now() + 1, NULL, &line, &n), WAIT_EOF);
	CHECK_INT(line_reader_next(&r, p[0], text_now() + 1, NULL, &line, &n), WAIT_EOF);
	line_reader_close(&r);
	close(p[0]);
	return TEST_END();
}
