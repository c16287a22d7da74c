/*
 * session_diagnose.h - what explains a run's failures, looked for after its
 * last case and before its end: the pattern of its sizes (always) and the
 * smallest failing problem (session_config.shrink), told to the sinks
 * through report_sink.amend (result.h's result_diagnosis).
 */
#ifndef CONFORM_SESSION_DIAGNOSE_H
#define CONFORM_SESSION_DIAGNOSE_H

#include <stddef.h>

#include "session/session.h"

/* Remembers the run's next result (its case, status and outcome): the
 * diagnosis reads them all, the i-th being the one reported at index i.
 * Returns 0, or -1 when out of memory. */
int session_seen_add(struct session *s, const struct result *r);

/* Diagnoses the results remembered, running the search's probes through
 * the session's runner, and hands what it finds to the sinks.  A stop
 * (Ctrl-C) ends it early; what was found by then is still handed on.
 * Returns 0, or -1 with a message when a sink failed. */
int session_diagnose(struct session *s, char *err, size_t len);

#endif
