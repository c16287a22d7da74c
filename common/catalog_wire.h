/*
 * catalog_wire.h - the variant catalog as it crosses the pipe from
 * `conform-worker --catalog` to conform: one format, written and read by
 * one pair of functions, so the two sides cannot drift apart.
 *
 * One record per line, tab-separated, the first field naming the record:
 *
 *   build    kernels|no-kernels  archs
 *   variant  name gpu(1|0) dtypes summary contract tunables space
 *            copy copy_n baseline baseline_rows
 *            kind source path expect requires timeout huge_cols
 *   error    message
 *
 * tunables, space, copy, baseline, baseline_rows and the user kernel's
 * fields travel as "-" when empty; copy_n and huge_cols are decimal counts.  An "error"
 * record is the worker refusing its input (a --kernel file it cannot
 * read): the reader hands its message back as the catalog's error.  The writer refuses what
 * the reader could not give back unchanged (a tab or line break inside a
 * field, an optional field that is literally "-", a line over
 * CATALOG_WIRE_LINE_MAX), and the reader refuses a line with the wrong
 * tag, the wrong number of fields, a bad flag, an empty optional field or
 * too many bytes.  So a
 * catalog is either read whole or refused with a message, never cut short.
 * Every field read is made printable (text_sanitize): a control byte in a
 * worker's catalog reaches neither a terminal nor the database.
 *
 * Adding a field to a record: a member in its struct below, a row in its
 * field table in catalog_wire.c (formatting, parsing and freeing follow
 * the table), and the value filled in by the worker's catalog_print()
 * (worker/worker_main.c).  A new kind of value (a list, a number) is a
 * new field kind in catalog_wire.c, handled in its three walks.
 */
#ifndef CONFORM_CATALOG_WIRE_H
#define CONFORM_CATALOG_WIRE_H

#include <stddef.h>

/* The longest line either side accepts, newline included. */
#define CATALOG_WIRE_LINE_MAX 65536

/* The build record: what the worker was built with.  From
 * catalog_wire_parse, archs is allocated (catalog_wire_free_build). */
struct catalog_build {
	int has_kernels;      /* the worker was built with CUDA kernels */
	const char *archs;    /* "sm_80 sm_90 compute_90"; "" when none */
};

/* One variant record.  No string is ever NULL ("" when empty); from
 * catalog_wire_parse each is allocated (catalog_wire_free_variant). */
struct catalog_entry {
	const char *name;     /* "block.tree" */
	int gpu;              /* needs a CUDA device */
	const char *dtypes;   /* "f32,i32" */
	const char *summary;
	const char *contract;
	const char *tunables; /* for people: "block=32..1024 (power of two)" */
	const char *space;    /* tuning space "block=128,256 items=1,2"; "" when none */
	/* What its timings are measured against (its family's declaration):
	 * a copy of copy_n f32 and the untuned baselines of whole-array and
	 * rows x cols problems; "" and 0 when none. */
	const char *copy;
	long long copy_n;
	const char *baseline;
	const char *baseline_rows;
	/* A user's kernel file (kernel_file.h); "" for a built-in variant:
	 * its kind ("reduce"), the SHA-256 of its source, its path, and the
	 * case keys its declaration sets: expect, requires ("sm>=80,mem>=16")
	 * and timeout (seconds, as text). */
	const char *kind;
	const char *source;
	const char *path;
	const char *expect;
	const char *requires;
	const char *timeout;
	/* A rows or softmax kernel file's: the columns of the shape past
	 * 32-bit indices that its ladder poses (huge_shape.h), the first
	 * candidate its rules take; 0 for any other variant. */
	long long huge_cols;
};

enum catalog_wire_record { CATALOG_WIRE_BUILD, CATALOG_WIRE_VARIANT, CATALOG_WIRE_ERROR };

/* Each returns the record as one allocated line ending in "\n", or NULL
 * with a message saying which field could not be written.  A NULL string
 * is written as empty. */
char *catalog_wire_format_build(const struct catalog_build *b, char *err, size_t len);
char *catalog_wire_format_variant(const struct catalog_entry *e, char *err, size_t len);

/* The error record for message (tabs and line breaks made spaces);
 * allocated, NULL when out of memory. */
char *catalog_wire_format_error(const char *message);

/* Parses one line (with or without its newline).  Returns
 * CATALOG_WIRE_BUILD with *b filled, CATALOG_WIRE_VARIANT with *e filled,
 * CATALOG_WIRE_ERROR with the worker's message in err, or -1 with a
 * message (then nothing is allocated). */
int catalog_wire_parse(const char *line, struct catalog_build *b, struct catalog_entry *e,
		       char *err, size_t len);

/* Free what catalog_wire_parse allocated; the record is zeroed. */
void catalog_wire_free_build(struct catalog_build *b);
void catalog_wire_free_variant(struct catalog_entry *e);

#endif
