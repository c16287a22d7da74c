/*
 * cmd_tune.c - "conform tune": search kernel variants' tuning spaces.
 *
 *   conform tune VARIANT|GLOB --n LIST --dtype T [--op O] [--cols C]
 *                [--strategy exhaustive|random|anneal] [--budget N | --time SEC] ...
 *
 * For each size of LIST: the family's copy bandwidth (once per device) and
 * untuned baseline, then a search of each variant's space; every evaluation
 * is a case run under the watchdog and stored, and what the database
 * already has for this device and build is reused unless --fresh.  Prints a
 * table per size, the best of each variant marked '*'.  The work is done by
 * tune_cli.c, which conform bench shares.
 */
#include "cli/cmd.h"
#include "cli/tune_cli.h"

static int tune_exec(int argc, char **argv)
{
	struct tune_cli c;
	int r = tune_cli_parse(argc, argv, 0, &c);
	if (r == 0)
		r = tune_cli_run(&c, argc, argv);
	kernel_list_free(&c.kernels); /* a usage error may follow --kernel */
	return r;
}

const struct cmd_entry cmd_tune_entry = {
	.name = "tune",
	.usage = "tune VARIANT|GLOB | --kernel FILE --n LIST --dtype T",
	.summary = "search tuning spaces; store and compare configurations",
	.exec = tune_exec,
	.options = tune_cli_options,
	.help_head = "usage: conform tune VARIANT|GLOB --n LIST --dtype T [options]\n"
		     "       conform tune --kernel FILE [VARIANT] --n LIST --dtype T [options]\n",
	.help_tail = tune_cli_help_tail,
	.operands = 1,
	.set = tune_cli_set,
};
