/*
 * db_open.c - opening the store: the one connection policy every caller
 * gets, whatever it then does with the connection.
 *
 * The policy: extended result codes, DB_BUSY_TIMEOUT_MS (db.h) for locks
 * held by other processes, WAL (so sqlite3 and scripts can read while a run
 * writes, and the TUI sees each result as it is committed), foreign keys
 * on, synchronous NORMAL, and the schema migrated to the latest version.
 *
 * Invariant: a database that SQLite cannot read, that belongs to another
 * program, or that a newer conform made, is refused before anything is
 * written: check_ours() only reads, and nothing writes until it passes.
 */
#include "db_internal.h"

#include <stdlib.h>
#include <string.h>

/* Turns an error while first reading the file into the one-line refusal. */
static int refuse_unreadable(struct db *db, int rc, char *err, size_t len)
{
	switch (rc & 0xff) {
	case SQLITE_NOTADB:
		db_seterr(err, len, "%s: not an SQLite database (left untouched)", db->path);
		return -1;
	case SQLITE_CORRUPT:
		db_seterr(err, len, "%s: damaged SQLite database (left untouched): %s", db->path,
			  sqlite3_errmsg(db->h));
		return -1;
	default:
		return db_fail(db, "cannot read", rc, err, len);
	}
}

/* Refuses, before anything is written, a database this build must not
 * touch: unreadable, another program's, or made by a newer conform; and
 * one it cannot write to.  Only reads. */
static int check_ours(struct db *db, long long *version, char *err, size_t len)
{
	long long appid, objects;
	int latest = db_schema_latest(), rc;

	if (db_query_int(db, "SELECT count(*) FROM sqlite_master", &objects, &rc) != 0 ||
	    db_query_int(db, "PRAGMA user_version", version, &rc) != 0 ||
	    db_query_int(db, "PRAGMA application_id", &appid, &rc) != 0)
		return refuse_unreadable(db, rc, err, len);
	if ((*version == 0 && objects > 0) ||
	    (*version > 0 && appid != DB_APPLICATION_ID)) {
		db_seterr(err, len, "%s: an SQLite database of another program (left untouched)",
			  db->path);
		return -1;
	}
	if (*version > latest) {
		db_seterr(err, len, "%s: created by a newer conform (schema %lld, this build knows %d)",
			  db->path, *version, latest);
		return -1;
	}
	if (sqlite3_db_readonly(db->h, "main") == 1) {
		db_seterr(err, len, "%s: read-only, cannot record results", db->path);
		return -1;
	}
	return 0;
}

/* The journal and integrity settings of every connection.  WAL lets
 * readers (sqlite3, scripts) in while a run writes; a file system without
 * shared memory leaves the old mode, and that still works. */
static int set_pragmas(struct db *db, char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc;

	if (db_prepare(db, "PRAGMA journal_mode = WAL", &st, err, len) != 0)
		return -1;
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return db_fail(db, "setting WAL mode", rc, err, len);
	if (db_exec(db, "PRAGMA foreign_keys = ON", err, len) != 0 ||
	    db_exec(db, "PRAGMA synchronous = NORMAL", err, len) != 0)
		return -1;
	return 0;
}

static int open_db(const char *path, int target, struct db **out, char *err, size_t len)
{
	struct db *db;
	long long version;
	int latest = db_schema_latest(), rc;

	*out = NULL;
	if (!path || !*path) {
		db_seterr(err, len, "no database path given");
		return -1;
	}
	if (strlen(path) >= PATH_MAX) {
		db_seterr(err, len, "%s: path too long", path);
		return -1;
	}
	if (latest < 1) {
		db_seterr(err, len, "built-in schema is malformed (migration marks out of order)");
		return -1;
	}
	if (target < 0 || target > latest) {
		db_seterr(err, len, "schema version %d unknown to this build (latest %d)", target, latest);
		return -1;
	}
	if (db_file_check(path, err, len) != 0)
		return -1;

	db = calloc(1, sizeof *db);
	if (!db) {
		db_seterr(err, len, "%s: out of memory", path);
		return -1;
	}
	strcpy(db->path, path);

	rc = sqlite3_open_v2(path, &db->h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (rc != SQLITE_OK) {
		db_seterr(err, len, "%s: cannot open: %s", path,
			  db->h ? sqlite3_errmsg(db->h) : sqlite3_errstr(rc));
		goto fail;
	}
	/* Before the first read: even the checks may meet another's lock. */
	sqlite3_extended_result_codes(db->h, 1);
	sqlite3_busy_timeout(db->h, DB_BUSY_TIMEOUT_MS);

	/* Read-only checks first: nothing below writes until they pass. */
	if (check_ours(db, &version, err, len) != 0 || set_pragmas(db, err, len) != 0)
		goto fail;
	if (version < target && db_migrate(db, target, err, len) != 0)
		goto fail;

	*out = db;
	return 0;
fail:
	sqlite3_close(db->h);
	free(db);
	return -1;
}

int db_open(const char *path, struct db **out, char *err, size_t len)
{
	return open_db(path, db_schema_latest(), out, err, len);
}

int db_open_at_version(const char *path, int version, struct db **out, char *err, size_t len)
{
	return open_db(path, version, out, err, len);
}

void db_close(struct db *db)
{
	if (!db)
		return;
	sqlite3_close(db->h);
	free(db);
}
