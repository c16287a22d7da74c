/*
 * case_result.c - filling a worker's report (common/case.h).
 *
 * Kept apart from the kernels so host-only code (the harness, the checks)
 * can report without linking CUDA.  err_norm, fatal and kernel_ms belong to
 * whoever measured them and are left alone.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "case.h"

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
