/*
 * spawn.h - starting conform-worker, or conform itself (tune --devices):
 * conform's one fork+exec.
 *
 * Both the case-running workers (worker.c) and the catalog query
 * (catalog_client.c) start the worker program the same way: in a process
 * group of its own, so that one kill(-pgid, SIGKILL) ends it and anything
 * it started, and dying with conform (PR_SET_PDEATHSIG), so a killed
 * conform never leaves a hung kernel behind.  Ctrl-C is conform's to
 * handle: the child ignores SIGINT.
 */
#ifndef CONFORM_SPAWN_H
#define CONFORM_SPAWN_H

#include <stddef.h>
#include <sys/types.h>

struct spawn_request {
	const char *path;     /* the program */
	char *const *argv;    /* argv[0] first, NULL last */
	int stdin_fd;         /* becomes the child's stdin; -1: conform's */
	int stdout_fd;        /* becomes its stdout; -1: conform's */
	int stderr_fd;        /* becomes its stderr; -1: conform's (or, quiet, /dev/null) */
	int quiet;            /* 1: its stderr goes to /dev/null */
	/* "NAME=VALUE": in the child's environment unless conform's has NAME
	 * (the user's setting wins); NULL: conform's environment as it is. */
	const char *env_default;
};

/* Starts the program.  Returns its pid (also its process group), or -1
 * with a message.  The descriptors are the caller's to close afterwards;
 * open descriptors should be O_CLOEXEC so the child keeps only these. */
pid_t spawn_start(const struct spawn_request *req, char *err, size_t len);

/* Waits for pid to end, through EINTR: 0 with its wait status in
 * *status, or -1 (not a child of ours). */
int spawn_wait(pid_t pid, int *status);

/* Waits until the monotonic time `deadline` (text_now) for pid to end:
 * 0 with its wait status in *status, or -1 when it is still running then
 * (or is not a child of ours). */
int spawn_wait_until(pid_t pid, double deadline, int *status);

/* Kills pid's process group, and pid should it have left the group,
 * without waiting (pid not reaped yet). */
void spawn_kill_group(pid_t pid);

/* After pid has been reaped: kills what it left in its process group.
 * Not pid itself, which is gone and whose number may be another
 * process's by now. */
void spawn_kill_leftovers(pid_t pid);

/* spawn_kill_group, then reaps pid. */
void spawn_kill(pid_t pid);

/* Says how a wait status ended ("exited with status 2", "killed by signal
 * 11 (Segmentation fault)"). */
void spawn_describe_status(int status, char *how, size_t len);

#endif
