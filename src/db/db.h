/*
 * db.h - the SQLite store: devices, runs and results; the one interface to
 * it for every part of conform (run, tune, best, history, tui, db).
 *
 * The schema lives in db/schema.sql, built into the binary, as numbered
 * migrations; db_open() brings any older database up to date.  The database
 * is in WAL mode so scripts and sqlite3 can read while a run writes, and every
 * result is committed as it arrives.  A file that is not an SQLite database,
 * not ours, damaged or not writable is refused before anything is written
 * to it (db_open.c says what is checked, and what that costs).
 *
 * Every connection is made by db_open() with one policy (db_open.c); a
 * struct db serves writes and reads alike, one call at a time.  Each
 * section below names the file that implements it; db_internal.h says how
 * the files divide the work.
 */
#ifndef CONFORM_DB_H
#define CONFORM_DB_H

#include <stddef.h>
#include <stdint.h>

#include "common/dtype.h"
#include "common/gpu_info.h"
#include "common/result.h"

struct db;

/*
 * Opening (db_open.c, db_file.c, db_migrate.c).
 */

/* The schema version this build writes (the highest migration). */
int db_schema_latest(void);

/* Where the database lives when no --db is given: $CONFORM_DB, else
 * $XDG_DATA_HOME/conform/conform.db, else ~/.local/share/conform/conform.db. */
int db_default_path(char *buf, size_t len);

/* How long any call waits for a lock held by another process before it
 * fails with "locked" (DB_LOCKED): long enough to ride out another conform
 * committing a result or migrating, short enough that a stuck holder is
 * told to the user within seconds.  Every opener gets it.  The database
 * sink does not give up there: it says so and tries again (db_sink.c). */
#define DB_BUSY_TIMEOUT_MS 5000

/* Failures.  A call that fails returns a negative value with a one-line
 * message in err: DB_LOCKED when another process held the lock for all of
 * DB_BUSY_TIMEOUT_MS (nothing was done, and the same call may be made
 * again), -1 for anything else.  Where a comment below says -1, it means
 * either. */
#define DB_LOCKED (-2)

/* Opens (creating it and its directory if needed) and migrates, with the
 * connection policy of db_open.c, for a command that records results: the
 * whole file is checked first (PRAGMA quick_check, O(size)).  Returns 0, or
 * -1 with a one-line message (a lock included: opening is not retried). */
int db_open(const char *path, struct db **out, char *err, size_t len);

/* The same for a command that only looks results up (best, history): the
 * whole file is checked only when opening must write to it (a migration,
 * the switch to WAL), so that a lookup stays as fast as its query. */
int db_open_lookup(const char *path, struct db **out, char *err, size_t len);

/* Opens applying migrations only up to `version` (tests of migration). */
int db_open_at_version(const char *path, int version, struct db **out, char *err, size_t len);

/* PRAGMA quick_check of an open database (conform db info): 0, or -1 with
 * the refusal a damaged database gets at open. */
int db_check_whole(struct db *db, char *err, size_t len);

void db_close(struct db *db);
int db_schema_version(struct db *db);

/* Checks, reading only, that path is a conform database that db_merge can
 * take: ours, of this build's schema version (an older one is refused, not
 * migrated: merging leaves its inputs untouched), whole.  Returns 0, or -1
 * with a one-line message. */
int db_check_source(const char *path, char *err, size_t len);

/* What a database holds, for conform db info. */
struct db_counts {
	long long runs, results, devices;
};
int db_count(struct db *db, struct db_counts *n, char *err, size_t len);

/* What db_merge added. */
struct db_merge_counts {
	long long runs, results, devices, bandwidths; /* rows added */
	long long runs_present;                        /* runs out already held */
};

/* Copies into out the runs of the database at in_path that out does not
 * hold yet (a run is known by runs.uuid), with their results, the devices
 * they name (found by uuid, else name, as a run finds its device) and the
 * copy-bandwidth rows out lacks, in one transaction: a second merge of the
 * same file adds nothing, and a failed one adds nothing.  in_path must pass
 * db_check_source and must not be out's own file.  Returns 0 with *c, or a
 * negative value (DB_LOCKED included) with a message. */
int db_merge(struct db *out, const char *in_path, struct db_merge_counts *c, char *err, size_t len);

/* The path the database was opened with, for messages. */
const char *db_filename(const struct db *db);

/*
 * Recording (db_write.c).
 */

/* Finds the device by uuid (else name) or inserts it; returns its id. */
int db_device_upsert(struct db *db, const struct gpu_info *g, int64_t *id, char *err, size_t len);

/* What a run is (runs.kind, migration 7). */
enum run_kind { RUN_CONFORMANCE, RUN_TUNE, RUN_BENCH, RUN_SWEEP };
#define RUN_KIND_COUNT 4

/* "conformance", "tune", "bench", "sweep". */
const char *run_kind_name(enum run_kind k);

/* The runs of each kind, indexed by enum run_kind (db_prune.c).  0, or
 * what db_fail() returns. */
int db_count_kinds(struct db *db, long long runs[RUN_KIND_COUNT], char *err, size_t len);

/* What db_prune removed. */
struct db_prune_counts {
	long long runs[RUN_KIND_COUNT]; /* runs deleted, by kind */
	long long results;              /* their results, deleted with them */
};

/* Keeps the newest `keep` runs (by id) of each kind and deletes the older
 * ones with their results, in one transaction; a run still 'running' is
 * never deleted.  0, or what db_fail() returns (nothing deleted). */
int db_prune(struct db *db, long long keep, struct db_prune_counts *c, char *err, size_t len);
/* The kind named `word`; -1 when none is. */
int run_kind_parse(const char *word, enum run_kind *out);

struct run_info {
	enum run_kind kind;
	const char *tag;           /* --tag NAME; NULL or "": none */
	const char *started_at;    /* ISO-8601 UTC; NULL or "": now */
	const char *host;
	const char *version;       /* conform version */
	const char *git_revision;  /* build's git revision, "" when unknown */
	const char *command_line;
	uint64_t seed;
	int64_t device_id;         /* 0: no device */
};

int db_run_begin(struct db *db, const struct run_info *ri, int64_t *run_id, char *err, size_t len);

/* A run's owner (db_owner.c): this process's pid and the identity that
 * tells it from a later process given the same pid ("" where /proc does
 * not say).  Returns 0. */
int db_owner_self(long *pid, char *start, size_t len);

/* Marks 'abandoned' every run of this host still 'running' whose process
 * is known to be gone (db_owner.c says when that is known); *reaped says
 * how many.  db_open does it; 0, or -1 with a message. */
int db_owner_reap(struct db *db, const char *host, int *reaped, char *err, size_t len);

/* state: "complete" or "interrupted"; tallies as in the summary line. */
int db_run_end(struct db *db, int64_t run_id, const char *state, int passed, int failed,
	       int skipped, char *err, size_t len);

/* Ends a run that a write error stopped: "aborted", with the reason (one
 * line); its tallies stay NULL (its results say what it did).  Tried after
 * the error, so it may well fail too. */
int db_run_abort(struct db *db, int64_t run_id, const char *reason, char *err, size_t len);

/* Inserts one result and commits it. */
int db_result_insert(struct db *db, int64_t run_id, const struct result *r, char *err, size_t len);
/* Stores what the diagnosis after the run found for the result of case
 * `case_name` in run_id (results.shrunk, repro, pattern; a NULL text stays
 * NULL) and commits it.  Returns 0, DB_LOCKED or -1. */
int db_result_diagnose(struct db *db, int64_t run_id, const struct result_diagnosis *d, char *err,
		       size_t len);

/*
 * Reading runs and results back (db_read.c): what "conform tui" browses.  Reads take the same connection as the writes, so
 * they see every result committed so far, by this process or another.
 */

/* The most of a run's command line a db_run_row holds: longer ones (many
 * --kernel files) are cut here, not at a column's width. */
#define DB_COMMAND_LINE_MAX 4096

/* A run, as the results pane heads it. */
struct db_run_row {
	int64_t id;
	char started_at[32];        /* ISO-8601 UTC */
	char state[16];             /* running, complete, interrupted, aborted */
	char reason[256];           /* why an aborted run stopped; "" otherwise */
	int passed, failed, skipped; /* -1 while running */
	char command_line[DB_COMMAND_LINE_MAX]; /* the arguments joined by spaces */
	char device[128];           /* devices.name; "" for host-only runs */
	int results;                /* results stored so far */
	enum run_kind kind;
	char tag[64];               /* "" without one */
	int64_t device_id;          /* 0: host-only */
	char git_revision[64];      /* "" when unknown */
	char seed[24];              /* the run seed, decimal; "" when none was stored */
	char source[65];            /* a user kernel's source hash; "" for a built-in variant */
};

/* A timed result's robust figures (timing.h, struct timing_stats). */
struct db_robust {
	double ci_low_ms, ci_high_ms; /* 95% interval of the median */
	double spread;              /* its relative half-width */
	int noise_met;              /* 0: the noise target was not reached */
	int throttled;              /* samples dropped to a falling clock */
	enum timing_timer timer;    /* what timed the samples (before migration 6: events) */
};

/* One stored result.  A status word this build does not know reads as
 * STATUS_ERROR, so that one odd row does not hide the others. */
struct db_result_row {
	int64_t id, run_id;
	char case_name[CASE_NAME_MAX];
	char variant[CASE_VARIANT_MAX];
	char dtype[8];
	int64_t n, cols;
	char params[CASE_PARAMS_MAX];
	char expect[16];
	enum status status;
	char observed[24];          /* outcome word, "completed-correct" */
	char message[1024];
	char seed[24];              /* decimal; "" when none was stored */
	char created_at[32];        /* ISO-8601 UTC */
	double err_norm;            /* relative L2 error; NAN when not computed */
	double duration_ms;         /* wall time of the case */
	double median_ms, gbps, noise; /* NAN when not timed */
	int samples;                /* 0 when not timed */
	struct db_robust robust;    /* NAN, noise_met -1, when not timed or
				     * stored before migration 5 */
	/* A failure that explains itself (migration 13), each "" when NULL:
	 * what compute-sanitizer said (run --sanitize), the smallest failing
	 * size, the command that runs it, and the pattern of the failing
	 * sizes (run --shrink). */
	char sanitizer[512];
	char shrunk[256];
	char repro[2048];
	char pattern[512];
	/* The GPU it ran on (results.device_id: a run over several GPUs
	 * stores each result's own) and that device's name; 0 and "" for a
	 * host-only result. */
	int64_t device_id;
	char device[128];
	char source[65];            /* a user kernel's source hash; "" for a built-in variant */
	struct energy_stats energy; /* what it spent (migration 14); all 0 when not measured */
};

/* One timed result: a point of the GB/s plot. */
struct db_point_row {
	char variant[CASE_VARIANT_MAX];
	char dtype[8];
	char op[8];                 /* "" when the params name none (a copy) */
	int64_t n, cols;            /* cols 0: a flat problem */
	double gbps;                /* > 0 */
	int64_t run_id;
	int64_t device_id;          /* 0: the host */
};

/* The newest run: 1 and *id, 0 when there is none, -1 on error. */
int db_run_latest(struct db *db, int64_t *id, char *err, size_t len);

/* The run just before (dir < 0) or after (dir > 0) run `id`: 1 and *out,
 * 0 when there is none, -1 on error. */
int db_run_adjacent(struct db *db, int64_t id, int dir, int64_t *out, char *err, size_t len);

/* Run `id`: 1 and *out, 0 when there is no such run, -1 on error. */
int db_run_read(struct db *db, int64_t id, struct db_run_row *out, char *err, size_t len);

/* Every run, newest first (whatever its state), in *rows (malloc'd, the
 * caller frees it; NULL when there are none) and *count: what the
 * interface's runs pane lists.  Returns 0, or -1 with *rows NULL and
 * *count 0. */
int db_run_list(struct db *db, struct db_run_row **rows, size_t *count, char *err, size_t len);

/*
 * Finding runs to compare (db_runs.c).  Only finished runs count (complete
 * or interrupted: a running or aborted run says little).  kind -1 is any
 * kind, device_id -1 any device (0 is the host).  Each returns 1 with the
 * id, 0 when there is none, negative on error.
 */

/* The newest run older than run `before` (0: any), after skipping `skip`
 * newer ones. */
int db_runs_newest(struct db *db, int kind, int64_t device_id, int64_t before, int skip, int64_t *id,
		   char *err, size_t len);
/* The newest run built from git revision `ref`: its hash and the one
 * recorded (of "abc1234", "abc1234-dirty" or "v1.2-3-gabc1234") agree over
 * the shorter of the two, at least 4 digits, so a full SHA finds a build
 * recorded by its short hash. */
int db_runs_by_revision(struct db *db, const char *ref, int kind, int64_t *id, char *err, size_t len);
/* Every run tagged `tag` (of kind, -1: any), oldest first, at most max in
 * ids; *n is how many there are.  Returns 0, or -1 on error. */
int db_runs_tagged(struct db *db, const char *tag, int kind, int64_t *ids, size_t max, size_t *n,
		   char *err, size_t len);

/* The results of a run in the order they were recorded, in *rows
 * (malloc'd, the caller frees it; NULL when there are none) and *count.
 * Returns 0, or -1 with *rows NULL and *count 0. */
int db_run_results(struct db *db, int64_t run_id, struct db_result_row **rows, size_t *count,
		   char *err, size_t len);

/* The results of runs run_ids[0..nruns) a row at a time, ordered by case
 * name, then params, each compared as the C string a db_result_row holds
 * (cut at its buffer's size and at any NUL byte, byte by byte as strcmp),
 * then by id: the order of conform compare's keys, newest last.  Memory
 * stays bounded however many rows there are.  The cursor is the one
 * statement that outlives the call that prepared it: while it is open,
 * use the connection only to read.  open returns 0, or -1 with a message;
 * next returns 1 with *row, 0 past the last row, negative on error. */
struct db_result_cursor;
int db_result_cursor_open(struct db *db, const int64_t *run_ids, size_t nruns,
			  struct db_result_cursor **out, char *err, size_t len);
int db_result_cursor_next(struct db_result_cursor *c, struct db_result_row *row, char *err,
			  size_t len);
void db_result_cursor_close(struct db_result_cursor *c);

/* Every read between these two sees the database as the first saw it
 * (one read transaction; WAL lets writers go on meanwhile): for a command
 * that reads the same rows in several passes and must find the same rows
 * each time.  begin returns 0, or -1 with a message. */
int db_snapshot_begin(struct db *db, char *err, size_t len);
void db_snapshot_end(struct db *db);

/* Result `id`: 1 and *out, 0 when there is no such result, -1 on error. */
int db_result_read(struct db *db, int64_t id, struct db_result_row *out, char *err, size_t len);

/* The newest result of a case in any run: 1 and *out, 0 when the case
 * never ran, -1 on error. */
int db_case_last(struct db *db, const char *case_name, struct db_result_row *out, char *err,
		 size_t len);

/* Every result with a bandwidth (gbps > 0), ordered by variant, dtype, n,
 * cols, then age, in *rows (malloc'd) and *count, as db_run_results(). */
int db_timed_points(struct db *db, struct db_point_row **rows, size_t *count, char *err,
		    size_t len);

/*
 * Tuning: conform tune, best, history (db_tuned.c).
 */

/* One configuration of one problem, as measured on one device by one build. */
struct db_tuned_key {
	int64_t device_id;          /* 0: the host (no GPU) */
	const char *git_revision;   /* the build; "" or NULL: unknown */
	const char *variant;
	enum dtype dtype;
	int64_t n, cols;
	const char *params;         /* exactly as stored, "block=256,items=4,op=sum" */
	const char *source;         /* a user kernel's source hash; NULL: a built-in variant */
};

/* Finds the newest result of that configuration that says something about
 * it: timed and correct, or refused as invalid, wrong, hung, crashed or in
 * error (never a skip for want of a GPU, never an untimed conformance
 * result).  Returns 1 and fills r (status, outcome, message, err_norm,
 * duration and timing, bytes recomputed from gbps; r->c is left alone),
 * 0 when there is none, -1 on error. */
int db_tuned_find(struct db *db, const struct db_tuned_key *k, struct result *r, char *err,
		  size_t len);

/* The newest copy bandwidth of a device measured by a copy variant:
 * returns 1 and *gbps, 0 when none is stored, -1 on error. */
int db_bandwidth_get(struct db *db, int64_t device_id, const char *variant, double *gbps,
		     char *err, size_t len);

/* The newest copy bandwidth of a device when one copy variant alone has
 * measured it there: for a variant this build's catalog does not know (a
 * database from a machine with other kernels), whose family's copy cannot
 * be looked up.  Returns 1 and *gbps, 0 when no copy or copies by several
 * variants are stored (which one the family uses is then unknown), -1 on
 * error. */
int db_bandwidth_only(struct db *db, int64_t device_id, double *gbps, char *err, size_t len);

struct db_bandwidth {
	int64_t device_id;          /* 0: the host */
	const char *variant;        /* "device.copy" */
	double bytes;               /* read + written by one copy */
	double median_ms;
	double gbps;
	const char *version, *git_revision;
};
int db_bandwidth_put(struct db *db, const struct db_bandwidth *b, char *err, size_t len);

/* A row of best_configs, or the best of one run (history). */
struct db_tuned_row {
	int64_t device_id;          /* 0: the host */
	char device[128];           /* devices.name; "" for the host */
	char variant[64];
	char dtype[8];
	char op[8];                 /* "" when the params name none */
	int64_t n, cols;
	char params[CASE_PARAMS_MAX];
	double median_ms, gbps, noise;
	struct db_robust robust;
	int64_t result_id, run_id;
	char measured_at[32];       /* ISO-8601 UTC */
	char git_revision[64];      /* "" when unknown */
	char source[65];            /* a user kernel's source hash; "" for a built-in variant */
	struct energy_stats energy; /* what it spent (migration 14); all 0 when not measured */
};

/* What to look up; NULL members match anything.  pattern and device are
 * SQLite GLOBs ('*' crosses dots, as in suite globs); the host's device
 * name is "host". */
struct db_tuned_query {
	const char *pattern;        /* variant name or glob (required) */
	const char *dtype;
	const char *op;
	const char *device;
	int64_t n;                  /* 0: any (history only) */
};

/* Where a device is named in output and matched by --device: its name, or
 * "host" for results without a GPU (whose name is ""). */
const char *db_device_label(const char *name);
/* The same, short, where a column is narrow: the vendor's word dropped
 * ("H100 80GB HBM3" for "NVIDIA H100 80GB HBM3"; "host" as above). */
const char *db_device_short(const char *name);

typedef int (*db_tuned_fn)(void *ctx, const struct db_tuned_row *row);

/* Calls fn for every best_configs row that matches q (q->n is ignored: the
 * caller picks the size), ordered by device, dtype, op, cols, n, variant.
 * fn returning non-zero stops the walk.  Here and in history, results
 * without an operator (copy-bandwidth measurements, not reductions) are
 * left out. */
int db_best_each(struct db *db, const struct db_tuned_query *q, db_tuned_fn fn, void *ctx,
		 char *err, size_t len);

/* Calls fn for the fastest correct timed result of each run, per dtype, op,
 * n and cols, across the variants matching q, ordered by device, dtype, op,
 * n, cols and then by run. */
int db_history_each(struct db *db, const struct db_tuned_query *q, db_tuned_fn fn, void *ctx,
		    char *err, size_t len);

/* Calls fn for every correct timed result that matches q (q->n is
 * ignored), ordered as db_best_each orders its rows (device, dtype, op,
 * cols, n, variant), then by params and age: the candidates of a best by
 * an objective best_configs does not rank by (energy, edp; tune/best.c
 * ranks them with objective_rank_cmp).  Results without an operator are
 * left out, as in db_best_each. */
int db_timed_each(struct db *db, const struct db_tuned_query *q, db_tuned_fn fn, void *ctx,
		  char *err, size_t len);

/* Calls fn for every configuration (params) measured for the problem of
 * `problem` - its device_id, variant, dtype, op, n and cols - with that
 * configuration's fastest correct timed result, fastest first: what the
 * best configuration was chosen from. */
int db_configs_each(struct db *db, const struct db_tuned_row *problem, db_tuned_fn fn, void *ctx,
		    char *err, size_t len);

/* The distinct variants with timed results of an operator, comma-separated
 * into buf ("" when the database holds none): for messages about what best
 * and history can look up. */
int db_tuned_variants(struct db *db, char *buf, size_t buflen, char *err, size_t len);

#endif
