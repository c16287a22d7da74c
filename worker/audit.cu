/*
 * audit.cu - the device side of the audit after a launch (audit.cuh).
 */
#include "worker/audit.cuh"

#include <stdint.h>
#include <string.h>

#include "worker/check.h"

#define AUDIT_THREADS 256
#define AUDIT_HASH_BLOCKS 1024

/* The width of the guard zones of this process's buffers: GUARD_BYTES,
 * or 0 once audit_exact_buffers() was called.  Set once, before the
 * first buffer, by the worker's command line; never changed after, so
 * every buffer is freed with the width it was made with. */
static size_t guard_bytes = GUARD_BYTES;

void audit_exact_buffers(void)
{
	guard_bytes = 0;
}

cudaError_t guarded_alloc(void **data, size_t bytes)
{
	unsigned char *base = NULL;
	cudaError_t e;

	*data = NULL;
	if ((e = cudaMalloc(&base, bytes + 2 * guard_bytes)) != cudaSuccess)
		return e;
	if (guard_bytes && (e = cudaMemset(base, GUARD_FILL, bytes + 2 * guard_bytes)) != cudaSuccess) {
		(void)cudaFree(base);
		return e;
	}
	*data = base + guard_bytes;
	return cudaSuccess;
}

void guarded_free(const void *data)
{
	if (data)
		(void)cudaFree((unsigned char *)data - guard_bytes);
}

static __device__ __forceinline__ unsigned long long audit_mix(unsigned long long x)
{
	/* splitmix64's finaliser: every input bit reaches every output bit. */
	x ^= x >> 30;
	x *= 0xBF58476D1CE4E5B9ull;
	x ^= x >> 27;
	x *= 0x94D049BB133111EBull;
	return x ^ (x >> 31);
}

struct audit_args {
	struct audit_buffer buf[AUDIT_BUFFERS];
	int zero_scratch;
	int remember; /* hash into hash_before, and nothing else */
	int guards;   /* the buffers have guard zones (guard_bytes) */
	struct audit_report *rep;
};

/* Blocks 0..5 copy a guard each; the rest hash the input and scan the
 * scratch, grid-stride over 8-byte words (both buffers start 256-byte
 * aligned), the last partial word byte by byte. */
__global__ void audit_kernel(struct audit_args a)
{
	if (blockIdx.x < 2 * AUDIT_BUFFERS && a.remember)
		return;
	if (blockIdx.x < 2 * AUDIT_BUFFERS) {
		const struct audit_buffer b = a.buf[blockIdx.x / 2];
		const unsigned char *g = (const unsigned char *)b.data;
		unsigned char *dst = a.rep->guard[blockIdx.x];
		if (!a.guards)
			g = NULL; /* exact buffers: nothing around them to read */
		if (g)
			g = blockIdx.x % 2 ? g + b.bytes : g - GUARD_BYTES;
		for (unsigned i = threadIdx.x; i < GUARD_BYTES; i += blockDim.x)
			dst[i] = g ? g[i] : (unsigned char)GUARD_FILL;
		return;
	}
	const unsigned long long tid = (unsigned long long)(blockIdx.x - 2 * AUDIT_BUFFERS) * blockDim.x + threadIdx.x;
	const unsigned long long stride = (unsigned long long)(gridDim.x - 2 * AUDIT_BUFFERS) * blockDim.x;
	const struct audit_buffer in = a.buf[AUDIT_IN], sc = a.buf[AUDIT_SCRATCH];

	if (in.data) {
		const unsigned long long *w = (const unsigned long long *)in.data;
		const size_t words = in.bytes / 8;
		unsigned long long h = 0;
		for (size_t j = tid; j < words; j += stride)
			h += audit_mix(w[j] + j * 0x9E3779B97F4A7C15ull);
		if (tid == 0 && in.bytes % 8) {
			unsigned long long last = 0;
			const unsigned char *c = (const unsigned char *)in.data + words * 8;
			for (size_t k = 0; k < in.bytes % 8; k++)
				last |= (unsigned long long)c[k] << (8 * k);
			h += audit_mix(last + words * 0x9E3779B97F4A7C15ull);
		}
		if (h)
			atomicAdd(a.remember ? &a.rep->hash_before : &a.rep->hash, h);
	}
	if (a.zero_scratch && sc.data && !a.remember) {
		const unsigned long long *w = (const unsigned long long *)sc.data;
		const size_t words = sc.bytes / 8;
		unsigned long long first = ~0ull;
		for (size_t j = tid; j < words && first == ~0ull; j += stride)
			if (w[j])
				for (int k = 0; k < 8; k++)
					if ((w[j] >> (8 * k)) & 0xFF && first == ~0ull)
						first = j * 8 + k;
		if (tid == 0)
			for (size_t k = words * 8; k < sc.bytes && first == ~0ull; k++)
				if (((const unsigned char *)sc.data)[k])
					first = k;
		if (first != ~0ull)
			atomicMin(&a.rep->scratch_first, first);
	}
}

/* Enqueues the audit kernel: with `remember`, the input's hash into
 * hash_before alone. */
static cudaError_t audit_launch(const struct audit_buffer buf[AUDIT_BUFFERS], int zero_scratch,
				int remember, struct audit_report *d_rep)
{
	struct audit_args a;
	cudaError_t e;
	const size_t words = buf[AUDIT_IN].bytes > buf[AUDIT_SCRATCH].bytes ? buf[AUDIT_IN].bytes / 8
									   : buf[AUDIT_SCRATCH].bytes / 8;
	size_t hash_blocks = (words + AUDIT_THREADS - 1) / AUDIT_THREADS;

	if (hash_blocks < 1)
		hash_blocks = 1;
	if (hash_blocks > AUDIT_HASH_BLOCKS)
		hash_blocks = AUDIT_HASH_BLOCKS;
	memcpy(a.buf, buf, sizeof a.buf);
	a.zero_scratch = zero_scratch;
	a.remember = remember;
	a.guards = guard_bytes != 0;
	a.rep = d_rep;
	if (remember)
		e = cudaMemsetAsync(&d_rep->hash_before, 0, sizeof d_rep->hash_before);
	else if ((e = cudaMemsetAsync(&d_rep->hash, 0, sizeof d_rep->hash)) == cudaSuccess)
		e = cudaMemsetAsync(&d_rep->scratch_first, 0xFF, sizeof d_rep->scratch_first);
	if (e != cudaSuccess)
		return e;
	audit_kernel<<<(unsigned)(2 * AUDIT_BUFFERS + hash_blocks), AUDIT_THREADS>>>(a);
	return cudaGetLastError();
}

cudaError_t audit_remember(const struct audit_buffer *in, void *d_report)
{
	struct audit_buffer buf[AUDIT_BUFFERS] = {*in, {NULL, 0}, {NULL, 0}};

	return audit_launch(buf, 0, 1, (struct audit_report *)d_report);
}

cudaError_t audit_enqueue(const struct audit_buffer buf[AUDIT_BUFFERS], int zero_scratch,
			  void *d_report)
{
	return audit_launch(buf, zero_scratch, 0, (struct audit_report *)d_report);
}

cudaError_t audit_fetch(const void *d_report, struct audit_report *rep)
{
	return cudaMemcpy(rep, d_report, sizeof *rep, cudaMemcpyDeviceToHost);
}

cudaError_t audit_collect(const struct audit_buffer buf[AUDIT_BUFFERS], int zero_scratch,
			  void *d_report, struct audit_report *rep)
{
	cudaError_t e = audit_enqueue(buf, zero_scratch, d_report);

	return e != cudaSuccess ? e : audit_fetch(d_report, rep);
}

template <class W>
__global__ void poison_kernel(W *out, size_t n, W pattern)
{
	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
		out[i] = pattern;
}

cudaError_t device_poison(enum dtype d, void *out, size_t n)
{
	size_t want = (n + AUDIT_THREADS - 1) / AUDIT_THREADS;
	const unsigned blocks = (unsigned)(want < 1 ? 1 : want > 4096 ? 4096 : want);

	switch (dtype_size(d)) {
	case 2: poison_kernel<<<blocks, AUDIT_THREADS>>>((uint16_t *)out, n, (uint16_t)POISON_BF16); break;
	case 4: poison_kernel<<<blocks, AUDIT_THREADS>>>((uint32_t *)out, n, (uint32_t)POISON_32); break;
	case 8: poison_kernel<<<blocks, AUDIT_THREADS>>>((uint64_t *)out, n, (uint64_t)POISON_64); break;
	default: return cudaErrorInvalidValue;
	}
	return cudaGetLastError();
}
