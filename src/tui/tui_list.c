/*
 * tui_list.c - the list/tree widget (see tui_list.h).
 *
 * Invariant: cursor < count whenever count > 0, the cursor is on a heading
 * only when every row is one, and after a draw the cursor row is inside
 * [top, top + page).
 */
#include "common/vec.h"
#include "tui/tui_list.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 16

void tui_list_init(struct tui_list *l, int tree)
{
	memset(l, 0, sizeof *l);
	l->tree = tree;
	l->page = 10;
}

void tui_list_free(struct tui_list *l)
{
	free(l->rows);
	memset(l, 0, sizeof *l);
}

void tui_list_begin(struct tui_list *l)
{
	const struct tui_list_row *cur = tui_list_current(l);
	l->keep = cur != NULL;
	l->keep_id = cur ? cur->id : 0;
	l->count = 0;
}

struct tui_list_row *tui_list_add(struct tui_list *l)
{
	if (vec_reserve(l->rows, l->count, l->cap, 1) < 0)
		return NULL;
	struct tui_list_row *r = &l->rows[l->count++];
	memset(r, 0, sizeof *r);
	return r;
}

/* Moves the cursor off a heading: on in direction dir (+1 or -1), else
 * back the other way. */
static void settle(struct tui_list *l, int dir)
{
	for (int pass = 0; pass < 2; pass++, dir = -dir) {
		size_t i = l->cursor;
		while (i < l->count && l->rows[i].heading)
			i = dir > 0 ? i + 1 : i ? i - 1 : l->count;
		if (i < l->count) {
			l->cursor = i;
			return;
		}
	}
}

void tui_list_end(struct tui_list *l)
{
	if (l->keep)
		for (size_t i = 0; i < l->count; i++)
			if (l->rows[i].id == l->keep_id) {
				l->cursor = i;
				l->keep = 0;
				settle(l, 1);
				return;
			}
	l->keep = 0;
	if (l->cursor >= l->count)
		l->cursor = l->count ? l->count - 1 : 0;
	settle(l, 1);
}

const struct tui_list_row *tui_list_current(const struct tui_list *l)
{
	return l->count ? &l->rows[l->cursor] : NULL;
}

int tui_list_key(struct tui_list *l, int key)
{
	size_t page = l->page > 1 ? (size_t)l->page - 1 : 1;
	int dir;
	if (!l->count)
		return key == KEY_UP || key == KEY_DOWN || key == 'j' || key == 'k';
	switch (key) {
	case KEY_UP:
	case 'k':
		/* Over the headings above, or stay where it is. */
		for (size_t i = l->cursor; i-- > 0;)
			if (!l->rows[i].heading) {
				l->cursor = i;
				break;
			}
		return 1;
	case KEY_DOWN:
	case 'j':
		for (size_t i = l->cursor + 1; i < l->count; i++)
			if (!l->rows[i].heading) {
				l->cursor = i;
				break;
			}
		return 1;
	case KEY_PPAGE:
		l->cursor = l->cursor > page ? l->cursor - page : 0;
		dir = -1;
		break;
	case KEY_NPAGE:
		l->cursor = l->cursor + page < l->count ? l->cursor + page : l->count - 1;
		dir = 1;
		break;
	case KEY_HOME:
	case 'g':
		l->cursor = 0;
		dir = 1;
		break;
	case KEY_END:
	case 'G':
		l->cursor = l->count - 1;
		dir = -1;
		break;
	default:
		return 0;
	}
	settle(l, dir);
	return 1;
}

static const char *check_text(enum tui_check c)
{
	switch (c) {
	case TUI_CHECK_OFF: return "[ ] ";
	case TUI_CHECK_ON: return "[x] ";
	case TUI_CHECK_SOME: return "[-] ";
	case TUI_RADIO_OFF: return "( ) ";
	case TUI_RADIO_ON: return "(*) ";
	case TUI_CHECK_NONE: break;
	}
	return "";
}

void tui_list_draw(struct tui_list *l, const struct tui_rect *r, int focused)
{
	const struct tui_glyphs *g = tui_term_glyphs();
	l->page = r->h;
	l->area = *r;
	if (l->cursor < l->top)
		l->top = l->cursor;
	if (r->h > 0 && l->cursor >= l->top + (size_t)r->h)
		l->top = l->cursor - (size_t)r->h + 1;
	if (l->top + (size_t)r->h > l->count)
		l->top = l->count > (size_t)r->h ? l->count - (size_t)r->h : 0;

	int any_fold = 0;
	for (size_t i = 0; i < l->count; i++)
		any_fold |= l->rows[i].fold != TUI_FOLD_NONE;

	/* Whether the ancestor at each depth was the last of its siblings, from
	 * the rows above the first one drawn. */
	int last_at[MAX_DEPTH] = {0};
	for (size_t i = 0; i < l->top && i < l->count; i++)
		if (l->rows[i].depth < MAX_DEPTH)
			last_at[l->rows[i].depth] = l->rows[i].last;

	for (int y = 0; y < r->h; y++) {
		size_t i = l->top + (size_t)y;
		int row_y = r->y + y;
		tui_fill(row_y, r->x, r->w, tui_term_attr(TUI_NORMAL));
		if (i >= l->count)
			continue;
		const struct tui_list_row *row = &l->rows[i];
		int depth = row->depth < MAX_DEPTH ? row->depth : MAX_DEPTH - 1;
		last_at[depth] = row->last;
		int cur = i == l->cursor;
		attr_t base = cur ? (focused ? tui_term_attr(TUI_CURSOR) : A_BOLD) : tui_term_attr(TUI_NORMAL);
		if (cur)
			tui_fill(row_y, r->x, r->w, base);
		int x = r->x, end = r->x + r->w;
		attr_t lines = cur ? base : tui_term_attr(TUI_BORDER);
		if (l->tree && depth > 0) {
			for (int k = 1; k < depth; k++)
				x += tui_put(row_y, x, end - x, lines, last_at[k] ? "  " : g->pipe);
			x += tui_put(row_y, x, end - x, lines, row->last ? g->last : g->tee);
		} else {
			x += 2 * depth;
		}
		if (any_fold) {
			const char *f = row->fold == TUI_FOLD_OPEN ? g->open
				      : row->fold == TUI_FOLD_CLOSED ? g->closed : " ";
			x += tui_put(row_y, x, end - x, base, f);
			x += tui_put(row_y, x, end - x, base, " ");
		}
		if (row->check != TUI_CHECK_NONE) {
			int on = row->check == TUI_CHECK_ON || row->check == TUI_CHECK_SOME ||
				 row->check == TUI_RADIO_ON;
			x += tui_put(row_y, x, end - x, cur ? base : on ? tui_term_attr(TUI_CHECKED) : base,
				     check_text(row->check));
		}
		int note_w = row->note[0] ? tui_text_width(row->note) + 1 : 0;
		if (note_w > end - x - 8)
			note_w = 0;
		/* A name cut short is cut in the middle, as a table's key is: the
		 * cases of a variant differ at their ends (n4099, n1000003). */
		tui_put_middle(row_y, x, end - x - note_w,
			       cur || !row->label_attr ? base : row->label_attr, row->label);
		if (note_w)
			tui_put_right(row_y, x, end - x, cur ? base : row->note_attr ? row->note_attr
							: tui_term_attr(TUI_DIM), row->note);
	}
}

enum tui_hit tui_list_mouse(struct tui_list *l, const struct tui_mouse *m)
{
	const struct tui_rect *a = &l->area;
	if (m->y < a->y || m->y >= a->y + a->h || m->x < a->x || m->x >= a->x + a->w)
		return TUI_HIT_MISSED;
	if (m->kind == TUI_MOUSE_WHEEL_UP || m->kind == TUI_MOUSE_WHEEL_DOWN) {
		for (int i = 0; i < 3; i++)
			tui_list_key(l, m->kind == TUI_MOUSE_WHEEL_UP ? KEY_UP : KEY_DOWN);
		return TUI_HIT_MOVED;
	}
	size_t i = l->top + (size_t)(m->y - a->y);
	if (i >= l->count || l->rows[i].heading)
		return TUI_HIT_MOVED;
	l->cursor = i;
	return m->kind == TUI_MOUSE_DOUBLE ? TUI_HIT_OPENED : TUI_HIT_MOVED;
}
