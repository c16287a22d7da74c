/*
 * tui_log.c - the log/detail view (see tui_log.h).
 *
 * Lines are stored whole and wrapped when drawn, so a resize rewraps them;
 * `top` counts wrapped rows.  Wrapping breaks at the last space that fits,
 * or mid-word for words longer than the width.
 */
#include "common/vec.h"
#include "tui/tui_log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Continuation rows of a "label: text" field start this far in. */
#define FIELD_INDENT 2

void tui_log_init(struct tui_log *l, size_t max, int follow)
{
	memset(l, 0, sizeof *l);
	l->max = max;
	l->follow = follow;
}

void tui_log_clear(struct tui_log *l)
{
	for (size_t i = 0; i < l->count; i++)
		free(l->lines[i].text);
	l->count = 0;
}

void tui_log_free(struct tui_log *l)
{
	tui_log_clear(l);
	free(l->lines);
	l->lines = NULL;
	l->cap = 0;
}

static void add_line(struct tui_log *l, attr_t a, int indent, const char *text, size_t n)
{
	if (l->max && l->count == l->max) {
		free(l->lines[0].text);
		memmove(l->lines, l->lines + 1, (l->count - 1) * sizeof *l->lines);
		l->count--;
	}
	if (vec_reserve(l->lines, l->count, l->cap, 1) < 0)
		return;
	char *copy = strndup(text, n);
	if (!copy)
		return;
	l->lines[l->count++] = (struct tui_log_line){copy, a, indent};
}

static void add_text(struct tui_log *l, attr_t a, int indent, const char *text)
{
	for (;;) {
		const char *nl = strchr(text, '\n');
		add_line(l, a, indent, text, nl ? (size_t)(nl - text) : strlen(text));
		if (!nl)
			break;
		text = nl + 1;
	}
}

void tui_log_add(struct tui_log *l, attr_t a, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	add_text(l, a, 0, buf);
}

void tui_log_field(struct tui_log *l, const char *label, const char *fmt, ...)
{
	char text[4096], buf[4200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	snprintf(buf, sizeof buf, "%s: %s", label, text);
	/* The label's colour is applied when drawing: the field is marked by
	 * a negative indent holding the label's length and its colon. */
	add_line(l, 0, -(int)strlen(label) - 1, buf, strlen(buf));
}

/* Byte length of the next wrapped row of s in w columns (at least one
 * character), and where the row after it starts. */
static size_t wrap_row(const char *s, int w, const char **next)
{
	size_t bytes = 0, last_space = 0;
	int cols = 0;
	while (s[bytes]) {
		if (((unsigned char)s[bytes] & 0xC0) != 0x80) {
			if (cols == w)
				break;
			cols++;
			if (s[bytes] == ' ')
				last_space = bytes;
		}
		bytes++;
	}
	if (!s[bytes] || last_space == 0) {
		*next = s + bytes;
		return bytes;
	}
	*next = s + last_space + 1;
	return last_space;
}

/* Wrapped rows of line i in w columns. */
static size_t rows_of(const struct tui_log_line *ln, int w)
{
	size_t rows = 0;
	const char *s = ln->text;
	int indent = ln->indent < 0 ? FIELD_INDENT : ln->indent;
	int width = w;
	do {
		const char *next;
		wrap_row(s, width, &next);
		s = next;
		rows++;
		width = w - indent > 8 ? w - indent : w;
	} while (*s);
	return rows;
}

void tui_log_draw(struct tui_log *l, const struct tui_rect *r)
{
	if (r->w <= 0 || r->h <= 0)
		return;
	size_t total = 0;
	for (size_t i = 0; i < l->count; i++)
		total += rows_of(&l->lines[i], r->w);
	size_t max_top = total > (size_t)r->h ? total - (size_t)r->h : 0;
	size_t top = l->follow ? max_top : 0; /* the first wrapped row shown */

	for (int y = 0; y < r->h; y++)
		tui_fill(r->y + y, r->x, r->w, tui_term_attr(TUI_NORMAL));
	size_t row = 0;
	int y = 0;
	for (size_t i = 0; i < l->count && y < r->h; i++) {
		const struct tui_log_line *ln = &l->lines[i];
		int label = ln->indent < 0 ? -ln->indent : 0;
		int indent = label ? FIELD_INDENT : ln->indent;
		const char *s = ln->text;
		int first = 1, width = r->w;
		do {
			const char *next;
			size_t n = wrap_row(s, width, &next);
			if (row >= top && y < r->h) {
				char buf[4200];
				snprintf(buf, sizeof buf, "%.*s", (int)n, s);
				int x = r->x + (first ? 0 : r->w - width);
				attr_t a = ln->attr ? ln->attr : tui_term_attr(TUI_NORMAL);
				if (first && label) {
					tui_put(r->y + y, x, label, tui_term_attr(TUI_WARN), buf);
					tui_put(r->y + y, x + label, width - label, a, buf + label);
				} else {
					tui_put(r->y + y, x, width, a, buf);
				}
				y++;
			}
			row++;
			s = next;
			first = 0;
			width = r->w - indent > 8 ? r->w - indent : r->w;
		} while (*s);
	}
}

int tui_log_table_rows(const struct tui_log *l, int h)
{
	int want = (int)l->count + 4;
	int rows = h - want > 4 ? h - want : 4;
	return rows > h / 2 ? h / 2 : rows;
}

void tui_log_draw_below(struct tui_log *l, const struct tui_rect *r, int y, const char *title)
{
	tui_hline(y, r->x, r->w);
	tui_putf(y, r->x + 2, r->w - 4, tui_term_attr(TUI_DIM), " %s ", title);
	struct tui_rect lr = {y + 1, r->x, r->y + r->h - y - 1, r->w};
	tui_log_draw(l, &lr);
}
