/*
 * worker.c - starting, talking to and ending worker processes.
 *
 * Invariant: after worker_kill() or worker_stop() both pipe ends are closed
 * and the reader freed, and the process is reaped, or (with a reaper) is
 * the reaper's to reap, so no zombie, descriptor or buffer outlives a
 * worker.
 */
#include "session/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/proto.h"
#include "common/text.h"
#include "session/spawn.h"

/* How long a worker told to end (its stdin closed) has for CUDA's
 * teardown before it is killed. */
#define WORKER_STOP_GRACE_S 0.5

static void close_fds(struct worker *w)
{
	if (w->to_fd >= 0)
		close(w->to_fd);
	if (w->from_fd >= 0)
		close(w->from_fd);
	w->to_fd = w->from_fd = -1;
	line_reader_close(&w->from);
}

int worker_start(struct worker *w, const struct worker_config *cfg,
		 const volatile sig_atomic_t *stop, char *err, size_t len)
{
	if (worker_launch(w, cfg, err, len) < 0)
		return -1;
	return worker_greet(w, cfg, stop, err, len);
}

int worker_launch(struct worker *w, const struct worker_config *cfg, char *err, size_t len)
{
	int to[2], from[2];
	memset(w, 0, sizeof *w);
	w->to_fd = w->from_fd = -1;
	if (pipe2(to, O_CLOEXEC) < 0) {
		snprintf(err, len, "pipe: %s", strerror(errno));
		return -1;
	}
	if (pipe2(from, O_CLOEXEC) < 0) {
		snprintf(err, len, "pipe: %s", strerror(errno));
		close(to[0]);
		close(to[1]);
		return -1;
	}
	char dev[16];
	snprintf(dev, sizeof dev, "%d", cfg->compile_for ? cfg->compile_for : cfg->device);
	/* The wrapper's words, the worker, its mode, its kernel files, and
	 * --exact-buffers last. */
	char *argv[WORKER_WRAP_MAX + 3 + KERNEL_LIST_ARGV_MAX];
	size_t a = 0;
	for (; cfg->wrap && cfg->wrap[a] && a < WORKER_WRAP_MAX; a++)
		argv[a] = (char *)cfg->wrap[a];
	argv[a] = (char *)cfg->path;
	kernel_list_argv(cfg->kernels, argv + a + 1, cfg->compile_for ? "--compile-for" : "--device", dev);
	if (cfg->exact_buffers) {
		while (argv[a])
			a++;
		argv[a] = "--exact-buffers";
		argv[a + 1] = NULL;
	}
	struct spawn_request req = {.path = argv[0], .argv = argv, .stdin_fd = to[0], .stderr_fd = -1,
				    .stdout_fd = from[1], .quiet = !cfg->verbose,
				    .env_default = cfg->one_queue ? "CUDA_DEVICE_MAX_CONNECTIONS=1" : NULL};
	pid_t pid = spawn_start(&req, err, len);
	close(to[0]);
	close(from[1]);
	if (pid < 0) {
		close(to[1]);
		close(from[0]);
		return -1;
	}
	w->pid = pid;
	w->reaper = cfg->reaper;
	w->wrapped = cfg->wrap && cfg->wrap[0];
	w->to_fd = to[1];
	w->from_fd = from[0];
	/* Writes wait in worker_send(), under a deadline, not in write(). */
	fcntl(w->to_fd, F_SETFL, fcntl(w->to_fd, F_GETFL) | O_NONBLOCK);
	if (line_reader_open(&w->from, PROTO_LINE_MAX) < 0) {
		worker_kill(w);
		snprintf(err, len, "out of memory");
		return -1;
	}
	return 0;
}

int worker_greet(struct worker *w, const struct worker_config *cfg,
		 const volatile sig_atomic_t *stop, char *err, size_t len)
{
	double deadline = text_now() + cfg->start_timeout_s;
	return worker_greet_poll(w, cfg, deadline, deadline, stop, err, len) > 0 ? 0 : -1;
}

int worker_greet_poll(struct worker *w, const struct worker_config *cfg, double until, double deadline,
		      const volatile sig_atomic_t *stop, char *err, size_t len)
{
	char *line;
	enum wait_result wr = worker_read_line(w, until < deadline ? until : deadline, stop, &line);
	if (wr == WAIT_TIMEOUT && text_now() < deadline)
		return 0;
	if (wr == WAIT_TOO_LONG) {
		worker_kill(w);
		snprintf(err, len, "%s: unexpected greeting", cfg->path);
		return -1;
	}
	if (wr != WAIT_LINE) {
		char how[256] = "";
		if (wr == WAIT_EOF)
			worker_reap(w, how, sizeof how);
		else
			worker_kill(w);
		if (wr == WAIT_TIMEOUT)
			snprintf(err, len, "%s did not greet within %g s "
				 "(killed; a slow CUDA start needs a longer --timeout)",
				 cfg->path, cfg->start_timeout_s);
		else if (wr == WAIT_INTERRUPTED)
			snprintf(err, len, "interrupted while starting the worker");
		else
			snprintf(err, len, "%s failed to start (%s)", cfg->path, how[0] ? how : "no greeting");
		return -1;
	}
	int h = proto_parse_hello(line, &w->gpu, w->nodev_reason, sizeof w->nodev_reason);
	if (h < 0) {
		worker_kill(w);
		snprintf(err, len, "%s: unexpected greeting", cfg->path);
		return -1;
	}
	w->has_gpu = h;
	return 1;
}

enum send_result worker_send(struct worker *w, const char *line, double deadline,
			     const volatile sig_atomic_t *stop)
{
	size_t n = strlen(line), off = 0;
	while (off < n) {
		ssize_t k = write(w->to_fd, line + off, n - off);
		if (k > 0) {
			off += (size_t)k;
			continue;
		}
		if (k < 0 && errno != EINTR && errno != EAGAIN)
			return SEND_GONE;
		if (stop && *stop)
			return SEND_INTERRUPTED;
		double left = deadline - text_now();
		if (left <= 0)
			return SEND_TIMEOUT;
		struct pollfd p = {.fd = w->to_fd, .events = POLLOUT};
		if (poll(&p, 1, left > 1.0 ? 1000 : (int)(left * 1000.0) + 1) < 0 && errno != EINTR)
			return SEND_GONE;
	}
	return SEND_OK;
}

enum wait_result worker_read_line(struct worker *w, double deadline,
				  const volatile sig_atomic_t *stop, char **line)
{
	size_t n;
	return line_reader_next(&w->from, w->from_fd, deadline, stop, line, &n);
}

void worker_kill(struct worker *w)
{
	if (w->pid > 0 && w->reaper)
		reaper_add(w->reaper, w->pid, 0);
	else if (w->pid > 0)
		spawn_kill(w->pid);
	w->pid = 0;
	close_fds(w);
}

void worker_reap(struct worker *w, char *how, size_t len)
{
	double deadline = text_now() + WORKER_REAP_S;
	worker_reap_poll(w, deadline, deadline, how, len);
}

int worker_reap_poll(struct worker *w, double until, double deadline, char *how, size_t len)
{
	/* The pipe closes a moment before the process can be waited for
	 * (and a CUDA context's teardown can make that moment long). */
	int status;
	if (w->pid > 0 && spawn_wait_until(w->pid, until < deadline ? until : deadline, &status) == 0) {
		spawn_describe_status(status, how, len);
		spawn_kill_leftovers(w->pid);
		w->pid = 0;
		close_fds(w);
		return 1;
	}
	if (w->pid > 0 && text_now() < deadline)
		return 0;
	snprintf(how, len, "stopped answering");
	worker_kill(w);
	return 1;
}

void worker_hangup(struct worker *w)
{
	if (w->pid > 0 && w->to_fd >= 0) {
		close(w->to_fd);
		w->to_fd = -1;
	}
}

/* Ends a worker told its last case: waits up to grace_s for it to exit,
 * then kills it; either way it is reaped here. */
static void finish(struct worker *w, double grace_s)
{
	int status;
	worker_hangup(w);
	if (spawn_wait_until(w->pid, text_now() + grace_s, &status) == 0)
		spawn_kill_leftovers(w->pid);
	else
		spawn_kill(w->pid);
	w->pid = 0;
	close_fds(w);
}

void worker_stop(struct worker *w)
{
	if (w->pid <= 0) {
		close_fds(w);
		return;
	}
	/* A healthy worker exits at end of input; give it a moment.  Under a
	 * tool, the tool writes the end of its log as it exits: it is waited
	 * for here, never cut short by a reaper's grace. */
	if (w->reaper && !w->wrapped) {
		worker_hangup(w);
		reaper_add(w->reaper, w->pid, WORKER_STOP_GRACE_S);
		w->pid = 0;
		close_fds(w);
		return;
	}
	finish(w, w->wrapped ? WORKER_WRAP_EXIT_S : WORKER_STOP_GRACE_S);
}
