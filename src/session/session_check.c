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

int session_check_case(const struct catalog *cat, const struct case_spec *c, char *err, size_t len)
{
	const struct catalog_entry *e = catalog_lookup(cat, c->variant);

	if (!e) {
		if (!cat->has_kernels && strncmp(c->variant, "harness.", 8) != 0)
			return 0;
		return fail(c, err, len, "unknown variant '%s' (conform --variants lists them)", c->variant);
	}
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
