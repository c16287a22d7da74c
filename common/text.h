/*
 * text.h - small string helpers shared by the reporters and the protocol.
 */
#ifndef CONFORM_TEXT_H
#define CONFORM_TEXT_H

#include <stdio.h>
#include <stddef.h>
#include <time.h>

/* Copies src into dst (always terminated, truncated to fit). */
void text_copy(char *dst, size_t len, const char *src);

/* Appends printf-style text to the string in buf (len bytes in all):
 * what does not fit is cut, and buf stays terminated.  For lines built
 * in pieces, where each piece's snprintf would repeat the bookkeeping. */
void text_appendf(char *buf, size_t len, const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 3, 4)))
#endif
	;

/* Replaces tabs, carriage returns and newlines with spaces, in place, so the
 * text fits in one protocol field or one output line. */
void text_one_line(char *s);

/* Makes text that came from outside conform (a worker's messages and
 * catalog, a suite's values) safe to print on a terminal and to store, in
 * place: every control character - C0 (tab and newline included), DEL, and
 * C1 (U+0080..U+009F) - and every byte that is not part of well-formed
 * UTF-8 becomes one '?'.  Printable UTF-8 is kept as is, so the text can
 * only get shorter.  Returns the number of '?' put in. */
size_t text_sanitize(char *s);

/* Drops the spaces at the end of s, in place (after text_sanitize, the
 * only white space left). */
void text_trim_right(char *s);

/* Writes s as the body of a JSON string (without the quotes). */
void text_json_escape(FILE *f, const char *s);

/* Writes s as one CSV field (RFC 4180: quoted when it holds a comma, a
 * quote or a line break). */
void text_csv_field(FILE *f, const char *s);

/* Writes s escaped for XML text and attribute values. */
void text_xml_escape(FILE *f, const char *s);

/* Splits line at tabs, in place, after dropping one trailing newline:
 * fields[0..n) point into line (empty fields included).  Returns n, or -1
 * when the line holds more than max fields: a record never silently loses
 * or merges its trailing fields. */
int text_split_tabs(char *line, char **fields, int max);

/* Index of word in names[0..count), or -1: the vocabularies' parser. */
int text_index(const char *const *names, int count, const char *word);

/* Seconds on the monotonic clock. */
double text_now(void);

/* Writes t as ISO-8601 in UTC, "2026-01-01T00:00:13Z": the one form of
 * every date conform writes (the database's, JUnit's, export's), so they
 * compare as text and sort in time order.  A time gmtime cannot convert
 * is written as the epoch. */
void text_utc_iso(char *buf, size_t len, time_t t);

/* Writes a count the way users write it: "2^20" for a power of two from
 * 2^10 up, else decimal ("1000", "100003"). */
void text_count(char *buf, size_t len, long long n);

/* Appends " word" to the command line in buf (of len bytes), the word in
 * single quotes when a shell would read it otherwise (a space, a glob,
 * a quote).  What does not fit is cut: the caller sizes buf. */
void text_shell_append(char *buf, size_t len, const char *word);

#endif
