/*
 * softmax_input.h - the inputs of the softmax cases: seeded random rows and
 * the awkward rows softmax gets wrong.
 *
 * Rows cycle through eight kinds, awkward ones first so that even a few
 * rows meet them:
 *   0 full range   uniform in (-32000, 32000): most outputs underflow to 0,
 *                  the largest few carry the row;
 *   1 all equal    one value (from the full range) repeated: every output
 *                  1 / cols, and x - max is exactly 0;
 *   2 dominant     uniform in [-1, 1) but one entry 30 above the rest: an
 *                  output near 1, the others near e^-30;
 *   3 -inf         uniform in [-8, 8) with each entry -inf at even odds,
 *                  one entry kept finite: the -inf outputs must be exactly
 *                  0 (with finite_only set, an ordinary random row);
 *   4..7 random    uniform in [-8, 8).
 * Values are drawn in double and rounded once to the element type (f32 or
 * bf16); full-range values stay strictly inside (-32000, 32000) after the
 * rounding.  A row of length 1 is whatever its kind gives for one entry.
 */
#ifndef CONFORM_SOFTMAX_INPUT_H
#define CONFORM_SOFTMAX_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "common/dtype.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fills rows x cols elements of d (f32 or bf16) from `seed`; finite_only
 * leaves out the -inf entries. */
void softmax_input_fill(uint64_t seed, enum dtype d, void *buf, size_t rows, size_t cols,
			int finite_only);

#ifdef __cplusplus
}
#endif
#endif
