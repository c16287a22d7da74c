/*
 * check.h - compare a kernel's output with the reference, element by element.
 *
 * The output buffer was poisoned (check_poison) before the launch; an element
 * still holding the poison was never written and is reported as such.  The
 * message names the count of wrong and unwritten elements, the first few
 * mismatches (index, got, want, tolerance) and the relative L2 error norm.
 */
#ifndef CONFORM_CHECK_H
#define CONFORM_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "common/dtype.h"
#include "worker/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The poison bit patterns: a NaN for floats (0x7FBADBAD, bf16 0x7FBA,
 * f64 0x7FF8BADBADBADBAD) and 0x7FBADBAD for 32-bit integers, a value the
 * suites' integer sums cannot reach.  check_poison writes them on the
 * host; audit.cuh's device_poison on the device. */
#define POISON_32 0x7FBADBADu
#define POISON_BF16 0x7FBAu
#define POISON_64 0x7FF8BADBADBADBADull
void check_poison(enum dtype d, void *buf, size_t n);

/* A tolerance that asks for the element to stay unwritten (still the
 * poison): the slots a kernel must leave alone, such as those past a
 * compacted warp's count or those of idle lanes.  Any type; ref is ignored. */
#define CHECK_UNWRITTEN (-1.0)

/* Checks n outputs of dtype d against ref within tol (tol may be NULL: exact).
 * Sets r->outcome to OUTCOME_CORRECT or OUTCOME_WRONG, r->err_norm, and on
 * mismatch r->message.  Float comparison: |got - ref| <= tol, with NaN never
 * equal and infinities equal only to the same infinity.  A zero tolerance
 * on floats means bit-exact (the sign of zero counts), for max and min. */
void check_values(enum dtype d, const void *got, const double *ref, const double *tol,
		  size_t n, struct case_result *r);

/* Exact comparison of 32-bit integer outputs (indices, masks, ranks). */
void check_ints(const int *got, const int *want, size_t n, struct case_result *r);

/* The first output that the kernel wrote (not the poison) as NaN or an
 * infinity where the reference is finite; -1 when none (or d is not a
 * float). */
int64_t check_first_nonfinite(enum dtype d, const void *got, const double *want, size_t n);

/* For output i of dtype od, computed from in[lo, lo + count) of dtype id
 * (its `unit` seg: "row 3", "segment 0"; unit NULL: the only output, of
 * all the inputs): when every one of those inputs
 * is finite, puts the fact before r's message ("NaN from finite inputs:
 * output [i] got nan where row 3's 1025 inputs are all finite, in [-1,
 * 0.99] (first: ...)") and returns 1; returns 0, saying nothing, when an
 * input is not finite (the NaN may be the input's). */
int check_note_nonfinite(struct case_result *r, enum dtype od, const void *got, int64_t i,
			 const char *unit, int64_t seg, enum dtype id, const void *in, int64_t lo,
			 int64_t count);

#ifdef __cplusplus
}
#endif
#endif
