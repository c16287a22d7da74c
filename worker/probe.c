/*
 * probe.c - the plan of exact probes for a case and what their answers
 * mean (see probe.h).
 *
 * Invariant of every plan: for a sum, the ones of any one probe number at
 * most probe_sum_cap() per segment, so the answer is exact in any order;
 * the ONES windows of a plan cover every counted offset once.  For max and
 * min every value is a small integer, exact in every dtype.
 */
#include "worker/probe.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/rng.h"

/* A bf16 output holds integers exactly up to 2^8: its windows of ones are
 * that wide, so one element more or less still changes the answer. */
#define PROBE_BF16_WINDOW 256

int64_t probe_sum_cap(enum dtype in, enum dtype out)
{
	return in == DTYPE_F64 || out == DTYPE_F64 ? (int64_t)1 << 53 : (int64_t)1 << 24;
}

static void plan_add(struct probe_plan *plan, const struct probe *p)
{
	if (plan->count < PROBE_MAX)
		plan->p[plan->count++] = *p;
}

/* A window of ones [lo, lo + width) clipped to [0, len). */
static void plan_window(struct probe_plan *plan, struct probe base, int64_t lo, int64_t width,
			int64_t len)
{
	if (lo < 0)
		lo = 0;
	if (lo >= len)
		return;
	base.kind = PROBE_ONES;
	base.lo = lo;
	base.hi = len - lo < width ? len : lo + width;
	for (size_t i = 0; i < plan->count; i++)
		if (plan->p[i].kind == PROBE_ONES && plan->p[i].lo == base.lo && plan->p[i].hi == base.hi)
			return;
	plan_add(plan, &base);
}

static void plan_sum(struct probe_plan *plan, struct probe base, enum dtype in, enum dtype out,
		     uint64_t seed)
{
	const int64_t len = base.seg_len, cap = probe_sum_cap(in, out);

	/* Windows that cover the segment: every element counted by one. */
	for (int64_t lo = 0; lo < len && plan->count + 64 < PROBE_MAX; lo += cap)
		plan_window(plan, base, lo, cap, len);
	/* Ramps over every offset bit, where one window holds the segment:
	 * each as many bits wide as keeps len * (2^width - 1) within the cap
	 * (and 8 for bf16 inputs, whose integers are exact to 2^8). */
	if (len <= cap) {
		int width = 1, bits = 0;
		while (width < 30 && len * (((int64_t)1 << (width + 1)) - 1) <= cap &&
		       (in != DTYPE_BF16 || width < 8))
			width++;
		while (bits < 62 && ((int64_t)1 << bits) < len)
			bits++;
		for (int b = 0; b < bits; b += width) {
			struct probe p = base;
			p.kind = PROBE_RAMP;
			p.lo = 0;
			p.hi = len;
			p.bit = b;
			p.width = width;
			plan_add(plan, &p);
		}
	}
	/* A bf16 output rounds a count past 2^8: narrow windows at the
	 * places kernels get wrong, each exact to the element. */
	if (out == DTYPE_BF16 && len > PROBE_BF16_WINDOW) {
		struct rng g;
		plan_window(plan, base, 0, PROBE_BF16_WINDOW, len);
		plan_window(plan, base, len - PROBE_BF16_WINDOW, PROBE_BF16_WINDOW, len);
		for (int k = 9; k < 62 && ((int64_t)1 << k) < len; k++)
			plan_window(plan, base, ((int64_t)1 << k) - PROBE_BF16_WINDOW / 2,
				    PROBE_BF16_WINDOW, len);
		rng_init(&g, seed);
		plan_window(plan, base, rng_range(&g, 0, len - PROBE_BF16_WINDOW), PROBE_BF16_WINDOW, len);
	}
}

static void plan_extreme(struct probe_plan *plan, struct probe base, enum op o, int nonnegative,
			 uint64_t seed)
{
	/* a warp, past the f32 cap, past 32-bit indices */
	static const int bits[] = {5, 24, 31, 32};
	const int64_t len = base.seg_len;
	int64_t at[4 + 2 * sizeof bits / sizeof bits[0]]; /* first, last, middle, seeded, bits */
	size_t nat = 0;
	struct rng g;

	base.kind = PROBE_EXTREME;
	if (o == OP_MAX) {
		base.base = nonnegative ? 1 : -2;
		base.peak = nonnegative ? 2 : -1;
		base.decoy = 4;
	} else {
		base.base = 2;
		base.peak = 1;
		base.decoy = nonnegative ? 0 : -4;
	}
	rng_init(&g, seed);
	at[nat++] = 0;
	at[nat++] = len - 1;
	at[nat++] = len / 2;
	for (size_t k = 0; k < sizeof bits / sizeof bits[0]; k++) {
		at[nat++] = ((int64_t)1 << bits[k]) - 1;
		at[nat++] = (int64_t)1 << bits[k];
	}
	at[nat++] = rng_range(&g, 0, len - 1);
	for (size_t i = 0; i < nat; i++) {
		int seen = 0;
		if (at[i] < 0 || at[i] >= len)
			continue;
		for (size_t j = 0; j < i; j++)
			seen |= at[j] == at[i];
		if (seen)
			continue;
		base.at = at[i];
		plan_add(plan, &base);
	}
}

size_t probe_plan_make(struct probe_plan *plan, enum op o, enum dtype in, enum dtype out,
		       int64_t n, int64_t seg_len, int64_t seg_stride, int nonnegative,
		       uint64_t seed)
{
	struct probe base;

	plan->count = 0;
	if (n < 1 || seg_len < 1 || seg_stride < seg_len)
		return 0;
	memset(&base, 0, sizeof base);
	/* A segment longer than the problem is the problem. */
	base.seg_len = seg_len < n ? seg_len : n;
	base.seg_stride = seg_stride < n ? seg_stride : n;
	if (base.seg_stride < base.seg_len)
		base.seg_stride = base.seg_len;
	if (o == OP_SUM) {
		if (dtype_is_float(in))
			plan_sum(plan, base, in, out, seed);
	} else if (o == OP_MAX || o == OP_MIN) {
		plan_extreme(plan, base, o, nonnegative || in == DTYPE_U32, seed);
	}
	return plan->count;
}

size_t probe_softmax_plan(struct probe_plan *plan, int64_t cols, int finite_only, uint64_t seed)
{
	struct probe p;
	struct rng g;

	memset(&p, 0, sizeof p);
	plan->count = 0;
	if (cols < 1)
		return 0;
	p.seg_len = p.seg_stride = cols;
	p.kind = PROBE_ONEHOT;
	p.base = -1024; /* expf(-1024) is 0 in float, bf16 holds -1024 */
	p.peak = 0;
	rng_init(&g, seed);
	p.lo = rng_range(&g, 0, cols - 1);
	for (p.bit = 0; p.bit < 3; p.bit++)
		plan_add(plan, &p);
	p.base = -INFINITY;
	for (p.bit = 0; p.bit < 3 && !finite_only; p.bit++)
		plan_add(plan, &p);
	p.kind = PROBE_EQUAL;
	p.bit = 0;
	plan_add(plan, &p);
	return plan->count;
}

double probe_softmax_expect(const struct probe *p, enum dtype out, int64_t row, int64_t col,
			    double *tol)
{
	int e;

	if (p->kind == PROBE_ONEHOT) {
		*tol = 0;
		return col == probe_onehot_column(p, row) ? 1.0 : 0.0;
	}
	(void)frexp(1.0 / (double)p->seg_len, &e);
	*tol = 2.0 * ldexp(1.0, e - (out == DTYPE_BF16 ? 8 : out == DTYPE_F64 ? 53 : 24));
	return 1.0 / (double)p->seg_len;
}

/* The sum over off in [0, x) of (off >> b) mod 2^w. */
static double ramp_sum(int64_t x, int b, int w)
{
	const int64_t mask = ((int64_t)1 << w) - 1;
	const int64_t full = x >> b, rest = x & (((int64_t)1 << b) - 1);
	/* q = off >> b takes each value in [0, full) 2^b times, then full
	 * rest times; q mod 2^w cycles through 0..mask. */
	const int64_t cycles = full >> w, part = full & mask;
	const double per_q = (double)cycles * ((double)mask * (double)(mask + 1) / 2) +
			     (double)part * (double)(part - 1) / 2;

	return ldexp(per_q, b) + (double)rest * (double)(full & mask);
}

/* Counted elements of segment s. */
static int64_t segment_length(const struct probe *p, int64_t n, int64_t s)
{
	const int64_t left = n - s * p->seg_stride;

	return left < p->seg_len ? (left > 0 ? left : 0) : p->seg_len;
}

double probe_expect(const struct probe *p, int64_t n, int64_t s)
{
	const int64_t len = segment_length(p, n, s);
	const int64_t hi = p->hi < len ? p->hi : len;

	switch (p->kind) {
	case PROBE_ONES:
		return hi > p->lo ? (double)(hi - p->lo) : 0.0;
	case PROBE_RAMP:
		return hi > p->lo ? ramp_sum(hi, p->bit, p->width) - ramp_sum(p->lo, p->bit, p->width) : 0.0;
	default:
		return p->at < len ? p->peak : p->base;
	}
}

void probe_name(const struct probe *p, enum op o, char *buf, size_t len)
{
	switch (p->kind) {
	case PROBE_ONES:
		snprintf(buf, len, "ones at [%lld, %lld)", (long long)p->lo, (long long)p->hi);
		break;
	case PROBE_RAMP:
		snprintf(buf, len, "bits %d..%d of each offset in [%lld, %lld)", p->bit, p->bit + p->width - 1,
			 (long long)p->lo, (long long)p->hi);
		break;
	case PROBE_EXTREME:
		snprintf(buf, len, "%s of %gs with %g at offset %lld", op_name(o), p->base, p->peak,
			 (long long)p->at);
		break;
	case PROBE_ONEHOT:
		snprintf(buf, len, "one-hot rows: %gs and one %g, in column %s", p->base, p->peak,
			 p->bit == 0 ? "0, last, seeded by turns" : p->bit == 1 ? "last, seeded, 0 by turns"
									: "seeded, 0, last by turns");
		break;
	default:
		snprintf(buf, len, "rows of equal values: every output 1/%lld", (long long)p->seg_len);
		break;
	}
}

/* "1 element" / "5 elements" */
static const char *plural(double k)
{
	return k == 1.0 ? "" : "s";
}

void probe_explain(const struct probe *p, enum op o, int64_t n, int64_t s, int64_t nseg,
		   double got, char *buf, size_t len)
{
	const double want = probe_expect(p, n, s);
	const double d = got - want;
	size_t used = strlen(buf);
	char where[64] = "";

	if (used >= len)
		return;
	buf += used;
	len -= used;
	if (nseg > 1)
		snprintf(where, sizeof where, " of segment %lld", (long long)s);
	if (isnan(got)) {
		snprintf(buf, len, "returned NaN%s, want %.17g", where, want);
		return;
	}
	if (p->kind == PROBE_EXTREME) {
		if (got == p->base)
			snprintf(buf, len, "returned %g%s, want %g: the element at offset %lld was never read",
				 got, where, want, (long long)p->at);
		else if (got == p->decoy)
			snprintf(buf, len, "returned %g%s, want %g: an element outside the segment was read",
				 got, where, want);
		else
			snprintf(buf, len, "returned %.9g%s, want %g: a value not in the input "
				 "(an identity or initial value?)", got, where, want);
		(void)o;
		return;
	}
	if (got != floor(got) || fabs(d) > 9.0e15) {
		snprintf(buf, len, "returned %.9g%s, want %.17g exactly: not a count of its ones", got,
			 where, want);
		return;
	}
	if (p->kind == PROBE_RAMP) {
		snprintf(buf, len, "returned %.17g%s, want %.17g: elements read from the wrong offset "
			 "(the count of ones was right)", got, where, want);
		return;
	}
	if (got == 0.0 && want > 0.0)
		snprintf(buf, len, "sum of %.17g ones returned 0%s: nothing counted", want, where);
	else if (d < 0)
		snprintf(buf, len, "sum of %.17g ones returned %.17g%s: %.17g element%s not counted",
			 want, got, where, -d, plural(-d));
	else
		snprintf(buf, len, "sum of %.17g ones returned %.17g%s: %.17g element%s counted twice "
			 "(or read from outside the segment)", want, got, where, d, plural(d));
}
