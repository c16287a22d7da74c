/*
 * spawn.c - starting conform-worker (see spawn.h).
 *
 * Everything the child needs (argv, the /dev/null path) is prepared before
 * fork: between fork and exec only async-signal-safe calls are made.
 *
 * The child keeps exactly descriptors 0, 1 and 2 of its own: every other
 * descriptor conform holds is close-on-exec, including the /dev/null it
 * opens here for a quiet child's stderr.
 */
#include "session/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/text.h"

extern char **environ;

/* Makes fd the child's descriptor `target`, open across exec.  dup2 gives
 * the copy no close-on-exec flag; a descriptor that already is `target`
 * (conform started with that standard descriptor closed) keeps its own flag,
 * so that one is cleared by hand. */
static void become(int fd, int target)
{
	if (fd == target)
		fcntl(fd, F_SETFD, 0);
	else
		dup2(fd, target);
}

static void child_exec(const struct spawn_request *req, char *const *envp, pid_t parent)
{
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent) /* conform died before prctl took effect */
		_exit(127);
	if (req->stdin_fd >= 0)
		become(req->stdin_fd, 0);
	if (req->stdout_fd >= 0)
		become(req->stdout_fd, 1);
	if (req->stderr_fd >= 0) {
		become(req->stderr_fd, 2);
	} else if (req->quiet) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null >= 0)
			become(null, 2);
	}
	signal(SIGINT, SIG_IGN); /* conform decides what Ctrl-C does */
	signal(SIGPIPE, SIG_DFL);
	execve(req->path, req->argv, envp);
	_exit(127);
}

/* conform's environment with req->env_default added where it lacks the
 * name: environ itself, or a new array (the strings are shared) that the
 * caller frees; NULL when out of memory.  Built before fork, since malloc
 * is not safe between fork and exec. */
static char **env_for(const struct spawn_request *req)
{
	if (!req->env_default)
		return environ;
	size_t name = strcspn(req->env_default, "=") + 1; /* NAME= */
	size_t n = 0;
	for (; environ && environ[n]; n++)
		if (strncmp(environ[n], req->env_default, name) == 0)
			return environ;
	char **envp = malloc((n + 2) * sizeof *envp);
	if (!envp)
		return NULL;
	memcpy(envp, environ, n * sizeof *envp);
	envp[n] = (char *)req->env_default;
	envp[n + 1] = NULL;
	return envp;
}

pid_t spawn_start(const struct spawn_request *req, char *err, size_t len)
{
	pid_t parent = getpid();
	char **envp = env_for(req);
	if (!envp) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, len, "fork: %s", strerror(errno));
		if (envp != environ)
			free(envp);
		return -1;
	}
	if (pid == 0)
		child_exec(req, envp, parent);
	if (envp != environ)
		free(envp);
	/* Also from the parent, so the group exists before we might kill it. */
	setpgid(pid, pid);
	return pid;
}

int spawn_wait(pid_t pid, int *status)
{
	pid_t r;
	while ((r = waitpid(pid, status, 0)) < 0 && errno == EINTR)
		;
	return r == pid ? 0 : -1;
}

int spawn_wait_until(pid_t pid, double deadline, int *status)
{
	/* A child ends a moment after its pipe closes: short naps keep that
	 * moment short without a SIGCHLD handler. */
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);
		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -1;
		if (text_now() >= deadline)
			return -1;
		usleep(10000);
	}
}

void spawn_kill_group(pid_t pid)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
}

void spawn_kill_leftovers(pid_t pid)
{
	kill(-pid, SIGKILL);
}

void spawn_kill(pid_t pid)
{
	int status;
	spawn_kill_group(pid);
	spawn_wait(pid, &status);
}

void spawn_describe_status(int status, char *how, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(how, len, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status))
		snprintf(how, len, "exited with status %d", WEXITSTATUS(status));
	else
		snprintf(how, len, "ended");
}
