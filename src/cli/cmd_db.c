/*
 * cmd_db.c - "conform db": where the database is, and what is in it.
 *
 *   conform db path [--db PATH]   print the database path scripts should read
 *   conform db info [--db PATH]   schema version, size, runs (by kind) and results
 *   conform db prune --keep N [--db PATH]
 *                                 all but the newest N runs of each kind removed
 *   conform db merge OUT IN...    the runs of each IN that OUT lacks, into OUT
 *
 * prune refuses to run without --keep: it deletes results, and no default
 * count of runs is right for every database.
 *
 * Scripts read the database directly (sqlite3, Python's sqlite3); it is in
 * WAL mode, so they can while a run writes.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cmd.h"
#include "common/text.h"
#include "db/db.h"

enum { DB_OPT_KEEP = CMD_OPT_OWN };

/* The most runs of a kind --keep takes: far more than any database holds. */
#define DB_KEEP_MAX 1000000000ull

struct db_opts {
	const char *given;      /* --db PATH; NULL: the default */
	long long keep;         /* --keep N; 0: not given */
};

static const struct cmd_option db_options[] = {
	{.id = CMD_OPT_DB},
	{.id = DB_OPT_KEEP, .name = "keep", .arg = CMD_ARG_COUNT, .max = DB_KEEP_MAX, .metavar = "N",
	 .help = "prune: the newest runs of each kind to keep"},
	{0},
};

static int db_set(void *opts, int id, const struct cmd_value *v)
{
	struct db_opts *o = opts;
	if (id == DB_OPT_KEEP)
		o->keep = (long long)v->u;
	else
		o->given = v->text;
	return 0;
}

/* "3 conformance, 1 tune, 0 bench, 0 sweep". */
static void kinds_text(const long long runs[RUN_KIND_COUNT], char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int k = 0; k < RUN_KIND_COUNT && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%lld %s", k ? ", " : "", runs[k],
					 run_kind_name((enum run_kind)k));
}

/* conform db prune --keep N: opened as a run opens it (checked, migrated),
 * then pruned in one transaction. */
static int db_prune_keep(const char *path, long long keep)
{
	char err[CMD_ERR_MAX], kinds[256];
	struct db *db;
	struct db_prune_counts c;
	struct stat sb;
	if (stat(path, &sb) != 0) {
		cmd_error("%s: no database to prune", path);
		return EXIT_USAGE;
	}
	if (db_open(path, &db, err, sizeof err) < 0) {
		cmd_error("%s", err);
		return EXIT_USAGE;
	}
	if (db_prune(db, keep, &c, err, sizeof err) != 0) {
		cmd_error("db prune: %s", err);
		db_close(db);
		return EXIT_USAGE;
	}
	db_close(db);
	long long runs = 0;
	for (int k = 0; k < RUN_KIND_COUNT; k++)
		runs += c.runs[k];
	kinds_text(c.runs, kinds, sizeof kinds);
	printf("%s: removed %lld run%s (%s) and %lld result%s; kept the newest %lld of each kind\n", path,
	       runs, runs == 1 ? "" : "s", kinds, c.results, c.results == 1 ? "" : "s", keep);
	return 0;
}

/* The most input databases one merge takes. */
#define DB_MERGE_INPUTS_MAX 1024

/* conform db merge OUT IN...: every input checked before the first is
 * merged, then each merged in its own transaction (db_merge). */
static int db_merge_all(const char *out_path, char **in, int nin)
{
	char err[CMD_ERR_MAX];
	struct db *out;
	if (nin < 1) {
		cmd_error("db merge: which databases? (conform db merge OUT IN...)");
		return EXIT_USAGE;
	}
	for (int i = 0; i < nin; i++)
		if (db_check_source(in[i], err, sizeof err) < 0) {
			cmd_error("db merge: %s", err);
			return EXIT_USAGE;
		}
	if (db_open(out_path, &out, err, sizeof err) < 0) {
		cmd_error("db merge: %s", err);
		return EXIT_USAGE;
	}
	int rc = 0;
	for (int i = 0; i < nin && rc == 0; i++) {
		struct db_merge_counts c;
		if (db_merge(out, in[i], &c, err, sizeof err) < 0) {
			cmd_error("db merge: %s", err);
			rc = EXIT_USAGE;
			break;
		}
		printf("%s: %lld run%s, %lld result%s, %lld device%s, %lld copy bandwidth%s added; "
		       "%lld run%s already there\n",
		       in[i], c.runs, c.runs == 1 ? "" : "s", c.results, c.results == 1 ? "" : "s",
		       c.devices, c.devices == 1 ? "" : "s", c.bandwidths, c.bandwidths == 1 ? "" : "s",
		       c.runs_present, c.runs_present == 1 ? "" : "s");
	}
	db_close(out);
	return rc;
}

/* conform db info: the schema and what is stored. */
static int db_info(const char *path)
{
	char err[CMD_ERR_MAX];
	struct db *db;
	struct db_counts n;
	long long kinds[RUN_KIND_COUNT];
	char text[256], size[48];
	struct stat sb;
	/* Opened as a lookup (a read-only file system is read as it is), then
	 * checked whole, as the commands that record results check it. */
	if (db_open_lookup(path, &db, err, sizeof err) < 0) {
		cmd_error("%s", err);
		return EXIT_USAGE;
	}
	if (db_check_whole(db, err, sizeof err) < 0 || db_count(db, &n, err, sizeof err) < 0 ||
	    db_count_kinds(db, kinds, err, sizeof err) != 0) {
		cmd_error("%s", err);
		db_close(db);
		return EXIT_USAGE;
	}
	printf("%s: schema %d, %lld run%s, %lld result%s, %lld device%s\n", path, db_schema_version(db),
	       n.runs, n.runs == 1 ? "" : "s", n.results, n.results == 1 ? "" : "s", n.devices,
	       n.devices == 1 ? "" : "s");
	/* The main file alone: the WAL is folded into it when the last
	 * connection closes. */
	if (stat(path, &sb) == 0)
		snprintf(size, sizeof size, "%lld bytes", (long long)sb.st_size);
	else
		snprintf(size, sizeof size, "unknown");
	kinds_text(kinds, text, sizeof text);
	printf("size: %s\nruns: %s\n", size, text);
	db_close(db);
	return 0;
}

static int db_exec(int argc, char **argv)
{
	char path[4096];
	struct db_opts o = {0};
	int operand;
	int r = cmd_parse(&cmd_db_entry, argc, argv, &o, &operand);
	if (r != 0)
		return r;
	const char *what = operand < argc ? argv[operand] : "";
	const char *given = o.given;
	if (o.keep && strcmp(what, "prune") != 0) {
		cmd_error("--keep is db prune's (conform db prune --keep N)");
		return EXIT_USAGE;
	}
	if (strcmp(what, "merge") == 0) {
		if (given) {
			cmd_error("db merge names its output first: conform db merge OUT IN... (no --db)");
			return EXIT_USAGE;
		}
		if (operand + 1 >= argc) {
			cmd_error("db merge: into which database? (conform db merge OUT IN...)");
			return EXIT_USAGE;
		}
		return db_merge_all(argv[operand + 1], argv + operand + 2, argc - operand - 2);
	}
	if (strcmp(what, "path") != 0 && strcmp(what, "info") != 0 && strcmp(what, "prune") != 0) {
		cmd_error("usage: conform db path|info [--db PATH] | conform db prune --keep N [--db PATH] | "
			  "conform db merge OUT IN...");
		return EXIT_USAGE;
	}
	if (argc - operand > 1) {
		cmd_error("unexpected argument '%s' (see conform db --help)", argv[operand + 1]);
		return EXIT_USAGE;
	}
	if (cmd_db_path(given, path, sizeof path) < 0)
		return EXIT_USAGE;
	if (strcmp(what, "path") == 0) {
		printf("%s\n", path);
		return 0;
	}
	if (strcmp(what, "prune") == 0) {
		if (!o.keep) {
			cmd_error("db prune: how many runs of each kind to keep? (--keep N)");
			return EXIT_USAGE;
		}
		return db_prune_keep(path, o.keep);
	}
	return db_info(path);
}

const struct cmd_entry cmd_db_entry = {
	.name = "db",
	.usage = "db path|info|prune [--db PATH] | merge OUT IN...",
	.summary = "the result database: its path, what it holds; merging shards",
	.exec = db_exec,
	.options = db_options,
	.help_head = "usage: conform db path|info [--db PATH]\n"
		     "       conform db prune --keep N [--db PATH]\n"
		     "       conform db merge OUT IN...\n"
		     "  path                  print the database path scripts should read\n"
		     "  info                  schema version, runs, results and devices stored, the\n"
		     "                        file's size and the runs of each kind\n"
		     "  prune --keep N        keep the newest N runs of each kind (conformance, tune,\n"
		     "                        bench, sweep); delete the older ones and their results\n"
		     "  merge OUT IN...       add to OUT (created if need be) the runs of each IN it\n"
		     "                        lacks, with their results and devices; a run is known by\n"
		     "                        its uuid, so merging a file twice adds nothing\n",
	.help_tail = "exit: 0 done, 2 usage error, or a database refused (damaged, another program's,\n"
		     "      of another schema version, locked); a refused merge adds nothing\n",
	.operands = 2 + DB_MERGE_INPUTS_MAX,
	.set = db_set,
};
