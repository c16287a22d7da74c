/*
 * pattern.h - a fact drawn across the sizes of one configuration: "fails
 * only at sizes that are not a power of two (fails at 5, 31, 33, ...;
 * passes at 1, 32, 256, ...)".
 *
 * The input is the results of one variant, dtype, operator and
 * configuration at several sizes, each a case that expected to pass.
 * Each counts as status_tally_expecting_pass says (status.h): PASS
 * passed; FAIL, TIMEOUT, CRASH, ERROR failed; the others are left out.
 * The size is n for a flat problem and cols for rows of cols (a rows
 * kernel's lanes and vectors run along a row), but for the 32-bit index,
 * which counts every element (n x cols).
 *
 * The properties, tried in this order, the first that fits said:
 *   not a power of two; not a multiple of 32 (a partly idle warp); not a
 *   multiple of 4 (a 16-byte vector's tail); not a multiple of 256 (a
 *   partly idle block of 256); above 2^31 - 1 elements (a 32-bit index).
 * Invariant: a line is a measured fact, never a guess.  A property is
 * said only when it splits the results exactly (every failing size has
 * it, every passing size lacks it) and there are at least two distinct
 * failing and two distinct passing sizes; otherwise nothing is said.
 */
#ifndef CONFORM_PATTERN_H
#define CONFORM_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#include "common/status.h"

struct pattern_case {
	int64_t n, cols;      /* elements, or rows of cols (cols > 0) */
	enum status status;
};

/* The first property that splits cases[0..ncases) exactly, as one line in
 * buf: returns 1; or 0 with buf empty when none does.  The verb is the
 * failures' own when they share one ("times out only at ...", "crashes
 * only at ..."), else "fails"; at most 4 sizes of each side are listed,
 * smallest first, then "...". */
int pattern_find(const struct pattern_case *cases, size_t ncases, char *buf, size_t len);

#endif
