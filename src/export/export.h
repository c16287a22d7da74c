/*
 * export.h - tuned configurations out of the database and into a user's
 * build: a C header of lookup tables (export_header_write) and JSON lines
 * with each configuration as an object (export_json_write).
 *
 * Both take the rows of the database's best_configs view (db_best_each):
 * the best correct timed configuration per device, variant, dtype, op,
 * size and row length (timing_rank_cmp's rule).  The header's lookups
 * choose among them the way `conform best` does (src/tune/best.c): the
 * size asked for, else the nearest tuned size in log2, the larger on a
 * tie, then the best by the same rule (each entry carries ci_high_us).
 */
#ifndef CONFORM_EXPORT_H
#define CONFORM_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "db/db.h"

/* The most tunables an exported configuration may have (the header's
 * CONFORM_PARAMS_MAX). */
#define EXPORT_PARAMS_MAX 16

/* What the header says of where it came from. */
struct export_meta {
	const char *pattern;        /* the KERNEL glob exported */
	const char *db_path;
	const char *version;        /* conform's version and git revision */
	const char *revision;
	const char *generated_at;   /* ISO-8601 UTC */
	const char *header_name;    /* the file's base name: the include guard comes from it */
};

/* Writes the header for rows[0..n) (n >= 1).  Returns 0, or -1 with a
 * one-line message (a configuration that is not integers, too many
 * tunables, two variants with one C name). */
int export_header_write(FILE *f, const struct db_tuned_row *rows, size_t n,
			const struct export_meta *m, char *err, size_t len);

/* One JSON object a line per row, the configuration as an object of
 * integers.  Returns 0, or -1 with a message. */
int export_json_write(FILE *f, const struct db_tuned_row *rows, size_t n, char *err, size_t len);

/* The tunables of a row's params (op left out) as names and integers.
 * Returns the count, or -1 with a message. */
struct export_param {
	char name[64];
	long long value;
};
int export_params(const struct db_tuned_row *row, struct export_param *out, char *err, size_t len);

#endif
