/*
 * db.c - the SQLite store: devices, runs and results (see db.h).
 *
 * The schema is db/schema.sql, embedded as db_schema_sql[] and cut at its
 * "-- migration N: title" lines.  PRAGMA user_version is the number of the
 * last migration applied; each migration runs in one transaction together
 * with the user_version bump, so a database is always at some whole version.
 *
 * Invariants:
 *   - A file that is not an SQLite database is refused before SQLite sees
 *     it, and a database that SQLite cannot read, that belongs to another
 *     program, or that a newer conform made, is refused before anything is
 *     written: db_open() reads first and writes only once it is satisfied.
 *   - Every statement binds its values; the only SQL assembled at run time
 *     is the PRAGMA that stamps the version, which cannot take a parameter.
 *   - Each result is one autocommitted INSERT, so killing conform loses at
 *     most the case in flight.
 *   - Error messages are one line, start with the database path where there
 *     is one, and a lock held by someone else always says "locked".
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include "db.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "dtype.h"
#include "params.h"

extern const char db_schema_sql[];

/* PRAGMA application_id of a conform database: "conf". */
#define DB_APPLICATION_ID 0x636f6e66

/* How long db_open_at_version() waits for a lock (it takes no argument). */
#define DB_DEFAULT_BUSY_MS 5000

#define MIGRATION_MARK "-- migration "

struct db {
	sqlite3 *h;
	int busy_ms;
	char path[PATH_MAX];
};

static void seterr(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void seterr(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || len == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

/* Reports a failed SQLite call.  A lock held elsewhere is told as such
 * whatever we were doing, since the cure (wait, or stop the other conform)
 * does not depend on it. */
static int db_fail(struct db *db, const char *what, int rc, char *err, size_t len)
{
	int primary = rc & 0xff;

	if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED)
		seterr(err, len, "%s: database is locked by another process (waited %d ms)",
		       db->path, db->busy_ms);
	else
		seterr(err, len, "%s: %s: %s", db->path, what, sqlite3_errmsg(db->h));
	return -1;
}

static void now_iso(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	if (!gmtime_r(&t, &tm) || strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, len, "1970-01-01T00:00:00Z");
}

/*
 * Schema text.
 */

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

/*
 * Statements.
 */

/* Runs every statement in sql[0..len), discarding any rows; `what` names
 * the work in error messages. */
static int exec_text(struct db *db, const char *what, const char *sql, size_t len, char *err,
		     size_t elen)
{
	const char *end = sql + len;

	while (sql < end) {
		sqlite3_stmt *st = NULL;
		const char *tail = NULL;
		int rc = sqlite3_prepare_v2(db->h, sql, (int)(end - sql), &st, &tail);

		if (rc != SQLITE_OK)
			return db_fail(db, what, rc, err, elen);
		if (st) {
			while ((rc = sqlite3_step(st)) == SQLITE_ROW)
				;
			sqlite3_finalize(st);
			if (rc != SQLITE_DONE)
				return db_fail(db, what, rc, err, elen);
		}
		if (!tail || tail <= sql)
			break;
		sql = tail;
	}
	return 0;
}

static int exec1(struct db *db, const char *sql, char *err, size_t len)
{
	return exec_text(db, sql, sql, strlen(sql), err, len);
}

/* Runs a query returning one integer (a PRAGMA, a count). */
static int query_int(struct db *db, const char *sql, long long *out, int *rcp)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);

	if (rc == SQLITE_OK) {
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			*out = sqlite3_column_int64(st, 0);
			rc = SQLITE_OK;
		} else if (rc == SQLITE_DONE) {
			*out = 0;
			rc = SQLITE_OK;
		}
	}
	sqlite3_finalize(st);
	*rcp = rc;
	return rc == SQLITE_OK ? 0 : -1;
}

static int prepare(struct db *db, const char *sql, sqlite3_stmt **st, char *err, size_t len)
{
	int rc = sqlite3_prepare_v2(db->h, sql, -1, st, NULL);

	if (rc != SQLITE_OK) {
		*st = NULL;
		return db_fail(db, "prepare", rc, err, len);
	}
	return 0;
}

/* Binds text, or NULL for a null pointer or, when empty_null, "". */
static int bind_text(sqlite3_stmt *st, int i, const char *s, int empty_null)
{
	if (!s || (empty_null && !*s))
		return sqlite3_bind_null(st, i);
	return sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
}

static int bind_seed(sqlite3_stmt *st, int i, uint64_t seed)
{
	char buf[24];

	snprintf(buf, sizeof buf, "%llu", (unsigned long long)seed);
	return sqlite3_bind_text(st, i, buf, -1, SQLITE_TRANSIENT);
}

/* Steps a write statement to completion and finalizes it. */
static int step_done(struct db *db, sqlite3_stmt *st, const char *what, char *err, size_t len)
{
	int rc = sqlite3_step(st);

	if (rc != SQLITE_DONE) {
		db_fail(db, what, rc, err, len);
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	return 0;
}

/*
 * Opening.
 */

/* mkdir -p for the directory part of `path`. */
static int make_parent(const char *path, char *err, size_t len)
{
	char dir[PATH_MAX];
	char *slash, *p;
	struct stat sb;

	if (strlen(path) >= sizeof dir) {
		seterr(err, len, "%s: path too long", path);
		return -1;
	}
	strcpy(dir, path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode))
		return 0;

	for (p = dir + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;
		*p = '\0';
		if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
			seterr(err, len, "%s: cannot create directory %s: %s", path, dir,
			       strerror(errno));
			return -1;
		}
		/* EEXIST says nothing of what exists: a file there is an error. */
		if (stat(dir, &sb) != 0) {
			seterr(err, len, "%s: cannot create directory %s: %s", path, dir,
			       strerror(errno));
			return -1;
		}
		if (!S_ISDIR(sb.st_mode)) {
			seterr(err, len, "%s: cannot create directory %s: a file is in the way",
			       path, dir);
			return -1;
		}
		*p = c;
		if (c == '\0')
			break;
	}
	return 0;
}

/*
 * Looks at the file before SQLite does: SQLite would happily turn an empty
 * or missing file into a database, but anything else must carry the SQLite
 * header or it is someone's data that we must not touch.
 */
static int check_file(const char *path, char *err, size_t len)
{
	static const char magic[16] = "SQLite format 3";
	char head[16];
	struct stat sb;
	size_t got = 0;
	int fd;

	if (stat(path, &sb) != 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return make_parent(path, err, len);
		seterr(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(sb.st_mode)) {
		seterr(err, len, "%s: is a directory, not a database file", path);
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		seterr(err, len, "%s: not a regular file (left untouched)", path);
		return -1;
	}
	if (sb.st_size == 0)
		return 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		seterr(err, len, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	while (got < sizeof head) {
		ssize_t r = read(fd, head + got, sizeof head - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			seterr(err, len, "%s: cannot read: %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (got < sizeof head || memcmp(head, magic, sizeof head) != 0) {
		seterr(err, len, "%s: not an SQLite database (left untouched)", path);
		return -1;
	}
	return 0;
}

/* Turns an error while first reading the file into the one-line refusal. */
static int refuse_unreadable(struct db *db, int rc, char *err, size_t len)
{
	switch (rc & 0xff) {
	case SQLITE_NOTADB:
		seterr(err, len, "%s: not an SQLite database (left untouched)", db->path);
		return -1;
	case SQLITE_CORRUPT:
		seterr(err, len, "%s: damaged SQLite database (left untouched): %s", db->path,
		       sqlite3_errmsg(db->h));
		return -1;
	default:
		return db_fail(db, "cannot read", rc, err, len);
	}
}

/* Applies migrations up to `target`, one transaction each.  The version is
 * read again under the write lock: another conform may have migrated the
 * file since we looked. */
static int migrate(struct db *db, int target, char *err, size_t len)
{
	for (;;) {
		const char *sql = NULL;
		size_t sqllen = 0;
		long long v;
		char stamp[96], what[32];
		int rc;

		if (exec1(db, "BEGIN IMMEDIATE", err, len) != 0)
			return -1;
		if (query_int(db, "PRAGMA user_version", &v, &rc) != 0) {
			db_fail(db, "reading schema version", rc, err, len);
			goto rollback;
		}
		if (v >= target)
			return exec1(db, "COMMIT", err, len);

		schema_scan((int)v + 1, &sql, &sqllen);
		if (!sql) {
			seterr(err, len, "%s: built-in schema has no migration %lld", db->path, v + 1);
			goto rollback;
		}
		snprintf(what, sizeof what, "migration %lld", v + 1);
		if (exec_text(db, what, sql, sqllen, err, len) != 0)
			goto rollback;
		/* PRAGMA takes no bound parameters; both values are ours. */
		snprintf(stamp, sizeof stamp, "PRAGMA user_version = %lld; PRAGMA application_id = %d",
			 v + 1, DB_APPLICATION_ID);
		if (exec1(db, stamp, err, len) != 0 || exec1(db, "COMMIT", err, len) != 0)
			goto rollback;
		continue;
rollback:
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
}

static int open_db(const char *path, int busy_ms, int target, struct db **out, char *err,
		   size_t len)
{
	struct db *db;
	long long version, appid, objects;
	sqlite3_stmt *st;
	int latest = db_schema_latest(), rc;

	*out = NULL;
	if (!path || !*path) {
		seterr(err, len, "no database path given");
		return -1;
	}
	if (strlen(path) >= PATH_MAX) {
		seterr(err, len, "%s: path too long", path);
		return -1;
	}
	if (latest < 1) {
		seterr(err, len, "built-in schema is malformed (migration marks out of order)");
		return -1;
	}
	if (target < 0 || target > latest) {
		seterr(err, len, "schema version %d unknown to this build (latest %d)", target, latest);
		return -1;
	}
	if (check_file(path, err, len) != 0)
		return -1;

	db = calloc(1, sizeof *db);
	if (!db) {
		seterr(err, len, "%s: out of memory", path);
		return -1;
	}
	strcpy(db->path, path);
	db->busy_ms = busy_ms < 0 ? 0 : busy_ms;

	rc = sqlite3_open_v2(path, &db->h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (rc != SQLITE_OK) {
		seterr(err, len, "%s: cannot open: %s", path,
		       db->h ? sqlite3_errmsg(db->h) : sqlite3_errstr(rc));
		goto fail;
	}
	sqlite3_extended_result_codes(db->h, 1);
	sqlite3_busy_timeout(db->h, db->busy_ms);

	/* Read-only checks first: nothing below writes until they pass. */
	if (query_int(db, "SELECT count(*) FROM sqlite_master", &objects, &rc) != 0 ||
	    query_int(db, "PRAGMA user_version", &version, &rc) != 0 ||
	    query_int(db, "PRAGMA application_id", &appid, &rc) != 0) {
		refuse_unreadable(db, rc, err, len);
		goto fail;
	}
	if ((version == 0 && objects > 0) ||
	    (version > 0 && appid != DB_APPLICATION_ID)) {
		seterr(err, len, "%s: an SQLite database of another program (left untouched)", path);
		goto fail;
	}
	if (version > latest) {
		seterr(err, len, "%s: created by a newer conform (schema %lld, this build knows %d)",
		       path, version, latest);
		goto fail;
	}
	if (sqlite3_db_readonly(db->h, "main") == 1) {
		seterr(err, len, "%s: read-only, cannot record results", path);
		goto fail;
	}

	/* WAL lets readers (sqlite3, scripts) in while a run writes.  A file
	 * system without shared memory leaves the old mode; that still works. */
	if (prepare(db, "PRAGMA journal_mode = WAL", &st, err, len) != 0)
		goto fail;
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW) {
		db_fail(db, "setting WAL mode", rc, err, len);
		goto fail;
	}
	if (exec1(db, "PRAGMA foreign_keys = ON", err, len) != 0 ||
	    exec1(db, "PRAGMA synchronous = NORMAL", err, len) != 0)
		goto fail;
	if (version < target && migrate(db, target, err, len) != 0)
		goto fail;

	*out = db;
	return 0;
fail:
	sqlite3_close(db->h);
	free(db);
	return -1;
}

int db_open(const char *path, int busy_ms, struct db **out, char *err, size_t len)
{
	return open_db(path, busy_ms, db_schema_latest(), out, err, len);
}

int db_open_at_version(const char *path, int version, struct db **out, char *err, size_t len)
{
	return open_db(path, DB_DEFAULT_BUSY_MS, version, out, err, len);
}

void db_close(struct db *db)
{
	if (!db)
		return;
	sqlite3_close(db->h);
	free(db);
}

int db_schema_version(struct db *db)
{
	long long v;
	int rc;

	if (query_int(db, "PRAGMA user_version", &v, &rc) != 0)
		return -1;
	return (int)v;
}

int db_default_path(char *buf, size_t len)
{
	const char *s;
	int n;

	if ((s = getenv("CONFORM_DB")) && *s)
		n = snprintf(buf, len, "%s", s);
	else if ((s = getenv("XDG_DATA_HOME")) && *s == '/') /* relative: ignored, per XDG */
		n = snprintf(buf, len, "%s/conform/conform.db", s);
	else if ((s = getenv("HOME")) && *s)
		n = snprintf(buf, len, "%s/.local/share/conform/conform.db", s);
	else
		return -1;
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/*
 * Rows.
 */

int db_device_upsert(struct db *db, const struct gpu_info *g, int64_t *id, char *err, size_t len)
{
	sqlite3_stmt *st;
	char now[32];
	int rc, found = 0;

	/* Under the write lock, so two conforms on one new GPU make one row. */
	if (exec1(db, "BEGIN IMMEDIATE", err, len) != 0)
		return -1;
	if (g->uuid[0]) {
		if (prepare(db, "SELECT id FROM devices WHERE uuid = ?1", &st, err, len) != 0)
			goto rollback;
		sqlite3_bind_text(st, 1, g->uuid, -1, SQLITE_TRANSIENT);
	} else {
		if (prepare(db, "SELECT id FROM devices WHERE uuid IS NULL AND name = ?1 "
				"ORDER BY id LIMIT 1", &st, err, len) != 0)
			goto rollback;
		sqlite3_bind_text(st, 1, g->name, -1, SQLITE_TRANSIENT);
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		found = 1;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		db_fail(db, "looking up device", rc, err, len);
		goto rollback;
	}

	if (!found) {
		if (prepare(db, "INSERT INTO devices (name, uuid, cc_major, cc_minor, sm_count, "
				"memory_bytes, driver_version, runtime_version, first_seen) "
				"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)", &st, err, len) != 0)
			goto rollback;
		now_iso(now, sizeof now);
		bind_text(st, 1, g->name, 0);
		bind_text(st, 2, g->uuid, 1);
		sqlite3_bind_int(st, 3, g->cc_major);
		sqlite3_bind_int(st, 4, g->cc_minor);
		sqlite3_bind_int(st, 5, g->sm_count);
		sqlite3_bind_int64(st, 6, g->memory_bytes);
		sqlite3_bind_int(st, 7, g->driver_version);
		sqlite3_bind_int(st, 8, g->runtime_version);
		sqlite3_bind_text(st, 9, now, -1, SQLITE_TRANSIENT);
		if (step_done(db, st, "inserting device", err, len) != 0)
			goto rollback;
		*id = sqlite3_last_insert_rowid(db->h);
	}
	if (exec1(db, "COMMIT", err, len) != 0)
		goto rollback;
	return 0;
rollback:
	sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int db_run_begin(struct db *db, const struct run_info *ri, int64_t *run_id, char *err, size_t len)
{
	sqlite3_stmt *st;
	char now[32];

	if (prepare(db, "INSERT INTO runs (started_at, state, host, conform_version, "
			"git_revision, command_line, seed, device_id) "
			"VALUES (?1, 'running', ?2, ?3, ?4, ?5, ?6, ?7)", &st, err, len) != 0)
		return -1;
	now_iso(now, sizeof now);
	sqlite3_bind_text(st, 1, now, -1, SQLITE_TRANSIENT);
	bind_text(st, 2, ri->host, 0);
	bind_text(st, 3, ri->version, 0);
	bind_text(st, 4, ri->git_revision, 1);
	bind_text(st, 5, ri->command_line, 0);
	bind_seed(st, 6, ri->seed);
	if (ri->device_id > 0)
		sqlite3_bind_int64(st, 7, ri->device_id);
	else
		sqlite3_bind_null(st, 7);
	if (step_done(db, st, "recording run", err, len) != 0)
		return -1;
	*run_id = sqlite3_last_insert_rowid(db->h);
	return 0;
}

int db_run_end(struct db *db, int64_t run_id, const char *state, int passed, int failed,
	       int skipped, char *err, size_t len)
{
	sqlite3_stmt *st;
	char now[32];

	if (!state || (strcmp(state, "complete") != 0 && strcmp(state, "interrupted") != 0)) {
		seterr(err, len, "%s: run state must be complete or interrupted, not \"%s\"",
		       db->path, state ? state : "(null)");
		return -1;
	}
	if (prepare(db, "UPDATE runs SET ended_at = ?1, state = ?2, passed = ?3, failed = ?4, "
			"skipped = ?5 WHERE id = ?6", &st, err, len) != 0)
		return -1;
	now_iso(now, sizeof now);
	sqlite3_bind_text(st, 1, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, state, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 3, passed);
	sqlite3_bind_int(st, 4, failed);
	sqlite3_bind_int(st, 5, skipped);
	sqlite3_bind_int64(st, 6, run_id);
	if (step_done(db, st, "ending run", err, len) != 0)
		return -1;
	if (sqlite3_changes(db->h) != 1) {
		seterr(err, len, "%s: no run %lld", db->path, (long long)run_id);
		return -1;
	}
	return 0;
}

int db_result_insert(struct db *db, int64_t run_id, const struct result *r, char *err, size_t len)
{
	const struct case_spec *c = r->c;
	const char *dot;
	sqlite3_stmt *st;
	char now[32];

	if (!c) {
		seterr(err, len, "%s: result without a case", db->path);
		return -1;
	}
	if (prepare(db, "INSERT INTO results (run_id, case_name, kernel, variant, params, dtype, "
			"n, cols, expect, status, observed, message, err_norm, duration_ms, seed, "
			"created_at, median_ms, mean_ms, stddev_ms, min_ms, samples, noise, gbps, op, "
			"device_id) "
			"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, "
			"?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, "
			"(SELECT device_id FROM runs WHERE id = ?1))", &st, err, len) != 0)
		return -1;
	now_iso(now, sizeof now);
	dot = strchr(c->variant, '.');
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, c->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, c->variant, dot ? (int)(dot - c->variant) : -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, c->variant, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, c->params, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 6, dtype_name(c->dtype), -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 7, c->n);
	sqlite3_bind_int64(st, 8, c->cols);
	sqlite3_bind_text(st, 9, expect_name(c->expect), -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 10, status_name(r->status), -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 11, outcome_name(r->outcome), -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 12, r->message, -1, SQLITE_TRANSIENT);
	if (r->err_norm >= 0)
		sqlite3_bind_double(st, 13, r->err_norm);
	else
		sqlite3_bind_null(st, 13);
	sqlite3_bind_double(st, 14, r->duration_s * 1000.0);
	bind_seed(st, 15, r->seed);
	sqlite3_bind_text(st, 16, now, -1, SQLITE_TRANSIENT);
	const struct timing_stats *t = &r->timing;
	if (t->samples > 0) {
		/* Untimed results keep the timing columns NULL (bound as such by
		 * default), so "timed" is simply "samples IS NOT NULL". */
		sqlite3_bind_double(st, 17, t->median_ms);
		sqlite3_bind_double(st, 18, t->mean_ms);
		sqlite3_bind_double(st, 19, t->stddev_ms);
		sqlite3_bind_double(st, 20, t->min_ms);
		sqlite3_bind_int(st, 21, t->samples);
		sqlite3_bind_double(st, 22, t->noise);
		if (t->median_ms > 0 && t->bytes > 0)
			sqlite3_bind_double(st, 23, t->bytes / (t->median_ms * 1e-3) / 1e9);
	}
	/* op mirrors params and device_id the run (schema.sql, migration 3). */
	char op[16];
	if (params_get(c->params, "op", op, sizeof op) == 0)
		sqlite3_bind_text(st, 24, op, -1, SQLITE_TRANSIENT);
	return step_done(db, st, "recording result", err, len);
}

int db_run_status_counts(struct db *db, int64_t run_id, int counts[], char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc;

	for (int i = 0; i < STATUS_COUNT; i++)
		counts[i] = 0;
	if (prepare(db, "SELECT status, count(*) FROM results WHERE run_id = ?1 GROUP BY status",
		    &st, err, len) != 0)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *word = (const char *)sqlite3_column_text(st, 0);
		enum status s;

		if (!word || status_parse(word, &s) != 0) {
			seterr(err, len, "%s: result with unknown status \"%s\"", db->path,
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

/*
 * Tuning.
 */

static void bind_device(sqlite3_stmt *st, int i, int64_t device_id)
{
	if (device_id > 0)
		sqlite3_bind_int64(st, i, device_id);
	else
		sqlite3_bind_null(st, i);
}

static void column_copy(sqlite3_stmt *st, int i, char *buf, size_t len)
{
	const char *s = (const char *)sqlite3_column_text(st, i);
	snprintf(buf, len, "%s", s ? s : "");
}

int db_tuned_find(struct db *db, const struct db_tuned_key *k, struct result *r, char *err,
		  size_t len)
{
	sqlite3_stmt *st;
	int rc;

	/* results_config narrows to the configuration; the run decides the
	 * device and the build. */
	if (prepare(db, "SELECT r.status, r.observed, r.message, r.err_norm, r.duration_ms, "
			"r.median_ms, r.mean_ms, r.stddev_ms, r.min_ms, r.samples, r.noise, r.gbps "
			"FROM results r JOIN runs ON runs.id = r.run_id "
			"WHERE r.variant = ?1 AND r.dtype = ?2 AND r.n = ?3 AND r.cols = ?4 "
			"AND r.params = ?5 AND runs.device_id IS ?6 AND runs.git_revision IS ?7 "
			"AND r.expect = 'pass' AND r.observed <> 'skipped' "
			"AND (r.samples IS NOT NULL OR r.observed <> 'completed-correct') "
			"ORDER BY r.id DESC LIMIT 1", &st, err, len) != 0)
		return -1;
	sqlite3_bind_text(st, 1, k->variant, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, dtype_name(k->dtype), -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 3, k->n);
	sqlite3_bind_int64(st, 4, k->cols);
	sqlite3_bind_text(st, 5, k->params, -1, SQLITE_TRANSIENT);
	bind_device(st, 6, k->device_id);
	bind_text(st, 7, k->git_revision, 1);
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		sqlite3_finalize(st);
		return 0;
	}
	if (rc != SQLITE_ROW) {
		db_fail(db, "looking up a tuned configuration", rc, err, len);
		sqlite3_finalize(st);
		return -1;
	}
	const char *status = (const char *)sqlite3_column_text(st, 0);
	const char *observed = (const char *)sqlite3_column_text(st, 1);
	if (!status || !observed || status_parse(status, &r->status) != 0 ||
	    outcome_parse(observed, &r->outcome) != 0) {
		seterr(err, len, "%s: stored result with unknown status \"%s\" or outcome \"%s\"",
		       db->path, status ? status : "(null)", observed ? observed : "(null)");
		sqlite3_finalize(st);
		return -1;
	}
	column_copy(st, 2, r->message, sizeof r->message);
	r->err_norm = sqlite3_column_type(st, 3) == SQLITE_NULL ? -1 : sqlite3_column_double(st, 3);
	r->duration_s = sqlite3_column_double(st, 4) / 1000.0;
	memset(&r->timing, 0, sizeof r->timing);
	if (sqlite3_column_type(st, 9) != SQLITE_NULL) {
		struct timing_stats *t = &r->timing;
		t->median_ms = sqlite3_column_double(st, 5);
		t->mean_ms = sqlite3_column_double(st, 6);
		t->stddev_ms = sqlite3_column_double(st, 7);
		t->min_ms = sqlite3_column_double(st, 8);
		t->samples = sqlite3_column_int(st, 9);
		t->noise = sqlite3_column_double(st, 10);
		/* Only the bandwidth is stored; the bytes follow from it. */
		t->bytes = sqlite3_column_double(st, 11) * 1e9 * t->median_ms * 1e-3;
		t->result_spread = -1;
	}
	sqlite3_finalize(st);
	return 1;
}

int db_bandwidth_get(struct db *db, int64_t device_id, const char *variant, double *gbps,
		     char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc, found = 0;

	if (prepare(db, "SELECT gbps FROM device_bandwidth WHERE device_id IS ?1 AND variant = ?2 "
			"ORDER BY id DESC LIMIT 1", &st, err, len) != 0)
		return -1;
	bind_device(st, 1, device_id);
	sqlite3_bind_text(st, 2, variant, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*gbps = sqlite3_column_double(st, 0);
		found = 1;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_fail(db, "looking up copy bandwidth", rc, err, len);
	return found;
}

int db_bandwidth_put(struct db *db, const struct db_bandwidth *b, char *err, size_t len)
{
	sqlite3_stmt *st;
	char now[32];

	if (prepare(db, "INSERT INTO device_bandwidth (device_id, variant, bytes, median_ms, gbps, "
			"measured_at, conform_version, git_revision) "
			"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", &st, err, len) != 0)
		return -1;
	now_iso(now, sizeof now);
	bind_device(st, 1, b->device_id);
	sqlite3_bind_text(st, 2, b->variant, -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(st, 3, b->bytes);
	sqlite3_bind_double(st, 4, b->median_ms);
	sqlite3_bind_double(st, 5, b->gbps);
	sqlite3_bind_text(st, 6, now, -1, SQLITE_TRANSIENT);
	bind_text(st, 7, b->version, 0);
	bind_text(st, 8, b->git_revision, 1);
	return step_done(db, st, "recording copy bandwidth", err, len);
}

/* Both tuned-row queries select these columns in this order. */
#define TUNED_ROW_COLUMNS 15

static void tuned_row_read(sqlite3_stmt *st, struct db_tuned_row *row)
{
	memset(row, 0, sizeof *row);
	row->device_id = sqlite3_column_int64(st, 0);
	column_copy(st, 1, row->device, sizeof row->device);
	column_copy(st, 2, row->variant, sizeof row->variant);
	column_copy(st, 3, row->dtype, sizeof row->dtype);
	column_copy(st, 4, row->op, sizeof row->op);
	row->n = sqlite3_column_int64(st, 5);
	row->cols = sqlite3_column_int64(st, 6);
	column_copy(st, 7, row->params, sizeof row->params);
	row->median_ms = sqlite3_column_double(st, 8);
	row->gbps = sqlite3_column_double(st, 9);
	row->noise = sqlite3_column_double(st, 10);
	row->result_id = sqlite3_column_int64(st, 11);
	row->run_id = sqlite3_column_int64(st, 12);
	column_copy(st, 13, row->measured_at, sizeof row->measured_at);
	column_copy(st, 14, row->git_revision, sizeof row->git_revision);
}

/* Binds a query's filters as ?1 pattern, ?2 dtype, ?3 op, ?4 device and,
 * when the statement has it, ?5 n (NULL for absent members), and hands
 * every row to fn. */
static int tuned_each(struct db *db, const char *sql, const struct db_tuned_query *q,
		      db_tuned_fn fn, void *ctx, const char *what, char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc;

	if (prepare(db, sql, &st, err, len) != 0)
		return -1;
	if (sqlite3_column_count(st) != TUNED_ROW_COLUMNS) {
		seterr(err, len, "%s: %s: query has %d columns", db->path, what, sqlite3_column_count(st));
		sqlite3_finalize(st);
		return -1;
	}
	bind_text(st, 1, q->pattern ? q->pattern : "*", 0);
	bind_text(st, 2, q->dtype, 1);
	bind_text(st, 3, q->op, 1);
	bind_text(st, 4, q->device, 1);
	if (sqlite3_bind_parameter_count(st) >= 5 && q->n > 0)
		sqlite3_bind_int64(st, 5, q->n);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_tuned_row row;
		tuned_row_read(st, &row);
		if (fn(ctx, &row) != 0) {
			rc = SQLITE_DONE;
			break;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, what, rc, err, len);
	return 0;
}

int db_best_each(struct db *db, const struct db_tuned_query *q, db_tuned_fn fn, void *ctx,
		 char *err, size_t len)
{
	/* The view yields one row per group in a few index seeks each
	 * (schema.sql, best_configs); the filters and joins then work on those
	 * few rows, not on the results. */
	static const char sql[] =
		"SELECT coalesce(b.device_id, 0), coalesce(d.name, ''), b.variant, b.dtype, "
		"coalesce(b.op, ''), b.n, b.cols, b.params, b.median_ms, coalesce(b.gbps, 0), "
		"coalesce(b.noise, 0), b.result_id, b.run_id, b.measured_at, "
		"coalesce(runs.git_revision, '') "
		"FROM best_configs b JOIN runs ON runs.id = b.run_id "
		"LEFT JOIN devices d ON d.id = b.device_id "
		"WHERE b.variant GLOB ?1 AND (?2 IS NULL OR b.dtype = ?2) "
		"AND (?3 IS NULL OR b.op = ?3) AND b.op IS NOT NULL "
		"AND (?4 IS NULL OR coalesce(d.name, 'host') GLOB ?4) "
		"ORDER BY coalesce(d.name, ''), b.device_id, b.dtype, b.op, b.cols, b.n, b.variant";
	return tuned_each(db, sql, q, fn, ctx, "looking up best configurations", err, len);
}

int db_history_each(struct db *db, const struct db_tuned_query *q, db_tuned_fn fn, void *ctx,
		    char *err, size_t len)
{
	static const char sql[] =
		"SELECT coalesce(r.device_id, 0), coalesce(d.name, ''), r.variant, r.dtype, "
		"coalesce(r.op, ''), r.n, r.cols, r.params, min(r.median_ms), coalesce(r.gbps, 0), "
		"coalesce(r.noise, 0), r.id, r.run_id, runs.started_at, "
		"coalesce(runs.git_revision, '') "
		"FROM results r JOIN runs ON runs.id = r.run_id "
		"LEFT JOIN devices d ON d.id = r.device_id "
		"WHERE r.status = 'PASS' AND r.median_ms IS NOT NULL AND r.variant GLOB ?1 "
		"AND (?2 IS NULL OR r.dtype = ?2) AND (?3 IS NULL OR r.op = ?3) AND r.op IS NOT NULL "
		"AND (?4 IS NULL OR coalesce(d.name, 'host') GLOB ?4) AND (?5 IS NULL OR r.n = ?5) "
		"GROUP BY r.run_id, r.dtype, r.op, r.n, r.cols "
		"ORDER BY coalesce(d.name, ''), r.device_id, r.dtype, r.op, r.n, r.cols, r.run_id";
	return tuned_each(db, sql, q, fn, ctx, "looking up tuning history", err, len);
}

int db_tuned_variants(struct db *db, char *buf, size_t buflen, char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc;
	size_t used = 0;

	if (buflen)
		buf[0] = '\0';
	if (prepare(db, "SELECT DISTINCT variant FROM results WHERE status = 'PASS' "
			"AND median_ms IS NOT NULL AND op IS NOT NULL ORDER BY variant",
		    &st, err, len) != 0)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 0);
		int n = snprintf(buf + used, buflen - used, "%s%s", used ? ", " : "", v ? v : "");
		if (n < 0 || (size_t)n >= buflen - used) {
			/* Out of room: say so rather than cut a name in half. */
			if (buflen > used + 4)
				snprintf(buf + used, buflen - used, "%s...", used ? ", " : "");
			rc = SQLITE_DONE;
			break;
		}
		used += (size_t)n;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, "listing tuned variants", rc, err, len);
	return 0;
}
