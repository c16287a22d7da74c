/*
 * whole_file.h - a file written whole or not at all: written to a
 * temporary file beside it and renamed over it at the end, so that a reader
 * never sees half of it and a failed write leaves the old one (the JUnit
 * report, a baseline written by compare, the worker's cache of compiled
 * kernels, where two workers may store the same file at once).
 */
#ifndef CONFORM_WHOLE_FILE_H
#define CONFORM_WHOLE_FILE_H

#include <stdio.h>

struct whole_file {
	FILE *f;                 /* write here, between open and commit */
	char *tmp;               /* its name, until renamed to path */
	const char *path;
	const char *refused;     /* why open refused path itself, or NULL */
};

/* Opens a unique temporary file beside path (mkstemp: rename() stays in
 * one file system and no file of the user's is overwritten on the way),
 * readable as the umask allows.  A path that exists and is not a regular
 * file (a directory, a device, a FIFO, a socket, a symbolic link) is
 * refused: the rename would replace it, or a FIFO would block.  Returns
 * 0, or -1 with errno (whole_file_why says it in words). */
int whole_file_open(struct whole_file *w, const char *path);

/* Why the last open or commit of w failed, for a message: "it is a FIFO,
 * not a regular file", or strerror(err). */
const char *whole_file_why(const struct whole_file *w, int err);

/* Writes it out (flush, fsync, close) and renames it over path.  Returns
 * 0, or -1 with errno, the temporary file removed. */
int whole_file_commit(struct whole_file *w);

/* Drops the temporary file, if any. */
void whole_file_abort(struct whole_file *w);

#endif
