/*
 * compile_pool.c - compiles ahead of the cases (see compile_pool.h).
 *
 * Each configuration the pool is told of gets an entry, kept for the
 * pool's life so that none is compiled twice: WAITING in the queue,
 * RUNNING on a slot, DONE with the worker's answer, or WITHDRAWN (told of,
 * then dropped from the queue before it started; told of again, it waits
 * again).  A slot is one compile-only worker: none yet, starting (its
 * greeting not read), idle, or busy with one entry under the watchdog,
 * whose deadline is the pool's compile deadline.
 *
 * Invariant: at most cap entries are RUNNING, one per busy slot, and the
 * queue holds exactly the WAITING entries, soonest first.
 */
#include "session/compile_pool.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/num.h"
#include "common/text.h"
#include "common/vec.h"
#include "session/watchdog.h"

/* How long one wait for a finished compile lasts before the pool looks at
 * its slots again (deadlines, greetings). */
#define POOL_NAP_S 0.05

enum entry_state { WAITING, RUNNING, DONE, WITHDRAWN };

struct entry {
	struct case_spec c;      /* the case it was first told of: what the BUILD names */
	enum entry_state state;
	/* DONE: what became of it; answered when the worker said so in a
	 * DONE line (not a hang or a crash the pool saw). */
	int answered;
	enum outcome outcome;
	char message[RESULT_MESSAGE_MAX];
};

struct slot {
	struct worker w;         /* pid 0: no worker */
	int starting;
	double start_deadline;
	long entry;              /* the entry it compiles; -1: idle */
	struct watchdog_case wc;
};

struct compile_pool {
	struct compile_pool_config cfg;
	struct reaper reaper;
	struct slot *slots;      /* cfg.cap of them */
	struct entry **entries;  /* one allocation each, never moved */
	size_t nentries, entries_cap;
	long *queue;             /* the WAITING entries, soonest first */
	size_t nqueue, queue_cap;
	int running, peak;
	size_t sent;
	int broken;              /* a worker would not start: nothing more is compiled ahead */
};

int compile_pool_jobs(int *jobs, char *err, size_t len)
{
	const char *env = getenv("CONFORM_COMPILE_JOBS");
	long long n;

	if (env && *env) {
		if (num_parse_int(env, 0, COMPILE_POOL_MAX, &n) < 0) {
			snprintf(err, len, "CONFORM_COMPILE_JOBS='%s': expected 0 (none ahead) to %d compiles at once",
				 env, COMPILE_POOL_MAX);
			return -1;
		}
		*jobs = (int)n;
		return 0;
	}
	n = sysconf(_SC_NPROCESSORS_ONLN);
	*jobs = n < 1 ? 1 : n > COMPILE_POOL_MAX ? COMPILE_POOL_MAX : (int)n;
	return 0;
}

struct compile_pool *compile_pool_new(const struct compile_pool_config *cfg)
{
	struct compile_pool *p = calloc(1, sizeof *p);

	if (!p || cfg->cap < 1 || cfg->cap > COMPILE_POOL_MAX ||
	    !(p->slots = calloc((size_t)cfg->cap, sizeof *p->slots))) {
		free(p);
		return NULL;
	}
	p->cfg = *cfg;
	p->cfg.worker.compile_for = cfg->sm;
	p->cfg.worker.reaper = &p->reaper;
	for (int i = 0; i < cfg->cap; i++) {
		p->slots[i].w.to_fd = p->slots[i].w.from_fd = -1;
		p->slots[i].entry = -1;
	}
	return p;
}

void compile_pool_free(struct compile_pool *p)
{
	if (!p)
		return;
	/* Idle workers are told first, so that they all exit side by side. */
	for (int i = 0; i < p->cfg.cap; i++)
		if (p->slots[i].entry < 0 && !p->slots[i].starting)
			worker_hangup(&p->slots[i].w);
	for (int i = 0; i < p->cfg.cap; i++) {
		if (p->slots[i].entry >= 0 || p->slots[i].starting)
			worker_kill(&p->slots[i].w);
		else
			worker_stop(&p->slots[i].w);
	}
	reaper_drain(&p->reaper);
	for (size_t i = 0; i < p->nentries; i++)
		free(p->entries[i]);
	vec_free(p->entries, p->nentries, p->entries_cap);
	vec_free(p->queue, p->nqueue, p->queue_cap);
	free(p->slots);
	free(p);
}

int compile_pool_sm(const struct compile_pool *p)
{
	return p->cfg.sm;
}

int compile_pool_cap(const struct compile_pool *p)
{
	return p->cfg.cap;
}

int compile_pool_peak(const struct compile_pool *p)
{
	return p->peak;
}

size_t compile_pool_sent(const struct compile_pool *p)
{
	return p->sent;
}

/* The entry of c's configuration, or -1. */
static long entry_find(const struct compile_pool *p, const struct case_spec *c)
{
	for (size_t i = 0; i < p->nentries; i++) {
		const struct case_spec *e = &p->entries[i]->c;
		if (e->dtype == c->dtype && strcmp(e->variant, c->variant) == 0 &&
		    strcmp(e->params, c->params) == 0)
			return (long)i;
	}
	return -1;
}

/* Takes entry i out of the queue (it is WAITING). */
static void queue_remove(struct compile_pool *p, long i)
{
	for (size_t q = 0; q < p->nqueue; q++)
		if (p->queue[q] == i) {
			memmove(&p->queue[q], &p->queue[q + 1], (p->nqueue - q - 1) * sizeof *p->queue);
			p->nqueue--;
			return;
		}
}

/* Puts entry i (WAITING) at the head of the queue. */
static void queue_first(struct compile_pool *p, long i)
{
	queue_remove(p, i);
	memmove(&p->queue[1], &p->queue[0], p->nqueue * sizeof *p->queue);
	p->queue[0] = i;
	p->nqueue++;
}

/* 1 when a slot has a worker, greeted or starting, with nothing to do. */
static int slot_free(const struct compile_pool *p)
{
	for (int i = 0; i < p->cfg.cap; i++)
		if (p->slots[i].entry < 0 && (p->slots[i].starting || p->slots[i].w.pid > 0))
			return 1;
	return 0;
}

/* Ends entry e with what the worker said, or what the pool saw. */
static void entry_done(struct compile_pool *p, struct slot *s, const struct case_result *r, int answered)
{
	struct entry *e = p->entries[s->entry];
	e->state = DONE;
	e->answered = answered;
	e->outcome = r->outcome;
	text_copy(e->message, sizeof e->message, r->message);
	s->entry = -1;
	p->running--;
}

/* Gives slot s the next waiting entry. */
static void slot_send(struct compile_pool *p, struct slot *s)
{
	struct case_result r;
	long i = p->queue[0];
	queue_remove(p, i);
	s->entry = i;
	p->entries[i]->state = RUNNING;
	if (++p->running > p->peak)
		p->peak = p->running;
	p->sent++;
	switch (watchdog_send(&s->wc, &s->w, PROTO_BUILD, &p->entries[i]->c, 0, NULL, p->cfg.timeout_s,
			      p->cfg.stop, &r)) {
	case WATCHDOG_PENDING:
		return;
	case WATCHDOG_DONE:
		entry_done(p, s, &r, 0);
		return;
	case WATCHDOG_INTERRUPTED:
		/* Run ending: the entry is left for no one. */
		p->entries[i]->state = WITHDRAWN;
		s->entry = -1;
		p->running--;
		return;
	}
}

/* The pool gives up on compiling ahead: the cases' workers compile. */
static void pool_break(struct compile_pool *p, const char *why)
{
	if (!p->broken && p->cfg.worker.verbose)
		fprintf(stderr, "conform: no compiles ahead: %s\n", why);
	p->broken = 1;
	for (size_t q = 0; q < p->nqueue; q++)
		p->entries[p->queue[q]]->state = WITHDRAWN;
	p->nqueue = 0;
}

/* Collects what the slots have to say, without waiting; returns how many
 * compiles ended or workers greeted. */
static int slots_collect(struct compile_pool *p)
{
	int moved = 0;
	double now = text_now();
	for (int i = 0; i < p->cfg.cap; i++) {
		struct slot *s = &p->slots[i];
		if (s->starting) {
			char err[512];
			int g = worker_greet_poll(&s->w, &p->cfg.worker, now, s->start_deadline, p->cfg.stop, err,
						  sizeof err);
			if (g == 0)
				continue;
			s->starting = 0;
			moved++;
			if (g < 0)
				pool_break(p, err);
		} else if (s->entry >= 0) {
			struct case_result r;
			memset(&r, 0, sizeof r);
			switch (watchdog_poll(&s->wc, now, p->cfg.stop, &r)) {
			case WATCHDOG_PENDING:
				continue;
			case WATCHDOG_DONE:
				/* A worker the watchdog let live answered; one it
				 * killed (a hang, a crash, a bad line) did not. */
				entry_done(p, s, &r, s->w.pid > 0);
				break;
			case WATCHDOG_INTERRUPTED:
				p->entries[s->entry]->state = WITHDRAWN;
				s->entry = -1;
				p->running--;
				break;
			}
			moved++;
		}
	}
	return moved;
}

/* Starts workers and compiles while entries wait: a greeted idle worker
 * takes the next; a slot without one starts one, as many as there are
 * entries waiting for a worker. */
static void slots_fill(struct compile_pool *p)
{
	int starting = 0;
	for (int i = 0; i < p->cfg.cap; i++)
		starting += p->slots[i].starting;
	for (int i = 0; i < p->cfg.cap && p->nqueue > 0; i++) {
		struct slot *s = &p->slots[i];
		if (s->entry >= 0 || s->starting)
			continue;
		if (s->w.pid > 0) {
			slot_send(p, s);
			continue;
		}
		if (p->broken || (size_t)starting >= p->nqueue)
			continue;
		char err[512];
		if (worker_launch(&s->w, &p->cfg.worker, err, sizeof err) < 0) {
			pool_break(p, err);
			return;
		}
		s->starting = 1;
		s->start_deadline = text_now() + p->cfg.worker.start_timeout_s;
		starting++;
	}
}

/* Waits until `until` at most for a slot to say something. */
static void slots_wait(struct compile_pool *p, double until)
{
	struct pollfd fds[COMPILE_POOL_MAX];
	nfds_t n = 0;
	for (int i = 0; i < p->cfg.cap; i++)
		if (p->slots[i].w.from_fd >= 0 && (p->slots[i].starting || p->slots[i].entry >= 0))
			fds[n++] = (struct pollfd){.fd = p->slots[i].w.from_fd, .events = POLLIN};
	double left = until - text_now();
	if (n == 0 || left <= 0)
		return;
	if (left > POOL_NAP_S)
		left = POOL_NAP_S;
	if (poll(fds, n, (int)(left * 1000.0) + 1) < 0 && errno != EINTR)
		usleep(1000); /* nothing to wait on: do not spin */
}

void compile_pool_poll(struct compile_pool *p, double until)
{
	for (;;) {
		int moved = slots_collect(p);
		slots_fill(p);
		reaper_poll(&p->reaper);
		if (moved || text_now() >= until || (p->cfg.stop && *p->cfg.stop))
			return;
		if (p->running == 0 && p->nqueue == 0)
			return; /* nothing to wait for */
		slots_wait(p, until);
	}
}

void compile_pool_ahead(struct compile_pool *p, const struct case_spec *const *cases, size_t n)
{
	for (size_t q = 0; q < p->nqueue; q++)
		p->entries[p->queue[q]]->state = WITHDRAWN;
	p->nqueue = 0;
	if (p->broken)
		return;
	for (size_t k = 0; k < n; k++) {
		long i = entry_find(p, cases[k]);
		if (i < 0) {
			struct entry *e = calloc(1, sizeof *e);
			if (!e || vec_push(p->entries, p->nentries, p->entries_cap, e) < 0) {
				free(e);
				break; /* out of memory: fewer compiles ahead */
			}
			e->c = *cases[k];
			e->state = WITHDRAWN;
			i = (long)p->nentries - 1;
		}
		if (p->entries[i]->state != WITHDRAWN)
			continue;
		if (vec_push(p->queue, p->nqueue, p->queue_cap, i) < 0)
			break;
		p->entries[i]->state = WAITING;
	}
	compile_pool_poll(p, 0);
}

enum compile_claim compile_pool_claim(struct compile_pool *p, const struct case_spec *c,
				      struct case_result *r)
{
	long i = entry_find(p, c);
	if (i < 0)
		return COMPILE_NONE;
	struct entry *e = p->entries[i];
	switch (e->state) {
	case WAITING:
		if (slot_free(p)) {
			/* A worker takes it now, or as soon as it greets (tenths of
			 * a second, no CUDA to start): as soon as the case's own. */
			queue_first(p, i);
			slots_fill(p);
			return COMPILE_RUNNING;
		}
		queue_remove(p, i);
		e->state = WITHDRAWN;
		return COMPILE_NONE;
	case RUNNING:
		return COMPILE_RUNNING;
	case DONE:
		if (!e->answered || e->outcome != OUTCOME_ERROR)
			return COMPILE_NONE; /* in the cache, or the worker finds out itself */
		memset(r, 0, sizeof *r);
		r->err_norm = -1;
		r->outcome = e->outcome;
		text_copy(r->message, sizeof r->message, e->message);
		return COMPILE_FAILED;
	case WITHDRAWN:
		break;
	}
	return COMPILE_NONE;
}
