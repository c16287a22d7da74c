/*
 * emit.h - the one writer of conform's machine-readable output: JSON (run
 * --json, tune/bench --json, best/history --json) and CSV (tune/bench
 * --csv, best/history --csv).
 *
 * Two layers:
 *   - a JSON writer with nesting (objects and arrays), which owns the
 *     commas, the string escaping and the numbers: a NaN or an infinity is
 *     written as null, never as the invalid "nan" or "inf";
 *   - records: a list of named fields written either as one JSON object on
 *     a line or as one CSV row (with the header before the first row), so a
 *     command that offers both formats declares its columns once and the two
 *     cannot drift apart.
 *
 * In CSV a missing value (null, NaN) is an empty field, a boolean is 1 or 0
 * and text is quoted only where RFC 4180 needs it.
 *
 * A 64-bit value whose every digit matters (a seed) is a JSON string of
 * its digits: jq and JavaScript read JSON numbers as doubles, exact only
 * up to 2^53, and would hand back a different seed.  In CSV, which has no
 * types, it is the plain number.
 */
#ifndef CONFORM_EMIT_H
#define CONFORM_EMIT_H

#include <stddef.h>
#include <stdio.h>

/* How a command prints rows: the human table, or one of the two formats
 * written here (--csv, --json). */
enum emit_format { EMIT_TABLE, EMIT_CSV, EMIT_JSON };

/*
 * The JSON writer.  Every value takes a key: the member's name inside an
 * object, NULL inside an array or for the outermost value.  Closing the
 * outermost value ends the line and flushes, so a reader of JSON lines sees
 * whole objects only.
 */
#define EMIT_DEPTH_MAX 8

struct emit_json {
	FILE *f;
	int depth;
	int members[EMIT_DEPTH_MAX]; /* values written so far at each open level */
	char closer[EMIT_DEPTH_MAX]; /* '}' or ']' for each open level */
};

void emit_json_init(struct emit_json *j, FILE *f);
void emit_json_object(struct emit_json *j, const char *key);
void emit_json_array(struct emit_json *j, const char *key);
/* Closes the innermost object or array. */
void emit_json_close(struct emit_json *j);
void emit_json_string(struct emit_json *j, const char *key, const char *s);
void emit_json_int(struct emit_json *j, const char *key, long long v);
void emit_json_uint(struct emit_json *j, const char *key, unsigned long long v);
/* v as a string of its decimal digits, "18446744073709551615" (see above). */
void emit_json_uint_exact(struct emit_json *j, const char *key, unsigned long long v);
/* %.6g; decimals >= 0 writes that many after the point instead. */
void emit_json_real(struct emit_json *j, const char *key, double v, int decimals);
void emit_json_bool(struct emit_json *j, const char *key, int v);
void emit_json_null(struct emit_json *j, const char *key);

/*
 * Records.  A field is a name and a typed value; EMIT_FIELD_* build them.
 */
enum emit_kind { EMIT_NULL, EMIT_STRING, EMIT_INT, EMIT_UINT, EMIT_UINT_EXACT, EMIT_REAL,
		 EMIT_BOOL };

struct emit_field {
	const char *name;
	enum emit_kind kind;
	int decimals;               /* EMIT_REAL: see emit_json_real */
	union {
		const char *s;
		long long i;
		unsigned long long u;
		double d;
		int b;
	};
};

#define EMIT_STR(n, v) ((struct emit_field){.name = (n), .kind = EMIT_STRING, .s = (v)})
#define EMIT_INT(n, v) ((struct emit_field){.name = (n), .kind = EMIT_INT, .i = (long long)(v)})
#define EMIT_UINT(n, v) \
	((struct emit_field){.name = (n), .kind = EMIT_UINT, .u = (unsigned long long)(v)})
/* A seed: a string in JSON, a number in CSV. */
#define EMIT_UINT_EXACT(n, v) \
	((struct emit_field){.name = (n), .kind = EMIT_UINT_EXACT, .u = (unsigned long long)(v)})
#define EMIT_REAL(n, v) ((struct emit_field){.name = (n), .kind = EMIT_REAL, .decimals = -1, .d = (v)})
#define EMIT_FIXED(n, v, dec) \
	((struct emit_field){.name = (n), .kind = EMIT_REAL, .decimals = (dec), .d = (v)})
#define EMIT_BOOL(n, v) ((struct emit_field){.name = (n), .kind = EMIT_BOOL, .b = !!(v)})
#define EMIT_NULL(n) ((struct emit_field){.name = (n), .kind = EMIT_NULL})

/* Writes one field as a member of the current JSON object. */
void emit_json_field(struct emit_json *j, const struct emit_field *field);

struct emit_rows {
	FILE *f;
	enum emit_format format;    /* EMIT_CSV or EMIT_JSON */
	int header_done;            /* CSV: the header goes before the first row */
};

/* One record: a JSON object on its own line, or a CSV row.  Every record of
 * one emit_rows must have the same fields in the same order (the CSV header
 * is written from the first). */
void emit_row(struct emit_rows *r, const struct emit_field *fields, size_t n);

#endif
