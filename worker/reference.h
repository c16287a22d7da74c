/*
 * reference.h - double-precision host references for the reductions.
 *
 * The reference reads the same element values the kernel reads (after
 * conversion to dtype), computes in double (integer sums in int64, then
 * wrapped to 32 bits as the GPU's adds wrap), and gives each output its
 * tolerance (tolerance.h).
 */
#ifndef CONFORM_REFERENCE_H
#define CONFORM_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "common/dtype.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads element i of buf as a double. */
double reference_load(enum dtype d, const void *buf, size_t i);

/*
 * Reduces consecutive segments of seg_len elements (the last may be short)
 * of `in` (n elements) with `o`.  Writes ceil(n / seg_len) values to ref and
 * their tolerances to tol.  `acc` is the type the kernel accumulates in
 * (f32 for bf16 input); the result type is `out_dtype`.
 */
void reference_segments(enum op o, enum dtype in_dtype, enum dtype acc_dtype,
			enum dtype out_dtype, const void *in, size_t n, size_t seg_len,
			double *ref, double *tol);

#ifdef __cplusplus
}
#endif
#endif
