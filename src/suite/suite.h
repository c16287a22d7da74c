/*
 * suite.h - suite files: human-readable lists of cases.
 *
 * Format (one case line may expand into many cases):
 *
 *   # comment; blank lines are ignored; a trailing backslash continues a line
 *   case NAME key=value key=value ...
 *   kernel FILE          (a user's kernel file, docs/kernels.md: its
 *                         variant user.NAME is then the cases' to name)
 *
 * Keys: variant (required), n (required; decimal or 2^K), dtype (f32 by
 * default), cols, expect (pass|fail|hang|launch-error|undefined|crash|error; pass
 * by default), requires (comma list such as sm>=80,sm<100), timeout
 * (seconds).
 * Any other key is a kernel parameter (block=256, op=sum).
 *
 * A value may be a list a|b|c; the line then expands into the cartesian
 * product of its lists, and every list-valued key K must appear as {K} in
 * NAME, so that each expanded case has its own name:
 *
 *   case block.tree.{op}.{dtype}.b{block} variant=block.tree op=sum|max \
 *        dtype=f32|i32 block=32|256|1024 n=100003
 *
 * A key's value is checked as it is applied: variant a dotted name, n and
 * cols counts whose product is at most CASE_ELEMENTS_MAX (case.h), op one
 * of the operators (dtype.h), timeout a number of seconds up to
 * CASE_SECONDS_MAX (case.h), the bound of --timeout.  A key other
 * than the case keys that fills another key's value through {key} (stat=
 * in variant=rows.op.{stat}) is a template variable: it still lands in the
 * parameters, and the case records it (case_spec.template_params) so that
 * the catalog check (session_check.h) does not take it for a tunable.
 *
 * A suite file is printable text: a control character anywhere (NUL, ESC,
 * DEL ...; tab, CR, VT and FF are white space) and a byte above 0x7e
 * outside a comment are refused, so that what a suite names never reaches
 * a terminal or the database as anything but itself.
 *
 * Errors name file:line and what was expected there, on one line.
 */
#ifndef CONFORM_SUITE_H
#define CONFORM_SUITE_H

#include <stddef.h>

#include "common/case.h"

/*
 * Limits.  A suite is read whole into memory and every case costs about
 * 800 bytes (struct case_spec), so a runaway input (a generated file, a
 * device such as /dev/zero, lists multiplied by mistake) is refused with
 * a file:line message before it can take the machine's memory.  Each
 * limit is far above what the shipped suites use (the .suite files of
 * kernels/<family>: at most 4.8 KB and 541 cases a file, 8 keys and 160
 * cases a line, when these limits were set; `conform --all --list | wc -l`
 * counts the cases today).  docs/running.md lists them for users.
 */
/* Bytes of one suite file: 200 times the largest shipped.  A file is read
 * up to one byte more, so a pipe or a device is refused as soon as it has
 * said too much. */
#define SUITE_FILE_BYTES_MAX (1 << 20)
/* key=value pairs on one logical line: a variant has at most TUNABLES_MAX
 * (12) tunables, plus op and the 7 case keys, with room for template
 * variables.  The cap also bounds the work of each key's duplicate and
 * placeholder checks, which compare it with the keys before it. */
#define SUITE_LINE_KEYS_MAX 32
/* Cases one line may expand into (100 times the largest shipped). */
#define SUITE_LINE_CASES_MAX 16384
/* Cases one file may hold (60 times the largest shipped). */
#define SUITE_FILE_CASES_MAX 32768
/* Cases of every file loaded into one suite: about 94 MB of case records,
 * 56 times the shipped 1154. */
#define SUITE_CASES_MAX 65536

struct suite_index;

#define SUITE_KERNELS_MAX 64

struct suite {
	struct case_spec *cases;
	size_t count, cap;
	/* The kernel files its "kernel FILE" lines name (resolved against
	 * the suite file's directory), for the worker to read: the cases of
	 * their variants (user.NAME) are then ordinary cases. */
	char *kernels[SUITE_KERNELS_MAX];
	size_t nkernels;
	/* The case names of cases[0..count) for the duplicate check, kept
	 * between loads so that loading many files stays linear; rebuilt
	 * when count is not what it last saw.  Private to suite.c. */
	struct suite_index *index;
};

/* Appends the cases of one file (at most SUITE_FILE_BYTES_MAX bytes).
 * Returns 0, or -1 with err "file:line: ..." (or "file: cannot read: ...").
 * A case name already in the suite is an error. */
int suite_load_file(struct suite *s, const char *path, char *err, size_t len);

/* Appends every *.suite file of dir in name order. */
int suite_load_dir(struct suite *s, const char *dir, char *err, size_t len);

/* Same, from size bytes in memory, which need not end in a NUL (`origin`
 * names them in messages). */
int suite_load_buffer(struct suite *s, const char *origin, const char *data, size_t size,
		      char *err, size_t len);

/* suite_load_buffer of a NUL-terminated text. */
int suite_load_text(struct suite *s, const char *origin, const char *text, char *err, size_t len);

/* Adds a case made elsewhere (a kernel file's, user_cases.h) after the
 * loaded ones.  Returns 0, or -1 with a message (a name already there). */
int suite_add(struct suite *s, const struct case_spec *c, char *err, size_t len);

void suite_free(struct suite *s);

/* 1 if name matches any of the globs (fnmatch, '*' crosses dots). */
int suite_glob_any(const char *name, const char *const *globs, size_t nglobs);

#endif
