/*
 * db_runs.c - finding the runs conform compare pairs (db.h).
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Runs that ended, whether or not they recorded how: an abandoned run's
 * results are as real as an interrupted one's. */
#define FINISHED "state IN ('complete', 'interrupted', 'abandoned')"
/* ?1 kind (NULL: any), ?2 device (-1: any; 0: the host, NULL in runs). */
#define OF_KIND_ON_DEVICE \
	"(?1 IS NULL OR kind = ?1) AND (?2 = -1 OR coalesce(device_id, 0) = ?2)"

static void bind_kind(sqlite3_stmt *st, int i, int kind)
{
	if (kind < 0)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_text(st, i, run_kind_name((enum run_kind)kind), -1, SQLITE_STATIC);
}

int db_runs_newest(struct db *db, int kind, int64_t device_id, int64_t before, int skip, int64_t *id,
		   char *err, size_t len)
{
	sqlite3_stmt *st;

	if (db_prepare(db, "SELECT id FROM runs WHERE " FINISHED " AND " OF_KIND_ON_DEVICE
			   " AND (?3 = 0 OR id < ?3) ORDER BY id DESC LIMIT 1 OFFSET ?4", &st, err, len) != 0)
		return -1;
	bind_kind(st, 1, kind);
	sqlite3_bind_int64(st, 2, device_id);
	sqlite3_bind_int64(st, 3, before);
	sqlite3_bind_int(st, 4, skip);
	return db_read_one(db, st, db_read_id, id, "finding a run", err, len);
}

/* The commit hash in a recorded revision: "abc1234", "abc1234-dirty" and
 * "v1.2-3-gabc1234" (git describe) all give "abc1234". */
static void revision_hash(const char *rev, char *out, size_t len)
{
	const char *g = strstr(rev, "-g");
	const char *h = g ? g + 2 : rev;
	size_t n = strcspn(h, "-");
	snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), h);
}

/* Whether a user's revision names a recorded one: either hash a prefix of
 * the other (a full SHA names a build recorded by its short hash). */
static int revision_matches(const char *stored, const char *ref)
{
	char a[64], b[64];
	revision_hash(stored, a, sizeof a);
	revision_hash(ref, b, sizeof b);
	size_t la = strlen(a), lb = strlen(b), n = la < lb ? la : lb;
	return n >= 4 && strncasecmp(a, b, n) == 0;
}

int db_runs_by_revision(struct db *db, const char *ref, int kind, int64_t *id, char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc;

	if (db_prepare(db, "SELECT id, git_revision FROM runs WHERE " FINISHED " AND (?1 IS NULL OR kind = ?1) "
			   "AND git_revision IS NOT NULL ORDER BY id DESC", &st, err, len) != 0)
		return -1;
	bind_kind(st, 1, kind);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *rev = (const char *)sqlite3_column_text(st, 1);
		if (rev && revision_matches(rev, ref)) {
			*id = sqlite3_column_int64(st, 0);
			sqlite3_finalize(st);
			return 1;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		(void)db_fail(db, "finding a run by revision", rc, err, len);
		return -1;
	}
	return 0;
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
	if (rc != SQLITE_DONE) {
		(void)db_fail(db, "finding tagged runs", rc, err, len);
		return -1;
	}
	return 0;
}
