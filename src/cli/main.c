/*
 * main.c - conform's entry point: picks the subcommand.
 *
 * "conform --all" and other flag-first invocations mean "conform run ...",
 * the command CI uses.  A first word that names a command runs that command.
 */
#include "config.h"
#include "revision.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

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

int main(int argc, char **argv)
{
	cmd_exit_on_stop();
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
