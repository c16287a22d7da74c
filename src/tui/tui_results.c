/*
 * tui_results.c - the results pane: one stored run as a sortable table, and
 * the detail of the result under the cursor.
 *
 * It reads the database (db_read.c), never the run in memory, so what it
 * shows is what "conform" and sqlite3 see.  It follows the newest run (the
 * one in progress included) until the user steps to an older one with [.
 * Timing columns (median, GB/s, % of the copy bandwidth, × the family's
 * baseline, spread: the relative half-width of the median's 95 % interval,
 * "~" after it when sampling stopped before reaching --max-noise) appear
 * when the run has timed results; the fastest
 * configuration of each variant and problem in the run is marked "*".
 * Where the GPU measured energy, energy per launch (mJ) and the counter's
 * average power (W) stand beside the median, and P marks the rows on the
 * time/energy Pareto front of their variant and problem (tui_energy.h);
 * with no energy in the run those columns are not there at all.  b shows
 * the best configurations instead: the database's best_configs (what
 * "conform best" reads), one per device, variant, type and size, or the
 * best by energy or edp (e there, tui_best.h).  S runs
 * the case under the cursor again under compute-sanitizer, through the run
 * controller (tui_runctl_start_sanitized): the new run is then the one
 * shown.  The pane re-reads its run as the controller stores results, and
 * moves to the newest when a run is stored or ends.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/params.h"
#include "common/text.h"
#include "common/vec.h"
#include "db/db.h"
#include "session/session_check.h"
#include "tui/tui_app.h"
#include "tui/tui_best.h"
#include "tui/tui_command.h"
#include "tui/tui_devices.h"
#include "tui/tui_energy.h"
#include "tui/tui_log.h"
#include "tui/tui_result_detail.h"
#include "tui/tui_table.h"
#include "tune/tune.h"
#include "tune/tune_refs.h"

/* Conformance runs: the case, what happened, and why.  Device only when
 * the run's results name more than one (layout()). */
enum { P_CASE, P_DEVICE, P_STATUS, P_OBSERVED, P_DURATION, P_MESSAGE, P_COLS };
static const struct tui_table_col plain_cols[P_COLS] = {
	[P_CASE] = {.title = "Case", .flex = 1, .min = 30, .key = 1},
	[P_DEVICE] = {.title = "Device", .key = 1},
	[P_STATUS] = {.title = "Status", .status = 1, .key = 1},
	[P_OBSERVED] = {.title = "Observed"},
	[P_DURATION] = {.title = "ms", .right = 1, .numeric = 1},
	[P_MESSAGE] = {.title = "Message", .flex = 1},
};

/* Timed runs (tunes, sweeps, benches): one row per configuration, the
 * problem in its own columns so that rows never look alike; the observed
 * behaviour and the message go last, the first to be left off. */
enum { T_VARIANT, T_N, T_DEVICE, T_DTYPE, T_OP, T_CONFIG, T_STATUS, T_MEDIAN, T_ENERGY, T_POWER,
       T_PARETO, T_GBPS, T_COPY, T_BASE, T_NOISE, T_SPREAD, T_MESSAGE, T_COLS };
static const struct tui_table_col timed_cols[T_COLS] = {
	[T_VARIANT] = {.title = "Variant", .key = 1},
	[T_N] = {.title = "n", .right = 1, .numeric = 1, .key = 1},
	[T_DEVICE] = {.title = "Device", .key = 1},
	[T_DTYPE] = {.title = "Type", .fold = 1},
	[T_OP] = {.title = "Op", .fold = 1},
	[T_CONFIG] = {.title = "Config", .flex = 1, .min = 46, .key = 1, .params = 1},
	[T_STATUS] = {.title = "Status", .status = 1, .fold = 1},
	[T_MEDIAN] = {.title = "us", .right = 1, .numeric = 1},
	/* Energy beside time: the columns are there only when some row
	 * has a figure (a GPU whose NVML counts energy). */
	[T_ENERGY] = {.title = TUI_ENERGY_TITLE, .right = 1, .numeric = 1, .sparse = 1},
	[T_POWER] = {.title = TUI_POWER_TITLE, .right = 1, .numeric = 1, .sparse = 1},
	[T_PARETO] = {.title = TUI_PARETO_TITLE, .sparse = 1},
	[T_GBPS] = {.title = "GB/s", .right = 1, .numeric = 1},
	[T_COPY] = {.title = "%copy", .right = 1, .numeric = 1},
	[T_BASE] = {.title = "xbase", .right = 1, .numeric = 1},
	[T_NOISE] = {.title = "Noise", .right = 1, .numeric = 1},
	[T_SPREAD] = {.title = "Spread", .right = 1, .numeric = 1},
	[T_MESSAGE] = {.title = "Message", .width = 60},
};

struct results_pane {
	struct tui_pane super;
	struct tui_app *app;
	struct tui_table table;
	struct tui_table_col cols[TUI_TABLE_COLS]; /* the layout's columns (layout()) */
	struct tui_log detail;
	struct db_result_row *rows;
	size_t nrows;
	int *front;                /* per row: on its problem's time/energy Pareto front */
	int64_t run_id;            /* 0: no run shown */
	struct db_run_row run;
	int follow;                /* stay on the newest run */
	int timed;                 /* the run has timed results */
	int by_device;             /* its results name several devices: a Device column */
	struct tui_devices devices; /* those devices, labelled */
	int show_detail;
	int show_best;             /* b: the best configurations instead */
	struct tui_best best;
	char error[256];
	/* The tool S last asked "re-run under it? y/n" about (the screen's
	 * question, whose y runs it). */
	enum sanitizer_tool rerun_tool;
};

/* Column c of the layout's enum as the table numbers it: the Device
 * column is left out of a run on one device. */
static int col(const struct results_pane *rp, int c)
{
	int device = rp->timed ? T_DEVICE : P_DEVICE;
	return rp->by_device || c < device ? c : c - 1;
}

/* Within the run: the fastest timed PASS of a variant and problem ("*"),
 * and the references of its family at that problem, on the same device. */
static int same_problem(const struct db_result_row *a, const struct db_result_row *b)
{
	char opa[16] = "", opb[16] = "";
	params_get(a->params, "op", opa, sizeof opa);
	params_get(b->params, "op", opb, sizeof opb);
	return a->n == b->n && a->cols == b->cols && a->device_id == b->device_id &&
	       strcmp(a->dtype, b->dtype) == 0 && strcmp(opa, opb) == 0;
}

static int timed_pass(const struct db_result_row *r)
{
	return r->status == STATUS_PASS && !isnan(r->median_ms);
}

/* Marked only among two or more timed configurations. */
static int is_best(const struct results_pane *rp, size_t k)
{
	const struct db_result_row *r = &rp->rows[k];
	int rivals = 0;
	if (!timed_pass(r))
		return 0;
	for (size_t i = 0; i < rp->nrows; i++) {
		const struct db_result_row *o = &rp->rows[i];
		if (i != k && timed_pass(o) && strcmp(o->variant, r->variant) == 0 && same_problem(o, r)) {
			if (o->median_ms < r->median_ms || (o->median_ms == r->median_ms && i < k))
				return 0;
			rivals++;
		}
	}
	return rivals > 0;
}

/* rp->front: the rows on the time/energy Pareto front of their variant
 * and problem, among the run's timed PASS of it ("P"); a reference is
 * what the others are measured against, as for "*", and takes no part. */
static void mark_fronts(struct results_pane *rp)
{
	size_t n = rp->nrows ? rp->nrows : 1;
	struct objective_key *k = malloc(n * sizeof *k);
	long *group = malloc(n * sizeof *group);
	free(rp->front);
	rp->front = malloc(n * sizeof *rp->front);
	if (!k || !group || !rp->front) {
		/* Out of memory: no marks, never a wrong one. */
		free(k);
		free(group);
		free(rp->front);
		rp->front = NULL;
		return;
	}
	for (size_t i = 0; i < rp->nrows; i++) {
		const struct db_result_row *r = &rp->rows[i];
		objective_key_of(&k[i], r->median_ms, r->robust.ci_high_ms, &r->energy);
		group[i] = -1;
		if (!timed_pass(r) || tune_is_reference(&rp->app->cat, r->variant))
			continue;
		/* The group is named by its first row. */
		group[i] = (long)i;
		for (size_t j = 0; j < i; j++)
			if (group[j] == (long)j && strcmp(rp->rows[j].variant, r->variant) == 0 &&
			    same_problem(&rp->rows[j], r)) {
				group[i] = (long)j;
				break;
			}
	}
	tui_energy_fronts(k, group, rp->nrows, rp->front);
	free(k);
	free(group);
}

/* The run's timed PASS of variant at r's problem, or NULL. */
static const struct db_result_row *measured_at(const struct results_pane *rp,
					       const struct db_result_row *r, const char *variant)
{
	for (size_t i = 0; i < rp->nrows; i++) {
		const struct db_result_row *o = &rp->rows[i];
		if (strcmp(o->variant, variant) == 0 && timed_pass(o) && same_problem(o, r))
			return o;
	}
	return NULL;
}

struct beside {
	const struct results_pane *rp;
	const struct db_result_row *r;
};

static int beside_in_run(void *ctx, const char *variant)
{
	const struct beside *b = ctx;
	return measured_at(b->rp, b->r, variant) != NULL;
}

/* What r is measured against (tune_refs.h: the Plot and the best view
 * read them the same way): the copy bandwidth, this run's own measurement
 * on r's device first, and the baseline's median at r's problem in this
 * run; each NAN when not measured. */
static void row_refs(const struct results_pane *rp, const struct db_result_row *r, double *copy_gbps,
		     double *base_ms)
{
	struct tune_stored_refs refs;
	struct beside ctx = {rp, r};
	char err[256];
	const struct db_result_row *o;
	*copy_gbps = *base_ms = NAN;
	tune_refs_stored(&rp->app->cat, rp->app->db, r->variant, r->cols, r->device_id, beside_in_run,
			 &ctx, &refs, err, sizeof err);
	for (size_t i = 0; refs.copy && i < rp->nrows && isnan(*copy_gbps); i++) {
		o = &rp->rows[i];
		if (strcmp(o->variant, refs.copy) == 0 && o->device_id == r->device_id && timed_pass(o) &&
		    o->gbps > 0)
			*copy_gbps = o->gbps;
	}
	if (isnan(*copy_gbps) && refs.copy_gbps > 0)
		*copy_gbps = refs.copy_gbps;
	if (refs.baseline && (o = measured_at(rp, r, refs.baseline)) != NULL)
		*base_ms = o->median_ms;
}

static void set_device(struct results_pane *rp, struct tui_table_row *row, int c,
		       const struct db_result_row *r)
{
	if (rp->by_device)
		tui_table_set(row, col(rp, c), NAN, 0, "%s",
			      tui_devices_label(&rp->devices, r->device_id, r->device));
}

/* The conformance layout's row for result r. */
static void fill_plain(struct results_pane *rp, struct tui_table_row *row, const struct db_result_row *r)
{
	tui_table_set(row, col(rp, P_CASE), NAN, 0, "%s", r->case_name);
	set_device(rp, row, P_DEVICE, r);
	tui_table_set(row, col(rp, P_STATUS), (double)r->status, tui_term_status_attr(r->status), "%s",
		      status_name(r->status));
	tui_table_set(row, col(rp, P_OBSERVED), NAN, 0, "%s", r->observed);
	if (!isnan(r->duration_ms))
		tui_table_set(row, col(rp, P_DURATION), r->duration_ms, 0, "%.1f", r->duration_ms);
	tui_table_set(row, col(rp, P_MESSAGE), NAN, tui_term_attr(TUI_DIM), "%s", r->message);
}

/* The timed layout's row for result k; what was not measured stays empty
 * (the table draws it as missing). */
static void fill_timed(struct results_pane *rp, struct tui_table_row *row, size_t k)
{
	const struct db_result_row *r = &rp->rows[k];
	int best = !tune_is_reference(&rp->app->cat, r->variant) && is_best(rp, k);
	char shape[48], config[TUI_CELL_MAX];
	tui_shape(shape, sizeof shape, r->n, r->cols);
	tui_best_config(r->params, config, sizeof config);
	char op[16] = "";
	params_get(r->params, "op", op, sizeof op);
	tui_table_set(row, col(rp, T_VARIANT), NAN, best ? A_BOLD : 0, "%s%s", best ? "* " : "", r->variant);
	tui_table_set(row, col(rp, T_N), (double)r->n * (double)(r->cols > 0 ? r->cols : 1), 0, "%s", shape);
	set_device(rp, row, T_DEVICE, r);
	tui_table_set(row, col(rp, T_DTYPE), NAN, 0, "%s", r->dtype);
	tui_table_set(row, col(rp, T_OP), NAN, 0, "%s", op);
	tui_table_set(row, col(rp, T_CONFIG), NAN, best ? A_BOLD : 0, "%s", config);
	tui_table_set(row, col(rp, T_STATUS), (double)r->status, tui_term_status_attr(r->status), "%s",
		      status_name(r->status));
	if (!isnan(r->median_ms))
		tui_table_set(row, col(rp, T_MEDIAN), r->median_ms, 0, "%.2f", r->median_ms * 1e3);
	tui_energy_set(row, col(rp, T_ENERGY), col(rp, T_POWER), &r->energy);
	tui_energy_set_front(row, col(rp, T_PARETO), rp->front && rp->front[k]);
	if (!isnan(r->gbps))
		tui_table_set(row, col(rp, T_GBPS), r->gbps, 0, "%.1f", r->gbps);
	double copy, base;
	row_refs(rp, r, &copy, &base);
	if (!isnan(r->gbps) && copy > 0)
		tui_table_set(row, col(rp, T_COPY), r->gbps / copy, 0, "%.0f%%", 100 * r->gbps / copy);
	if (base > 0 && r->median_ms > 0)
		tui_table_set(row, col(rp, T_BASE), base / r->median_ms, 0, "%.2f", base / r->median_ms);
	if (!isnan(r->noise) && r->samples > 0)
		tui_table_set(row, col(rp, T_NOISE), r->noise, 0, "%.1f%%", 100 * r->noise);
	/* Results stored before the interval existed have none. */
	if (!isnan(r->robust.spread)) {
		int missed = r->robust.noise_met == 0;
		tui_table_set(row, col(rp, T_SPREAD), r->robust.spread, missed ? tui_term_attr(TUI_WARN) : 0,
			      "%.1f%%%s", 100 * r->robust.spread, missed ? "~" : "");
	}
	tui_table_set(row, col(rp, T_MESSAGE), NAN, tui_term_attr(TUI_DIM), "%s", r->message);
}

/* The table's columns for a timed or conformance run, with a Device
 * column or not; a new layout starts the table afresh (the sort column
 * meant something else). */
static void layout(struct results_pane *rp, int timed, int by_device)
{
	const struct tui_table_col *all = timed ? timed_cols : plain_cols;
	int n = timed ? T_COLS : P_COLS, device = timed ? T_DEVICE : P_DEVICE, ncols = 0;
	tui_table_free(&rp->table);
	for (int c = 0; c < n; c++)
		if (by_device || c != device)
			rp->cols[ncols++] = all[c];
	tui_table_init(&rp->table, rp->cols, ncols);
	rp->timed = timed;
	rp->by_device = by_device;
}

static void fill_table(struct results_pane *rp)
{
	int timed = 0;
	tui_devices_clear(&rp->devices);
	for (size_t i = 0; i < rp->nrows; i++) {
		timed |= rp->rows[i].samples > 0 || !isnan(rp->rows[i].gbps);
		/* A result with no device names none (the host's, or one stored
		 * without it). */
		if (rp->rows[i].device_id)
			tui_devices_add(&rp->devices, rp->rows[i].device_id, rp->rows[i].device);
	}
	int by_device = tui_devices_count(&rp->devices) > 1;
	if (timed != rp->timed || by_device != rp->by_device || !rp->table.cols)
		layout(rp, timed, by_device);
	if (timed)
		mark_fronts(rp);
	tui_table_begin(&rp->table);
	for (size_t i = 0; i < rp->nrows; i++) {
		struct tui_table_row *row = tui_table_add(&rp->table);
		if (!row)
			break;
		row->id = (long)i;
		if (timed)
			fill_timed(rp, row, i);
		else
			fill_plain(rp, row, &rp->rows[i]);
	}
	snprintf(rp->table.filter, sizeof rp->table.filter, "%s", rp->super.filter);
	tui_table_end(&rp->table);
	if (rp->show_best)
		tui_best_load(&rp->best, rp->super.filter);
}

static void load(struct results_pane *rp)
{
	struct db *db = rp->app->db;
	char err[256];
	free(rp->rows);
	rp->rows = NULL;
	rp->nrows = 0;
	rp->error[0] = '\0';
	/* A run that cannot be read shows as no run, as an empty database does. */
	if (!db || !rp->run_id || db_run_read(db, rp->run_id, &rp->run, err, sizeof err) <= 0) {
		rp->run_id = 0;
		fill_table(rp);
		return;
	}
	db_run_results(db, rp->run_id, &rp->rows, &rp->nrows, rp->error, sizeof rp->error);
	fill_table(rp);
}

/* Re-reads the run from the database; with latest, moves to the newest
 * run first. */
static void reload(struct results_pane *rp, int latest)
{
	if (latest)
		rp->follow = 1;
	if (rp->follow && rp->app->db) {
		int64_t id;
		int64_t before = rp->run_id;
		char err[256];
		if (db_run_latest(rp->app->db, &id, err, sizeof err) > 0)
			rp->run_id = id;
		if (rp->run_id != before) {
			rp->table.cursor = rp->table.top = 0;
			rp->show_detail = 0;
		}
	}
	load(rp);
}

/* The run's date, tag and the one device its results name (the run's
 * while it has none), or how many: the Device column names each row's. */
static void results_info(const struct results_pane *rp, char *buf, size_t len)
{
	const struct db_run_row *run = &rp->run;
	char device[160];
	if (rp->by_device)
		snprintf(device, sizeof device, "%zu devices", tui_devices_count(&rp->devices));
	else
		text_copy(device, sizeof device,
			  rp->devices.count ? db_device_label(rp->devices.v[0].name)
					    : run->device[0] ? run->device : "no GPU");
	snprintf(buf, len, "%.10s %.5s  %s%s%s", run->started_at,
		 strlen(run->started_at) > 11 ? run->started_at + 11 : "",
		 run->tag, run->tag[0] ? "  " : "", device);
}

static void results_draw(struct tui_pane *p, const struct tui_rect *r)
{
	struct results_pane *rp = (struct results_pane *)p;
	int y = r->y;
	if (rp->show_best) {
		tui_best_draw(&rp->best, r);
		return;
	}
	if (!rp->run_id) {
		tui_put(y + 1, r->x + 2, r->w - 4, A_BOLD, "No runs stored yet.");
		tui_putf(y + 3, r->x + 2, r->w - 4, tui_term_attr(TUI_DIM), "database: %s",
			 rp->app->db_path);
		tui_put(y + 4, r->x + 2, r->w - 4, tui_term_attr(TUI_NORMAL),
			"Check cases in the Catalog pane and press r, or run \"conform --all\".");
		return;
	}
	const struct db_run_row *run = &rp->run;
	char tally[96], shown[64] = "";
	if (run->passed >= 0)
		snprintf(tally, sizeof tally, "%d passed, %d failed, %d skipped", run->passed,
			 run->failed, run->skipped);
	else
		snprintf(tally, sizeof tally, "%d results so far", run->results);
	if (rp->table.filter[0])
		snprintf(shown, sizeof shown, "  (%zu of %zu shown)", rp->table.nview, rp->table.count);
	tui_putf(y, r->x, r->w, A_BOLD, "Run #%lld  %s  %s%s", (long long)run->id, run->state, tally, shown);
	y++;
	/* What every row has goes beside the run's date and device, or on a
	 * line of its own when that would cut it (it is what the cells leave
	 * out).  The last drawing's folding decides: a key redraws. */
	char info[256], folded[256];
	results_info(rp, info, sizeof info);
	tui_table_folded(&rp->table, folded, sizeof folded);
	int info_y = y++, folded_y = -1;
	if (folded[0] && tui_text_width(info) + 12 + tui_text_width(folded) > r->w)
		folded_y = y++;
	if (rp->error[0])
		tui_put(y++, r->x, r->w, tui_term_status_attr(STATUS_ERROR), rp->error);
	int table_h = r->y + r->h - y;
	if (rp->show_detail) {
		/* The detail gets what it needs; the table keeps a few rows. */
		const struct tui_table_row *cur = tui_table_current(&rp->table);
		if (cur)
			tui_result_detail(&rp->detail, &rp->rows[cur->id]);
		else
			tui_log_clear(&rp->detail);
		table_h = tui_log_table_rows(&rp->detail, table_h);
	}
	struct tui_rect tr = {y, r->x, table_h, r->w};
	tui_table_draw(&rp->table, &tr, 1);
	tui_table_folded(&rp->table, folded, sizeof folded);
	/* Cut with a mark: what every row holds must not lose a word unseen. */
	char line[600];
	snprintf(line, sizeof line, "%s%s%s", folded_y < 0 ? info : "every row: ",
		 folded_y < 0 && folded[0] ? "; every row: " : "", folded);
	if (folded_y >= 0)
		tui_put_clip(info_y, r->x, r->w, tui_term_attr(TUI_DIM), info);
	tui_put_clip(folded_y < 0 ? info_y : folded_y, r->x, r->w, tui_term_attr(TUI_DIM), line);
	if (!rp->table.nview)
		tui_put(y + 2, r->x + 2, r->w - 4, tui_term_attr(TUI_DIM),
			rp->nrows ? "no result matches the filter (Esc clears it)" : "no results in this run yet");
	if (!rp->show_detail)
		return;
	tui_log_draw_below(&rp->detail, r, y + table_h, "detail (Enter closes)");
}

static void step_run(struct results_pane *rp, int dir)
{
	int64_t id;
	char err[256];
	if (!rp->app->db || !rp->run_id)
		return;
	if (db_run_adjacent(rp->app->db, rp->run_id, dir, &id, err, sizeof err) > 0) {
		rp->run_id = id;
		rp->table.cursor = rp->table.top = 0;
		int64_t latest;
		rp->follow = db_run_latest(rp->app->db, &latest, err, sizeof err) > 0 && latest == id;
		load(rp);
	} else {
		tui_screen_note(rp->super.screen, dir < 0 ? "this is the oldest run" : "this is the newest run");
	}
}

/* The case result r is of, to run again: the suite's case of its name (or
 * of the name before "@", tui_command_suite_case) for what the database
 * does not keep (requirements, tolerance, deadline), posed at the stored
 * variant, type, size and params; a case no suite holds is made of the
 * stored row alone.  The same name gives the same input (case.h).
 * Returns 0, or -1 with a message. */
static int rerun_case(const struct results_pane *rp, const struct db_result_row *r,
		      struct case_spec *c, char *err, size_t len)
{
	const struct case_spec *base = tui_command_suite_case(rp->app, r->case_name);
	if (base) {
		*c = *base;
	} else {
		memset(c, 0, sizeof *c);
		text_copy(c->file, sizeof c->file, "(the database)");
	}
	text_copy(c->name, sizeof c->name, r->case_name);
	text_copy(c->variant, sizeof c->variant, r->variant);
	if (!base || strcmp(base->params, r->params) != 0) {
		text_copy(c->params, sizeof c->params, r->params);
		c->template_params = 0;
	}
	c->n = r->n;
	c->cols = r->cols;
	if (dtype_parse(r->dtype, &c->dtype) < 0 || expect_parse(r->expect, &c->expect) < 0) {
		snprintf(err, len, "%s: its type '%s' or expectation '%s' is not one this build knows",
			 r->case_name, r->dtype, r->expect);
		return -1;
	}
	return session_check_case(&rp->app->cat, c, err, len);
}

/* y to the question S asked: the row under the cursor again, with its
 * run's seed (the case's input seed follows from it and the name), under
 * the tool asked about. */
static void rerun_yes(void *ctx)
{
	struct results_pane *rp = ctx;
	const struct tui_table_row *cur = tui_table_current(&rp->table);
	if (!cur)
		return;
	struct case_spec c;
	char err[512];
	if (rerun_case(rp, &rp->rows[cur->id], &c, err, sizeof err) < 0) {
		tui_screen_note(rp->super.screen, "cannot re-run: %s", err);
		return;
	}
	char *end;
	uint64_t seed = strtoull(rp->run.seed, &end, 10);
	tui_runctl_start_sanitized(&rp->app->run, &c, rp->run.seed[0] && !*end ? &seed : NULL,
				   rp->rerun_tool);
}

/* The tool after rp->rerun_tool, round again after the last. */
static enum sanitizer_tool rerun_next(enum sanitizer_tool t)
{
	return (enum sanitizer_tool)(t % (SANITIZER_TOOL_COUNT - 1) + 1);
}

/* S, and S again while it asks: asks first whether to re-run the row under
 * the cursor under memcheck, racecheck, synccheck, initcheck in turn (a run
 * is one key away); the screen's question, so y runs it and any other key,
 * in any view, drops it. */
static void rerun_ask(void *ctx)
{
	struct results_pane *rp = ctx;
	const struct tui_table_row *cur = tui_table_current(&rp->table);
	if (!cur)
		return;
	if (rp->app->run.active) {
		tui_screen_note(rp->super.screen, "a run is in progress (c cancels it)");
		return;
	}
	rp->rerun_tool = rerun_next(rp->rerun_tool);
	tui_screen_confirm(rp->super.screen, rerun_yes, rp, "Re-run %s (seed %s) under %s? y/n  S: %s instead",
			   rp->rows[cur->id].case_name, rp->run.seed[0] ? rp->run.seed : "new",
			   sanitizer_tool_name(rp->rerun_tool), sanitizer_tool_name(rerun_next(rp->rerun_tool)));
	tui_screen_confirm_again(rp->super.screen, 'S', rerun_ask);
}

/* y / Y on the table: for a timed row its configuration / the conform
 * tune line that measures its problem again; for a conformance row its
 * case's name / the conform run line that runs the case again with the
 * run's seed.  Each as conform takes it (tui_command.h). */
static void copy_row(struct results_pane *rp, int command)
{
	const struct tui_table_row *cur = tui_table_current(&rp->table);
	char text[4096], why[512];
	if (!cur)
		return;
	const struct db_result_row *r = &rp->rows[cur->id];
	int rc = 0;
	if (!command && rp->timed) {
		tui_best_config(r->params, text, sizeof text);
	} else if (!command) {
		text_copy(text, sizeof text, r->case_name);
	} else if (rp->timed) {
		char op[16] = "";
		params_get(r->params, "op", op, sizeof op);
		const struct tui_command_of w = {.variant = r->variant, .source = r->source,
						 .run_id = r->run_id, .dtype = r->dtype, .op = op,
						 .n = r->n, .cols = r->cols};
		rc = tui_command_tune(rp->app, &w, text, sizeof text, why, sizeof why);
	} else {
		rc = tui_command_run(rp->app, r, rp->run.seed, text, sizeof text, why, sizeof why);
	}
	if (rc < 0) {
		tui_screen_note(rp->super.screen, "cannot copy a command line: %s", why);
		return;
	}
	tui_term_copy(text);
	tui_screen_note(rp->super.screen, "copied: %s", text);
}

static int results_key(struct tui_pane *p, int key)
{
	struct results_pane *rp = (struct results_pane *)p;
	if (!rp->show_best && key == 'S') {
		rp->rerun_tool = SANITIZER_NONE; /* memcheck first */
		rerun_ask(rp);
		return 1;
	}
	if (key == 'b') {
		rp->show_best = !rp->show_best;
		rp->best.detail = 0;
		fill_table(rp);
		return 1;
	}
	if (rp->show_best) {
		if (key == TUI_KEY_ESC && !rp->best.detail && p->filter[0]) {
			p->filter[0] = '\0';
			tui_best_filter(&rp->best, "");
			return 1;
		}
		int used = tui_best_key(&rp->best, key);
		/* The filter's text is the shown table's: a problem's
		 * configurations start without one, and the list's is back
		 * when they close. */
		text_copy(p->filter, sizeof p->filter,
			  rp->best.detail ? rp->best.configs.filter : rp->best.table.filter);
		return used;
	}
	if (TUI_IS_ENTER(key)) {
		rp->show_detail = !rp->show_detail;
		return 1;
	}
	if (key == TUI_KEY_ESC) {
		if (rp->show_detail)
			rp->show_detail = 0;
		else if (p->filter[0]) {
			p->filter[0] = '\0';
			tui_table_filter(&rp->table, "");
		}
		return 1;
	}
	if (key == '[' || key == ']') {
		step_run(rp, key == '[' ? -1 : 1);
		return 1;
	}
	if (key == 'y' || key == 'Y') {
		copy_row(rp, key == 'Y');
		return 1;
	}
	if (tui_table_key(&rp->table, key)) {
		if (rp->table.note[0])
			tui_screen_note(p->screen, "%s", rp->table.note);
		return 1;
	}
	return 0;
}

static void results_filter(struct tui_pane *p, const char *text)
{
	struct results_pane *rp = (struct results_pane *)p;
	if (rp->show_best)
		tui_best_filter(&rp->best, text);
	else
		tui_table_filter(&rp->table, text);
}

static void results_show(struct tui_pane *p)
{
	struct results_pane *rp = (struct results_pane *)p;
	reload(rp, 0);
}

static void results_heard(void *ctx, const struct tui_runctl_news *news)
{
	struct results_pane *rp = ctx;
	switch (news->what) {
	case TUI_RUNCTL_STORED:
	case TUI_RUNCTL_FINISHED:
		reload(rp, 1);
		break;
	case TUI_RUNCTL_RESULT:
		reload(rp, 0);
		break;
	default:
		break;
	}
}

static const struct tui_hint results_hints[] = {
	{"Enter", "Detail"}, {"b", "Best"}, {"[ ]", "Run"}, {"<>", "Sort"}, {"/", "Filter"},
	{"n", "Next fail"}, {"S", "Sanitize"}, {"z", "Zoom"}, {"y", "Copy"},
};
/* S re-runs and [ ] step through the runs from the table only: the best
 * view is the database's, not a run's. */
static const struct tui_hint best_hints[] = {
	{"Enter", "Detail"}, {"b", "Best"}, {"<>", "Sort"}, {"/", "Filter"}, {"z", "Zoom"}, {"y", "Copy"},
};
/* With energy figures, e and what it ranks by next (the objective after
 * the one shown); without, the bar is as it was before energy. */
#define BEST_HINTS_E(next)                                                                        \
	{{"Enter", "Detail"}, {"b", "Best"}, {"e", next}, {"<>", "Sort"}, {"/", "Filter"}, {"z", "Zoom"}, \
	 {"y", "Copy"}}
static const struct tui_hint best_hints_energy[][7] = {
	[OBJECTIVE_TIME] = BEST_HINTS_E("By energy"),
	[OBJECTIVE_ENERGY] = BEST_HINTS_E("By edp"),
	[OBJECTIVE_EDP] = BEST_HINTS_E("By time"),
};

static size_t results_hints_fn(struct tui_pane *p, const struct tui_hint **out)
{
	struct results_pane *rp = (struct results_pane *)p;
	if (rp->show_best && tui_best_has_energy(&rp->best)) {
		*out = best_hints_energy[rp->best.objective];
		return sizeof best_hints_energy[0] / sizeof best_hints_energy[0][0];
	}
	if (rp->show_best) {
		*out = best_hints;
		return sizeof best_hints / sizeof best_hints[0];
	}
	*out = results_hints;
	return sizeof results_hints / sizeof results_hints[0];
}

static const struct tui_hint results_help[] = {
	{"", "Results"},
	{"Up/Down j/k", "move; PgUp/PgDn, Home/End (g/G) jump"},
	{"Enter", "show or hide the detail (message, timing, what a failure's run found)"},
	{"Left/Right h/l", "scroll the columns; the keys stay (variant, n, config; a case, its status)"},
	{"< >", "sort by the column before / after (a click on a heading too); left of the first: run order"},
	{"s", "reverse the order"},
	{"o", "back to run order (the order results came)"},
	{"z", "the row under the cursor in full"},
	{"n N", "next / previous failure (FAIL, TIMEOUT, CRASH, ERROR, XPASS)"},
	{"[ ]", "the run before / after this one"},
	{"S", "run the case again, alone, with its seed, under compute-sanitizer's memcheck "
	      "(asks first: y runs it; S again offers racecheck, synccheck, initcheck)"},
	{"y Y", "copy a timed row's configuration / the conform tune line that measures it again; "
		"a case's name / the conform run line that runs it again with the run's seed"},
	{"b", "the best configuration per device, variant, type, size"},
	{"Enter (best)", "every configuration measured for that problem, ranked"},
	{"e (best)", "rank by time, energy per launch, or energy x time (edp): each problem's best and "
		     "its configurations' order follow; rows without energy rank last"},
	{"mJ W P", "energy per launch (mJ) and average power (W) where the GPU measured them (– where "
		   "not); P: on the time/energy Pareto front of its variant's configurations at that "
		   "problem (none is both faster and more frugal)"},
	{"y Y (best)", "copy the configuration / the conform tune command line"},
	{"/", "filter: words found in any column (!word: not found); Esc clears"},
};

static void results_destroy(struct tui_pane *p)
{
	struct results_pane *rp = (struct results_pane *)p;
	free(rp->rows);
	free(rp->front);
	tui_table_free(&rp->table);
	tui_best_free(&rp->best);
	tui_log_free(&rp->detail);
	free(rp);
}

static int results_mouse(struct tui_pane *p, const struct tui_mouse *m)
{
	struct results_pane *rp = (struct results_pane *)p;
	if (rp->show_best)
		return tui_pane_hit(p, tui_best_mouse(&rp->best, m));
	return tui_pane_hit(p, tui_table_mouse(&rp->table, m));
}

static const struct tui_pane_class results_class = {
	.title = "Results",
	.draw = results_draw,
	.key = results_key,
	.mouse = results_mouse,
	.hints = results_hints_fn,
	.help = results_help,
	.nhelp = sizeof results_help / sizeof results_help[0],
	.filter = results_filter,
	.show = results_show,
	.destroy = results_destroy,
};

struct tui_pane *tui_results_pane_new(struct tui_app *app)
{
	struct results_pane *rp = calloc(1, sizeof *rp);
	if (!rp)
		return NULL;
	rp->super.cls = &results_class;
	rp->app = app;
	rp->follow = 1;
	tui_log_init(&rp->detail, 0, 0);
	tui_best_init(&rp->best, app);
	reload(rp, 1);
	if (tui_runctl_observe(&app->run, results_heard, rp) < 0) {
		results_destroy(&rp->super);
		return NULL;
	}
	return &rp->super;
}
