/*
 * tui_table.c - the table widget (see tui_table.h).
 *
 * Rows stay where they were added; the view is a list of their indexes, so
 * a pane may change a row's cells in place (the run pane does, as results
 * come) and the view only needs sorting again (tui_table_refresh).
 */
#include "common/params.h"
#include "common/vec.h"
#include "tui/tui_table.h"

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
	free(t->view);
	t->rows = NULL;
	t->view = NULL;
	t->count = t->cap = t->nview = t->capview = 0;
}

void tui_table_begin(struct tui_table *t)
{
	const struct tui_table_row *cur = tui_table_current(t);
	t->keep = cur != NULL;
	t->keep_id = cur ? cur->id : 0;
	t->count = 0;
	t->nview = 0;
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
	char *cell = row->cell[col];
	va_start(ap, fmt);
	int n = vsnprintf(cell, sizeof row->cell[col], fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof row->cell[col]) {
		/* Longer than a cell: cut where a character begins and said so
		 * (z shows the cell, not the text it came from). */
		const char *mark = tui_term_glyphs()->ellipsis;
		size_t end = sizeof row->cell[col] - 1 - strlen(mark);
		while (end > 0 && (cell[end] & 0xC0) == 0x80)
			end--;
		memcpy(cell + end, mark, strlen(mark) + 1);
	}
	row->key[col] = key;
	row->attr[col] = a;
}

/* Text as it sorts: without the marks before it ("* best"). */
static const char *unmarked(const char *s)
{
	const char *p = s;
	while (*p && (*p == '*' || *p == ' ' || *p == '='))
		p++;
	return *p ? p : s;
}

static int compare_rows(const void *pa, const void *pb, void *arg)
{
	const struct tui_table *t = arg;
	const struct tui_table_row *a = &t->rows[*(const size_t *)pa], *b = &t->rows[*(const size_t *)pb];
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
			r = strcmp(unmarked(a->cell[c]), unmarked(b->cell[c]));
		}
		if (t->sort_desc)
			r = -r;
	}
	if (r == 0)
		r = (a->order > b->order) - (a->order < b->order);
	return r;
}

/* The next word of a filter text: its start and length, negated when it
 * begins with '!'.  Returns 0 at the end. */
static int next_word(const char **p, const char **word, size_t *len, int *negated)
{
	const char *s = *p;
	while (*s == ' ')
		s++;
	if (!*s)
		return 0;
	*negated = *s == '!';
	if (*negated)
		s++;
	*word = s;
	while (*s && *s != ' ')
		s++;
	*len = (size_t)(s - *word);
	*p = s;
	return 1;
}

static int cell_has(const char *cell, const char *word, size_t len)
{
	for (; *cell; cell++)
		if (strncasecmp(cell, word, len) == 0)
			return 1;
	return 0;
}

/* 1 when the word is a status name (FAIL, pass ...): in a status column it
 * then matches that status only, so /FAIL does not find XFAIL. */
static int is_status_word(const char *word, size_t len)
{
	char buf[16];
	enum status s;
	if (len >= sizeof buf)
		return 0;
	for (size_t i = 0; i < len; i++)
		buf[i] = (char)(word[i] >= 'a' && word[i] <= 'z' ? word[i] - 'a' + 'A' : word[i]);
	buf[len] = '\0';
	return status_parse(buf, &s) == 0;
}

int tui_table_row_matches(const struct tui_table *t, const struct tui_table_row *row,
			  const char *text)
{
	const char *p = text, *word;
	size_t len;
	int negated;
	while (next_word(&p, &word, &len, &negated)) {
		if (!len)
			continue; /* a lone '!' while it is being typed */
		int found = 0, status_word = is_status_word(word, len);
		for (int c = 0; c < t->ncols && !found; c++)
			found = t->cols[c].status && status_word
					? strlen(row->cell[c]) == len && strncasecmp(row->cell[c], word, len) == 0
					: cell_has(row->cell[c], word, len);
		if (found == negated)
			return 0;
	}
	return 1;
}

/* 1 when params (common/params.h, "k=v,k=v") has the pair key=value. */
static int has_pair(const char *params, const char *key, const char *value)
{
	char v[TUI_CELL_MAX];
	return params_get(params, key, v, sizeof v) == 0 && strcmp(v, value) == 0;
}

static int count_pair(void *ctx, const char *key, const char *value)
{
	(void)key, (void)value;
	++*(int *)ctx;
	return 0;
}

/* 1 when a cell is a list of pairs (not "(default)", not cut short). */
static int is_params(const char *cell)
{
	int n = 0;
	return params_each(cell, count_pair, &n) == 0 && n > 0;
}

struct own_pairs {
	const char *common;
	char *out;
	size_t len;
};

static int keep_own(void *ctx, const char *key, const char *value)
{
	struct own_pairs *o = ctx;
	if (!has_pair(o->common, key, value))
		params_append(o->out, o->len, key, value);
	return 0;
}

/* The pairs of cell not in common, into buf; a cell that is no list of
 * pairs as it is. */
static const char *without_common(const char *cell, const char *common, char *buf, size_t len)
{
	struct own_pairs o = {common, buf, len};
	buf[0] = '\0';
	return params_each(cell, keep_own, &o) == 0 ? buf : cell;
}

struct shared_pairs {
	struct tui_table *t;
	int c;
};

/* Adds key=value to the column's common pairs when every shown list has it. */
static int add_if_shared(void *ctx, const char *key, const char *value)
{
	const struct shared_pairs *sp = ctx;
	struct tui_table *t = sp->t;
	for (size_t i = 0; i < t->nview; i++) {
		const char *cell = t->rows[t->view[i]].cell[sp->c];
		if (is_params(cell) && !has_pair(cell, key, value))
			return 0;
	}
	params_append(t->common[sp->c], TUI_CELL_MAX, key, value);
	return 0;
}

/* The pairs ("k=v") every shown row of params column c has, when there are
 * two lists of pairs or more and each keeps one of its own: what a row's
 * cell shows them without.  Cells that are no list ("(default)") take no
 * part. */
static void find_common(struct tui_table *t, int c)
{
	char *common = t->common[c], rest[TUI_CELL_MAX];
	const char *first = NULL;
	size_t rows = 0;
	common[0] = '\0';
	if (!t->cols[c].params)
		return;
	for (size_t i = 0; i < t->nview; i++) {
		const char *cell = t->rows[t->view[i]].cell[c];
		if (is_params(cell)) {
			first = first ? first : cell;
			rows++;
		}
	}
	if (rows < 2)
		return;
	struct shared_pairs sp = {t, c};
	params_each(first, add_if_shared, &sp);
	for (size_t i = 0; i < t->nview && common[0]; i++) {
		const char *cell = t->rows[t->view[i]].cell[c];
		if (is_params(cell) && !*without_common(cell, common, rest, sizeof rest))
			common[0] = '\0'; /* a row would be left with nothing */
	}
}

/* The text row shows in column c: its cell, without the common items. */
static const char *shown(const struct tui_table *t, const struct tui_table_row *row, int c, char *buf,
			 size_t len)
{
	return t->common[c][0] ? without_common(row->cell[c], t->common[c], buf, len) : row->cell[c];
}

/* Rebuilds the view: the rows the filter takes, sorted; the cursor back on
 * the row with id keep_id when keep is set and it is still shown. */
static void rebuild(struct tui_table *t, int keep, long keep_id)
{
	t->nview = 0;
	if (t->capview < t->count) {
		size_t *v = realloc(t->view, (t->count ? t->count : 1) * sizeof *v);
		if (!v)
			return;
		t->view = v;
		t->capview = t->count;
	}
	for (size_t i = 0; i < t->count; i++)
		if (tui_table_row_matches(t, &t->rows[i], t->filter))
			t->view[t->nview++] = i;
	if (t->nview > 1)
		qsort_r(t->view, t->nview, sizeof *t->view, compare_rows, t);
	for (int c = 0; c < t->ncols; c++)
		find_common(t, c);
	if (keep)
		tui_table_select_id(t, keep_id);
	if (t->cursor >= t->nview)
		t->cursor = t->nview ? t->nview - 1 : 0;
}

void tui_table_end(struct tui_table *t)
{
	rebuild(t, t->keep, t->keep_id);
	t->keep = 0;
}

void tui_table_refresh(struct tui_table *t)
{
	const struct tui_table_row *cur = tui_table_current(t);
	rebuild(t, cur != NULL, cur ? cur->id : 0);
}

const struct tui_table_row *tui_table_current(const struct tui_table *t)
{
	return t->nview && t->cursor < t->nview ? &t->rows[t->view[t->cursor]] : NULL;
}

struct tui_table_row *tui_table_find(struct tui_table *t, long id)
{
	for (size_t i = 0; i < t->count; i++)
		if (t->rows[i].id == id)
			return &t->rows[i];
	return NULL;
}

int tui_table_select_id(struct tui_table *t, long id)
{
	for (size_t i = 0; i < t->nview; i++)
		if (t->rows[t->view[i]].id == id) {
			t->cursor = i;
			return 0;
		}
	return -1;
}

void tui_table_sort(struct tui_table *t, int col, int desc)
{
	t->sort_col = col < 0 || col >= t->ncols ? -1 : col;
	t->sort_desc = t->sort_col >= 0 && desc;
	rebuild(t, 0, 0);
	/* A new order is read from its top. */
	t->cursor = t->top = 0;
}

void tui_table_filter(struct tui_table *t, const char *text)
{
	snprintf(t->filter, sizeof t->filter, "%s", text ? text : "");
	tui_table_refresh(t);
}

static int row_failed(const struct tui_table *t, const struct tui_table_row *row)
{
	if (row->failed)
		return 1;
	for (int c = 0; c < t->ncols; c++) {
		enum status s;
		if (t->cols[c].status && status_parse(row->cell[c], &s) == 0 &&
		    status_tally(s) == TALLY_FAILED)
			return 1;
	}
	return 0;
}

int tui_table_next_failure(struct tui_table *t, int dir)
{
	for (size_t k = 1; k <= t->nview; k++) {
		size_t i = dir > 0 ? (t->cursor + k) % t->nview : (t->cursor + t->nview - k % t->nview) % t->nview;
		if (row_failed(t, &t->rows[t->view[i]])) {
			t->cursor = i;
			return 0;
		}
	}
	return -1;
}

static int is_key(const struct tui_table *t, int c)
{
	return c == 0 || t->cols[c].key;
}

/* The columns in the order they are drawn: the keys, then the others. */
static int draw_order(const struct tui_table *t, int order[TUI_TABLE_COLS])
{
	int n = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int c = 0; c < t->ncols; c++)
			if (is_key(t, c) == !pass)
				order[n++] = c;
	return n;
}

/* The drawn column after (dir 1) or before (-1) the sorted one, in the
 * order drawn: the one < > sort by next.  Before the first is -1 (run
 * order); after the last, the last. */
static int next_drawn(const struct tui_table *t, int dir)
{
	int order[TUI_TABLE_COLS], n = draw_order(t, order), at = -1;
	unsigned drawn = t->drawn ? t->drawn : ~0u;
	for (int i = 0; i < n; i++)
		if (order[i] == t->sort_col)
			at = i;
	for (int i = at + dir; i >= 0 && i < n; i += dir)
		if (drawn & 1u << order[i])
			return order[i];
	return dir < 0 ? -1 : t->sort_col;
}

static void move_cursor(struct tui_table *t, long by)
{
	if (!t->nview)
		return;
	long c = (long)t->cursor + by;
	t->cursor = c < 0 ? 0 : c >= (long)t->nview ? t->nview - 1 : (size_t)c;
}

int tui_table_key(struct tui_table *t, int key)
{
	long page = t->page > 1 ? t->page - 1 : 1;
	t->note[0] = '\0';
	switch (key) {
	case KEY_LEFT:
	case 'h':
		if (t->first > 0)
			t->first--;
		else
			snprintf(t->note, sizeof t->note, "the first columns are shown");
		return 1;
	case KEY_RIGHT:
	case 'l':
		if (t->left_off > 0)
			t->first++;
		else
			snprintf(t->note, sizeof t->note, "every column is shown");
		return 1;
	case '<':
	case '>':
		/* Left of the first column is the run order. */
		tui_table_sort(t, next_drawn(t, key == '<' ? -1 : 1), t->sort_desc);
		if (t->sort_col < 0)
			snprintf(t->note, sizeof t->note, "in run order");
		return 1;
	case 's':
		tui_table_sort(t, t->sort_col < 0 ? 0 : t->sort_col, t->sort_col >= 0 && !t->sort_desc);
		return 1;
	case 'o':
		tui_table_sort(t, -1, 0);
		snprintf(t->note, sizeof t->note, "in run order");
		return 1;
	case 'z':
		t->zoom = !t->zoom;
		return 1;
	case 'n':
	case 'N':
		if (tui_table_next_failure(t, key == 'n' ? 1 : -1) < 0)
			snprintf(t->note, sizeof t->note, "no failure among the rows shown");
		return 1;
	case KEY_UP:
	case 'k':
		move_cursor(t, -1);
		return 1;
	case KEY_DOWN:
	case 'j':
		move_cursor(t, 1);
		return 1;
	case KEY_PPAGE:
		move_cursor(t, -page);
		return 1;
	case KEY_NPAGE:
		move_cursor(t, page);
		return 1;
	case KEY_HOME:
	case 'g':
		move_cursor(t, -(long)t->nview);
		return 1;
	case KEY_END:
	case 'G':
		move_cursor(t, (long)t->nview);
		return 1;
	}
	return 0;
}

enum tui_hit tui_table_mouse(struct tui_table *t, const struct tui_mouse *m)
{
	const struct tui_rect *a = &t->area;
	if (m->y < a->y || m->y >= a->y + a->h || m->x < a->x || m->x >= a->x + a->w)
		return TUI_HIT_MISSED;
	if (m->kind == TUI_MOUSE_WHEEL_UP || m->kind == TUI_MOUSE_WHEEL_DOWN) {
		move_cursor(t, m->kind == TUI_MOUSE_WHEEL_UP ? -3 : 3);
		return TUI_HIT_MOVED;
	}
	if (m->y == a->y) {
		for (int c = 0; c < t->ncols; c++)
			if ((t->drawn & 1u << c) && m->x >= t->col_x[c] && m->x <= t->col_x[c] + t->col_w[c])
				tui_table_sort(t, c, c == t->sort_col && !t->sort_desc);
		return TUI_HIT_MOVED;
	}
	size_t i = t->top + (size_t)(m->y - a->y - 1);
	if (i >= t->nview)
		return TUI_HIT_MOVED;
	t->cursor = i;
	return m->kind == TUI_MOUSE_DOUBLE ? TUI_HIT_OPENED : TUI_HIT_MOVED;
}

/* The width column c's content asks for: its heading with room for the
 * sort arrow, and its longest shown cell. */
static int natural_width(const struct tui_table *t, int c)
{
	int w = tui_text_width(t->cols[c].title) + 1;
	char buf[TUI_CELL_MAX];
	for (size_t i = 0; i < t->nview; i++) {
		int cw = tui_text_width(shown(t, &t->rows[t->view[i]], c, buf, sizeof buf));
		if (cw > w)
			w = cw;
	}
	if (t->cols[c].width > 0 && w > t->cols[c].width)
		w = t->cols[c].width;
	return w;
}

/* 1 when every shown row has the same text in column c. */
static int constant_column(const struct tui_table *t, int c)
{
	for (size_t i = 1; i < t->nview; i++)
		if (strcmp(t->rows[t->view[i]].cell[c], t->rows[t->view[0]].cell[c]) != 0)
			return 0;
	return t->nview > 0;
}

/* 1 when column c is sparse and no shown row has a value in it: it is
 * not there (neither drawn nor in the zoom). */
static int absent_column(const struct tui_table *t, int c)
{
	if (!t->cols[c].sparse)
		return 0;
	for (size_t i = 0; i < t->nview; i++)
		if (t->rows[t->view[i]].cell[c][0])
			return 0;
	return 1;
}

static int flex_min(const struct tui_table *t, int c)
{
	int min = t->cols[c].min > 0 ? t->cols[c].min : tui_text_width(t->cols[c].title) + 1;
	return min < 8 ? 8 : min;
}

static int total_width(const struct tui_table *t, const int widths[])
{
	int used = 0;
	for (int c = 0; c < t->ncols; c++)
		if (widths[c])
			used += widths[c] + (used ? 1 : 0);
	return used;
}

/* Key columns wider together than w: the widest flexible one gives up a
 * column at a time (down to 12), then the widest of any (down to 4). */
static void shrink_keys(const struct tui_table *t, int widths[], int w)
{
	for (int floor = 12, flex_only = 1; flex_only >= 0; floor = 4, flex_only--)
		while (total_width(t, widths) > w) {
			int widest = -1;
			for (int c = 0; c < t->ncols; c++)
				if (widths[c] > floor && (!flex_only || t->cols[c].flex) &&
				    (widest < 0 || widths[c] > widths[widest]))
					widest = c;
			if (widest < 0)
				break;
			widths[widest]--;
		}
}

/* How narrow flexible key c may become: its minimum, or with below_min
 * the 12 columns shrink_keys leaves a key whose table is too narrow. */
static int key_floor(const struct tui_table *t, int c, int below_min)
{
	int min = flex_min(t, c);
	return below_min && min > 12 ? 12 : min;
}

/* Takes up to `want` columns from the flexible keys, the widest first,
 * none below its floor; gives nothing back unless it can take it all. */
static int shrink_flex_keys(const struct tui_table *t, int widths[], int want, int below_min)
{
	int spare = 0;
	for (int c = 0; c < t->ncols; c++)
		if (is_key(t, c) && t->cols[c].flex && widths[c] > key_floor(t, c, below_min))
			spare += widths[c] - key_floor(t, c, below_min);
	if (spare < want)
		return 0;
	for (int taken = 0; taken < want; taken++) {
		int widest = -1;
		for (int c = 0; c < t->ncols; c++)
			if (is_key(t, c) && t->cols[c].flex && widths[c] > key_floor(t, c, below_min) &&
			    (widest < 0 || widths[c] > widths[widest]))
				widest = c;
		widths[widest]--;
	}
	return want;
}

static int layout_in(const struct tui_table *t, int w, int widths[TUI_TABLE_COLS])
{
	int natural[TUI_TABLE_COLS], left_off = 0, skip = t->first, room_for_all, shown = 0;
	for (int c = 0; c < TUI_TABLE_COLS; c++)
		widths[c] = natural[c] = 0;
	for (int c = 0; c < t->ncols; c++) {
		natural[c] = natural_width(t, c);
		if (is_key(t, c))
			widths[c] = natural[c];
	}
	shrink_keys(t, widths, w);
	int used = total_width(t, widths);
	/* Foldable columns go only when everything cannot be shown. */
	int all = used;
	for (int c = 0; c < t->ncols; c++)
		if (!is_key(t, c) && !absent_column(t, c))
			all += natural[c] + 1;
	room_for_all = all <= w;
	int last = t->ncols - 1;
	for (int c = 0; c < t->ncols; c++) {
		if (is_key(t, c) || absent_column(t, c) ||
		    (!room_for_all && t->cols[c].fold && constant_column(t, c)))
			continue;
		if (skip > 0) { /* scrolled off to the left */
			skip--;
			continue;
		}
		int room = w - used - (used ? 1 : 0);
		if (left_off == 0 && !t->cols[c].flex && natural[c] > room)
			/* A measure comes before a key's full width: the
			 * flexible keys give up width down to their minimum. */
			room += shrink_flex_keys(t, widths, natural[c] - room, 0);
		else if (left_off == 0 && t->cols[c].flex && (!shown || c == last) && flex_min(t, c) > room)
			/* So does a flexible column scrolled to the front
			 * (every column can be reached by scrolling) or the
			 * last one, a message, when all before it fit. */
			room += shrink_flex_keys(t, widths, flex_min(t, c) - room, 0);
		int need = t->cols[c].flex ? flex_min(t, c) : natural[c];
		if (left_off == 0 && !shown && need > room)
			/* The first column after the keys is shown whatever
			 * the keys' minimums: with none, Right would scroll
			 * through columns never drawn. */
			room += shrink_flex_keys(t, widths, need - room, 1);
		if (left_off == 0 && natural[c] <= room)
			widths[c] = natural[c];
		else if (left_off == 0 && t->cols[c].flex && room >= flex_min(t, c))
			widths[c] = room;
		else {
			left_off++;
			continue;
		}
		shown++;
		used = total_width(t, widths);
	}
	return left_off;
}

int tui_table_layout(const struct tui_table *t, int w, int widths[TUI_TABLE_COLS])
{
	int left_off = layout_in(t, w, widths);
	/* Columns left off: the last column stays free for the mark. */
	if (left_off && total_width(t, widths) >= w)
		left_off = layout_in(t, w - 1, widths);
	return left_off;
}

void tui_table_folded(const struct tui_table *t, char *buf, size_t len)
{
	size_t used = 0;
	if (len)
		buf[0] = '\0';
	int order[TUI_TABLE_COLS], norder = draw_order(t, order);
	for (int k = 0; k < norder && t->nview; k++) {
		int c = order[k];
		const char *text = t->folded & 1u << c ? t->rows[t->view[0]].cell[c] : t->common[c];
		if (!text[0])
			continue;
		int n = snprintf(buf + used, len - used, "%s%s %s", used ? ", " : "", t->cols[c].title, text);
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
}

/* Writes s in w columns: cut with an ellipsis at its end, or, in a key
 * column, in its middle. */
static void put_cell(int y, int x, int w, attr_t a, const char *s, const struct tui_table_col *col,
		     int key)
{
	if (col->right && tui_text_width(s) <= w)
		tui_put_right(y, x, w, a, s);
	else if (key && !col->right)
		tui_put_middle(y, x, w, a, s);
	else
		tui_put_clip(y, x, w, a, s);
}

static int title_width(const struct tui_table *t)
{
	int tw = 0;
	for (int c = 0; c < t->ncols; c++)
		if (tui_text_width(t->cols[c].title) > tw)
			tw = tui_text_width(t->cols[c].title);
	return tw;
}

/* What the zoom shows of cell c: its text, the missing glyph for a value
 * not measured (as the table draws it), NULL for an empty text. */
static const char *zoom_text(const struct tui_table *t, const struct tui_table_row *row, int c)
{
	if (absent_column(t, c))
		return NULL;
	if (row->cell[c][0])
		return row->cell[c];
	return t->cols[c].numeric ? tui_term_glyphs()->missing : NULL;
}

/* The lines the zoom of the cursor's row takes at width w. */
static int zoom_lines(const struct tui_table *t, int w)
{
	const struct tui_table_row *row = tui_table_current(t);
	int avail = w - title_width(t) - 2, lines = 0;
	for (int c = 0; row && avail > 0 && c < t->ncols; c++) {
		const char *s = zoom_text(t, row, c);
		int n = s ? tui_text_width(s) : 0;
		lines += n ? (n + avail - 1) / avail : 0;
	}
	return lines;
}

/* z: the row under the cursor, one column a line, its text in full. */
static void draw_zoom(const struct tui_table *t, const struct tui_rect *r)
{
	const struct tui_table_row *row = tui_table_current(t);
	tui_hline(r->y, r->x, r->w);
	tui_put(r->y, r->x + 2, r->w - 4, tui_term_attr(TUI_DIM), " row in full (z closes) ");
	int tw = title_width(t);
	int y = r->y + 1;
	for (int c = 0; row && c < t->ncols; c++) {
		const char *s = zoom_text(t, row, c);
		if (!s)
			continue;
		attr_t a = !row->cell[c][0] ? tui_term_attr(TUI_DIM)
			   : row->attr[c]   ? row->attr[c] : tui_term_attr(TUI_NORMAL);
		tui_put(y, r->x, tw, tui_term_attr(TUI_HEADER), t->cols[c].title);
		/* Long text goes on over the next lines. */
		int tx = r->x + tw + 2, avail = r->w - tw - 2;
		while (*s && y < r->y + r->h && avail > 0) {
			int n = tui_put(y, tx, avail, a, s);
			while (n-- > 0 && *s) {
				s++;
				while ((*s & 0xC0) == 0x80)
					s++;
			}
			y++;
		}
		if (y >= r->y + r->h)
			break;
	}
}

/* 1 when a column other than the keys has a width. */
static int others_drawn(const struct tui_table *t, const int widths[])
{
	for (int c = 0; c < t->ncols; c++)
		if (!is_key(t, c) && widths[c])
			return 1;
	return 0;
}

void tui_table_draw(struct tui_table *t, const struct tui_rect *area, int focused)
{
	const struct tui_glyphs *g = tui_term_glyphs();
	struct tui_rect rr = *area;
	const struct tui_rect *r = &rr;
	if (t->zoom) {
		/* The zoom takes what its lines need; the table keeps a few rows. */
		int need = zoom_lines(t, area->w) + 1;
		int zh = area->h - 4 < need ? area->h - 4 : need;
		rr.h = area->h - zh;
		struct tui_rect zr = {area->y + rr.h, area->x, zh, area->w};
		draw_zoom(t, &zr);
	}
	int widths[TUI_TABLE_COLS], order[TUI_TABLE_COLS], norder = draw_order(t, order);
	t->left_off = tui_table_layout(t, r->w, widths);
	/* A filter may fold columns the scroll had gone past, leaving it
	 * beyond the last: it comes back until a column after the keys is
	 * drawn. */
	while (t->first > 0 && !t->left_off && !others_drawn(t, widths)) {
		t->first--;
		t->left_off = tui_table_layout(t, r->w, widths);
	}
	t->folded = t->drawn = 0;
	t->area = *r;
	for (int c = 0; c < t->ncols; c++) {
		if (widths[c])
			t->drawn |= 1u << c;
		else if (t->cols[c].fold && !is_key(t, c) && constant_column(t, c))
			t->folded |= 1u << c;
	}
	int body = r->h - 1;
	t->page = body;
	if (t->cursor < t->top)
		t->top = t->cursor;
	if (body > 0 && t->cursor >= t->top + (size_t)body)
		t->top = t->cursor - (size_t)body + 1;
	if (t->top + (size_t)body > t->nview)
		t->top = t->nview > (size_t)body ? t->nview - (size_t)body : 0;

	/* The heading: the sort column marked with its direction, and marks
	 * where columns are scrolled off: < after the keys, > at the right. */
	tui_fill(r->y, r->x, r->w, tui_term_attr(TUI_HEADER));
	int x = r->x;
	for (int k = 0; k < norder; k++) {
		int c = order[k];
		if (!widths[c])
			continue;
		char title[64];
		int sorted = c == t->sort_col;
		snprintf(title, sizeof title, "%s%s", t->cols[c].title,
			 sorted ? (t->sort_desc ? g->down : g->up) : "");
		attr_t a = tui_term_attr(sorted ? TUI_HEADER_SORT : TUI_HEADER);
		put_cell(r->y, x, widths[c], a, title, &t->cols[c], 0);
		t->col_x[c] = x;
		t->col_w[c] = widths[c];
		x += widths[c] + 1;
		int last_key = k + 1 == norder || !is_key(t, order[k + 1]);
		if (is_key(t, c) && last_key && t->first > 0)
			tui_put(r->y, x - 1, 1, tui_term_attr(TUI_HEADER_SORT), "<");
	}
	if (t->left_off)
		tui_put(r->y, r->x + r->w - 1, 1, tui_term_attr(TUI_HEADER_SORT), ">");

	for (int y = 0; y < body; y++) {
		size_t i = t->top + (size_t)y;
		int row_y = r->y + 1 + y;
		tui_fill(row_y, r->x, r->w, tui_term_attr(TUI_NORMAL));
		if (i >= t->nview)
			continue;
		const struct tui_table_row *row = &t->rows[t->view[i]];
		int cur = i == t->cursor;
		attr_t base = cur ? (focused ? tui_term_attr(TUI_CURSOR) : A_BOLD) : tui_term_attr(TUI_NORMAL);
		if (cur)
			tui_fill(row_y, r->x, r->w, base);
		for (int k = 0; k < norder; k++) {
			int c = order[k];
			if (!widths[c])
				continue;
			attr_t a = cur || !row->attr[c] ? base : row->attr[c];
			char buf[TUI_CELL_MAX];
			const char *text = shown(t, row, c, buf, sizeof buf);
			if (!*text && t->cols[c].numeric) {
				/* Not measured: shown as missing, never as a zero. */
				text = g->missing;
				a = cur ? base : tui_term_attr(TUI_DIM);
			}
			put_cell(row_y, t->col_x[c], widths[c], a, text, &t->cols[c], is_key(t, c));
		}
	}
}
