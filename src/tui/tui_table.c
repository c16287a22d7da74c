/*
 * tui_table.c - the table widget (see tui_table.h).
 */
#include "tui_table.h"
#include "vec.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tui_table_init(struct tui_table *t, const struct tui_table_col *cols, int ncols)
{
	memset(t, 0, sizeof *t);
	t->cols = cols;
	t->ncols = ncols < TUI_TABLE_COLS ? ncols : TUI_TABLE_COLS;
	t->sort_col = -1;
	t->page = 10;
}

void tui_table_free(struct tui_table *t)
{
	free(t->rows);
	t->rows = NULL;
	t->count = t->cap = 0;
}

void tui_table_begin(struct tui_table *t)
{
	const struct tui_table_row *cur = tui_table_current(t);
	t->keep = cur != NULL;
	t->keep_id = cur ? cur->id : 0;
	t->count = 0;
}

struct tui_table_row *tui_table_add(struct tui_table *t)
{
	if (vec_reserve(t->rows, t->count, t->cap, 1) < 0)
		return NULL;
	struct tui_table_row *r = &t->rows[t->count];
	memset(r, 0, sizeof *r);
	for (int i = 0; i < TUI_TABLE_COLS; i++)
		r->key[i] = NAN;
	r->order = t->count++;
	return r;
}

void tui_table_set(struct tui_table_row *row, int col, double key, attr_t a, const char *fmt, ...)
{
	va_list ap;
	if (col < 0 || col >= TUI_TABLE_COLS)
		return;
	va_start(ap, fmt);
	vsnprintf(row->cell[col], sizeof row->cell[col], fmt, ap);
	va_end(ap);
	row->key[col] = key;
	row->attr[col] = a;
}

static int compare_rows(const void *pa, const void *pb, void *arg)
{
	const struct tui_table_row *a = pa, *b = pb;
	const struct tui_table *t = arg;
	int c = t->sort_col, r = 0;
	if (c >= 0 && c < t->ncols) {
		if (t->cols[c].numeric) {
			double x = a->key[c], y = b->key[c];
			if (isnan(x) || isnan(y))
				/* Unknown values last, whichever the direction. */
				return isnan(x) && isnan(y) ? (a->order > b->order) - (a->order < b->order)
							    : isnan(x) ? 1 : -1;
			r = (x > y) - (x < y);
		} else {
			r = strcmp(a->cell[c], b->cell[c]);
		}
		if (t->sort_desc)
			r = -r;
	}
	if (r == 0)
		r = (a->order > b->order) - (a->order < b->order);
	return r;
}

static void sort_rows(struct tui_table *t)
{
	if (t->count > 1)
		qsort_r(t->rows, t->count, sizeof *t->rows, compare_rows, t);
}

void tui_table_end(struct tui_table *t)
{
	sort_rows(t);
	if (t->keep)
		tui_table_select_id(t, t->keep_id);
	t->keep = 0;
	if (t->cursor >= t->count)
		t->cursor = t->count ? t->count - 1 : 0;
}

const struct tui_table_row *tui_table_current(const struct tui_table *t)
{
	return t->count ? &t->rows[t->cursor] : NULL;
}

void tui_table_select_id(struct tui_table *t, long id)
{
	for (size_t i = 0; i < t->count; i++)
		if (t->rows[i].id == id) {
			t->cursor = i;
			return;
		}
}

void tui_table_sort(struct tui_table *t, int col, int desc)
{
	const struct tui_table_row *cur = tui_table_current(t);
	long id = cur ? cur->id : 0;
	t->sort_col = col;
	t->sort_desc = desc;
	sort_rows(t);
	if (cur)
		tui_table_select_id(t, id);
}

int tui_table_key(struct tui_table *t, int key)
{
	size_t page = t->page > 1 ? (size_t)t->page - 1 : 1;
	switch (key) {
	case KEY_LEFT:
	case 'h':
	case '<':
		tui_table_sort(t, t->sort_col > 0 ? t->sort_col - 1 : 0, t->sort_desc);
		return 1;
	case KEY_RIGHT:
	case 'l':
	case '>':
		tui_table_sort(t, t->sort_col + 1 < t->ncols ? t->sort_col + 1 : t->ncols - 1, t->sort_desc);
		return 1;
	case 's':
		tui_table_sort(t, t->sort_col < 0 ? 0 : t->sort_col, !t->sort_desc);
		return 1;
	}
	if (!t->count)
		return key == KEY_UP || key == KEY_DOWN || key == 'j' || key == 'k';
	switch (key) {
	case KEY_UP:
	case 'k':
		if (t->cursor > 0)
			t->cursor--;
		return 1;
	case KEY_DOWN:
	case 'j':
		if (t->cursor + 1 < t->count)
			t->cursor++;
		return 1;
	case KEY_PPAGE:
		t->cursor = t->cursor > page ? t->cursor - page : 0;
		return 1;
	case KEY_NPAGE:
		t->cursor = t->cursor + page < t->count ? t->cursor + page : t->count - 1;
		return 1;
	case KEY_HOME:
	case 'g':
		t->cursor = 0;
		return 1;
	case KEY_END:
	case 'G':
		t->cursor = t->count - 1;
		return 1;
	}
	return 0;
}

/* Column widths for a table w columns wide; 0 for a column left off. */
static void layout(const struct tui_table *t, int w, int widths[])
{
	int flex = -1, used = 0;
	for (int i = 0; i < t->ncols; i++) {
		widths[i] = t->cols[i].width;
		if (t->cols[i].flex && flex < 0)
			flex = i;
		used += widths[i] + (i ? 1 : 0);
	}
	/* Leave columns off the right until the rest fits. */
	for (int i = t->ncols - 1; i > 0 && used > w; i--) {
		if (i == flex)
			continue;
		used -= widths[i] + 1;
		widths[i] = 0;
	}
	if (flex >= 0 && used < w)
		widths[flex] += w - used;
}

void tui_table_draw(struct tui_table *t, const struct tui_rect *r, int focused)
{
	const struct tui_glyphs *g = tui_term_glyphs();
	int widths[TUI_TABLE_COLS];
	layout(t, r->w, widths);
	int body = r->h - 1;
	t->page = body;
	if (t->cursor < t->top)
		t->top = t->cursor;
	if (body > 0 && t->cursor >= t->top + (size_t)body)
		t->top = t->cursor - (size_t)body + 1;
	if (t->top + (size_t)body > t->count)
		t->top = t->count > (size_t)body ? t->count - (size_t)body : 0;

	/* The heading: the sort column marked with its direction. */
	tui_fill(r->y, r->x, r->w, tui_term_attr(TUI_HEADER));
	int x = r->x;
	for (int c = 0; c < t->ncols; c++) {
		if (!widths[c])
			continue;
		char title[64];
		int sorted = c == t->sort_col;
		snprintf(title, sizeof title, "%s%s", t->cols[c].title,
			 sorted ? (t->sort_desc ? g->down : g->up) : "");
		attr_t a = tui_term_attr(sorted ? TUI_HEADER_SORT : TUI_HEADER);
		if (t->cols[c].right)
			tui_put_right(r->y, x, widths[c], a, title);
		else
			tui_put(r->y, x, widths[c], a, title);
		x += widths[c] + 1;
	}

	for (int y = 0; y < body; y++) {
		size_t i = t->top + (size_t)y;
		int row_y = r->y + 1 + y;
		tui_fill(row_y, r->x, r->w, tui_term_attr(TUI_NORMAL));
		if (i >= t->count)
			continue;
		const struct tui_table_row *row = &t->rows[i];
		int cur = i == t->cursor;
		attr_t base = cur ? (focused ? tui_term_attr(TUI_CURSOR) : A_BOLD) : tui_term_attr(TUI_NORMAL);
		if (cur)
			tui_fill(row_y, r->x, r->w, base);
		x = r->x;
		for (int c = 0; c < t->ncols; c++) {
			if (!widths[c])
				continue;
			attr_t a = cur || !row->attr[c] ? base : row->attr[c];
			if (t->cols[c].right)
				tui_put_right(row_y, x, widths[c], a, row->cell[c]);
			else
				tui_put(row_y, x, widths[c], a, row->cell[c]);
			x += widths[c] + 1;
		}
	}
}
