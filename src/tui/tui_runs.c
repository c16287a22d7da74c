/*
 * tui_runs.c - the runs pane: every run of the database, newest first, and
 * "conform compare BASE NEW" of two of them without leaving the interface.
 *
 * The comparison is compare.c's, on the sides "conform compare" builds for
 * two run ids (compare_side_of_run, compare_side_load, compare_run, at the
 * default threshold), and its summary lines are compare_print.c's: the pane
 * decides nothing of its own, it only lays the items out as a table.  The
 * notable items come first - regressions, slower, fixed, faster, other
 * status changes, new, removed - and then the unchanged ones, which u hides.
 *
 * Which two: b and n mark the base and the new run; Space marks up to two,
 * the older being the base.  Enter with one run marked compares it with the
 * run under the cursor; with none, the run under the cursor with the run of
 * its kind and device before it, as "conform compare NEW" does.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/params.h"
#include "common/text.h"
#include "compare/compare.h"
#include "compare/compare_print.h"
#include "compare/compare_side.h"
#include "db/db.h"
#include "tui/tui_app.h"
#include "tui/tui_table.h"

/* The run list. */
enum { R_MARK, R_ID, R_KIND, R_TAG, R_PASSED, R_FAILED, R_SKIPPED, R_DATE, R_STATE, R_BUILD,
       R_DEVICE };
static const struct tui_table_col run_cols[] = {
	[R_MARK] = {.title = "Mark"},
	[R_ID] = {.title = "Id", .right = 1, .numeric = 1},
	[R_KIND] = {.title = "Kind"},
	[R_TAG] = {.title = "Tag", .flex = 1},
	[R_PASSED] = {.title = "Pass", .right = 1, .numeric = 1},
	[R_FAILED] = {.title = "Fail", .right = 1, .numeric = 1},
	[R_SKIPPED] = {.title = "Skip", .right = 1, .numeric = 1},
	[R_DATE] = {.title = "Date"},
	[R_STATE] = {.title = "State"},
	[R_BUILD] = {.title = "Build"},
	[R_DEVICE] = {.title = "Device"},
};

/* The items of a comparison: the same fields in two orders.  A conformance
 * comparison is read by case and status; a tune's, bench's or sweep's by
 * variant, configuration and change of median, which must stay on screen
 * at 80 columns. */
enum { F_VERDICT, F_CASE, F_STATUS, F_N, F_DTYPE, F_CONFIG, F_CHANGE, F_BASE, F_NEW, F_COUNT };
struct item_layout {
	const struct tui_table_col *cols;
	int ncols;
	int col[F_COUNT];             /* the table column of each field */
};

static const struct tui_table_col timed_cols[] = {
	{.title = "Verdict", .numeric = 1},
	{.title = "Variant"},
	{.title = "n", .right = 1, .numeric = 1},
	{.title = "Configuration", .flex = 1, .min = 20},
	{.title = "Change [interval]", .numeric = 1},
	{.title = "Type", .fold = 1},
	{.title = "Base us", .right = 1, .numeric = 1},
	{.title = "New us", .right = 1, .numeric = 1},
	{.title = "Status"},
};
static const struct item_layout timed_layout = {
	timed_cols, (int)(sizeof timed_cols / sizeof timed_cols[0]),
	{[F_VERDICT] = 0, [F_CASE] = 1, [F_N] = 2, [F_CONFIG] = 3, [F_CHANGE] = 4, [F_DTYPE] = 5,
	 [F_BASE] = 6, [F_NEW] = 7, [F_STATUS] = 8},
};

static const struct tui_table_col case_cols[] = {
	{.title = "Change", .numeric = 1},
	{.title = "Case", .flex = 1, .min = 30},
	{.title = "Status"},
	{.title = "n", .right = 1, .numeric = 1},
	{.title = "Type", .fold = 1},
	{.title = "Configuration"},
	{.title = "Base us", .right = 1, .numeric = 1},
	{.title = "New us", .right = 1, .numeric = 1},
	{.title = "Change [interval]", .numeric = 1},
};
static const struct item_layout case_layout = {
	case_cols, (int)(sizeof case_cols / sizeof case_cols[0]),
	{[F_VERDICT] = 0, [F_CASE] = 1, [F_STATUS] = 2, [F_N] = 3, [F_DTYPE] = 4, [F_CONFIG] = 5,
	 [F_BASE] = 6, [F_NEW] = 7, [F_CHANGE] = 8},
};

struct runs_pane {
	struct tui_pane super;
	struct tui_app *app;
	struct tui_table runs;
	struct db_run_row *rows;
	size_t nrows;
	int64_t base_id, new_id;      /* the marked runs; 0: none */
	char error[256];

	/* The comparison on screen (comparing), kept until the next one. */
	int comparing, have_result;
	struct compare_side *base, *cand;
	struct compare_result res;
	const struct item_layout *layout;
	struct tui_table items;
	int changes_only;             /* u: the unchanged items hidden */
	size_t shown;
};

/* Adds the row filled in *tmp (the table's filter decides whether it shows). */
static void add_row(struct tui_table *t, const struct tui_table_row *tmp)
{
	struct tui_table_row *row = tui_table_add(t);
	if (!row)
		return;
	size_t order = row->order;
	*row = *tmp;
	row->order = order;
}

static void row_blank(struct tui_table_row *row)
{
	memset(row, 0, sizeof *row);
	for (int c = 0; c < TUI_TABLE_COLS; c++)
		row->key[c] = NAN;
}

/* "H100 80GB HBM3": the vendor says nothing when every device is its. */
static const char *device_short(const char *name)
{
	if (!name[0])
		return db_device_label(name);
	return strncmp(name, "NVIDIA ", 7) == 0 ? name + 7 : name;
}

static void fill_runs(struct runs_pane *rp)
{
	tui_table_begin(&rp->runs);
	for (size_t i = 0; i < rp->nrows; i++) {
		const struct db_run_row *r = &rp->rows[i];
		struct tui_table_row tmp;
		row_blank(&tmp);
		tmp.id = (long)r->id;
		int mark = r->id == rp->base_id ? 1 : r->id == rp->new_id ? 2 : 0;
		tui_table_set(&tmp, R_MARK, mark, A_BOLD, "%s", mark == 1 ? "base" : mark == 2 ? "new" : "");
		tui_table_set(&tmp, R_ID, (double)r->id, 0, "%lld", (long long)r->id);
		tui_table_set(&tmp, R_KIND, NAN, 0, "%s", run_kind_name(r->kind));
		tui_table_set(&tmp, R_TAG, NAN, 0, "%s", r->tag);
		if (r->passed >= 0) {
			tui_table_set(&tmp, R_PASSED, r->passed, 0, "%d", r->passed);
			tui_table_set(&tmp, R_FAILED, r->failed, r->failed ? tui_term_status_attr(STATUS_FAIL) : 0,
				      "%d", r->failed);
			tui_table_set(&tmp, R_SKIPPED, r->skipped, 0, "%d", r->skipped);
		}
		/* "2026-11-25T05:41:19Z" as "2026-11-25 05:41". */
		tui_table_set(&tmp, R_DATE, NAN, 0, "%.10s %.5s", r->started_at,
			      strlen(r->started_at) > 11 ? r->started_at + 11 : "");
		tui_table_set(&tmp, R_STATE, NAN,
			      strcmp(r->state, "complete") == 0 ? 0 : tui_term_attr(TUI_WARN), "%s", r->state);
		tui_table_set(&tmp, R_BUILD, NAN, 0, "%s", r->git_revision[0] ? r->git_revision : "-");
		tui_table_set(&tmp, R_DEVICE, NAN, tui_term_attr(TUI_DIM), "%s", device_short(r->device));
		add_row(&rp->runs, &tmp);
	}
	snprintf(rp->runs.filter, sizeof rp->runs.filter, "%s", rp->super.filter);
	tui_table_end(&rp->runs);
}

static void load_runs(struct runs_pane *rp)
{
	free(rp->rows);
	rp->rows = NULL;
	rp->nrows = 0;
	rp->error[0] = '\0';
	if (rp->app->db)
		db_run_list(rp->app->db, &rp->rows, &rp->nrows, rp->error, sizeof rp->error);
	fill_runs(rp);
}

/* Where an item goes in the list: the notable first. */
enum { K_REGRESSION, K_SLOWER, K_FIXED, K_FASTER, K_STATUS, K_NEW, K_REMOVED, K_SAME };

static int item_rank(const struct compare_item *it)
{
	switch (it->change) {
	case CHANGE_REGRESSION: return K_REGRESSION;
	case CHANGE_FIXED: return K_FIXED;
	case CHANGE_STATUS:
	case CHANGE_OBSERVED: return K_STATUS;
	case CHANGE_NEW: return K_NEW;
	case CHANGE_REMOVED: return K_REMOVED;
	case CHANGE_NONE: break;
	}
	if (it->timed && it->verdict == VERDICT_SLOWER)
		return K_SLOWER;
	if (it->timed && it->verdict == VERDICT_FASTER)
		return K_FASTER;
	return K_SAME;
}

/* The verdict column: the verdicts and the changes that fail or mend in
 * capitals, the others in conform compare's words. */
static const char *item_label(const struct compare_item *it, int rank)
{
	switch (rank) {
	case K_REGRESSION: return "REGRESSION";
	case K_FIXED: return "FIXED";
	case K_SLOWER:
	case K_FASTER: return compare_verdict_name(it->verdict);
	case K_SAME: return it->timed ? compare_verdict_name(VERDICT_SAME) : "unchanged";
	default: return compare_change_name(it->change);
	}
}

static attr_t rank_attr(int rank)
{
	switch (rank) {
	case K_REGRESSION:
	case K_SLOWER: return tui_term_status_attr(STATUS_FAIL);
	case K_FIXED:
	case K_FASTER: return tui_term_status_attr(STATUS_PASS);
	case K_STATUS: return tui_term_attr(TUI_WARN);
	case K_SAME: return tui_term_attr(TUI_DIM);
	default: return 0;
	}
}

struct ranked {
	int rank;
	double key;                   /* within a rank: the largest change first */
	size_t i;
};

static int ranked_cmp(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;
	if (a->rank != b->rank)
		return a->rank - b->rank;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

static void fill_item(struct runs_pane *rp, const struct compare_item *it, int rank, size_t i)
{
	const int *col = rp->layout->col;
	const struct compare_entry *e = it->cand ? it->cand : it->base;
	struct tui_table_row tmp;
	char buf[CASE_PARAMS_MAX];
	row_blank(&tmp);
	tmp.id = (long)i;
	tui_table_set(&tmp, col[F_VERDICT], rank, rank_attr(rank), "%s", item_label(it, rank));
	tui_table_set(&tmp, col[F_CASE], NAN, 0, "%s",
		      rp->layout == &case_layout ? e->case_name : e->variant);
	if (it->base && it->cand && it->base->status != it->cand->status)
		tui_table_set(&tmp, col[F_STATUS], NAN, tui_term_status_attr(it->cand->status), "%s -> %s",
			      status_name(it->base->status), status_name(it->cand->status));
	else
		tui_table_set(&tmp, col[F_STATUS], NAN, tui_term_status_attr(e->status), "%s",
			      status_name(e->status));
	tui_shape(buf, sizeof buf, e->n, e->cols);
	tui_table_set(&tmp, col[F_N], (double)e->n, 0, "%s", buf);
	tui_table_set(&tmp, col[F_DTYPE], NAN, 0, "%s", e->dtype);
	if (params_without(e->params, "op", buf, sizeof buf) < 0)
		text_copy(buf, sizeof buf, e->params);
	tui_table_set(&tmp, col[F_CONFIG], NAN, 0, "%s", buf[0] ? buf : "(default)");
	if (it->base && it->base->timed)
		tui_table_set(&tmp, col[F_BASE], it->base->timing.median_ms, 0, "%.3f",
			      it->base->timing.median_ms * 1e3);
	if (it->cand && it->cand->timed)
		tui_table_set(&tmp, col[F_NEW], it->cand->timing.median_ms, 0, "%.3f",
			      it->cand->timing.median_ms * 1e3);
	if (it->timed) {
		compare_ratio_text(it, buf, sizeof buf);
		tui_table_set(&tmp, col[F_CHANGE], it->ratio, rank_attr(rank), "%s", buf);
	}
	add_row(&rp->items, &tmp);
}

static void fill_items(struct runs_pane *rp)
{
	const struct compare_result *r = &rp->res;
	struct ranked *order = calloc(r->nitems ? r->nitems : 1, sizeof *order);
	tui_table_begin(&rp->items);
	rp->shown = 0;
	if (!order) {
		tui_table_end(&rp->items);
		return;
	}
	for (size_t i = 0; i < r->nitems; i++) {
		const struct compare_item *it = &r->items[i];
		order[i].rank = item_rank(it);
		order[i].key = order[i].rank == K_SLOWER ? -it->ratio : order[i].rank == K_FASTER ? it->ratio : 0;
		order[i].i = i;
	}
	qsort(order, r->nitems, sizeof *order, ranked_cmp);
	for (size_t k = 0; k < r->nitems; k++) {
		if (rp->changes_only && order[k].rank == K_SAME)
			continue;
		fill_item(rp, &r->items[order[k].i], order[k].rank, order[k].i);
	}
	snprintf(rp->items.filter, sizeof rp->items.filter, "%s", rp->super.filter);
	tui_table_end(&rp->items);
	rp->shown = rp->items.nview;
	free(order);
}

static void compare_close(struct runs_pane *rp)
{
	if (rp->have_result)
		compare_result_free(&rp->res);
	rp->have_result = 0;
	if (rp->base)
		compare_side_free(rp->base);
	if (rp->cand)
		compare_side_free(rp->cand);
	free(rp->base);
	free(rp->cand);
	rp->base = rp->cand = NULL;
	rp->comparing = 0;
}

/* conform compare BASE NEW, on screen.  Returns 0, or -1 after a note. */
static int compare_open(struct runs_pane *rp, int64_t base_id, int64_t new_id)
{
	struct db *db = rp->app->db;
	struct compare_filter all = {0};
	char err[256];
	int r;

	compare_close(rp);
	if (!(rp->base = calloc(1, sizeof *rp->base)) || !(rp->cand = calloc(1, sizeof *rp->cand))) {
		snprintf(err, sizeof err, "out of memory");
		goto fail;
	}
	if ((r = compare_side_of_run(db, base_id, rp->base, err, sizeof err)) <= 0 ||
	    (r = compare_side_of_run(db, new_id, rp->cand, err, sizeof err)) <= 0) {
		if (r == 0)
			snprintf(err, sizeof err, "no such run");
		goto fail;
	}
	if (compare_side_load(db, rp->base, &all, err, sizeof err) < 0 ||
	    compare_side_load(db, rp->cand, &all, err, sizeof err) < 0)
		goto fail;
	if (compare_run(rp->base, rp->cand, COMPARE_THRESHOLD_DEFAULT, &rp->res) < 0) {
		snprintf(err, sizeof err, "out of memory");
		goto fail;
	}
	rp->have_result = 1;
	rp->comparing = 1;
	const struct item_layout *layout = rp->cand->run.kind == RUN_CONFORMANCE ? &case_layout : &timed_layout;
	if (layout != rp->layout) {
		tui_table_free(&rp->items);
		tui_table_init(&rp->items, layout->cols, layout->ncols);
		rp->layout = layout;
	}
	rp->items.cursor = rp->items.top = 0;
	tui_table_sort(&rp->items, -1, 0);
	fill_items(rp);
	return 0;
fail:
	compare_close(rp);
	tui_screen_note(rp->super.screen, "compare: %s", err);
	return -1;
}

/* The two runs Enter compares (see the top of the file): 0, or -1 after a
 * note saying why there are none. */
static int pick_pair(struct runs_pane *rp, int64_t *base, int64_t *cand)
{
	const struct tui_table_row *cur = tui_table_current(&rp->runs);
	int64_t at = cur ? (int64_t)cur->id : 0;
	int64_t one = rp->base_id ? rp->base_id : rp->new_id;
	char err[256];

	if (rp->base_id && rp->new_id) {
		*base = rp->base_id;
		*cand = rp->new_id;
		return 0;
	}
	if (!at) {
		tui_screen_note(rp->super.screen, "no run to compare");
		return -1;
	}
	if (one && one != at) {
		/* One marked, the other under the cursor: the marked run's role
		 * when b or n gave it one. */
		*base = rp->base_id ? rp->base_id : at;
		*cand = rp->base_id ? at : rp->new_id;
		return 0;
	}
	const struct db_run_row *run = NULL;
	for (size_t i = 0; i < rp->nrows; i++)
		if (rp->rows[i].id == at)
			run = &rp->rows[i];
	if (!run || db_runs_newest(rp->app->db, (int)run->kind, run->device_id, at, 0, base, err,
				   sizeof err) <= 0) {
		tui_screen_note(rp->super.screen, "no earlier %s run on this device: mark two with b and n",
				run ? run_kind_name(run->kind) : "");
		return -1;
	}
	*cand = at;
	return 0;
}

/* Space: marks the run under the cursor, or unmarks it; of two marked
 * this way, the older is the base. */
static void toggle_mark(struct runs_pane *rp, int64_t id)
{
	if (id == rp->base_id)
		rp->base_id = 0;
	else if (id == rp->new_id)
		rp->new_id = 0;
	else if (!rp->base_id)
		rp->base_id = id;
	else if (!rp->new_id)
		rp->new_id = id;
	else {
		tui_screen_note(rp->super.screen, "two runs are marked: Space on one unmarks it");
		return;
	}
	if (rp->base_id && rp->new_id && rp->base_id > rp->new_id) {
		int64_t t = rp->base_id;
		rp->base_id = rp->new_id;
		rp->new_id = t;
	}
}

static void draw_list(struct runs_pane *rp, const struct tui_rect *r)
{
	int y = r->y;
	char marks[96] = "";
	if (rp->base_id || rp->new_id)
		snprintf(marks, sizeof marks, "   base: %s%lld  new: %s%lld", rp->base_id ? "run " : "",
			 (long long)rp->base_id, rp->new_id ? "run " : "", (long long)rp->new_id);
	tui_putf(y, r->x, r->w, A_BOLD, "Runs  %zu%s", rp->runs.nview, marks);
	y++;
	if (rp->error[0])
		tui_put(y++, r->x, r->w, tui_term_status_attr(STATUS_ERROR), rp->error);
	struct tui_rect tr = {y, r->x, r->y + r->h - y, r->w};
	tui_table_draw(&rp->runs, &tr, 1);
	if (!rp->nrows)
		tui_putf(y + 2, r->x + 2, r->w - 4, A_BOLD, "No runs stored yet in %s.", rp->app->db_path);
	else if (!rp->runs.nview)
		tui_put(y + 2, r->x + 2, r->w - 4, tui_term_attr(TUI_DIM), "no run matches the filter");
}

static void draw_side(int y, const struct tui_rect *r, const char *name, const struct compare_side *s)
{
	char text[512];
	compare_side_text(s, text, sizeof text);
	int x = r->x + tui_putf(y, r->x, r->w, A_BOLD, "%-5s%s", name, text);
	tui_putf(y, x, r->x + r->w - x, tui_term_attr(TUI_DIM), " on %s", device_short(s->run.device));
}

static void draw_compare(struct runs_pane *rp, const struct tui_rect *r)
{
	const struct compare_result *res = &rp->res;
	char line[512];
	int y = r->y;
	draw_side(y++, r, "base", rp->base);
	draw_side(y++, r, "new", rp->cand);
	if (!compare_overlaps(res)) {
		tui_putf(y++, r->x, r->w, tui_term_attr(TUI_WARN),
			 "nothing to compare: no case or configuration is in both %s and %s", rp->base->label,
			 rp->cand->label);
	} else {
		compare_differences(res, line, sizeof line);
		if (line[0])
			tui_putf(y++, r->x, r->w, tui_term_attr(TUI_WARN), "WARNING: %s", line);
	}
	compare_status_text(res, line, sizeof line);
	int x = r->x + tui_put(y, r->x, r->w, 0, line);
	char shown[64];
	snprintf(shown, sizeof shown, "%zu of %zu listed%s", rp->shown, res->nitems,
		 rp->changes_only ? ", changes only" : "");
	if (x + 2 + (int)strlen(shown) <= r->x + r->w)
		tui_put_right(y, x + 2, r->x + r->w - x - 2, tui_term_attr(TUI_DIM), shown);
	y++;
	compare_timing_text(res, line, sizeof line);
	tui_put(y++, r->x, r->w, 0, line);
	struct tui_rect tr = {y, r->x, r->y + r->h - y, r->w};
	tui_table_draw(&rp->items, &tr, 1);
	if (!rp->items.nview)
		tui_put(y + 2, r->x + 2, r->w - 4, tui_term_attr(TUI_DIM),
			rp->changes_only ? "nothing changed (u lists every item)" : "no item matches the filter");
}

static void runs_draw(struct tui_pane *p, const struct tui_rect *r)
{
	struct runs_pane *rp = (struct runs_pane *)p;
	if (rp->comparing)
		draw_compare(rp, r);
	else
		draw_list(rp, r);
}

static int compare_key(struct runs_pane *rp, int key)
{
	if (key == TUI_KEY_ESC || key == KEY_BACKSPACE || key == 127 || key == 8) {
		rp->comparing = 0;
		return 1;
	}
	if (key == 'u') {
		rp->changes_only = !rp->changes_only;
		fill_items(rp);
		return 1;
	}
	return tui_table_key(&rp->items, key);
}

static int runs_key(struct tui_pane *p, int key)
{
	struct runs_pane *rp = (struct runs_pane *)p;
	if (rp->comparing)
		return compare_key(rp, key);
	const struct tui_table_row *cur = tui_table_current(&rp->runs);
	int64_t at = cur ? (int64_t)cur->id : 0;
	int64_t base, cand;
	switch (key) {
	case 'b':
	case 'n':
		if (!at)
			return 1;
		if (key == 'b')
			rp->base_id = at, rp->new_id = rp->new_id == at ? 0 : rp->new_id;
		else
			rp->new_id = at, rp->base_id = rp->base_id == at ? 0 : rp->base_id;
		fill_runs(rp);
		return 1;
	case ' ':
		if (at) {
			toggle_mark(rp, at);
			fill_runs(rp);
		}
		return 1;
	case 'd':
		if (pick_pair(rp, &base, &cand) == 0)
			compare_open(rp, base, cand);
		return 1;
	case TUI_KEY_ESC:
		if (p->filter[0])
			p->filter[0] = '\0';
		else
			rp->base_id = rp->new_id = 0;
		fill_runs(rp);
		return 1;
	}
	if (TUI_IS_ENTER(key))
		return runs_key(p, 'd');
	return tui_table_key(&rp->runs, key);
}

static void runs_filter(struct tui_pane *p, const char *text)
{
	struct runs_pane *rp = (struct runs_pane *)p;
	(void)text;
	if (rp->comparing)
		fill_items(rp);
	fill_runs(rp);
}

static void runs_show(struct tui_pane *p)
{
	load_runs((struct runs_pane *)p);
}

static const struct tui_hint list_hints[] = {
	{"b", "Base"}, {"n", "New"}, {"Spc", "Mark"}, {"Enter", "Compare"}, {"/", "Filter"},
};
static const struct tui_hint compare_hints[] = {
	{"Esc", "Runs"}, {"u", "Changes"}, {"h/l", "Sort"}, {"s", "Rev"}, {"/", "Filter"},
};
static const struct tui_hint compare_hints_all[] = {
	{"Esc", "Runs"}, {"u", "All"}, {"h/l", "Sort"}, {"s", "Rev"}, {"/", "Filter"},
};

static size_t runs_hints(struct tui_pane *p, const struct tui_hint **out)
{
	struct runs_pane *rp = (struct runs_pane *)p;
	*out = !rp->comparing ? list_hints : rp->changes_only ? compare_hints_all : compare_hints;
	return 5;
}

static const struct tui_hint runs_help[] = {
	{"", "Runs"},
	{"Up/Down j/k", "move; PgUp/PgDn, Home/End (g/G) jump"},
	{"b / n", "mark the run as the base / the new side"},
	{"Space", "mark or unmark (of two, the older is the base)"},
	{"Enter d", "compare the marked two; one marked: it and the cursor's"},
	{"Enter (none)", "the cursor's run and the one of its kind before it"},
	{"Esc", "clear the filter, else the marks"},
	{"", "Comparison (conform compare BASE NEW)"},
	{"u", "changes only: hide the SAME and unchanged items"},
	{"Left/Right h/l s", "sort by another column, reverse"},
	{"Esc Backspace", "back to the runs"},
	{"/", "filter by any text in a row; Esc clears"},
};

static void runs_destroy(struct tui_pane *p)
{
	struct runs_pane *rp = (struct runs_pane *)p;
	compare_close(rp);
	free(rp->rows);
	tui_table_free(&rp->runs);
	tui_table_free(&rp->items);
	free(rp);
}

static const struct tui_pane_class runs_class = {
	.title = "Runs",
	.draw = runs_draw,
	.key = runs_key,
	.hints = runs_hints,
	.help = runs_help,
	.nhelp = sizeof runs_help / sizeof runs_help[0],
	.filter = runs_filter,
	.show = runs_show,
	.destroy = runs_destroy,
};

struct tui_pane *tui_runs_pane_new(struct tui_app *app)
{
	struct runs_pane *rp = calloc(1, sizeof *rp);
	if (!rp)
		return NULL;
	rp->super.cls = &runs_class;
	rp->app = app;
	tui_table_init(&rp->runs, run_cols, (int)(sizeof run_cols / sizeof run_cols[0]));
	load_runs(rp);
	return &rp->super;
}
