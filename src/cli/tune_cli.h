/*
 * tune_cli.h - what "conform tune" and "conform bench" share: their options
 * and the driver that selects variants, runs the sweeps and reports.
 * bench is tune with a preset problem (sum of f32 at 2^20, 2^24, 2^28 and
 * 2^30 over every tunable device.* variant) and one summary table.
 */
#ifndef CONFORM_TUNE_CLI_H
#define CONFORM_TUNE_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "cli/cmd.h"
#include "tune/tune.h"
#include "tune/tune_print.h"

#define TUNE_SIZES_MAX 32

struct tune_cli {
	int bench;                       /* the bench preset: one summary table */
	const char *pattern;             /* VARIANT or GLOB */
	const char *exclude;             /* GLOB of variants a glob leaves out, NULL: none */
	int64_t sizes[TUNE_SIZES_MAX];
	size_t nsizes;
	struct tune_options o;
	double timeout_s;                /* deadline of one evaluation */
	int device;
	int device_given;
	struct device_set devices;       /* --devices LIST|all: one tune per device (cmd_fanout) */
	const char *db_path;             /* NULL: the default */
	enum emit_format format;
	int verbose;
	const char *tag;                 /* --tag NAME, NULL: none */
	struct kernel_list kernels;      /* --kernel FILE, --kernels DIR */
};

/* The grammars of tune and bench (their entries, cmd_tune.c and
 * cmd_bench.c, point here): the same options, but bench's problem is its
 * preset, so it refuses --n, --dtype, --op and --cols. */
extern const struct cmd_option tune_cli_options[];
extern const struct cmd_option bench_cli_options[];
extern const char tune_cli_help_tail[];
int tune_cli_set(void *opts, int id, const struct cmd_value *v);

/* Parses the arguments of tune (bench == 0) or bench; argv[0] is the
 * command's name.  Returns 0, or what the command returns (cmd_parse). */
int tune_cli_parse(int argc, char **argv, int bench, struct tune_cli *c);

/* Runs the parsed command; argv is recorded as the run's command line.
 * Returns the exit code (cmd.h). */
int tune_cli_run(struct tune_cli *c, int argc, char **argv);

#endif
