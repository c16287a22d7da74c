/*
 * db_migrate.c - the schema: db/schema.sql, embedded as db_schema_sql[] and
 * cut at its "-- migration N: title" lines, applied in order.
 *
 * PRAGMA user_version is the number of the last migration applied; each
 * migration runs in one transaction together with the user_version bump
 * (and the application_id stamp), so a database is always at some whole
 * version, and one that fails halfway is left at the version before.
 *
 * Foreign keys are off while migrating, as SQLite's procedure for
 * rebuilding a table requires: a migration that rebuilds runs (4, 11) drops
 * the old table, which with them on would delete every result through ON
 * DELETE CASCADE.  Each migration is then held to leaving no more rows
 * without what they refer to than it found (a database may hold some
 * already: scripts write with foreign keys off), or it is rolled back.
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <string.h>

extern const char db_schema_sql[];

#define MIGRATION_MARK "-- migration "

/* Returns the migration number if `line` is a "-- migration N:" mark, else 0. */
static int migration_mark(const char *line)
{
	const char *p;
	int n = 0;

	if (strncmp(line, MIGRATION_MARK, strlen(MIGRATION_MARK)) != 0)
		return 0;
	p = line + strlen(MIGRATION_MARK);
	if (*p < '0' || *p > '9')
		return 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (n > 100000)
			return 0;
		n = n * 10 + (*p - '0');
	}
	return *p == ':' ? n : 0;
}

/*
 * Walks the embedded schema.  Returns the highest migration number, or -1
 * if the marks do not run 1, 2, 3, ...  When `want` is found, *sql and
 * *sqllen are set to its body (the text after its mark line up to the next
 * mark).
 */
static int schema_scan(int want, const char **sql, size_t *sqllen)
{
	const char *p = db_schema_sql, *body = NULL;
	int last = 0, cur = 0;

	for (;;) {
		const char *eol = strchr(p, '\n');
		int n = migration_mark(p);

		if (n > 0 || *p == '\0') {
			if (cur == want && body && sql) {
				*sql = body;
				*sqllen = (size_t)(p - body);
			}
			if (*p == '\0')
				break;
			if (n != last + 1)
				return -1;
			last = cur = n;
			body = eol ? eol + 1 : p + strlen(p);
		}
		if (!eol)
			p += strlen(p);
		else
			p = eol + 1;
	}
	return last;
}

int db_schema_latest(void)
{
	return schema_scan(0, NULL, NULL);
}

/* Rows whose reference dangles (PRAGMA foreign_key_check), into *n. */
static int count_dangling(struct db *db, long long *n, char *err, size_t len)
{
	int rc;

	if (db_query_int(db, "SELECT count(*) FROM pragma_foreign_key_check", n, &rc) != 0)
		return db_fail(db, "checking references", rc, err, len);
	return 0;
}

/* Applies migrations up to `target`, one transaction each.  The version is
 * read again under the write lock: another conform may have migrated the
 * file since we looked. */
static int migrate_each(struct db *db, int target, char *err, size_t len)
{
	for (;;) {
		const char *sql = NULL;
		size_t sqllen = 0;
		long long v, before, after;
		char stamp[96], what[32];
		int rc;

		if ((rc = db_exec(db, "BEGIN IMMEDIATE", err, len)) != 0)
			return rc;
		if (db_query_int(db, "PRAGMA user_version", &v, &rc) != 0) {
			rc = db_fail(db, "reading schema version", rc, err, len);
			goto rollback;
		}
		if (v >= target)
			return db_exec(db, "COMMIT", err, len);

		schema_scan((int)v + 1, &sql, &sqllen);
		if (!sql) {
			db_seterr_at(err, len, db->path, "built-in schema has no migration %lld", v + 1);
			rc = -1;
			goto rollback;
		}
		snprintf(what, sizeof what, "migration %lld", v + 1);
		if ((rc = count_dangling(db, &before, err, len)) != 0 ||
		    (rc = db_exec_text(db, what, sql, sqllen, err, len)) != 0 ||
		    (rc = count_dangling(db, &after, err, len)) != 0)
			goto rollback;
		if (after > before) {
			db_seterr_at(err, len, db->path, "%s would leave %lld rows without what they "
				     "refer to (rolled back)", what, after - before);
			rc = -1;
			goto rollback;
		}
		/* PRAGMA takes no bound parameters; both values are ours. */
		snprintf(stamp, sizeof stamp, "PRAGMA user_version = %lld; PRAGMA application_id = %d",
			 v + 1, DB_APPLICATION_ID);
		if ((rc = db_exec(db, stamp, err, len)) != 0 || (rc = db_exec(db, "COMMIT", err, len)) != 0)
			goto rollback;
		continue;
rollback:
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
}

int db_migrate(struct db *db, int target, char *err, size_t len)
{
	long long fk;
	int rc;

	/* Off outside the transactions: inside one, the PRAGMA does nothing.
	 * Back as it was afterwards, whatever happened. */
	if (db_query_int(db, "PRAGMA foreign_keys", &fk, &rc) != 0)
		return db_fail(db, "reading the foreign keys setting", rc, err, len);
	if ((rc = db_exec(db, "PRAGMA foreign_keys = OFF", err, len)) != 0)
		return rc;
	/* A rebuild renames the new table to the old name: the legacy rule
	 * leaves the views that read it by name as they are, where the
	 * current one would refuse the rename for views that name a table
	 * dropped a statement before (SQLite's ALTER TABLE documentation).
	 * Before 3.25 the legacy rule is the only one and the PRAGMA unknown,
	 * which SQLite ignores. */
	sqlite3_exec(db->h, "PRAGMA legacy_alter_table = ON", NULL, NULL, NULL);
	rc = migrate_each(db, target, err, len);
	sqlite3_exec(db->h, "PRAGMA legacy_alter_table = OFF", NULL, NULL, NULL);
	sqlite3_exec(db->h, fk ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF", NULL, NULL,
		     NULL);
	return rc;
}

int db_schema_version(struct db *db)
{
	long long v;
	int rc;

	if (db_query_int(db, "PRAGMA user_version", &v, &rc) != 0)
		return -1;
	return (int)v;
}
