/*
 * audit.cuh - what a launch did outside its output: the guard zones of its
 * buffers (guard.h), a hash of its input, and whether its scratch is zero.
 *
 * One kernel gathers the six guards into a report beside the buffers and
 * hashes the input on the device, and one copy brings the report back, so
 * the audit after every launch costs a launch and a copy whatever the
 * size.  The hash is a sum over the input's 8-byte words of a mix of the
 * word and its index: any change to one word changes it, and comparing
 * it before and after a launch needs no second copy of the input.
 */
#ifndef CONFORM_AUDIT_CUH
#define CONFORM_AUDIT_CUH

#include <stddef.h>

#include <cuda_runtime.h>

#include "common/dtype.h"
#include "worker/guard.h"

/* The buffers of a launch, in this order: input, output, scratch. */
enum { AUDIT_IN, AUDIT_OUT, AUDIT_SCRATCH, AUDIT_BUFFERS };

struct audit_buffer {
	const void *data; /* the buffer's first byte (NULL: none) */
	size_t bytes;
};

struct audit_report {
	unsigned long long hash;          /* of the input's bytes */
	unsigned long long hash_before;   /* of the input's bytes at audit_remember() */
	unsigned long long scratch_first; /* first non-zero scratch byte, or ~0 */
	unsigned char guard[2 * AUDIT_BUFFERS][GUARD_BYTES]; /* before, after of each */
};

/* A device buffer of `bytes` between two guard zones of GUARD_FILL:
 * *data is its first byte.  Free with guarded_free. */
/* From now on, buffers of exactly their size, no guard zones (the audit
 * then finds every guard intact): for a worker under compute-sanitizer's
 * memcheck, which sees an access past a buffer only outside its
 * allocation, at any distance.  Called once, before the first buffer. */
void audit_exact_buffers(void);
cudaError_t guarded_alloc(void **data, size_t bytes);
void guarded_free(const void *data);

/* Takes the input's hash into the report's hash_before, on the device,
 * without waiting: the next audit_collect() brings both back. */
cudaError_t audit_remember(const struct audit_buffer *in, void *d_report);

/* Fills rep (host) from the buffers; d_report is device memory of
 * sizeof(struct audit_report).  The scratch is scanned when zero_scratch. */
cudaError_t audit_collect(const struct audit_buffer buf[AUDIT_BUFFERS], int zero_scratch,
			  void *d_report, struct audit_report *rep);

/* audit_collect in two halves, so the audit can be queued behind a
 * launch and fetched after the one wait for both: audit_enqueue returns
 * at once, audit_fetch copies the report back. */
cudaError_t audit_enqueue(const struct audit_buffer buf[AUDIT_BUFFERS], int zero_scratch,
			  void *d_report);
cudaError_t audit_fetch(const void *d_report, struct audit_report *rep);

/* Poisons n elements of dtype d at out on the device (check.h's
 * patterns), without waiting. */
cudaError_t device_poison(enum dtype d, void *out, size_t n);

#endif
