/*
 * db_sink.h - the database as one of a run's sinks: the sink every session
 * opens first (sinks[0]), which stores the run row, its devices and each
 * result as it comes, a commit per result.
 */
#ifndef CONFORM_DB_SINK_H
#define CONFORM_DB_SINK_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "session/device_set.h"
#include "session/report_sink.h"

struct db;
struct db_state {
	struct db *db;
	int64_t run_id;
	int64_t device_id;       /* set by begin: the run's device, 0 for none */
	/* The devices.id of each GPU results came from, by ordinal (a run
	 * over several devices; upserted at its first result). */
	struct {
		int ordinal;
		int64_t id;
	} seen[DEVICE_SET_MAX];
	int nseen;
	/* While a write waits for another process's lock (db_sink.c):
	 * *stop set (Ctrl-C, the TUI's cancel) ends the wait; each "still
	 * waiting" line goes to waiting(waiting_ctx, line) when set, else to
	 * stderr. */
	const volatile sig_atomic_t *stop;
	void (*waiting)(void *ctx, const char *line);
	void *waiting_ctx;
};
void db_sink(struct report_sink *s, struct db_state *st);
/* After a write through st's database met another process's lock (since:
 * when the write began): tells so, and returns 1 to try again, or 0 when
 * the run is being stopped (err then says what was not stored).  `what`
 * names the write, "the result of harness.pass.f32".  Every write a run
 * makes waits this way. */
int db_sink_wait(const struct db_state *st, double since, const char *what, char *err,
		 size_t len);

#endif
