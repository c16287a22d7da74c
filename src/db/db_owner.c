/*
 * db_owner.c - whose process a run is, and the runs whose process is gone
 * (db.h).
 *
 * A run is written by one conform process from its first row to its end.
 * db_run_begin records that process: its pid, and pid_start, the identity
 * that tells it from a later process given the same pid: the machine's
 * boot id, the pid namespace and the process's start time, all from
 * /proc.  A run still 'running' whose process is gone (kill -9, a crash, a
 * machine that went down) can never end by itself; db_owner_reap marks it
 * 'abandoned' when a conform opens the database to record results.
 *
 * Invariant: a run is marked abandoned only when its process is known to
 * be gone, never on a guess: only on the host that ran it (a database on a
 * shared file system is opened from several), only within its pid
 * namespace (a container numbers its own), and only when no process holds
 * its pid or the one that does started at another time.  A boot id that
 * differs means the machine has restarted since, so every process of the
 * old boot is gone.  Runs recorded before pids were (migration 11) and
 * runs on systems without /proc (pid_start NULL) are judged by the pid
 * alone, and stay 'running' while any process holds it.
 */
#include "db/db_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* "BOOT PIDNS START": three words, each at most 63 bytes. */
#define PID_START_MAX 200

/* Reads the first line of a small file of /proc into buf, without its
 * newline.  Returns 0, or -1. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return buf[0] ? 0 : -1;
}

/* The start time of process pid, in clock ticks after boot: field 22 of
 * /proc/PID/stat, counted after the command name's closing parenthesis
 * (the name itself may hold spaces and parentheses).  0, or -1. */
static int start_ticks(long pid, char *buf, size_t len)
{
	char path[64], stat[1024];
	unsigned long long ticks;
	const char *p;

	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if (read_line(path, stat, sizeof stat) != 0 || !(p = strrchr(stat, ')')))
		return -1;
	/* After ")": state (field 3), then fields 4..21, then starttime. */
	p++;
	for (int field = 2; field < 21; field++) {
		p = strchr(p + 1, ' ');
		if (!p)
			return -1;
	}
	if (sscanf(p, " %llu", &ticks) != 1)
		return -1;
	snprintf(buf, len, "%llu", ticks);
	return 0;
}

/* The boot id and the pid namespace of this process, "BOOT PIDNS". */
static int machine_words(char *buf, size_t len)
{
	char boot[64], ns[64];
	ssize_t n = readlink("/proc/self/ns/pid", ns, sizeof ns - 1);

	if (read_line("/proc/sys/kernel/random/boot_id", boot, sizeof boot) != 0 || n <= 0)
		return -1;
	ns[n] = '\0';
	if (strchr(ns, ' '))
		return -1;
	snprintf(buf, len, "%s %s", boot, ns);
	return 0;
}

int db_owner_self(long *pid, char *start, size_t len)
{
	char words[PID_START_MAX], ticks[32];

	*pid = (long)getpid();
	start[0] = '\0';
	if (machine_words(words, sizeof words) != 0 || start_ticks(*pid, ticks, sizeof ticks) != 0)
		return 0;
	if ((size_t)snprintf(start, len, "%s %s", words, ticks) >= len)
		start[0] = '\0';
	return 0;
}

/* Whether the process recorded as (pid, start) on this host is gone: 1
 * gone, 0 alive or not for us to judge (see the top of the file). */
static int owner_gone(long pid, const char *start)
{
	char here[PID_START_MAX], boot[64], ns[64], ticks[32], now[32];

	if (pid <= 0)
		return 0;
	if (start && start[0]) {
		if (sscanf(start, "%63s %63s %31s", boot, ns, ticks) != 3 ||
		    machine_words(here, sizeof here) != 0)
			return 0;
		size_t bl = strlen(boot);
		if (strncmp(here, boot, bl) != 0 || here[bl] != ' ')
			return 1; /* the machine has restarted since */
		if (strcmp(here + bl + 1, ns) != 0)
			return 0; /* another pid namespace: its pids are not ours */
	}
	/* EPERM: a process of another user holds the pid. */
	if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
		return 1;
	if (!start || !start[0])
		return 0;
	/* Someone holds the pid: the owner, unless it started at another time.
	 * A /proc that hides other users' processes tells nothing: alive. */
	if (start_ticks(pid, now, sizeof now) != 0)
		return 0;
	return strcmp(now, ticks) != 0;
}

/* Marks one run abandoned if it is still running (another conform may have
 * ended or reaped it since we read it). */
static int mark_abandoned(struct db *db, int64_t id, long pid, const char *host, long self,
			  char *err, size_t len)
{
	sqlite3_stmt *st;
	char now[32], reason[512];

	db_now_iso(now, sizeof now);
	snprintf(reason, sizeof reason, "its conform (pid %ld on %s) ended without recording its end "
		 "(killed, or its machine went down); found at %s by pid %ld", pid, host, now, self);
	if (db_prepare(db, "UPDATE runs SET state = 'abandoned', reason = ?2, ended_at = "
		       "coalesce((SELECT max(created_at) FROM results WHERE run_id = ?1), started_at) "
		       "WHERE id = ?1 AND state = 'running'", &st, err, len) != 0)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, reason, -1, SQLITE_TRANSIENT);
	return db_step_done(db, st, "marking an abandoned run", err, len);
}

int db_owner_reap(struct db *db, const char *host, int *reaped, char *err, size_t len)
{
	sqlite3_stmt *st;
	int64_t ids[64];
	long pids[64];
	size_t n = 0;
	long self = (long)getpid();
	int rc;

	*reaped = 0;
	if (db_prepare(db, "SELECT id, pid, pid_start FROM runs WHERE state = 'running' AND host = ?1 "
		       "AND pid IS NOT NULL ORDER BY id", &st, err, len) != 0)
		return -1;
	sqlite3_bind_text(st, 1, host, -1, SQLITE_TRANSIENT);
	/* At most 64 an open: the rest wait for the next one. */
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < sizeof ids / sizeof ids[0]) {
		long pid = (long)sqlite3_column_int64(st, 1);
		const char *start = (const char *)sqlite3_column_text(st, 2);
		if (pid != self && owner_gone(pid, start)) {
			ids[n] = sqlite3_column_int64(st, 0);
			pids[n++] = pid;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return db_fail(db, "finding runs whose process is gone", rc, err, len);
	for (size_t i = 0; i < n; i++) {
		if ((rc = mark_abandoned(db, ids[i], pids[i], host, self, err, len)) != 0)
			return rc;
		*reaped += sqlite3_changes(db->h);
	}
	return 0;
}
