/*
 * export.h - tuned configurations out of the database and into a user's
 * build: a C header of lookup tables (export_header_write) and JSON lines
 * with each configuration as an object (export_json_write).
 *
 * Both take best_rows()'s rows (src/tune/best.h): the best correct timed
 * configuration per device, variant, dtype, op, size and row length by an
 * objective (by time, best_configs' rows: timing_rank_cmp's rule).  The
 * header's lookups choose among them the way `conform best` does: the size
 * asked for, else the nearest tuned size in log2, the larger on a tie, then
 * the best by the same objective.  By time each entry carries ci_high_us,
 * the bound the lookups compare; by energy or edp, whose figures the
 * entries do not hold, each table lists its entries best first by
 * objective_rank_cmp and the lookups take the first that matches.  The
 * output by time is what it was before there were objectives.
 */
#ifndef CONFORM_EXPORT_H
#define CONFORM_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "common/objective.h"
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
	enum objective objective;   /* what chose the rows */
};

/* Writes the header for rows[0..n) (n >= 1).  Returns 0, or -1 with a
 * one-line message (a configuration that is not integers, too many
 * tunables, two variants with one C name). */
int export_header_write(FILE *f, const struct db_tuned_row *rows, size_t n,
			const struct export_meta *m, char *err, size_t len);

/* One JSON object a line per row, the configuration as an object of
 * integers; by energy or edp (o) each line adds the energy figures and
 * "objective".  Returns 0, or -1 with a message. */
int export_json_write(FILE *f, const struct db_tuned_row *rows, size_t n, enum objective o,
		      char *err, size_t len);

/* The tunables of a row's params (op left out) as names and integers.
 * Returns the count, or -1 with a message. */
struct export_param {
	char name[64];
	long long value;
};
int export_params(const struct db_tuned_row *row, struct export_param *out, char *err, size_t len);

#endif
