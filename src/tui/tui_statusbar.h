/*
 * tui_statusbar.h - the bottom line naming the keys, htop-style: each key
 * in bold followed by what it does on a coloured field.
 */
#ifndef CONFORM_TUI_STATUSBAR_H
#define CONFORM_TUI_STATUSBAR_H

#include <stddef.h>

/* A key and what it does; also the lines of the help overlay. */
struct tui_hint {
	const char *key;      /* "Tab", "Spc", "/" */
	const char *label;    /* "Pane", "Check", "Filter" (the help's longer text for help) */
};

/* Draws the hints left to right on row y, as many as fit in width, and
 * `right` (may be NULL) at the right end. */
void tui_statusbar_draw(int y, int width, const struct tui_hint *const *groups,
			const size_t *counts, size_t ngroups, const char *right);

#endif
