/*
 * tui_list.h - a scrolling list of rows that may form a tree, with folds
 * and checkboxes: the catalog's families, variants and cases, and the
 * problem pane's choices.
 *
 * The owner fills the rows (depth, fold, check, label) from its model and
 * keeps the meaning; the list only moves a cursor, scrolls and draws.
 * Rebuilding the rows keeps the cursor on the same id when it still exists.
 */
#ifndef CONFORM_TUI_LIST_H
#define CONFORM_TUI_LIST_H

#include <stddef.h>

#include "tui/tui_term.h"

enum tui_check {
	TUI_CHECK_NONE,   /* no box */
	TUI_CHECK_OFF,    /* [ ] */
	TUI_CHECK_ON,     /* [x] */
	TUI_CHECK_SOME,   /* [-] some of the rows under it */
	TUI_RADIO_OFF,    /* ( ) */
	TUI_RADIO_ON,     /* (*) */
};

enum tui_fold { TUI_FOLD_NONE, TUI_FOLD_CLOSED, TUI_FOLD_OPEN };

struct tui_list_row {
	int depth;            /* 0 at the top level */
	int last;             /* the last child of its parent (tree lines) */
	enum tui_fold fold;
	enum tui_check check;
	char label[160];
	attr_t label_attr;    /* 0: normal */
	char note[48];        /* right-aligned, dim: counts, sizes */
	attr_t note_attr;     /* 0: dim */
	long id;              /* the owner's key for this row */
	int heading;          /* a title: drawn, but the cursor passes over it */
};

struct tui_list {
	struct tui_list_row *rows;
	size_t count, cap;
	size_t cursor, top;
	int page;             /* rows visible at the last draw */
	int tree;             /* draw tree lines between depths */
	long keep_id;         /* the cursor's id across a rebuild */
	struct tui_rect area; /* where the last drawing put it (for the mouse) */
	int keep;
};

void tui_list_init(struct tui_list *l, int tree);
void tui_list_free(struct tui_list *l);

/* Empties the list, remembering the id under the cursor for tui_list_end. */
void tui_list_begin(struct tui_list *l);
/* A new zeroed row at the end (NULL when out of memory). */
struct tui_list_row *tui_list_add(struct tui_list *l);
/* Puts the cursor back on the remembered id, or keeps its position. */
void tui_list_end(struct tui_list *l);

const struct tui_list_row *tui_list_current(const struct tui_list *l);

/* Moves for arrows, j/k, PgUp/PgDn, Home/End, g/G, never onto a heading.
 * Returns 1 when the key was one of them. */
int tui_list_key(struct tui_list *l, int key);

void tui_list_draw(struct tui_list *l, const struct tui_rect *r, int focused);

/* A click on a row moves the cursor there (a double click: TUI_HIT_OPENED);
 * the wheel moves it by three rows. */
enum tui_hit tui_list_mouse(struct tui_list *l, const struct tui_mouse *m);

#endif
