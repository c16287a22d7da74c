/*
 * db_stmt.c - the helpers every query of the store goes through: messages,
 * running SQL text, preparing, binding, stepping and reading columns (see
 * db_internal.h).
 *
 * They keep the store's error convention in one place: a failed call says
 * "path: what: reason" on one line, the reason in our words (SQLite's own
 * text only where we have nothing better), and a lock held by another
 * process always reads "locked", with how long we waited.
 */
#include "db/db_internal.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <time.h>

#include "common/text.h"

void db_seterr(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || len == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

/* Below this much room a shortened path says nothing: "..." stands alone. */
#define PATH_SHORT_MIN 16

void db_seterr_at(char *err, size_t len, const char *path, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	size_t m, p, room, head;

	if (!err || len == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	m = strlen(msg);
	p = strlen(path);
	if (p + 2 + m < len) {
		snprintf(err, len, "%s: %s", path, msg);
		return;
	}
	/* The path gets what ": message" leaves; more of its end than of its
	 * start, since the file's name is the end. */
	room = len > m + 3 ? len - m - 3 : 0;
	if (room < PATH_SHORT_MIN) {
		snprintf(err, len, "...: %s", msg);
		return;
	}
	head = room / 3;
	snprintf(err, len, "%.*s...%s: %s", (int)head, path, path + p - (room - head - 3), msg);
}

/* What an I/O error (an extended SQLITE_IOERR code) was doing. */
static const char *io_doing(int rc)
{
	switch (rc) {
	case SQLITE_IOERR_WRITE:
		return "cannot write the database or its journal";
	case SQLITE_IOERR_FSYNC:
	case SQLITE_IOERR_DIR_FSYNC:
		return "cannot flush the database to disk";
	case SQLITE_IOERR_READ:
	case SQLITE_IOERR_SHORT_READ:
		return "cannot read the database";
	case SQLITE_IOERR_TRUNCATE:
		return "cannot resize the database or its journal";
	default:
		return "I/O error on the database or its journal";
	}
}

/* The operating system's reason behind an I/O failure, as " (reason)", or
 * "" when SQLite kept none. */
static void system_reason(struct db *db, char *buf, size_t len)
{
	int e = sqlite3_system_errno(db->h);
	if (e)
		snprintf(buf, len, " (%s)", strerror(e));
	else
		buf[0] = '\0';
}

int db_fail(struct db *db, const char *what, int rc, char *err, size_t len)
{
	char why[128];

	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		db_seterr_at(err, len, db->path,
			     "database is locked by another process (waited %d ms)",
			     DB_BUSY_TIMEOUT_MS);
		return DB_LOCKED;
	case SQLITE_FULL:
		db_seterr_at(err, len, db->path, "%s: the disk is full", what);
		break;
	case SQLITE_IOERR:
		system_reason(db, why, sizeof why);
		db_seterr_at(err, len, db->path, "%s: %s%s", what, io_doing(rc), why);
		break;
	case SQLITE_CANTOPEN:
		system_reason(db, why, sizeof why);
		db_seterr_at(err, len, db->path, "%s: cannot open the database or its journal%s", what,
			     why);
		break;
	case SQLITE_READONLY:
		db_seterr_at(err, len, db->path, "%s: the database is read-only, cannot record results",
			     what);
		break;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		db_seterr_at(err, len, db->path, "%s: the database is damaged (%s): " DB_DAMAGED_ADVICE,
			     what, sqlite3_errmsg(db->h));
		break;
	case SQLITE_NOMEM:
		db_seterr_at(err, len, db->path, "%s: out of memory", what);
		break;
	default:
		db_seterr_at(err, len, db->path, "%s: %s", what, sqlite3_errmsg(db->h));
		break;
	}
	return -1;
}

void db_now_iso(char *buf, size_t len)
{
	text_utc_iso(buf, len, time(NULL));
}

int db_exec_text(struct db *db, const char *what, const char *sql, size_t len, char *err,
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

int db_exec(struct db *db, const char *sql, char *err, size_t len)
{
	return db_exec_text(db, sql, sql, strlen(sql), err, len);
}

int db_query_int(struct db *db, const char *sql, long long *out, int *rcp)
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

int db_prepare(struct db *db, const char *sql, sqlite3_stmt **st, char *err, size_t len)
{
	int rc = sqlite3_prepare_v2(db->h, sql, -1, st, NULL);

	if (rc != SQLITE_OK) {
		*st = NULL;
		return db_fail(db, "prepare", rc, err, len);
	}
	return 0;
}

int db_bind_text(sqlite3_stmt *st, int i, const char *s, int empty_null)
{
	if (!s || (empty_null && !*s))
		return sqlite3_bind_null(st, i);
	return sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
}

int db_step_done(struct db *db, sqlite3_stmt *st, const char *what, char *err, size_t len)
{
	int rc = sqlite3_step(st);

	if (rc != SQLITE_DONE) {
		rc = db_fail(db, what, rc, err, len);
		sqlite3_finalize(st);
		return rc;
	}
	sqlite3_finalize(st);
	return 0;
}

void db_bind_device(sqlite3_stmt *st, int i, int64_t device_id)
{
	if (device_id > 0)
		sqlite3_bind_int64(st, i, device_id);
	else
		sqlite3_bind_null(st, i);
}

void db_column_text(sqlite3_stmt *st, int i, char *buf, size_t len)
{
	const char *s = (const char *)sqlite3_column_text(st, i);
	text_copy(buf, len, s ? s : "");
	text_sanitize(buf);
}

double db_column_real(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

void db_robust_read(sqlite3_stmt *st, int col, int timed, struct db_robust *rb)
{
	rb->ci_low_ms = db_column_real(st, col);
	rb->ci_high_ms = db_column_real(st, col + 1);
	rb->spread = db_column_real(st, col + 2);
	rb->noise_met = sqlite3_column_type(st, col + 3) == SQLITE_NULL ? -1 : sqlite3_column_int(st, col + 3);
	rb->throttled = sqlite3_column_int(st, col + 4);
	const char *timer = (const char *)sqlite3_column_text(st, col + 5);
	if (!timer)
		rb->timer = timed ? TIMER_EVENTS : TIMER_NONE;
	else if (timing_timer_parse(timer, &rb->timer) < 0)
		rb->timer = TIMER_EVENTS;
}

/* A positive, finite number stored as one, else 0.  Text is never a
 * figure: SQLite would read '12abc' as 12, and a REAL column keeps as text
 * only what is no number. */
static double figure(sqlite3_stmt *st, int i)
{
	int type = sqlite3_column_type(st, i);
	double v = sqlite3_column_double(st, i);
	return (type == SQLITE_FLOAT || type == SQLITE_INTEGER) && isfinite(v) && v > 0 ? v : 0;
}

/* A positive integer stored as one, up to max, else 0 (sqlite3_column_int
 * would cut a larger one to its low 32 bits). */
static long long count(sqlite3_stmt *st, int i, long long max)
{
	long long v = sqlite3_column_int64(st, i);
	return sqlite3_column_type(st, i) == SQLITE_INTEGER && v > 0 && v <= max ? v : 0;
}

void db_energy_read(sqlite3_stmt *st, int col, struct energy_stats *e)
{
	memset(e, 0, sizeof *e);
	e->joules = figure(st, col);
	e->watts = figure(st, col + 1);
	e->watts_sampled = figure(st, col + 2);
	e->uncertainty = figure(st, col + 3);
	e->window_s = figure(st, col + 4);
	e->launches = (long)count(st, col + 5, LONG_MAX);
	e->sm_mhz = (int)count(st, col + 6, INT_MAX);
	e->mem_mhz = (int)count(st, col + 7, INT_MAX);
	const char *reasons = (const char *)sqlite3_column_text(st, col + 8);
	if (reasons && energy_reasons_parse(reasons, &e->reasons) == 0)
		e->reasons_known = 1;
	else
		e->reasons = 0;
	energy_clear_implausible(e);
}

void db_energy_bind(sqlite3_stmt *st, int first, const struct energy_stats *e)
{
	const double figures[] = {e->joules, e->watts, e->watts_sampled};
	for (int i = 0; i < 3; i++)
		if (figures[i] > 0)
			sqlite3_bind_double(st, first + i, figures[i]);
	if (energy_measured(e) && e->uncertainty > 0)
		sqlite3_bind_double(st, first + 3, e->uncertainty);
	if (energy_measured(e) && e->window_s > 0)
		sqlite3_bind_double(st, first + 4, e->window_s);
	if (e->launches > 0)
		sqlite3_bind_int64(st, first + 5, e->launches);
	if (e->sm_mhz > 0)
		sqlite3_bind_int(st, first + 6, e->sm_mhz);
	if (e->mem_mhz > 0)
		sqlite3_bind_int(st, first + 7, e->mem_mhz);
	if (e->reasons_known) {
		char text[200];
		sqlite3_bind_text(st, first + 8, energy_reasons_text(e->reasons, text, sizeof text), -1,
				  SQLITE_TRANSIENT);
	}
}

/* conform_text(X, LEN): X as db_column_text gives it in a buffer of LEN
 * bytes, as a blob, so that ORDER BY sorts rows in the order strcmp puts
 * the strings the caller then reads (db_read.c's sorted results). */
static void sql_conform_text(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *s = (const char *)sqlite3_value_text(argv[0]);
	int len = sqlite3_value_int(argv[1]);
	char buf[1024];

	(void)argc;
	if (len < 1 || (size_t)len > sizeof buf) {
		sqlite3_result_error(ctx, "conform_text: length out of range", -1);
		return;
	}
	text_copy(buf, (size_t)len, s ? s : "");
	text_sanitize(buf);
	sqlite3_result_blob(ctx, buf, (int)strlen(buf), SQLITE_TRANSIENT);
}

int db_register_functions(struct db *db, char *err, size_t len)
{
	int rc = sqlite3_create_function(db->h, "conform_text", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
					 NULL, sql_conform_text, NULL, NULL);
	return rc == SQLITE_OK ? 0 : db_fail(db, "registering conform_text", rc, err, len);
}

int db_read_one(struct db *db, sqlite3_stmt *st, db_row_reader read, void *out, const char *what,
		char *err, size_t len)
{
	int rc = sqlite3_step(st), found = 0;

	if (rc == SQLITE_ROW) {
		read(st, out);
		found = 1;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_fail(db, what, rc, err, len);
	return found;
}

void db_read_id(sqlite3_stmt *st, void *out)
{
	*(int64_t *)out = sqlite3_column_int64(st, 0);
}
