/*
 * db_runs.c - finding the runs conform compare pairs (db.h).
 */
#include "db_internal.h"

#define FINISHED "state IN ('complete', 'interrupted')"
/* ?1 kind (NULL: any), ?2 device (-1: any; 0: the host, NULL in runs). */
#define OF_KIND_ON_DEVICE \
	"(?1 IS NULL OR kind = ?1) AND (?2 = -1 OR coalesce(device_id, 0) = ?2)"

static int first_id(struct db *db, sqlite3_stmt *st, int64_t *id, const char *what, char *err,
		    size_t len)
{
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	(void)db_fail(db, what, rc, err, len);
	return -1;
}

static void bind_kind(sqlite3_stmt *st, int i, int kind)
{
	if (kind < 0)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_text(st, i, run_kind_name((enum run_kind)kind), -1, SQLITE_STATIC);
}

int db_runs_nth(struct db *db, int kind, int64_t device_id, int skip, int64_t *id, char *err,
		size_t len)
{
	sqlite3_stmt *st;

	if (db_prepare(db, "SELECT id FROM runs WHERE " FINISHED " AND " OF_KIND_ON_DEVICE
			   " ORDER BY id DESC LIMIT 1 OFFSET ?3", &st, err, len) != 0)
		return -1;
	bind_kind(st, 1, kind);
	sqlite3_bind_int64(st, 2, device_id);
	sqlite3_bind_int(st, 3, skip);
	return first_id(db, st, id, "finding a run", err, len);
}

int db_runs_before(struct db *db, int kind, int64_t device_id, int64_t before, int64_t *id,
		   char *err, size_t len)
{
	sqlite3_stmt *st;

	if (db_prepare(db, "SELECT id FROM runs WHERE " FINISHED " AND " OF_KIND_ON_DEVICE
			   " AND id < ?3 ORDER BY id DESC LIMIT 1", &st, err, len) != 0)
		return -1;
	bind_kind(st, 1, kind);
	sqlite3_bind_int64(st, 2, device_id);
	sqlite3_bind_int64(st, 3, before);
	return first_id(db, st, id, "finding the run before", err, len);
}

int db_runs_by_revision(struct db *db, const char *prefix, int kind, int64_t *id, char *err,
			size_t len)
{
	sqlite3_stmt *st;

	/* substr, not LIKE or GLOB: a revision holds no wildcards, and the
	 * prefix must not be read as one. */
	if (db_prepare(db, "SELECT id FROM runs WHERE " FINISHED " AND (?1 IS NULL OR kind = ?1) "
			   "AND substr(git_revision, 1, length(?2)) = ?2 ORDER BY id DESC LIMIT 1",
		       &st, err, len) != 0)
		return -1;
	bind_kind(st, 1, kind);
	sqlite3_bind_text(st, 2, prefix, -1, SQLITE_TRANSIENT);
	return first_id(db, st, id, "finding a run by revision", err, len);
}

int db_runs_tagged(struct db *db, const char *tag, int kind, int64_t *ids, size_t max, size_t *n,
		   char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc;

	*n = 0;
	if (db_prepare(db, "SELECT id FROM runs WHERE " FINISHED " AND (?1 IS NULL OR kind = ?1) "
			   "AND tag = ?2 ORDER BY id", &st, err, len) != 0)
		return -1;
	bind_kind(st, 1, kind);
	sqlite3_bind_text(st, 2, tag, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n < max)
			ids[*n] = sqlite3_column_int64(st, 0);
		(*n)++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		{
		(void)db_fail(db, "finding tagged runs", rc, err, len);
		return -1;
	}
	return 0;
}
