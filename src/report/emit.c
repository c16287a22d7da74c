/*
 * emit.c - JSON and CSV writing (see emit.h).
 *
 * Invariant of the JSON writer: members[d] counts the values written at
 * open level d and closer[d] is the bracket that ends it, so the comma
 * before a value is decided in one place (begin_value) and no caller writes
 * punctuation of its own.
 */
#include "report/emit.h"

#include <math.h>

#include "common/text.h"

void emit_json_init(struct emit_json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->members[0] = 0;
}

/* The comma and the key that go before any value. */
static void begin_value(struct emit_json *j, const char *key)
{
	if (j->depth > 0 && j->members[j->depth]++ > 0)
		fputc(',', j->f);
	if (key) {
		fputc('"', j->f);
		text_json_escape(j->f, key);
		fputs("\":", j->f);
	}
}

static void open_level(struct emit_json *j, const char *key, char open, char close)
{
	/* conform's outputs nest two or three deep; a deeper one is a bug
	 * here, and writing on would produce JSON no reader accepts. */
	if (j->depth == EMIT_DEPTH_MAX - 1)
		return;
	begin_value(j, key);
	fputc(open, j->f);
	j->depth++;
	j->members[j->depth] = 0;
	j->closer[j->depth] = close;
}

void emit_json_object(struct emit_json *j, const char *key)
{
	open_level(j, key, '{', '}');
}

void emit_json_array(struct emit_json *j, const char *key)
{
	open_level(j, key, '[', ']');
}

void emit_json_close(struct emit_json *j)
{
	if (j->depth == 0)
		return;
	fputc(j->closer[j->depth--], j->f);
	if (j->depth == 0) {
		fputc('\n', j->f);
		fflush(j->f);
	}
}

void emit_json_string(struct emit_json *j, const char *key, const char *s)
{
	begin_value(j, key);
	fputc('"', j->f);
	text_json_escape(j->f, s);
	fputc('"', j->f);
}

void emit_json_int(struct emit_json *j, const char *key, long long v)
{
	begin_value(j, key);
	fprintf(j->f, "%lld", v);
}

void emit_json_uint(struct emit_json *j, const char *key, unsigned long long v)
{
	begin_value(j, key);
	fprintf(j->f, "%llu", v);
}

void emit_json_uint_exact(struct emit_json *j, const char *key, unsigned long long v)
{
	begin_value(j, key);
	fprintf(j->f, "\"%llu\"", v);
}

void emit_json_real(struct emit_json *j, const char *key, double v, int decimals)
{
	begin_value(j, key);
	if (!isfinite(v))
		fputs("null", j->f); /* JSON has no NaN or infinity */
	else if (decimals >= 0)
		fprintf(j->f, "%.*f", decimals, v);
	else
		fprintf(j->f, "%.6g", v);
}

void emit_json_bool(struct emit_json *j, const char *key, int v)
{
	begin_value(j, key);
	fputs(v ? "true" : "false", j->f);
}

void emit_json_null(struct emit_json *j, const char *key)
{
	begin_value(j, key);
	fputs("null", j->f);
}

void emit_json_field(struct emit_json *j, const struct emit_field *fd)
{
	switch (fd->kind) {
	case EMIT_NULL: emit_json_null(j, fd->name); break;
	case EMIT_STRING: emit_json_string(j, fd->name, fd->s); break;
	case EMIT_INT: emit_json_int(j, fd->name, fd->i); break;
	case EMIT_UINT: emit_json_uint(j, fd->name, fd->u); break;
	case EMIT_UINT_EXACT: emit_json_uint_exact(j, fd->name, fd->u); break;
	case EMIT_REAL: emit_json_real(j, fd->name, fd->d, fd->decimals); break;
	case EMIT_BOOL: emit_json_bool(j, fd->name, fd->b); break;
	}
}

static void csv_field(FILE *f, const struct emit_field *fd)
{
	switch (fd->kind) {
	case EMIT_NULL: break;
	case EMIT_STRING: text_csv_field(f, fd->s); break;
	case EMIT_INT: fprintf(f, "%lld", fd->i); break;
	case EMIT_UINT:
	case EMIT_UINT_EXACT: fprintf(f, "%llu", fd->u); break;
	case EMIT_REAL:
		if (!isfinite(fd->d))
			break; /* missing: an empty field */
		if (fd->decimals >= 0)
			fprintf(f, "%.*f", fd->decimals, fd->d);
		else
			fprintf(f, "%.6g", fd->d);
		break;
	case EMIT_BOOL: fputc(fd->b ? '1' : '0', f); break;
	}
}

void emit_row(struct emit_rows *r, const struct emit_field *fields, size_t n)
{
	if (r->format == EMIT_JSON) {
		struct emit_json j;
		emit_json_init(&j, r->f);
		emit_json_object(&j, NULL);
		for (size_t i = 0; i < n; i++)
			emit_json_field(&j, &fields[i]);
		emit_json_close(&j);
		return;
	}
	if (!r->header_done) {
		for (size_t i = 0; i < n; i++) {
			if (i)
				fputc(',', r->f);
			text_csv_field(r->f, fields[i].name);
		}
		fputc('\n', r->f);
		r->header_done = 1;
	}
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', r->f);
		csv_field(r->f, &fields[i]);
	}
	fputc('\n', r->f);
}
