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
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proto.h"
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

/* Runs in the child between fork and exec: only async-signal-safe calls. */
static void child_exec(const struct worker_config *cfg, int in_fd, int out_fd, pid_t parent)
{
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	dup2(in_fd, 0);
	dup2(out_fd, 1);
	if (!cfg->verbose) {
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, 2);
	}
	signal(SIGINT, SIG_IGN); /* conform decides what Ctrl-C does */
	signal(SIGPIPE, SIG_DFL);
	char dev[16];
	int d = cfg->device, i = 0;
	char rev[16];
	do {
		rev[i++] = (char)('0' + d % 10);
		d /= 10;
	} while (d && i < 15);
	for (int j = 0; j < i; j++)
		dev[j] = rev[i - 1 - j];
	dev[i] = '\0';
	char *argv[] = {(char *)cfg->path, "--device", dev, NULL};
	execv(cfg->path, argv);
	_exit(127);
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
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, len, "fork: %s", strerror(errno));
		close(to[0]); close(to[1]); close(from[0]); close(from[1]);
		return -1;
	}
	if (pid == 0)
		child_exec(cfg, to[0], from[1], parent);
	/* Also from the parent, so the group exists before we might kill it. */
	setpgid(pid, pid);
	close(to[0]);
	close(from[1]);
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

static void describe_status(int status, char *how, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(how, len, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status))
		snprintf(how, len, "exited with status %d", WEXITSTATUS(status));
	else
		snprintf(how, len, "ended");
}

void worker_kill(struct worker *w)
{
	if (w->pid > 0) {
		int status;
		kill(-w->pid, SIGKILL);
		kill(w->pid, SIGKILL);
		while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
			;
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
			describe_status(status, how, len);
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
