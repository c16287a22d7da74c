/*
 * tolerance.h - how close a result must be to the double reference.
 *
 * Integer results and max/min of any type are exact: the tolerance is 0.
 * A floating sum of n terms accumulated in a type with unit roundoff u
 * (2^-24 for f32, 2^-53 for f64) is allowed
 *
 *     tol = 6 * sqrt(n) * u * sum |x_i|   (+ the smallest normal of the type)
 *
 * the probabilistic rounding-error bound of Higham and Mary (2019), which
 * holds for any summation order (tree, sequential, atomic) with overwhelming
 * probability, and is far tighter than the worst-case (n - 1) * u * sum |x_i|.
 * A result stored in bf16 adds the rounding of the result, 2^-8 * |ref|.
 * The constant 6 is lambda in their bound: failure probability below 1e-7.
 */
#ifndef CONFORM_TOLERANCE_H
#define CONFORM_TOLERANCE_H

#include <stddef.h>

#include "common/dtype.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Unit roundoff of the type (0 for integer types). */
double tolerance_unit_roundoff(enum dtype d);

/* Tolerance for a sum of n terms with sum |x_i| = abs_sum, accumulated in
 * acc and stored as out, whose exact value is ref. */
double tolerance_sum(enum dtype acc, enum dtype out, size_t n, double abs_sum, double ref);

#ifdef __cplusplus
}
#endif
#endif
