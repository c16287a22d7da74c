/*
 * db_prune.c - how many runs of each kind a database holds, and dropping
 * all but the newest of each (conform db info, conform db prune).
 *
 * A run's results go with it through results.run_id's ON DELETE CASCADE
 * (schema.sql), so pruning deletes runs alone.  A run still 'running' is
 * never deleted: its process may be adding results to it.  The file keeps
 * its size (SQLite reuses the freed pages); VACUUM gives them back.
 */
#include "db/db_internal.h"

#include <string.h>

int db_count_kinds(struct db *db, long long runs[RUN_KIND_COUNT], char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc;
	memset(runs, 0, RUN_KIND_COUNT * sizeof runs[0]);
	if ((rc = db_prepare(db, "SELECT kind, count(*) FROM runs GROUP BY kind", &st, err, len)) != 0)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		enum run_kind k;
		const char *word = (const char *)sqlite3_column_text(st, 0);
		if (word && run_kind_parse(word, &k) == 0)
			runs[k] = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, "counting runs by kind", rc, err, len);
	return 0;
}

/* The runs of ?1's kind that pruning to the newest ?2 removes. */
#define PRUNED_RUNS                                                                      \
	"SELECT id FROM runs WHERE kind = ?1 AND state <> 'running' AND id NOT IN "     \
	"(SELECT id FROM runs WHERE kind = ?1 ORDER BY id DESC LIMIT ?2)"

/* Binds kind and keep, steps st once and reads its one integer into *out
 * (a count), or only steps it (a delete) when out is NULL. */
static int prune_step(struct db *db, const char *sql, const char *kind, long long keep, long long *out,
		      char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc;
	if ((rc = db_prepare(db, sql, &st, err, len)) != 0)
		return rc;
	sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, keep);
	if (!out)
		return db_step_done(db, st, "pruning runs", err, len);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : db_fail(db, "counting runs to prune", rc, err, len);
}

int db_prune(struct db *db, long long keep, struct db_prune_counts *c, char *err, size_t len)
{
	int rc;
	memset(c, 0, sizeof *c);
	if ((rc = db_exec(db, "BEGIN IMMEDIATE", err, len)) != 0)
		return rc;
	for (int k = 0; k < RUN_KIND_COUNT && rc == 0; k++) {
		const char *kind = run_kind_name((enum run_kind)k);
		long long results = 0;
		rc = prune_step(db, "SELECT count(*) FROM (" PRUNED_RUNS ")", kind, keep, &c->runs[k], err, len);
		if (rc == 0)
			rc = prune_step(db, "SELECT count(*) FROM results WHERE run_id IN (" PRUNED_RUNS ")", kind,
					keep, &results, err, len);
		if (rc == 0)
			rc = prune_step(db, "DELETE FROM runs WHERE id IN (" PRUNED_RUNS ")", kind, keep, NULL, err,
					len);
		c->results += results;
	}
	if (rc == 0)
		rc = db_exec(db, "COMMIT", err, len);
	if (rc != 0)
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}
