/*
 * num.c - the strict number parser (see num.h for what each form takes).
 */
#include "common/num.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int num_parse_uint(const char *s, unsigned long long max, unsigned long long *out)
{
	unsigned long long v = 0;

	if (!s || !*s)
		return -1;
	for (; *s; s++) {
		unsigned d = (unsigned)(*s - '0');
		if (d > 9 || v > (ULLONG_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

int num_parse_int(const char *s, long long min, long long max, long long *out)
{
	unsigned long long mag;
	long long v;

	if (!s)
		return -1;
	if (*s == '-') {
		/* -LLONG_MIN does not fit; its magnitude does as unsigned. */
		if (num_parse_uint(s + 1, (unsigned long long)LLONG_MAX + 1, &mag) < 0)
			return -1;
		v = mag == (unsigned long long)LLONG_MAX + 1 ? LLONG_MIN : -(long long)mag;
	} else {
		if (num_parse_uint(s, LLONG_MAX, &mag) < 0)
			return -1;
		v = (long long)mag;
	}
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int num_parse_count(const char *s, long long *out)
{
	unsigned long long v;

	if (!s)
		return -1;
	if (s[0] == '2' && s[1] == '^') {
		/* 2^63 does not fit a long long. */
		if (num_parse_uint(s + 2, 62, &v) < 0)
			return -1;
		*out = 1LL << v;
		return 0;
	}
	if (num_parse_uint(s, LLONG_MAX, &v) < 0)
		return -1;
	*out = (long long)v;
	return 0;
}

int num_parse_decimal(const char *s, double *out)
{
	double mant = 0.0, div = 1.0;
	int digits = 0, frac = 0;

	if (!s)
		return -1;
	for (; *s; s++) {
		if (*s == '.' && !frac) {
			frac = 1;
		} else if (*s >= '0' && *s <= '9' && digits < 15) {
			mant = mant * 10.0 + (*s - '0');
			div *= frac ? 10.0 : 1.0;
			digits++;
		} else {
			return -1;
		}
	}
	if (!digits)
		return -1;
	/* Up to 15 digits, mantissa and power of ten are exact, so the
	 * quotient is correctly rounded. */
	*out = mant / div;
	return 0;
}

/* Skips DIGITS (at least one); NULL when there is none. */
static const char *skip_digits(const char *p)
{
	if (*p < '0' || *p > '9')
		return NULL;
	while (*p >= '0' && *p <= '9')
		p++;
	return p;
}

int num_parse_printed(const char *s, double *out)
{
	if (!s)
		return -1;
	/* The form checked here; strtod would also take leading space, '+',
	 * hex, "infinity" and "nan(...)", so it only converts. */
	const char *p = s + (*s == '-');
	if (strcmp(p, "inf") != 0 && strcmp(p, "nan") != 0) {
		p = skip_digits(p);
		if (p && *p == '.')
			p = skip_digits(p + 1);
		if (p && *p == 'e')
			p = *++p == '+' || *p == '-' ? skip_digits(p + 1) : NULL;
		if (!p || *p)
			return -1;
	}
	double v = strtod(s, NULL);
	if (isinf(v) && strcmp(s + (*s == '-'), "inf") != 0)
		return -1;
	*out = v;
	return 0;
}
