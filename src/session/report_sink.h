/*
 * report_sink.h - the interface a run's results are told through.
 *
 * The session hands every event of a run to a list of sinks: the database's,
 * which every session opens first (session/db_sink.c), the console, JSON
 * lines and JUnit XML (src/report/, above the session) and the interface's.
 * The session knows the others only through this interface.  A sink that returns non-zero
 * stops the run (the database refusing a write, say), with its message in
 * the caller's err.
 */
#ifndef CONFORM_REPORT_SINK_H
#define CONFORM_REPORT_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "common/gpu_info.h"
#include "common/result.h"
#include "common/status.h"
#include "db/db.h"
#include "session/device_set.h"

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
	enum run_kind kind;      /* what the run is */
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

#endif
