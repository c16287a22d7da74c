/*
 * probe.h - exact probes: inputs whose correct reduction is exact in the
 * accumulation type whatever the order of the operations.
 *
 * A random input is checked within a rounding bound, and at large n that
 * bound is larger than what a missing element changes: it cannot tell
 * rounding from a dropped, duplicated or misplaced element.  A probe can.
 * Each probe fills the input by a formula of the element's offset in its
 * segment, and every output has one exact expected value, compared with
 * tolerance 0.
 *
 *   PROBE_ONES     sums: 1 at offsets [lo, hi) of every segment, 0 at the
 *                  other counted offsets.  At most probe_sum_cap() ones
 *                  per segment, so every partial sum of every order is an
 *                  integer the accumulator holds exactly.  The windows
 *                  together cover every offset of a segment, so each
 *                  element is counted by some probe, and dropping or
 *                  adding one changes that probe's answer by exactly one.
 *   PROBE_RAMP     sums: each offset in [lo, hi) holds `width` of its bits,
 *                  from bit `bit` up: (off >> bit) mod 2^width.  An
 *                  element read from the wrong index (one counted twice
 *                  and another not at all) passes PROBE_ONES; the two
 *                  offsets differ in some bit, so the ramp over that bit
 *                  changes by a sum of distinct signed powers of two,
 *                  never 0.  `width` is as wide as the cap allows (the
 *                  segment's ramp sum must stay exact), so a segment of
 *                  2^10 takes one ramp probe and one of 2^24 takes 24.
 *   PROBE_EXTREME  max and min: `base` everywhere but `peak` at offset
 *                  `at` of every segment.  The peak sits at the first, the
 *                  last, the middle, warp and block boundaries and a
 *                  seeded offset in separate probes, and `base` is on the
 *                  far side of zero from the identity a careless kernel
 *                  starts from (max: -2 and -1; min: 2 and 1).
 *   PROBE_ONEHOT   softmax: rows of `base` (-1024) but for one `peak` (0):
 *                  every exp() of another element underflows to 0, so the
 *                  row's softmax is exactly 1 at the peak and 0 elsewhere.
 *                  The peak's column rotates over the rows between the
 *                  first, the last and a seeded one, starting at `bit`.
 *                  Where the kernel takes -inf, a second set has -inf
 *                  for `base`: a lane or a running maximum that starts
 *                  from -inf must give 0 for those elements, not the NaN
 *                  of -inf - -inf.
 *   PROBE_EQUAL    softmax: rows of one value (a different one per row):
 *                  every output is 1/cols, up to the rounding of a
 *                  division.
 *
 * Offsets of a stride past seg_len are not counted (the segment model of
 * reduce_driver.cuh); they hold a decoy (sums: 1; max and min: a value
 * more extreme than the peak), so a kernel that counts them is caught too.
 *
 * The formula (probe_value) is the same code on the host and the device,
 * so what the device fills is what the host expects.
 */
#ifndef CONFORM_PROBE_H
#define CONFORM_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "common/dtype.h"

#ifdef __CUDACC__
#define PROBE_HD __host__ __device__
#else
#define PROBE_HD
#endif

#ifdef __cplusplus
extern "C" {
#endif

enum probe_kind { PROBE_ONES, PROBE_RAMP, PROBE_EXTREME, PROBE_ONEHOT, PROBE_EQUAL };

struct probe {
	enum probe_kind kind;
	int64_t seg_len, seg_stride; /* the segment geometry (reduce_driver.cuh) */
	int64_t lo, hi;              /* ONES and BIT: the offsets [lo, hi) */
	int bit;                     /* RAMP: the lowest offset bit it holds;
				      * ONEHOT: the rotation of the peak's column */
	int width;                   /* RAMP: how many bits */
	int64_t at;                  /* EXTREME: the peak's offset */
	double base, peak, decoy;    /* EXTREME: the values; decoy for uncounted offsets */
};

/* ONEHOT: the peak's offset in row r (first, last or seeded by lo). */
static inline PROBE_HD int64_t probe_onehot_column(const struct probe *p, int64_t r)
{
	switch ((r + p->bit) % 3) {
	case 0: return 0;
	case 1: return p->seg_len - 1;
	default: return (int64_t)(((uint64_t)r * 2654435761u + (uint64_t)p->lo) % (uint64_t)p->seg_len);
	}
}

/* The value of element i (global index) under probe p. */
static inline PROBE_HD double probe_value(const struct probe *p, int64_t i)
{
	const int64_t off = i % p->seg_stride;

	if (p->kind == PROBE_ONEHOT)
		return off == probe_onehot_column(p, i / p->seg_stride) ? p->peak : p->base;
	if (p->kind == PROBE_EQUAL)
		return (double)((i / p->seg_stride) % 5) * 0.5 - 1.0;
	if (off >= p->seg_len)
		return p->kind == PROBE_EXTREME ? p->decoy : 1.0;
	switch (p->kind) {
	case PROBE_ONES:
		return off >= p->lo && off < p->hi ? 1.0 : 0.0;
	case PROBE_RAMP:
		return off >= p->lo && off < p->hi
			       ? (double)((off >> p->bit) & (((int64_t)1 << p->width) - 1))
			       : 0.0;
	default:
		return off == p->at ? p->peak : p->base;
	}
}

/* Probes of one case; PROBE_MAX bounds any plan (it holds the windows
 * of an f32 segment of 2^34 elements, past any GPU's memory today). */
#define PROBE_MAX 1100

struct probe_plan {
	size_t count;
	struct probe p[PROBE_MAX];
};

/* The most ones per segment whose every partial sum the accumulator of an
 * output of type `out` (or an input of type `in`) holds exactly: 2^53 for
 * f64, else 2^24 (f32 accumulation: bf16 is summed in float). */
int64_t probe_sum_cap(enum dtype in, enum dtype out);

/*
 * The probes of a case: operator o on input dtype `in` into outputs of
 * `out`, n elements in segments of seg_len counted elements every
 * seg_stride.  `nonnegative` keeps every value >= 0 (variants that draw
 * non-negative input, and unsigned types).  Sums of integers get none:
 * their random input is non-zero everywhere and compared exactly, so a
 * missing or extra element already changes the answer.  `seed` places the
 * seeded offsets.  Returns the number of probes (0: none apply).
 */
size_t probe_plan_make(struct probe_plan *plan, enum op o, enum dtype in, enum dtype out,
		       int64_t n, int64_t seg_len, int64_t seg_stride, int nonnegative,
		       uint64_t seed);

/* The softmax probes of rows of `cols`: three one-hot (the peak's column
 * rotating), three more with -inf around the peak unless `finite_only`,
 * and one of equal rows. */
size_t probe_softmax_plan(struct probe_plan *plan, int64_t cols, int finite_only, uint64_t seed);

/* The softmax of element (row, col) under a softmax probe: 1 or 0 for
 * ONEHOT (exact), 1/cols for EQUAL (*tol: two units in the last place of
 * the output type `out`, the rounding of a division). */
double probe_softmax_expect(const struct probe *p, enum dtype out, int64_t row, int64_t col,
			    double *tol);

/* The exact answer of segment s (of a problem of n elements) under p. */
double probe_expect(const struct probe *p, int64_t n, int64_t s);

/* "ones at [0, 16777216)", "max at offset 31": the probe in a few words. */
void probe_name(const struct probe *p, enum op o, char *buf, size_t len);

/*
 * What a wrong answer of segment s means, in words, appended to buf:
 * "returned 16515072, want 16777216: 262144 elements not counted".  `got`
 * is the output as a double; nseg the number of segments (one: the words
 * say "element", else "offset ... of every segment").
 */
void probe_explain(const struct probe *p, enum op o, int64_t n, int64_t s, int64_t nseg,
		   double got, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
