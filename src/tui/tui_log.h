/*
 * tui_log.h - a scrolling view of text lines, wrapped to its width: the
 * catalog's variant detail, a result's detail and the run log.
 *
 * In follow mode (the default for a log) the view stays on the last line as
 * lines are added.
 */
#ifndef CONFORM_TUI_LOG_H
#define CONFORM_TUI_LOG_H

#include <stddef.h>

#include "tui/tui_term.h"

struct tui_log_line {
	char *text;
	attr_t attr;          /* 0: normal */
	int indent;           /* continuation lines start this far in */
};

struct tui_log {
	struct tui_log_line *lines;
	size_t count, cap;
	size_t max;           /* oldest lines are dropped beyond this; 0: no limit */
	int follow;           /* show the last lines, else the first */
};

void tui_log_init(struct tui_log *l, size_t max, int follow);
void tui_log_clear(struct tui_log *l);
void tui_log_free(struct tui_log *l);

/* Appends a line (text may contain newlines: one line each). */
void tui_log_add(struct tui_log *l, attr_t a, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Appends "label: text" with the label in a heading colour and the text
 * wrapped under itself. */
void tui_log_field(struct tui_log *l, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

void tui_log_draw(struct tui_log *l, const struct tui_rect *r);

/* A detail under a table, in h rows for both: the rows the table keeps,
 * leaving the log the lines it needs and a rule above them, the table at
 * least 4 and at most half. */
int tui_log_table_rows(const struct tui_log *l, int h);
/* Draws the log under a rule at row y that says `title` ("detail (Enter
 * closes)"), down to the bottom of r. */
void tui_log_draw_below(struct tui_log *l, const struct tui_rect *r, int y, const char *title);

#endif
