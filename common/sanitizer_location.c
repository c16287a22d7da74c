/*
 * sanitizer_location.c - code locations as compute-sanitizer prints them
 * (see sanitizer_location.h).
 *
 * Everything here works in place on a line the caller owns, already
 * printable ASCII, and never writes past the strings it is given.
 */
#include "common/sanitizer_location.h"

#include <string.h>

#include "common/text.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_hex(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int is_word(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* Drops the directories of "path/file.cu:41". */
static void source_take(char *dst, size_t len, const char *path)
{
	const char *base = path;
	for (const char *p = path; *p; p++)
		if (*p == '/' || *p == '\\')
			base = p + 1;
	text_copy(dst, len, base);
}

/* Whether s is "file:LINE" (anything, a colon, digits, the end). */
static int is_file_line(const char *s)
{
	const char *colon = strrchr(s, ':');
	if (!colon || colon == s || !colon[1])
		return 0;
	for (const char *p = colon + 1; *p; p++)
		if (!is_digit(*p))
			return 0;
	return 1;
}

/* The first ":LINE:" in s that is not part of a "::" (the older format's
 * "file.cu:41:kernel"), or NULL. */
static char *line_colons(char *s)
{
	for (char *p = s; *p; p++) {
		if (*p != ':' || p == s || p[-1] == ':' || !is_digit(p[1]))
			continue;
		char *q = p + 1;
		while (is_digit(*q))
			q++;
		if (*q == ':' && q[1] != ':')
			return p;
	}
	return NULL;
}

/* The parameter list is the parenthesis group that ends the name; a name
 * cut short in its middle (a line too long) loses everything from its first
 * '(' after a word instead.  Brackets and angle brackets are counted so
 * that "(int)64" inside template arguments and "(anonymous namespace)" are
 * left alone. */
void sanitizer_name_shorten(char *s)
{
	text_trim_right(s);
	size_t n = strlen(s);
	if (n >= 6 && strcmp(s + n - 6, " const") == 0) {
		s[n - 6] = '\0';
		text_trim_right(s);
		n = strlen(s);
	}
	int cut = 0;
	if (n > 0 && s[n - 1] == ')') {
		int depth = 0;
		for (size_t i = n; i-- > 0;) {
			if (s[i] == ')')
				depth++;
			else if (s[i] == '(' && --depth == 0) {
				if (i > 0) {
					s[i] = '\0';
					cut = 1;
				}
				break;
			}
		}
	}
	int angle = 0, paren = 0, square = 0;
	for (size_t i = 0; !cut && s[i]; i++) {
		char c = s[i];
		angle += c == '<' ? 1 : c == '>' && angle > 0 ? -1 : 0;
		square += c == '[' ? 1 : c == ']' && square > 0 ? -1 : 0;
		if (c == '(' && angle == 0 && square == 0 && i > 0 && (is_word(s[i - 1]) || s[i - 1] == '>')) {
			s[i] = '\0';
			cut = 1;
		}
	}
	text_trim_right(s);

	/* The return type ends at the last space outside any brackets.  An
	 * operator's name has spaces of its own ("operator ()"): only "void"
	 * is dropped from it, as from a name whose brackets do not balance. */
	long last = -1;
	angle = paren = square = 0;
	for (long i = 0; s[i]; i++) {
		char c = s[i];
		angle += c == '<' ? 1 : c == '>' ? -1 : 0;
		paren += c == '(' ? 1 : c == ')' ? -1 : 0;
		square += c == '[' ? 1 : c == ']' ? -1 : 0;
		if (c == ' ' && angle == 0 && paren == 0 && square == 0)
			last = i;
	}
	int balanced = angle == 0 && paren == 0 && square == 0;
	if (balanced && last >= 0 && !strstr(s, "operator"))
		memmove(s, s + last + 1, strlen(s + last + 1) + 1);
	else if (strncmp(s, "void ", 5) == 0 && s[5])
		memmove(s, s + 5, strlen(s + 5) + 1);
}

void sanitizer_location_read(char *s, struct sanitizer_location *loc)
{
	memset(loc, 0, sizeof *loc);
	text_trim_right(s);
	char *func = s;
	if (s[0] == '0' && s[1] == 'x' && is_hex(s[2])) {
		char *end = s + 2;
		while (is_hex(*end))
			end++;
		if (strncmp(end, " in ", 4) == 0) {
			*end = '\0';
			text_copy(loc->pc, sizeof loc->pc, s);
			func = end + 4;
			char *colon = line_colons(func);
			if (colon) {
				char *second = strchr(colon + 1, ':');
				*second = '\0';
				source_take(loc->source, sizeof loc->source, func);
				func = second + 1;
			}
		}
	} else {
		char *in = NULL;
		for (char *p = strstr(s, " in "); p; p = strstr(p + 1, " in "))
			in = p;
		if (in && is_file_line(in + 4)) {
			source_take(loc->source, sizeof loc->source, in + 4);
			*in = '\0';
		}
		char *plus = NULL;
		for (char *p = strstr(s, "+0x"); p; p = strstr(p + 1, "+0x"))
			plus = p;
		if (plus && plus[3]) {
			char *q = plus + 3;
			while (is_hex(*q))
				q++;
			if (!*q) {
				text_copy(loc->pc, sizeof loc->pc, plus + 1);
				*plus = '\0';
			}
		}
	}
	sanitizer_name_shorten(func);
	text_copy(loc->func, sizeof loc->func, func);
}
