/*
 * tui_statusbar.c - the key bar (see tui_statusbar.h).  Hints that do not
 * fit are left off whole, never cut in the middle.
 */
#include "tui/tui_statusbar.h"

#include "tui/tui_term.h"

void tui_statusbar_draw(int y, int width, const struct tui_hint *const *groups,
			const size_t *counts, size_t ngroups, const char *right)
{
	attr_t key_attr = tui_term_attr(TUI_KEY), label_attr = tui_term_attr(TUI_KEY_LABEL);
	int right_w = right && *right ? tui_text_width(right) + 1 : 0;
	int x = 0, limit = width - right_w;
	tui_fill(y, 0, width, label_attr);
	for (size_t gi = 0; gi < ngroups; gi++)
		for (size_t i = 0; i < counts[gi]; i++) {
			const struct tui_hint *h = &groups[gi][i];
			int kw = tui_text_width(h->key), lw = tui_text_width(h->label);
			if (x + kw + lw + 2 > limit)
				goto done;
			tui_fill(y, x, kw, key_attr);
			x += tui_put(y, x, kw, key_attr, h->key);
			x += tui_putf(y, x, lw + 2, label_attr, " %s ", h->label);
		}
done:
	if (right_w)
		tui_put_right(y, 0, width, label_attr, right);
}
