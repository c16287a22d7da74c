/*
 * baseline.h - expected-failure baselines: the cases known to fail on one
 * device or toolkit, each with the reason (conform run --baseline FILE).
 *
 * Format, one entry a line:
 *
 *   # a comment: a line whose first non-blank character is '#'
 *   CASE_NAME_OR_GLOB  REASON...
 *
 * The name is a case name or a glob as --filter takes it ('*' crosses
 * dots, '?', '[...]', '[!...]'); white space separates it from the reason,
 * which is free text to the end of the line (UTF-8 allowed), with its
 * leading and trailing white space dropped and each tab a space.  Blank
 * lines are ignored.  A name listed twice is refused: the second could
 * never apply.
 *
 * Like a suite file, a baseline is printable text: a control character
 * (tab, CR, VT and FF are white space), a byte above 0x7e in a name or a
 * reason that is not well-formed UTF-8 is refused, so a reason reaches a
 * terminal, a JUnit report and the database as itself.  Errors are one
 * line, "FILE:LINE: what was expected".
 *
 * A run's result is judged by its status alone, as without a baseline
 * (status.h); the baseline only says which failures were known.  A case
 * that matches a name exactly takes that entry's reason; otherwise the
 * first glob in file order that matches it.
 */
#ifndef CONFORM_BASELINE_H
#define CONFORM_BASELINE_H

#include <stddef.h>
#include <stdio.h>

#include "common/case.h"

/* Bytes of a baseline file, as for a suite file: a list of failures of
 * the whole catalog (about 1200 cases) is a few tens of KB. */
#define BASELINE_FILE_BYTES_MAX (1 << 20)
/* Entries of one file: as many as the suites may hold cases. */
#define BASELINE_ENTRIES_MAX 65536
/* Bytes of a reason, its terminator included: it is stored at the head of
 * a result's message (RESULT_MESSAGE_MAX, case.h), which must keep room
 * for what was observed. */
#define BASELINE_REASON_MAX 512

struct baseline_entry {
	const char *name;    /* a case name or a glob, at most CASE_NAME_MAX - 1 bytes */
	const char *reason;  /* why it is known to fail, never empty */
	int line;            /* where the file lists it; 0 for an entry built in memory */
};

struct baseline {
	char *origin;        /* the file's name, for messages */
	struct baseline_entry *entries; /* in file order */
	size_t count, cap;
	/* Private to baseline.c: the file's text, which the entries point
	 * into; the entries without glob characters sorted by name (the
	 * matcher's binary search) and the globs in file order. */
	char *text;
	size_t *exact, nexact;
	size_t *globs, nglobs;
};

/* Reads a baseline file (at most BASELINE_FILE_BYTES_MAX bytes) into b.
 * Returns 0, or -1 with err "FILE:LINE: ..." (or "FILE: cannot read: ...")
 * and b empty. */
int baseline_load_file(struct baseline *b, const char *path, char *err, size_t len);

/* Same, from size bytes in memory, which need not end in a NUL (`origin`
 * names them in messages). */
int baseline_load_buffer(struct baseline *b, const char *origin, const char *data, size_t size,
			 char *err, size_t len);

/* The entry that lists the case called name (see above for which one when
 * several could), or NULL. */
const struct baseline_entry *baseline_match(const struct baseline *b, const char *name);

/* Sets used[i] for every entry i that matches the case called name, so a
 * caller that marks each selected case learns which entries match none
 * (used has b->count elements). */
void baseline_mark(const struct baseline *b, const char *name, unsigned char *used);

/* 1 when name is a case name the format holds as one exact name: not
 * empty, of the characters of case names, no glob character.  A name read
 * from a database may be anything. */
int baseline_name_ok(const char *name);

/* Writes e[0..n) in the format above, names in a column, so that
 * baseline_load reads back the same names and reasons in the same order.
 * An entry the format cannot hold (a name that is not a case name or a
 * glob, an empty reason or one with a control character, leading or
 * trailing white space, malformed UTF-8, BASELINE_REASON_MAX bytes or
 * more) is refused before anything is written.  Returns 0, or -1 (errno
 * EINVAL for such an entry, else the stream's error). */
int baseline_write(FILE *f, const struct baseline_entry *e, size_t n);

void baseline_free(struct baseline *b);

/*
 * The note a known failure's message starts with, so that a script reading
 * the database or the JSON lines can tell it from any other failure
 * without a status of its own: "known failure (baseline): REASON; " and
 * then the message as observed.
 */
#define BASELINE_NOTE "known failure (baseline): "

/* Puts the note for reason at the head of message (a buffer of size
 * bytes), cutting the end of the message if need be. */
void baseline_note(char *message, size_t size, const char *reason);

/* The message as observed: message less the note baseline_note put there
 * for reason (message itself when it has none). */
const char *baseline_note_skip(const char *message, const char *reason);

#endif
