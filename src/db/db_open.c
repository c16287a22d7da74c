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
 * program, that a newer conform made, or whose pages do not hold together
 * (PRAGMA quick_check) is refused before anything is written, not even the
 * switch to WAL: db_file_check() and check_ours() only read, check_intact()
 * only reads, and nothing writes until they pass.
 *
 * The cost of the whole-file check: quick_check reads every page, about
 * 0.35 s for a 120 MB database of 300,000 results with the file in the page
 * cache.  A command that records results (run, tune, bench, tui) pays it
 * at every open: against starting workers and running cases it is small,
 * and writing into a damaged b-tree can spread the damage over results that
 * were still readable.  best and history answer from an index in
 * milliseconds and only read, so db_open_lookup() checks only when it is
 * about to write (a migration, the switch to WAL); a damage their reads
 * meet is still reported as such (db_fail).
 */
#include "db/db_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <sys/stat.h>
#include <unistd.h>

/* When the whole file is checked (see the top of the file). */
enum check_when {
	CHECK_ALWAYS,          /* opens that record results */
	CHECK_BEFORE_WRITING,  /* lookups: only when the open itself writes */
};

/* The longest detail of a damage quoted in the refusal. */
#define DAMAGE_DETAIL_MAX 160

/* The one refusal of a damaged database, whatever found the damage. */
static int refuse_damaged(struct db *db, const char *detail, char *err, size_t len)
{
	db_seterr_at(err, len, db->path, "damaged database (%.*s), left untouched: " DB_DAMAGED_ADVICE,
		     DAMAGE_DETAIL_MAX, detail);
	return -1;
}

/* Turns an error while first reading the file into the one-line refusal. */
static int refuse_unreadable(struct db *db, int rc, char *err, size_t len)
{
	switch (rc & 0xff) {
	case SQLITE_NOTADB:
		db_seterr_at(err, len, db->path, "not an SQLite database (left untouched)");
		return -1;
	case SQLITE_CORRUPT:
		return refuse_damaged(db, sqlite3_errmsg(db->h), err, len);
	default:
		db_fail(db, "cannot read", rc, err, len);
		return -1;
	}
}

/* Refuses, before anything is written, a database this build must not
 * touch: unreadable, another program's, of a schema version conform never
 * wrote, or made by a newer conform; and, for_writing, one it cannot write
 * to.  Only reads. */
static int check_ours(struct db *db, long long *version, int for_writing, char *err, size_t len)
{
	long long appid, objects, impostors;
	int latest = db_schema_latest(), rc;

	if (db_query_int(db, "SELECT count(*) FROM sqlite_master", &objects, &rc) != 0 ||
	    db_query_int(db, "SELECT count(*) FROM sqlite_master WHERE type <> 'table' AND name IN "
			 DB_CORE_TABLES, &impostors, &rc) != 0 ||
	    db_query_int(db, "PRAGMA user_version", version, &rc) != 0 ||
	    db_query_int(db, "PRAGMA application_id", &appid, &rc) != 0)
		return refuse_unreadable(db, rc, err, len);
	if ((*version == 0 && objects > 0) ||
	    (*version != 0 && appid != DB_APPLICATION_ID)) {
		db_seterr_at(err, len, db->path,
			     "an SQLite database of another program (left untouched)");
		return -1;
	}
	if (*version < 0) {
		db_seterr_at(err, len, db->path, "schema version %lld, which no conform writes "
			     "(this build knows 1 to %d), left untouched", *version, latest);
		return -1;
	}
	if (*version > latest) {
		db_seterr_at(err, len, db->path, "created by a newer conform (schema %lld, this build "
			     "knows %d), left untouched: use that conform, or another --db",
			     *version, latest);
		return -1;
	}
	if (impostors > 0) {
		db_seterr_at(err, len, db->path, "its runs, results, devices or device_bandwidth is "
			     "not a table (a view in its place would run at every read), left untouched");
		return -1;
	}
	if (for_writing && sqlite3_db_readonly(db->h, "main") == 1) {
		db_seterr_at(err, len, db->path, "read-only, cannot record results");
		return -1;
	}
	return 0;
}

/* Refuses a database whose pages do not hold together: PRAGMA
 * quick_check(1), which stops at the first problem and quotes it.  Only
 * reads.  (quick_check leaves out integrity_check's comparison of every
 * index with its table, which costs O(N log N) rather than O(N); a page
 * that is damaged fails either.) */
static int check_intact(struct db *db, char *err, size_t len)
{
	char detail[DAMAGE_DETAIL_MAX + 1] = "";
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db->h, "PRAGMA quick_check(1)", -1, &st, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		int r = refuse_unreadable(db, rc, err, len);
		sqlite3_finalize(st);
		return r;
	}
	const char *t = (const char *)sqlite3_column_text(st, 0);
	if (t && strcmp(t, "ok") == 0) {
		sqlite3_finalize(st);
		return 0;
	}
	/* "*** in database main ***\nOn tree page 5 cell 3: ...": the line
	 * that says what is wrong is the last. */
	const char *nl = t ? strrchr(t, '\n') : NULL;
	snprintf(detail, sizeof detail, "%s", nl ? nl + 1 : t ? t : "no detail");
	sqlite3_finalize(st);
	return refuse_damaged(db, detail, err, len);
}

/* Whether opening would write: a migration is due, or the file is not in
 * WAL mode yet.  Only reads; 1 when unsure. */
static int open_writes(struct db *db, long long version, int target)
{
	sqlite3_stmt *st;
	int wal = 0;

	if (version < target)
		return 1;
	if (sqlite3_prepare_v2(db->h, "PRAGMA journal_mode", -1, &st, NULL) != SQLITE_OK)
		return 1;
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *mode = (const char *)sqlite3_column_text(st, 0);
		wal = mode && strcmp(mode, "wal") == 0;
	}
	sqlite3_finalize(st);
	return !wal;
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

/* Whether a WAL with something in it lies beside the database. */
static int has_wal(const char *path)
{
	char wal[PATH_MAX + 8];
	struct stat sb;

	snprintf(wal, sizeof wal, "%s-wal", path);
	return stat(wal, &sb) == 0 && sb.st_size > 0;
}

/* Opens db's connection to path (SQLite given `name`: the path, or a URI
 * for it) with SQLite's flags, after the file's own checks
 * (db_file_check), with the policy's result codes and lock wait.  Returns
 * 0, or -1 with the message (db->h, when set, is the caller's to close). */
static int connect_as(struct db *db, const char *path, const char *name, int flags,
		      int reading_only, char *err, size_t len)
{
	if (strlen(path) >= sizeof db->path) {
		db_seterr_at(err, len, path, "path too long");
		return -1;
	}
	if (db_file_check(path, reading_only, err, len) != 0)
		return -1;
	strcpy(db->path, path);
	int rc = sqlite3_open_v2(name, &db->h, flags, NULL);
	if (rc != SQLITE_OK) {
		if (db->h)
			db_fail(db, "cannot open", rc, err, len);
		else
			db_seterr_at(err, len, path, "cannot open: %s", sqlite3_errstr(rc));
		return -1;
	}
	/* Before the first read: even the checks may meet another's lock. */
	sqlite3_extended_result_codes(db->h, 1);
	sqlite3_busy_timeout(db->h, DB_BUSY_TIMEOUT_MS);
	return 0;
}

static int db_connect(struct db *db, const char *path, int flags, char *err, size_t len)
{
	return connect_as(db, path, path, flags, 0, err, len);
}

/* Before recording results: the runs of this host whose process is gone
 * become 'abandoned' (db_owner.c).  A failure here (a lock, say) leaves
 * them 'running' for the next open to try again; it does not keep this
 * one from recording. */
static void reap_abandoned(struct db *db)
{
	char host[256], err[256];
	int reaped;

	if (gethostname(host, sizeof host) != 0)
		return;
	host[sizeof host - 1] = '\0'; /* a truncated name may lack it */
	(void)db_owner_reap(db, host, &reaped, err, sizeof err);
}

/* A lookup of a database on a read-only file system: read as it is, since
 * nothing can be written there, not even the -shm file through which
 * SQLite reads a WAL database.  Opened immutable: nothing can change the
 * file while it is read, so nothing need be watched.  Refused when this
 * build would have to write to it first.
 * Takes db: it is *out, or freed. */
static int open_read_only(struct db *db, const char *path, int target, struct db **out, char *err,
			  size_t len)
{
	char uri[PATH_MAX * 3 + 32], *u;
	long long version;

	/* A URI: the path percent-encoded where it is not plainly safe. */
	u = uri + sprintf(uri, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p && u < uri + sizeof uri - 16; p++) {
		if (isalnum(*p) || strchr("/-._~", *p))
			*u++ = (char)*p;
		else
			u += sprintf(u, "%%%02X", *p);
	}
	strcpy(u, "?immutable=1");
	if (connect_as(db, path, uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, 1, err, len) != 0 ||
	    check_ours(db, &version, 0, err, len) != 0)
		goto fail;
	/* Immutable, SQLite reads the file alone: results still in a WAL
	 * beside it (a conform killed before the file system was made
	 * read-only) would be missed without a word. */
	if (version < target || has_wal(path)) {
		db_seterr_at(err, len, db->path, "on a read-only file system, and conform must write "
			     "to it once before it can read it (%s): open it once where it can be "
			     "written (conform db info)", version < target ? "an older schema" :
			     "results still in its -wal file");
		goto fail;
	}
	*out = db;
	return 0;
fail:
	sqlite3_close(db->h);
	free(db);
	return -1;
}

static int open_db(const char *path, int target, enum check_when when, struct db **out,
		   char *err, size_t len)
{
	struct db *db;
	long long version;
	int latest = db_schema_latest();

	*out = NULL;
	if (!path || !*path) {
		db_seterr(err, len, "no database path given");
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
	db = calloc(1, sizeof *db);
	if (!db) {
		db_seterr_at(err, len, path, "out of memory");
		return -1;
	}
	if (when == CHECK_BEFORE_WRITING && db_file_on_readonly_fs(path))
		return open_read_only(db, path, target, out, err, len);
	if (db_connect(db, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, err, len) != 0)
		goto fail;

	/* Read-only checks first: nothing below writes until they pass, not
	 * even closing.  The last connection to close folds the WAL into the
	 * database: a WAL left by a conform that was killed would be folded
	 * into a file we are refusing.  (Without one, closing only removes the
	 * -wal and -shm this open made, as it should.) */
	if (has_wal(path))
		sqlite3_db_config(db->h, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
	if (check_ours(db, &version, when == CHECK_ALWAYS, err, len) != 0)
		goto fail;
	if ((when == CHECK_ALWAYS || open_writes(db, version, target)) &&
	    check_intact(db, err, len) != 0)
		goto fail;
	sqlite3_db_config(db->h, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0, NULL);
	if (set_pragmas(db, err, len) != 0)
		goto fail;
	if (version < target && db_migrate(db, target, err, len) != 0)
		goto fail;
	if (when == CHECK_ALWAYS && target == latest)
		reap_abandoned(db);

	*out = db;
	return 0;
fail:
	sqlite3_close(db->h);
	free(db);
	return -1;
}

int db_open(const char *path, struct db **out, char *err, size_t len)
{
	return open_db(path, db_schema_latest(), CHECK_ALWAYS, out, err, len);
}

int db_open_lookup(const char *path, struct db **out, char *err, size_t len)
{
	return open_db(path, db_schema_latest(), CHECK_BEFORE_WRITING, out, err, len);
}

int db_open_at_version(const char *path, int version, struct db **out, char *err, size_t len)
{
	return open_db(path, version, CHECK_ALWAYS, out, err, len);
}

int db_check_source(const char *path, char *err, size_t len)
{
	struct db db = {0};
	long long version;
	int latest = db_schema_latest(), bad = -1;

	if (db_connect(&db, path, SQLITE_OPEN_READONLY, err, len) != 0)
		goto out;
	if (check_ours(&db, &version, 0, err, len) != 0)
		goto out;
	if (version == 0) {
		db_seterr_at(err, len, path, "empty: not a conform database yet");
		goto out;
	}
	/* An older one would need the migrations, which write: its owner's
	 * conform does that on any open; merge leaves its inputs as they are. */
	if (version != latest) {
		db_seterr_at(err, len, path, "schema %lld, this build merges schema %d: upgrade it "
			     "first (conform db info --db %s)", version, latest, path);
		goto out;
	}
	bad = check_intact(&db, err, len);
out:
	sqlite3_close(db.h);
	return bad;
}

int db_check_whole(struct db *db, char *err, size_t len)
{
	return check_intact(db, err, len);
}

void db_close(struct db *db)
{
	if (!db)
		return;
	sqlite3_close(db->h);
	free(db);
}

const char *db_filename(const struct db *db)
{
	return db->path;
}
