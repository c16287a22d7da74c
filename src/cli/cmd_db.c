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

static int db_exec(int argc, char **argv)
{
	char path[4096], err[1024];
	const char *what = argc > 1 ? argv[1] : "";
	const char *given = NULL;
	if (strcmp(what, "path") != 0 && strcmp(what, "info") != 0) {
		cmd_error("usage: conform db path|info [--db PATH]");
		return EXIT_USAGE;
	}
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--db") == 0 && i + 1 < argc) {
			given = argv[++i];
		} else {
			cmd_error("db %s: unexpected argument '%s'", what, argv[i]);
			return EXIT_USAGE;
		}
	}
	if (cmd_db_path(given, path, sizeof path) < 0)
		return EXIT_USAGE;
	if (strcmp(what, "path") == 0) {
		printf("%s\n", path);
		return 0;
	}
	struct db *db;
	if (db_open(path, 5000, &db, err, sizeof err) < 0) {
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
};
