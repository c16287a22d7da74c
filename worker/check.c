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
#include "worker/check.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "worker/par.h"
#include "worker/reference.h"

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

/* What one stretch of elements showed: the counts and sums check_run
 * reports, and where its first CHECK_LIST_MAX mistakes are. */
struct check_tally {
	size_t wrong, unwritten, counted, unratioed;
	double num, den, worst, ratio;
	size_t listed, at[CHECK_LIST_MAX];
};

/* The comparison's inputs; the reference is ref[i] when ref is given,
 * else want[i]. */
struct check_job {
	enum dtype d;
	const void *got;
	const double *ref;
	const int *want;
	const double *tol;
	size_t n;
	struct check_tally *chunks; /* one per PAR_CHUNK elements */
};

static double check_want(const struct check_job *c, size_t i)
{
	return c->ref ? c->ref[i] : c->want[i];
}

static double check_tol(const struct check_job *c, size_t i)
{
	return c->tol && dtype_is_float(c->d) ? c->tol[i] : 0.0;
}

/* Tallies chunk k of the job (elements k PAR_CHUNK onwards) into t. */
static void check_chunk_into(const struct check_job *c, size_t k, struct check_tally *t)
{
	size_t lo, hi;

	par_chunk_range(k, PAR_CHUNK, c->n, &lo, &hi);
	memset(t, 0, sizeof *t);
	t->worst = -1.0;
	for (size_t i = lo; i < hi; i++) {
		int blank = is_poison(c->d, c->got, i);
		double g = reference_load(c->d, c->got, i);
		double w = check_want(c, i);
		double tl = check_tol(c, i);
		int finite = !blank && isfinite(g) && isfinite(w);

		if (c->tol && c->tol[i] == CHECK_UNWRITTEN) {
			if (blank)
				continue;
			t->wrong++;
			if (t->listed < CHECK_LIST_MAX)
				t->at[t->listed++] = i;
			continue;
		}
		if (finite) {
			t->num += (g - w) * (g - w);
			t->den += w * w;
			t->counted++;
		}
		if (finite && tl > 0.0 && fabs(g - w) / tl > t->ratio)
			t->ratio = fabs(g - w) / tl;
		if (!blank && value_ok(c->d, c->got, i, g, w, tl))
			continue;
		t->wrong++;
		t->unwritten += blank;
		t->unratioed += !finite || !(tl > 0.0);
		if (finite && tl > 0.0 && fabs(g - w) / tl > t->worst)
			t->worst = fabs(g - w) / tl;
		if (t->listed < CHECK_LIST_MAX)
			t->at[t->listed++] = i;
	}
}

static void check_chunk(void *ctx, size_t k)
{
	const struct check_job *c = ctx;

	check_chunk_into(c, k, &c->chunks[k]);
}

/* all += t, t being the chunk after those all holds. */
static void check_tally_add(struct check_tally *all, const struct check_tally *t)
{
	all->num += t->num;
	all->den += t->den;
	all->counted += t->counted;
	all->unwritten += t->unwritten;
	all->unratioed += t->unratioed;
	if (t->ratio > all->ratio)
		all->ratio = t->ratio;
	if (t->worst > all->worst)
		all->worst = t->worst;
	for (size_t j = 0; j < t->listed && all->listed < CHECK_LIST_MAX; j++)
		all->at[all->listed++] = t->at[j];
	all->wrong += t->wrong;
}

/* "; [i] got G want W (tol T)" for a listed mistake. */
static void check_list_one(const struct check_job *c, struct msg *list, size_t i)
{
	double g = reference_load(c->d, c->got, i), tl = check_tol(c, i);

	msg_add(list, "; [%zu] got ", i);
	msg_value(list, c->d, g);
	if (c->tol && c->tol[i] == CHECK_UNWRITTEN) {
		msg_add(list, " (want unwritten)");
		return;
	}
	if (is_poison(c->d, c->got, i)) {
		msg_add(list, " (unwritten)");
		return;
	}
	msg_add(list, " want ");
	msg_value(list, c->d, check_want(c, i));
	if (tl > 0.0)
		msg_add(list, " (tol %.2g)", tl);
	else if (dtype_is_float(c->d))
		msg_add(list, " (exact)");
}

/*
 * The comparison behind check_values and check_ints.  Chunks are tallied
 * in parallel (par.h) and combined in order, so the counts, the listed
 * mistakes (the first CHECK_LIST_MAX of the whole output) and the sums are
 * the same whatever the number of threads.
 */
static void check_run(enum dtype d, const void *got, const double *ref, const int *want,
		      const double *tol, size_t n, struct case_result *r)
{
	struct check_job c = {d, got, ref, want, tol, n, NULL};
	const size_t nchunks = par_chunks(n, PAR_CHUNK);
	struct check_tally all = {.worst = -1.0};
	struct msg list = { .used = 0 };

	c.chunks = nchunks > 1 ? calloc(nchunks, sizeof *c.chunks) : NULL;
	if (c.chunks) {
		par_for(nchunks, check_chunk, &c);
		for (size_t k = 0; k < nchunks; k++)
			check_tally_add(&all, &c.chunks[k]);
		free(c.chunks);
	} else {
		/* One chunk, or no memory for a tally each: chunk by chunk here. */
		struct check_tally one;
		for (size_t k = 0; k < nchunks; k++) {
			check_chunk_into(&c, k, &one);
			check_tally_add(&all, &one);
		}
	}
	for (size_t j = 0; j < all.listed; j++)
		check_list_one(&c, &list, all.at[j]);

	r->err_norm = all.counted == 0 ? -1.0 : all.den > 0.0 ? sqrt(all.num / all.den) : sqrt(all.num);
	r->tol_checked = tol && dtype_is_float(d) && !all.unratioed;
	r->err_ratio = r->tol_checked ? all.ratio : -1.0;
	if (all.wrong == 0) {
		r->outcome = OUTCOME_CORRECT;
		return;
	}

	struct msg m = { .used = 0 };
	/* Poison left in place is a fact about the kernel's stores, said
	 * first: no value was compared there. */
	if (all.unwritten == n)
		msg_add(&m, "never written: every output still holds conform's poison; ");
	msg_add(&m, "%zu of %zu outputs wrong", all.wrong, n);
	if (all.unwritten && all.unwritten < n)
		msg_add(&m, " (%zu never written: still conform's poison)", all.unwritten);
	/* The list starts with "; "; a colon introduces it instead. */
	msg_add(&m, ": %s", list.buf + 2);
	if (all.wrong > CHECK_LIST_MAX)
		msg_add(&m, "; ...");
	if (all.worst >= 0.0)
		msg_add(&m, "; max |err|/tol %.3g", all.worst);
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

int64_t check_first_nonfinite(enum dtype d, const void *got, const double *want, size_t n)
{
	if (!dtype_is_float(d))
		return -1;
	for (size_t i = 0; i < n; i++) {
		double g = reference_load(d, got, i);
		if (!isfinite(g) && !is_poison(d, got, i) && isfinite(want[i]))
			return (int64_t)i;
	}
	return -1;
}

int check_note_nonfinite(struct case_result *r, enum dtype od, const void *got, int64_t i,
			 const char *unit, int64_t seg, enum dtype id, const void *in, int64_t lo,
			 int64_t count)
{
	double mn = INFINITY, mx = -INFINITY;
	struct msg first = { .used = 0 };

	for (int64_t k = 0; k < count; k++) {
		double v = reference_load(id, in, (size_t)(lo + k));
		if (!isfinite(v))
			return 0;
		mn = v < mn ? v : mn;
		mx = v > mx ? v : mx;
		if (k < 4) {
			msg_add(&first, "%s", k ? ", " : "");
			msg_value(&first, id, v);
		}
	}
	if (count <= 0)
		return 0;
	struct msg m = { .used = 0 };
	msg_add(&m, "%s from finite inputs: output [%lld] got ",
		isnan(reference_load(od, got, (size_t)i)) ? "NaN" : "infinity", (long long)i);
	msg_value(&m, od, reference_load(od, got, (size_t)i));
	if (unit)
		msg_add(&m, " where %s %lld's %lld inputs are all finite, in [", unit, (long long)seg,
			(long long)count);
	else
		msg_add(&m, " where all %lld inputs are finite, in [", (long long)count);
	msg_value(&m, id, mn);
	msg_add(&m, ", ");
	msg_value(&m, id, mx);
	msg_add(&m, "] (first: %s%s)", first.buf, count > 4 ? ", ..." : "");
	case_result_lead(r, "%s", m.buf);
	return 1;
}
