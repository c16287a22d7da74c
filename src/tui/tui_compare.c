/*
 * tui_compare.c - the runs pane's comparison of two runs (tui_compare.h).
 *
 * The comparison is compare.c's, on the sides "conform compare" builds for
 * two run ids (compare_side_of_run, compare_side_load, compare_run, at the
 * default threshold), and its summary lines and the words of a change are
 * compare_print.c's: this file decides nothing of its own, it only lays the
 * items out as a table.  The notable items come first - regressions,
 * slower, fixed, faster, other status changes (an observed change among
 * them), new, removed - and then the unchanged ones, which u hides.
 *
 * An item's detail (Enter) says what each side was: its run, status,
 * observed behaviour, median and interval in us (the table's unit), samples
 * and message, and what it spent where its GPU measured energy; the message
 * is read from the database by the result's id, since a comparison's
 * entries do not carry it.  Energy is judged apart from time, as conform
 * compare does (compare_energy): a column, a line of counts and a line of
 * the item's detail, each only where some item has energy.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/params.h"
#include "common/text.h"
#include "compare/compare_print.h"
#include "compare/compare_side.h"
#include "db/db.h"
#include "tui/tui_app.h"
#include "tui/tui_compare.h"
#include "tui/tui_energy.h"

/* The items of a comparison: the same fields in two orders.  A conformance
 * comparison is read by case and status; a tune's, bench's or sweep's by
 * variant, configuration and change of median, which must stay on screen
 * at 80 columns. */
enum { F_VERDICT, F_CASE, F_STATUS, F_OBSERVED, F_N, F_DTYPE, F_CONFIG, F_CHANGE, F_INTERVAL, F_BASE,
       F_NEW, F_ENERGY, F_COUNT };
struct tui_compare_layout {
	const struct tui_table_col *cols;
	int ncols;
	int col[F_COUNT];             /* the table column of each field */
};

static const struct tui_table_col timed_cols[] = {
	{.title = "Verdict", .numeric = 1},
	{.title = "Variant", .key = 1},
	{.title = "n", .right = 1, .numeric = 1, .key = 1},
	{.title = "Configuration", .flex = 1, .min = 36, .key = 1, .params = 1},
	{.title = "Change", .right = 1, .numeric = 1},
	/* The energy's verdict, apart from time's: there only when some
	 * item has energy on both sides. */
	{.title = "Energy", .right = 1, .numeric = 1, .sparse = 1},
	{.title = "Type", .fold = 1},
	{.title = "Base us", .right = 1, .numeric = 1},
	{.title = "New us", .right = 1, .numeric = 1},
	{.title = "Interval (95%)"},
	{.title = "Status"},
	{.title = "Observed", .fold = 1},
};
static const struct tui_compare_layout timed_layout = {
	timed_cols, (int)(sizeof timed_cols / sizeof timed_cols[0]),
	{[F_VERDICT] = 0, [F_CASE] = 1, [F_N] = 2, [F_CONFIG] = 3, [F_CHANGE] = 4, [F_ENERGY] = 5,
	 [F_DTYPE] = 6, [F_BASE] = 7, [F_NEW] = 8, [F_INTERVAL] = 9, [F_STATUS] = 10, [F_OBSERVED] = 11},
};

static const struct tui_table_col case_cols[] = {
	{.title = "Change", .numeric = 1},
	{.title = "Case", .flex = 1, .min = 30, .key = 1},
	{.title = "Status"},
	{.title = "Observed", .fold = 1},
	{.title = "n", .right = 1, .numeric = 1, .key = 1},
	{.title = "Type", .fold = 1},
	{.title = "Configuration"},
	{.title = "Base us", .right = 1, .numeric = 1},
	{.title = "New us", .right = 1, .numeric = 1},
	{.title = "Change", .right = 1, .numeric = 1},
	{.title = "Interval (95%)"},
	{.title = "Energy", .right = 1, .numeric = 1, .sparse = 1},
};
static const struct tui_compare_layout case_layout = {
	case_cols, (int)(sizeof case_cols / sizeof case_cols[0]),
	{[F_VERDICT] = 0, [F_CASE] = 1, [F_STATUS] = 2, [F_OBSERVED] = 3, [F_N] = 4, [F_DTYPE] = 5,
	 [F_CONFIG] = 6, [F_BASE] = 7, [F_NEW] = 8, [F_CHANGE] = 9, [F_INTERVAL] = 10, [F_ENERGY] = 11},
};

void tui_compare_init(struct tui_compare *c, struct tui_app *app)
{
	memset(c, 0, sizeof *c);
	c->app = app;
	c->log_item = -1;
	tui_log_init(&c->log, 0, 0);
}

void tui_compare_close(struct tui_compare *c)
{
	if (c->have_result)
		compare_result_free(&c->res);
	c->have_result = 0;
	if (c->base)
		compare_side_free(c->base);
	if (c->cand)
		compare_side_free(c->cand);
	free(c->base);
	free(c->cand);
	c->base = c->cand = NULL;
	c->detail = 0;
	c->log_item = -1;
}

void tui_compare_free(struct tui_compare *c)
{
	tui_compare_close(c);
	tui_table_free(&c->items);
	tui_log_free(&c->log);
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

/* The items n / N stop at: what a reader of a comparison looks for first,
 * as a failure is in the other panes. */
static int rank_notable(int rank)
{
	return rank == K_REGRESSION || rank == K_SLOWER || rank == K_STATUS;
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

/* More energy warns (a failure only under conform compare --gate energy),
 * less is good news. */
static attr_t energy_attr(enum energy_verdict v)
{
	switch (v) {
	case ENERGY_VERDICT_MORE: return tui_term_attr(TUI_WARN);
	case ENERGY_VERDICT_LESS: return tui_term_status_attr(STATUS_PASS);
	default: return tui_term_attr(TUI_DIM);
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

static void row_blank(struct tui_table_row *row)
{
	memset(row, 0, sizeof *row);
	for (int c = 0; c < TUI_TABLE_COLS; c++)
		row->key[c] = NAN;
}

/* The configuration as listed: without the operator, "(default)" for none. */
static void config_text(const struct compare_entry *e, char *buf, size_t len)
{
	if (params_without(e->params, "op", buf, len) < 0)
		text_copy(buf, len, e->params);
	if (!buf[0])
		text_copy(buf, len, "(default)");
}

static void fill_item(struct tui_compare *c, const struct compare_item *it, int rank, size_t i)
{
	const int *col = c->layout->col;
	const struct compare_entry *e = it->cand ? it->cand : it->base;
	struct tui_table_row *row = tui_table_add(&c->items);
	char buf[CASE_PARAMS_MAX];
	if (!row)
		return;
	size_t order = row->order;
	row_blank(row);
	row->order = order;
	row->id = (long)i;
	row->failed = rank_notable(rank);
	tui_table_set(row, col[F_VERDICT], rank, rank_attr(rank), "%s", item_label(it, rank));
	tui_table_set(row, col[F_CASE], NAN, 0, "%s", c->layout == &case_layout ? e->case_name : e->variant);
	if (it->base && it->cand && it->base->status != it->cand->status)
		tui_table_set(row, col[F_STATUS], NAN, tui_term_status_attr(it->cand->status), "%s -> %s",
			      status_name(it->base->status), status_name(it->cand->status));
	else
		tui_table_set(row, col[F_STATUS], NAN, tui_term_status_attr(e->status), "%s",
			      status_name(e->status));
	if (it->base && it->cand && strcmp(it->base->observed, it->cand->observed) != 0)
		tui_table_set(row, col[F_OBSERVED], NAN, tui_term_attr(TUI_WARN), "%s -> %s",
			      it->base->observed, it->cand->observed);
	else
		tui_table_set(row, col[F_OBSERVED], NAN, 0, "%s", e->observed);
	tui_shape(buf, sizeof buf, e->n, e->cols);
	tui_table_set(row, col[F_N], (double)e->n, 0, "%s", buf);
	tui_table_set(row, col[F_DTYPE], NAN, 0, "%s", e->dtype);
	config_text(e, buf, sizeof buf);
	tui_table_set(row, col[F_CONFIG], NAN, 0, "%s", buf);
	if (it->base && it->base->timed)
		tui_table_set(row, col[F_BASE], it->base->timing.median_ms, 0, "%.3f",
			      it->base->timing.median_ms * 1e3);
	if (it->cand && it->cand->timed)
		tui_table_set(row, col[F_NEW], it->cand->timing.median_ms, 0, "%.3f",
			      it->cand->timing.median_ms * 1e3);
	if (it->timed) {
		compare_change_text(it, buf, sizeof buf);
		tui_table_set(row, col[F_CHANGE], it->ratio, rank_attr(rank), "%s", buf);
		compare_interval_text(it, buf, sizeof buf);
		tui_table_set(row, col[F_INTERVAL], NAN, rank_attr(rank), "%s", buf);
	}
	/* compare_energy's verdict and ratio; the word too, so that it reads
	 * without colours. */
	if (it->timed && it->energy != ENERGY_VERDICT_NONE)
		tui_table_set(row, col[F_ENERGY], it->energy_ratio, energy_attr(it->energy), "%+.1f%% %s",
			      100 * (it->energy_ratio - 1), compare_energy_name(it->energy));
}

static void fill_items(struct tui_compare *c, const char *filter)
{
	const struct compare_result *r = &c->res;
	char text[TUI_FILTER_MAX];
	text_copy(text, sizeof text, filter); /* filter may be the table's own */
	struct ranked *order = calloc(r->nitems ? r->nitems : 1, sizeof *order);
	tui_table_begin(&c->items);
	if (!order) {
		tui_table_end(&c->items);
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
		if (c->changes_only && order[k].rank == K_SAME)
			continue;
		fill_item(c, &r->items[order[k].i], order[k].rank, order[k].i);
	}
	text_copy(c->items.filter, sizeof c->items.filter, text);
	tui_table_end(&c->items);
	free(order);
}

int tui_compare_open(struct tui_compare *c, int64_t base_id, int64_t new_id, const char *filter,
		     char *err, size_t len)
{
	struct db *db = c->app->db;
	struct compare_filter all = {0};
	int r;

	tui_compare_close(c);
	if (!(c->base = calloc(1, sizeof *c->base)) || !(c->cand = calloc(1, sizeof *c->cand))) {
		snprintf(err, len, "out of memory");
		goto fail;
	}
	if ((r = compare_side_of_run(db, base_id, c->base, err, len)) <= 0 ||
	    (r = compare_side_of_run(db, new_id, c->cand, err, len)) <= 0) {
		if (r == 0)
			snprintf(err, len, "no such run");
		goto fail;
	}
	if (compare_side_load(db, c->base, &all, err, len) < 0 ||
	    compare_side_load(db, c->cand, &all, err, len) < 0)
		goto fail;
	if (compare_run(c->base, c->cand, COMPARE_THRESHOLD_DEFAULT, &c->res) < 0) {
		snprintf(err, len, "out of memory");
		goto fail;
	}
	c->have_result = 1;
	const struct tui_compare_layout *layout =
		c->cand->run.kind == RUN_CONFORMANCE ? &case_layout : &timed_layout;
	if (layout != c->layout) {
		tui_table_free(&c->items);
		tui_table_init(&c->items, layout->cols, layout->ncols);
		c->layout = layout;
	}
	c->items.cursor = c->items.top = 0;
	tui_table_sort(&c->items, -1, 0);
	fill_items(c, filter);
	return 0;
fail:
	tui_compare_close(c);
	return -1;
}

void tui_compare_filter(struct tui_compare *c, const char *filter)
{
	if (c->have_result)
		fill_items(c, filter);
}

/* One side of the detail's item: its run, status and observed behaviour,
 * its timing in us, its message (from the database: "" when it cannot be
 * read) and, where its GPU measured it, what it spent. */
static void detail_side(struct tui_compare *c, const char *name, const struct compare_side *s,
			const struct compare_entry *e)
{
	struct tui_log *d = &c->log;
	char err[256], timing[160], label[32];
	if (!e) {
		tui_log_field(d, name, "not in %s", s->label);
		return;
	}
	const struct timing_stats *t = &e->timing;
	if (t->samples > 0 && t->median_ms > 0) {
		/* Appended, each cut at the buffer's end: a median of any size
		 * (one stored wrong) is text longer than the line. */
		const char *us = tui_term_glyphs()->us;
		snprintf(timing, sizeof timing, "median %.3f %s", t->median_ms * 1e3, us);
		if (t->ci_high_ms > 0)
			text_appendf(timing, sizeof timing, " in [%.3f, %.3f] %s", t->ci_low_ms * 1e3,
				     t->ci_high_ms * 1e3, us);
		else
			text_appendf(timing, sizeof timing, ", no interval stored");
		text_appendf(timing, sizeof timing, ", %d samples", t->samples);
	} else {
		text_copy(timing, sizeof timing, "not timed");
	}
	tui_log_field(d, name, "run %lld: %s, observed %s; %s", (long long)e->run_id, status_name(e->status),
		      e->observed[0] ? e->observed : "-", timing);

	struct db_result_row *row = malloc(sizeof *row); /* kilobytes: not on the stack */
	int got = row ? db_result_read(c->app->db, e->result_id, row, err, sizeof err) : -1;
	snprintf(label, sizeof label, "%s message", name);
	if (got > 0)
		tui_log_field(d, label, "%s", row->message[0] ? row->message : "(none)");
	else
		tui_log_field(d, label, "(not read: %s)",
			      !row ? "out of memory" : got == 0 ? "the result is gone" : err);
	free(row);
	/* What it spent, where its GPU measured it. */
	char spent[64];
	if (tui_energy_text(&t->energy, spent, sizeof spent)[0]) {
		snprintf(label, sizeof label, "%s energy", name);
		tui_log_field(d, label, "%s", spent);
	}
}

/* The detail of item i: the change in conform compare's words ("observed
 * PASS -> PASS (completed-correct -> completed-wrong)"), the problem, then
 * each side. */
static void detail_make(struct tui_compare *c, size_t i)
{
	const struct compare_item *it = &c->res.items[i];
	const struct compare_entry *e = it->cand ? it->cand : it->base;
	struct tui_log *d = &c->log;
	int rank = item_rank(it);
	char shape[48], buf[CASE_PARAMS_MAX];

	tui_log_clear(d);
	c->log_item = (long)i;
	tui_log_add(d, rank_attr(rank) ? rank_attr(rank) : A_BOLD, "%s  %s", item_label(it, rank), e->case_name);
	if (it->change != CHANGE_NONE)
		tui_log_field(d, "change", "%s  %s -> %s  (%s -> %s)", compare_change_name(it->change),
			      it->base ? status_name(it->base->status) : "-",
			      it->cand ? status_name(it->cand->status) : "-", it->base ? it->base->observed : "-",
			      it->cand ? it->cand->observed : "-");
	else if (!it->timed)
		tui_log_field(d, "change", "none: %s (%s) in both", status_name(e->status), e->observed);
	if (it->timed) {
		compare_ratio_text(it, buf, sizeof buf);
		tui_log_field(d, "median", "%s %s, threshold %.3g%%", compare_verdict_name(it->verdict), buf,
			      100 * c->res.threshold);
	}
	/* Said only where a side measured energy: a comparison without any
	 * reads as before. */
	if (it->timed && it->energy != ENERGY_VERDICT_NONE)
		tui_log_field(d, "energy", "%s %+.1f%% per launch, judged apart from time",
			      compare_energy_name(it->energy), 100 * (it->energy_ratio - 1));
	else if (it->timed && (energy_measured(&it->base->timing.energy) ||
			       energy_measured(&it->cand->timing.energy)))
		tui_log_field(d, "energy", "measured on one side only");
	tui_shape(shape, sizeof shape, e->n, e->cols);
	config_text(e, buf, sizeof buf);
	tui_log_field(d, "problem", "%s %s%s%s, %s; configuration %s", e->variant, e->dtype,
		      e->op[0] ? " " : "", e->op, shape, buf);
	detail_side(c, "base", c->base, it->base);
	detail_side(c, "new", c->cand, it->cand);
}

static void draw_side(int y, const struct tui_rect *r, const char *name, const struct compare_side *s)
{
	char text[512];
	compare_side_text(s, text, sizeof text);
	int x = r->x + tui_putf(y, r->x, r->w, A_BOLD, "%-5s%s", name, text);
	tui_putf(y, x, r->x + r->w - x, tui_term_attr(TUI_DIM), " on %s", db_device_short(s->run.device));
}

void tui_compare_draw(struct tui_compare *c, const struct tui_rect *r)
{
	const struct compare_result *res = &c->res;
	char line[512], shown[64], widest[64];
	int y = r->y;
	if (!c->have_result)
		return;
	draw_side(y++, r, "base", c->base);
	draw_side(y++, r, "new", c->cand);
	if (!compare_overlaps(res)) {
		tui_putf(y++, r->x, r->w, tui_term_attr(TUI_WARN),
			 "nothing to compare: no case or configuration is in both %s and %s", c->base->label,
			 c->cand->label);
	} else {
		compare_differences(res, line, sizeof line);
		if (line[0])
			tui_putf(y++, r->x, r->w, tui_term_attr(TUI_WARN), "WARNING: %s", line);
	}
	/* How many items are listed: beside the status counts when its
	 * longest form fits there (so u does not move it), else a line of
	 * its own. */
	snprintf(shown, sizeof shown, "%zu of %zu listed%s", c->items.nview, res->nitems,
		 c->changes_only ? ", changes only" : "");
	snprintf(widest, sizeof widest, "%zu of %zu listed, changes only", res->nitems, res->nitems);
	compare_status_text(res, line, sizeof line);
	int x = r->x + tui_put(y, r->x, r->w, 0, line);
	if (x + 2 + (int)strlen(widest) > r->x + r->w)
		x = r->x, y++;
	tui_put_right(y, x + 2, r->x + r->w - x - 2, tui_term_attr(TUI_DIM), shown);
	y++;
	compare_timing_text(res, line, sizeof line);
	tui_put(y++, r->x, r->w, 0, line);
	if (res->energy_seen) {
		compare_energy_text(res, line, sizeof line);
		tui_putf(y++, r->x, r->w, 0, "energy: %s", line);
	}
	/* What every row has (a folded column, the items of a configuration
	 * every row shares) goes on a line of its own, under the counts. */
	char folded[256];
	tui_table_folded(&c->items, folded, sizeof folded);
	int folded_y = folded[0] ? y++ : -1;

	int table_h = r->y + r->h - y;
	const struct tui_table_row *cur = tui_table_current(&c->items);
	if (c->detail) {
		/* The detail gets what it needs; the table keeps a few rows. */
		if (!cur)
			tui_log_clear(&c->log), c->log_item = -1;
		else if (cur->id != c->log_item)
			detail_make(c, (size_t)cur->id);
		table_h = tui_log_table_rows(&c->log, table_h);
	}
	struct tui_rect tr = {y, r->x, table_h, r->w};
	tui_table_draw(&c->items, &tr, 1);
	tui_table_folded(&c->items, folded, sizeof folded);
	if (folded_y >= 0)
		tui_putf(folded_y, r->x, r->w, tui_term_attr(TUI_DIM), "every row: %s", folded);
	if (!c->items.nview)
		tui_put(y + 2, r->x + 2, r->w - 4, tui_term_attr(TUI_DIM),
			c->changes_only ? "nothing changed (u lists every item)" : "no item matches the filter");
	if (!c->detail)
		return;
	tui_log_draw_below(&c->log, r, y + table_h, "item (Enter closes)");
}

int tui_compare_key(struct tui_compare *c, int key)
{
	if (TUI_IS_ENTER(key)) {
		c->detail = !c->detail;
		c->log_item = -1;
		return 1;
	}
	if (key == TUI_KEY_ESC || key == KEY_BACKSPACE || key == 127 || key == 8) {
		if (!c->detail)
			return 0;
		c->detail = 0;
		return 1;
	}
	if (key == 'u') {
		c->changes_only = !c->changes_only;
		fill_items(c, c->items.filter);
		return 1;
	}
	if (!tui_table_key(&c->items, key))
		return 0;
	if (!c->items.note[0])
		return 1;
	if (key == 'n' || key == 'N')
		tui_screen_note(&c->app->screen, "no regression, slower configuration or change of status");
	else
		tui_screen_note(&c->app->screen, "%s", c->items.note);
	return 1;
}
