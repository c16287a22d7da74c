/*
 * worker.c - starting, talking to and ending worker processes.
 *
 * Invariant: after worker_kill() or worker_stop() the process is reaped and
 * both pipe ends are closed, so no zombie or descriptor outlives a worker.
 */
#include "worker.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proto.h"
#include "spawn.h"
#include "text.h"

static void close_fds(struct worker *w)
{
	if (w->to_fd >= 0)
		close(w->to_fd);
	if (w->from_fd >= 0)
		close(w->from_fd);
	w->to_fd = w->from_fd = -1;
	w->len = 0;
}

int worker_start(struct worker *w, const struct worker_config *cfg,
		 const volatile sig_atomic_t *stop, char *err, size_t len)
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
	snprintf(dev, sizeof dev, "%d", cfg->device);
	char *argv[] = {(char *)cfg->path, "--device", dev, NULL};
	struct spawn_request req = {.path = cfg->path, .argv = argv, .stdin_fd = to[0],
				    .stdout_fd = from[1], .quiet = !cfg->verbose};
	pid_t pid = spawn_start(&req, err, len);
	close(to[0]);
	close(from[1]);
	if (pid < 0) {
		close(to[1]);
		close(from[0]);
		return -1;
	}
	w->pid = pid;
	w->to_fd = to[1];
	w->from_fd = from[0];

	char line[PROTO_LINE_MAX];
	enum wait_result wr = worker_read_line(w, text_now() + cfg->start_timeout_s, line,
					       sizeof line, stop);
	if (wr != WAIT_LINE) {
		char how[256] = "";
		if (wr == WAIT_EOF)
			worker_reap(w, how, sizeof how);
		else
			worker_kill(w);
		if (wr == WAIT_TIMEOUT)
			snprintf(err, len, "%s did not start within %.0f s", cfg->path, cfg->start_timeout_s);
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
	return 0;
}

int worker_send(struct worker *w, const char *line)
{
	size_t n = strlen(line), off = 0;
	while (off < n) {
		ssize_t k = write(w->to_fd, line + off, n - off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		off += (size_t)k;
	}
	return 0;
}

/* Moves one complete line from w->buf to line, if there is one. */
static int take_line(struct worker *w, char *line, size_t len)
{
	char *nl = memchr(w->buf, '\n', w->len);
	if (!nl) {
		if (w->len == sizeof w->buf) /* a line longer than the buffer: cut it */
			nl = w->buf + w->len - 1;
		else
			return 0;
	}
	size_t n = (size_t)(nl - w->buf) + 1;
	size_t copy = n - 1 < len - 1 ? n - 1 : len - 1;
	memcpy(line, w->buf, copy);
	line[copy] = '\0';
	memmove(w->buf, w->buf + n, w->len - n);
	w->len -= n;
	return 1;
}

enum wait_result worker_read_line(struct worker *w, double deadline, char *line, size_t len,
				  const volatile sig_atomic_t *stop)
{
	for (;;) {
		if (take_line(w, line, len))
			return WAIT_LINE;
		if (stop && *stop)
			return WAIT_INTERRUPTED;
		double left = deadline - text_now();
		if (left <= 0)
			return WAIT_TIMEOUT;
		int ms = (int)(left * 1000.0) + 1;
		struct pollfd p = {.fd = w->from_fd, .events = POLLIN};
		int r = poll(&p, 1, ms);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return WAIT_IO_ERROR;
		}
		if (r == 0)
			continue;
		ssize_t k = read(w->from_fd, w->buf + w->len, sizeof w->buf - w->len);
		if (k < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return WAIT_IO_ERROR;
		}
		if (k == 0)
			return WAIT_EOF;
		w->len += (size_t)k;
	}
}

void worker_kill(struct worker *w)
{
	if (w->pid > 0) {
		int status;
		kill(-w->pid, SIGKILL);
		kill(w->pid, SIGKILL);
		spawn_wait(w->pid, &status);
	}
	w->pid = 0;
	close_fds(w);
}

void worker_reap(struct worker *w, char *how, size_t len)
{
	/* The pipe closes a moment before the process can be waited for. */
	for (int i = 0; w->pid > 0 && i < 100; i++) {
		int status;
		if (waitpid(w->pid, &status, WNOHANG) == w->pid) {
			spawn_describe_status(status, how, len);
			kill(-w->pid, SIGKILL); /* anything it left in its group */
			w->pid = 0;
			close_fds(w);
			return;
		}
		usleep(10000);
	}
	snprintf(how, len, "stopped answering");
	worker_kill(w);
}

void worker_stop(struct worker *w)
{
	if (w->pid <= 0) {
		close_fds(w);
		return;
	}
	close(w->to_fd);
	w->to_fd = -1;
	/* A healthy worker exits at end of input; give it a moment. */
	for (int i = 0; i < 50; i++) {
		int status;
		if (waitpid(w->pid, &status, WNOHANG) == w->pid) {
			w->pid = 0;
			close_fds(w);
			return;
		}
		usleep(10000);
	}
	worker_kill(w);
}
