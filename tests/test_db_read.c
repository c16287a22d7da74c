/*
 * test_db_read.c - reading runs and results back (db_read.c), what the
 * interface browses, against rows of known content and order: runs in
 * order and their headers, the results of a run field by field (each
 * result's own device, in a run over two GPUs), the newest result of a
 * case, the plot's points; results written on another connection are
 * seen; a failed read says where and why; energy columns holding what no
 * measurement wrote read as not measured, and parts of a figure not
 * measured are stored NULL.
 *
 * Everything happens in a fresh directory under $TMPDIR (else /tmp),
 * removed at the end (tests/db_fixture.h).
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "db/db.h"
#include "tests/db_fixture.h"
#include "tests/test.h"

/* What the TUI reads back: runs in order and their headers, the results of
 * a run field by field and in recording order, the newest result of a case,
 * the plot's points in order; results written on another connection are
 * seen; a failed read says where and why and leaves nothing allocated. */
static void test_reads(void)
{
	char path[PATH_MAX];
	struct db *db = NULL, *other = NULL;
	struct gpu_info g = mkgpu("NVIDIA H100 80GB HBM3", "GPU-reads");
	struct gpu_info g2 = mkgpu("NVIDIA H200", "GPU-reads-2");
	struct case_spec tree = mkcase("block.tree.sum.f32.n1000", "block.tree", DTYPE_F32, 1000, 0,
				       "block=256,op=sum", EXPECT_PASS);
	struct case_spec small = mkcase("block.tree.sum.f32.n10", "block.tree", DTYPE_F32, 10, 0,
					"block=256,op=sum", EXPECT_PASS);
	struct case_spec shfl = mkcase("warp.shfl.max.i32.n32", "warp.shfl", DTYPE_I32, 32, 4,
				       "op=max", EXPECT_FAIL);
	struct case_spec v3 = mkcase("device.v3.sum.f32.n4096", "device.v3", DTYPE_F32, 4096, 0,
				     "op=sum", EXPECT_PASS);
	struct run_info ri = plain_run;
	struct db_run_row run, *list = NULL;
	struct db_result_row *rows = NULL, last;
	struct db_point_row *pts = NULL;
	size_t n = 0;
	int64_t dev = 0, dev2 = 0, run1 = 0, run2 = 0, id = 0;
	sqlite3 *h;

	path_in(path, sizeof path, "reads.db");
	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	if (!db)
		return;

	/* An empty database has nothing to show, and says so without error. */
	CHECK_INT(db_run_latest(db, &id, err, sizeof err), 0);
	CHECK_INT(db_run_read(db, 1, &run, err, sizeof err), 0);
	CHECK_INT(db_run_results(db, 1, &rows, &n, err, sizeof err), 0);
	CHECK(rows == NULL && n == 0);
	CHECK_INT(db_case_last(db, tree.name, &last, err, sizeof err), 0);
	CHECK_INT(db_timed_points(db, &pts, &n, err, sizeof err), 0);
	CHECK(pts == NULL && n == 0);
	CHECK_INT(db_run_list(db, &list, &n, err, sizeof err), 0);
	CHECK(list == NULL && n == 0);

	CHECK_INT(db_device_upsert(db, &g, &dev, err, sizeof err), 0);
	ri.device_id = dev;
	ri.command_line = "conform run --suite reads";
	CHECK_INT(db_run_begin(db, &ri, &run1, err, sizeof err), 0);
	put_result(db, run1, &tree, STATUS_PASS, OUTCOME_CORRECT, "", 7, 2.0, 4e6);
	put_result(db, run1, &shfl, STATUS_XFAIL, OUTCOME_WRONG, "wrong on lane 3", 9, 0, 0);
	/* The third on the run's second GPU (run --devices 0,1), from a
	 * kernel file. */
	CHECK_INT(db_device_upsert(db, &g2, &dev2, err, sizeof err), 0);
	{
		struct result r;
		memset(&r, 0, sizeof r);
		r.c = &v3;
		r.status = STATUS_PASS;
		r.outcome = OUTCOME_CORRECT;
		r.seed = 11;
		r.err_norm = -1;
		r.duration_s = 0.25;
		r.device_id = dev2;
		r.source = "0123abcd";
		r.timing.samples = 10;
		r.timing.median_ms = 1.0;
		r.timing.bytes = 8e6;
		/* What it spent, its power readings left out (0: not read) */
		r.timing.energy = (struct energy_stats){.joules = 0.4375, .watts = 437.5,
			.uncertainty = 0.0125, .window_s = 0.3, .burst_s = 0.5, .launches = 500,
			.sm_mhz = 1980, .mem_mhz = 3201, .reasons_known = 1, .reasons = 0x4};
		CHECK_INT(db_result_insert(db, run1, &r, err, sizeof err), 0);
	}
	CHECK_INT(db_run_end(db, run1, "complete", 2, 0, 1, err, sizeof err), 0);
	CHECK_INT(db_run_begin(db, &plain_run, &run2, err, sizeof err), 0);
	put_result(db, run2, &tree, STATUS_FAIL, OUTCOME_WRONG, "off by one", 8, 4.0, 4e6);
	/* Written by another conform: the reads must see it. */
	CHECK_INT(db_open(path, &other, err, sizeof err), 0);
	if (other)
		put_result(other, run2, &small, STATUS_PASS, OUTCOME_CORRECT, "", 12, 0.08, 4e4);
	db_close(other);

	/* Runs: newest, and a step either way until there is none. */
	CHECK_INT(db_run_latest(db, &id, err, sizeof err), 1);
	CHECK_INT(id, run2);
	CHECK_INT(db_run_adjacent(db, run2, -1, &id, err, sizeof err), 1);
	CHECK_INT(id, run1);
	CHECK_INT(db_run_adjacent(db, run1, -1, &id, err, sizeof err), 0);
	CHECK_INT(db_run_adjacent(db, run1, 1, &id, err, sizeof err), 1);
	CHECK_INT(id, run2);
	CHECK_INT(db_run_adjacent(db, run2, 1, &id, err, sizeof err), 0);

	CHECK_INT(db_run_read(db, run1, &run, err, sizeof err), 1);
	CHECK_INT(run.id, run1);
	CHECK_STR(run.state, "complete");
	CHECK_INT(run.passed, 2);
	CHECK_INT(run.failed, 0);
	CHECK_INT(run.skipped, 1);
	CHECK_STR(run.command_line, "conform run --suite reads");
	CHECK_STR(run.device, "NVIDIA H100 80GB HBM3");
	CHECK_INT(run.results, 3);
	CHECK(strlen(run.started_at) == 20 && run.started_at[10] == 'T');
	CHECK_INT(db_run_read(db, run2, &run, err, sizeof err), 1);
	CHECK_STR(run.state, "running");
	CHECK(run.passed == -1 && run.failed == -1 && run.skipped == -1);
	CHECK_STR(run.device, "");
	CHECK_INT(run.results, 2);
	CHECK_INT(db_run_read(db, run2 + 1, &run, err, sizeof err), 0);

	/* Every run, newest first, the running one included. */
	CHECK_INT(db_run_list(db, &list, &n, err, sizeof err), 0);
	CHECK_INT(n, 2);
	if (list && n == 2) {
		CHECK_INT(list[0].id, run2);
		CHECK_STR(list[0].state, "running");
		CHECK_INT(list[0].results, 2);
		CHECK_INT(list[1].id, run1);
		CHECK_INT(list[1].passed, 2);
		CHECK_INT(list[1].skipped, 1);
		CHECK_STR(list[1].device, "NVIDIA H100 80GB HBM3");
	}
	free(list);

	/* The results of a run, in the order they were recorded. */
	CHECK_INT(db_run_results(db, run1, &rows, &n, err, sizeof err), 0);
	CHECK_INT(n, 3);
	if (rows && n == 3) {
		const struct db_result_row *a = &rows[0], *b = &rows[1], *c = &rows[2];
		CHECK(a->id < b->id && b->id < c->id);
		CHECK(a->run_id == run1 && b->run_id == run1 && c->run_id == run1);
		CHECK_STR(a->case_name, tree.name);
		CHECK_STR(a->variant, "block.tree");
		CHECK_STR(a->dtype, "f32");
		CHECK_INT(a->n, 1000);
		CHECK_INT(a->cols, 0);
		CHECK_STR(a->params, "block=256,op=sum");
		CHECK_STR(a->expect, "pass");
		CHECK_INT(a->status, STATUS_PASS);
		CHECK_STR(a->observed, "completed-correct");
		CHECK_STR(a->message, "");
		CHECK_STR(a->seed, "7");
		CHECK(strlen(a->created_at) == 20);
		CHECK_NEAR(a->err_norm, 1.5e-7, 1e-12);
		CHECK_NEAR(a->duration_ms, 250, 1e-9);
		CHECK_NEAR(a->median_ms, 2.0, 1e-12);
		CHECK_NEAR(a->gbps, 2.0, 1e-9);
		CHECK_NEAR(a->noise, 0.05, 1e-12);
		CHECK_INT(a->samples, 10);
		CHECK_INT(a->device_id, dev);
		CHECK_STR(a->device, "NVIDIA H100 80GB HBM3");
		CHECK_STR(a->source, "");
		/* Timed without an energy figure: every energy field missing. */
		CHECK(!energy_measured(&a->energy) && a->energy.watts == 0 && a->energy.sm_mhz == 0 &&
		      a->energy.launches == 0 && !a->energy.reasons_known);
		/* The third's figures come back; the power reading not taken stays missing. */
		CHECK_NEAR(c->energy.joules, 0.4375, 0);
		CHECK_NEAR(c->energy.watts, 437.5, 0);
		CHECK_NEAR(c->energy.watts_sampled, 0, 0);
		CHECK_NEAR(c->energy.uncertainty, 0.0125, 0);
		CHECK_NEAR(c->energy.window_s, 0.3, 0);
		CHECK_INT(c->energy.launches, 500);
		CHECK_INT(c->energy.sm_mhz, 1980);
		CHECK_INT(c->energy.mem_mhz, 3201);
		CHECK_INT(c->energy.reasons_known, 1);
		CHECK(c->energy.reasons == 0x4);

		CHECK_STR(b->case_name, shfl.name);
		CHECK_STR(b->dtype, "i32");
		CHECK_INT(b->n, 32);
		CHECK_INT(b->cols, 4);
		CHECK_STR(b->expect, "fail");
		CHECK_INT(b->status, STATUS_XFAIL);
		CHECK_STR(b->observed, "completed-wrong");
		CHECK_STR(b->message, "wrong on lane 3");
		CHECK_STR(b->seed, "9");
		CHECK(isnan(b->err_norm));
		CHECK(isnan(b->median_ms) && isnan(b->gbps) && isnan(b->noise));
		CHECK_INT(b->samples, 0);

		CHECK_STR(c->case_name, v3.name);
		CHECK_NEAR(c->gbps, 8.0, 1e-9);

		/* One result by its id, as the comparison's detail reads it. */
		CHECK_INT(db_result_read(db, b->id, &last, err, sizeof err), 1);
		CHECK_INT(last.id, b->id);
		CHECK_STR(last.case_name, shfl.name);
		CHECK_STR(last.observed, "completed-wrong");
		CHECK_STR(last.message, "wrong on lane 3");
		CHECK_INT(db_result_read(db, c->id + 100, &last, err, sizeof err), 0);

		/* Its own GPU, not the run's. */
		CHECK(dev2 != dev);
		CHECK_INT(c->device_id, dev2);
		CHECK_STR(c->device, "NVIDIA H200");
		CHECK_STR(c->source, "0123abcd");
	}
	free(rows);
	rows = NULL;
	CHECK_INT(db_run_results(db, run2 + 1, &rows, &n, err, sizeof err), 0);
	CHECK(rows == NULL && n == 0);

	/* The newest result of a case, whichever run it is in. */
	CHECK_INT(db_case_last(db, tree.name, &last, err, sizeof err), 1);
	CHECK_INT(last.run_id, run2);
	CHECK_INT(last.status, STATUS_FAIL);
	/* A host-only result: no device, and no name for one. */
	CHECK_INT(last.device_id, 0);
	CHECK_STR(last.device, "");
	CHECK_STR(last.message, "off by one");
	CHECK_STR(last.seed, "8");
	CHECK_INT(db_case_last(db, shfl.name, &last, err, sizeof err), 1);
	CHECK_INT(last.run_id, run1);
	CHECK_INT(db_case_last(db, "no.such.case", &last, err, sizeof err), 0);

	/* The plot's points: timed only, by variant, dtype, n, cols, then age. */
	CHECK_INT(db_timed_points(db, &pts, &n, err, sizeof err), 0);
	CHECK_INT(n, 4);
	if (pts && n == 4) {
		CHECK_STR(pts[0].variant, "block.tree");
		CHECK_INT(pts[0].n, 10);
		CHECK_INT(pts[0].run_id, run2);
		CHECK_NEAR(pts[0].gbps, 0.5, 1e-9);
		CHECK_INT(pts[1].n, 1000);
		CHECK_INT(pts[1].run_id, run1);
		CHECK_NEAR(pts[1].gbps, 2.0, 1e-9);
		CHECK_INT(pts[2].n, 1000);
		CHECK_INT(pts[2].run_id, run2);
		CHECK_NEAR(pts[2].gbps, 1.0, 1e-9);
		CHECK_STR(pts[3].variant, "device.v3");
		CHECK_STR(pts[3].dtype, "f32");
		CHECK_NEAR(pts[3].gbps, 8.0, 1e-9);
		/* What keeps the plot's shapes, operators and devices apart. */
		CHECK_INT(pts[3].cols, 0);
		CHECK_STR(pts[3].op, "sum");
		CHECK_INT(pts[3].device_id, dev2);
	}
	free(pts);
	pts = NULL;

	/* A read that fails says where and why, and hands back nothing. */
	h = raw_open(path);
	if (h) {
		CHECK_INT(raw_exec(h, "DROP VIEW best_configs; DROP TABLE results"), SQLITE_OK);
		sqlite3_close(h);
	}
	err[0] = '\0';
	CHECK_INT(db_run_results(db, run1, &rows, &n, err, sizeof err), -1);
	CHECK(rows == NULL && n == 0);
	CHECK_CONTAINS(err, path);
	CHECK_CONTAINS(err, "no such table");
	CHECK(one_line(err));
	CHECK_INT(db_timed_points(db, &pts, &n, err, sizeof err), -1);
	CHECK(pts == NULL && n == 0);
	CHECK_INT(db_case_last(db, tree.name, &last, err, sizeof err), -1);
	db_close(db);
}

/* 1 when e holds nothing: every figure missing, the reasons not known. */
static int energy_empty(const struct energy_stats *e)
{
	return e->joules == 0 && e->watts == 0 && e->watts_sampled == 0 && e->uncertainty == 0 &&
	       e->window_s == 0 && e->launches == 0 && e->sm_mhz == 0 && e->mem_mhz == 0 &&
	       !e->reasons_known && e->reasons == 0;
}

/* An energy column holding what no measurement wrote (a hand-edited or
 * damaged database) reads as not measured, whatever the column: text
 * (SQLite would read '12abc' as 12), a blob, a negative or infinite
 * number, a count or clock that is no integer or does not fit, a figure
 * beyond what a measurement gives (energy_clear_implausible); figures at
 * the ends of that range read as stored. */
static void test_energy_junk(void)
{
	/* Each column with the junk from its kind's first on: what only a
	 * clock refuses (it does not fit an int), what a count refuses too (no
	 * integer), then what every column refuses. */
	static const struct {
		const char *name;
		size_t first;
	} columns[] = {{"energy_j", 2}, {"power_w", 2}, {"power_sampled_w", 2},
		       {"energy_uncertainty", 2}, {"energy_window_s", 2}, {"energy_launches", 1},
		       {"sm_mhz", 0}, {"mem_mhz", 0}, {"throttle_reasons", 2}};
	static const char *const junk[] = {"4294967297", "1980.5", "'abc'", "'12abc'",
					   "'0.005 J'", "''", "'nan'", "'inf'", "x'3132'", "-1", "0",
					   "0.0", "1e999", "-1e999", "-9223372036854775808"};
	char path[PATH_MAX], sql[256];
	struct db *db = NULL;
	struct case_spec c = mkcase("block.tree.sum.f32.n1000", "block.tree", DTYPE_F32, 1000, 0,
				    "block=256,op=sum", EXPECT_PASS);
	struct db_result_row *rows = NULL;
	size_t n = 0;
	int64_t run = 0;

	path_in(path, sizeof path, "junk.db");
	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	if (!db)
		return;
	CHECK_INT(db_run_begin(db, &plain_run, &run, err, sizeof err), 0);
	put_result(db, run, &c, STATUS_PASS, OUTCOME_CORRECT, "", 7, 2.0, 4e6);
	sqlite3 *h = raw_open(path);
	for (size_t k = 0; k < sizeof columns / sizeof *columns && h; k++)
		for (size_t j = columns[k].first; j < sizeof junk / sizeof *junk; j++) {
			snprintf(sql, sizeof sql, "UPDATE results SET %s = %s", columns[k].name, junk[j]);
			CHECK_INT(raw_exec(h, sql), 0);
			CHECK_INT(db_run_results(db, run, &rows, &n, err, sizeof err), 0);
			CHECK_INT(n, 1);
			if (n == 1 && !energy_empty(&rows[0].energy)) {
				test_failures++;
				fprintf(stderr, "%s = %s reads as a figure\n", columns[k].name, junk[j]);
			}
			test_checks++;
			free(rows);
			snprintf(sql, sizeof sql, "UPDATE results SET %s = NULL", columns[k].name);
			CHECK_INT(raw_exec(h, sql), 0);
		}
	/* Figures no measurement gives, beside plausible ones: that figure
	 * reads as not measured, the others as stored; an energy per launch
	 * takes its uncertainty and window with it. */
	static const struct {
		const char *column, *value;
	} beyond[] = {{"energy_j", "1e308"}, {"energy_j", "1e-300"}, {"energy_j", "9e-7"},
		      {"energy_j", "2e6"}, {"power_w", "0.5"}, {"power_w", "1e308"},
		      {"power_sampled_w", "0.5"}, {"power_sampled_w", "2e6"},
		      {"energy_uncertainty", "101"}, {"energy_uncertainty", "1e308"},
		      {"sm_mhz", "100001"}, {"mem_mhz", "2147483647"}};
	for (size_t k = 0; k < sizeof beyond / sizeof *beyond && h; k++) {
		CHECK_INT(raw_exec(h, "UPDATE results SET energy_j = 1e-6, power_w = 1, power_sampled_w = 1e6, "
				      "energy_uncertainty = 100, energy_window_s = 0.3, energy_launches = 1000, "
				      "sm_mhz = 100000, mem_mhz = 3201, throttle_reasons = 'none'"),
			  0);
		snprintf(sql, sizeof sql, "UPDATE results SET %s = %s", beyond[k].column, beyond[k].value);
		CHECK_INT(raw_exec(h, sql), 0);
		CHECK_INT(db_run_results(db, run, &rows, &n, err, sizeof err), 0);
		CHECK_INT(n, 1);
		if (n == 1) {
			const struct energy_stats *e = &rows[0].energy;
			int joules = strcmp(beyond[k].column, "energy_j") == 0;
			double want[] = {joules ? 0 : 1e-6,
					 strcmp(beyond[k].column, "power_w") == 0 ? 0 : 1,
					 strcmp(beyond[k].column, "power_sampled_w") == 0 ? 0 : 1e6,
					 joules || strcmp(beyond[k].column, "energy_uncertainty") == 0 ? 0 : 100,
					 joules ? 0 : 0.3,
					 1000,
					 strcmp(beyond[k].column, "sm_mhz") == 0 ? 0 : 100000,
					 strcmp(beyond[k].column, "mem_mhz") == 0 ? 0 : 3201};
			double got[] = {e->joules, e->watts, e->watts_sampled, e->uncertainty,
					e->window_s, (double)e->launches, e->sm_mhz, e->mem_mhz};
			for (size_t f = 0; f < sizeof got / sizeof *got; f++) {
				test_checks++;
				if (got[f] != want[f]) {
					test_failures++;
					fprintf(stderr, "%s = %s: field %zu reads %g, want %g\n", beyond[k].column,
						beyond[k].value, f, got[f], want[f]);
				}
			}
			CHECK_INT(e->reasons_known, 1);
		}
		free(rows);
	}
	if (h)
		sqlite3_close(h);
	db_close(db);
}

/* Energy whose uncertainty and window were not measured is stored with
 * those columns NULL, never 0, and reads back so. */
static void test_energy_parts(void)
{
	char path[PATH_MAX];
	struct db *db = NULL;
	struct case_spec c = mkcase("device.v3.sum.f32.n4096", "device.v3", DTYPE_F32, 4096, 0, "op=sum",
				    EXPECT_PASS);
	struct result r;
	struct db_result_row *rows = NULL;
	size_t n = 0;
	int64_t run = 0;

	path_in(path, sizeof path, "parts.db");
	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	if (!db)
		return;
	CHECK_INT(db_run_begin(db, &plain_run, &run, err, sizeof err), 0);
	memset(&r, 0, sizeof r);
	r.c = &c;
	r.status = STATUS_PASS;
	r.outcome = OUTCOME_CORRECT;
	r.err_norm = -1;
	r.timing.samples = 10;
	r.timing.median_ms = 1.0;
	r.timing.bytes = 8e6;
	r.timing.energy = (struct energy_stats){.joules = 1e-3, .watts = 300};
	CHECK_INT(db_result_insert(db, run, &r, err, sizeof err), 0);
	sqlite3 *h = raw_open(path);
	CHECK_INT(raw_int(h, "SELECT count(*) FROM results WHERE energy_j IS NOT NULL AND "
			     "energy_uncertainty IS NULL AND energy_window_s IS NULL"),
		  1);
	if (h)
		sqlite3_close(h);
	CHECK_INT(db_run_results(db, run, &rows, &n, err, sizeof err), 0);
	CHECK(n == 1 && rows[0].energy.joules == 1e-3 && rows[0].energy.uncertainty == 0 &&
	      rows[0].energy.window_s == 0);
	free(rows);
	db_close(db);
}

/* A command line longer than a screen is read back whole (many --kernel
 * files): the runs pane shows what identifies the run's kernels. */
static void test_long_command_line(void)
{
	char path[PATH_MAX], line[3000];
	struct db *db = NULL;
	struct run_info ri = plain_run;
	struct db_run_row run;
	int64_t id = 0;
	size_t used = (size_t)snprintf(line, sizeof line, "conform run");
	for (int k = 0; used + 40 < sizeof line; k++)
		used += (size_t)snprintf(line + used, sizeof line - used, " --kernel kernels/mine_%03d.cu", k);

	path_in(path, sizeof path, "long.db");
	CHECK_INT(db_open(path, &db, err, sizeof err), 0);
	if (!db)
		return;
	ri.command_line = line;
	CHECK_INT(db_run_begin(db, &ri, &id, err, sizeof err), 0);
	CHECK_INT(db_run_read(db, id, &run, err, sizeof err), 1);
	CHECK_INT(strlen(run.command_line), strlen(line));
	CHECK_STR(run.command_line, line);
	db_close(db);
}

int main(void)
{
	if (db_fixture_begin("db-read") != 0)
		return 1;
	test_reads();
	test_long_command_line();
	test_energy_junk();
	test_energy_parts();
	db_fixture_end(&test_checks, &test_failures);
	return TEST_END();
}
