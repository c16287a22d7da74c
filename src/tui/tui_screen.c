/*
 * tui_screen.c - the screen manager (see tui_screen.h).
 *
 * Layout: row 0 is the tab bar, the last row the key bar (or the prompt),
 * everything between belongs to the pane on screen.  A note or a question
 * takes the key bar's row whole - the keys are back at the next key - so an
 * error is read in full at 80 columns; while the prompt is open it takes the
 * row above the prompt instead, so that both stay in view (an invalid entry
 * is explained while it is being corrected).  Below the minimum size only
 * the "too small" message is drawn and only q is listened to.
 */
#include "tui/tui_screen.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/text.h"

void tui_screen_init(struct tui_screen *s, const char *title)
{
	memset(s, 0, sizeof *s);
	s->title = title;
}

void tui_screen_add(struct tui_screen *s, struct tui_pane *p)
{
	if (s->count == TUI_MAX_PANES)
		return;
	p->screen = s;
	s->panes[s->count++] = p;
}

struct tui_pane *tui_screen_current(const struct tui_screen *s)
{
	return s->count ? s->panes[s->current] : NULL;
}

void tui_screen_show(struct tui_screen *s, size_t index)
{
	if (index >= s->count)
		return;
	s->current = index;
	struct tui_pane *p = s->panes[index];
	if (p->cls->show)
		p->cls->show(p);
}

void tui_screen_prompt(struct tui_screen *s, struct tui_pane *p, const char *label,
		       const char *initial, int live, tui_prompt_fn fn)
{
	s->prompt.open = 1;
	s->prompt.live = live;
	s->prompt.fn = fn;
	s->prompt.pane = p;
	text_copy(s->prompt.label, sizeof s->prompt.label, label);
	text_copy(s->prompt.text, sizeof s->prompt.text, initial);
	text_copy(s->prompt.before, sizeof s->prompt.before, initial);
}

void tui_screen_note(struct tui_screen *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->message, sizeof s->message, fmt, ap);
	va_end(ap);
}

void tui_screen_confirm(struct tui_screen *s, void (*yes)(void *ctx), void *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->confirm.question, sizeof s->confirm.question, fmt, ap);
	va_end(ap);
	s->confirm.yes = yes;
	s->confirm.ctx = ctx;
	s->confirm.again_key = 0;
	s->confirm.again = NULL;
	s->confirm.open = 1;
}

void tui_screen_confirm_again(struct tui_screen *s, int key, void (*again)(void *ctx))
{
	s->confirm.again_key = key;
	s->confirm.again = again;
}

int tui_screen_unask(struct tui_screen *s, void (*yes)(void *ctx))
{
	if (!s->confirm.open || s->confirm.yes != yes)
		return 0;
	s->confirm.open = 0;
	return 1;
}

static void filter_changed(struct tui_pane *p, const char *text, int done)
{
	(void)done;
	text_copy(p->filter, sizeof p->filter, text);
	p->cls->filter(p, p->filter);
}

static void prompt_key(struct tui_screen *s, int key)
{
	size_t n = strlen(s->prompt.text);
	int changed = 0;
	if (TUI_IS_ENTER(key)) {
		s->prompt.open = 0;
		s->prompt.fn(s->prompt.pane, s->prompt.text, 1);
		return;
	}
	if (key == TUI_KEY_ESC) {
		s->prompt.open = 0;
		s->prompt.fn(s->prompt.pane, s->prompt.before, -1);
		return;
	}
	if (key == KEY_BACKSPACE || key == 127 || key == 8) {
		if (n) {
			s->prompt.text[n - 1] = '\0';
			changed = 1;
		}
	} else if (key == TUI_KEY_CTRL('u')) {
		s->prompt.text[0] = '\0';
		changed = 1;
	} else if (key >= 32 && key < 127 && n + 1 < sizeof s->prompt.text) {
		s->prompt.text[n] = (char)key;
		s->prompt.text[n + 1] = '\0';
		changed = 1;
	}
	if (changed && s->prompt.live)
		s->prompt.fn(s->prompt.pane, s->prompt.text, 0);
}

/* A click on a tab shows its pane; in the pane, the pane takes it (or the
 * wheel moves as Up/Down).  A click answers no question: it drops it, as
 * any key but y does, and closes the help.  On a screen too small, which
 * shows no pane, it does nothing, as keys other than q do. */
static void mouse_event(struct tui_screen *s, struct tui_pane *p)
{
	struct tui_mouse m;
	if (tui_term_mouse(&m) < 0 || s->prompt.open || COLS < TUI_MIN_COLS || LINES < TUI_MIN_LINES)
		return;
	if (s->confirm.open || s->help) {
		s->confirm.open = 0;
		s->help = 0;
		return;
	}
	if (m.y == 0) {
		for (size_t i = 0; i < s->count; i++)
			if (m.x >= s->tab_x[i] && m.x < s->tab_x[i + 1])
				tui_screen_show(s, i);
		return;
	}
	if (!p || m.y >= LINES - 1 || (p->cls->mouse && p->cls->mouse(p, &m)))
		return;
	if ((m.kind == TUI_MOUSE_WHEEL_UP || m.kind == TUI_MOUSE_WHEEL_DOWN) && p->cls->key)
		for (int i = 0; i < 3; i++)
			p->cls->key(p, m.kind == TUI_MOUSE_WHEEL_UP ? KEY_UP : KEY_DOWN);
}

int tui_pane_hit(struct tui_pane *p, enum tui_hit hit)
{
	if (hit == TUI_HIT_OPENED && p->cls->key)
		p->cls->key(p, '\r');
	return hit != TUI_HIT_MISSED;
}

void tui_screen_key(struct tui_screen *s, int key)
{
	struct tui_pane *p = tui_screen_current(s);
	if (key == KEY_RESIZE || key == ERR)
		return;
	if (key == KEY_MOUSE) {
		s->message[0] = '\0';
		mouse_event(s, p);
		return;
	}
	s->message[0] = '\0';
	if (key == TUI_KEY_CTRL('l')) {
		clearok(curscr, TRUE);
		return;
	}
	if (s->confirm.open) {
		s->confirm.open = 0;
		if (key == 'y' || key == 'Y')
			s->confirm.yes(s->confirm.ctx);
		else if (s->confirm.again && key == s->confirm.again_key)
			s->confirm.again(s->confirm.ctx);
		return;
	}
	if (s->help) {
		/* Esc, q and ? close it, and so does any key that does not scroll. */
		if (key == TUI_KEY_ESC || key == 'q' || key == '?' || !tui_help_key(&s->help_view, key))
			s->help = 0;
		return;
	}
	if (s->prompt.open) {
		prompt_key(s, key);
		return;
	}
	if (COLS < TUI_MIN_COLS || LINES < TUI_MIN_LINES) {
		if (key == 'q' || key == KEY_F(10))
			s->global_key(s->ctx, key);
		return;
	}
	if (key == '\t' || key == KEY_BTAB) {
		size_t n = s->count;
		tui_screen_show(s, key == '\t' ? (s->current + 1) % n : (s->current + n - 1) % n);
		return;
	}
	if (key >= '1' && key <= '9' && (size_t)(key - '1') < s->count) {
		tui_screen_show(s, (size_t)(key - '1'));
		return;
	}
	if (key == '?' || key == KEY_F(1)) {
		s->help = 1;
		s->help_view.top = 0;
		return;
	}
	if (key == '/' && p && p->cls->filter) {
		tui_screen_prompt(s, p, "Filter", p->filter, 1, filter_changed);
		return;
	}
	if (p && p->cls->key && p->cls->key(p, key))
		return;
	if (s->global_key)
		s->global_key(s->ctx, key);
}

static void draw_tabs(struct tui_screen *s)
{
	attr_t tab = tui_term_attr(TUI_TAB);
	char right[160] = "";
	if (s->status)
		s->status(s->ctx, right, sizeof right);
	/* The tabs lose their padding when the status ("running 15/21")
	 * would not fit beside them at full width. */
	int width = tui_text_width(s->title) + 2;
	for (size_t i = 0; i < s->count; i++)
		width += tui_text_width(s->panes[i]->cls->title) + (i + 1 >= 10 ? 6 : 5);
	int pad = width + tui_text_width(right) + 2 <= COLS;
	tui_fill(0, 0, COLS, tab);
	int x = tui_putf(0, 0, COLS, tui_term_attr(TUI_TITLE), " %s ", s->title);
	for (size_t i = 0; i < s->count; i++) {
		x += tui_put(0, x, COLS - x, tab, " ");
		s->tab_x[i] = x;
		x += tui_putf(0, x, COLS - x, tui_term_attr(i == s->current ? TUI_TAB_ACTIVE : TUI_TAB),
			      "%s%zu %s%s", pad ? " " : "", i + 1, s->panes[i]->cls->title, pad ? " " : "");
	}
	s->tab_x[s->count] = x;
	if (right[0] && x + 2 < COLS)
		tui_put_right(0, x + 1, COLS - x - 2, tab, right);
}

/* The question or the note, if any, on row y; returns 1 when one was drawn. */
static int draw_message(struct tui_screen *s, int y)
{
	const char *text = s->confirm.open ? s->confirm.question : s->message;
	if (!*text)
		return 0;
	attr_t a = tui_term_attr(TUI_TITLE);
	tui_fill(y, 0, COLS, a);
	tui_put_clip(y, 1, COLS - 2, a, text);
	return 1;
}

static void draw_bottom(struct tui_screen *s, struct tui_pane *p)
{
	int y = LINES - 1;
	if (s->prompt.open) {
		draw_message(s, y - 1);
		tui_fill(y, 0, COLS, tui_term_attr(TUI_NORMAL));
		int x = tui_putf(y, 0, COLS, tui_term_attr(TUI_KEY), "%s: ", s->prompt.label);
		x += tui_put(y, x, COLS - x - 1, tui_term_attr(TUI_NORMAL), s->prompt.text);
		tui_put(y, x, 1, tui_term_attr(TUI_CURSOR), " ");
		tui_put_right(y, x + 2, COLS - x - 2, tui_term_attr(TUI_DIM), "Enter: keep  Esc: undo");
		return;
	}
	if (draw_message(s, y))
		return;
	const struct tui_hint *groups[2] = {NULL, NULL};
	size_t counts[2] = {0, 0};
	if (p && p->cls->hints)
		counts[0] = p->cls->hints(p, &groups[0]);
	if (s->global_hints)
		counts[1] = s->global_hints(s->ctx, &groups[1]);
	char filter[TUI_PROMPT_MAX + 16] = "";
	if (p && p->filter[0])
		snprintf(filter, sizeof filter, "/%s", p->filter);
	tui_statusbar_draw(y, COLS, groups, counts, 2, filter);
}

void tui_screen_draw(struct tui_screen *s)
{
	struct tui_pane *p = tui_screen_current(s);
	erase();
	if (!tui_term_size_ok()) {
		refresh();
		return;
	}
	draw_tabs(s);
	struct tui_rect body = {1, 0, LINES - 2, COLS};
	if (p)
		p->cls->draw(p, &body);
	draw_bottom(s, p);
	if (s->help) {
		static const struct tui_hint everywhere = {"", "Everywhere"};
		const struct tui_hint *groups[3];
		size_t counts[3], n = 0;
		if (p && p->cls->nhelp) {
			groups[n] = p->cls->help;
			counts[n++] = p->cls->nhelp;
		}
		groups[n] = &everywhere;
		counts[n++] = 1;
		groups[n] = s->global_help;
		counts[n++] = s->nglobal_help;
		char title[64];
		snprintf(title, sizeof title, "%s - keys", s->title);
		tui_help_draw(title, groups, counts, n, &s->help_view);
	}
	refresh();
}

void tui_screen_free(struct tui_screen *s)
{
	for (size_t i = 0; i < s->count; i++)
		if (s->panes[i]->cls->destroy)
			s->panes[i]->cls->destroy(s->panes[i]);
	s->count = 0;
}
