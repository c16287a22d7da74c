/*
 * softmax_ref.h - the double-precision reference of row softmax, the
 * tolerance of each output, and the checks a softmax result must pass.
 *
 * Row r of a rows x cols input x gives y_i = e^(x_i - m) / S with
 * m = max_k x_k and S = sum_k e^(x_k - m), in double.  -inf entries give
 * exactly 0 (tolerance 0, compared bit for bit); a row needs one finite
 * entry.
 *
 * The tolerance of y_i, for a kernel that computes in f32 (unit roundoff
 * u = 2^-24) and stores in a type of unit roundoff u_out (2^-8 for bf16,
 * half an ulp relative; 2^-24 for f32), with d_i = x_i - m:
 *
 *   tol_i = y_i * (u_out + u * (4 |d_i| + 4 A + 12 + 18 sqrt(cols))) + 2^-125
 *
 *   4 |d_i| + 8   e^(d_i) in f32: the rounding of x_i - m (|d_i| u), of the
 *                 scaling by log2 e and of the constant (2 |d_i| u), and
 *                 CUDA's exp2f/__expf (2 ulp, 4 u; __expf's 1.17 |d| ulp is
 *                 within the 4 |d_i|);
 *   4 A           the same error of each term of S, weighted as S weighs
 *                 them: A = sum_k |d_k| e^(d_k) / S (in double);
 *   18 sqrt(cols) the additions of S and, for the online (max, sum) merge,
 *                 the rescalings e^(m_old - m_new) of partial sums, three
 *                 roundings per step on at most cols steps, within the
 *                 probabilistic bound 6 sqrt(k) u of Higham and Mary
 *                 (tolerance.h) - a rescaling's |m_old - m_new| adds up
 *                 along a term's path to at most its |d_k|, which 4 A
 *                 already covers;
 *   4             1 / S (or a division) and the final product;
 *   2^-125        outputs that f32 flushes or rounds below its smallest
 *                 normal (e^(d_i) for d_i < -87).
 *
 * A correct result also sums to 1 in every row within the sum of the row's
 * tolerances (each |got_i - y_i| <= tol_i and sum y_i = 1), and contains no
 * NaN (check.h never accepts one).
 */
#ifndef CONFORM_SOFTMAX_REF_H
#define CONFORM_SOFTMAX_REF_H

#include <stddef.h>

#include "common/dtype.h"
#include "worker/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The reference and tolerances of rows x cols outputs of out_dtype (f32 or
 * bf16) for the input `in` of in_dtype, computed in f32 by the kernel.
 * Writes rows * cols values to ref and tol.
 */
void softmax_reference(enum dtype in_dtype, enum dtype out_dtype, const void *in, size_t rows,
		       size_t cols, double *ref, double *tol);

/*
 * Checks that each row of `got` (rows x cols of dtype d) sums to 1 within
 * the sum of its tolerances.  Returns 0, or -1 when a row does not (a NaN
 * sum included); then a result still OUTCOME_CORRECT becomes OUTCOME_WRONG
 * naming that row, and one already wrong keeps its message.  Every row
 * raises r->err_ratio to its |sum - 1| / bound (call after check_values).
 */
int softmax_check_row_sums(enum dtype d, const void *got, const double *tol, size_t rows,
			   size_t cols, struct case_result *r);

#ifdef __cplusplus
}
#endif
#endif
