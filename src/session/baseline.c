/*
 * baseline.c - reading, matching and writing expected-failure baselines
 * (format and rules in baseline.h).
 *
 * The file's text is kept whole in the baseline and the entries point into
 * it, each name and reason cut out in place with a NUL, so an entry costs
 * three words whatever the file's size.  The checks of what a name and a
 * reason may hold are one function each, used by the reader and by the
 * writer alike, so that whatever baseline_write accepts baseline_load
 * reads back unchanged.
 *
 * Cost: loading is linear in the input plus one sort of the entries;
 * matching a case is a binary search among the exact names plus one
 * fnmatch per glob (a baseline lists few globs).
 *
 * Invariants: a load either fills the baseline with every entry of its
 * input or leaves it empty; no two entries have the same name; every error
 * is one line "file:line: what was expected".
 */
#include "session/baseline.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/file_read.h"
#include "common/text.h"
#include "common/vec.h"
#include "suite/suite.h"

/* The characters of a case name (suite.h: [A-Za-z0-9_-] and dots) and
 * those of a glob. */
static int name_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("._-*?[]!", c));
}

/* The index of name[0..n)'s first byte that no case name or glob holds, or
 * n when there is none. */
static size_t name_bad_byte(const char *name, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!name_char((unsigned char)name[i]))
			return i;
	return n;
}

/* The index of reason[0..n)'s first byte that is a control character or
 * not well-formed UTF-8, or n when there is none.  text_sanitize is the
 * one judge of what is printable: the first byte it changes is the
 * first bad one. */
static size_t reason_bad_byte(const char *reason, size_t n)
{
	char copy[BASELINE_REASON_MAX];
	size_t i;

	if (n >= sizeof copy)
		return 0;
	memcpy(copy, reason, n);
	copy[n] = '\0';
	if (text_sanitize(copy) == 0 && strlen(copy) == n)
		return n;
	for (i = 0; i < n && copy[i] == reason[i]; i++)
		;
	return i;
}

static int is_glob(const char *name)
{
	return strpbrk(name, "*?[") != NULL;
}

int baseline_name_ok(const char *name)
{
	size_t n = strlen(name);
	return n > 0 && name_bad_byte(name, n) == n && !is_glob(name);
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

#ifdef __GNUC__
__attribute__((format(printf, 5, 6)))
#endif
static int fail(const char *origin, char *err, size_t len, int line, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (!len)
		return -1;
	k = snprintf(err, len, "%s:%d: ", origin, line);
	if (k >= 0 && (size_t)k < len) {
		va_start(ap, fmt);
		vsnprintf(err + k, len - (size_t)k, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Checks the bytes of a physical line p..end: a control character anywhere
 * (white space aside) is refused, comments included, as in a suite file. */
static int check_controls(const struct baseline *b, char *err, size_t len, int line,
			  const char *p, const char *end)
{
	for (const char *q = p; q < end; q++) {
		unsigned char c = (unsigned char)*q;
		if ((c < 0x20 && !is_space((char)c)) || c == 0x7f)
			return fail(b->origin, err, len, line,
				    "control character 0x%02x at column %zu (a baseline file is printable text)",
				    c, (size_t)(q - p) + 1);
	}
	return 0;
}

/* Parses one physical line p..end of b->text (which it may cut with NULs)
 * and appends its entry, if it has one. */
static int parse_line(struct baseline *b, char *err, size_t len, int line, char *p, char *end)
{
	char *q = p, *name, *reason, *stop;
	size_t nlen, rlen, bad;

	if (check_controls(b, err, len, line, p, end) < 0)
		return -1;
	while (q < end && is_space(*q))
		q++;
	if (q == end || *q == '#')
		return 0;
	for (name = q; q < end && !is_space(*q); q++)
		;
	nlen = (size_t)(q - name);
	if ((bad = name_bad_byte(name, nlen)) < nlen) {
		unsigned char c = (unsigned char)name[bad];
		if (c > 0x7e)
			return fail(b->origin, err, len, line,
				    "byte 0x%02x at column %zu in a case name (names are ASCII)", c,
				    (size_t)(name - p) + bad + 1);
		return fail(b->origin, err, len, line,
			    "bad character '%c' at column %zu in '%.*s' (a case name or glob: "
			    "letters, digits, . _ - and * ? [ ] !)",
			    c, (size_t)(name - p) + bad + 1, (int)(nlen > 60 ? 60 : nlen), name);
	}
	if (nlen >= CASE_NAME_MAX)
		return fail(b->origin, err, len, line, "case name or glob '%.40s...' is longer than %d characters",
			    name, CASE_NAME_MAX - 1);
	while (q < end && is_space(*q))
		q++;
	for (reason = q, stop = end; stop > reason && is_space(stop[-1]); stop--)
		;
	rlen = (size_t)(stop - reason);
	if (rlen == 0)
		return fail(b->origin, err, len, line,
			    "'%.*s' has no reason (expected 'CASE_NAME_OR_GLOB REASON...')", (int)nlen,
			    name);
	if (rlen >= BASELINE_REASON_MAX)
		return fail(b->origin, err, len, line, "the reason is longer than %d bytes",
			    BASELINE_REASON_MAX - 1);
	/* One line of output: each tab (or CR, VT, FF) in the reason a space. */
	for (char *r = reason; r < stop; r++)
		if (is_space(*r))
			*r = ' ';
	if ((bad = reason_bad_byte(reason, rlen)) < rlen)
		return fail(b->origin, err, len, line,
			    "byte 0x%02x at column %zu: the reason is not UTF-8 text",
			    (unsigned char)reason[bad], (size_t)(reason - p) + bad + 1);
	if (b->count == BASELINE_ENTRIES_MAX)
		return fail(b->origin, err, len, line, "more than %d entries (the most a baseline may hold)",
			    BASELINE_ENTRIES_MAX);
	if (vec_reserve(b->entries, b->count, b->cap, 1) < 0)
		return fail(b->origin, err, len, line, "out of memory");
	name[nlen] = '\0';
	*stop = '\0';
	b->entries[b->count++] = (struct baseline_entry){.name = name, .reason = reason, .line = line};
	return 0;
}

static int compare_entries(const void *x, const void *y)
{
	const struct baseline_entry *a = *(const struct baseline_entry *const *)x;
	const struct baseline_entry *c = *(const struct baseline_entry *const *)y;
	int k = strcmp(a->name, c->name);
	return k ? k : (a->line > c->line) - (a->line < c->line);
}

/* Builds the matcher's indexes, refusing a name listed twice: of the
 * repeated lines the earliest is said, with the line it repeats. */
static int index_entries(struct baseline *b, char *err, size_t len)
{
	size_t n = b->count ? b->count : 1;
	const struct baseline_entry **sorted = malloc(n * sizeof *sorted);
	const struct baseline_entry *dup = NULL, *first = NULL;

	b->exact = malloc(n * sizeof *b->exact);
	b->globs = malloc(n * sizeof *b->globs);
	if (!sorted || !b->exact || !b->globs) {
		free(sorted);
		return fail(b->origin, err, len, 0, "out of memory");
	}
	for (size_t i = 0; i < b->count; i++)
		sorted[i] = &b->entries[i];
	/* By name, then line: a name's lines are together, earliest first. */
	qsort(sorted, b->count, sizeof *sorted, compare_entries);
	for (size_t i = 1, run = 0; i < b->count; i++) {
		if (strcmp(sorted[run]->name, sorted[i]->name) != 0)
			run = i;
		else if (!dup || sorted[i]->line < dup->line)
			dup = sorted[i], first = sorted[run];
	}
	for (size_t i = 0; i < b->count; i++)
		if (!is_glob(sorted[i]->name))
			b->exact[b->nexact++] = (size_t)(sorted[i] - b->entries);
	for (size_t i = 0; i < b->count; i++)
		if (is_glob(b->entries[i].name))
			b->globs[b->nglobs++] = i;
	free(sorted);
	if (dup)
		return fail(b->origin, err, len, dup->line, "'%s' is listed twice (first at line %d)",
			    dup->name, first->line);
	return 0;
}

int baseline_load_buffer(struct baseline *b, const char *origin, const char *data, size_t size,
			 char *err, size_t len)
{
	int lineno = 0, rc = 0;

	memset(b, 0, sizeof *b);
	if (!(b->origin = strdup(origin)))
		return fail(origin, err, len, 0, "out of memory");
	if (size > BASELINE_FILE_BYTES_MAX) {
		/* The line that holds the first byte too many. */
		int line = 1;
		for (const char *p = data;
		     (p = memchr(p, '\n', (size_t)(data + BASELINE_FILE_BYTES_MAX - p))); p++)
			line++;
		fail(origin, err, len, line, "the file goes past %d bytes here (the most a baseline file may hold)",
		     BASELINE_FILE_BYTES_MAX);
		baseline_free(b);
		return -1;
	}
	if (!(b->text = malloc(size + 1))) {
		fail(origin, err, len, 0, "out of memory");
		baseline_free(b);
		return -1;
	}
	memcpy(b->text, data, size);
	b->text[size] = '\0';
	for (char *p = b->text, *end = b->text + size; p < end && rc == 0;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *eol = nl ? nl : end;
		rc = parse_line(b, err, len, ++lineno, p, eol);
		p = nl ? nl + 1 : end;
	}
	if (rc == 0)
		rc = index_entries(b, err, len);
	if (rc < 0)
		baseline_free(b);
	return rc;
}

int baseline_load_file(struct baseline *b, const char *path, char *err, size_t len)
{
	char *text;
	size_t size;

	memset(b, 0, sizeof *b);
	if (file_read_bounded(path, BASELINE_FILE_BYTES_MAX, &text, &size, err, len) < 0)
		return -1;
	int rc = baseline_load_buffer(b, path, text, size, err, len);
	free(text);
	return rc;
}

/* The index of the entry whose exact name is name, or b->count. */
static size_t find_exact(const struct baseline *b, const char *name)
{
	size_t lo = 0, hi = b->nexact;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int k = strcmp(b->entries[b->exact[mid]].name, name);
		if (k == 0)
			return b->exact[mid];
		if (k < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return b->count;
}

/* A glob matches as --filter's do: one matcher for both. */
static int glob_matches(const struct baseline_entry *e, const char *name)
{
	return suite_glob_any(name, &e->name, 1);
}

const struct baseline_entry *baseline_match(const struct baseline *b, const char *name)
{
	size_t i = find_exact(b, name);

	if (i < b->count)
		return &b->entries[i];
	for (size_t g = 0; g < b->nglobs; g++)
		if (glob_matches(&b->entries[b->globs[g]], name))
			return &b->entries[b->globs[g]];
	return NULL;
}

void baseline_mark(const struct baseline *b, const char *name, unsigned char *used)
{
	size_t i = find_exact(b, name);

	if (i < b->count)
		used[i] = 1;
	for (size_t g = 0; g < b->nglobs; g++)
		if (glob_matches(&b->entries[b->globs[g]], name))
			used[b->globs[g]] = 1;
}

/* 1 when e can be written so that it reads back as itself. */
static int writable(const struct baseline_entry *e)
{
	size_t nlen = e->name ? strlen(e->name) : 0, rlen = e->reason ? strlen(e->reason) : 0;

	return nlen > 0 && nlen < CASE_NAME_MAX && name_bad_byte(e->name, nlen) == nlen &&
	       rlen > 0 && rlen < BASELINE_REASON_MAX && e->reason[0] != ' ' &&
	       e->reason[rlen - 1] != ' ' && reason_bad_byte(e->reason, rlen) == rlen;
}

int baseline_write(FILE *f, const struct baseline_entry *e, size_t n)
{
	int width = 0;

	for (size_t i = 0; i < n; i++) {
		if (!writable(&e[i])) {
			errno = EINVAL;
			return -1;
		}
		if ((int)strlen(e[i].name) > width)
			width = (int)strlen(e[i].name);
	}
	for (size_t i = 0; i < n; i++)
		if (fprintf(f, "%-*s  %s\n", width, e[i].name, e[i].reason) < 0)
			return -1;
	return ferror(f) ? -1 : 0;
}

void baseline_free(struct baseline *b)
{
	free(b->origin);
	free(b->entries);
	free(b->text);
	free(b->exact);
	free(b->globs);
	memset(b, 0, sizeof *b);
}

void baseline_note(char *message, size_t size, const char *reason)
{
	size_t mlen = strlen(message), plen;
	char head[sizeof BASELINE_NOTE + BASELINE_REASON_MAX + 2];

	if (!size)
		return;
	snprintf(head, sizeof head, "%s%s%s", BASELINE_NOTE, reason, mlen ? "; " : "");
	plen = strlen(head);
	if (plen >= size) {
		text_copy(message, size, head);
		return;
	}
	if (mlen > size - 1 - plen)
		mlen = size - 1 - plen;
	memmove(message + plen, message, mlen);
	message[plen + mlen] = '\0';
	memcpy(message, head, plen);
}

const char *baseline_note_skip(const char *message, const char *reason)
{
	size_t nlen = strlen(BASELINE_NOTE), rlen = strlen(reason);

	if (strncmp(message, BASELINE_NOTE, nlen) != 0 || strncmp(message + nlen, reason, rlen) != 0)
		return message;
	const char *rest = message + nlen + rlen;
	if (rest[0] == ';' && rest[1] == ' ')
		return rest + 2;
	return *rest ? message : rest;
}
