/*
 * audit.cu - the device side of the audit after a launch (audit.cuh).
 */
#include "audit.cuh"

#include <string.h>

#define AUDIT_THREADS 256
#define AUDIT_HASH_BLOCKS 1024

cudaError_t guarded_alloc(void **data, size_t bytes)
{
	unsigned char *base = NULL;
	cudaError_t e;

	*data = NULL;
	if ((e = cudaMalloc(&base, bytes + 2 * (size_t)GUARD_BYTES)) != cudaSuccess)
		return e;
	if ((e = cudaMemset(base, GUARD_FILL, bytes + 2 * (size_t)GUARD_BYTES)) != cudaSuccess) {
		(void)cudaFree(base);
		return e;
	}
	*data = base + GUARD_BYTES;
	return cudaSuccess;
}

void guarded_free(const void *data)
{
	if (data)
		(void)cudaFree((unsigned char *)data - GUARD_BYTES);
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
	struct audit_report *rep;
};

/* Blocks 0..5 copy a guard each; the rest hash the input and scan the
 * scratch, grid-stride over 8-byte words (both buffers start 256-byte
 * aligned), the last partial word byte by byte. */
__global__ void audit_kernel(struct audit_args a)
{
	if (blockIdx.x < 2 * AUDIT_BUFFERS) {
		const struct audit_buffer b = a.buf[blockIdx.x / 2];
		const unsigned char *g = (const unsigned char *)b.data;
		unsigned char *dst = a.rep->guard[blockIdx.x];
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
			atomicAdd(&a.rep->hash, h);
	}
	if (a.zero_scratch && sc.data) {
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

cudaError_t audit_collect(const struct audit_buffer buf[AUDIT_BUFFERS], int zero_scratch,
			  void *d_report, struct audit_report *rep)
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
	a.rep = (struct audit_report *)d_report;
	if ((e = cudaMemset(d_report, 0, sizeof rep->hash)) != cudaSuccess ||
	    (e = cudaMemset((char *)d_report + offsetof(struct audit_report, scratch_first), 0xFF,
			    sizeof rep->scratch_first)) != cudaSuccess)
		return e;
	audit_kernel<<<(unsigned)(2 * AUDIT_BUFFERS + hash_blocks), AUDIT_THREADS>>>(a);
	if ((e = cudaGetLastError()) != cudaSuccess)
		return e;
	return cudaMemcpy(rep, d_report, sizeof *rep, cudaMemcpyDeviceToHost);
}
