/*
 * session_check.c - cases against the catalog (session_check.h).
 */
#include "session_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#ifdef __GNUC__
__attribute__((format(printf, 4, 5)))
#endif
static int fail(const struct case_spec *c, char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	int k = snprintf(err, len, "%s:%d: ", c->file, c->line);

	if (k >= 0 && (size_t)k < len) {
		va_start(ap, fmt);
		vsnprintf(err + k, len - (size_t)k, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* 1 when the list holds word (wlen bytes) as an item; sep separates them. */
static int list_has(const char *list, size_t llen, char sep, const char *word, size_t wlen)
{
	const char *end = list + llen;

	for (const char *p = list; p < end;) {
		const char *q = memchr(p, sep, (size_t)(end - p));
		size_t n = (size_t)((q ? q : end) - p);
		if (n == wlen && strncmp(p, word, wlen) == 0)
			return 1;
		p = q ? q + 1 : end;
	}
	return 0;
}

int session_variant_has_dtype(const struct catalog_entry *e, enum dtype d)
{
	const char *name = dtype_name(d);
	return list_has(e->dtypes, strlen(e->dtypes), ',', name, strlen(name));
}

int session_check_case(const struct catalog *cat, const struct case_spec *c, char *err, size_t len)
{
	const struct catalog_entry *e = catalog_lookup(cat, c->variant);

	if (!e) {
		if (!cat->has_kernels && strncmp(c->variant, "harness.", 8) != 0)
			return 0;
		return fail(c, err, len, "unknown variant '%s' (conform --variants lists them)", c->variant);
	}
	if (!session_variant_has_dtype(e, c->dtype))
		return fail(c, err, len, "case '%s': %s does not support dtype %s (it has %s)", c->name,
			    e->name, dtype_name(c->dtype), e->dtypes);
	return 0;
}

int session_check_cases(const struct catalog *cat, const struct case_spec *const *cases, size_t n,
			char *err, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (session_check_case(cat, cases[i], err, len) < 0)
			return -1;
	return 0;
}
