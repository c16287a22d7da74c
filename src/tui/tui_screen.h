/*
 * tui_screen.h - the screen manager: panes one at a time under a tab bar,
 * the key bar at the bottom, the help overlay, a one-line prompt, and the
 * message line: a note or a y/n question over the key bar, the full width.
 *
 * A pane is a struct whose first member is struct tui_pane, with a class
 * table of what it does (draw, keys, hints).  The screen routes each key:
 * an open question takes its answer, an open help scrolls or closes, an
 * open prompt edits, then the keys that work
 * everywhere (Tab, 1-9, ?, /), then the pane, then the owner's global keys
 * (run, cancel, quit).  The screen draws everything from scratch each time;
 * curses sends only what changed.
 */
#ifndef CONFORM_TUI_SCREEN_H
#define CONFORM_TUI_SCREEN_H

#include <stddef.h>

#include "tui/tui_help.h"
#include "tui/tui_statusbar.h"
#include "tui/tui_term.h"

#define TUI_MAX_PANES 8
#define TUI_PROMPT_MAX 128
#define TUI_IS_ENTER(k) ((k) == '\n' || (k) == '\r' || (k) == KEY_ENTER)

struct tui_pane;
struct tui_screen;

struct tui_pane_class {
	const char *title;                   /* the tab's name */
	void (*draw)(struct tui_pane *p, const struct tui_rect *r);
	/* Returns 1 when the key was used. */
	int (*key)(struct tui_pane *p, int key);
	/* The pane's keys for the key bar. */
	size_t (*hints)(struct tui_pane *p, const struct tui_hint **out);
	const struct tui_hint *help;         /* the pane's part of the help */
	size_t nhelp;
	/* Called with the new text as the user types after '/'; NULL when the
	 * pane has no filter. */
	void (*filter)(struct tui_pane *p, const char *text);
	/* A click or the wheel in the pane's rectangle; NULL: the wheel moves
	 * as Up/Down would.  Returns 1 when the event was used. */
	int (*mouse)(struct tui_pane *p, const struct tui_mouse *m);
	/* Called when the pane comes on screen (refresh its data); may be NULL. */
	void (*show)(struct tui_pane *p);
	/* Frees the pane. */
	void (*destroy)(struct tui_pane *p);
};

struct tui_pane {
	const struct tui_pane_class *cls;
	struct tui_screen *screen;           /* set by tui_screen_add */
	char filter[TUI_PROMPT_MAX];         /* the '/' text, "" when none */
};

/* Called with the prompt's text: on every change when live, and once at the
 * end with done = 1 (Enter) or done = -1 (Esc; text is what it was before). */
typedef void (*tui_prompt_fn)(struct tui_pane *p, const char *text, int done);

struct tui_screen {
	const char *title;
	struct tui_pane *panes[TUI_MAX_PANES];
	size_t count, current;
	int help;                            /* the overlay is open */
	struct tui_help_view help_view;
	struct {
		int open, live;
		char label[32];
		char text[TUI_PROMPT_MAX], before[TUI_PROMPT_MAX];
		tui_prompt_fn fn;
		struct tui_pane *pane;
	} prompt;
	int tab_x[TUI_MAX_PANES + 1];        /* where each tab starts on row 0, and the last ends */
	char message[160];                   /* a one-off note on the message line */
	struct {
		int open;
		char question[120];
		void (*yes)(void *ctx);      /* called with ctx on y */
		void *ctx;
		int again_key;               /* 0: none */
		void (*again)(void *ctx);    /* called with ctx on again_key */
	} confirm;
	/* The owner: keys no pane used, its hints and help, the tab bar's
	 * right end ("3 checked", "running 2/5"). */
	int (*global_key)(void *ctx, int key);
	size_t (*global_hints)(void *ctx, const struct tui_hint **out);
	const struct tui_hint *global_help;
	size_t nglobal_help;
	void (*status)(void *ctx, char *buf, size_t len);
	void *ctx;
};

/* A pane's mouse method's answer for what a widget (tui_table_mouse,
 * tui_list_mouse) said of an event: a double click opens the row as Enter
 * does; 1 when the event was the widget's. */
int tui_pane_hit(struct tui_pane *p, enum tui_hit hit);

void tui_screen_init(struct tui_screen *s, const char *title);
void tui_screen_add(struct tui_screen *s, struct tui_pane *p);
void tui_screen_show(struct tui_screen *s, size_t index);
struct tui_pane *tui_screen_current(const struct tui_screen *s);

/* Opens the bottom-line prompt for pane p. */
void tui_screen_prompt(struct tui_screen *s, struct tui_pane *p, const char *label,
		       const char *initial, int live, tui_prompt_fn fn);

/* A note shown on the message line, the key bar's (the line above it
 * while the prompt is open), until the next key.  Longer than the screen
 * is wide, it ends with an ellipsis. */
void tui_screen_note(struct tui_screen *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Asks a y/n question on the message line ("Cancel run #3? y/n"): the next
 * key answers it, whatever pane or view is up: y (or Y) calls yes(ctx), any
 * other key drops it. */
void tui_screen_confirm(struct tui_screen *s, void (*yes)(void *ctx), void *ctx, const char *fmt,
			...) __attribute__((format(printf, 4, 5)));
/* After tui_screen_confirm: `key` drops the question and calls again(ctx),
 * which may ask another ("S: racecheck instead"). */
void tui_screen_confirm_again(struct tui_screen *s, int key, void (*again)(void *ctx));

/* Closes the question if it is open and its y would call yes: what it
 * asks about has ended meanwhile.  Returns 1 when it closed one. */
int tui_screen_unask(struct tui_screen *s, void (*yes)(void *ctx));

void tui_screen_key(struct tui_screen *s, int key);
void tui_screen_draw(struct tui_screen *s);

/* Frees every pane added. */
void tui_screen_free(struct tui_screen *s);

#endif
