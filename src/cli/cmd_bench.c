/*
 * cmd_bench.c - "conform bench": the standing benchmark.
 *
 * Tunes the sum of f32 at 2^20, 2^24, 2^28 and 2^30 for every tunable
 * device.* variant (the baselines and the copy are measured, not tuned) and
 * prints one table: size, variant, best configuration, median, GB/s, x base (CUB)
 * and % of copy bandwidth.  The problem is fixed on purpose, so that bench
 * numbers from different builds and machines compare; everything else
 * (strategy, budget, sampling, database) is tune's option.  `make bench`
 * runs it.
 */
#include "cli/cmd.h"
#include "cli/tune_cli.h"

static int bench_exec(int argc, char **argv)
{
	struct tune_cli c;
	int r = tune_cli_parse(argc, argv, 1, &c);
	if (r != 0)
		return r;
	return tune_cli_run(&c, argc, argv);
}

const struct cmd_entry cmd_bench_entry = {
	.name = "bench",
	.usage = "bench [options]",
	.summary = "tune every device.* variant at four sizes; one table",
	.exec = bench_exec,
	.options = bench_cli_options,
	.help_head = "usage: conform bench [options]\n"
		     "  tunes the sum of f32 at 2^20, 2^24, 2^28 and 2^30 for every tunable device.*\n"
		     "  variant and prints the best configuration of each, with GB/s, x CUB and % copy\n",
	.help_tail = tune_cli_help_tail,
	.operands = 0,
	.set = tune_cli_set,
};
