/*
 * cmd.h - conform's subcommands, one file each (src/cmd_<name>.c), each
 * exporting one descriptor; main.c holds the table.
 */
#ifndef CONFORM_CMD_H
#define CONFORM_CMD_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* Exit codes, the same for every command. */
#define EXIT_CONFORMANT 0   /* every result as expected */
#define EXIT_UNEXPECTED 1   /* a FAIL, TIMEOUT, CRASH, ERROR or XPASS */
#define EXIT_USAGE 2        /* bad flags, bad input files, unusable database */
#define EXIT_NO_DEVICE 77   /* no CUDA device: GPU cases were skipped */
#define EXIT_INTERRUPTED 130

struct cmd_entry {
	const char *name;
	const char *usage;    /* one line, after "conform " */
	const char *summary;
	int (*exec)(int argc, char **argv);
};

extern const struct cmd_entry cmd_run_entry;
extern const struct cmd_entry cmd_db_entry;
extern const struct cmd_entry cmd_tune_entry;
extern const struct cmd_entry cmd_bench_entry;
extern const struct cmd_entry cmd_best_entry;
extern const struct cmd_entry cmd_history_entry;

/* Prints "conform: <message>" on stderr, one line. */
void cmd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A fresh seed for a run that was given none (printed and stored, so the
 * run can be repeated with --seed). */
uint64_t cmd_random_seed(void);

/* The options "run" and "tui" share: where the cases come from and how
 * they are run. */
#define CMD_SUITE_FILES_MAX 64
struct cmd_run_settings {
	const char *suites_dir;                     /* --suites DIR */
	const char *suite_files[CMD_SUITE_FILES_MAX]; /* --suite FILE ... */
	size_t nsuite_files;
	double timeout_s, hang_timeout_s;           /* --timeout, --hang-timeout */
	uint64_t seed;                              /* --seed */
	int seed_given;
	int device;                                 /* --device */
};

/* No suite files, 10 s and 2 s deadlines, device 0, no seed. */
void cmd_run_settings_init(struct cmd_run_settings *rs);

/* Parses `arg` for the long option `name` (without dashes) when it is one of
 * suites, suite, timeout, hang-timeout, seed, device.  Returns 1 when it
 * was, 0 when `name` is not one of them, -1 after printing the error. */
int cmd_run_option(const char *name, const char *arg, struct cmd_run_settings *rs);
/* The end of the getopt_long loop run and tui share: c == ':' (a missing
 * value), a run setting (cmd_run_option) or an unknown option.  `word` is
 * the option as typed (argv[optind - 1]), `longname` its long name (NULL
 * when getopt returned '?').  Returns 0 for a run setting, else -1 with the
 * error said. */
int cmd_option_common(int c, const char *longname, const char *arg, const char *word,
		      const char *command, struct cmd_run_settings *rs);
/* Says what was wrong with an option getopt_long did not take: c == ':'
 * (a missing value) or anything else (unknown).  Returns -1. */
int cmd_option_error(int c, const char *word, const char *command);
/* -1 with the error said when operands follow the options, else 0. */
int cmd_no_operands(int argc, char **argv, int optind_, const char *command);

/* Loads the --suite files, else the --suites directory, else the default
 * one.  Returns 0, or -1 after printing the error (s is then empty). */
struct suite;
int cmd_load_suites(const struct cmd_run_settings *rs, struct suite *s);

/* From now on SIGINT and SIGTERM set the returned flag (the runner's stop
 * flag) instead of killing conform, and SIGPIPE is ignored. */
const volatile sig_atomic_t *cmd_catch_stop(void);

/* Argument helpers (cmd_args.c).  Each prints its one-line error and
 * returns -1, or returns 0. */
int cmd_parse_seconds(const char *flag, const char *text, double *out);
int cmd_parse_uint(const char *flag, const char *text, unsigned long long max,
		   unsigned long long *out);
/* cmd_parse_uint for 1..max (a count that cannot be zero). */
int cmd_parse_count(const char *flag, const char *text, unsigned long long max,
		    unsigned long long *out);
/* --db PATH when given, else the default (db_default_path). */
int cmd_db_path(const char *given, char *buf, size_t len);
/* The arguments joined by spaces, as runs.command_line records them
 * (malloc'd; NULL when out of memory). */
char *cmd_join_args(int argc, char **argv);

#endif
