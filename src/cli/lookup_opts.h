/*
 * lookup_opts.h - the options of the commands that read tuning results
 * from the database (conform best, conform history, conform export):
 *
 *   KERNEL [--n N] [--dtype T] [--op O] [--gpu NAME] [--objective O] [--json|--csv] [--db PATH]
 *
 * KERNEL is a variant or a glob; --gpu matches the device's name as a glob
 * ("host" for results without a GPU).  --device, a GPU ordinal in run and
 * tune, is refused with a pointer to --gpu.
 */
#ifndef CONFORM_LOOKUP_OPTS_H
#define CONFORM_LOOKUP_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include "cli/cmd.h"
#include "db/db.h"
#include "report/emit.h"

struct lookup_opts {
	struct db_tuned_query q;      /* pattern, n (0: not given), dtype, op, device (--gpu) */
	const char *db_path;          /* NULL: the default */
	enum emit_format format;
	enum objective objective;     /* --objective: what "best" minimises; 0: time */
};

/* The options of their own (the rest are shared ones, cmd.h). */
enum { LOOKUP_OPT_N = CMD_OPT_OWN, LOOKUP_OPT_GPU, LOOKUP_OPT_DEVICE };

/* What best and history both take after their --n, --dtype and --op:
 * --gpu, --json, --csv, --db (and --device, refused). */
extern const struct cmd_option lookup_options[];

/* The entries' set(): every option of best and history. */
int lookup_set(void *opts, int id, const struct cmd_value *v);

/* Parses argv (argv[0] is the command) by e's grammar.  Returns 0, or what
 * the command returns (cmd_parse; a missing KERNEL is a usage error). */
int lookup_opts_parse(const struct cmd_entry *e, int argc, char **argv, struct lookup_opts *o);

/* Opens the database without creating it: a lookup in a database that does
 * not exist is refused like one in an empty database.  Prints the error and
 * returns -1, or returns 0 with path filled. */
int lookup_db_open(const struct lookup_opts *o, char *path, size_t len, struct db **db);

/* A row's configuration as shown: its params without op= ("(default)"
 * when nothing is left). */
void lookup_config(const struct db_tuned_row *row, char *buf, size_t len);

/* A row's size as shown: "2^24", or "2^20x64" for rows of columns. */
void lookup_size(const struct db_tuned_row *row, char *buf, size_t len);

/* Widens a table's column to fit s.  best's and history's text columns are
 * as wide as their widest entry: device names, variants, configurations
 * ("block=1024,items=2,grid=..."), sizes of rows ("2^12x1024") and builds
 * vary by the database, so no fixed width fits them all.  Counts bytes, as
 * printf's %-*s pads. */
void lookup_widen(int *width, const char *s);

#endif
