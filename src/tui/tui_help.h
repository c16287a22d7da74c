/*
 * tui_help.h - the help overlay ('?'): a box over the middle of the screen
 * listing the keys of the pane on screen and the keys that work everywhere.
 * Long texts wrap at spaces to the box; when the lines outnumber the box it
 * scrolls, and its bottom border says where the view is.
 */
#ifndef CONFORM_TUI_HELP_H
#define CONFORM_TUI_HELP_H

#include <stddef.h>

#include "tui/tui_statusbar.h"

/* Where the overlay is scrolled: top is the first line shown; page and
 * lines are set by the last draw (lines shown at once, lines in all). */
struct tui_help_view {
	int top, page, lines;
};

/* Draws the box; hints whose key is "" are section titles.  Clamps v->top
 * to the lines there are. */
void tui_help_draw(const char *title, const struct tui_hint *const *groups,
		   const size_t *counts, size_t ngroups, struct tui_help_view *v);

/* Scrolls for j/k, Up/Down, PgUp/PgDn, Home/End (g/G).  Returns 1 when the
 * key was one of them. */
int tui_help_key(struct tui_help_view *v, int key);

#endif
