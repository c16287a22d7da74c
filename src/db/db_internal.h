/*
 * db_internal.h - what the db_*.c files share and nothing outside src/db/
 * sees: the connection and the statement helpers (db_stmt.c).
 *
 * The store is split by concern: db_file.c (the file before SQLite sees it),
 * db_migrate.c (the schema), db_open.c (the connection), db_owner.c (a
 * run's process, and runs it abandoned), db_write.c (devices, runs,
 * results), db_read.c (reading runs and results back), db_tuned.c (the
 * tuner's queries).  db.h is their one public interface.
 *
 * Invariants every db_*.c file keeps:
 *   - Every statement binds its values; the only SQL assembled at run time
 *     is the PRAGMA that stamps the version (db_migrate.c), which cannot
 *     take a parameter.
 *   - A statement is finalized before the function that prepared it
 *     returns, so one connection serves writes and reads in turn.  The one
 *     exception is a result cursor (db_read.c), which reads a row per call
 *     until it is closed; its caller only reads meanwhile.
 *   - Error messages are one line, in conform's words, and start with the
 *     database path where there is one (db_seterr_at), shortened in its
 *     middle when it would crowd out the reason; a lock held by someone
 *     else always says "locked" (db_fail).
 */
#ifndef CONFORM_DB_INTERNAL_H
#define CONFORM_DB_INTERNAL_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "db/db.h"

/* PRAGMA application_id of a conform database: "conf". */
#define DB_APPLICATION_ID 0x636f6e66

/* The tables conform's schema is built on, as an SQL list: a view or
 * anything else in the place of one is refused (db_open.c, db_merge.c),
 * since every read of it would run the view's query (a recursive one
 * never ends). */
#define DB_CORE_TABLES "('runs', 'results', 'devices', 'device_bandwidth')"

struct db {
	sqlite3 *h;
	char path[PATH_MAX];
};

/* Formats a message into err (when there is room for one). */
void db_seterr(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Formats "path: message" into err.  When the whole does not fit, the path
 * gives way, not the message: its middle is replaced by "...", so a path
 * of any length (PATH_MAX, where callers' buffers are 1024) never hides
 * the reason. */
void db_seterr_at(char *err, size_t len, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* What to do about a damaged database: the end of every message that
 * reports one, at open (db_open.c) or later (db_fail). */
#define DB_DAMAGED_ADVICE "move it aside (the next run starts a new one) and recover what is " \
	"readable with: sqlite3 MOVED.db .recover | sqlite3 RECOVERED.db"

/* Reports a failed SQLite call as "path: what: reason", the reason in
 * conform's words (a full disk, an I/O error and its cause, a damaged or
 * read-only database), and returns -1, or DB_LOCKED for a lock held
 * elsewhere: that is told as such whatever we were doing, since the cure
 * (wait, or stop the other process) does not depend on it. */
int db_fail(struct db *db, const char *what, int rc, char *err, size_t len);

/* The time now as ISO-8601 UTC, the form of every timestamp column. */
void db_now_iso(char *buf, size_t len);

/* Runs every statement in sql[0..len), discarding any rows; `what` names
 * the work in error messages.  0, or what db_fail() returns. */
int db_exec_text(struct db *db, const char *what, const char *sql, size_t len, char *err,
		 size_t elen);
/* The same for one NUL-terminated text, named by itself. */
int db_exec(struct db *db, const char *sql, char *err, size_t len);

/* Runs a query returning one integer (a PRAGMA, a count): 0 and *out (0
 * when there is no row), or -1 with the SQLite code in *rcp. */
int db_query_int(struct db *db, const char *sql, long long *out, int *rcp);

/* Prepares one statement; on failure *st is NULL and err says why. */
int db_prepare(struct db *db, const char *sql, sqlite3_stmt **st, char *err, size_t len);

/* Steps a write statement to completion and finalizes it either way:
 * 0, or what db_fail() returns. */
int db_step_done(struct db *db, sqlite3_stmt *st, const char *what, char *err, size_t len);

/* Binds text, or NULL for a null pointer or, when empty_null, "". */
int db_bind_text(sqlite3_stmt *st, int i, const char *s, int empty_null);

/* Binds a device id, NULL for the host (id 0): the form of every
 * device_id column. */
void db_bind_device(sqlite3_stmt *st, int i, int64_t device_id);

/* Copies a text column into buf, "" for NULL, truncated to fit, made
 * printable (text_sanitize): a database is outside input (a script, a
 * merged shard may have written it), and every text conform reads from
 * one for a terminal, a report or generated code comes through here. */
void db_column_text(sqlite3_stmt *st, int i, char *buf, size_t len);

/* A column that may be NULL, as NAN. */
double db_column_real(sqlite3_stmt *st, int i);

/* The robust timing columns (migrations 5 and 6) of the results aliased a,
 * in the order db_robust_read() takes them.  One reading of a NULL for
 * every query: a result stored before them has none, and what it does not
 * have reads as missing (NAN, noise_met -1), never as a value; a rank that
 * needs a bound takes the median then (timing_rank_bound). */
#define DB_ROBUST_COLUMNS(a)                                                         \
	a ".ci_low_ms, " a ".ci_high_ms, " a ".spread, " a ".noise_met, " a ".throttled, " \
	a ".timer"
/* Reads DB_ROBUST_COLUMNS from column col: the interval and spread NAN when
 * NULL, noise_met -1, throttled 0; a result timed (`timed`) with no timer
 * stored was timed by events, the only timer there was, and a timer this
 * build does not know reads as events too. */
void db_robust_read(sqlite3_stmt *st, int col, int timed, struct db_robust *rb);

/* The energy columns (migration 14) of the results aliased a, in the
 * order db_energy_read() takes them. */
#define DB_ENERGY_COLUMNS(a)                                                          \
	a ".energy_j, " a ".power_w, " a ".power_sampled_w, " a ".energy_uncertainty, "    \
	a ".energy_window_s, " a ".energy_launches, " a ".sm_mhz, " a ".mem_mhz, "         \
	a ".throttle_reasons"
#define DB_ENERGY_NCOLUMNS 9
/* Reads DB_ENERGY_COLUMNS from column col into e: a NULL reads as 0, "not
 * measured" (energy.h), and so does a value that is no figure (negative,
 * not finite, text; a count or clock that is no integer) or one no
 * measurement gives (energy_clear_implausible); reasons_known only for a
 * text energy_reasons_parse takes. */
void db_energy_read(sqlite3_stmt *st, int col, struct energy_stats *e);
/* Binds e's figures from parameter `first` on, in DB_ENERGY_COLUMNS'
 * order; what was not measured stays unbound (NULL). */
void db_energy_bind(sqlite3_stmt *st, int first, const struct energy_stats *e);

/* Makes conform_text(X, LEN), db_column_text as an SQL function, known to
 * the connection (db_stmt.c). */
int db_register_functions(struct db *db, char *err, size_t len);

/* Reads the current row of st into the struct at row. */
typedef void (*db_row_reader)(sqlite3_stmt *st, void *row);

/* Steps a prepared, bound statement once and finalizes it: 1 with the row
 * read into out, 0 when the query yields no row, -1 on error (what names
 * the work in the message). */
int db_read_one(struct db *db, sqlite3_stmt *st, db_row_reader read, void *out, const char *what,
		char *err, size_t len);

/* A db_row_reader of one id, the first column, into an int64_t. */
void db_read_id(sqlite3_stmt *st, void *out);

/* Checks the file at path before SQLite opens it (db_file.c): makes its
 * directory when it does not exist yet, refuses anything that is not empty
 * and not an SQLite database, and, unless reading_only, anything conform
 * could not write. */
int db_file_check(const char *path, int reading_only, char *err, size_t len);

/* Whether path (an existing file) lies on a file system mounted read-only:
 * nothing can change it while it is read (db_file.c). */
int db_file_on_readonly_fs(const char *path);

/* Applies migrations up to `target`, one transaction each (db_migrate.c). */
int db_migrate(struct db *db, int target, char *err, size_t len);

#endif
