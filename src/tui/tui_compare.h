/*
 * tui_compare.h - the runs pane's comparison: "conform compare BASE NEW" of
 * two runs without leaving the interface, its items as a table (the notable
 * first), and on Enter the detail of the item under the cursor: each side's
 * status, observed behaviour, message and timing, and the change in conform
 * compare's words.
 */
#ifndef CONFORM_TUI_COMPARE_H
#define CONFORM_TUI_COMPARE_H

#include <stdint.h>

#include "compare/compare.h"
#include "tui/tui_log.h"
#include "tui/tui_table.h"

struct tui_app;
struct tui_compare_layout;

struct tui_compare {
	struct tui_app *app;
	struct compare_side *base, *cand; /* NULL: no comparison open */
	struct compare_result res;
	int have_result;
	const struct tui_compare_layout *layout;
	struct tui_table items;       /* a row's id indexes res.items */
	int changes_only;             /* u: the unchanged items hidden */
	int detail;                   /* Enter: the item's detail below the table */
	struct tui_log log;           /* that detail */
	long log_item;                /* the item the detail was made for; -1: none */
};

void tui_compare_init(struct tui_compare *c, struct tui_app *app);
void tui_compare_free(struct tui_compare *c);

/* Compares run base_id (the base) with run new_id, as "conform compare"
 * does at the default threshold, showing the items filter takes.  Returns
 * 0, or -1 with a message in err (nothing is open then). */
int tui_compare_open(struct tui_compare *c, int64_t base_id, int64_t new_id, const char *filter,
		     char *err, size_t len);
void tui_compare_close(struct tui_compare *c);

/* Shows the items filter takes (as tui_table_filter reads it). */
void tui_compare_filter(struct tui_compare *c, const char *filter);

void tui_compare_draw(struct tui_compare *c, const struct tui_rect *r);

/* Enter shows or hides the detail, Esc and Backspace hide it, u hides or
 * lists the unchanged items, n / N go to the next / previous notable item
 * (a regression, a slower configuration, a change of status or of observed
 * behaviour), the table's keys otherwise.  Returns 1 when the key was used:
 * Esc with no detail open is the caller's (back to the runs). */
int tui_compare_key(struct tui_compare *c, int key);

#endif
