/*
 * runner.h - runs a list of cases through workers under the watchdog.
 *
 * Safe cases share one worker (CUDA is initialised once).  Cases that may
 * hang, crash or do something undefined (expect hang, crash, undefined) each
 * run alone in a fresh worker under the shorter hang deadline, so a hung GPU
 * context never holds up the shared worker.  A worker that hangs, dies or
 * reports a fatal CUDA error is replaced before the next case.
 */
#ifndef CONFORM_RUNNER_H
#define CONFORM_RUNNER_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "catalog_client.h"
#include "case.h"
#include "report.h"
#include "variant.h"
#include "worker.h"

struct runner_config {
	struct worker_config worker;
	double timeout_s;        /* deadline for ordinary cases */
	double hang_timeout_s;   /* deadline for cases expected to hang (or undefined) */
	uint64_t seed;
	const struct timing_request *timing; /* NULL: conformance only */
	const struct catalog *catalog;
	const volatile sig_atomic_t *stop;  /* set by Ctrl-C */
	const char *command_line;
};

struct runner {
	struct runner_config cfg;
	struct worker shared;
	struct run_context rc;
};

/* Starts the shared worker and learns the device.  Returns 0, or -1 with a
 * message when no worker can be started at all. */
int runner_open(struct runner *rn, const struct runner_config *cfg, char *err, size_t len);

/* Runs the cases, reporting to the sinks in order.  Returns 0 (s filled;
 * s->interrupted when stopped early), or -1 when a sink failed (message in
 * err; results reported so far are kept). */
int runner_run(struct runner *rn, const struct case_spec *const *cases, size_t n,
	       struct report_sink *sinks, size_t nsinks, struct run_summary *s,
	       char *err, size_t len);

void runner_close(struct runner *rn);

/* Runs one case now, outside runner_run() (the tuner asks for one
 * configuration at a time): skipped with the reason when it cannot run here,
 * else on the shared worker, started afresh if the last case killed it.
 * Fills cr.  Returns 0, or -1 when interrupted (cr is then not filled). */
int runner_run_case(struct runner *rn, const struct case_spec *c, uint64_t seed,
		    const struct wait_ticker *t, struct case_result *cr);

/* Why a case cannot run here (requirement not met, no GPU, no kernels):
 * returns 1 with the reason, or 0 when it can run. */
int runner_skip_reason(const struct runner *rn, const struct case_spec *c, char *why, size_t len);

#endif
