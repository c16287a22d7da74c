/*
 * session_lanes.c - a conformance run's cases on several runners at once
 * (run --jobs N; see session.h); with N = 1, one lane, the same steps.
 *
 * Lane 0 is the session's own runner; lanes 1..N-1 are runners of their
 * own, each with its shared worker on the same GPU (started when the lane
 * first gets an ordinary case), and each, like lane 0, runs a case that
 * may hang or crash in a fresh worker of its own under the hang deadline.
 * So a hang no longer holds the run up: the other lanes go on while it
 * runs out its deadline.  A run over several devices
 * (--devices) has N lanes on each, taken in turn (device 0's first lane,
 * device 1's first, ..., device 0's second, ...), the first lane of each
 * device being the runner the session opened on it; each result carries
 * its lane's GPU.  With 1 < N < LANES_RISKY_MAX each device also has
 * lanes for risky cases alone, up to LANES_RISKY_MAX lanes in all (so as
 * many risky cases at once on it; with N larger, N), whose runners have no
 * shared worker (runner_open_bare): a risky case's worker is its own
 * anyway.
 *
 * A free lane takes a case not yet started among the next LANES_WINDOW to
 * report (the whole run, unless it is longer) that may share the GPU with
 * the cases running, and results go to the sinks in list order, as with
 * one lane: the sinks, the database and the summary see the same run
 * either way; only the durations differ.  The sinks' "case in flight"
 * (start, tick) is the next case to report.  The window is the run, not a
 * few dozen cases: a hang at the head of a short window held every lane up
 * for its deadline once the window behind it was done.
 *
 * What may share a GPU: cases that may hang, crash or be undefined run
 * only beside each other, ordinary cases only beside ordinary ones (on
 * the same device; another device's lanes go their own way).  A
 * hung kernel holds the GPU for its whole deadline, and an ordinary case
 * beside one takes as long.  So on one device the ordinary cases of the
 * window go first, and its risky ones then run out their deadlines
 * together.  Over several devices the first takes the risky cases first
 * while the others take the ordinary ones, and each goes on with the
 * other kind once its own is done: otherwise the risky cases make a tail
 * of their own, every lane on every GPU running out hangs at the end.  A
 * case whose input is large (LANES_LARGE_BYTES) runs beside no other
 * large case on its device: two of them, several GiB each, would meet in
 * the GPU's memory.  Beside the small ordinary cases it goes (alone, it
 * would leave its GPU's other lanes idle), and it goes first, the longest
 * case of the run beside the short ones, so that it does not make the
 * run's tail.  (The timings behind these choices: docs/PERFORMANCE.md.)
 *
 * Nothing here waits for a worker to start or end (runner.h): a CUDA
 * start is tenths of a second, and the driver makes one context at a time,
 * so waiting for each in the run's one loop had left every lane idle
 * meanwhile.  A killed worker still ending (runner_ending) counts as a
 * risky case on its device: its hang may still hold the GPU.
 */
#include "session/session_lanes.h"

#include <unistd.h>

#include <stdlib.h>
#include <string.h>

#include "common/dtype.h"
#include "common/rng.h"

/* Results held ahead of the next to report (a ring): the run, up to this
 * many cases (a result is about 1.3 KB). */
#define LANES_WINDOW 8192
/* How long a step waits on a lane when none has finished: short, since a
 * lane idles until the next step hands it a case. */
#define LANES_POLL_S 0.002
#define LANES_LARGE_BYTES ((int64_t)1 << 30)
/* How many cases that may hang or crash a device runs at once (with
 * --jobs above 1; with --jobs above this, --jobs): such a case waits out
 * its deadline in a worker of its own, on no processor, so more of them
 * than --jobs cost a little GPU memory (a context each) and save rounds of
 * deadlines: the six hangs of --all took two 2 s rounds on four lanes. */
#define LANES_RISKY_MAX 8

struct session_lanes {
	int n;
	struct runner *rn[SESSION_LANES_MAX]; /* [0] is the session's runner */
	/* The lane's device: s->dev[dev[l]].  Lanes 0 .. s->ndev - 1 are the
	 * devices' first runners, the session's; the others were opened here. */
	int dev[SESSION_LANES_MAX];
	/* Lanes for risky cases only (LANES_RISKY_MAX), with no shared
	 * worker: runner_open_bare. */
	unsigned char risky_only[SESSION_LANES_MAX];
	/* Lanes whose shared worker did not start: they take no more cases. */
	unsigned char retired[SESSION_LANES_MAX];
	long cur[SESSION_LANES_MAX];         /* the case in flight on each lane; -1: idle */
	struct result res[SESSION_LANES_MAX];
	size_t window;                       /* ring slots: min(the run's cases, LANES_WINDOW) */
	struct result *done;                 /* results of cases next .. next + window - 1 */
	unsigned char *have;
	unsigned char *started;              /* of the same cases: started (or done) */
	/* The first ordinary case not started, the first risky one, and the
	 * first large ordinary one.  They move on as cases start, and back
	 * only for a case given back unstarted (finished()). */
	size_t from, risky_from, large_from;
	long announced;                      /* the last case the sinks were told started */
};

int session_jobs_default(void)
{
	/* Half the processors: a lane's worker draws and checks large
	 * inputs on all of them. */
	long jobs = sysconf(_SC_NPROCESSORS_ONLN) / 2;
	return jobs < 1 ? 1 : jobs > 4 ? 4 : (int)jobs;
}

int session_lanes_open(struct session *s, int jobs)
{
	struct session_lanes *L = calloc(1, sizeof *L);
	if (!L)
		return -1;
	for (int k = 0; k < s->ndev; k++) {
		L->rn[L->n] = s->dev_rn[k];
		L->dev[L->n++] = k;
	}
	/* The other lanes open bare: each starts its shared worker when it
	 * first gets an ordinary case, its greeting read by the polls, so the
	 * run begins at once on the devices' runners, and a lane that only
	 * runs risky cases never starts one.  Waiting for every lane's CUDA
	 * start before the first case (the driver makes one context at a
	 * time) delayed the whole run by every lane's start. */
	int lanes = jobs > 1 && jobs < LANES_RISKY_MAX ? LANES_RISKY_MAX : jobs;
	for (int j = 1; j < lanes; j++)
		for (int k = 0; k < s->ndev && L->n < SESSION_LANES_MAX; k++) {
			struct runner *rn = calloc(1, sizeof *rn);
			if (!rn)
				break;
			runner_open_bare(rn, s->dev_rn[k]);
			L->rn[L->n] = rn;
			L->risky_only[L->n] = j >= jobs;
			L->dev[L->n++] = k;
		}
	s->lanes = L;
	return L->n;
}

void session_lanes_hangup(struct session *s)
{
	struct session_lanes *L = s->lanes;
	for (int i = s->ndev; L && i < L->n; i++)
		runner_hangup(L->rn[i]);
}

void session_lanes_close(struct session *s)
{
	struct session_lanes *L = s->lanes;
	if (!L)
		return;
	free(L->done);
	free(L->have);
	free(L->started);
	for (int i = s->ndev; i < L->n; i++) {
		runner_close(L->rn[i]);
		free(L->rn[i]);
	}
	free(L);
	s->lanes = NULL;
}

int session_lanes_reset(struct session *s)
{
	struct session_lanes *L = s->lanes;
	size_t w = s->ncases < 1 ? 1 : s->ncases < LANES_WINDOW ? s->ncases : LANES_WINDOW;
	for (int i = 0; i < L->n; i++)
		L->cur[i] = -1;
	if (w != L->window) {
		free(L->done);
		free(L->have);
		free(L->started);
		L->done = malloc(w * sizeof *L->done);
		L->have = malloc(w);
		L->started = malloc(w);
		L->window = w;
		if (!L->done || !L->have || !L->started) {
			L->window = 0;
			return -1;
		}
	}
	memset(L->have, 0, w);
	memset(L->started, 0, w);
	L->from = L->risky_from = L->large_from = 0;
	L->announced = -1;
	return 0;
}

static int64_t input_bytes(const struct case_spec *c)
{
	return c->n * (c->cols > 0 ? c->cols : 1) * (int64_t)dtype_size(c->dtype);
}

static int large(const struct case_spec *c)
{
	return input_bytes(c) >= LANES_LARGE_BYTES;
}

/* A case that may hang, crash or be undefined: the runner gives it a
 * worker of its own. */
static int risky(const struct case_spec *c)
{
	return runner_runs_alone(c);
}

/* Lane l's case is over (res filled): into the ring. */
static void store(struct session_lanes *L, size_t index, const struct result *res)
{
	L->done[index % L->window] = *res;
	L->have[index % L->window] = 1;
}

static int started(const struct session_lanes *L, size_t i)
{
	return L->started[i % L->window];
}

/* Moves a cursor past the cases started, and those of the wrong kind
 * (risky or not as asked; with want_large, ordinary ones that are not
 * large), up to end. */
static void advance(const struct session *s, const struct session_lanes *L, size_t *at, int want_risky,
		    int want_large, size_t end)
{
	if (*at < s->next)
		*at = s->next;
	while (*at < end && (started(L, *at) || risky(s->cases[*at]) != want_risky ||
			     (want_large && !large(s->cases[*at]))))
		(*at)++;
}

/* The first case from `at` on, before end, not started, risky or not as
 * asked, and not large beside a large one; -1 when there is none. */
static long first_of(const struct session *s, const struct session_lanes *L, size_t at, int want_risky,
		     int busy_large, size_t end)
{
	for (size_t i = at; i < end; i++) {
		const struct case_spec *c = s->cases[i];
		if (started(L, i) || risky(c) != want_risky || (busy_large && large(c)))
			continue;
		return (long)i;
	}
	return -1;
}

/* A case not started yet of the window that may run beside the cases in
 * flight on lane l's device, or -1: beside risky cases (or a hang's worker
 * still ending) the first risky one; else the first ordinary one (beside
 * a large one, one that is not large); with the device idle and no
 * ordinary case left, the first risky one.  The first device of several
 * takes risky cases first (see the top).  A lane for risky cases only
 * takes one where risky cases may start. */
static long pick(const struct session *s, struct session_lanes *L, int l)
{
	int busy_ordinary = 0, busy_risky = 0, busy_large = 0;
	for (int k = 0; k < L->n; k++) {
		if (L->dev[k] != L->dev[l])
			continue;
		busy_risky |= runner_ending(L->rn[k]) > 0;
		if (L->cur[k] >= 0) {
			const struct case_spec *c = s->cases[L->cur[k]];
			if (risky(c))
				busy_risky = 1;
			else
				busy_ordinary = 1;
			busy_large |= large(c);
		}
	}
	size_t end = s->next + L->window < s->ncases ? s->next + L->window : s->ncases;
	advance(s, L, &L->from, 0, 0, end);
	advance(s, L, &L->risky_from, 1, 0, end);
	advance(s, L, &L->large_from, 0, 1, end);
	if (busy_risky && busy_ordinary)
		return -1; /* an ordinary case's hang, still ending: wait for it */
	if (busy_risky || (!busy_ordinary && s->ndev > 1 && L->dev[l] == 0 && L->risky_from < end))
		return first_of(s, L, L->risky_from, 1, busy_large, end);
	if (L->risky_only[l])
		return busy_ordinary ? -1 : first_of(s, L, L->risky_from, 1, 0, end);
	/* A large case first: the longest (its input drawn and summed on
	 * the host, gigabytes copied) then runs beside the many short ones
	 * instead of after them. */
	if (!busy_large && L->large_from < end)
		return (long)L->large_from;
	long i = first_of(s, L, L->from, 0, busy_large, end);
	if (i < 0 && !busy_ordinary)
		i = first_of(s, L, L->risky_from, 1, 0, end);
	return i;
}

/* Lane l's case `index` is over, res its result: into the ring; but a
 * case that never reached a worker because one of the other lanes' shared
 * workers did not start (the GPU out of memory for another context, say)
 * goes back to be started again, on another lane, and the lane retires:
 * the run goes on with fewer lanes, as when they all started at once. */
static void finished(const struct session *s, struct session_lanes *L, int l, size_t index)
{
	if (l >= s->ndev && runner_shared_failed(L->rn[l])) {
		L->started[index % L->window] = 0;
		if (index < L->from)
			L->from = index;
		if (index < L->large_from)
			L->large_from = index;
		L->retired[l] = 1;
		return;
	}
	store(L, index, &L->res[l]);
}

/* Starts cases on idle lanes.  Returns 1 when interrupted. */
static int fill(struct session *s, struct session_lanes *L)
{
	for (int l = 0; l < L->n; l++) {
		if (L->cur[l] >= 0 || L->retired[l])
			continue;
		long i = pick(s, L, l);
		if (i < 0)
			continue; /* another device's lane may take one */
		const struct case_spec *c = s->cases[i];
		L->started[i % L->window] = 1;
		switch (runner_case_start(L->rn[l], c, rng_case_seed(s->rn.cfg.seed, c->name), &L->res[l])) {
		case RUNNER_BUSY:
			L->cur[l] = i;
			break;
		case RUNNER_RESULT:
			finished(s, L, l, (size_t)i);
			l--; /* the lane is free again (or retired) */
			break;
		case RUNNER_INTERRUPTED:
			return 1;
		}
	}
	return 0;
}

/* Polls lane l for up to wait_s.  Returns 1 when interrupted. */
static int collect(const struct session *s, struct session_lanes *L, int l, double wait_s, int *got)
{
	switch (runner_case_poll(L->rn[l], wait_s, &L->res[l])) {
	case RUNNER_BUSY:
		return 0;
	case RUNNER_RESULT:
		finished(s, L, l, (size_t)L->cur[l]);
		L->cur[l] = -1;
		*got = 1;
		return 0;
	case RUNNER_INTERRUPTED:
		L->cur[l] = -1;
		return 1;
	}
	return 0;
}

/* Ends every case in flight (the stop flag is set: each poll kills its
 * worker). */
static void abandon(const struct session *s, struct session_lanes *L)
{
	int got = 0;
	for (int l = 0; l < L->n; l++)
		if (L->cur[l] >= 0)
			collect(s, L, l, 0, &got);
}

/* The lane running case index, or -1 when it is not in flight. */
static int lane_of(const struct session_lanes *L, size_t index)
{
	for (int l = 0; l < L->n; l++)
		if (L->cur[l] == (long)index)
			return l;
	return -1;
}

/* Tells the sinks the next case to report has started (once). */
static void announce(struct session *s, struct session_lanes *L)
{
	if (s->next >= s->ncases || L->announced == (long)s->next || !started(L, s->next))
		return;
	const struct case_spec *c = s->cases[s->next];
	int l = lane_of(L, s->next);
	double deadline = runner_case_deadline(l >= 0 ? L->rn[l] : &s->rn, c);
	for (size_t k = 0; k < s->nsinks; k++)
		if (s->sinks[k].start)
			s->sinks[k].start(s->sinks[k].ctx, c, s->next, s->ncases, deadline);
	L->announced = (long)s->next;
}

/* Tells the sinks what each device of a run over several is doing: its
 * earliest case in flight (the next its results let the run report). */
static void tell_devices(struct session *s, const struct session_lanes *L)
{
	struct device_activity a[DEVICE_SET_MAX];
	long first[DEVICE_SET_MAX];
	if (s->ndev < 2)
		return;
	memset(a, 0, sizeof a);
	for (int k = 0; k < s->ndev; k++)
		a[k].ordinal = s->dev[k];
	for (int l = 0; l < L->n; l++) {
		struct device_activity *d = &a[L->dev[l]];
		if (L->cur[l] < 0)
			continue;
		d->busy++;
		if (!d->c || L->cur[l] < first[L->dev[l]]) {
			const struct case_spec *c = s->cases[L->cur[l]];
			d->c = c;
			first[L->dev[l]] = L->cur[l];
			d->remaining_s = runner_case_remaining(L->rn[l]);
			d->deadline_s = runner_case_deadline(L->rn[l], c);
		}
	}
	for (size_t k = 0; k < s->nsinks; k++)
		if (s->sinks[k].devices)
			s->sinks[k].devices(s->sinks[k].ctx, a, s->ndev);
}

enum session_step session_lanes_step(struct session *s, double wait_s, char *err, size_t len)
{
	struct session_lanes *L = s->lanes;
	int got = 0;

	if (session_stopped(s)) {
		abandon(s, L);
		return session_finish(s, 1, err, len);
	}
	if (s->next == s->ncases)
		return session_finish(s, 0, err, len);
	/* The lanes first: each finished one is read and handed its next
	 * case before a result is delivered.  A delivery is a database
	 * commit; delivered first, the hundreds of results another GPU's
	 * lanes had finished behind a hang at the head of the list kept
	 * the lanes that had just finished idle meanwhile. */
	for (int l = 0; l < L->n; l++)
		if (L->cur[l] >= 0 && collect(s, L, l, 0, &got)) {
			abandon(s, L);
			return session_finish(s, 1, err, len);
		}
	if (fill(s, L)) {
		abandon(s, L);
		return session_finish(s, 1, err, len);
	}
	if (L->have[s->next % L->window]) {
		announce(s, L);
		L->have[s->next % L->window] = 0;
		L->started[s->next % L->window] = 0; /* the slot's next case */
		return session_deliver(s, &L->done[s->next % L->window], err, len);
	}
	announce(s, L);
	if (!got) {
		/* Nothing finished: wait on the case the sinks show (else any
		 * busy lane), for the whole step when it is the only lane busy
		 * (nothing else can start until it ends), else a little, since a
		 * lane idles until the next step hands it a case. */
		int l = lane_of(L, s->next), busy = 0;
		for (int k = 0; k < L->n; k++)
			if (L->cur[k] >= 0) {
				busy++;
				l = l < 0 ? k : l;
			}
		double wait = busy > 1 && wait_s > LANES_POLL_S ? LANES_POLL_S : wait_s;
		if (l >= 0 && collect(s, L, l, wait, &got)) {
			abandon(s, L);
			return session_finish(s, 1, err, len);
		}
		/* None busy: the cases left wait for a hang's worker to be
		 * gone (runner_ending).  A nap, not a spin of redraws. */
		if (l < 0 && wait_s > 0)
			usleep((useconds_t)((wait_s < LANES_POLL_S ? wait_s : LANES_POLL_S) * 1e6));
	}
	int head = lane_of(L, s->next);
	tell_devices(s, L);
	session_tick(s, head >= 0 ? runner_case_remaining(L->rn[head]) : 0);
	return SESSION_BUSY;
}
