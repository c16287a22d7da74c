/*
 * session_lanes.h - what session.c and session_lanes.c share: the lanes
 * of a run with --jobs N (session_lanes.c), and the session's own steps
 * that the lanes take too (session.c).  Nothing else includes it.
 */
#ifndef CONFORM_SESSION_LANES_H
#define CONFORM_SESSION_LANES_H

#include "session/session.h"

/* Opens lanes 1..jobs-1 beside each device's runner, and with jobs > 1
 * lanes for risky cases alone up to LANES_RISKY_MAX lanes a device, none
 * with a worker yet (runner_open_bare).
 * Returns the number of lanes, or -1 (no memory). */
int session_lanes_open(struct session *s, int jobs);
void session_lanes_close(struct session *s);
/* Tells the idle workers of the lanes it opened (not the devices' own
 * runners, the session's) to exit, without waiting (runner_hangup). */
void session_lanes_hangup(struct session *s);
/* Before a run's first step (s->cases set).  Returns 0, or -1 (no
 * memory). */
int session_lanes_reset(struct session *s);
/* session_step: every conformance run's, one lane or several. */
enum session_step session_lanes_step(struct session *s, double wait_s, char *err, size_t len);

/* session.c's steps: Ctrl-C or the interface's cancel is set; the run
 * ends (interrupted or not: the sinks are told); a result goes to the
 * sinks as case s->next; the sinks' countdown. */
int session_stopped(const struct session *s);
enum session_step session_finish(struct session *s, int interrupted, char *err, size_t len);
enum session_step session_deliver(struct session *s, const struct result *r, char *err, size_t len);
void session_tick(struct session *s, double remaining_s);

#endif
