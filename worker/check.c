/*
 * check.c - element-by-element comparison of kernel output with a reference.
 *
 * An element is unwritten when it still holds the poison bit pattern; that
 * is decided on bits before any conversion, so a kernel that writes a
 * genuine NaN is told apart from one that never stored.  A float element
 * with a positive tolerance passes when |got - want| <= tol; with a zero (or
 * no) tolerance it must equal the reference rounded to the output type bit
 * for bit.  NaN never passes.  An element whose tolerance is CHECK_UNWRITTEN
 * passes only while it holds the poison.  The error norm covers written
 * elements (other than those) where
 * both values are finite: ||got - want|| / ||want||, or the absolute norm
 * when ||want|| is 0, and -1 when no element qualifies.
 */
#include "check.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "reference.h"
#include "rng.h"

#define POISON_32 0x7FBADBADu
#define POISON_BF16 0x7FBAu
#define POISON_64 0x7FF8BADBADBADBADull

/* Mismatches named in the message; the rest are only counted. */
#define CHECK_LIST_MAX 5

void check_poison(enum dtype d, void *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		switch (dtype_size(d)) {
		case 2: ((uint16_t *)buf)[i] = POISON_BF16; break;
		case 4: ((uint32_t *)buf)[i] = POISON_32; break;
		case 8: ((uint64_t *)buf)[i] = POISON_64; break;
		default: break;
		}
	}
}

static int is_poison(enum dtype d, const void *buf, size_t i)
{
	switch (dtype_size(d)) {
	case 2: return ((const uint16_t *)buf)[i] == POISON_BF16;
	case 4: return ((const uint32_t *)buf)[i] == POISON_32;
	case 8: return ((const uint64_t *)buf)[i] == POISON_64;
	default: return 0;
	}
}

/* Element i of buf equals `want` rounded to d, bit for bit. */
static int same_bits(enum dtype d, const void *buf, size_t i, double want)
{
	switch (d) {
	case DTYPE_F32: {
		float w = (float)want;
		return memcmp((const float *)buf + i, &w, sizeof w) == 0;
	}
	case DTYPE_F64:
		return memcmp((const double *)buf + i, &want, sizeof want) == 0;
	case DTYPE_BF16:
		return ((const uint16_t *)buf)[i] == bf16_from_float((float)want);
	default:
		return 0;
	}
}

static int value_ok(enum dtype d, const void *buf, size_t i, double got, double want, double tol)
{
	if (!dtype_is_float(d))
		return got == want;
	if (isnan(got) || isnan(want))
		return 0;
	if (!(tol > 0.0))
		return same_bits(d, buf, i, want);
	if (isinf(got) || isinf(want))
		return got == want;
	return fabs(got - want) <= tol;
}

/* A bounded one-line message; text past the end is dropped, never overrun. */
struct msg {
	char buf[RESULT_MESSAGE_MAX];
	size_t used;
};

#ifdef __GNUC__
__attribute__((format(printf, 2, 3)))
#endif
static void msg_add(struct msg *m, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (m->used + 1 >= sizeof m->buf)
		return;
	va_start(ap, fmt);
	k = vsnprintf(m->buf + m->used, sizeof m->buf - m->used, fmt, ap);
	va_end(ap);
	if (k > 0)
		m->used += (size_t)k < sizeof m->buf - m->used ? (size_t)k : sizeof m->buf - m->used - 1;
}

static void msg_value(struct msg *m, enum dtype d, double v)
{
	if (!dtype_is_float(d))
		msg_add(m, "%lld", (long long)v);
	else
		msg_add(m, d == DTYPE_F64 ? "%.17g" : "%.9g", v);
}

/* The comparison behind check_values and check_ints: the reference is
 * ref[i] when ref is given, else want[i]. */
static void check_run(enum dtype d, const void *got, const double *ref, const int *want,
		      const double *tol, size_t n, struct case_result *r)
{
	struct msg list = { .used = 0 };
	size_t wrong = 0, unwritten = 0, counted = 0, unratioed = 0;
	double num = 0.0, den = 0.0, worst = -1.0, ratio = 0.0;

	list.buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		int blank = is_poison(d, got, i);
		double g = reference_load(d, got, i);
		double w = ref ? ref[i] : want[i];
		double t = tol && dtype_is_float(d) ? tol[i] : 0.0;
		int finite = !blank && isfinite(g) && isfinite(w);

		if (tol && tol[i] == CHECK_UNWRITTEN) {
			if (blank)
				continue;
			if (++wrong > CHECK_LIST_MAX)
				continue;
			msg_add(&list, "; [%zu] got ", i);
			msg_value(&list, d, g);
			msg_add(&list, " (want unwritten)");
			continue;
		}

		if (finite) {
			num += (g - w) * (g - w);
			den += w * w;
			counted++;
		}
		if (finite && t > 0.0 && fabs(g - w) / t > ratio)
			ratio = fabs(g - w) / t;
		if (!blank && value_ok(d, got, i, g, w, t))
			continue;
		wrong++;
		unwritten += blank;
		unratioed += !finite || !(t > 0.0);
		if (finite && t > 0.0 && fabs(g - w) / t > worst)
			worst = fabs(g - w) / t;
		if (wrong > CHECK_LIST_MAX)
			continue;
		msg_add(&list, "; [%zu] got ", i);
		msg_value(&list, d, g);
		if (blank) {
			msg_add(&list, " (unwritten)");
			continue;
		}
		msg_add(&list, " want ");
		msg_value(&list, d, w);
		if (t > 0.0)
			msg_add(&list, " (tol %.2g)", t);
		else if (dtype_is_float(d))
			msg_add(&list, " (exact)");
	}

	r->err_norm = counted == 0 ? -1.0 : den > 0.0 ? sqrt(num / den) : sqrt(num);
	r->tol_checked = tol && dtype_is_float(d) && !unratioed;
	r->err_ratio = r->tol_checked ? ratio : -1.0;
	if (wrong == 0) {
		r->outcome = OUTCOME_CORRECT;
		return;
	}

	struct msg m = { .used = 0 };
	msg_add(&m, "%zu of %zu outputs wrong", wrong, n);
	if (unwritten)
		msg_add(&m, " (%zu unwritten)", unwritten);
	/* The list starts with "; "; a colon introduces it instead. */
	msg_add(&m, ": %s", list.buf + 2);
	if (wrong > CHECK_LIST_MAX)
		msg_add(&m, "; ...");
	if (worst >= 0.0)
		msg_add(&m, "; max |err|/tol %.3g", worst);
	if (r->err_norm >= 0.0)
		msg_add(&m, "; rel-L2 %.1e", r->err_norm);
	case_result_set(r, OUTCOME_WRONG, "%s", m.buf);
}

void check_values(enum dtype d, const void *got, const double *ref, const double *tol,
		  size_t n, struct case_result *r)
{
	check_run(d, got, ref, NULL, tol, n, r);
}

void check_ints(const int *got, const int *want, size_t n, struct case_result *r)
{
	check_run(DTYPE_I32, got, NULL, want, NULL, n, r);
}
