/*
 * tui_runs.c - the runs pane: every run of the database, newest first, with
 * what identifies its kernels (the files after --kernel, and the command
 * line whole), and "conform compare BASE NEW" of two of them without
 * leaving the interface (tui_compare.c).
 *
 * Which two: Space marks up to two, the older being the base, and x swaps
 * the roles.  Enter with one run marked compares it with the run under the
 * cursor (again the older is the base, unless x swapped them); with none,
 * the run under the cursor with the run of its kind and device before it,
 * as "conform compare NEW" does.  n / N go to the next / previous run with
 * failures, as they go to the next failure in the other panes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "db/db.h"
#include "tui/tui_app.h"
#include "tui/tui_command.h"
#include "tui/tui_compare.h"
#include "tui/tui_table.h"

enum { R_MARK, R_ID, R_KIND, R_TAG, R_KERNEL, R_PASSED, R_FAILED, R_SKIPPED, R_DATE, R_STATE,
       R_BUILD, R_DEVICE, R_COMMAND };
/* The columns; the command line is flexible (takes the width left over)
 * only once every other column fits: at 80 columns the run's state matters
 * more than the first words of its command line, which z shows whole. */
#define RUN_COLS(command_flex)                                                      \
	{                                                                           \
		[R_MARK] = {.title = "Mark", .key = 1},                              \
		[R_ID] = {.title = "Id", .right = 1, .numeric = 1, .key = 1},        \
		[R_KIND] = {.title = "Kind"},                                        \
		[R_TAG] = {.title = "Tag", .flex = 1},                               \
		/* Left off first when every run says "" (no kernel file). */       \
		[R_KERNEL] = {.title = "Kernel", .fold = 1},                         \
		[R_PASSED] = {.title = "Pass", .right = 1, .numeric = 1},            \
		[R_FAILED] = {.title = "Fail", .right = 1, .numeric = 1},            \
		[R_SKIPPED] = {.title = "Skip", .right = 1, .numeric = 1},           \
		[R_DATE] = {.title = "Date"},                                        \
		[R_STATE] = {.title = "State"},                                      \
		[R_BUILD] = {.title = "Build"},                                      \
		[R_DEVICE] = {.title = "Device"},                                    \
		[R_COMMAND] = {.title = "Command", .flex = command_flex},            \
	}
static const struct tui_table_col run_cols[] = RUN_COLS(0);
static const struct tui_table_col run_cols_wide[] = RUN_COLS(1);
#define NRUN_COLS ((int)(sizeof run_cols / sizeof run_cols[0]))

struct runs_pane {
	struct tui_pane super;
	struct tui_app *app;
	struct tui_table runs;
	struct db_run_row *rows;
	size_t nrows;
	int64_t mark[2];              /* the marked runs, 0: none */
	int swapped;                  /* x: the newer is the base */
	char error[256];
	int comparing;                /* the comparison is on screen */
	struct tui_compare cmp;
};

struct files_out {
	char *buf;
	size_t len, used;
};

static void add_file(void *ctx, const char *option, const char *file, size_t flen)
{
	struct files_out *o = ctx;
	int dir = strcmp(option, "--kernels") == 0;
	if (o->used + flen + 3 < o->len)
		o->used += (size_t)snprintf(o->buf + o->used, o->len - o->used, "%s%.*s%s", o->used ? " " : "",
					    (int)flen, file, dir ? "/" : "");
}

/* The kernel files a command line names, space-separated (a --kernels
 * folder ends with "/"); "" for a run of built-in variants. */
static void kernel_files(const char *cmd, char *buf, size_t len)
{
	struct files_out o = {buf, len, 0};
	buf[0] = '\0';
	tui_command_kernel_options(cmd, add_file, &o);
}

/* The two runs marked, the base first, as their ages and x say; 0 when a
 * slot is empty. */
static void marked_pair(const struct runs_pane *rp, int64_t *base, int64_t *cand)
{
	int64_t a = rp->mark[0], b = rp->mark[1];
	int64_t older = a && b ? (a < b ? a : b) : a ? a : b;
	int64_t newer = a && b ? (a < b ? b : a) : 0;
	*base = rp->swapped && newer ? newer : older;
	*cand = rp->swapped && newer ? older : newer;
}

static void fill_runs(struct runs_pane *rp)
{
	int64_t base, cand;
	char kernels[TUI_CELL_MAX];
	marked_pair(rp, &base, &cand);
	tui_table_begin(&rp->runs);
	for (size_t i = 0; i < rp->nrows; i++) {
		const struct db_run_row *r = &rp->rows[i];
		struct tui_table_row *row = tui_table_add(&rp->runs);
		if (!row)
			break;
		size_t order = row->order;
		memset(row, 0, sizeof *row);
		for (int c = 0; c < TUI_TABLE_COLS; c++)
			row->key[c] = NAN;
		row->order = order;
		row->id = (long)r->id;
		row->failed = r->failed > 0;
		const char *mark = r->id == base ? (cand ? "base" : "mark") : r->id == cand ? "new" : "";
		tui_table_set(row, R_MARK, NAN, A_BOLD, "%s", mark);
		tui_table_set(row, R_ID, (double)r->id, 0, "%lld", (long long)r->id);
		tui_table_set(row, R_KIND, NAN, 0, "%s", run_kind_name(r->kind));
		tui_table_set(row, R_TAG, NAN, 0, "%s", r->tag);
		kernel_files(r->command_line, kernels, sizeof kernels);
		tui_table_set(row, R_KERNEL, NAN, 0, "%s", kernels);
		if (r->passed >= 0) {
			tui_table_set(row, R_PASSED, r->passed, 0, "%d", r->passed);
			tui_table_set(row, R_FAILED, r->failed, r->failed ? tui_term_status_attr(STATUS_FAIL) : 0,
				      "%d", r->failed);
			tui_table_set(row, R_SKIPPED, r->skipped, 0, "%d", r->skipped);
		}
		/* "2026-11-25T05:41:19Z" as "2026-11-25 05:41". */
		tui_table_set(row, R_DATE, NAN, 0, "%.10s %.5s", r->started_at,
			      strlen(r->started_at) > 11 ? r->started_at + 11 : "");
		tui_table_set(row, R_STATE, NAN,
			      strcmp(r->state, "complete") == 0 ? 0 : tui_term_attr(TUI_WARN), "%s", r->state);
		tui_table_set(row, R_BUILD, NAN, 0, "%s", r->git_revision[0] ? r->git_revision : "-");
		tui_table_set(row, R_DEVICE, NAN, tui_term_attr(TUI_DIM), "%s", db_device_short(r->device));
		tui_table_set(row, R_COMMAND, NAN, tui_term_attr(TUI_DIM), "%s", r->command_line);
	}
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

/* The two runs Enter compares (see the top of the file): 0, or -1 after a
 * note saying why there are none. */
static int pick_pair(struct runs_pane *rp, int64_t *base, int64_t *cand)
{
	const struct tui_table_row *cur = tui_table_current(&rp->runs);
	int64_t at = cur ? (int64_t)cur->id : 0;
	int64_t one = rp->mark[0] ? rp->mark[0] : rp->mark[1];
	char err[256];

	if (rp->mark[0] && rp->mark[1]) {
		marked_pair(rp, base, cand);
		return 0;
	}
	if (!at) {
		tui_screen_note(rp->super.screen, "no run to compare");
		return -1;
	}
	if (one && one != at) {
		int64_t older = one < at ? one : at, newer = one < at ? at : one;
		*base = rp->swapped ? newer : older;
		*cand = rp->swapped ? older : newer;
		return 0;
	}
	const struct db_run_row *run = NULL;
	for (size_t i = 0; i < rp->nrows; i++)
		if (rp->rows[i].id == at)
			run = &rp->rows[i];
	if (!run || db_runs_newest(rp->app->db, (int)run->kind, run->device_id, at, 0, base, err,
				   sizeof err) <= 0) {
		tui_screen_note(rp->super.screen, "no earlier %s run on this device: mark two with Space",
				run ? run_kind_name(run->kind) : "");
		return -1;
	}
	*cand = at;
	return 0;
}

/* Space: marks the run under the cursor, or unmarks it. */
static void toggle_mark(struct runs_pane *rp, int64_t id)
{
	if (id == rp->mark[0])
		rp->mark[0] = 0;
	else if (id == rp->mark[1])
		rp->mark[1] = 0;
	else if (!rp->mark[0])
		rp->mark[0] = id;
	else if (!rp->mark[1])
		rp->mark[1] = id;
	else
		tui_screen_note(rp->super.screen, "two runs are marked: Space on one unmarks it");
}

/* The list and the comparison each have a filter, the prompt's text being
 * the shown one's: a run's words (a tag, "bench") name no item of its
 * comparison, and an item's no run. */
static void show_list(struct runs_pane *rp)
{
	rp->comparing = 0;
	text_copy(rp->super.filter, sizeof rp->super.filter, rp->runs.filter);
}

/* Opens the comparison of base and cand with the filter text (the list's
 * Enter: none; x: the comparison's own). */
static void compare(struct runs_pane *rp, int64_t base, int64_t cand, const char *filter)
{
	char err[256], text[TUI_FILTER_MAX];
	text_copy(text, sizeof text, filter);
	if (tui_compare_open(&rp->cmp, base, cand, text, err, sizeof err) < 0) {
		show_list(rp);
		tui_screen_note(rp->super.screen, "compare: %s", err);
		return;
	}
	rp->comparing = 1;
	text_copy(rp->super.filter, sizeof rp->super.filter, text);
}

static void draw_list(struct runs_pane *rp, const struct tui_rect *r)
{
	int64_t base, cand;
	char marks[96] = "";
	marked_pair(rp, &base, &cand);
	if (cand)
		snprintf(marks, sizeof marks, "   base: run %lld  new: run %lld", (long long)base,
			 (long long)cand);
	else if (base)
		snprintf(marks, sizeof marks, "   marked: run %lld%s", (long long)base,
			 rp->swapped ? " (x: the newer is the base)" : "");
	int y = r->y;
	tui_putf(y++, r->x, r->w, A_BOLD, "Runs  %zu%s", rp->runs.nview, marks);
	if (rp->error[0])
		tui_put(y++, r->x, r->w, tui_term_status_attr(STATUS_ERROR), rp->error);
	struct tui_rect tr = {y, r->x, r->y + r->h - y, r->w};
	int widths[TUI_TABLE_COLS], all_but_command = 1;
	rp->runs.cols = run_cols;
	tui_table_layout(&rp->runs, r->w, widths);
	for (int c = 0; c < R_COMMAND; c++)
		if (!widths[c] && c != R_KERNEL) /* the kernel column folds when all say "" */
			all_but_command = 0;
	rp->runs.cols = all_but_command ? run_cols_wide : run_cols;
	tui_table_draw(&rp->runs, &tr, 1);
	if (!rp->nrows)
		tui_putf(y + 2, r->x + 2, r->w - 4, A_BOLD, "No runs stored yet in %s.", rp->app->db_path);
	else if (!rp->runs.nview)
		tui_put(y + 2, r->x + 2, r->w - 4, tui_term_attr(TUI_DIM), "no run matches the filter");
}

static void runs_draw(struct tui_pane *p, const struct tui_rect *r)
{
	struct runs_pane *rp = (struct runs_pane *)p;
	if (rp->comparing)
		tui_compare_draw(&rp->cmp, r);
	else
		draw_list(rp, r);
}

/* x: the base becomes the new side and the new the base; in the
 * comparison, it compares again the other way. */
static void swap_roles(struct runs_pane *rp)
{
	rp->swapped = !rp->swapped;
	fill_runs(rp);
	if (rp->comparing)
		compare(rp, rp->cmp.cand->run.id, rp->cmp.base->run.id, rp->cmp.items.filter);
}

static int runs_key(struct tui_pane *p, int key)
{
	struct runs_pane *rp = (struct runs_pane *)p;
	if (key == 'x') {
		swap_roles(rp);
		return 1;
	}
	if (rp->comparing) {
		if (tui_compare_key(&rp->cmp, key))
			return 1;
		if (key == TUI_KEY_ESC || key == KEY_BACKSPACE || key == 127 || key == 8) {
			if (p->filter[0]) {
				p->filter[0] = '\0';
				tui_compare_filter(&rp->cmp, "");
			} else {
				show_list(rp);
			}
			return 1;
		}
		return 0;
	}
	const struct tui_table_row *cur = tui_table_current(&rp->runs);
	int64_t base, cand;
	if (key == ' ') {
		if (cur) {
			toggle_mark(rp, (int64_t)cur->id);
			fill_runs(rp);
		}
		return 1;
	}
	if (key == 'd' || TUI_IS_ENTER(key)) {
		if (pick_pair(rp, &base, &cand) == 0)
			compare(rp, base, cand, "");
		return 1;
	}
	if (key == TUI_KEY_ESC) {
		if (p->filter[0])
			p->filter[0] = '\0';
		else
			rp->mark[0] = rp->mark[1] = 0, rp->swapped = 0;
		text_copy(rp->runs.filter, sizeof rp->runs.filter, p->filter);
		fill_runs(rp);
		return 1;
	}
	if (!tui_table_key(&rp->runs, key))
		return 0;
	if (rp->runs.note[0])
		tui_screen_note(p->screen, "%s",
				key == 'n' || key == 'N' ? "no run with failures" : rp->runs.note);
	return 1;
}

static void runs_filter(struct tui_pane *p, const char *text)
{
	struct runs_pane *rp = (struct runs_pane *)p;
	(void)text;
	if (rp->comparing)
		tui_compare_filter(&rp->cmp, p->filter);
	else
		tui_table_filter(&rp->runs, p->filter);
}

static void runs_show(struct tui_pane *p)
{
	load_runs((struct runs_pane *)p);
}

static const struct tui_hint list_hints[] = {
	{"Spc", "Mark"}, {"x", "Swap"}, {"Enter", "Compare"}, {"n", "Failed"}, {"/", "Filter"},
};
static const struct tui_hint compare_hints[] = {
	{"Esc", "Runs"}, {"Enter", "Item"}, {"u", "Changes"}, {"n", "Next"}, {"x", "Swap"},
};
static const struct tui_hint compare_hints_all[] = {
	{"Esc", "Runs"}, {"Enter", "Item"}, {"u", "All"}, {"n", "Next"}, {"x", "Swap"},
};

static size_t runs_hints(struct tui_pane *p, const struct tui_hint **out)
{
	struct runs_pane *rp = (struct runs_pane *)p;
	*out = !rp->comparing ? list_hints : rp->cmp.changes_only ? compare_hints_all : compare_hints;
	return 5;
}

static const struct tui_hint runs_help[] = {
	{"", "Runs"},
	{"Up/Down j/k", "move; PgUp/PgDn, Home/End (g/G) jump"},
	{"Space", "mark or unmark (of two, the older is the base)"},
	{"x", "swap the base and the new side"},
	{"Enter d", "compare the marked two; one marked: it and the cursor's"},
	{"Enter (none)", "the cursor's run and the one of its kind before it"},
	{"n / N", "the next / previous run with failures"},
	{"z", "the run in full: kernel files, command line"},
	{"Esc", "clear the filter, else the marks"},
	{"", "Comparison (conform compare BASE NEW)"},
	{"Enter", "the item in full: each side's status, observed, message, timing"},
	{"n / N", "the next / previous regression, slower or changed status"},
	{"u", "changes only: hide the SAME and unchanged items"},
	{"x", "compare the other way round"},
	{"Left/Right h/l", "scroll the columns; the verdict, variant or case, n, configuration stay"},
	{"< > s", "sort by the column before / after (a click on a heading too), reverse"},
	{"Esc Backspace", "close the item, else clear the filter, else back to the runs"},
	{"/", "filter by any text in a row (the list keeps its own)"},
};

static void runs_destroy(struct tui_pane *p)
{
	struct runs_pane *rp = (struct runs_pane *)p;
	tui_compare_free(&rp->cmp);
	free(rp->rows);
	tui_table_free(&rp->runs);
	free(rp);
}

static int runs_mouse(struct tui_pane *p, const struct tui_mouse *m)
{
	struct runs_pane *rp = (struct runs_pane *)p;
	return tui_pane_hit(p, tui_table_mouse(rp->comparing ? &rp->cmp.items : &rp->runs, m));
}

static const struct tui_pane_class runs_class = {
	.title = "Runs",
	.draw = runs_draw,
	.key = runs_key,
	.mouse = runs_mouse,
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
	tui_table_init(&rp->runs, run_cols, NRUN_COLS);
	tui_compare_init(&rp->cmp, app);
	load_runs(rp);
	return &rp->super;
}
