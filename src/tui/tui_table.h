/*
 * tui_table.h - a table with a heading row, sortable by any column: the
 * results of a run and the run in progress.
 *
 * Each cell is text plus, for numeric columns, a key to sort by (NAN sorts
 * last, whatever the order).  Columns have a preferred width; one flexible
 * column takes what is left, and columns that do not fit are left off the
 * right.  Sorting is stable on the order rows were added.
 */
#ifndef CONFORM_TUI_TABLE_H
#define CONFORM_TUI_TABLE_H

#include <stddef.h>

#include "tui_term.h"

#define TUI_TABLE_COLS 12
#define TUI_CELL_MAX 136

struct tui_table_col {
	const char *title;
	int width;            /* preferred width; the flexible column's minimum */
	int right;            /* right-aligned (numbers) */
	int numeric;          /* sort by the cells' keys */
	int flex;             /* takes the remaining width (one column) */
};

struct tui_table_row {
	char cell[TUI_TABLE_COLS][TUI_CELL_MAX];
	double key[TUI_TABLE_COLS];
	attr_t attr[TUI_TABLE_COLS]; /* 0: normal */
	long id;              /* the owner's key */
	size_t order;         /* insertion order, the sort's tie-break */
};

struct tui_table {
	const struct tui_table_col *cols;
	int ncols;
	struct tui_table_row *rows;
	size_t count, cap;
	size_t cursor, top;
	int page;
	int sort_col;         /* -1: insertion order */
	int sort_desc;
	long keep_id;
	int keep;
};

void tui_table_init(struct tui_table *t, const struct tui_table_col *cols, int ncols);
void tui_table_free(struct tui_table *t);

/* Empties the table, remembering the row under the cursor. */
void tui_table_begin(struct tui_table *t);
struct tui_table_row *tui_table_add(struct tui_table *t);
/* Sets a cell: text, and the sort key for numeric columns. */
void tui_table_set(struct tui_table_row *row, int col, double key, attr_t a, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Sorts and puts the cursor back on the remembered row. */
void tui_table_end(struct tui_table *t);

const struct tui_table_row *tui_table_current(const struct tui_table *t);
void tui_table_select_id(struct tui_table *t, long id);

/* Sorts by column col (descending when desc), keeping the cursor's row. */
void tui_table_sort(struct tui_table *t, int col, int desc);

/* Movement keys as in tui_list, and sorting: Left/Right (h/l, < >) pick the
 * sort column, s reverses the order.  Returns 1 when the key was used. */
int tui_table_key(struct tui_table *t, int key);

void tui_table_draw(struct tui_table *t, const struct tui_rect *r, int focused);

#endif
