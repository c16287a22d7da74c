/*
 * report.h - where results go: the sinks (console, JSON lines, JUnit XML;
 * the database's is the session's own), each filling the report_sink interface
 * (session/report_sink.h) around a state its caller owns.
 */
#ifndef CONFORM_REPORT_H
#define CONFORM_REPORT_H

#include "common/whole_file.h"
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "session/device_set.h"
#include "session/report_sink.h"

/* The device a run's outputs name: the GPU's name, or "host" when the run
 * had none (db_device_label's word for it). */
const char *report_device(const struct run_context *rc);
/* The devices a run spreads over (rc->devices), or 0 for a run of one
 * device or none: what every sink asks before it names them each. */
int report_spread(const struct run_context *rc);


/* The summary line, "N passed, N failed, N skipped" (no newline); with
 * known failures "N failed (K known)", and with fixed ones "; F fixed,
 * remove it from the baseline" at the end. */
void report_summary_line(const struct run_summary *s, char *buf, size_t len);

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
	FILE *out;               /* where the lines go; NULL: stdout */
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

#endif
