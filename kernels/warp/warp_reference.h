/*
 * warp_reference.h - host references for the warp primitives beyond plain
 * reduction: scans, votes, matches, histograms, compaction, segmented
 * reductions and argmax (kernels/warp_*.cu; the keys and heads both sides
 * derive are in kernels/warp/warp_prim.h).
 *
 * Each fills one expected value and one tolerance per output, in the
 * output order of its kernel.  Integer results are exact (tolerance 0); a
 * floating sum of m terms gets tolerance_sum() of those m terms; an output
 * the kernel must leave unwritten gets CHECK_UNWRITTEN (check.h).  Element
 * i is lane i % 32 of warp i / 32; lanes past n take part with no element.
 */
#ifndef CONFORM_WARP_REFERENCE_H
#define CONFORM_WARP_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "common/dtype.h"
#include "kernels/warp/warp_prim.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Prefix sums of f32 or i32 `in` restarting every `section` elements:
 * inclusive (element i sums its section's elements up to i) or exclusive
 * (up to i - 1; a section's first element gets 0).  f32 sums are taken in
 * double; i32 sums wrap modulo 2^32 as the kernel's unsigned adds do.
 */
void warp_ref_scan(enum dtype d, const void *in, size_t n, size_t section, int exclusive,
		   double *ref, double *tol);

/*
 * Lanes below k of each warp vote on x > above (a lane past n votes no);
 * each such lane with an element gets `kind` of the ballot: the mask, its
 * popcount, its __ffs (1 + lowest lane, 0 for none), any (0/1) or all (0/1).
 * Lanes k..31 are left unwritten.
 */
void warp_ref_vote(const int32_t *in, size_t n, int k, int above, enum warp_vote kind,
		   double *ref, double *tol);

/*
 * Lanes below k of each warp match on warp_key(x, keys) (WARP_KEY_NONE past
 * n).  match_any: each lane gets the mask of the lanes below k sharing its
 * key.  match_all (all = 1): the mask of lanes below k when they all share
 * one key, else 0.  Lanes k..31 are left unwritten.
 */
void warp_ref_match(const int32_t *in, size_t n, int k, unsigned keys, int all, double *ref,
		    double *tol);

/* The count of elements in each of `bins` bins, warp_key(x, bins). */
void warp_ref_histogram(const int32_t *in, size_t n, unsigned bins, double *ref, double *tol);

/*
 * Warp stream compaction, n + ceil(n / 32) outputs: warp w's elements with
 * x > threshold, in order, at w * 32, w * 32 + 1, ... (the rest of the
 * warp's 32 slots unwritten), then the count of each warp at n + w.
 */
void warp_ref_compact(enum dtype d, const void *in, size_t n, double threshold, double *ref,
		      double *tol);

/*
 * Segmented reduction (sum or max) by head flags warp_head(warp, lane, seg):
 * every element gets its segment's result.
 */
void warp_ref_segmented(enum op o, enum dtype d, const void *in, size_t n, int seg, double *ref,
			double *tol);

/*
 * Argmax of each warp, 2 n outputs: element i gets its warp's maximum at i
 * and the lowest lane holding it at n + i.  i32 values are warp_level(x,
 * levels); f32 values compare as floats (-0 equals +0, so they tie).
 */
void warp_ref_argmax(enum dtype d, const void *in, size_t n, int levels, double *ref,
		     double *tol);

#ifdef __cplusplus
}
#endif
#endif
