/*
 * rows_op_ref.h - inputs, double references and tolerances of the rows.op
 * family (kernels/rows/rows_op.cu): one statistic per row of a rows x cols
 * array, the reductions real kernels ship.
 *
 *   welford    mean and population variance (two outputs per row: mean at
 *              2r, variance at 2r + 1) by Welford updates and Chan merges;
 *   var_naive  the same two outputs by E[x^2] - E[x]^2, the form that loses
 *              the variance of rows far from zero;
 *   lse        log(sum exp x) by the online (max, sum) merge;
 *   l2         sqrt(sum x^2);
 *   argmax     the index of the row's largest value, the lowest index on
 *              ties (-0 and +0 tie); an i32 output, exact.
 *
 * Kernels read f32 or bf16 and accumulate in f32, so every tolerance uses
 * f32's unit roundoff u = 2^-24 whatever the input type, and the reference
 * reads the very values the kernel reads.  With g = sqrt(cols) +
 * ceil(log2 cols) + 1 (a lane's sequential part, as a random walk, plus
 * one merge level per halving) and lambda = 6 as in tolerance.h:
 *
 *   mean      lambda u g max|x|
 *   variance  2 lambda u g sigma max|x|, sigma the row's standard deviation:
 *             the updating algorithms' error grows with the condition
 *             number kappa = rms(x) / sigma (Chan, Golub and LeVeque), i.e.
 *             as kappa * var = sigma * rms(x) <= sigma max|x|; the factor 2
 *             counts the product and the sum of each update.  The naive
 *             form's error grows with kappa^2 * var instead, far beyond
 *             this on rows of 1e4 + U[-1, 1) (kappa about 2e4);
 *   lse       u (lambda g + 20 (ceil(log2 cols) + 2) + 4 |lse|): the sum of
 *             exp terms in (0, 1] as a sum, 2-ulp expf and one rescale per
 *             new running maximum or merge level (a logarithmic count for
 *             the suites' random rows), logf and the final add;
 *   l2        the sum-of-squares bound (tolerance_sum over the x^2) halved
 *             by the square root, plus the sqrt's rounding: tol_ss / (2 l2)
 *             + 2 u l2;
 *   argmax    exact.
 */
#ifndef CONFORM_ROWS_OP_REF_H
#define CONFORM_ROWS_OP_REF_H

#include <stddef.h>
#include <stdint.h>

#include "common/dtype.h"

#ifdef __cplusplus
extern "C" {
#endif

enum rows_op { ROWS_OP_WELFORD, ROWS_OP_VAR_NAIVE, ROWS_OP_LSE, ROWS_OP_L2, ROWS_OP_ARGMAX, ROWS_OP_COUNT };

/* The rows' values. */
enum rows_input {
	ROWS_INPUT_UNIFORM, /* rng_fill: U[-1, 1), bf16 rounded from it */
	ROWS_INPUT_OFFSET,  /* f32 only: ROWS_OFFSET + U[-1, 1) */
	ROWS_INPUT_TIES,    /* (2k + 1) / 8 for k in -4..3: many equal values, never 0, exact in bf16 */
	ROWS_INPUT_COUNT
};

#define ROWS_OFFSET 1e4

/* Outputs per row: 2 for welford and var_naive, else 1. */
int rows_ref_outputs(enum rows_op op);
/* f32, or i32 for argmax. */
enum dtype rows_ref_out_dtype(enum rows_op op);

/* Fills n values of dtype d (f32 or bf16; offset: f32 only) from seed. */
void rows_ref_fill(enum rows_input kind, uint64_t seed, enum dtype d, void *buf, size_t n);

/* The growth factor g of the tolerances above. */
double rows_ref_growth(size_t cols);

/* The references and tolerances of rows x cols values of dtype d
 * (cols >= 1): rows * rows_ref_outputs(op) of each, row after row.
 * Returns 0, or -1 when out of memory. */
int rows_ref_compute(enum rows_op op, enum dtype d, const void *in, size_t rows, size_t cols,
		     double *ref, double *tol);

#ifdef __cplusplus
}
#endif
#endif
