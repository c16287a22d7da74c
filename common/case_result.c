/*
 * case_result.c - filling a worker's report (common/case.h).
 *
 * Kept apart from the kernels so host-only code (the harness, the checks)
 * can report without linking CUDA.  err_norm, fatal and kernel_ms belong to
 * whoever measured them and are left alone.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/case.h"

void case_result_set(struct case_result *r, enum outcome o, const char *fmt, ...)
{
	va_list ap;

	r->outcome = o;
	va_start(ap, fmt);
	vsnprintf(r->message, sizeof r->message, fmt, ap);
	va_end(ap);
}

void case_result_note(struct case_result *r, const char *fmt, ...)
{
	size_t used = strlen(r->message);
	va_list ap;

	if (used && used + 2 < sizeof r->message) {
		memcpy(r->message + used, "; ", 3);
		used += 2;
	}
	if (used + 1 >= sizeof r->message)
		return;
	va_start(ap, fmt);
	vsnprintf(r->message + used, sizeof r->message - used, fmt, ap);
	va_end(ap);
}

void case_result_lead(struct case_result *r, const char *fmt, ...)
{
	char was[sizeof r->message];
	size_t used;
	va_list ap;

	memcpy(was, r->message, sizeof was);
	va_start(ap, fmt);
	vsnprintf(r->message, sizeof r->message, fmt, ap);
	va_end(ap);
	used = strlen(r->message);
	if (was[0] && used + 2 < sizeof r->message)
		snprintf(r->message + used, sizeof r->message - used, ": %s", was);
}

/* Where name's size token starts (its '.'), or strlen(name) when it has
 * none: ".n<digits>", or ".r<digits>.c<digits>", at the end. */
static size_t size_token(const char *name)
{
	size_t len = strlen(name), i = len;
	while (i > 0 && isdigit((unsigned char)name[i - 1]))
		i--;
	if (i == len || i < 2 || name[i - 2] != '.')
		return len;
	if (name[i - 1] == 'n')
		return i - 2;
	if (name[i - 1] != 'c')
		return len;
	size_t j = i - 2; /* the '.' before c */
	while (j > 0 && isdigit((unsigned char)name[j - 1]))
		j--;
	if (j == i - 2 || j < 2 || name[j - 1] != 'r' || name[j - 2] != '.')
		return len;
	return j - 2;
}

void case_resized(const struct case_spec *c, int64_t n, int64_t cols, struct case_spec *out)
{
	char base[CASE_NAME_MAX];
	if (out != c)
		*out = *c;
	snprintf(base, sizeof base, "%.*s", (int)size_token(c->name), c->name);
	if (cols > 0)
		snprintf(out->name, sizeof out->name, "%.90s.r%lld.c%lld", base, (long long)n, (long long)cols);
	else
		snprintf(out->name, sizeof out->name, "%.100s.n%lld", base, (long long)n);
	out->n = n;
	out->cols = cols;
}
