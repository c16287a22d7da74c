/*
 * report.h - where results go.
 *
 * The runner hands every event to a list of sinks: the console, JSON lines,
 * JUnit XML and the database are each one sink, and so will the TUI be.  A
 * sink that returns non-zero stops the run (the database refusing a write,
 * say), with its message in the context's err.
 */
#ifndef CONFORM_REPORT_H
#define CONFORM_REPORT_H

#include "whole_file.h"
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "device_set.h"
#include "gpu_info.h"
#include "result.h"
#include "status.h"

struct run_context {
	size_t total;            /* cases in this run */
	uint64_t seed;           /* the run's seed */
	int has_gpu;
	struct gpu_info gpu;     /* valid when has_gpu; the first of devices */
	/* A run spread over several GPUs (--devices): each of them, the
	 * first being gpu; ndevices 1 for a run of one. */
	const struct gpu_info *devices;
	int ndevices;
	char nodev_reason[512];  /* why there is no GPU, when !has_gpu */
	const char *command_line;
	int kind;                /* enum run_kind (db.h): what the run is */
	const char *tag;         /* --tag NAME; NULL: none */
	/* Which run this is, told the same in every output (the database's
	 * runs row, the JSON summary, the JUnit report): the session fills
	 * them, not each sink for itself. */
	char started_at[32];     /* ISO-8601 UTC (text_utc_iso), runs.started_at */
	char host[256];          /* gethostname, "unknown" when it fails */
	const char *version;     /* conform's version, runs.conform_version */
	const char *git_revision; /* the build's revision, runs.git_revision */
	int64_t run_id;          /* runs.id: 0 until the database's sink began the run */
};

/* The device a run's outputs name: the GPU's name, or "host" when the run
 * had none (db_device_label's word for it). */
const char *report_device(const struct run_context *rc);
/* The devices a run spreads over (rc->devices), or 0 for a run of one
 * device or none: what every sink asks before it names them each. */
int report_spread(const struct run_context *rc);


struct run_summary {
	int counts[STATUS_COUNT];
	int tally[TALLY_COUNT];
	double wall_s;
	int interrupted;         /* Ctrl-C: the run stopped early */
	/* Of the results whose case the run's baseline lists: failures, which
	 * tally[TALLY_FAILED] counts too and which do not fail the run
	 * (known), and passes, whose entries can go (fixed). */
	int known, fixed;
};

/* What one device of a run over several is doing (report_sink.devices). */
struct device_activity {
	int ordinal;                 /* its CUDA ordinal */
	const struct case_spec *c;   /* its earliest case in flight; NULL: idle */
	double remaining_s;          /* that case's time before its deadline */
	double deadline_s;           /* that case's whole deadline */
	int busy;                    /* its lanes with a case in flight */
};

struct report_sink {
	int (*begin)(void *ctx, const struct run_context *rc, char *err, size_t len);
	void (*start)(void *ctx, const struct case_spec *c, size_t index, size_t total, double timeout_s);
	void (*tick)(void *ctx, double remaining_s);
	/* A run over several devices (run_context.ndevices > 1): each
	 * device's case in flight and its watchdog, once a step, just
	 * before tick.  NULL: not wanted. */
	void (*devices)(void *ctx, const struct device_activity *a, int n);
	int (*result)(void *ctx, const struct result *r, size_t index, size_t total, char *err, size_t len);
	/* After the last result, before end: what the diagnosis found for
	 * the failing result reported at `index` (result.h).  NULL: not
	 * wanted. */
	int (*amend)(void *ctx, const struct result_diagnosis *d, size_t index, char *err, size_t len);
	int (*end)(void *ctx, const struct run_summary *s, char *err, size_t len);
	void *ctx;
};

/* The summary line, "N passed, N failed, N skipped" (no newline); with
 * known failures "N failed (K known)", and with fixed ones "; F fixed,
 * remove it from the baseline" at the end. */
void report_summary_line(const struct run_summary *s, char *buf, size_t len);

/* A result of a case the run's baseline lists (result.baseline_reason)
 * that failed: it is reported as known and does not fail the run. */
int report_known(const struct result *r);
/* One that passed: the baseline's entry for it can go. */
int report_fixed(const struct result *r);

/* Sinks.  Each *_sink() fills a sink around a state the caller owns. */
struct console_state {
	int verbose;             /* a line for every result, not just the notable */
	int progress;            /* a live progress line on stderr (a terminal) */
	int json;                /* stdout carries JSON lines: console stays on stderr */
	/* Where the results go, said under the opening line: without --db
	 * they go to a default file the user never named.  NULL: not said. */
	const char *db_path;
	double started;
	const struct case_spec *current;
	size_t index, total;
	double timeout_s;
	/* A run over several devices: what each does (the progress line
	 * shows them all) and whether results name their device. */
	int ndev;
	struct device_activity dev[DEVICE_SET_MAX];
};
void console_sink(struct report_sink *s, struct console_state *st);

struct json_state {
	/* Set by begin (a session begins its sinks before it ends them):
	 * the summary names the run. */
	const struct run_context *rc;
};
void json_sink(struct report_sink *s, struct json_state *st);

struct junit_state {
	const char *path;
	struct result *results;  /* copies, written out at the end */
	size_t count, cap;
	const struct run_context *rc; /* set by begin, as json_state's */
	struct whole_file out;   /* the temporary file beside path (junit_open) */
};
/* Creates the temporary file the report is written to, beside st->path,
 * so an unwritable path is refused before the first case runs.  Returns
 * 0, or -1 with a message. */
int junit_open(struct junit_state *st, char *err, size_t len);
void junit_sink(struct report_sink *s, struct junit_state *st);
/* Frees the copies; removes the temporary file if it was never renamed. */
void junit_free(struct junit_state *st);

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
	/* While a write waits for another process's lock (report_db.c):
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
