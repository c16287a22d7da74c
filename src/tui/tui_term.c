/*
 * tui_term.c - the TUI's terminal (see tui_term.h).
 *
 * Invariant: while `screen` is non-NULL the terminal is in curses mode, and
 * every way out of the program (return from main, exit(), a handled signal,
 * a crash signal) passes through endwin() first.  Colour pairs are numbered
 * by role, so a role's look is decided here and nowhere else.
 */
#include "tui/tui_term.h"

#include <langinfo.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"

static SCREEN *screen;
static int color_on, utf8_on, atexit_done;
static volatile sig_atomic_t *interrupt_flag;
static volatile sig_atomic_t caught_signal;

static const int quit_signals[] = {SIGINT, SIGTERM, SIGHUP};
static const int crash_signals[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL};
#define NQUIT (sizeof quit_signals / sizeof quit_signals[0])
#define NCRASH (sizeof crash_signals / sizeof crash_signals[0])
static struct sigaction saved_quit[NQUIT], saved_crash[NCRASH];

static const struct tui_glyphs glyphs_utf8 = {
	.hline = "\u2500", .vline = "\u2502",
	.tl = "\u250c", .tr = "\u2510", .bl = "\u2514", .br = "\u2518",
	.tee = "\u251c\u2500", .last = "\u2514\u2500", .pipe = "\u2502 ",
	.open = "\u25be", .closed = "\u25b8",
	.full = "\u2588", .empty = "\u2591",
	.up = "\u25b2", .down = "\u25bc",
	.axis_x = "\u2500", .axis_y = "\u2502", .origin = "\u2514",
	.tick_x = "\u2534", .tick_y = "\u2524",
	.ellipsis = "\u2026", .times = "\u00d7", .us = "\u00b5s", .missing = "\u2013",
	.plusminus = "\u00b1",
};

static const struct tui_glyphs glyphs_ascii = {
	.hline = "-", .vline = "|",
	.tl = "+", .tr = "+", .bl = "+", .br = "+",
	.tee = "|-", .last = "`-", .pipe = "| ",
	.open = "v", .closed = ">",
	.full = "#", .empty = ".",
	.up = "^", .down = "v",
	.axis_x = "-", .axis_y = "|", .origin = "+",
	.tick_x = "+", .tick_y = "+",
	.ellipsis = "~", .times = "x", .us = "us", .missing = "-",
	.plusminus = "+-",
};

/* Colour pairs: one per role, then one per status, then chart series. */
enum { PAIR_ROLE = 1, PAIR_STATUS = PAIR_ROLE + TUI_ROLE_COUNT, PAIR_SERIES = PAIR_STATUS + STATUS_COUNT };
#define NSERIES 8

struct look {
	short fg, bg;     /* -1: the terminal's default */
	attr_t color_attr; /* added to the pair when in colour */
	attr_t mono;      /* the whole look on a monochrome terminal */
};

static const struct look role_looks[TUI_ROLE_COUNT] = {
	[TUI_NORMAL] = {-1, -1, 0, 0},
	[TUI_TITLE] = {COLOR_YELLOW, COLOR_BLUE, A_BOLD, A_BOLD | A_REVERSE},
	[TUI_TAB] = {COLOR_WHITE, COLOR_BLUE, 0, A_REVERSE},
	[TUI_TAB_ACTIVE] = {COLOR_BLACK, COLOR_CYAN, A_BOLD, A_BOLD | A_UNDERLINE},
	[TUI_CURSOR] = {COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE},
	[TUI_HEADER] = {COLOR_BLACK, COLOR_GREEN, 0, A_BOLD | A_UNDERLINE},
	[TUI_HEADER_SORT] = {COLOR_BLACK, COLOR_CYAN, A_BOLD, A_BOLD | A_REVERSE},
	[TUI_KEY] = {-1, -1, A_BOLD, A_BOLD},
	[TUI_KEY_LABEL] = {COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE},
	[TUI_DIM] = {-1, -1, A_DIM, A_DIM},
	[TUI_BORDER] = {COLOR_CYAN, -1, 0, 0},
	[TUI_BAR_DONE] = {COLOR_GREEN, -1, A_BOLD, A_BOLD},
	[TUI_BAR_REST] = {-1, -1, A_DIM, A_DIM},
	[TUI_WARN] = {COLOR_YELLOW, -1, A_BOLD, A_BOLD},
	[TUI_CHECKED] = {COLOR_GREEN, -1, A_BOLD, A_BOLD},
};

static const struct look status_looks[STATUS_COUNT] = {
	[STATUS_PASS] = {COLOR_GREEN, -1, 0, 0},
	[STATUS_FAIL] = {COLOR_RED, -1, A_BOLD, A_BOLD},
	[STATUS_TIMEOUT] = {COLOR_MAGENTA, -1, A_BOLD, A_BOLD},
	[STATUS_CRASH] = {COLOR_RED, -1, A_BOLD | A_REVERSE, A_BOLD | A_REVERSE},
	[STATUS_ERROR] = {COLOR_RED, -1, 0, A_BOLD},
	[STATUS_SKIP] = {COLOR_YELLOW, -1, 0, A_DIM},
	[STATUS_XFAIL] = {COLOR_CYAN, -1, 0, 0},
	[STATUS_XPASS] = {COLOR_YELLOW, -1, A_BOLD, A_BOLD | A_UNDERLINE},
};

/* Eight, as many as the plot shows: the six colours, then the terminal's
 * own foreground (-1; white could vanish on a light background) bold and
 * underlined, for the seventh and the eighth. */
static const short series_colors[NSERIES] = {
	COLOR_CYAN, COLOR_YELLOW, COLOR_GREEN, COLOR_MAGENTA, COLOR_RED, COLOR_BLUE, -1, -1,
};
static const attr_t series_attrs[NSERIES] = {
	A_BOLD, A_BOLD, A_BOLD, A_BOLD, A_BOLD, A_BOLD, A_BOLD, A_UNDERLINE,
};

static void on_quit_signal(int sig)
{
	caught_signal = sig;
	if (interrupt_flag)
		*interrupt_flag = 1;
}

/* Not async-signal-safe, and deliberately so: a crashed program that leaves
 * the terminal in raw mode is worse than the small risk here (htop does the
 * same).  SA_RESETHAND made the action the default again, so raising the
 * signal once more ends the program the way the crash would have. */
static void on_crash_signal(int sig)
{
	if (screen)
		endwin();
	screen = NULL;
	raise(sig);
}

static void install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_quit_signal; /* no SA_RESTART: waits must see it */
	for (size_t i = 0; i < NQUIT; i++)
		sigaction(quit_signals[i], &sa, &saved_quit[i]);
	sa.sa_handler = on_crash_signal;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	for (size_t i = 0; i < NCRASH; i++)
		sigaction(crash_signals[i], &sa, &saved_crash[i]);
	signal(SIGPIPE, SIG_IGN);
}

static void restore_signals(void)
{
	for (size_t i = 0; i < NQUIT; i++)
		sigaction(quit_signals[i], &saved_quit[i], NULL);
	for (size_t i = 0; i < NCRASH; i++)
		sigaction(crash_signals[i], &saved_crash[i], NULL);
}

static void init_colors(void)
{
	const char *no_color = getenv("NO_COLOR");
	color_on = has_colors() && !(no_color && *no_color);
	if (!color_on)
		return;
	if (start_color() == ERR) {
		color_on = 0;
		return;
	}
	/* Keep the terminal's own background where it lets us. */
	short dflt_bg = use_default_colors() == OK ? -1 : COLOR_BLACK;
	short dflt_fg = dflt_bg == -1 ? -1 : COLOR_WHITE;
	for (int i = 0; i < TUI_ROLE_COUNT; i++) {
		const struct look *l = &role_looks[i];
		init_pair((short)(PAIR_ROLE + i), l->fg < 0 ? dflt_fg : l->fg, l->bg < 0 ? dflt_bg : l->bg);
	}
	for (int i = 0; i < STATUS_COUNT; i++)
		init_pair((short)(PAIR_STATUS + i), status_looks[i].fg, dflt_bg);
	for (int i = 0; i < NSERIES; i++)
		init_pair((short)(PAIR_SERIES + i), series_colors[i] < 0 ? dflt_fg : series_colors[i], dflt_bg);
}

int tui_term_open(volatile sig_atomic_t *interrupted, char *err, size_t len)
{
	setlocale(LC_ALL, "");
	const char *codeset = nl_langinfo(CODESET);
	utf8_on = codeset && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
	const char *term = getenv("TERM");
	if (!term || !*term || strcmp(term, "dumb") == 0) {
		snprintf(err, len, "the interface needs a terminal that can move the cursor (TERM=%s)",
			 term && *term ? term : "unset");
		return -1;
	}
	screen = newterm(NULL, stdout, stdin);
	if (!screen) {
		snprintf(err, len, "cannot use the terminal (TERM=%s)", term);
		return -1;
	}
	set_term(screen);
	interrupt_flag = interrupted;
	caught_signal = 0;
	if (!atexit_done) {
		atexit(tui_term_close);
		atexit_done = 1;
	}
	install_signals();
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	init_colors();
	return 0;
}

void tui_term_close(void)
{
	if (!screen)
		return;
	curs_set(1);
	endwin();
	delscreen(screen);
	screen = NULL;
	restore_signals();
	fflush(stdout);
}

int tui_term_signal(void)
{
	return caught_signal;
}

const struct tui_glyphs *tui_term_glyphs(void)
{
	return utf8_on ? &glyphs_utf8 : &glyphs_ascii;
}

attr_t tui_term_attr(enum tui_role role)
{
	if ((unsigned)role >= TUI_ROLE_COUNT)
		role = TUI_NORMAL;
	if (!color_on)
		return role_looks[role].mono;
	return COLOR_PAIR(PAIR_ROLE + (int)role) | role_looks[role].color_attr;
}

attr_t tui_term_status_attr(enum status s)
{
	if ((unsigned)s >= STATUS_COUNT)
		return tui_term_attr(TUI_NORMAL);
	if (!color_on)
		return status_looks[s].mono;
	return COLOR_PAIR(PAIR_STATUS + (int)s) | status_looks[s].color_attr;
}

attr_t tui_term_series_attr(int i)
{
	if (!color_on)
		return i == 0 ? A_BOLD : 0;
	return COLOR_PAIR(PAIR_SERIES + i % NSERIES) | series_attrs[i % NSERIES];
}

void tui_term_mouse_enable(int on)
{
	/* Clicks (ncurses tells a double click from two), and the wheel. */
	mousemask(on ? BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED : 0,
		  NULL);
}

int tui_term_mouse(struct tui_mouse *m)
{
	MEVENT ev;
	if (getmouse(&ev) != OK)
		return -1;
	m->y = ev.y;
	m->x = ev.x;
	if (ev.bstate & BUTTON1_DOUBLE_CLICKED)
		m->kind = TUI_MOUSE_DOUBLE;
	else if (ev.bstate & BUTTON1_CLICKED)
		m->kind = TUI_MOUSE_CLICK;
	else if (ev.bstate & BUTTON4_PRESSED)
		m->kind = TUI_MOUSE_WHEEL_UP;
	else if (ev.bstate & BUTTON5_PRESSED)
		m->kind = TUI_MOUSE_WHEEL_DOWN;
	else
		return -1;
	return 0;
}

int tui_term_key(int wait_ms)
{
	timeout(wait_ms);
	return getch();
}

int tui_term_size_ok(void)
{
	if (COLS >= TUI_MIN_COLS && LINES >= TUI_MIN_LINES)
		return 1;
	char line[96];
	erase();
	snprintf(line, sizeof line, "terminal too small: %dx%d needed (now %dx%d)", TUI_MIN_COLS,
		 TUI_MIN_LINES, COLS, LINES);
	int w = tui_text_width(line);
	int y = LINES / 2 - 1;
	tui_put(y < 0 ? 0 : y, w < COLS ? (COLS - w) / 2 : 0, COLS, tui_term_attr(TUI_WARN), line);
	const char *hint = "enlarge it, or press q to quit";
	w = tui_text_width(hint);
	if (y + 1 < LINES)
		tui_put(y + 1, w < COLS ? (COLS - w) / 2 : 0, COLS, tui_term_attr(TUI_DIM), hint);
	return 0;
}

int tui_text_width(const char *s)
{
	int w = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			w++;
	return w;
}

void tui_term_copy(const char *text)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *p = (const unsigned char *)text;
	size_t n = strlen(text);
	/* After curses' own output, so the sequence is not split by it. */
	fflush(stdout);
	fputs("\033]52;c;", stdout);
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
			     (i + 2 < n ? p[i + 2] : 0);
		putchar(b64[v >> 18 & 63]);
		putchar(b64[v >> 12 & 63]);
		putchar(i + 1 < n ? b64[v >> 6 & 63] : '=');
		putchar(i + 2 < n ? b64[v & 63] : '=');
	}
	fputs("\a", stdout);
	fflush(stdout);
}

void tui_shape(char *buf, size_t len, long long n, long long cols)
{
	char rows[32];
	text_count(rows, sizeof rows, n);
	/* Row lengths read better in decimal (1024, not 2^10). */
	if (cols <= 0)
		snprintf(buf, len, "%s", rows);
	else
		snprintf(buf, len, "%s%s%lld", rows, tui_term_glyphs()->times, cols);
}

int tui_put(int y, int x, int w, attr_t a, const char *s)
{
	if (w <= 0 || y < 0 || y >= LINES || x >= COLS)
		return 0;
	if (x + w > COLS)
		w = COLS - x;
	/* Cut at a character boundary after w columns. */
	int cols = 0;
	size_t bytes = 0;
	while (s[bytes]) {
		if (((unsigned char)s[bytes] & 0xC0) != 0x80) {
			if (cols == w)
				break;
			cols++;
		}
		bytes++;
	}
	attrset(a);
	mvaddnstr(y, x, s, (int)bytes);
	attrset(A_NORMAL);
	return cols;
}

int tui_put_clip(int y, int x, int w, attr_t a, const char *s)
{
	if (w <= 0)
		return 0;
	if (x + w > COLS)
		w = COLS - x;
	if (tui_text_width(s) <= w)
		return tui_put(y, x, w, a, s);
	/* "..." in ASCII only where it leaves room for some of the text. */
	const char *mark = utf8_on ? tui_term_glyphs()->ellipsis : w > 6 ? "..." : "~";
	int mw = tui_text_width(mark);
	if (mw > w)
		mw = w;
	int n = tui_put(y, x, w - mw, a, s);
	return n + tui_put(y, x + n, mw, a, mark);
}

/* The byte offset of the character `chars` characters into s (or its end). */
static size_t char_offset(const char *s, int chars)
{
	size_t i = 0;
	while (s[i] && chars > 0) {
		i++;
		while ((s[i] & 0xC0) == 0x80)
			i++;
		chars--;
	}
	return i;
}

int tui_put_middle(int y, int x, int w, attr_t a, const char *s)
{
	if (w <= 0)
		return 0;
	if (x + w > COLS)
		w = COLS - x;
	int sw = tui_text_width(s);
	const char *mark = utf8_on ? tui_term_glyphs()->ellipsis : "~";
	if (sw <= w || w < 5)
		return tui_put_clip(y, x, w, a, s);
	int tail = (w - 1) / 2, head = w - 1 - tail;
	int n = tui_put(y, x, head, a, s);
	n += tui_put(y, x + n, 1, a, mark);
	return n + tui_put(y, x + n, tail, a, s + char_offset(s, sw - tail));
}

int tui_putf(int y, int x, int w, attr_t a, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return tui_put(y, x, w, a, buf);
}

void tui_put_right(int y, int x, int w, attr_t a, const char *s)
{
	int n = tui_text_width(s);
	if (n > w)
		n = w;
	tui_put(y, x + w - n, n, a, s);
}

void tui_fill(int y, int x, int w, attr_t a)
{
	if (y < 0 || y >= LINES)
		return;
	attrset(a);
	for (int i = 0; i < w && x + i < COLS; i++)
		mvaddch(y, x + i, ' ');
	attrset(A_NORMAL);
}

void tui_hline(int y, int x, int w)
{
	const char *g = tui_term_glyphs()->hline;
	attr_t a = tui_term_attr(TUI_BORDER);
	for (int i = 0; i < w; i++)
		tui_put(y, x + i, 1, a, g);
}

void tui_vline(int y, int x, int h)
{
	const char *g = tui_term_glyphs()->vline;
	attr_t a = tui_term_attr(TUI_BORDER);
	for (int i = 0; i < h; i++)
		tui_put(y + i, x, 1, a, g);
}

void tui_box(const struct tui_rect *r, const char *title)
{
	const struct tui_glyphs *g = tui_term_glyphs();
	attr_t a = tui_term_attr(TUI_BORDER);
	for (int i = 1; i < r->h - 1; i++)
		tui_fill(r->y + i, r->x + 1, r->w - 2, tui_term_attr(TUI_NORMAL));
	tui_put(r->y, r->x, 1, a, g->tl);
	tui_hline(r->y, r->x + 1, r->w - 2);
	tui_put(r->y, r->x + r->w - 1, 1, a, g->tr);
	tui_vline(r->y + 1, r->x, r->h - 2);
	tui_vline(r->y + 1, r->x + r->w - 1, r->h - 2);
	tui_put(r->y + r->h - 1, r->x, 1, a, g->bl);
	tui_hline(r->y + r->h - 1, r->x + 1, r->w - 2);
	tui_put(r->y + r->h - 1, r->x + r->w - 1, 1, a, g->br);
	if (title && *title)
		tui_putf(r->y, r->x + 2, r->w - 4, tui_term_attr(TUI_HEADER), " %s ", title);
}

void tui_bar(int y, int x, int w, double done)
{
	const struct tui_glyphs *g = tui_term_glyphs();
	if (done < 0)
		done = 0;
	if (done > 1)
		done = 1;
	int full = (int)(done * w + 0.5);
	for (int i = 0; i < w; i++)
		tui_put(y, x + i, 1, tui_term_attr(i < full ? TUI_BAR_DONE : TUI_BAR_REST),
			i < full ? g->full : g->empty);
}
