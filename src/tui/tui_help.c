/*
 * tui_help.c - the help overlay (see tui_help.h).  The box is sized to its
 * lines and centred; on a screen too short for all of them the last ones are
 * left off and the box says so.
 */
#include "tui_help.h"

#include "tui_term.h"

void tui_help_draw(const char *title, const struct tui_hint *const *groups,
		   const size_t *counts, size_t ngroups)
{
	int lines = 0, key_w = 0, text_w = 0;
	for (size_t g = 0; g < ngroups; g++)
		for (size_t i = 0; i < counts[g]; i++) {
			const struct tui_hint *h = &groups[g][i];
			int kw = tui_text_width(h->key), lw = tui_text_width(h->label);
			if (kw > key_w)
				key_w = kw;
			if (lw > text_w)
				text_w = lw;
			lines++;
		}
	int box_w = key_w + text_w + 7, box_h = lines + 3;
	if (box_w > COLS - 4)
		box_w = COLS - 4;
	if (box_h > LINES - 2)
		box_h = LINES - 2;
	struct tui_rect r = {(LINES - box_h) / 2, (COLS - box_w) / 2, box_h, box_w};
	tui_box(&r, title);
	int y = r.y + 1, bottom = r.y + r.h - 2;
	for (size_t g = 0; g < ngroups; g++)
		for (size_t i = 0; i < counts[g]; i++) {
			const struct tui_hint *h = &groups[g][i];
			if (y > bottom)
				goto done;
			if (!*h->key) {
				tui_put(y++, r.x + 2, r.w - 4, tui_term_attr(TUI_WARN), h->label);
				continue;
			}
			tui_put(y, r.x + 2, key_w, tui_term_attr(TUI_KEY), h->key);
			tui_put(y, r.x + 4 + key_w, r.w - key_w - 6, tui_term_attr(TUI_NORMAL), h->label);
			y++;
		}
done:
	tui_put(r.y + r.h - 1, r.x + 2, r.w - 4, tui_term_attr(TUI_DIM), " any key closes this ");
}
