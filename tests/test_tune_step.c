/*
 * test_tune_step.c - a sweep stepped as the TUI steps it (tune_sweep_step,
 * one evaluation in flight at a time) makes the same evaluations in the
 * same order as the sweep run straight through (tune_sweep_run); either
 * way, for exhaustive and for a budgeted anneal, no evaluation is asked
 * twice (each is stored once, and the progress is told once per
 * configuration), and the anneal spends exactly its budget.  harness.spin
 * with the real conform-worker, no GPU needed.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/stats.h"
#include "common/text.h"
#include "db/db.h"
#include "tests/test.h"
#include "tune/tune.h"

/* Records the parameters of every result stored, in order. */
struct record {
	char (*params)[CASE_PARAMS_MAX + 64];
	size_t count, cap;
	int invalid;
	size_t progress;        /* times the progress was told */
	uint64_t done;          /* the last done it was told */
	int progress_backwards; /* done ever went down or stood still */
};

/* The progress, told after each configuration's evaluation: done counts
 * the measured ones, so it never goes down, and grows but for refused
 * configurations. */
static void rec_progress(void *ctx, const char *variant, uint64_t done, uint64_t total)
{
	struct record *rec = ctx;
	(void)variant; (void)total;
	if (rec->progress && done < rec->done)
		rec->progress_backwards = 1;
	rec->done = done;
	rec->progress++;
}

static int rec_result(void *ctx, const struct result *r, size_t index, size_t total, char *err,
		      size_t len)
{
	struct record *rec = ctx;
	(void)index; (void)total; (void)err; (void)len;
	if (rec->count == rec->cap)
		return -1;
	snprintf(rec->params[rec->count++], sizeof rec->params[0], "%s %s", r->c->variant, r->c->params);
	rec->invalid += r->outcome == OUTCOME_INVALID;
	return 0;
}

static int duplicates(const struct record *rec)
{
	for (size_t i = 0; i < rec->count; i++)
		for (size_t j = i + 1; j < rec->count; j++)
			if (strcmp(rec->params[i], rec->params[j]) == 0)
				return 1;
	return 0;
}

/* One sweep of harness.spin at 2^16 f32, stepped or not.  Returns 0, or -1
 * with the reason printed. */
static int sweep(const char *worker, const char *strategy, uint64_t budget, int stepped,
		 struct record *rec, struct run_summary *shown, size_t *rows, double *longest)
{
	char err[512];
	struct catalog cat;
	struct db *db = NULL;
	struct tune_session *s = calloc(1, sizeof *s);
	volatile sig_atomic_t stop = 0;
	int rc = -1;
	if (!s || catalog_load(&cat, worker, NULL, SESSION_CATALOG_TIMEOUT_S, err, sizeof err) < 0 ||
	    db_open(":memory:", &db, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		free(s);
		return -1;
	}
	struct tune_options o = {
		.dtype = DTYPE_F32, .op = OP_SUM, .strategy = tune_strategy_find(strategy),
		.budget = budget, .seed = 5,
	};
	stats_request_defaults(&o.timing);
	o.timing.min_samples = 5;
	o.timing.max_noise = 0.02;
	o.timing.max_time_s = 0.01;
	struct session_config cfg = {
		.worker_path = worker, .timeout_s = 5, .hang_timeout_s = 5, .db = db, .stop = &stop,
		.command_line = "test_tune_step", .catalog = &cat,
	};
	const struct catalog_entry *v[1] = {catalog_lookup(&cat, "harness.spin")};
	struct report_sink sink = {.result = rec_result, .ctx = rec};
	struct tune_sweep sw = {.n = 0};
	if (!v[0] || tune_open(s, &o, &cfg, err, sizeof err) < 0 ||
	    session_add_sink(&s->run, &sink) < 0 || tune_begin(s, err, sizeof err) < 0) {
		fprintf(stderr, "set-up: %s\n", v[0] ? err : "no harness.spin");
		goto out;
	}
	s->progress.fn = rec_progress;
	s->progress.ctx = rec;
	*longest = 0;
	if (stepped) {
		enum tune_step st;
		tune_sweep_begin(s, v, 1, 1 << 16);
		do {
			double t0 = text_now();
			st = tune_sweep_step(s, 0.05, &sw, err, sizeof err);
			if (text_now() - t0 > *longest)
				*longest = text_now() - t0;
		} while (st == TUNE_STEP_BUSY);
		if (st != TUNE_STEP_SWEPT) {
			fprintf(stderr, "stepped sweep: %d %s\n", (int)st, err);
			goto out;
		}
	} else if (tune_sweep_run(s, v, 1, 1 << 16, &sw, err, sizeof err) != 0) {
		fprintf(stderr, "sweep: %s\n", err);
		goto out;
	}
	*shown = s->shown;
	*rows = sw.count;
	rc = 0;
out:
	tune_sweep_free(&sw);
	tune_close(s, rc != 0, err, sizeof err);
	free(s);
	db_close(db);
	catalog_free(&cat);
	return rc;
}

static void record_reset(struct record *rec)
{
	rec->count = 0;
	rec->invalid = 0;
	rec->progress = 0;
	rec->done = 0;
	rec->progress_backwards = 0;
}

/* The stepped sweep makes the straight one's evaluations, in its order. */
static void check_same(const struct record *straight, const struct record *stepped)
{
	CHECK_INT(stepped->count, straight->count);
	for (size_t i = 0; i < straight->count && i < stepped->count; i++)
		CHECK_STR(stepped->params[i], straight->params[i]);
	CHECK_INT(stepped->progress, straight->progress);
}

/* No evaluation asked twice: each stored once, each configuration's told
 * to the progress once (the copy and the baseline are not). */
static void check_once(const struct record *rec)
{
	CHECK_INT(duplicates(rec), 0);
	CHECK_INT(rec->progress, rec->count - 2);
	CHECK_INT(rec->progress_backwards, 0);
}

int main(void)
{
	char worker[4096];
	if (test_worker_path(worker, sizeof worker) != 0)
		return 77;
	signal(SIGPIPE, SIG_IGN);

	static char straight_params[256][CASE_PARAMS_MAX + 64], stepped_params[256][CASE_PARAMS_MAX + 64];
	struct record straight = {straight_params, 0, 256, 0, 0, 0, 0};
	struct record stepped = {stepped_params, 0, 256, 0, 0, 0, 0};
	struct run_summary a, b;
	size_t rows_a = 0, rows_b = 0;
	double longest;

	/* Exhaustive: the copy, the baseline and the 75 configurations, in the
	 * same order either way, each stored once. */
	CHECK_INT(sweep(worker, "exhaustive", 0, 0, &straight, &a, &rows_a, &longest), 0);
	CHECK_INT(sweep(worker, "exhaustive", 0, 1, &stepped, &b, &rows_b, &longest), 0);
	CHECK_INT(straight.count, 77);
	check_same(&straight, &stepped);
	check_once(&straight);
	check_once(&stepped);
	CHECK_INT(rows_b, rows_a);
	CHECK_INT(b.tally[TALLY_PASSED], a.tally[TALLY_PASSED]);
	CHECK_INT(b.tally[TALLY_SKIPPED], a.tally[TALLY_SKIPPED]);
	CHECK_INT(b.tally[TALLY_SKIPPED], 4);
	CHECK(longest < 0.5);

	/* Anneal within a budget, stepped and straight: the budget spent
	 * exactly once either way.  Its questions are not compared here: the
	 * walk's choices hang on measured times, where noise may flip an
	 * acceptance; test_tune_search shows the questions the same for the
	 * same answers, and exhaustive above shows the two ways drive a search
	 * alike. */
	record_reset(&straight);
	record_reset(&stepped);
	CHECK_INT(sweep(worker, "anneal", 21, 0, &straight, &a, &rows_a, &longest), 0);
	CHECK_INT(sweep(worker, "anneal", 21, 1, &stepped, &b, &rows_b, &longest), 0);
	/* The copy and the baseline, then 21 measured configurations. */
	CHECK_INT(stepped.count - (size_t)stepped.invalid, 2 + 21);
	CHECK_INT(straight.count - (size_t)straight.invalid, 2 + 21);
	check_once(&straight);
	check_once(&stepped);
	return TEST_END();
}
