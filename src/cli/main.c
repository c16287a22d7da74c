/*
 * main.c - conform's entry point: picks the subcommand.
 *
 * "conform --all" and other flag-first invocations mean "conform run ...",
 * the command CI uses.  A first word that names a command runs that command.
 *
 * Whatever the command, what it wrote to standard output must arrive: a
 * full disk, a closed stdout or a reader gone (EPIPE: SIGPIPE is ignored,
 * so it is an error return, not a death) is one line on stderr and exit
 * 2, never a silent 0.
 */
#include "config.h"
#include "revision.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd.h"

static const struct cmd_entry *const cmd_table[] = {
	&cmd_run_entry,
	&cmd_tune_entry,
	&cmd_bench_entry,
	&cmd_best_entry,
	&cmd_history_entry,
	&cmd_compare_entry,
	&cmd_export_entry,
	&cmd_db_entry,
	&cmd_tui_entry,
};
#define CMD_COUNT (sizeof cmd_table / sizeof cmd_table[0])

void cmd_error(const char *fmt, ...)
{
	va_list ap;
	fputs("conform: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: conform [run] --all | --filter GLOB [options]   (conform run --help)\n");
	for (size_t i = 0; i < CMD_COUNT; i++)
		fprintf(f, "       conform %-40s %s\n", cmd_table[i]->usage, cmd_table[i]->summary);
	fprintf(f, "       conform --version\n");
}

/* What a command's exec returned, as the process's exit code: --help
 * (CMD_HELP_SHOWN) is a success. */
static int exit_code(int rc)
{
	return rc == CMD_HELP_SHOWN ? EXIT_CONFORMANT : rc;
}

/* Descriptors 0-2 that are closed are opened on /dev/null for reading:
 * no file conform opens later takes one of them (a --junit report on fd 1
 * would begin with the console's lines), and a write to a closed stdout
 * still fails. */
static void std_fds_hold(void)
{
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF)
			(void)open("/dev/null", O_RDONLY);
}

/* rc, or EXIT_USAGE when standard output did not take what was written. */
static int stdout_checked(int rc)
{
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		cmd_error("writing standard output: %s", errno ? strerror(errno) : "write error");
		return EXIT_USAGE;
	}
	return rc;
}

static int run_command(int argc, char **argv)
{
	if (argc < 2) {
		/* Alone on a terminal: the interface.  In a script: usage. */
		if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))
			return exit_code(cmd_tui_entry.exec(argc, argv));
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("conform %s (%s)\n", PACKAGE_VERSION, CONFORM_GIT_REVISION);
		return 0;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	if (argv[1][0] == '-')
		return exit_code(cmd_run_entry.exec(argc, argv));
	for (size_t i = 0; i < CMD_COUNT; i++)
		if (strcmp(argv[1], cmd_table[i]->name) == 0)
			return exit_code(cmd_table[i]->exec(argc - 1, argv + 1));
	cmd_error("unknown command '%s' (see conform --help)", argv[1]);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	std_fds_hold();
	signal(SIGPIPE, SIG_IGN);
	cmd_exit_on_stop();
	return stdout_checked(run_command(argc, argv));
}
