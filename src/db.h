/*
 * db.h - the SQLite store: devices, runs and results.
 *
 * The schema lives in db/schema.sql, built into the binary, as numbered
 * migrations; db_open() brings any older database up to date.  The database
 * is in WAL mode so scripts and sqlite3 can read while a run writes, and every
 * result is committed as it arrives.  A file that is not an SQLite database
 * is refused before anything is written to it.
 */
#ifndef CONFORM_DB_H
#define CONFORM_DB_H

#include <stddef.h>
#include <stdint.h>

#include "gpu_info.h"
#include "result.h"

struct db;

/* The schema version this build writes (the highest migration). */
int db_schema_latest(void);

/* Where the database lives when no --db is given: $CONFORM_DB, else
 * $XDG_DATA_HOME/conform/conform.db, else ~/.local/share/conform/conform.db. */
int db_default_path(char *buf, size_t len);

/* Opens (creating it and its directory if needed) and migrates.  busy_ms is
 * how long to wait for a lock held by another process.  Returns 0, or -1
 * with a one-line message. */
int db_open(const char *path, int busy_ms, struct db **out, char *err, size_t len);

/* Opens applying migrations only up to `version` (tests of migration). */
int db_open_at_version(const char *path, int version, struct db **out, char *err, size_t len);

void db_close(struct db *db);
int db_schema_version(struct db *db);

/* Finds the device by uuid (else name) or inserts it; returns its id. */
int db_device_upsert(struct db *db, const struct gpu_info *g, int64_t *id, char *err, size_t len);

struct run_info {
	const char *host;
	const char *version;       /* conform version */
	const char *git_revision;  /* build's git revision, "" when unknown */
	const char *command_line;
	uint64_t seed;
	int64_t device_id;         /* 0: no device */
};

int db_run_begin(struct db *db, const struct run_info *ri, int64_t *run_id, char *err, size_t len);

/* state: "complete" or "interrupted"; tallies as in the summary line. */
int db_run_end(struct db *db, int64_t run_id, const char *state, int passed, int failed,
	       int skipped, char *err, size_t len);

/* Inserts one result and commits it. */
int db_result_insert(struct db *db, int64_t run_id, const struct result *r, char *err, size_t len);

/* Counts results of a run per status (index: enum status). */
int db_run_status_counts(struct db *db, int64_t run_id, int counts[], char *err, size_t len);

#endif
