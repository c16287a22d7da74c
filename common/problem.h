/*
 * problem.h - the problem a case poses, and the names it gives the
 * expressions of suites' rules and kernel files' declarations (expr.h).
 *
 * The names are listed here once: the lookup, the check that a tunable
 * does not take one of them, and the messages that list them all read
 * problem_names[].
 */
#ifndef CONFORM_PROBLEM_H
#define CONFORM_PROBLEM_H

#include <stddef.h>
#include <stdint.h>

#include "common/dtype.h"

struct problem {
	enum dtype dtype;
	int64_t n, cols;   /* elements, or rows when cols > 0 */
};

/* The names, in the order messages list them: n (elements, or rows), rows
 * (n when the problem has columns, else 1), cols (0 for a flat problem),
 * esize (bytes per element) and the dtype flags f32, f64, i32, bf16 (1
 * for the case's dtype). */
extern const char *const problem_names[];
extern const size_t problem_name_count;

/* The value of name[0..len) for pb: 0 with *out, or -1 when it is none of
 * the problem's names. */
int problem_lookup(const struct problem *pb, const char *name, size_t len, long long *out);

/* 1 if name[0..len) is one of the problem's names. */
int problem_is_name(const char *name, size_t len);

/* "n, rows, cols, esize, f32, f64, i32, bf16" into buf. */
void problem_names_list(char *buf, size_t len);

#endif
