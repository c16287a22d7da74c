/*
 * reaper.c - ending workers waited for later (see reaper.h).
 */
#include "session/reaper.h"

#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/text.h"
#include "session/spawn.h"

/* How often reaper_drain looks again: a worker's end takes tenths of a
 * second, so a few milliseconds late is nothing. */
#define REAPER_NAP_US 5000

/* 1 when entry i has ended (reaped now) or is no child of ours. */
static int ended(struct reaper *r, int i)
{
	int status;
	pid_t got;
	while ((got = waitpid(r->e[i].pid, &status, WNOHANG)) < 0 && errno == EINTR)
		;
	if (got == 0) {
		if (text_now() >= r->e[i].kill_at) {
			/* Past its grace: killed, and like any killed worker
			 * it may hold its GPU until it is gone. */
			spawn_kill_group(r->e[i].pid);
			r->e[i].killed = 1;
		}
		return 0;
	}
	/* Anything it left in its group goes with it. */
	spawn_kill_leftovers(r->e[i].pid);
	return 1;
}

int reaper_poll(struct reaper *r)
{
	int k = 0;
	for (int i = 0; i < r->n; i++)
		if (!ended(r, i))
			r->e[k++] = r->e[i];
	r->n = k;
	return k;
}

int reaper_killed(const struct reaper *r)
{
	int k = 0;
	for (int i = 0; i < r->n; i++)
		k += r->e[i].killed;
	return k;
}

void reaper_drain(struct reaper *r)
{
	while (reaper_poll(r) > 0)
		usleep(REAPER_NAP_US);
}

void reaper_add(struct reaper *r, pid_t pid, double grace_s)
{
	if (pid <= 0)
		return;
	if (grace_s <= 0)
		spawn_kill_group(pid);
	while (reaper_poll(r) == REAPER_MAX) {
		/* Full: the oldest is killed now and waited for. */
		r->e[0].kill_at = 0;
		usleep(REAPER_NAP_US);
	}
	r->e[r->n].pid = pid;
	r->e[r->n].kill_at = text_now() + (grace_s > 0 ? grace_s : 0);
	r->e[r->n].killed = grace_s <= 0;
	r->n++;
}
