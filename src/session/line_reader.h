/*
 * line_reader.h - reading lines from a worker's pipe under a deadline.
 *
 * Nothing conform reads from a worker may wait forever: a worker can hang
 * before it says anything, stop in the middle of a line or never stop
 * talking.  So every read goes through line_reader_next(), which waits with
 * poll() until a monotonic deadline and holds at most `max` bytes of one
 * line: a longer line is refused (WAIT_TOO_LONG) rather than cut or grown
 * without bound.
 */
#ifndef CONFORM_LINE_READER_H
#define CONFORM_LINE_READER_H

#include <signal.h>
#include <stddef.h>

enum wait_result {
	WAIT_LINE,          /* a line was read */
	WAIT_TIMEOUT,       /* the deadline passed first */
	WAIT_EOF,           /* the writer closed the pipe */
	WAIT_INTERRUPTED,   /* *stop became non-zero */
	WAIT_IO_ERROR,      /* poll or read failed */
	WAIT_TOO_LONG,      /* a line of more than max bytes (newline excluded) */
};

/* Bytes read and not yet returned.  A zeroed reader is closed. */
struct line_reader {
	char *buf;          /* max + 1 bytes: a line and its terminator */
	size_t max;
	size_t start, len;  /* buf[start..len): not yet returned */
	int eof;
};

/* Opens a reader for lines of at most max bytes.  Returns 0, or -1 when
 * out of memory. */
int line_reader_open(struct line_reader *r, size_t max);

/* Waits until the monotonic time `deadline` (text_now) for the next line
 * on fd, or until *stop (may be NULL) becomes non-zero.  A line already
 * read is returned even past the deadline.  On WAIT_LINE *line points to
 * it inside the reader, terminated and without its newline, valid until
 * the next call, and *n is its length (it may hold NUL bytes); the last
 * line before end of file counts even without a newline. */
enum wait_result line_reader_next(struct line_reader *r, int fd, double deadline,
				  const volatile sig_atomic_t *stop, char **line, size_t *n);

/* Frees the buffer; the reader is closed (zeroed).  The fd is the
 * caller's. */
void line_reader_close(struct line_reader *r);

#endif
