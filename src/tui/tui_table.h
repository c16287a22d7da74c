/*
 * tui_table.h - a table with a heading row: the results of a run, the run in
 * progress, the best configurations, the runs of the database.
 *
 * Each cell is text plus, for numeric columns, a key to sort by (NAN sorts
 * last, whatever the order); an empty numeric cell is a value not measured
 * and shows as "–", never as a zero.
 *
 * The key columns (column 0 and those marked .key) say which row it is:
 * they are drawn first, keep their width and stay on screen; the other
 * columns follow in their order, as many as fit, and Left/Right scroll
 * through them.  A measure (a column neither key nor flexible) that does
 * not fit takes width from the flexible keys, down to their minimum, and so
 * does a flexible column scrolled to the front or, when every column before
 * it fits, the last column (a message); the first column after the keys
 * is drawn even if the flexible keys must go below their minimum for it,
 * so that Left/Right reach every column; when
 * even the key columns are too wide, the widest flexible one gives up
 * width.  A key cut short is cut in the middle, so that names and
 * configurations that differ only at their ends still differ.  Of the other
 * columns, a foldable one whose shown rows all say the same is left off
 * first (the table says what it held, tui_table_folded), a flexible one
 * takes what is left down to its minimum, and the rest are left off the
 * right.  A sparse column (a figure some machines do not measure) is not
 * there at all while no shown row has a value in it, so a table without
 * any reads as it did before the figure existed.  z shows the row under
 * the cursor in full (a value not measured as "–" there too).
 *
 * The table holds every row added (rows, count) and shows those its filter
 * takes (view, nview), in the sort order; the cursor moves over what is shown.
 * Sorting is stable on the order rows were added, which is also the order
 * shown when no column is sorted ("run order"); text sorts without its
 * leading marks ("* ").  A new sort starts at the top.
 */
#ifndef CONFORM_TUI_TABLE_H
#define CONFORM_TUI_TABLE_H

#include <stddef.h>

#include "tui/tui_term.h"

#define TUI_TABLE_COLS 18
#define TUI_CELL_MAX 160
#define TUI_FILTER_MAX 128

struct tui_table_col {
	const char *title;
	int width;            /* the most it takes (0: what its content needs) */
	int right;            /* right-aligned (numbers) */
	int numeric;          /* sort by the cells' keys */
	int flex;             /* takes the width left over, and gives up width first */
	int status;           /* the cells are status words: n / N look here */
	int min;              /* a flexible column's width before columns are left off */
	int fold;             /* left off first when every shown row has the same text */
	int key;              /* identifies the row: stays on screen while the
			       * other columns scroll (Left/Right) */
	int params;           /* "k=v,k=v" (a configuration): the items every
			       * shown row has are said once above the table */
	int sparse;           /* a figure only some results have (energy):
			       * left out, heading and all, while no shown
			       * row has a value in it */
};

struct tui_table_row {
	char cell[TUI_TABLE_COLS][TUI_CELL_MAX];
	double key[TUI_TABLE_COLS];
	attr_t attr[TUI_TABLE_COLS]; /* 0: normal */
	long id;              /* the owner's key */
	int failed;           /* the owner's mark: n / N stop here too */
	size_t order;         /* insertion order, the sort's tie-break */
};

struct tui_table {
	const struct tui_table_col *cols;
	int ncols;
	struct tui_table_row *rows; /* every row added */
	size_t count, cap;
	size_t *view;         /* indexes into rows: those shown, in order */
	size_t nview, capview;
	size_t cursor, top;   /* positions in view */
	int page;
	int sort_col;         /* -1: the order rows were added */
	int sort_desc;
	int first;            /* the columns after the keys scrolled off (Left/Right) */
	int left_off;         /* columns left off the right at the last drawing */
	int zoom;             /* z: the cursor's row in full below the table */
	unsigned folded;      /* bit c: column c was folded at the last drawing */
	unsigned drawn;       /* bit c: column c was drawn (< > sort among these) */
	/* Where the last drawing put things, for the mouse: the table's
	 * rectangle (heading row first) and each drawn column's x and width. */
	struct tui_rect area;
	int col_x[TUI_TABLE_COLS], col_w[TUI_TABLE_COLS];
	/* Per params column: the items every shown row has ("grid=0"), left
	 * out of the cells drawn; "" when none. */
	char common[TUI_TABLE_COLS][TUI_CELL_MAX];
	char filter[TUI_FILTER_MAX];
	char note[96];        /* what the last key has to say ("no failure"), or "" */
	long keep_id;
	int keep;
};

void tui_table_init(struct tui_table *t, const struct tui_table_col *cols, int ncols);
void tui_table_free(struct tui_table *t);

/* Empties the table, remembering the row under the cursor. */
void tui_table_begin(struct tui_table *t);
struct tui_table_row *tui_table_add(struct tui_table *t);
/* Sets a cell: text, and the sort key for numeric columns.  Text longer
 * than a cell (TUI_CELL_MAX bytes) is cut and ends with "…". */
void tui_table_set(struct tui_table_row *row, int col, double key, attr_t a, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Filters and sorts, and puts the cursor back on the remembered row. */
void tui_table_end(struct tui_table *t);
/* After cells changed in place: filters and sorts again, keeping the cursor's row. */
void tui_table_refresh(struct tui_table *t);

/* The row shown under the cursor, NULL when none is shown. */
const struct tui_table_row *tui_table_current(const struct tui_table *t);
/* The row (shown or not) the owner gave this id, or NULL. */
struct tui_table_row *tui_table_find(struct tui_table *t, long id);
/* Moves the cursor to the shown row with this id; 0, or -1 when not shown. */
int tui_table_select_id(struct tui_table *t, long id);

/* Sorts by column col (-1: the order rows were added; descending when desc),
 * keeping the cursor's row. */
void tui_table_sort(struct tui_table *t, int col, int desc);

/* Shows the rows matching text: words separated by spaces, each found
 * (case-insensitively) in some cell of the row, or, written !word, in none;
 * "" shows every row.  Keeps the cursor's row when it is still shown. */
void tui_table_filter(struct tui_table *t, const char *text);
/* 1 when row matches the filter text (as tui_table_filter decides). */
int tui_table_row_matches(const struct tui_table *t, const struct tui_table_row *row,
			  const char *text);

/* Moves the cursor to the next (dir 1) or previous (-1) shown row whose
 * status column holds a failure (FAIL, TIMEOUT, CRASH, ERROR, XPASS),
 * wrapping around.  Returns 0, or -1 when no shown row has one. */
int tui_table_next_failure(struct tui_table *t, int dir);

/* Keys: movement as in tui_list (j/k, PgUp/PgDn, g/G); Left/Right (h/l)
 * scroll the columns after the keys; < > sort by the drawn column before /
 * after the sorted one (before the first: the run order); s reverses; o
 * returns to the run order; z zooms on the row; n / N the next / previous
 * failure.  Returns 1 when the key was used; a key with something to say
 * leaves it in t->note. */
int tui_table_key(struct tui_table *t, int key);

/* A click on the heading sorts by that column (again: the other way); on
 * a row, moves the cursor there; the wheel moves it by three rows. */
enum tui_hit tui_table_mouse(struct tui_table *t, const struct tui_mouse *m);

/* Column widths for a table w columns wide (0: left off); returns how many
 * columns were left off on the right (see the top of the file). */
int tui_table_layout(const struct tui_table *t, int w, int widths[TUI_TABLE_COLS]);

/* What the folded columns of the last drawing held, and the items every
 * row of a params column has: "Type f32, Op sum, Config grid=0"; "" when
 * none. */
void tui_table_folded(const struct tui_table *t, char *buf, size_t len);

void tui_table_draw(struct tui_table *t, const struct tui_rect *r, int focused);

#endif
