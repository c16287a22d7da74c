/*
 * tui_catalog.c - the catalog pane: kernel families, their variants and the
 * suites' cases as a tree with checkboxes, and on the right what the row
 * under the cursor is: a variant's launch contract and tunables, a case's
 * problem and its last stored result.
 *
 * The tree is built once from the worker's catalog and the suites (a variant
 * that a suite names but this build lacks still appears, marked "not
 * built"); checks live in app->checked, one per suite case, so the rows are
 * rebuilt from the model after every change.  With a filter, a case shows
 * when any text its row shows or stands for matches (substring, or a glob
 * when the text has * ? or [): its name, its mark (a failing status, an
 * expectation), its type and parameters, its variant's or family's name.
 * Everything shown starts unfolded and folds as without a filter (a fold
 * state of its own, so clearing the filter gives the tree back as it was),
 * and the counts are of the matches: "3 of 24".  A case
 * whose latest stored result is a failure (status_tally's) carries that
 * status, read once each time the pane comes on screen.
 *
 * The variant under the cursor is the application's to read
 * (app->catalog_variant, which the plot pane follows): the pane writes it
 * after everything that can move the cursor - a key, a filter, coming on
 * screen.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dtype.h"
#include "common/text.h"
#include "common/vec.h"
#include "db/db.h"
#include "tui/tui_app.h"
#include "tui/tui_list.h"
#include "tui/tui_log.h"

enum row_kind { ROW_FAMILY = 1, ROW_VARIANT, ROW_CASE };
#define ROW_ID(kind, i) (((long)(kind) << 40) | (long)(i))
#define ROW_KIND(id) ((enum row_kind)((id) >> 40))
#define ROW_INDEX(id) ((size_t)((id) & ((1L << 40) - 1)))

struct cat_variant {
	char name[CASE_VARIANT_MAX];
	const struct catalog_entry *e; /* NULL: named by a suite, not in this build */
	size_t family;
	size_t *cases;                 /* suite indices */
	size_t ncases, cap;
	int open;
	int open_filtered;             /* its fold under a filter */
	int visible;                   /* under the filter */
};

struct cat_family {
	char name[CASE_VARIANT_MAX];
	int open;
	int open_filtered;
};

struct catalog_pane {
	struct tui_pane super;
	struct tui_app *app;
	int tree_w;                    /* the tree's widest row (tree_width) */
	struct cat_family *fam;
	size_t nfam, fam_cap;
	struct cat_variant *var;
	size_t nvar, var_cap;
	unsigned char *case_visible;   /* per suite case */
	signed char *last;             /* per suite case: its latest stored status, -1: none */
	struct tui_list list;
	struct tui_log detail;
};

static size_t family_of(struct catalog_pane *cp, const char *variant)
{
	char name[CASE_VARIANT_MAX];
	text_copy(name, sizeof name, variant);
	name[strcspn(name, ".")] = '\0';
	for (size_t i = 0; i < cp->nfam; i++)
		if (strcmp(cp->fam[i].name, name) == 0)
			return i;
	if (vec_reserve(cp->fam, cp->nfam, cp->fam_cap, 1) < 0)
		return 0;
	struct cat_family *f = &cp->fam[cp->nfam];
	memset(f, 0, sizeof *f);
	text_copy(f->name, sizeof f->name, name);
	f->open = 1;
	return cp->nfam++;
}

static struct cat_variant *variant_add(struct catalog_pane *cp, const char *name,
				       const struct catalog_entry *e)
{
	if (vec_reserve(cp->var, cp->nvar, cp->var_cap, 1) < 0)
		return NULL;
	struct cat_variant *v = &cp->var[cp->nvar++];
	memset(v, 0, sizeof *v);
	text_copy(v->name, sizeof v->name, name);
	v->e = e;
	v->family = family_of(cp, name);
	v->visible = 1;
	return v;
}

static struct cat_variant *variant_find(struct catalog_pane *cp, const char *name)
{
	for (size_t i = 0; i < cp->nvar; i++)
		if (strcmp(cp->var[i].name, name) == 0)
			return &cp->var[i];
	return NULL;
}

static void build_model(struct catalog_pane *cp)
{
	const struct tui_app *app = cp->app;
	for (size_t i = 0; i < app->cat.count; i++)
		variant_add(cp, app->cat.v[i].name, &app->cat.v[i]);
	for (size_t i = 0; i < app->suite.count; i++) {
		const struct case_spec *c = &app->suite.cases[i];
		struct cat_variant *v = variant_find(cp, c->variant);
		if (!v)
			v = variant_add(cp, c->variant, NULL);
		if (!v)
			continue;
		(void)vec_push(v->cases, v->ncases, v->cap, i); /* a case fewer when out of memory */
	}
}

static int matches(const char *filter, const char *name)
{
	if (!*filter)
		return 1;
	if (strpbrk(filter, "*?["))
		return fnmatch(filter, name, 0) == 0;
	return strcasestr(name, filter) != NULL;
}

/* A variant row matches by what it shows and stands for: its name, its
 * family's, "not built". */
static int variant_matches(const struct catalog_pane *cp, const char *f, const struct cat_variant *v)
{
	return matches(f, v->name) || matches(f, cp->fam[v->family].name) ||
	       (!v->e && matches(f, "not built"));
}

/* A case row matches by every text it shows or stands for: its name, its
 * mark (its latest failing status, or its expectation when not a pass:
 * /hang finds the cases expected to hang whatever their names), its
 * element type and parameters (the detail's).  Its variant's and family's
 * names, the rows it sits under, show every case of the variant
 * (apply_filter). */
static int case_matches(const struct catalog_pane *cp, const char *f, size_t i)
{
	const struct case_spec *c = &cp->app->suite.cases[i];
	if (matches(f, c->name) || matches(f, dtype_name(c->dtype)) || (c->params[0] && matches(f, c->params)))
		return 1;
	if (c->expect != EXPECT_PASS && matches(f, expect_name(c->expect)))
		return 1;
	if (cp->last[i] >= 0 && status_tally((enum status)cp->last[i]) == TALLY_FAILED &&
	    matches(f, status_name((enum status)cp->last[i])))
		return 1;
	return 0;
}

static void apply_filter(struct catalog_pane *cp)
{
	const char *f = cp->super.filter;
	for (size_t v = 0; v < cp->nvar; v++) {
		struct cat_variant *var = &cp->var[v];
		int by_name = !*f || variant_matches(cp, f, var);
		var->visible = by_name;
		for (size_t k = 0; k < var->ncases; k++) {
			size_t i = var->cases[k];
			cp->case_visible[i] = by_name || case_matches(cp, f, i);
			var->visible |= cp->case_visible[i];
		}
	}
}

/* Checked and total cases of a variant, or of a family (v == NULL), and
 * how many of them the filter shows (may be NULL). */
static void count_checked(const struct catalog_pane *cp, size_t family, const struct cat_variant *v,
			  size_t *checked, size_t *total)
{
	*checked = *total = 0;
	for (size_t j = 0; j < cp->nvar; j++) {
		const struct cat_variant *var = &cp->var[j];
		if (v ? var != v : var->family != family)
			continue;
		for (size_t k = 0; k < var->ncases; k++) {
			*checked += cp->app->checked[var->cases[k]] != 0;
			(*total)++;
		}
	}
}

static size_t count_shown(const struct catalog_pane *cp, size_t family, const struct cat_variant *v)
{
	size_t shown = 0;
	for (size_t j = 0; j < cp->nvar; j++) {
		const struct cat_variant *var = &cp->var[j];
		if ((v ? var != v : var->family != family) || !var->visible)
			continue;
		for (size_t k = 0; k < var->ncases; k++)
			shown += cp->case_visible[var->cases[k]] != 0;
	}
	return shown;
}

static enum tui_check check_state(size_t checked, size_t total)
{
	if (!total)
		return TUI_CHECK_NONE;
	return !checked ? TUI_CHECK_OFF : checked == total ? TUI_CHECK_ON : TUI_CHECK_SOME;
}

/* "2/7" checked of all, "7" with none checked; under a filter "3 of 24",
 * the matches of all, since the checkbox already says what is checked. */
static void count_note(const struct catalog_pane *cp, char *buf, size_t len, size_t family,
		       const struct cat_variant *v, size_t checked, size_t total)
{
	if (cp->super.filter[0])
		snprintf(buf, len, "%zu of %zu", count_shown(cp, family, v), total);
	else if (checked)
		snprintf(buf, len, "%zu/%zu", checked, total);
	else
		snprintf(buf, len, "%zu", total);
}

/* The latest stored status of every suite case: the same read as the
 * detail's "last:" line, kept for the tree's marks. */
static void load_last(struct catalog_pane *cp)
{
	const struct tui_app *app = cp->app;
	for (size_t i = 0; i < app->suite.count; i++) {
		struct db_result_row last;
		char err[256];
		int got = app->db ? db_case_last(app->db, app->suite.cases[i].name, &last, err, sizeof err) : 0;
		cp->last[i] = got > 0 ? (signed char)last.status : -1;
	}
}

static void rebuild_rows(struct catalog_pane *cp)
{
	int filtering = cp->super.filter[0] != '\0';
	struct tui_list *l = &cp->list;
	tui_list_begin(l);
	for (size_t f = 0; f < cp->nfam; f++) {
		size_t last_v = SIZE_MAX;
		for (size_t v = 0; v < cp->nvar; v++)
			if (cp->var[v].family == f && cp->var[v].visible)
				last_v = v;
		if (last_v == SIZE_MAX)
			continue;
		size_t checked, total;
		struct tui_list_row *row = tui_list_add(l);
		if (!row)
			return;
		int fam_open = filtering ? cp->fam[f].open_filtered : cp->fam[f].open;
		count_checked(cp, f, NULL, &checked, &total);
		row->fold = fam_open ? TUI_FOLD_OPEN : TUI_FOLD_CLOSED;
		row->check = check_state(checked, total);
		text_copy(row->label, sizeof row->label, cp->fam[f].name);
		row->label_attr = A_BOLD;
		count_note(cp, row->note, sizeof row->note, f, NULL, checked, total);
		row->id = ROW_ID(ROW_FAMILY, f);
		if (!fam_open)
			continue;
		for (size_t v = 0; v <= last_v; v++) {
			struct cat_variant *var = &cp->var[v];
			if (var->family != f || !var->visible)
				continue;
			row = tui_list_add(l);
			if (!row)
				return;
			int var_open = (filtering ? var->open_filtered : var->open) && var->ncases;
			count_checked(cp, f, var, &checked, &total);
			row->depth = 1;
			row->last = v == last_v;
			row->fold = !var->ncases ? TUI_FOLD_NONE : var_open ? TUI_FOLD_OPEN : TUI_FOLD_CLOSED;
			row->check = check_state(checked, total);
			text_copy(row->label, sizeof row->label, var->name);
			if (!var->e) {
				text_copy(row->note, sizeof row->note, "not built");
				row->label_attr = tui_term_attr(TUI_DIM);
			} else if (!total) {
				text_copy(row->note, sizeof row->note, "no cases");
			} else {
				count_note(cp, row->note, sizeof row->note, f, var, checked, total);
			}
			row->id = ROW_ID(ROW_VARIANT, v);
			if (!var_open)
				continue;
			size_t last_c = SIZE_MAX;
			for (size_t k = 0; k < var->ncases; k++)
				if (cp->case_visible[var->cases[k]])
					last_c = k;
			for (size_t k = 0; k < var->ncases; k++) {
				size_t i = var->cases[k];
				if (!cp->case_visible[i])
					continue;
				const struct case_spec *c = &cp->app->suite.cases[i];
				row = tui_list_add(l);
				if (!row)
					return;
				row->depth = 2;
				row->last = k == last_c;
				row->check = cp->app->checked[i] ? TUI_CHECK_ON : TUI_CHECK_OFF;
				text_copy(row->label, sizeof row->label, c->name);
				if (cp->last[i] >= 0 && status_tally((enum status)cp->last[i]) == TALLY_FAILED) {
					enum status st = (enum status)cp->last[i];
					text_copy(row->note, sizeof row->note, status_name(st));
					row->note_attr = tui_term_status_attr(st);
				} else if (c->expect != EXPECT_PASS) {
					text_copy(row->note, sizeof row->note, expect_name(c->expect));
					row->note_attr = tui_term_attr(TUI_WARN);
				}
				row->id = ROW_ID(ROW_CASE, i);
			}
		}
	}
	tui_list_end(l);
}

/* Toggles every visible case of a variant (v) or family (v == NULL): all
 * checked becomes none, anything else becomes all. */
static void toggle_group(struct catalog_pane *cp, size_t family, const struct cat_variant *v)
{
	int all = 1;
	for (int pass = 0; pass < 2; pass++)
		for (size_t j = 0; j < cp->nvar; j++) {
			const struct cat_variant *var = &cp->var[j];
			if ((v ? var != v : var->family != family) || !var->visible)
				continue;
			for (size_t k = 0; k < var->ncases; k++) {
				size_t i = var->cases[k];
				if (!cp->case_visible[i])
					continue;
				if (pass == 0)
					all &= cp->app->checked[i] != 0;
				else
					cp->app->checked[i] = !all;
			}
		}
}

static void toggle_all_visible(struct catalog_pane *cp)
{
	int all = 1;
	for (size_t i = 0; i < cp->app->suite.count; i++)
		if (cp->case_visible[i] && !cp->app->checked[i])
			all = 0;
	for (size_t i = 0; i < cp->app->suite.count; i++)
		if (cp->case_visible[i])
			cp->app->checked[i] = !all;
}

static void show_variant(struct catalog_pane *cp, const struct cat_variant *v)
{
	struct tui_log *d = &cp->detail;
	size_t checked, total;
	count_checked(cp, v->family, v, &checked, &total);
	tui_log_add(d, tui_term_attr(TUI_HEADER), "%s", v->name);
	if (!v->e) {
		tui_log_add(d, tui_term_attr(TUI_WARN), "not built into this conform: its cases are skipped");
	} else {
		tui_log_add(d, 0, "%s", v->e->summary);
		tui_log_add(d, 0, "%s", "");
		tui_log_field(d, "runs on", "%s", v->e->gpu ? "the GPU" : "the host (no GPU)");
		tui_log_field(d, "dtypes", "%s", v->e->dtypes);
		tui_log_field(d, "contract", "%s", v->e->contract);
		tui_log_field(d, "tunables", "%s", v->e->tunables[0] ? v->e->tunables : "none");
		if (v->e->space[0])
			tui_log_field(d, "tuning space", "%s", v->e->space);
	}
	tui_log_field(d, "cases", "%zu in the suites, %zu checked", total, checked);
}

static void show_case(struct catalog_pane *cp, size_t i)
{
	struct tui_log *d = &cp->detail;
	const struct case_spec *c = &cp->app->suite.cases[i];
	const struct cat_variant *v = variant_find(cp, c->variant);
	tui_log_add(d, tui_term_attr(TUI_HEADER), "%s", c->name);
	tui_log_field(d, "variant", "%s", c->variant);
	if (c->cols)
		tui_log_field(d, "problem", "%s, %lld row%s of %lld", dtype_name(c->dtype),
			      (long long)c->n, c->n == 1 ? "" : "s", (long long)c->cols);
	else
		tui_log_field(d, "problem", "%s, n = %lld", dtype_name(c->dtype), (long long)c->n);
	if (c->params[0])
		tui_log_field(d, "params", "%s", c->params);
	tui_log_field(d, "expect", "%s", expect_name(c->expect));
	if (c->timeout_s > 0)
		tui_log_field(d, "timeout", "%.1f s", c->timeout_s);
	const char *slash = strrchr(c->file, '/');
	if (c->line)
		tui_log_field(d, "defined at", "%s:%d", slash ? slash + 1 : c->file, c->line);
	else
		tui_log_field(d, "defined by", "%s", c->file); /* tui_app_add_default_cases */
	struct db_result_row last;
	char err[256];
	int got = cp->app->db ? db_case_last(cp->app->db, c->name, &last, err, sizeof err) : 0;
	if (got > 0) {
		tui_log_add(d, 0, "%s", "");
		tui_log_add(d, tui_term_status_attr(last.status), "last: %s in run #%lld (%s)",
			    status_name(last.status), (long long)last.run_id, last.observed);
		if (last.message[0])
			tui_log_add(d, tui_term_attr(TUI_DIM), "%s", last.message);
	} else if (got == 0) {
		tui_log_add(d, tui_term_attr(TUI_DIM), "never run");
	}
	if (v && v->e) {
		tui_log_add(d, 0, "%s", "");
		tui_log_field(d, "contract", "%s", v->e->contract);
	}
}

static void update_detail(struct catalog_pane *cp)
{
	struct tui_log *d = &cp->detail;
	tui_log_clear(d);
	const struct tui_list_row *row = tui_list_current(&cp->list);
	if (!row) {
		tui_log_add(d, tui_term_attr(TUI_DIM), "nothing matches the filter");
		return;
	}
	size_t i = ROW_INDEX(row->id);
	switch (ROW_KIND(row->id)) {
	case ROW_FAMILY: {
		size_t nv = 0, checked, total;
		for (size_t v = 0; v < cp->nvar; v++)
			nv += cp->var[v].family == i;
		count_checked(cp, i, NULL, &checked, &total);
		tui_log_add(d, tui_term_attr(TUI_HEADER), "%s", cp->fam[i].name);
		tui_log_add(d, 0, "%zu variants, %zu cases, %zu checked", nv, total, checked);
		break;
	}
	case ROW_VARIANT:
		show_variant(cp, &cp->var[i]);
		break;
	case ROW_CASE:
		show_case(cp, i);
		break;
	}
}

/* A row's width in the tree: its tree lines (2 a level), fold and checkbox
 * (tui_list_draw's 6), its name, and its note after a space. */
static int row_width(int depth, const char *label, const char *note)
{
	return 2 * depth + 6 + tui_text_width(label) + 1 + tui_text_width(note);
}

static int widest(int a, int b)
{
	return a > b ? a : b;
}

/* The width of the tree's widest row, folded or not, filtered or not, each
 * with the widest note it can carry, so that the divider stays put while
 * the tree folds and filters. */
static int tree_width(const struct catalog_pane *cp)
{
	int w = 0, mark = 0;
	char note[48];
	/* A case's mark: its latest failing status, or its expectation. */
	for (int st = 0; st < STATUS_COUNT; st++)
		if (status_tally((enum status)st) == TALLY_FAILED)
			mark = widest(mark, tui_text_width(status_name((enum status)st)));
	for (size_t f = 0; f < cp->nfam; f++) {
		size_t checked, total;
		count_checked(cp, f, NULL, &checked, &total);
		snprintf(note, sizeof note, "%zu of %zu", total, total);
		w = widest(w, row_width(0, cp->fam[f].name, note));
	}
	for (size_t v = 0; v < cp->nvar; v++) {
		const struct cat_variant *var = &cp->var[v];
		snprintf(note, sizeof note, "%zu of %zu", var->ncases, var->ncases);
		w = widest(w, row_width(1, var->name, note));
		w = widest(w, row_width(1, var->name, "not built"));
		for (size_t k = 0; k < var->ncases; k++) {
			const struct case_spec *c = &cp->app->suite.cases[var->cases[k]];
			int m = c->expect != EXPECT_PASS ? widest(mark, tui_text_width(expect_name(c->expect))) : mark;
			w = widest(w, row_width(2, c->name, "") + m);
		}
	}
	return w;
}

static void catalog_draw(struct tui_pane *p, const struct tui_rect *r)
{
	struct catalog_pane *cp = (struct catalog_pane *)p;
	size_t checked = tui_app_checked_count(cp->app);
	char title[96];
	snprintf(title, sizeof title, "Kernels and cases: %zu of %zu checked", checked, cp->app->suite.count);
	/* The tree takes what its widest row needs, and a blank column before
	 * the divider, up to 58 %, so that on a wide screen a row's count
	 * stays beside its name.  The detail has the rest. */
	int left = widest(cp->tree_w, tui_text_width(title)) + 1;
	if (left > r->w * 58 / 100)
		left = r->w * 58 / 100;
	tui_fill(r->y, r->x, r->w, tui_term_attr(TUI_NORMAL));
	tui_put(r->y, r->x, left, A_BOLD, title);
	tui_put(r->y, r->x + left + 2, r->w - left - 2, A_BOLD, "Detail");
	struct tui_rect lr = {r->y + 1, r->x, r->h - 1, left - 1};
	tui_list_draw(&cp->list, &lr, 1);
	tui_vline(r->y, r->x + left, r->h);
	update_detail(cp);
	struct tui_rect dr = {r->y + 1, r->x + left + 2, r->h - 1, r->w - left - 2};
	tui_log_draw(&cp->detail, &dr);
}

static void set_fold(struct catalog_pane *cp, const struct tui_list_row *row, int open)
{
	size_t i = ROW_INDEX(row->id);
	int filtering = cp->super.filter[0] != '\0';
	if (ROW_KIND(row->id) == ROW_FAMILY)
		*(filtering ? &cp->fam[i].open_filtered : &cp->fam[i].open) = open;
	else if (ROW_KIND(row->id) == ROW_VARIANT)
		*(filtering ? &cp->var[i].open_filtered : &cp->var[i].open) = open;
}

/* The row of the parent of the cursor's row. */
static void to_parent(struct catalog_pane *cp)
{
	const struct tui_list_row *row = tui_list_current(&cp->list);
	for (size_t k = cp->list.cursor; row && k-- > 0;)
		if (cp->list.rows[k].depth < row->depth) {
			cp->list.cursor = k;
			return;
		}
}

static int case_failed(const struct catalog_pane *cp, size_t i)
{
	return cp->last[i] >= 0 && status_tally((enum status)cp->last[i]) == TALLY_FAILED;
}

/* The cursor's place among the cases in the tree's order: twice a case's
 * ordinal on a case, one less on the family or variant it opens. */
static long cursor_place(const struct catalog_pane *cp)
{
	const struct tui_list_row *row = tui_list_current(&cp->list);
	long pos = 0;
	if (!row)
		return -1;
	size_t at = ROW_INDEX(row->id);
	enum row_kind kind = ROW_KIND(row->id);
	for (size_t f = 0; f < cp->nfam; f++) {
		if (kind == ROW_FAMILY && at == f)
			return 2 * pos - 1;
		for (size_t v = 0; v < cp->nvar; v++) {
			const struct cat_variant *var = &cp->var[v];
			if (var->family != f)
				continue;
			if (kind == ROW_VARIANT && at == v)
				return 2 * pos - 1;
			for (size_t k = 0; k < var->ncases; k++, pos++)
				if (kind == ROW_CASE && at == var->cases[k])
					return 2 * pos;
		}
	}
	return -1;
}

/* n / N: the cursor to the next (dir 1) or previous (-1) case the filter
 * shows whose latest stored result failed (its FAIL, TIMEOUT ... mark), in
 * the tree's order, wrapping; its family and variant are opened.  Returns
 * 0, or -1 when no such case is shown. */
static int next_failure(struct catalog_pane *cp, int dir)
{
	long here = cursor_place(cp), pos = 0, first = -1, pick = -1;
	size_t first_i = 0, last_i = 0, pick_i = 0;
	for (size_t f = 0; f < cp->nfam; f++)
		for (size_t v = 0; v < cp->nvar; v++) {
			const struct cat_variant *var = &cp->var[v];
			if (var->family != f)
				continue;
			for (size_t k = 0; k < var->ncases; k++, pos++) {
				size_t i = var->cases[k];
				if (!var->visible || !cp->case_visible[i] || !case_failed(cp, i))
					continue;
				if (first < 0) {
					first = 2 * pos;
					first_i = i;
				}
				if (dir > 0 && pick < 0 && 2 * pos > here) {
					pick = 2 * pos;
					pick_i = i;
				}
				if (dir < 0 && 2 * pos < here) {
					pick = 2 * pos;
					pick_i = i;
				}
				last_i = i;
			}
		}
	if (first < 0)
		return -1;
	if (pick < 0)
		pick_i = dir > 0 ? first_i : last_i;
	const struct case_spec *c = &cp->app->suite.cases[pick_i];
	struct cat_variant *var = variant_find(cp, c->variant);
	int filtering = cp->super.filter[0] != '\0';
	if (var) {
		*(filtering ? &var->open_filtered : &var->open) = 1;
		*(filtering ? &cp->fam[var->family].open_filtered : &cp->fam[var->family].open) = 1;
	}
	rebuild_rows(cp);
	for (size_t k = 0; k < cp->list.count; k++)
		if (cp->list.rows[k].id == ROW_ID(ROW_CASE, pick_i))
			cp->list.cursor = k;
	return 0;
}

static int tree_key(struct tui_pane *p, int key)
{
	struct catalog_pane *cp = (struct catalog_pane *)p;
	if (tui_list_key(&cp->list, key))
		return 1;
	const struct tui_list_row *row = tui_list_current(&cp->list);
	if (key == 'a') {
		toggle_all_visible(cp);
		rebuild_rows(cp);
		return 1;
	}
	if (key == 'n' || key == 'N') {
		if (next_failure(cp, key == 'n' ? 1 : -1) < 0)
			tui_screen_note(p->screen, "no failure among the cases shown");
		return 1;
	}
	if ((key == TUI_KEY_ESC || key == KEY_BACKSPACE || key == 127 || key == 8) && p->filter[0]) {
		p->filter[0] = '\0';
		apply_filter(cp);
		rebuild_rows(cp);
		return 1;
	}
	if (!row)
		return 0;
	size_t i = ROW_INDEX(row->id);
	enum row_kind kind = ROW_KIND(row->id);
	switch (key) {
	case ' ':
		if (kind == ROW_CASE)
			cp->app->checked[i] = !cp->app->checked[i];
		else
			toggle_group(cp, kind == ROW_FAMILY ? i : 0, kind == ROW_VARIANT ? &cp->var[i] : NULL);
		rebuild_rows(cp);
		if (kind == ROW_CASE && cp->list.cursor + 1 < cp->list.count)
			cp->list.cursor++;
		return 1;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (row->fold != TUI_FOLD_NONE) {
			set_fold(cp, row, row->fold == TUI_FOLD_CLOSED);
			rebuild_rows(cp);
		}
		return 1;
	case KEY_RIGHT:
	case 'l':
		if (row->fold == TUI_FOLD_CLOSED) {
			set_fold(cp, row, 1);
			rebuild_rows(cp);
		} else if (row->fold == TUI_FOLD_OPEN && cp->list.cursor + 1 < cp->list.count) {
			cp->list.cursor++;
		}
		return 1;
	case KEY_LEFT:
	case 'h':
		if (row->fold == TUI_FOLD_OPEN) {
			set_fold(cp, row, 0);
			rebuild_rows(cp);
		} else {
			to_parent(cp);
		}
		return 1;
	}
	return 0;
}

/* Writes the variant under the cursor (its case's variant on a case, ""
 * on a family) where the application keeps it. */
static void publish_cursor(struct catalog_pane *cp)
{
	const struct tui_list_row *row = tui_list_current(&cp->list);
	const char *variant = "";
	size_t i = row ? ROW_INDEX(row->id) : 0;
	if (row && ROW_KIND(row->id) == ROW_VARIANT)
		variant = cp->var[i].name;
	else if (row && ROW_KIND(row->id) == ROW_CASE)
		variant = cp->app->suite.cases[i].variant;
	text_copy(cp->app->catalog_variant, sizeof cp->app->catalog_variant, variant);
}

static int catalog_key(struct tui_pane *p, int key)
{
	int used = tree_key(p, key);
	publish_cursor((struct catalog_pane *)p);
	return used;
}

static void catalog_filter(struct tui_pane *p, const char *text)
{
	struct catalog_pane *cp = (struct catalog_pane *)p;
	(void)text;
	/* A new filter text shows everything that matches, unfolded. */
	for (size_t f = 0; f < cp->nfam; f++)
		cp->fam[f].open_filtered = 1;
	for (size_t v = 0; v < cp->nvar; v++)
		cp->var[v].open_filtered = 1;
	apply_filter(cp);
	rebuild_rows(cp);
	/* Land on the first case that matches, the likely next target. */
	if (p->filter[0])
		for (size_t k = 0; k < cp->list.count; k++)
			if (ROW_KIND(cp->list.rows[k].id) == ROW_CASE) {
				cp->list.cursor = k;
				break;
			}
	publish_cursor(cp);
}

static void catalog_show(struct tui_pane *p)
{
	struct catalog_pane *cp = (struct catalog_pane *)p;
	load_last(cp); /* a run since may have changed them */
	rebuild_rows(cp);
	publish_cursor(cp);
}

static const struct tui_hint catalog_hints[] = {
	{"Spc", "Check"}, {"Enter", "Open"}, {"a", "All"}, {"/", "Filter"},
};

static size_t catalog_hints_fn(struct tui_pane *p, const struct tui_hint **out)
{
	(void)p;
	*out = catalog_hints;
	return sizeof catalog_hints / sizeof catalog_hints[0];
}

static const struct tui_hint catalog_help[] = {
	{"", "Catalog"},
	{"Up/Down j/k", "move; PgUp/PgDn, Home/End (g/G) jump"},
	{"Enter", "open or close a family or variant"},
	{"Right/l Left/h", "open / close, or go to the parent"},
	{"Space", "check or uncheck (a family or variant: its cases)"},
	{"a", "check all shown cases (again: uncheck them)"},
	{"/", "filter: names, marks (hang, FAIL), types, parameters; glob with * ? ["},
	{"Esc Backspace", "clear the filter"},
	{"n N", "next / previous case whose latest result failed"},
	{"", "Marks"},
	{"2/7", "2 of a variant's 7 cases checked; under a filter, 3 of 7: the matches"},
	{"FAIL ...", "the case's latest stored result is a failure"},
	{"hang ...", "what the suite expects of a case, when not a pass"},
};

static void catalog_destroy(struct tui_pane *p)
{
	struct catalog_pane *cp = (struct catalog_pane *)p;
	for (size_t i = 0; i < cp->nvar; i++)
		free(cp->var[i].cases);
	free(cp->var);
	free(cp->fam);
	free(cp->case_visible);
	free(cp->last);
	tui_list_free(&cp->list);
	tui_log_free(&cp->detail);
	free(cp);
}

/* A click or the wheel moves the cursor as a key does: the Plot follows it
 * (publish_cursor). */
static int catalog_mouse(struct tui_pane *p, const struct tui_mouse *m)
{
	struct catalog_pane *cp = (struct catalog_pane *)p;
	int used = tui_pane_hit(p, tui_list_mouse(&cp->list, m));
	publish_cursor(cp);
	return used;
}

static const struct tui_pane_class catalog_class = {
	.title = "Catalog",
	.draw = catalog_draw,
	.key = catalog_key,
	.mouse = catalog_mouse,
	.hints = catalog_hints_fn,
	.help = catalog_help,
	.nhelp = sizeof catalog_help / sizeof catalog_help[0],
	.filter = catalog_filter,
	.show = catalog_show,
	.destroy = catalog_destroy,
};

struct tui_pane *tui_catalog_pane_new(struct tui_app *app)
{
	struct catalog_pane *cp = calloc(1, sizeof *cp);
	if (!cp)
		return NULL;
	cp->super.cls = &catalog_class;
	cp->app = app;
	cp->case_visible = malloc(app->suite.count ? app->suite.count : 1);
	cp->last = malloc(app->suite.count ? app->suite.count : 1);
	if (!cp->case_visible || !cp->last) {
		free(cp->case_visible);
		free(cp->last);
		free(cp);
		return NULL;
	}
	memset(cp->case_visible, 1, app->suite.count);
	tui_list_init(&cp->list, 1);
	tui_log_init(&cp->detail, 0, 0);
	build_model(cp);
	cp->tree_w = tree_width(cp);
	load_last(cp);
	rebuild_rows(cp);
	publish_cursor(cp);
	return &cp->super;
}
