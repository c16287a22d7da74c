/*
 * tui_help.c - the help overlay (see tui_help.h).  The box is sized to its
 * texts and centred, at most the screen less a margin; a text wider than the
 * box wraps at spaces (a word longer than the box is cut, with no space to
 * break at), so no line is ever cut mid-word at 80 columns.  The lines are
 * laid out once per draw and drawn from v->top.
 */
#include "tui/tui_help.h"

#include <stdio.h>

#include "tui/tui_term.h"

/* Bytes of s that fit in w columns, broken after the last space that
 * fits; all of s when it fits.  Leading spaces are left for the caller. */
static size_t wrap_chunk(const char *s, int w)
{
	size_t i = 0, brk = 0;
	int cols = 0;
	while (s[i]) {
		if (((unsigned char)s[i] & 0xC0) != 0x80) {
			if (cols == w)
				return brk ? brk : i;
			cols++;
		}
		if (s[i] == ' ')
			brk = i;
		i++;
	}
	return i;
}

/* Lays out (draw = 0: only counts) the lines of the hints at rows from
 * r->y + 1, line `top` first, at most `page` lines.  Returns the count. */
static int layout(const struct tui_hint *const *groups, const size_t *counts, size_t ngroups,
		  const struct tui_rect *r, int key_w, int top, int page, int draw)
{
	int line = 0;
	for (size_t g = 0; g < ngroups; g++)
		for (size_t i = 0; i < counts[g]; i++) {
			const struct tui_hint *h = &groups[g][i];
			int title = !*h->key;
			int x = title ? r->x + 2 : r->x + 4 + key_w, w = r->x + r->w - 2 - x;
			attr_t a = tui_term_attr(title ? TUI_WARN : TUI_NORMAL);
			const char *s = h->label;
			int first = 1;
			while (first || *s) {
				size_t n = wrap_chunk(s, w > 0 ? w : 1);
				int y = r->y + 1 + line - top;
				if (draw && line >= top && line < top + page) {
					if (first && !title)
						tui_put(y, r->x + 2, key_w, tui_term_attr(TUI_KEY), h->key);
					char chunk[256];
					size_t k = n < sizeof chunk - 1 ? n : sizeof chunk - 1;
					for (size_t j = 0; j < k; j++)
						chunk[j] = s[j];
					chunk[k] = '\0';
					tui_put(y, x, w, a, chunk);
				}
				line++;
				first = 0;
				s += n;
				while (*s == ' ')
					s++;
			}
		}
	return line;
}

void tui_help_draw(const char *title, const struct tui_hint *const *groups,
		   const size_t *counts, size_t ngroups, struct tui_help_view *v)
{
	int key_w = 0, text_w = 0;
	for (size_t g = 0; g < ngroups; g++)
		for (size_t i = 0; i < counts[g]; i++) {
			const struct tui_hint *h = &groups[g][i];
			int kw = tui_text_width(h->key), lw = tui_text_width(h->label);
			if (kw > key_w)
				key_w = kw;
			if (lw > text_w)
				text_w = lw;
		}
	int box_w = key_w + text_w + 6;
	if (box_w > COLS - 4)
		box_w = COLS - 4;
	struct tui_rect r = {0, (COLS - box_w) / 2, 0, box_w};
	int lines = layout(groups, counts, ngroups, &r, key_w, 0, 0, 0);
	int box_h = lines + 2;
	if (box_h > LINES - 2)
		box_h = LINES - 2;
	r.h = box_h;
	r.y = (LINES - box_h) / 2;
	v->page = box_h - 2;
	v->lines = lines;
	if (v->top > lines - v->page)
		v->top = lines - v->page;
	if (v->top < 0)
		v->top = 0;
	tui_box(&r, title);
	layout(groups, counts, ngroups, &r, key_w, v->top, v->page, 1);
	char foot[96];
	if (lines > v->page)
		snprintf(foot, sizeof foot, " lines %d-%d of %d%s  j/k scroll  Esc closes ", v->top + 1,
			 v->top + v->page, lines, v->top + v->page < lines ? ", more below" : "");
	else
		snprintf(foot, sizeof foot, " Esc closes ");
	tui_put_clip(r.y + r.h - 1, r.x + 2, r.w - 4, tui_term_attr(TUI_DIM), foot);
}

int tui_help_key(struct tui_help_view *v, int key)
{
	int page = v->page > 1 ? v->page - 1 : 1;
	switch (key) {
	case KEY_UP: case 'k': v->top--; break;
	case KEY_DOWN: case 'j': v->top++; break;
	case KEY_PPAGE: v->top -= page; break;
	case KEY_NPAGE: case ' ': v->top += page; break;
	case KEY_HOME: case 'g': v->top = 0; break;
	case KEY_END: case 'G': v->top = v->lines; break;
	default: return 0;
	}
	/* Clamped here too, so that keys between draws cannot run away. */
	if (v->top > v->lines - v->page)
		v->top = v->lines - v->page;
	if (v->top < 0)
		v->top = 0;
	return 1;
}
