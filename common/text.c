/*
 * text.c - string helpers (see text.h).
 */
#include "text.h"

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

void text_one_line(char *s)
{
	for (; *s; s++)
		if (*s == '\t' || *s == '\n' || *s == '\r')
			*s = ' ';
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
