/*
 * cmd_db.c - "conform db": where the database is, and what is in it.
 *
 *   conform db path [--db PATH]   print the database path scripts should read
 *   conform db info [--db PATH]   schema version, runs and results stored
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

static int db_exec(int argc, char **argv)
{
	char path[4096], err[CMD_ERR_MAX];
	const char *given = NULL;
	int operand;
	int r = cmd_parse(&cmd_db_entry, argc, argv, &given, &operand);
	if (r != 0)
		return r;
	const char *what = operand < argc ? argv[operand] : "";
	if (strcmp(what, "path") != 0 && strcmp(what, "info") != 0) {
		cmd_error("usage: conform db path|info [--db PATH]");
		return EXIT_USAGE;
	}
	if (cmd_db_path(given, path, sizeof path) < 0)
		return EXIT_USAGE;
	if (strcmp(what, "path") == 0) {
		printf("%s\n", path);
		return 0;
	}
	struct db *db;
	if (db_open(path, &db, err, sizeof err) < 0) {
		cmd_error("%s", err);
		return EXIT_USAGE;
	}
	printf("%s: schema %d\n", path, db_schema_version(db));
	db_close(db);
	return 0;
}

const struct cmd_entry cmd_db_entry = {
	.name = "db",
	.usage = "db path|info [--db PATH]",
	.summary = "the result database's path and schema",
	.exec = db_exec,
	.options = db_options,
	.help_head = "usage: conform db path|info [--db PATH]\n"
		     "  path                  print the database path scripts should read\n"
		     "  info                  schema version, runs and results stored\n",
	.operands = 1,
	.set = db_set,
};
