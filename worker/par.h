/*
 * par.h - the worker's one parallel loop, for the host-side work that grows
 * with the problem: a reference and the check of a result over 2^26
 * elements take the host a second each on one thread, far longer than the
 * kernel they judge, and a tuning search pays that on every evaluation.
 *
 * par_for() runs fn(ctx, i) once for each i in [0, count), on up to one
 * thread per online processor, and returns when every call has returned.
 * Callers make their results independent of the number of threads: each i
 * writes only its own slots, and whatever is combined across i is
 * combined by the caller afterwards, in index order.
 */
#ifndef CONFORM_PAR_H
#define CONFORM_PAR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Runs fn(ctx, i) for every i < count.  Falls back to the calling thread
 * alone when no thread can be started. */
void par_for(size_t count, void (*fn)(void *ctx, size_t i), void *ctx);

/* Elements per chunk of the callers' loops: large enough that a chunk
 * outweighs handing it out, small enough that 2^20-element problems use
 * several threads. */
#define PAR_CHUNK ((size_t)1 << 18)

/* How many chunks of `per` items n items make (the last may be short). */
static inline size_t par_chunks(size_t n, size_t per)
{
	return (n + per - 1) / per;
}

/* Chunk k of n items in chunks of `per`: items [*lo, *hi). */
static inline void par_chunk_range(size_t k, size_t per, size_t n, size_t *lo, size_t *hi)
{
	*lo = k * per;
	*hi = *lo + per < n ? *lo + per : n;
}

#ifdef __cplusplus
}
#endif
#endif
