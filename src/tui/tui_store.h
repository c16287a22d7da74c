/*
 * tui_store.h - what the TUI reads back from the results database: runs,
 * the results of one run, and timed results for the plot.
 *
 * A read-only connection of its own, opened after db_open() has created and
 * migrated the file; the run in progress writes through db.c on the other
 * connection, and WAL lets these reads see each result as it is committed.
 * Nothing here writes.
 */
#ifndef CONFORM_TUI_STORE_H
#define CONFORM_TUI_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "case.h"
#include "status.h"

struct tui_store;

struct tui_run_row {
	int64_t id;
	char started_at[32];      /* ISO-8601 UTC */
	char state[16];           /* running, complete, interrupted */
	int passed, failed, skipped; /* -1 while running */
	char command_line[256];
	char device[128];         /* "" for host-only runs */
	int results;              /* rows stored */
};

struct tui_result_row {
	int64_t id;
	char case_name[CASE_NAME_MAX];
	char variant[CASE_VARIANT_MAX];
	char dtype[8];
	int64_t n, cols;
	char params[CASE_PARAMS_MAX];
	char expect[16];
	enum status status;
	char observed[24];
	char message[1024];
	char seed[24];
	char created_at[32];
	double err_norm;          /* NAN when not computed */
	double duration_ms;
	double median_ms, gbps, noise; /* NAN when not timed */
	int samples;              /* 0 when not timed */
};

/* One timed result: a point of the GB/s plot. */
struct tui_point_row {
	char variant[CASE_VARIANT_MAX];
	char dtype[8];
	int64_t n;
	double gbps;
	int64_t run_id;
};

int tui_store_open(const char *path, struct tui_store **out, char *err, size_t len);
void tui_store_close(struct tui_store *st);

/* The newest run's id into *id: returns 1, or 0 when there is none, -1 on error. */
int tui_store_latest_run(struct tui_store *st, int64_t *id);
/* The run before (dir < 0) or after (dir > 0) run id: 1 found, 0 none, -1 error. */
int tui_store_adjacent_run(struct tui_store *st, int64_t id, int dir, int64_t *out);
int tui_store_run(struct tui_store *st, int64_t id, struct tui_run_row *out);

/* The results of a run in the order they were recorded (malloc'd array). */
int tui_store_results(struct tui_store *st, int64_t run_id, struct tui_result_row **rows,
		      size_t *count, char *err, size_t len);

/* The newest result of a case in any run: 1 found, 0 none, -1 error. */
int tui_store_last_result(struct tui_store *st, const char *case_name, struct tui_result_row *out,
			  int64_t *run_id);

/* Every timed result (gbps not NULL), by variant, dtype, n, then age. */
int tui_store_timed(struct tui_store *st, struct tui_point_row **rows, size_t *count, char *err,
		    size_t len);

#endif
