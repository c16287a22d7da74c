/*
 * tui_term.h - the TUI's terminal: set-up and restoration, colours, line
 * drawing, key input and the few drawing primitives every widget uses.
 *
 * This is the only file of the TUI that configures curses.  Widgets ask for
 * a role (TUI_CURSOR, a status ...) and get the attribute the terminal can
 * show: colours, or bold/reverse/underline on a monochrome terminal or when
 * NO_COLOR is set.  Line drawing is Unicode when the locale's codeset is
 * UTF-8 and plain ASCII otherwise.  The terminal is restored however the
 * program ends: a normal exit, SIGINT/SIGTERM/SIGHUP (which only raise a flag
 * the main loop acts on), or a crash signal (restored in the handler, then
 * the signal is raised again so the crash is not hidden).
 */
#ifndef CONFORM_TUI_TERM_H
#define CONFORM_TUI_TERM_H

#include <curses.h>
#include <signal.h>
#include <stddef.h>

#include "common/status.h"

/* The smallest terminal the interface lays itself out for. */
#define TUI_MIN_COLS 80
#define TUI_MIN_LINES 24

/* Ctrl-L redraws, Esc leaves a prompt or a detail view. */
#define TUI_KEY_ESC 27
#define TUI_KEY_CTRL(c) ((c) & 0x1f)

enum tui_role {
	TUI_NORMAL,
	TUI_TITLE,        /* the program name on the tab bar */
	TUI_TAB,          /* an inactive tab */
	TUI_TAB_ACTIVE,   /* the pane on screen */
	TUI_CURSOR,       /* the selected row of the focused widget */
	TUI_HEADER,       /* table headings, section titles */
	TUI_HEADER_SORT,  /* the heading the table is sorted by */
	TUI_KEY,          /* a key on the status bar */
	TUI_KEY_LABEL,    /* what the key does */
	TUI_DIM,          /* secondary text: notes, counts, hints */
	TUI_BORDER,       /* dividers and boxes */
	TUI_BAR_DONE,     /* the filled part of a progress bar */
	TUI_BAR_REST,     /* the rest of it */
	TUI_WARN,         /* the watchdog countdown, warnings */
	TUI_CHECKED,      /* a ticked checkbox */
	TUI_ROLE_COUNT
};

/* The characters widgets draw lines, trees and bars with. */
struct tui_glyphs {
	const char *hline, *vline;               /* ─ │ */
	const char *tl, *tr, *bl, *br;           /* ┌ ┐ └ ┘ */
	const char *tee, *last, *pipe;           /* tree: ├─ └─ │ (two columns each) */
	const char *open, *closed;               /* ▾ ▸ */
	const char *full, *empty;                /* progress bar cells */
	const char *up, *down;                   /* sort order ▲ ▼ */
	const char *axis_x, *axis_y, *origin;    /* chart axes */
	const char *tick_x, *tick_y;             /* a labelled tick on them: ┴ ┤ */
	const char *ellipsis;                    /* … where text is cut */
	const char *times;                       /* × of a shape, 2^14×128 */
	const char *us;                          /* µs, the unit of medians */
	const char *missing;                     /* – where a value was not measured */
	const char *plusminus;                   /* ± of an uncertainty */
};

struct tui_rect {
	int y, x, h, w;
};

/* A mouse event, in screen coordinates. */
enum tui_mouse_kind {
	TUI_MOUSE_CLICK,      /* button 1 */
	TUI_MOUSE_DOUBLE,     /* button 1, twice */
	TUI_MOUSE_WHEEL_UP,
	TUI_MOUSE_WHEEL_DOWN,
};
struct tui_mouse {
	int y, x;
	enum tui_mouse_kind kind;
};
/* What a mouse event did to a widget (a table, a list) it was given to. */
enum tui_hit {
	TUI_HIT_MISSED,       /* not on the widget */
	TUI_HIT_MOVED,        /* sorted, scrolled, or the cursor moved */
	TUI_HIT_OPENED,       /* a double click on a row: open it, as Enter */
};

/* Sets the terminal up (locale, curses, colours, signals).  *interrupted is
 * set to 1 by SIGINT, SIGTERM and SIGHUP.  Returns 0, or -1 with a message
 * (no terminal, unknown TERM) and the terminal untouched. */
int tui_term_open(volatile sig_atomic_t *interrupted, char *err, size_t len);

/* Restores the terminal.  Safe to call more than once; also runs at exit. */
void tui_term_close(void);

/* The signal that set the interrupted flag, 0 when none did. */
int tui_term_signal(void);

const struct tui_glyphs *tui_term_glyphs(void);

attr_t tui_term_attr(enum tui_role role);
/* The colour of a status, the same on every pane. */
attr_t tui_term_status_attr(enum status s);
/* The colour of the i-th series of a chart. */
attr_t tui_term_series_attr(int i);

/* Puts text on the terminal's clipboard with the OSC 52 sequence (xterm,
 * kitty, iTerm2, Windows Terminal, tmux with set-clipboard on): the one way
 * that also works over ssh.  A terminal without it ignores the sequence. */
void tui_term_copy(const char *text);

/* Takes clicks and the wheel from the terminal (KEY_MOUSE), or (on 0)
 * leaves them to it, so that text can be selected. */
void tui_term_mouse_enable(int on);
/* After KEY_MOUSE: the event, 0; -1 when it is none the interface takes
 * (another button, a release). */
int tui_term_mouse(struct tui_mouse *m);

/* Waits up to wait_ms (0: just polls) for a key; ERR when none came. */
int tui_term_key(int wait_ms);

/* 1 when the screen has at least TUI_MIN_COLS x TUI_MIN_LINES.  When it
 * has not, draws "terminal too small: 80x24 needed (now WxH)" and returns 0. */
int tui_term_size_ok(void);

/* Columns a UTF-8 string takes (every character one column). */
int tui_text_width(const char *s);

/* A problem's size as the interface prints it: "2^24" for n elements,
 * "2^14×128" for n rows of cols (cols > 0). */
void tui_shape(char *buf, size_t len, long long n, long long cols);

/* Writes s at (y, x) in at most w columns, clipped.  Returns the columns
 * written. */
int tui_put(int y, int x, int w, attr_t a, const char *s);
int tui_putf(int y, int x, int w, attr_t a, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* As tui_put, but text that does not fit ends with an ellipsis ("\u2026",
 * or "..." / "~" in ASCII) in the last columns, so a cut is never silent.
 * Not tui_put itself: tabs, bars and padded cells rely on a plain cut. */
int tui_put_clip(int y, int x, int w, attr_t a, const char *s);
/* As tui_put_clip, but the cut is in the middle: the start and the end of
 * the text stay ("warp.shfl_x…sum.f32@2^24"), where names and
 * configurations that differ only at their ends differ. */
int tui_put_middle(int y, int x, int w, attr_t a, const char *s);
/* Writes s right-aligned so it ends at column x + w. */
void tui_put_right(int y, int x, int w, attr_t a, const char *s);
/* Blanks w columns with attribute a. */
void tui_fill(int y, int x, int w, attr_t a);
/* A horizontal or vertical line of the border glyph. */
void tui_hline(int y, int x, int w);
void tui_vline(int y, int x, int h);
/* A box with a title in the top border, its inside blanked. */
void tui_box(const struct tui_rect *r, const char *title);
/* A progress bar of w columns, `done` in [0, 1]. */
void tui_bar(int y, int x, int w, double done);

#endif
