/*
 * file_read.h - reading an input file whole, within a bound.
 *
 * conform's text inputs (suite files, baselines) are read into memory and
 * parsed there.  The bound is what keeps a runaway input (a generated
 * file, /dev/zero, a pipe that never ends) from taking the machine's
 * memory: at most max + 1 bytes are ever read, so the caller sees that the
 * input said too much, and where, at the cost of a file one byte too long.
 * Only a regular file is read: it is opened without blocking and checked
 * first, so a FIFO, a device or a directory named as an input is one
 * line, never a wait for a writer that does not come.
 */
#ifndef CONFORM_FILE_READ_H
#define CONFORM_FILE_READ_H

#include <stddef.h>
#include <sys/types.h>

/* Reads at most max + 1 bytes of path into *data (malloc'd, NUL-terminated
 * after *size bytes, which may hold NULs of their own).  *size > max says
 * the file is longer than max; refusing it is the caller's choice.
 * Returns 0, or -1 with err "PATH: cannot read: REASON" (*data NULL), the
 * reason "it is a FIFO, not a regular file" for what is not one. */
int file_read_bounded(const char *path, size_t max, char **data, size_t *size, char *err,
		      size_t len);

/* Why a file of mode m is not one conform reads or replaces ("it is a
 * FIFO, not a regular file"), or NULL for a regular file. */
const char *file_type_refusal(mode_t m);

#endif
