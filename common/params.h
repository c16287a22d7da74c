/*
 * params.h - a case's kernel parameters as one canonical string.
 *
 * Parameters travel from suite file to worker to database as "key=value"
 * pairs joined by commas ("block=256,op=sum").  Keys are identifiers, values
 * contain no comma, tab or newline.  Lookup is linear: a case has a handful.
 */
#ifndef CONFORM_PARAMS_H
#define CONFORM_PARAMS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Copies the value of `key` into buf; returns 0, or -1 if absent or too long. */
int params_get(const char *params, const char *key, char *buf, size_t len);

/* Appends key=value (with a comma if needed); returns -1 if it would not fit,
 * or if the key is empty or the key or value holds a character that would
 * break the form (comma, tab, newline; '=' in the key). */
int params_append(char *params, size_t len, const char *key, const char *value);

/* Copies params without the pair of `key` ("block=256,op=sum" without op is
 * "block=256").  Returns 0, or -1 if it does not fit. */
int params_without(const char *params, const char *key, char *buf, size_t len);

/* Calls fn(ctx, key, value) for each pair in order, key and value as
 * NUL-terminated copies; fn returning non-zero stops the walk with that
 * value.  Returns 0 after the last pair, -1 for a pair without '=' or one
 * whose key or value is 64 bytes or longer. */
int params_each(const char *params, int (*fn)(void *ctx, const char *key, const char *value), void *ctx);

#ifdef __cplusplus
}
#endif
#endif
