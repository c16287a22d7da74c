/*
 * text.c - string helpers (see text.h).
 */
#include "common/text.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

void text_copy(char *dst, size_t len, const char *src)
{
	if (len == 0)
		return;
	size_t n = strlen(src);
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

void text_appendf(char *buf, size_t len, const char *fmt, ...)
{
	if (len == 0)
		return;
	size_t used = strnlen(buf, len - 1);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

void text_one_line(char *s)
{
	for (; *s; s++)
		if (*s == '\t' || *s == '\n' || *s == '\r')
			*s = ' ';
}

/* The length (1 to 4) of the well-formed UTF-8 sequence at p, with its
 * code point in *cp, or 0 when p starts none (a stray continuation byte, an
 * overlong form, a surrogate, past U+10FFFF, or cut short by the end). */
static size_t utf8_sequence(const unsigned char *p, unsigned *cp)
{
	size_t n;
	unsigned min;
	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	} else if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2, min = 0x80, *cp = p[0] & 0x1fu;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3, min = 0x800, *cp = p[0] & 0x0fu;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4, min = 0x10000, *cp = p[0] & 0x07u;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80) /* the terminator stops here too */
			return 0;
		*cp = *cp << 6 | (p[i] & 0x3fu);
	}
	if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return n;
}

size_t text_sanitize(char *s)
{
	unsigned char *r = (unsigned char *)s, *w = r;
	size_t replaced = 0;
	while (*r) {
		unsigned cp;
		size_t n = utf8_sequence(r, &cp);
		if (n == 0 || cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
			*w++ = '?';
			r += n ? n : 1;
			replaced++;
		} else {
			memmove(w, r, n);
			w += n;
			r += n;
		}
	}
	*w = '\0';
	return replaced;
}

void text_json_escape(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
}

void text_xml_escape(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			/* XML 1.0 forbids most control characters outright. */
			if (*p < 0x20 && *p != '\n' && *p != '\t')
				fputc(' ', f);
			else
				fputc(*p, f);
		}
	}
}

int text_split_tabs(char *line, char **fields, int max)
{
	size_t l = strlen(line);
	if (l && line[l - 1] == '\n')
		line[l - 1] = '\0';
	int n = 0;
	for (char *p = line;;) {
		if (n == max)
			return -1;
		fields[n++] = p;
		char *tab = strchr(p, '\t');
		if (!tab)
			return n;
		*tab = '\0';
		p = tab + 1;
	}
}

int text_index(const char *const *names, int count, const char *word)
{
	for (int i = 0; i < count; i++)
		if (strcmp(names[i], word) == 0)
			return i;
	return -1;
}

double text_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void text_utc_iso(char *buf, size_t len, time_t t)
{
	struct tm tm;

	if (!gmtime_r(&t, &tm) || strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, len, "1970-01-01T00:00:00Z");
}

void text_count(char *buf, size_t len, long long n)
{
	if (n >= 1024 && !(n & (n - 1)))
		snprintf(buf, len, "2^%d", __builtin_ctzll((unsigned long long)n));
	else
		snprintf(buf, len, "%lld", n);
}

void text_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void text_trim_right(char *s)
{
	size_t n = strlen(s);
	while (n > 0 && s[n - 1] == ' ')
		s[--n] = '\0';
}

void text_shell_append(char *buf, size_t len, const char *word)
{
	size_t used = strlen(buf);
	int plain = *word != '\0';
	for (const char *p = word; *p; p++)
		plain &= isalnum((unsigned char)*p) || strchr("-_./,=:+^@%", *p) != NULL;
	if (used + 1 >= len)
		return;
	if (used)
		buf[used++] = ' ';
	buf[used] = '\0';
	if (plain) {
		snprintf(buf + used, len - used, "%s", word);
		return;
	}
	/* 'it'\''s': a quote closes, an escaped quote, and it opens again. */
	size_t k = used;
	if (k + 1 < len)
		buf[k++] = '\'';
	for (const char *p = word; *p && k + 5 < len; p++) {
		if (*p == '\'') {
			memcpy(buf + k, "'\\''", 4);
			k += 4;
		} else {
			buf[k++] = *p;
		}
	}
	if (k + 1 < len)
		buf[k++] = '\'';
	buf[k < len ? k : len - 1] = '\0';
}
