/*
 * tui_help.h - the help overlay ('?'): a box over the middle of the screen
 * listing the keys of the pane on screen and the keys that work everywhere.
 */
#ifndef CONFORM_TUI_HELP_H
#define CONFORM_TUI_HELP_H

#include <stddef.h>

#include "tui_statusbar.h"

/* Draws the box; hints whose key is "" are section titles. */
void tui_help_draw(const char *title, const struct tui_hint *const *groups,
		   const size_t *counts, size_t ngroups);

#endif
