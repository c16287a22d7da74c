/*
 * line_reader.c - lines from a pipe under a deadline (see line_reader.h).
 */
#include "session/line_reader.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/text.h"

int line_reader_open(struct line_reader *r, size_t max)
{
	memset(r, 0, sizeof *r);
	r->buf = malloc(max + 1);
	if (!r->buf)
		return -1;
	r->max = max;
	return 0;
}

void line_reader_close(struct line_reader *r)
{
	free(r->buf);
	memset(r, 0, sizeof *r);
}

/* Returns the line from buf[start] to buf[end] (its newline, or the end of
 * what was read at end of file); the next one starts at buf[next]. */
static enum wait_result give(struct line_reader *r, size_t end, size_t next, char **line,
			     size_t *n)
{
	r->buf[end] = '\0';
	*line = r->buf + r->start;
	*n = end - r->start;
	r->start = next;
	return WAIT_LINE;
}

enum wait_result line_reader_next(struct line_reader *r, int fd, double deadline,
				  const volatile sig_atomic_t *stop, char **line, size_t *n)
{
	if (!r->buf)
		return WAIT_IO_ERROR;
	size_t scanned = r->start;
	for (;;) {
		char *nl = memchr(r->buf + scanned, '\n', r->len - scanned);
		if (nl)
			return give(r, (size_t)(nl - r->buf), (size_t)(nl - r->buf) + 1, line, n);
		/* No whole line: the part read moves to the front, the rest of
		 * the line is read after it. */
		memmove(r->buf, r->buf + r->start, r->len - r->start);
		r->len -= r->start;
		r->start = 0;
		scanned = r->len;
		if (r->len > r->max)
			return WAIT_TOO_LONG;
		if (r->eof)
			return r->len ? give(r, r->len, r->len, line, n) : WAIT_EOF;
		if (stop && *stop)
			return WAIT_INTERRUPTED;
		/* A deadline already past still looks once (poll's timeout 0):
		 * a caller polling several workers without waiting (the run's
		 * lanes) must see what has come, not only a timeout. */
		double left = deadline - text_now();
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int k = poll(&p, 1, left <= 0 ? 0 : left > 1.0 ? 1000 : (int)(left * 1000.0) + 1);
		if (k < 0 && errno != EINTR)
			return WAIT_IO_ERROR;
		if (k <= 0) {
			if (left <= 0)
				return WAIT_TIMEOUT;
			continue;
		}
		/* Room for one byte past max, so that an overlong line shows. */
		ssize_t got = read(fd, r->buf + r->len, r->max + 1 - r->len);
		if (got < 0 && errno != EINTR && errno != EAGAIN)
			return WAIT_IO_ERROR;
		if (got == 0)
			r->eof = 1;
		if (got > 0)
			r->len += (size_t)got;
	}
}
