/*
 * cmd.h - conform's subcommands, one file each (src/cli/cmd_<name>.c), each
 * exporting one descriptor; main.c holds the table.
 */
#ifndef CONFORM_CMD_H
#define CONFORM_CMD_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "common/dtype.h"
#include "common/objective.h"
#include "report/emit.h"
#include "session/device_set.h"
#include "session/kernel_list.h"

/* Exit codes, the same for every command. */
#define EXIT_CONFORMANT 0   /* every result as expected */
#define EXIT_UNEXPECTED 1   /* a FAIL, TIMEOUT, CRASH, ERROR or XPASS */
#define EXIT_USAGE 2        /* bad flags, bad input files, unusable database */
#define EXIT_NO_DEVICE 77   /* no CUDA device: GPU cases were skipped */
#define EXIT_INTERRUPTED 130

/*
 * The option grammar.  Each command declares its options in a table; one
 * parser (cmd_parse.c) builds getopt_long's table from it, converts each
 * value by its kind (so a bad --timeout reads the same for every command),
 * hands it to the command's set(), and writes --help from the same table.
 *
 * Options several commands take are declared once, in cmd_parse.c: a
 * command's entry that has no name is the shared option of its id, and
 * what the entry does give (help, metavar, synopsis, unlisted) is the
 * command's own wording of it.  An entry with include splices another
 * table in (tune and bench share most of theirs).  A table ends with an
 * entry of all zeros.
 */
enum cmd_arg {
	CMD_ARG_NONE,     /* a flag */
	CMD_ARG_TEXT,     /* value.text */
	CMD_ARG_SECONDS,  /* value.seconds, in (0, 86400] */
	CMD_ARG_UINT,     /* value.u, 0 to max */
	CMD_ARG_COUNT,    /* value.u, 1 to max */
	CMD_ARG_DTYPE,    /* value.dtype */
	CMD_ARG_OP,       /* value.op */
	CMD_ARG_NAME,     /* value.text: 1 to CMD_NAME_MAX of A-Z a-z 0-9 . _ - + / : */
	CMD_ARG_OBJECTIVE, /* value.objective: time, energy or edp */
};

/* The longest --tag (runs.tag). */
#define CMD_NAME_MAX 63

/* The shared options' ids; a command's own options count from CMD_OPT_OWN. */
enum cmd_option_id {
	CMD_OPT_HELP = 256,
	CMD_OPT_SUITES, CMD_OPT_SUITE, CMD_OPT_TIMEOUT, CMD_OPT_HANG_TIMEOUT, CMD_OPT_SEED,
	CMD_OPT_DEVICE, CMD_OPT_DB, CMD_OPT_BUDGET, CMD_OPT_MIN_SAMPLES, CMD_OPT_MAX_TIME,
	CMD_OPT_DTYPE, CMD_OPT_OP, CMD_OPT_CSV, CMD_OPT_JSON, CMD_OPT_VERBOSE, CMD_OPT_TAG,
	CMD_OPT_KERNEL, CMD_OPT_KERNELS, CMD_OPT_DEVICES, CMD_OPT_OBJECTIVE,
	CMD_OPT_OWN = 512,
};

struct cmd_option {
	const char *name;       /* the long name, without dashes; NULL: the shared option id */
	char letter;            /* the short form ('v'), or 0 */
	enum cmd_arg arg;
	unsigned long long max; /* CMD_ARG_UINT, CMD_ARG_COUNT */
	int id;                 /* what set() is told */
	const char *metavar;    /* the value's name in --help ("SEC") */
	const char *help;       /* its line in --help; NULL: not listed on a line of its own */
	const char *synopsis;   /* the left column in --help when not "--name METAVAR" */
	int unlisted;           /* recognised, but not offered in --help */
	const struct cmd_option *include; /* splice this table in here */
};

/* An option's value, converted by its kind. */
struct cmd_value {
	const char *text;       /* the value as typed (NULL for a flag) */
	unsigned long long u;
	double seconds;
	enum dtype dtype;
	enum op op;
	enum objective objective;
	const char *flag;       /* "--timeout", for messages */
	const char *command;    /* "tune", for messages */
};

struct cmd_entry {
	const char *name;
	const char *usage;    /* one line, after "conform " */
	const char *summary;
	int (*exec)(int argc, char **argv);
	/* The grammar, for cmd_parse. */
	const struct cmd_option *options;
	const char *help_head;        /* --help before the options: usage, operands */
	const char *help_tail;        /* --help after them: exit codes, keys */
	int operands;                 /* how many arguments may follow the options */
	/* Takes one option (opts is the command's own struct).  Returns 0, or
	 * -1 after printing the error. */
	int (*set)(void *opts, int id, const struct cmd_value *v);
};

/* Not an exit code: what a command returns after printing --help; main
 * turns it into success. */
#define CMD_HELP_SHOWN 256

/* Parses the options of e (argv[0] is the command's name) into opts
 * through e->set.  Returns 0 with *operand the index of the first operand
 * (there are at most e->operands), or what exec should return: EXIT_USAGE
 * after a one-line error, CMD_HELP_SHOWN after --help. */
int cmd_parse(const struct cmd_entry *e, int argc, char **argv, void *opts, int *operand);

extern const struct cmd_entry cmd_run_entry;
extern const struct cmd_entry cmd_db_entry;
extern const struct cmd_entry cmd_tune_entry;
extern const struct cmd_entry cmd_bench_entry;
extern const struct cmd_entry cmd_best_entry;
extern const struct cmd_entry cmd_history_entry;
extern const struct cmd_entry cmd_compare_entry;
extern const struct cmd_entry cmd_export_entry;
extern const struct cmd_entry cmd_tui_entry;

/* The size of a command's message buffer: a path as long as the system
 * allows (PATH_MAX, 4096) and the reason after it both fit, so a long
 * path never hides why it was refused. */
#define CMD_ERR_MAX 8192

/* Prints "conform: <message>" on stderr, one line. */
void cmd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));


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
	int device_given;
	struct device_set devices;                  /* --devices LIST|all (none: n 0) */
	struct kernel_list kernels;                 /* --kernel FILE, --kernels DIR */
};

/* No suite files, 10 s and 2 s deadlines, device 0, no seed. */
void cmd_run_settings_init(struct cmd_run_settings *rs);
void cmd_run_settings_free(struct cmd_run_settings *rs);

/* --n LIST: sizes as decimal or 2^K, comma separated, each 1 to
 * CASE_ELEMENTS_MAX, at most max of them.  Returns 0 with *count, or -1
 * after the error (naming flag). */
int cmd_parse_sizes(const char *flag, const char *text, int64_t *sizes, size_t max, size_t *count);

/* --kernel FILE and --kernels DIR into kl, for a command's set().
 * Returns 0, or -1 after the error. */
int cmd_kernel_set(struct kernel_list *kl, int id, const struct cmd_value *v);

/* The run settings' options for a command's set(): suites, suite,
 * timeout, hang-timeout, seed, device, kernel, kernels.  Returns 0, or -1
 * after the error. */
int cmd_run_settings_set(struct cmd_run_settings *rs, int id, const struct cmd_value *v);

/* --device N and --devices LIST|all for a command's set(): they exclude
 * each other; *device becomes the first of a list.  Returns 0, or -1 after
 * the error. */
int cmd_devices_set(int *device, int *device_given, struct device_set *ds, int id,
		    const struct cmd_value *v);

/* --csv and --json for a command's set(): they exclude each other.
 * Returns 0, or -1 after the error. */
int cmd_format_set(enum emit_format *format, int id, const struct cmd_value *v);

/* Loads the --suite files, else the --suites directory, else the default
 * one, and adds the kernel files they name to rs->kernels (after the
 * command line's).  Returns 0, or -1 after printing the error (s is then
 * empty). */
struct suite;
int cmd_load_suites(struct cmd_run_settings *rs, struct suite *s);

/* The first thing conform does: SIGINT and SIGTERM end it with exit code
 * 130 (not the signal's default death, 143) until a command installs
 * cmd_catch_stop. */
void cmd_exit_on_stop(void);

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
