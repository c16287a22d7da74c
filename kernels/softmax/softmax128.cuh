/*
 * softmax128.cuh - softmax of rows of 128 bf16, the shape of attention
 * heads and of many classifier outputs.
 *
 * softmax128(out, in, rows) replaces each of `rows` rows of 128 bf16 by its
 * softmax, computed in f32 and rounded to nearest bf16, on the legacy
 * default stream (asynchronous: errors show at the next synchronisation or
 * cudaGetLastError).
 * Requires: rows >= 1 (nothing is launched otherwise); in and out
 * 256-byte aligned (cudaMalloc's alignment), not overlapping; every input
 * in (-32000, 32000).
 */
#ifndef CONFORM_SOFTMAX128_CUH
#define CONFORM_SOFTMAX128_CUH

#include <cuda_bf16.h>

void softmax128(__nv_bfloat16 *out, const __nv_bfloat16 *in, int rows);

#endif
