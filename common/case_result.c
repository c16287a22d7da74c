/*
 * case_result.c - filling a worker's report (common/case.h).
 *
 * Kept apart from the kernels so host-only code (the harness, the checks)
 * can report without linking CUDA.  err_norm, fatal and kernel_ms belong to
 * whoever measured them and are left alone.
 */
#include <stdarg.h>
#include <stdio.h>

#include "case.h"

void case_result_set(struct case_result *r, enum outcome o, const char *fmt, ...)
{
	va_list ap;

	r->outcome = o;
	va_start(ap, fmt);
	vsnprintf(r->message, sizeof r->message, fmt, ap);
	va_end(ap);
}
