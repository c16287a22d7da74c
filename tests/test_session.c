/*
 * test_session.c - a conformance run stepped the way the TUI steps it, over
 * the host-only harness cases with the real conform-worker: every step
 * returns within its wait plus a little, even while a case hangs; every case
 * yields exactly one result, in order, judged; a case expected to hang runs
 * in a worker of its own that is gone after it; the deadline is the case's,
 * not the steps'; and setting the stop flag during a hang ends the run with
 * no result for the case in flight and no worker left.  A worker's start
 * deadline follows the cases' deadline, never under SESSION_START_MIN_S.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/text.h"
#include "db/db.h"
#include "session/session.h"
#include "tests/test.h"

#define STEP_S 0.05

/* A sink that records what it is told. */
struct record {
	int begun, ended, interrupted, ticks, starts;
	char order[512];             /* "name=STATUS " per result */
	size_t results;
	size_t last_index;
};

static int rec_begin(void *ctx, const struct run_context *rc, char *err, size_t len)
{
	(void)rc; (void)err; (void)len;
	((struct record *)ctx)->begun++;
	return 0;
}

static void rec_start(void *ctx, const struct case_spec *c, size_t index, size_t total, double t)
{
	(void)c; (void)index; (void)total; (void)t;
	((struct record *)ctx)->starts++;
}

static void rec_tick(void *ctx, double remaining_s)
{
	(void)remaining_s;
	((struct record *)ctx)->ticks++;
}

static int rec_result(void *ctx, const struct result *r, size_t index, size_t total, char *err,
		      size_t len)
{
	struct record *rec = ctx;
	(void)total; (void)err; (void)len;
	size_t used = strlen(rec->order);
	snprintf(rec->order + used, sizeof rec->order - used, "%s=%s ", r->c->name,
		 status_name(r->status));
	rec->results++;
	rec->last_index = index;
	return 0;
}

static int rec_end(void *ctx, const struct run_summary *s, char *err, size_t len)
{
	struct record *rec = ctx;
	(void)err; (void)len;
	rec->ended++;
	rec->interrupted = s->interrupted;
	return 0;
}

static void make_case(struct case_spec *c, const char *name, const char *variant, enum dtype d,
		      int64_t n, enum expect e)
{
	memset(c, 0, sizeof *c);
	text_copy(c->name, sizeof c->name, name);
	text_copy(c->variant, sizeof c->variant, variant);
	c->dtype = d;
	c->n = n;
	c->expect = e;
}

struct fixture {
	struct catalog cat;
	struct db *db;
	struct session ss;
	struct record rec;
	volatile sig_atomic_t stop;
};

static int fixture_open(struct fixture *f, const char *worker, char *err, size_t len)
{
	memset(f, 0, sizeof *f);
	if (catalog_load(&f->cat, worker, NULL, SESSION_CATALOG_TIMEOUT_S, err, len) < 0 || db_open(":memory:", &f->db, err, len) < 0)
		return -1;
	struct session_config cfg = {
		.worker_path = worker,
		.timeout_s = SESSION_TIMEOUT_S,
		.hang_timeout_s = 0.6,
		.seed = 7,
		.catalog = &f->cat,
		.db = f->db,
		.stop = &f->stop,
		.command_line = "test_session",
	};
	if (session_open(&f->ss, &cfg, err, len) < 0)
		return -1;
	struct report_sink sink = {.begin = rec_begin, .start = rec_start, .tick = rec_tick,
				   .result = rec_result, .end = rec_end, .ctx = &f->rec};
	return session_add_sink(&f->ss, &sink);
}

static void fixture_close(struct fixture *f)
{
	session_close(&f->ss);
	db_close(f->db);
	catalog_free(&f->cat);
}

/* Running, that is: a zombie is dead, killed and waiting to be reaped
 * (the runner's reaper does that without blocking, runner.h). */
static int alive(pid_t pid)
{
	char path[64], buf[512];
	if (pid <= 0 || kill(pid, 0) != 0)
		return 0;
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 1;
	size_t got = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[got] = '\0';
	const char *paren = strrchr(buf, ')');
	return !(paren && paren[1] == ' ' && paren[2] == 'Z');
}

/* Reaped: no longer a child of ours, not even a zombie. */
static int reaped(pid_t pid)
{
	return waitpid(pid, NULL, WNOHANG) < 0 && errno == ECHILD;
}

/* Steps a run to its end; the longest step and the BUSY steps are counted. */
static enum session_step step_all(struct fixture *f, double *longest, int *busy, int stop_at_hang,
				  pid_t *hung)
{
	char err[512];
	enum session_step st;
	*longest = 0;
	*busy = 0;
	do {
		double t0 = text_now();
		st = session_step(&f->ss, STEP_S, err, sizeof err);
		double took = text_now() - t0;
		if (took > *longest)
			*longest = took;
		if (st == SESSION_BUSY)
			(*busy)++;
		/* A few steps into the hang, as the TUI's c would. */
		if (stop_at_hang && st == SESSION_BUSY && f->ss.rn.busy == &f->ss.rn.own && *busy >= 3) {
			CHECK(alive(f->ss.rn.own.pid));
			stop_at_hang = (int)f->ss.rn.own.pid;
			f->stop = 1;
		}
	} while (st == SESSION_BUSY || st == SESSION_RESULT);
	if (st == SESSION_FAILED)
		fprintf(stderr, "session_step: %s\n", err);
	if (stop_at_hang > 1) {
		/* The hung case's worker was killed: it is gone a moment later
		 * (the kill is not waited for: its reaper waits). */
		double until = text_now() + 1.0;
		while (alive((pid_t)stop_at_hang) && text_now() < until)
			usleep(10000);
		CHECK(!alive((pid_t)stop_at_hang));
	}
	if (hung)
		*hung = stop_at_hang > 1 ? (pid_t)stop_at_hang : 0;
	return st;
}

int main(void)
{
	char worker[4096], err[512];
	if (test_worker_path(worker, sizeof worker) != 0)
		return 77;
	signal(SIGPIPE, SIG_IGN);

	/* A worker's start deadline follows the cases' deadline, with a floor
	 * for CUDA's own start. */
	CHECK_NEAR(session_start_timeout(10.0), 10.0, 0);
	CHECK_NEAR(session_start_timeout(SESSION_START_MIN_S + 0.5), SESSION_START_MIN_S + 0.5, 0);
	CHECK_NEAR(session_start_timeout(0.1), SESSION_START_MIN_S, 0);

	struct case_spec cases[4];
	make_case(&cases[0], "s.pass", "harness.pass", DTYPE_I32, 100, EXPECT_PASS);
	make_case(&cases[1], "s.hang", "harness.hang", DTYPE_F32, 1, EXPECT_HANG);
	make_case(&cases[2], "s.wrong", "harness.wrong", DTYPE_I32, 100, EXPECT_PASS);
	make_case(&cases[3], "s.after", "harness.pass", DTYPE_F64, 100, EXPECT_PASS);
	const struct case_spec *sel[4] = {&cases[0], &cases[1], &cases[2], &cases[3]};

	/* A whole run, stepped. */
	struct fixture f;
	if (fixture_open(&f, worker, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	CHECK_INT(session_run_begin(&f.ss, sel, 4, err, sizeof err), 0);
	double longest;
	int busy;
	double t0 = text_now();
	CHECK_INT(step_all(&f, &longest, &busy, 0, NULL), SESSION_DONE);
	double wall = text_now() - t0;
	CHECK_STR(f.rec.order, "s.pass=PASS s.hang=XFAIL s.wrong=FAIL s.after=PASS ");
	CHECK_INT(f.rec.results, 4);
	CHECK_INT(f.rec.starts, 4);
	CHECK_INT(f.rec.begun, 1);
	CHECK_INT(f.rec.ended, 1);
	CHECK_INT(f.rec.interrupted, 0);
	CHECK_INT(f.ss.sum.tally[TALLY_PASSED], 3);
	CHECK_INT(f.ss.sum.tally[TALLY_FAILED], 1);
	/* The hang's deadline (0.6 s) is kept across about a dozen steps, each
	 * of which came back within its wait plus a little. */
	CHECK(busy >= 8);
	CHECK(f.rec.ticks >= busy);
	CHECK(longest < STEP_S + 0.25);
	CHECK(wall >= 0.6 && wall < 5);
	CHECK(f.ss.rn.busy == NULL);
	CHECK(f.ss.rn.own.pid == 0);       /* the hang's own worker is gone */
	CHECK(alive(f.ss.rn.shared.pid));  /* the shared one stays for the next run */
	/* Done is done: a further step says so and tells nobody again. */
	CHECK_INT(session_step(&f.ss, STEP_S, err, sizeof err), SESSION_DONE);
	CHECK_INT(f.rec.ended, 1);
	fixture_close(&f);

	/* Stopped during the hang: no result for it, none after it. */
	if (fixture_open(&f, worker, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	CHECK_INT(session_run_begin(&f.ss, sel, 4, err, sizeof err), 0);
	pid_t hung = 0;
	CHECK_INT(step_all(&f, &longest, &busy, 1, &hung), SESSION_DONE);
	CHECK_STR(f.rec.order, "s.pass=PASS ");
	CHECK_INT(f.rec.interrupted, 1);
	CHECK_INT(f.rec.ended, 1);
	CHECK(longest < STEP_S + 0.25);
	CHECK(f.ss.rn.busy == NULL);
	pid_t shared = f.ss.rn.shared.pid;
	fixture_close(&f);
	/* Closing waited for every worker: the killed one and the shared
	 * one, told to end, are reaped, not left as zombies. */
	CHECK(hung > 0 && reaped(hung));
	CHECK(shared > 0 && reaped(shared));

	/* One case through the path the tuner takes. */
	if (fixture_open(&f, worker, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	struct result res;
	CHECK_INT(session_run_case(&f.ss, &cases[0], 1, &res), 0);
	CHECK_INT(res.status, STATUS_PASS);
	CHECK_INT(res.outcome, OUTCOME_CORRECT);
	CHECK(res.c == &cases[0]);
	CHECK(res.duration_s > 0);
	fixture_close(&f);
	return TEST_END();
}
