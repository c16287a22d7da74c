/*
 * activity.cu - GPU timestamps of a sample's work from CUPTI's activity
 * records (see activity.cuh).
 *
 * Records are read through the first versions of their structs
 * (CUpti_ActivityKernel4, CUpti_ActivityMemcpy, CUpti_ActivityMemset):
 * CUPTI hands out its newest version, and every later version keeps the
 * leading fields (kind, start, end, streamId) where the first put them,
 * so this file reads records from any CUPTI at least as new as CUDA 11.
 */
#include <stdio.h>

#include "worker/activity.cuh"
#include "config.h"

#ifndef HAVE_CUPTI

/* Built without CUPTI's header: cold samples are timed by events. */
int activity_start(char *why, size_t len)
{
	snprintf(why, len, "conform was built without CUPTI");
	return -1;
}
void activity_stop(void) {}
void activity_discard(void) {}
int64_t activity_sole_stream(void) { return -1; }
uint64_t activity_now(void) { return 0; }
int activity_busy(int64_t exclude, uint64_t since, int expect, double *ms, int *records)
{
	(void)exclude;
	(void)since;
	(void)expect;
	*ms = 0;
	*records = 0;
	return -1;
}

#else

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <cupti_activity.h>

/* A hot sample batches up to 256 launches (measure.cu): room for 64
 * records each, a kernel record being about 200 bytes. */
#define BUFFER_BYTES (4u << 20)
#define SPANS_MAX (1 << 16)
#define SPARE_MAX 4

typedef CUptiResult (*enable_fn)(CUpti_ActivityKind);
typedef CUptiResult (*register_fn)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc);
typedef CUptiResult (*flush_fn)(uint32_t);
typedef CUptiResult (*next_fn)(uint8_t *, size_t, CUpti_Activity **);
typedef CUptiResult (*dropped_fn)(CUcontext, uint32_t, size_t *);
typedef CUptiResult (*errstr_fn)(CUptiResult, const char **);
typedef CUptiResult (*timestamp_fn)(uint64_t *);

struct span {
	uint64_t start, end;
	uint32_t stream;
};

/* The one collector (see activity.cuh for why it is static).  CUPTI may
 * deliver buffers from a thread of its own, so the spans, the counts and
 * the spare buffers are touched under `lock` only, which is never held
 * across a flush (a flush delivers on the calling thread). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	int tried, loaded;
	char why[160];       /* why CUPTI did not load, when it did not */
	enable_fn enable, disable;
	register_fn register_callbacks;
	flush_fn flush_all;
	next_fn next;
	dropped_fn dropped;
	errstr_fn errstr;
	timestamp_fn timestamp;
	struct span spans[SPANS_MAX];
	int n;
	int lost;            /* records dropped since the last read */
	/* Buffers handed back, for CUPTI's next request: every sample
	 * flushes, and need not allocate. */
	uint8_t *spare[SPARE_MAX];
	int spares;
} act;

static const CUpti_ActivityKind kinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
					   CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_MEMCPY};

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
	pthread_mutex_lock(&lock);
	*buffer = act.spares ? act.spare[--act.spares] : NULL;
	pthread_mutex_unlock(&lock);
	if (!*buffer)
		*buffer = (uint8_t *)aligned_alloc(8, BUFFER_BYTES);
	*size = *buffer ? BUFFER_BYTES : 0;
	*max_records = 0;
}

static void span_add(uint64_t start, uint64_t end, uint32_t stream)
{
	/* A record without timestamps (CUPTI found no device memory for
	 * them) cannot be timed: the sample is lost, not shortened. */
	if (!start || end < start || act.n == SPANS_MAX) {
		act.lost++;
		return;
	}
	act.spans[act.n++] = (struct span){start, end, stream};
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
				     size_t valid)
{
	CUpti_Activity *rec = NULL;
	size_t dropped = 0;

	(void)size;
	pthread_mutex_lock(&lock);
	while (act.next(buffer, valid, &rec) == CUPTI_SUCCESS) {
		if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
			const CUpti_ActivityKernel4 *k = (const CUpti_ActivityKernel4 *)rec;
			span_add(k->start, k->end, k->streamId);
		} else if (rec->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
			const CUpti_ActivityMemset *m = (const CUpti_ActivityMemset *)rec;
			span_add(m->start, m->end, m->streamId);
		} else if (rec->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
			const CUpti_ActivityMemcpy *c = (const CUpti_ActivityMemcpy *)rec;
			span_add(c->start, c->end, c->streamId);
		}
	}
	if (act.dropped(ctx, stream, &dropped) == CUPTI_SUCCESS && dropped)
		act.lost++;
	if (act.spares < SPARE_MAX) {
		act.spare[act.spares++] = buffer;
		buffer = NULL;
	}
	pthread_mutex_unlock(&lock);
	free(buffer);
}

/* dlopen()s the first CUPTI that loads; NULL with act.why set otherwise. */
static void *open_library(void)
{
	char soname[32];
	const char *env = getenv("CONFORM_CUPTI");
	void *lib;

	if (env && *env) {
		if (!(lib = dlopen(env, RTLD_NOW | RTLD_LOCAL)))
			snprintf(act.why, sizeof act.why, "CONFORM_CUPTI=%s: %s", env, dlerror());
		return lib;
	}
#ifdef CONFORM_CUPTI_LIB
	if ((lib = dlopen(CONFORM_CUPTI_LIB, RTLD_NOW | RTLD_LOCAL)))
		return lib;
#endif
	snprintf(soname, sizeof soname, "libcupti.so.%d", CUDA_VERSION / 1000);
	if (!(lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL)))
		snprintf(act.why, sizeof act.why, "%s not found (set CONFORM_CUPTI to its path)", soname);
	return lib;
}

static int load(void)
{
	void *lib;

	if (act.tried)
		return act.loaded ? 0 : -1;
	act.tried = 1;
	if (!(lib = open_library()))
		return -1;
	act.enable = (enable_fn)dlsym(lib, "cuptiActivityEnable");
	act.disable = (enable_fn)dlsym(lib, "cuptiActivityDisable");
	act.register_callbacks = (register_fn)dlsym(lib, "cuptiActivityRegisterCallbacks");
	act.flush_all = (flush_fn)dlsym(lib, "cuptiActivityFlushAll");
	act.next = (next_fn)dlsym(lib, "cuptiActivityGetNextRecord");
	act.dropped = (dropped_fn)dlsym(lib, "cuptiActivityGetNumDroppedRecords");
	act.errstr = (errstr_fn)dlsym(lib, "cuptiGetResultString");
	act.timestamp = (timestamp_fn)dlsym(lib, "cuptiGetTimestamp");
	if (!act.enable || !act.disable || !act.register_callbacks || !act.flush_all || !act.next ||
	    !act.dropped || !act.errstr || !act.timestamp) {
		snprintf(act.why, sizeof act.why, "libcupti lacks the activity API");
		dlclose(lib);
		return -1;
	}
	CUptiResult e = act.register_callbacks(buffer_requested, buffer_completed);
	if (e != CUPTI_SUCCESS) {
		const char *s = "unknown error";
		(void)act.errstr(e, &s);
		snprintf(act.why, sizeof act.why, "CUPTI: %s", s);
		return -1; /* the library stays loaded: CUPTI cannot be unloaded safely */
	}
	act.loaded = 1;
	return 0;
}

int activity_start(char *why, size_t len)
{
	size_t k;

	if (load() < 0) {
		snprintf(why, len, "%s", act.why);
		return -1;
	}
	for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		CUptiResult e = act.enable(kinds[k]);
		if (e != CUPTI_SUCCESS) {
			const char *s = "unknown error";
			(void)act.errstr(e, &s);
			snprintf(why, len, "CUPTI refused activity records (%s)", s);
			while (k-- > 0)
				(void)act.disable(kinds[k]);
			return -1;
		}
	}
	activity_discard();
	return 0;
}

void activity_stop(void)
{
	size_t k;

	if (!act.loaded)
		return;
	for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
		(void)act.disable(kinds[k]);
	activity_discard();
}

/* Forgets what was collected; returns how many records were lost. */
static int collector_reset(void)
{
	int lost;

	pthread_mutex_lock(&lock);
	lost = act.lost;
	act.n = 0;
	act.lost = 0;
	pthread_mutex_unlock(&lock);
	return lost;
}

void activity_discard(void)
{
	if (act.loaded)
		(void)act.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
	(void)collector_reset();
}

int64_t activity_sole_stream(void)
{
	int64_t id = -1;

	(void)act.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
	pthread_mutex_lock(&lock);
	for (int i = 0; i < act.n; i++) {
		if (id >= 0 && act.spans[i].stream != id) {
			id = -1;
			break;
		}
		id = act.spans[i].stream;
	}
	pthread_mutex_unlock(&lock);
	(void)collector_reset();
	return id;
}

uint64_t activity_now(void)
{
	uint64_t t = 0;

	if (act.loaded)
		(void)act.timestamp(&t);
	return t;
}

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = (const struct span *)a, *y = (const struct span *)b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Records collected so far that are not on stream `exclude`. */
static int count_not_on(int64_t exclude)
{
	int m = 0;

	pthread_mutex_lock(&lock);
	for (int i = 0; i < act.n; i++)
		m += (int64_t)act.spans[i].stream != exclude;
	pthread_mutex_unlock(&lock);
	return m;
}

int activity_busy(int64_t exclude, uint64_t since, int expect, double *ms, int *records)
{
	uint64_t busy = 0, end = 0;
	int m = 0, stale = 0, lost;

	/* A plain flush hands over the buffers whose records are complete; a
	 * forced one hands over every buffer, and makes CUPTI set up afresh
	 * at the next launch, host time paid at every sample.  So force only
	 * when the plain one came back short. */
	(void)act.flush_all(0);
	if (expect <= 0 || count_not_on(exclude) < expect)
		(void)act.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
	pthread_mutex_lock(&lock);
	for (int i = 0; i < act.n; i++) {
		if ((int64_t)act.spans[i].stream == exclude)
			continue;
		/* Work that started before this sample was enqueued belongs
		 * to an earlier one, which was then timed short. */
		stale += act.spans[i].start < since;
		act.spans[m++] = act.spans[i];
	}
	qsort(act.spans, m, sizeof act.spans[0], span_cmp);
	for (int i = 0; i < m; i++) {
		const struct span *s = &act.spans[i];
		if (s->start >= end)
			busy += s->end - s->start;
		else if (s->end > end)
			busy += s->end - end;
		if (s->end > end)
			end = s->end;
	}
	pthread_mutex_unlock(&lock);
	lost = collector_reset();
	*ms = busy / 1e6;
	*records = m;
	/* Even a forced flush came back short: the sample would be too. */
	return lost || stale || (expect > 0 && m < expect) ? -1 : 0;
}

#endif /* HAVE_CUPTI */
