/*
 * num.h - the one strict number parser: every number conform reads from a
 * user (flags, suite files) or from a worker goes through here.
 *
 * strtol and strtod are too kind for input that must mean one thing: they
 * skip leading space, take a sign, hex ("0x10"), exponents, "inf" and the
 * locale's decimal point, and overflow quietly wraps for sscanf("%d").
 * These take exactly the forms below and refuse everything else, including
 * a value that does not fit.
 */
#ifndef CONFORM_NUM_H
#define CONFORM_NUM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* DIGITS, at most max.  No sign, no space, no hex.  Returns 0 or -1. */
int num_parse_uint(const char *s, unsigned long long max, unsigned long long *out);

/* [-]DIGITS within [min, max].  Returns 0 or -1. */
int num_parse_int(const char *s, long long min, long long max, long long *out);

/* A count as users write sizes: DIGITS or 2^K (K <= 62).  Returns 0 or -1. */
int num_parse_count(const char *s, long long *out);

/* DIGITS[.DIGITS] or .DIGITS, at most 15 digits so the value is exact to
 * the last digit typed; no sign, exponent, hex, "inf" or "nan".  Returns 0
 * or -1. */
int num_parse_decimal(const char *s, double *out);

/* A double as printf's %g and %f write it, for numbers one program of
 * conform prints and another reads (the worker protocol):
 * [-]DIGITS[.DIGITS][e(+|-)DIGITS], or [-]inf, [-]nan.  A finite text too
 * large for a double is refused; one too small reads as the nearest
 * denormal or zero, as printf may have written it.  Returns 0 or -1. */
int num_parse_printed(const char *s, double *out);

#ifdef __cplusplus
}
#endif
#endif
