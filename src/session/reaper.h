/*
 * reaper.h - workers let go of without waiting for them to end.
 *
 * A worker's end is slow: CUDA's teardown of its context, and for a hung
 * kernel the driver's reclaiming of the GPU, take tenths of a second after
 * the process was told to go.  Waited for in the run's one loop, every
 * case that may hang or crash (each in a fresh worker) held every lane up
 * that long.  A runner instead hands the ending worker's process to its
 * reaper: told to end (its stdin closed) or killed, it is waited for
 * later, without blocking (reaper_poll), and at the latest when the
 * runner closes (reaper_drain).  A killed one (a hang) counts as still on
 * its GPU until it is gone (reaper_killed), so that nothing that must not
 * run beside a hang starts there before the hang is gone.
 *
 * No global state: each runner has its own reaper.
 */
#ifndef CONFORM_REAPER_H
#define CONFORM_REAPER_H

#include <sys/types.h>

#define REAPER_MAX 16

struct reaper {
	int n;
	struct {
		pid_t pid;
		double kill_at; /* text_now() after which it is killed */
		int killed;     /* killed (when added, or past its grace) */
	} e[REAPER_MAX];
};

/* Takes pid, already killed or told to end; it is killed (its process
 * group too) once grace_s have passed.  With the reaper full, waits for
 * the oldest first. */
void reaper_add(struct reaper *r, pid_t pid, double grace_s);

/* Reaps those that have ended and kills those past their grace, without
 * waiting.  Returns how many are still going. */
int reaper_poll(struct reaper *r);

/* Returns how many killed ones (when added, or past their grace) are
 * still going, as of the last poll. */
int reaper_killed(const struct reaper *r);

/* Waits for every one, killing each at its time. */
void reaper_drain(struct reaper *r);

#endif
