/*
 * expr.h - integer expressions over named values, for the constraints and
 * defaults of a variant's tunables ("vec * items * esize <= 128",
 * "16 / esize").
 *
 * The grammar is C's, cut down to what such a constraint needs: decimal
 * integers, names, parentheses, unary - and !, * / %, + -, < <= > >=,
 * == !=, &&, ||, and ?: ; and the functions pow2(x) (1 when x is a power of
 * two), min(a, b) and max(a, b).  Arithmetic is on long long; a division
 * by zero or an overflow is an error, never undefined behaviour.  A name is
 * resolved by the caller's lookup, so the same text reads the same way in
 * the worker's check and in the text printed for a user.
 */
#ifndef CONFORM_EXPR_H
#define CONFORM_EXPR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Resolves name[0..len): returns 0 with *out, or -1 when unknown. */
typedef int (*expr_lookup_fn)(void *ctx, const char *name, size_t len, long long *out);

/* Evaluates text.  Returns 0 with *out, or -1 with a message (syntax, an
 * unknown name, division by zero, overflow). */
int expr_eval(const char *text, expr_lookup_fn lookup, void *ctx, long long *out, char *err,
	      size_t errlen);

/* Parses text without judging its values: returns 0 when it is well
 * formed and every name resolves, else -1 with a message (a syntax error,
 * an unknown name).  A division by zero or an overflow is not an error
 * here: the lookup's values are stand-ins. */
int expr_check(const char *text, expr_lookup_fn lookup, void *ctx, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
