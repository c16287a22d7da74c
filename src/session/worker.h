/*
 * worker.h - a worker process as seen from conform.
 *
 * A worker is conform-worker started by spawn_start() (spawn.h: its own
 * process group, dying with conform).  conform talks to it over two pipes
 * (proto.h).
 */
#ifndef CONFORM_WORKER_H
#define CONFORM_WORKER_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#include "common/gpu_info.h"
#include "session/kernel_list.h"
#include "session/line_reader.h"
#include "session/reaper.h"

/* The most words of a program the worker runs under (worker_config.wrap). */
#define WORKER_WRAP_MAX 16

struct worker_config {
	const char *path;       /* conform-worker */
	int device;             /* CUDA device ordinal */
	int verbose;            /* pass the worker's stderr through */
	double start_timeout_s; /* for the HELLO (CUDA initialisation) */
	const struct kernel_list *kernels; /* --kernel files; NULL: none */
	/* Where an ended worker goes to be waited for; NULL: worker_kill and
	 * worker_stop wait for it themselves. */
	struct reaper *reaper;
	/* The worker's CUDA context gets one hardware work queue
	 * (CUDA_DEVICE_MAX_CONNECTIONS=1, unless the user set it): for runs
	 * that time nothing.  The driver makes each context's queues one at a
	 * time for the whole host, eight by default, so workers started
	 * together start and end faster with one (docs/PERFORMANCE.md).
	 * A conformance case launches on one stream, so nothing waits on the
	 * queues it lacks; a timed launch keeps CUDA's default, so that no
	 * measurement changes with it. */
	int one_queue;
	/* >0: a compile-only worker for sm_N (conform-worker --compile-for N,
	 * compile_pool.h) instead of one on the device. */
	int compile_for;
	/* A program and its arguments the worker runs under (compute-sanitizer
	 * --tool memcheck --log-file F ...), NULL last; NULL: none. */
	const char *const *wrap;
	/* The worker's device buffers without guard zones (conform-worker
	 * --exact-buffers): for memcheck, which sees only accesses outside an
	 * allocation. */
	int exact_buffers;
};

struct worker {
	pid_t pid;              /* 0 when not running */
	int to_fd, from_fd;
	struct line_reader from; /* what it said on from_fd, one line at a time */
	int has_gpu;            /* from HELLO / NODEV */
	struct gpu_info gpu;
	char nodev_reason[512];
	int cases_run;
	struct reaper *reaper;  /* the config's, from worker_launch */
	int wrapped;            /* it runs under a program (worker_config.wrap) */
};

/* How long a worker under a program (compute-sanitizer) has to exit once
 * told to, that program's teardown and the end of its log included,
 * before it is killed. */
#define WORKER_WRAP_EXIT_S 20.0

/* Starts a worker and waits for its greeting.  Returns 0, or -1 with a
 * message (the worker is then not running). */
int worker_start(struct worker *w, const struct worker_config *cfg,
		 const volatile sig_atomic_t *stop, char *err, size_t len);
/* worker_start in two halves, so that several workers initialise CUDA at
 * the same time (a run's lanes): the process started, then its greeting
 * waited for (the start deadline counted from then).  Each returns 0, or
 * -1 with a message (the worker is then not running). */
int worker_launch(struct worker *w, const struct worker_config *cfg, char *err, size_t len);
int worker_greet(struct worker *w, const struct worker_config *cfg,
		 const volatile sig_atomic_t *stop, char *err, size_t len);
/* worker_greet without the wait: looks for the greeting until the
 * monotonic time `until`, the start deadline being `deadline`.  Returns 1
 * greeted, 0 not yet (before the deadline), or -1 with a message (the
 * worker is then killed, reaped or its reaper's). */
int worker_greet_poll(struct worker *w, const struct worker_config *cfg, double until, double deadline,
		      const volatile sig_atomic_t *stop, char *err, size_t len);

enum send_result {
	SEND_OK,
	SEND_GONE,          /* the worker closed its end (it died) */
	SEND_TIMEOUT,       /* it did not take the line by the deadline */
	SEND_INTERRUPTED,   /* *stop became non-zero */
};

/* Writes one protocol line, waiting until the monotonic time `deadline`
 * for the worker to make room for it (a worker that stops reading fills
 * the pipe), or until *stop (may be NULL) becomes non-zero. */
enum send_result worker_send(struct worker *w, const char *line, double deadline,
			     const volatile sig_atomic_t *stop);

/* Reads one protocol line (at most PROTO_LINE_MAX bytes), waiting until
 * the monotonic time `deadline`, or until *stop becomes non-zero.  On
 * WAIT_LINE *line points to it, without its newline, until the next read. */
enum wait_result worker_read_line(struct worker *w, double deadline,
				  const volatile sig_atomic_t *stop, char **line);

/* Kills the worker's process group now and reaps it (or has its reaper
 * reap it). */
void worker_kill(struct worker *w);

/* How long a worker whose pipe closed has to end before it is killed as
 * one that "stopped answering". */
#define WORKER_REAP_S 1.0

/* For a worker whose pipe closed: waits briefly for it to end, reaps it and
 * says how it ended ("killed by signal 11 (Segmentation fault)"). */
void worker_reap(struct worker *w, char *how, size_t len);
/* worker_reap without the wait: looks until the monotonic time `until`,
 * the reap's deadline being `deadline`.  Returns 1 when it is over (how
 * filled, as worker_reap's), 0 when the worker has not ended yet. */
int worker_reap_poll(struct worker *w, double until, double deadline, char *how, size_t len);

/* Ends a healthy worker: closes its stdin, waits a moment, then kills
 * (with a reaper, the reaper waits; not for a worker under a program,
 * which is waited for here up to WORKER_WRAP_EXIT_S, so that the
 * program's log is whole). */
void worker_stop(struct worker *w);
/* worker_stop's first half: its stdin closed, so that it starts to exit
 * (CUDA's teardown) while others are told too; worker_stop then waits
 * (or has its reaper wait). */
void worker_hangup(struct worker *w);

#endif
