/*
 * cmd_fanout.c - a timing command over several GPUs (tune and bench
 * --devices): conform runs itself once per device, all at once, with
 * --device D in place of --devices, and gathers what they say.
 *
 * Why processes, not a run's lanes: a tune is a sequence of timed
 * evaluations, each choosing the next (the search), and a best
 * configuration belongs to one device.  N tunes side by side are what is
 * wanted, each the command a user could have typed for one device, so
 * each stores a run of its own, on its device, and `conform best` answers
 * per device.  The database takes their writes one at a time (WAL; a
 * writer waits for the lock), each result committed as it comes.
 *
 * Output: a child's stderr (its notes, errors and the "still waiting"
 * lines) is passed through as it comes, line by line, each line prefixed
 * with "[device D] "; a child's stdout (the tables, or the CSV or JSON
 * rows, each of which names its device) is kept and written when all have
 * ended, device by device, so that one device's report never interleaves
 * with another's; CSV's header is written once.
 *
 * Ctrl-C and SIGTERM reach this conform (the children run in process
 * groups of their own, as workers do); it passes SIGINT on to each child,
 * which stops as a tune does (interrupted, its results kept), and exits
 * 130.  The exit code is the worst of the children's: 130, then 2, then 1;
 * 77 only when every child found no GPU.  One child without a GPU beside
 * others with one is a device named that is not there: exit 2, as run's
 * --devices says.
 */
#include "cli/cmd_fanout.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/text.h"
#include "session/compile_pool.h"
#include "session/paths.h"
#include "session/session.h"
#include "session/spawn.h"
#include "session/worker.h"

struct child {
	int device;
	pid_t pid;
	int out_fd, err_fd;      /* -1 once at its end */
	char *out;               /* its stdout so far */
	size_t out_len, out_cap;
	int lost;                /* out of memory: part of its stdout dropped */
	char line[1024];         /* its stderr's unfinished line */
	size_t line_len;
	int status;              /* its wait status, once reaped */
};

/* "all" as the devices a worker on device 0 sees (device 0 alone when it
 * sees none: the child then says why).  Returns 0, or -1 after the error. */
static int resolve_all(struct device_set *ds, const volatile sig_atomic_t *stop)
{
	char path[4096], err[CMD_ERR_MAX];
	struct worker w;
	if (!ds->all)
		return 0;
	if (paths_worker(path, sizeof path, err, sizeof err) < 0) {
		cmd_error("%s", err);
		return -1;
	}
	struct worker_config cfg = {.path = path, .device = 0,
				    .start_timeout_s = session_start_timeout(SESSION_TIMEOUT_S)};
	if (worker_start(&w, &cfg, stop, err, sizeof err) < 0) {
		cmd_error("%s", err);
		return -1;
	}
	device_set_resolve(ds, w.has_gpu ? w.gpu.count : 1);
	worker_stop(&w);
	return 0;
}

/* The child's arguments: conform's own path, then argv with each
 * "--devices X" (or "--devices=X": one word becomes two, hence the room)
 * replaced by "--device D", NULL last.  malloc'd; NULL when out of memory. */
static char **child_argv(const char *self, int argc, char **argv, char *device)
{
	char **v = calloc(2 * (size_t)argc + 2, sizeof *v);
	int n = 0;
	if (!v)
		return NULL;
	v[n++] = (char *)self;
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--devices") == 0 && i + 1 < argc) {
			i++;
		} else if (strncmp(argv[i], "--devices=", 10) != 0) {
			v[n++] = argv[i];
			continue;
		}
		v[n++] = "--device";
		v[n++] = device;
	}
	return v;
}

/* Starts c's conform with its two pipes, env_default added to its
 * environment where it lacks the name.  Returns 0, or -1 after the error
 * (nothing of it left open). */
static int start_child(struct child *c, const char *self, int argc, char **argv, const char *env_default)
{
	int out[2] = {-1, -1}, err[2] = {-1, -1};
	char device[16], why[CMD_ERR_MAX];
	char **v = NULL;
	snprintf(device, sizeof device, "%d", c->device);
	c->pid = -1;
	c->out_fd = c->err_fd = -1;
	if (pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0) {
		snprintf(why, sizeof why, "pipe: %s", strerror(errno));
	} else if (!(v = child_argv(self, argc, argv, device))) {
		snprintf(why, sizeof why, "out of memory");
	} else {
		struct spawn_request req = {.path = self, .argv = v, .stdin_fd = -1,
					    .stdout_fd = out[1], .stderr_fd = err[1], .env_default = env_default};
		c->pid = spawn_start(&req, why, sizeof why);
	}
	free(v);
	/* The write ends are the child's; the read ends ours, if it runs. */
	int fds[4] = {out[1], err[1], c->pid < 0 ? out[0] : -1, c->pid < 0 ? err[0] : -1};
	for (int i = 0; i < 4; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	if (c->pid < 0) {
		cmd_error("device %d: cannot start conform: %s", c->device, why);
		return -1;
	}
	c->out_fd = out[0];
	c->err_fd = err[0];
	return 0;
}

/* Passes a child's finished stderr lines on, prefixed. */
static void pass_lines(struct child *c, int flush)
{
	size_t start = 0;
	for (size_t i = 0; i < c->line_len; i++)
		if (c->line[i] == '\n') {
			fprintf(stderr, "[device %d] %.*s\n", c->device, (int)(i - start), c->line + start);
			start = i + 1;
		}
	if (flush && start < c->line_len) {
		fprintf(stderr, "[device %d] %.*s\n", c->device, (int)(c->line_len - start), c->line + start);
		start = c->line_len;
	}
	memmove(c->line, c->line + start, c->line_len - start);
	c->line_len -= start;
	fflush(stderr);
}

/* Reads what fd has for c; 0 at its end (closed), 1 otherwise. */
static int drain(struct child *c, int is_out)
{
	char buf[4096];
	int fd = is_out ? c->out_fd : c->err_fd;
	ssize_t k = read(fd, buf, sizeof buf);
	if (k < 0 && (errno == EINTR || errno == EAGAIN))
		return 1;
	if (k <= 0) {
		close(fd);
		if (is_out)
			c->out_fd = -1;
		else {
			c->err_fd = -1;
			pass_lines(c, 1);
		}
		return 0;
	}
	if (is_out) {
		if (c->out_len + (size_t)k > c->out_cap) {
			size_t cap = (c->out_len + (size_t)k) * 2;
			char *p = realloc(c->out, cap);
			if (!p) {
				c->lost = 1; /* said when the reports are written */
				return 1;
			}
			c->out = p;
			c->out_cap = cap;
		}
		memcpy(c->out + c->out_len, buf, (size_t)k);
		c->out_len += (size_t)k;
		return 1;
	}
	for (ssize_t i = 0; i < k; i++) {
		/* A progress line's carriage returns are a terminal's business. */
		if (buf[i] == '\r')
			continue;
		if (c->line_len == sizeof c->line - 1) {
			c->line[c->line_len++] = '\n';
			pass_lines(c, 0);
		}
		c->line[c->line_len++] = buf[i];
	}
	pass_lines(c, 0);
	return 1;
}

/* A child's stdout, for CSV without its header line when another wrote
 * it already. */
static void write_out(const struct child *c, enum emit_format format, int header_done)
{
	const char *p = c->out;
	size_t n = c->out_len;
	if (format == EMIT_CSV && header_done && n) {
		const char *nl = memchr(p, '\n', n);
		n = nl ? n - (size_t)(nl + 1 - p) : 0;
		p = nl ? nl + 1 : p;
	}
	fwrite(p, 1, n, stdout);
}

/* A child's exit code, or -1 when it died by a signal or said something
 * conform never says (127: it could not be started). */
static int exit_of(int status)
{
	if (!WIFEXITED(status))
		return -1;
	int e = WEXITSTATUS(status);
	return e == EXIT_CONFORMANT || e == EXIT_UNEXPECTED || e == EXIT_USAGE || e == EXIT_NO_DEVICE ||
			       e == EXIT_INTERRUPTED ? e : -1;
}

/* The worst of the children's exit codes (see the top). */
static int combine(const struct child *c, int n)
{
	int any[256] = {0}, all77 = 1, abnormal = 0;
	if (n == 0)
		return EXIT_USAGE;
	for (int i = 0; i < n; i++) {
		int e = exit_of(c[i].status);
		if (e < 0) {
			abnormal = 1;
			continue;
		}
		any[e & 255] = 1;
		all77 &= e == EXIT_NO_DEVICE;
	}
	if (any[EXIT_INTERRUPTED])
		return EXIT_INTERRUPTED;
	if (any[EXIT_USAGE] || abnormal || (any[EXIT_NO_DEVICE] && !all77))
		return EXIT_USAGE;
	if (any[EXIT_UNEXPECTED])
		return EXIT_UNEXPECTED;
	return all77 ? EXIT_NO_DEVICE : EXIT_CONFORMANT;
}

int cmd_fanout(int argc, char **argv, const struct device_set *given, enum emit_format format)
{
	char self[4096];
	struct device_set ds = *given;
	struct child c[DEVICE_SET_MAX];
	int n = 0;
	const volatile sig_atomic_t *stop = cmd_catch_stop();

	if (paths_self(self, sizeof self) < 0) {
		cmd_error("cannot find conform's own path (/proc/self/exe): %s", strerror(errno));
		return EXIT_USAGE;
	}
	if (resolve_all(&ds, stop) < 0)
		return *stop ? EXIT_INTERRUPTED : EXIT_USAGE;
	memset(c, 0, sizeof c);
	fflush(stdout);
	fflush(stderr);
	/* The tunes share the processors that compile kernel files ahead
	 * (compile_pool.h): unless the user said how many, each takes its
	 * part.  A malformed CONFORM_COMPILE_JOBS is each child's to say. */
	char jobs_env[64], why[CMD_ERR_MAX];
	int jobs;
	if (compile_pool_jobs(&jobs, why, sizeof why) < 0)
		jobs = 1;
	int share = ds.n > 1 ? jobs / ds.n : jobs;
	snprintf(jobs_env, sizeof jobs_env, "CONFORM_COMPILE_JOBS=%d", share > 1 ? share : 1);
	for (; n < ds.n; n++) {
		c[n].device = ds.list[n];
		if (start_child(&c[n], self, argc, argv, jobs_env) < 0)
			break;
	}
	int failed_start = n < ds.n;
	/* Until every child has closed both its streams. */
	for (;;) {
		struct pollfd p[2 * DEVICE_SET_MAX];
		int who[2 * DEVICE_SET_MAX], np = 0;
		/* Told again at every pass until it ends: a child that has
		 * just been started ignores SIGINT until its conform sets up
		 * (spawn.c), and a signal then would be lost. */
		if (*stop || failed_start)
			for (int i = 0; i < n; i++)
				if (c[i].out_fd >= 0 || c[i].err_fd >= 0)
					kill(c[i].pid, SIGINT);
		for (int i = 0; i < n; i++) {
			if (c[i].out_fd >= 0) {
				p[np] = (struct pollfd){.fd = c[i].out_fd, .events = POLLIN};
				who[np++] = 2 * i;
			}
			if (c[i].err_fd >= 0) {
				p[np] = (struct pollfd){.fd = c[i].err_fd, .events = POLLIN};
				who[np++] = 2 * i + 1;
			}
		}
		if (np == 0)
			break;
		if (poll(p, (nfds_t)np, 200) < 0 && errno != EINTR) {
			/* Nothing more can be read: ended now, so that none
			 * blocks on a full pipe while it is waited for. */
			cmd_error("poll: %s", strerror(errno));
			for (int i = 0; i < n; i++)
				spawn_kill(c[i].pid);
			break;
		}
		for (int j = 0; j < np; j++)
			if (p[j].revents)
				drain(&c[who[j] / 2], who[j] % 2 == 0);
	}
	for (int i = 0; i < n; i++)
		if (spawn_wait(c[i].pid, &c[i].status) < 0)
			c[i].status = 0x7f00; /* not ours: reads as exit 127 */
	int header_done = 0;
	for (int i = 0; i < n; i++) {
		write_out(&c[i], format, header_done);
		header_done |= c[i].out_len > 0;
		if (exit_of(c[i].status) < 0) {
			char how[128];
			spawn_describe_status(c[i].status, how, sizeof how);
			cmd_error("device %d: conform %s", c[i].device, how);
		}
		if (exit_of(c[i].status) == EXIT_NO_DEVICE)
			cmd_error("--devices: device %d has no GPU for the variants", c[i].device);
		if (c[i].lost)
			cmd_error("device %d: out of memory: part of its report is lost", c[i].device);
		free(c[i].out);
	}
	fflush(stdout);
	if (failed_start)
		return EXIT_USAGE;
	return *stop ? EXIT_INTERRUPTED : combine(c, n);
}
