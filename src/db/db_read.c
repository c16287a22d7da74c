/*
 * db_read.c - reading runs and results back: the tallies of a run.
 *
 * Nothing here writes.  Reads go through the same connection (and so the
 * same policy) as the writes; WAL lets them see each result as soon as it
 * is committed, by this process or another.
 */
#include "db_internal.h"

int db_run_status_counts(struct db *db, int64_t run_id, int counts[], char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc;

	for (int i = 0; i < STATUS_COUNT; i++)
		counts[i] = 0;
	if (db_prepare(db, "SELECT status, count(*) FROM results WHERE run_id = ?1 GROUP BY status",
		       &st, err, len) != 0)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *word = (const char *)sqlite3_column_text(st, 0);
		enum status s;

		if (!word || status_parse(word, &s) != 0) {
			db_seterr(err, len, "%s: result with unknown status \"%s\"", db->path,
				  word ? word : "(null)");
			sqlite3_finalize(st);
			return -1;
		}
		counts[s] = sqlite3_column_int(st, 1);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, "counting results", rc, err, len);
	return 0;
}
