/*
 * huge_shape.h - the rows x cols problem past 32-bit indices that the
 * ladder of a user's rows or softmax kernel poses once
 * (src/session/user_cases.c).
 *
 * The commonest bug of a row kernel is a 32-bit `row * cols`: it wraps
 * once (rows - 1) * cols, the offset of the last row, exceeds INT_MAX.
 * For given cols the shape has the fewest rows that make it so, which
 * puts the problem just past 2^31 elements (each row adds cols to
 * INT_MAX + 1 at most).  A kernel's @rule may refuse some cols (cols <=
 * 1024, cols == 128): the worker, which reads the rules, tries the
 * candidates in order and names the first the kernel takes in its
 * catalog (catalog_entry.huge_cols), and the session poses that one.
 * Both sides use this one list and this one arithmetic.
 */
#ifndef CONFORM_HUGE_SHAPE_H
#define CONFORM_HUGE_SHAPE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The candidate columns, tried in order: awkward lengths first (one past
 * a block of 1024 threads, a prime several blocks long, one just under a
 * block, a long row), then every power of two from a warp to 4096, for
 * kernels that take whole warps or vectors only. */
#define HUGE_SHAPE_CANDIDATES 12
extern const int64_t huge_shape_cols[HUGE_SHAPE_CANDIDATES];

/* The fewest rows with (rows - 1) * cols > INT32_MAX, for cols >= 1. */
int64_t huge_shape_rows(int64_t cols);

/*
 * The first candidate whose shape (huge_shape_rows(cols) x cols) accepts
 * takes (returns nonzero for), or the first candidate when it takes none
 * (the case is then refused by the rule when it runs, as any case of the
 * ladder a rule refuses).
 */
int64_t huge_shape_choose(int (*accepts)(void *ctx, int64_t rows, int64_t cols), void *ctx);

#ifdef __cplusplus
}
#endif
#endif
