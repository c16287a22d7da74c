/*
 * catalog_wire.c - writing and reading catalog lines (see catalog_wire.h).
 *
 * Each record is described once, by a table of its fields; formatting,
 * parsing and freeing all walk that table, so a field added to the table
 * is written, read and freed without touching the code below.
 */
#include "common/catalog_wire.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/num.h"
#include "common/text.h"
#include "common/vec.h"

enum field_kind {
	FIELD_TEXT,     /* a const char *, as is (may be empty) */
	FIELD_OPTIONAL, /* a const char *; "" travels as "-" */
	FIELD_FLAG,     /* an int, 0 or 1, travelling as the words no / yes */
	FIELD_COUNT,    /* a long long >= 0, in decimal */
};

struct field {
	const char *name;       /* for messages */
	size_t offset;          /* of the member in the record's struct */
	enum field_kind kind;
	const char *yes, *no;   /* FIELD_FLAG's words */
};

struct record {
	const char *tag;        /* the line's first field */
	const struct field *fields;
	int count;
	size_t size;            /* of the record's struct */
};

#define TEXT(type, m) {#m, offsetof(type, m), FIELD_TEXT, NULL, NULL}
#define OPTIONAL(type, m) {#m, offsetof(type, m), FIELD_OPTIONAL, NULL, NULL}
#define FLAG(type, m, yes, no) {#m, offsetof(type, m), FIELD_FLAG, yes, no}
#define COUNT_OF(type, m) {#m, offsetof(type, m), FIELD_COUNT, NULL, NULL}
#define COUNT(a) ((int)(sizeof(a) / sizeof (a)[0]))

static const struct field build_fields[] = {
	FLAG(struct catalog_build, has_kernels, "kernels", "no-kernels"),
	TEXT(struct catalog_build, archs),
};

static const struct field variant_fields[] = {
	TEXT(struct catalog_entry, name),
	FLAG(struct catalog_entry, gpu, "1", "0"),
	TEXT(struct catalog_entry, dtypes),
	TEXT(struct catalog_entry, summary),
	TEXT(struct catalog_entry, contract),
	OPTIONAL(struct catalog_entry, tunables),
	OPTIONAL(struct catalog_entry, space),
	OPTIONAL(struct catalog_entry, copy),
	COUNT_OF(struct catalog_entry, copy_n),
	OPTIONAL(struct catalog_entry, baseline),
	OPTIONAL(struct catalog_entry, baseline_rows),
	OPTIONAL(struct catalog_entry, kind),
	OPTIONAL(struct catalog_entry, source),
	OPTIONAL(struct catalog_entry, path),
	OPTIONAL(struct catalog_entry, expect),
	OPTIONAL(struct catalog_entry, requires),
	OPTIONAL(struct catalog_entry, timeout),
	COUNT_OF(struct catalog_entry, huge_cols),
};

static const struct record records[] = {
	[CATALOG_WIRE_BUILD] = {"build", build_fields, COUNT(build_fields), sizeof(struct catalog_build)},
	[CATALOG_WIRE_VARIANT] = {"variant", variant_fields, COUNT(variant_fields),
				  sizeof(struct catalog_entry)},
};

/* The most fields a line may split into: the tag and the longest record,
 * plus one so that a line with one field too many is seen as such. */
#define FIELDS_MAX 32
_Static_assert(COUNT(build_fields) + 2 <= FIELDS_MAX && COUNT(variant_fields) + 2 <= FIELDS_MAX,
	       "FIELDS_MAX must exceed every record's field count");

/* The members a field names, for writing (parse) and reading (format). */
static const char **text_at(const struct field *f, void *rec)
{
	return (const char **)((char *)rec + f->offset);
}

static int *flag_at(const struct field *f, void *rec)
{
	return (int *)((char *)rec + f->offset);
}

static const char *text_of(const struct field *f, const void *rec)
{
	return *(const char *const *)((const char *)rec + f->offset);
}

static int flag_of(const struct field *f, const void *rec)
{
	return *(const int *)((const char *)rec + f->offset);
}

static long long *count_at(const struct field *f, void *rec)
{
	return (long long *)((char *)rec + f->offset);
}

static long long count_of(const struct field *f, const void *rec)
{
	return *(const long long *)((const char *)rec + f->offset);
}

/* The fields that hold allocated text (freed with the record). */
static int is_text(const struct field *f)
{
	return f->kind == FIELD_TEXT || f->kind == FIELD_OPTIONAL;
}

/* Appends s to the growing line. */
static int put(char **line, size_t *n, size_t *cap, const char *s)
{
	size_t k = strlen(s);
	if (vec_reserve(*line, *n, *cap, k + 1) < 0) /* + 1: the terminator */
		return -1;
	memcpy(*line + *n, s, k + 1);
	*n += k;
	return 0;
}

static char *format_record(const struct record *r, const void *rec, char *err, size_t len)
{
	char *line = NULL;
	size_t n = 0, cap = 0;
	if (put(&line, &n, &cap, r->tag) < 0)
		goto oom;
	for (int i = 0; i < r->count; i++) {
		const struct field *f = &r->fields[i];
		const char *s;
		char number[24];
		if (f->kind == FIELD_FLAG) {
			s = flag_of(f, rec) ? f->yes : f->no;
		} else if (f->kind == FIELD_COUNT) {
			if (count_of(f, rec) < 0) {
				snprintf(err, len, "field '%s' is negative", f->name);
				goto fail;
			}
			snprintf(number, sizeof number, "%lld", count_of(f, rec));
			s = number;
		} else {
			s = text_of(f, rec);
			if (!s)
				s = "";
			if (strpbrk(s, "\t\n")) {
				snprintf(err, len, "field '%s' holds a tab or a line break", f->name);
				goto fail;
			}
			if (f->kind == FIELD_OPTIONAL && strcmp(s, "-") == 0) {
				snprintf(err, len, "field '%s' is \"-\", which would read back as empty", f->name);
				goto fail;
			}
			if (f->kind == FIELD_OPTIONAL && !*s)
				s = "-";
		}
		if (put(&line, &n, &cap, "\t") < 0 || put(&line, &n, &cap, s) < 0)
			goto oom;
	}
	if (put(&line, &n, &cap, "\n") < 0)
		goto oom;
	if (n > CATALOG_WIRE_LINE_MAX) {
		snprintf(err, len, "'%s' line of %zu bytes, over the %d a catalog line may have", r->tag,
			 n, CATALOG_WIRE_LINE_MAX);
		goto fail;
	}
	return line;
oom:
	snprintf(err, len, "out of memory");
fail:
	free(line);
	return NULL;
}

static void free_record(const struct record *r, void *rec)
{
	for (int i = 0; i < r->count; i++)
		if (is_text(&r->fields[i]))
			free((void *)*text_at(&r->fields[i], rec));
	memset(rec, 0, r->size);
}

/* Fills rec from the fields after the tag; on failure frees what it
 * allocated. */
static int parse_fields(const struct record *r, char **v, void *rec, char *err, size_t len)
{
	memset(rec, 0, r->size);
	for (int i = 0; i < r->count; i++) {
		const struct field *f = &r->fields[i];
		if (f->kind == FIELD_FLAG) {
			if (strcmp(v[i], f->yes) != 0 && strcmp(v[i], f->no) != 0) {
				snprintf(err, len, "field '%s' is '%.40s', not '%s' or '%s'", f->name, v[i],
					 f->yes, f->no);
				goto fail;
			}
			*flag_at(f, rec) = strcmp(v[i], f->yes) == 0;
			continue;
		}
		if (f->kind == FIELD_COUNT) {
			long long c;
			if (num_parse_int(v[i], 0, LLONG_MAX, &c) < 0) {
				snprintf(err, len, "field '%s' is '%.40s', not a count", f->name, v[i]);
				goto fail;
			}
			*count_at(f, rec) = c;
			continue;
		}
		if (f->kind == FIELD_OPTIONAL && !*v[i]) {
			/* The writer sends "-": an empty field would come back one
			 * byte longer, and might then be too long to write. */
			snprintf(err, len, "field '%s' is empty, not \"-\"", f->name);
			goto fail;
		}
		const char *s = f->kind == FIELD_OPTIONAL && strcmp(v[i], "-") == 0 ? "" : v[i];
		char *copy = strdup(s);
		if (!copy) {
			snprintf(err, len, "out of memory");
			goto fail;
		}
		*text_at(f, rec) = copy;
	}
	return 0;
fail:
	free_record(r, rec);
	return -1;
}

char *catalog_wire_format_build(const struct catalog_build *b, char *err, size_t len)
{
	return format_record(&records[CATALOG_WIRE_BUILD], b, err, len);
}

char *catalog_wire_format_variant(const struct catalog_entry *e, char *err, size_t len)
{
	return format_record(&records[CATALOG_WIRE_VARIANT], e, err, len);
}

char *catalog_wire_format_error(const char *message)
{
	char *line = malloc(strlen(message) + 8);

	if (!line)
		return NULL;
	sprintf(line, "error\t%s\n", message);
	/* One line, one field: a tab or a line break of the message would
	 * make another. */
	for (char *p = line + 6; p[1]; p++)
		if (*p == '\t' || *p == '\n' || *p == '\r')
			*p = ' ';
	return line;
}

int catalog_wire_parse(const char *line, struct catalog_build *b, struct catalog_entry *e,
		       char *err, size_t len)
{
	if (strncmp(line, "error\t", 6) == 0) {
		size_t n = strcspn(line + 6, "\n");
		snprintf(err, len, "%.*s", (int)n, line + 6);
		text_sanitize(err);
		return CATALOG_WIRE_ERROR;
	}
	size_t n = strlen(line);
	size_t body = n && line[n - 1] == '\n' ? n - 1 : n;
	if (body + 1 > CATALOG_WIRE_LINE_MAX) {
		snprintf(err, len, "line of %zu bytes, over the %d a catalog line may have", body + 1,
			 CATALOG_WIRE_LINE_MAX);
		return -1;
	}
	char *copy = strdup(line);
	if (!copy) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	char *v[FIELDS_MAX];
	int nv = text_split_tabs(copy, v, FIELDS_MAX);
	/* Made printable before anything is kept or quoted in a message. */
	for (int i = 0; i < nv; i++)
		text_sanitize(v[i]);
	int kind = -1;
	for (int k = 0; nv > 0 && k < COUNT(records); k++)
		if (strcmp(v[0], records[k].tag) == 0)
			kind = k;
	int rc = -1;
	if (nv < 0) {
		snprintf(err, len, "more than %d fields", FIELDS_MAX);
	} else if (kind < 0) {
		snprintf(err, len, "unknown record '%.40s'", v[0]);
	} else if (nv != records[kind].count + 1) {
		snprintf(err, len, "'%s' line with %d fields after the tag, not %d", records[kind].tag,
			 nv - 1, records[kind].count);
	} else if (parse_fields(&records[kind], v + 1,
				kind == CATALOG_WIRE_BUILD ? (void *)b : (void *)e, err, len) == 0) {
		rc = kind;
	}
	free(copy);
	if (rc < 0) /* a quoted value may have been cut inside a character */
		text_sanitize(err);
	return rc;
}

void catalog_wire_free_build(struct catalog_build *b)
{
	free_record(&records[CATALOG_WIRE_BUILD], b);
}

void catalog_wire_free_variant(struct catalog_entry *e)
{
	free_record(&records[CATALOG_WIRE_VARIANT], e);
}
