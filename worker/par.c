/*
 * par.c - par_for (see par.h): a fixed set of threads per call taking the
 * next index from a shared counter, so uneven chunks balance themselves.
 * Threads are started per call, not pooled: a call handles at least a
 * chunk of a million-element problem, next to which starting a thread is
 * noise, and the worker keeps no state between cases.
 */
#include "worker/par.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#define PAR_THREADS_MAX 64

struct par_job {
	size_t count;
	atomic_size_t next;
	void (*fn)(void *ctx, size_t i);
	void *ctx;
};

static void *par_worker(void *arg)
{
	struct par_job *job = arg;

	for (size_t i; (i = atomic_fetch_add(&job->next, 1)) < job->count;)
		job->fn(job->ctx, i);
	return NULL;
}

void par_for(size_t count, void (*fn)(void *ctx, size_t i), void *ctx)
{
	struct par_job job = {.count = count, .fn = fn, .ctx = ctx};
	pthread_t tid[PAR_THREADS_MAX];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t want = cpus > 1 ? (size_t)cpus : 1, started = 0;

	atomic_init(&job.next, 0);
	if (want > PAR_THREADS_MAX)
		want = PAR_THREADS_MAX;
	if (want > count)
		want = count;
	/* The calling thread is one of them. */
	while (started + 1 < want && pthread_create(&tid[started], NULL, par_worker, &job) == 0)
		started++;
	par_worker(&job);
	for (size_t t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
}
