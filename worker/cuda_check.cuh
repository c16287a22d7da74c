/*
 * cuda_check.cuh - turns CUDA errors into a case's outcome.
 *
 * Where an error shows up says what it means: returned by the launch (or by
 * cudaGetLastError right after it) the launch was refused, OUTCOME_LAUNCH_ERROR;
 * returned by the synchronize after it the kernel failed while running,
 * OUTCOME_ERROR; returned by an allocation or copy, OUTCOME_ERROR too.
 *
 * Some errors (an illegal address, a trap) are sticky: the context is
 * unusable and every later call fails.  After any error we clear the
 * non-sticky kind and synchronize once more; if that still fails the result
 * is marked fatal so that the worker is replaced before the next case.
 */
#ifndef CONFORM_CUDA_CHECK_CUH
#define CONFORM_CUDA_CHECK_CUH

#include <cuda_runtime.h>

#include "worker/variant.h"

static inline void cuda_note_sticky(struct case_result *r)
{
	(void)cudaGetLastError(); /* clears a non-sticky error; a sticky one stays */
	if (cudaDeviceSynchronize() != cudaSuccess || cudaGetLastError() != cudaSuccess)
		r->fatal = 1;
}

/* The launch of `name` was refused. Returns -1. */
static inline int cuda_launch_failed(struct case_result *r, const char *name, cudaError_t e)
{
	case_result_set(r, OUTCOME_LAUNCH_ERROR, "launch: %s: %s", name, cudaGetErrorString(e));
	cuda_note_sticky(r);
	return -1;
}

/* The kernel failed while running (reported by the synchronize). Returns -1. */
static inline int cuda_kernel_failed(struct case_result *r, cudaError_t e)
{
	case_result_set(r, OUTCOME_ERROR, "kernel: %s", cudaGetErrorString(e));
	cuda_note_sticky(r);
	return -1;
}

/* A runtime call other than the launch failed; `what` names it. Returns -1. */
static inline int cuda_call_failed(struct case_result *r, const char *what, cudaError_t e)
{
	case_result_set(r, OUTCOME_ERROR, "%s: %s", what, cudaGetErrorString(e));
	cuda_note_sticky(r);
	return -1;
}

#endif
