/*
 * cmd_parse.c - the one option parser every command goes through, and the
 * declarations of the options several commands share (see cmd.h, "The
 * option grammar").
 *
 * What it guarantees, for every command alike: an unknown option, a missing
 * value, a malformed value and a stray operand are each one line on stderr
 * with the same wording; --help is written from the table the parser reads,
 * so it cannot list an option that does not exist or miss one that does;
 * and nothing here ends the process: the caller returns what it is told and
 * main() turns it into the exit code.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"

/* The shared options, with the wording most commands use. */
static const struct cmd_option shared_options[] = {
	{.id = CMD_OPT_SUITES, .name = "suites", .arg = CMD_ARG_TEXT, .metavar = "DIR",
	 .help = "the suites directory (default: the installed suites)"},
	{.id = CMD_OPT_SUITE, .name = "suite", .arg = CMD_ARG_TEXT, .metavar = "FILE",
	 .help = "load this suite file instead of the directory (repeatable)"},
	{.id = CMD_OPT_TIMEOUT, .name = "timeout", .arg = CMD_ARG_SECONDS, .metavar = "SEC",
	 .help = "deadline of an ordinary case, and of a worker's\nstart (at least 2 s) (default 10)"},
	{.id = CMD_OPT_HANG_TIMEOUT, .name = "hang-timeout", .arg = CMD_ARG_SECONDS, .metavar = "SEC",
	 .help = "deadline of cases expected to hang or undefined (default 2)"},
	{.id = CMD_OPT_SEED, .name = "seed", .arg = CMD_ARG_UINT, .max = UINT64_MAX, .metavar = "N",
	 .help = "input seed (default: random; printed and stored)"},
	{.id = CMD_OPT_DEVICE, .name = "device", .arg = CMD_ARG_UINT, .max = 1023, .metavar = "N",
	 .help = "CUDA device ordinal (default 0)"},
	{.id = CMD_OPT_DEVICES, .name = "devices", .arg = CMD_ARG_TEXT, .metavar = "LIST",
	 .help = "GPUs to spread the cases over: 0,1 or 0-3 or all; --jobs\nworkers on each, each result stored with its GPU"},
	{.id = CMD_OPT_DB, .name = "db", .arg = CMD_ARG_TEXT, .metavar = "PATH",
	 .help = "result database (default $CONFORM_DB or\n$XDG_DATA_HOME/conform/conform.db)"},
	{.id = CMD_OPT_BUDGET, .name = "budget", .arg = CMD_ARG_COUNT, .max = 1u << 30, .metavar = "N",
	 .help = "evaluations per search (refused configurations are free)"},
	{.id = CMD_OPT_MIN_SAMPLES, .name = "min-samples", .arg = CMD_ARG_COUNT, .max = 1000,
	 .metavar = "N", .help = "timed launches at least (default 10)"},
	{.id = CMD_OPT_MAX_TIME, .name = "max-time", .arg = CMD_ARG_SECONDS, .metavar = "SEC",
	 .help = "sampling time per evaluation at most (default 1.0)"},
	{.id = CMD_OPT_DTYPE, .name = "dtype", .arg = CMD_ARG_DTYPE, .metavar = "T",
	 .help = "element type: f32, f64, i32, u32, bf16"},
	{.id = CMD_OPT_OP, .name = "op", .arg = CMD_ARG_OP, .metavar = "OP",
	 .help = "sum (default), max or min"},
	{.id = CMD_OPT_CSV, .name = "csv", .help = "CSV rows on stdout"},
	{.id = CMD_OPT_JSON, .name = "json", .help = "JSON lines on stdout"},
	{.id = CMD_OPT_VERBOSE, .name = "verbose", .letter = 'v',
	 .help = "the worker's diagnostics on stderr"},
	{.id = CMD_OPT_KERNEL, .name = "kernel", .arg = CMD_ARG_TEXT, .metavar = "FILE",
	 .help = "a kernel file of yours, compiled at run time (repeatable;\nsee docs/kernels.md)"},
	{.id = CMD_OPT_KERNELS, .name = "kernels", .arg = CMD_ARG_TEXT, .metavar = "DIR",
	 .help = "every .cu kernel file of DIR"},
	{.id = CMD_OPT_OBJECTIVE, .name = "objective", .arg = CMD_ARG_OBJECTIVE, .metavar = "O",
	 .help = "what \"best\" minimises: time (default), energy (J per\n"
		 "launch) or edp (energy x time)"},
	{.id = CMD_OPT_TAG, .name = "tag", .arg = CMD_ARG_NAME, .metavar = "NAME",
	 .help = "a name stored with the run (a branch, \"baseline\"); runs of\n"
		 "one tag compare as one run (shards of a CI job)"},
	{0},
};

/* Every command takes --help; it is never listed. */
static const struct cmd_option help_option = {.id = CMD_OPT_HELP, .name = "help", .unlisted = 1};

#define OPTIONS_MAX 64

/* A command's options with the shared ones filled in and the includes
 * spliced, in table order. */
struct grammar {
	struct cmd_option opt[OPTIONS_MAX];
	size_t count;
};

static const struct cmd_option *shared_option(int id)
{
	for (const struct cmd_option *s = shared_options; s->id; s++)
		if (s->id == id)
			return s;
	return NULL;
}

/* Fills g from table; the command's own words win over the shared ones.
 * A table that names an undeclared shared option or holds more than
 * OPTIONS_MAX options is a mistake in conform itself: said, and -1. */
static int flatten(const struct cmd_option *table, int unlisted, struct grammar *g)
{
	for (const struct cmd_option *t = table; t->id || t->include; t++) {
		if (t->include) {
			if (flatten(t->include, unlisted || t->unlisted, g) < 0)
				return -1;
			continue;
		}
		struct cmd_option o = *t;
		if (!t->name) {
			const struct cmd_option *s = shared_option(t->id);
			if (!s) {
				cmd_error("internal error: option %d is not declared", t->id);
				return -1;
			}
			o = *s;
			if (t->help)
				o.help = t->help;
			if (t->metavar)
				o.metavar = t->metavar;
			o.synopsis = t->synopsis;
			o.unlisted = t->unlisted;
		}
		o.unlisted |= unlisted;
		if (g->count == OPTIONS_MAX) {
			cmd_error("internal error: more than %d options", OPTIONS_MAX);
			return -1;
		}
		g->opt[g->count++] = o;
	}
	return 0;
}

/* "  --timeout SEC         deadline ...": the left column is 22 wide, and
 * the help's further lines start under its first. */
static void print_help(const struct cmd_entry *e, const struct grammar *g)
{
	fputs(e->help_head, stdout);
	for (size_t i = 0; i < g->count; i++) {
		const struct cmd_option *o = &g->opt[i];
		char left[64];
		if (o->unlisted || !o->help)
			continue;
		if (o->synopsis)
			snprintf(left, sizeof left, "%s", o->synopsis);
		else if (o->letter)
			snprintf(left, sizeof left, "-%c, --%s", o->letter, o->name);
		else
			snprintf(left, sizeof left, "--%s%s%s", o->name, o->metavar ? " " : "",
				 o->metavar ? o->metavar : "");
		printf("  %-21s ", left);
		for (const char *h = o->help; *h; h++) {
			putchar(*h);
			if (*h == '\n')
				printf("%24s", "");
		}
		putchar('\n');
	}
	fputs(e->help_tail ? e->help_tail : "", stdout);
}

/* Says what was wrong with an option getopt_long did not take: c == ':' (a
 * missing value) or anything else (unknown). */
static void cmd_option_error(int c, const char *word, const char *command)
{
	if (c == ':')
		cmd_error("%s needs a value (see conform %s --help)", word, command);
	else
		cmd_error("unknown option '%s' (see conform %s --help)", word, command);
}

/* Converts arg by o's kind into v; -1 after the error. */
static int convert(const struct cmd_option *o, const char *arg, struct cmd_value *v)
{
	switch (o->arg) {
	case CMD_ARG_NONE:
	case CMD_ARG_TEXT:
		return 0;
	case CMD_ARG_SECONDS:
		return cmd_parse_seconds(v->flag, arg, &v->seconds);
	case CMD_ARG_UINT:
		return cmd_parse_uint(v->flag, arg, o->max, &v->u);
	case CMD_ARG_COUNT:
		return cmd_parse_count(v->flag, arg, o->max, &v->u);
	case CMD_ARG_DTYPE:
		if (dtype_parse(arg, &v->dtype) == 0)
			return 0;
		cmd_error("%s: unknown element type '%s' (f32, f64, i32, u32, bf16)", v->flag, arg);
		return -1;
	case CMD_ARG_OP:
		if (op_parse(arg, &v->op) == 0)
			return 0;
		cmd_error("%s: unknown operator '%s' (sum, max, min)", v->flag, arg);
		return -1;
	case CMD_ARG_OBJECTIVE:
		if (objective_parse(arg, &v->objective) == 0)
			return 0;
		cmd_error("%s: unknown objective '%s' (time, energy, edp)", v->flag, arg);
		return -1;
	case CMD_ARG_NAME:
		if (*arg && strlen(arg) <= CMD_NAME_MAX &&
		    strspn(arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-+/:") ==
			    strlen(arg))
			return 0;
		cmd_error("%s: expected a name of 1 to %d letters, digits and . _ - + / :, got '%s'",
			  v->flag, CMD_NAME_MAX, arg);
		return -1;
	}
	return 0;
}

int cmd_parse(const struct cmd_entry *e, int argc, char **argv, void *opts, int *operand)
{
	struct grammar g;
	struct option longopts[OPTIONS_MAX + 1];
	char shorts[2 * OPTIONS_MAX + 2] = ":";
	size_t ns = 1;

	memset(&g, 0, sizeof g);
	if (flatten(e->options, 0, &g) < 0)
		return EXIT_USAGE;
	if (g.count == OPTIONS_MAX) {
		cmd_error("internal error: more than %d options", OPTIONS_MAX - 1);
		return EXIT_USAGE;
	}
	g.opt[g.count++] = help_option;
	/* getopt_long returns the option's index, past the letters and the
	 * ':' and '?' it uses for errors. */
	for (size_t i = 0; i < g.count; i++) {
		const struct cmd_option *o = &g.opt[i];
		longopts[i] = (struct option){o->name, o->arg == CMD_ARG_NONE ? no_argument : required_argument,
					      NULL, CMD_OPT_HELP + (int)i};
		if (o->letter) {
			shorts[ns++] = o->letter;
			if (o->arg != CMD_ARG_NONE)
				shorts[ns++] = ':';
		}
	}
	longopts[g.count] = (struct option){NULL, 0, NULL, 0};
	shorts[ns] = '\0';

	opterr = 0;
	optind = 1;
	int c;
	while ((c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		const struct cmd_option *o = NULL;
		if (c >= CMD_OPT_HELP && (size_t)(c - CMD_OPT_HELP) < g.count)
			o = &g.opt[c - CMD_OPT_HELP];
		for (size_t i = 0; !o && c != ':' && c != '?' && i < g.count; i++)
			if (g.opt[i].letter == c)
				o = &g.opt[i];
		if (!o) {
			cmd_option_error(c, argv[optind - 1], e->name);
			return EXIT_USAGE;
		}
		if (o->id == CMD_OPT_HELP) {
			print_help(e, &g);
			return CMD_HELP_SHOWN;
		}
		char flag[64];
		snprintf(flag, sizeof flag, "--%s", o->name);
		struct cmd_value v = {.text = optarg, .flag = flag, .command = e->name};
		if (convert(o, optarg, &v) < 0 || e->set(opts, o->id, &v) < 0)
			return EXIT_USAGE;
	}
	if (argc - optind > e->operands) {
		cmd_error("unexpected argument '%s' (see conform %s --help)", argv[optind + e->operands],
			  e->name);
		return EXIT_USAGE;
	}
	*operand = optind;
	return 0;
}
