/*
 * cmd_db.c - "conform db": where the database is, and what is in it.
 *
 *   conform db path [--db PATH]   print the database path scripts should read
 *   conform db info [--db PATH]   schema version, runs and results stored
 *   conform db merge OUT IN...    the runs of each IN that OUT lacks, into OUT
 *
 * Scripts read the database directly (sqlite3, Python's sqlite3); it is in
 * WAL mode, so they can while a run writes.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "db.h"
#include "text.h"

static const struct cmd_option db_options[] = {
	{.id = CMD_OPT_DB},
	{0},
};

static int db_set(void *opts, int id, const struct cmd_value *v)
{
	(void)id; /* --db is its only option */
	*(const char **)opts = v->text;
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
	/* Opened as a lookup (a read-only file system is read as it is), then
	 * checked whole, as the commands that record results check it. */
	if (db_open_lookup(path, &db, err, sizeof err) < 0) {
		cmd_error("%s", err);
		return EXIT_USAGE;
	}
	if (db_check_whole(db, err, sizeof err) < 0 || db_count(db, &n, err, sizeof err) < 0) {
		cmd_error("%s", err);
		db_close(db);
		return EXIT_USAGE;
	}
	printf("%s: schema %d, %lld run%s, %lld result%s, %lld device%s\n", path, db_schema_version(db),
	       n.runs, n.runs == 1 ? "" : "s", n.results, n.results == 1 ? "" : "s", n.devices,
	       n.devices == 1 ? "" : "s");
	db_close(db);
	return 0;
}

static int db_exec(int argc, char **argv)
{
	char path[4096];
	const char *given = NULL;
	int operand;
	int r = cmd_parse(&cmd_db_entry, argc, argv, &given, &operand);
	if (r != 0)
		return r;
	const char *what = operand < argc ? argv[operand] : "";
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
	if (strcmp(what, "path") != 0 && strcmp(what, "info") != 0) {
		cmd_error("usage: conform db path|info [--db PATH] | conform db merge OUT IN...");
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
	return db_info(path);
}

const struct cmd_entry cmd_db_entry = {
	.name = "db",
	.usage = "db path|info [--db PATH] | merge OUT IN...",
	.summary = "the result database: its path, what it holds; merging shards",
	.exec = db_exec,
	.options = db_options,
	.help_head = "usage: conform db path|info [--db PATH]\n"
		     "       conform db merge OUT IN...\n"
		     "  path                  print the database path scripts should read\n"
		     "  info                  schema version, runs, results and devices stored\n"
		     "  merge OUT IN...       add to OUT (created if need be) the runs of each IN it\n"
		     "                        lacks, with their results and devices; a run is known by\n"
		     "                        its uuid, so merging a file twice adds nothing\n",
	.help_tail = "exit: 0 done, 2 usage error, or a database refused (damaged, another program's,\n"
		     "      of another schema version, locked); a refused merge adds nothing\n",
	.operands = 2 + DB_MERGE_INPUTS_MAX,
	.set = db_set,
};
