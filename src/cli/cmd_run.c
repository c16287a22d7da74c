/*
 * cmd_run.c - "conform run" (and "conform --all"): run conformance cases.
 *
 * Loads the suites, selects cases (--all, --filter, --exclude, --shard),
 * checks them against the worker's catalog, opens the database, and runs
 * them as a session (session.h) with the console, JSON and JUnit sinks after
 * the database's.
 * Every input problem is found before the first case runs.
 */
#include "config.h"

#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog_client.h"
#include "cmd.h"
#include "db.h"
#include "report.h"
#include "session.h"
#include "suite.h"
#include "text.h"

#define MAX_GLOBS 64

struct run_opts {
	int all, list, variants, json, verbose;
	const char *filters[MAX_GLOBS];
	size_t nfilters;
	const char *excludes[MAX_GLOBS];
	size_t nexcludes;
	const char *db_path;
	const char *junit_path;
	int shard_i, shard_n;
	struct cmd_run_settings rs;
};

static const char run_help[] =
	"usage: conform [run] --all | --filter GLOB [options]\n"
	"  --all                 run every case of every suite\n"
	"  --filter GLOB         run the cases whose name matches (repeatable)\n"
	"  --exclude GLOB        leave out the cases whose name matches (repeatable)\n"
	"  --list                print the selected case names, one per line, and exit\n"
	"  --variants            print the kernel variants this build has, and exit\n"
	"  --shard I/N           run the I-th of N deterministic slices (1 <= I <= N)\n"
	"  --timeout SEC         deadline of an ordinary case (default 10)\n"
	"  --hang-timeout SEC    deadline of cases expected to hang or undefined (default 2)\n"
	"  --seed N              input seed (default: random; printed and stored)\n"
	"  --device N            CUDA device ordinal (default 0)\n"
	"  --db PATH             result database (default $CONFORM_DB or\n"
	"                        $XDG_DATA_HOME/conform/conform.db)\n"
	"  --junit FILE          write a JUnit XML report\n"
	"  --json                JSON lines on stdout (the human report moves to stderr)\n"
	"  --suites DIR          the suites directory (default: the installed suites)\n"
	"  --suite FILE          load this suite file instead of the directory (repeatable)\n"
	"  -v, --verbose         a line for every case; worker diagnostics on stderr\n"
	"exit: 0 conformant, 1 unexpected results, 2 usage or input error, 77 no CUDA device\n";

static int parse_shard(const char *text, int *i, int *n)
{
	char extra;
	if (sscanf(text, "%d/%d%c", i, n, &extra) != 2 || *n < 1 || *i < 1 || *i > *n) {
		cmd_error("--shard: expected I/N with 1 <= I <= N, got '%s'", text);
		return -1;
	}
	return 0;
}

static int parse_opts(int argc, char **argv, struct run_opts *o)
{
	enum { O_ALL = 256, O_LIST, O_VARIANTS, O_FILTER, O_EXCLUDE, O_TIMEOUT, O_HANG, O_SEED,
	       O_DB, O_JUNIT, O_JSON, O_SHARD, O_DEVICE, O_SUITES, O_SUITE, O_HELP };
	static const struct option longopts[] = {
		{"all", no_argument, NULL, O_ALL},
		{"list", no_argument, NULL, O_LIST},
		{"variants", no_argument, NULL, O_VARIANTS},
		{"filter", required_argument, NULL, O_FILTER},
		{"exclude", required_argument, NULL, O_EXCLUDE},
		{"timeout", required_argument, NULL, O_TIMEOUT},
		{"hang-timeout", required_argument, NULL, O_HANG},
		{"seed", required_argument, NULL, O_SEED},
		{"db", required_argument, NULL, O_DB},
		{"junit", required_argument, NULL, O_JUNIT},
		{"json", no_argument, NULL, O_JSON},
		{"shard", required_argument, NULL, O_SHARD},
		{"device", required_argument, NULL, O_DEVICE},
		{"suites", required_argument, NULL, O_SUITES},
		{"suite", required_argument, NULL, O_SUITE},
		{"verbose", no_argument, NULL, 'v'},
		{"help", no_argument, NULL, O_HELP},
		{NULL, 0, NULL, 0},
	};
	memset(o, 0, sizeof *o);
	cmd_run_settings_init(&o->rs);
	opterr = 0;
	optind = 1;
	int c, idx = 0;
	while ((c = getopt_long(argc, argv, ":v", longopts, &idx)) != -1) {
		switch (c) {
		case O_ALL: o->all = 1; break;
		case O_LIST: o->list = 1; break;
		case O_VARIANTS: o->variants = 1; break;
		case O_JSON: o->json = 1; break;
		case 'v': o->verbose = 1; break;
		case O_FILTER:
		case O_EXCLUDE: {
			const char **globs = c == O_FILTER ? o->filters : o->excludes;
			size_t *n = c == O_FILTER ? &o->nfilters : &o->nexcludes;
			if (*n == MAX_GLOBS) {
				cmd_error("too many --filter/--exclude patterns (at most %d each)", MAX_GLOBS);
				return -1;
			}
			globs[(*n)++] = optarg;
			break;
		}
		case O_SHARD:
			if (parse_shard(optarg, &o->shard_i, &o->shard_n) < 0)
				return -1;
			break;
		case O_DB: o->db_path = optarg; break;
		case O_JUNIT: o->junit_path = optarg; break;
		case O_HELP:
			fputs(run_help, stdout);
			exit(0);
		default:
			if (cmd_option_common(c, c == '?' ? NULL : longopts[idx].name, optarg,
					      argv[optind - 1], "run", &o->rs) < 0)
				return -1;
			break;
		}
	}
	if (cmd_no_operands(argc, argv, optind, "run") < 0)
		return -1;
	if (!o->all && !o->nfilters && !o->variants) {
		cmd_error("nothing selected: use --all or --filter GLOB (see conform run --help)");
		return -1;
	}
	if (!o->rs.seed_given)
		o->rs.seed = cmd_random_seed();
	return 0;
}

/* The selected cases, in suite order. */
static const struct case_spec **select_cases(const struct run_opts *o, const struct suite *s,
					     size_t *count)
{
	const struct case_spec **sel = calloc(s->count ? s->count : 1, sizeof *sel);
	size_t n = 0, matched = 0;
	if (!sel)
		return NULL;
	for (size_t i = 0; i < s->count; i++) {
		const struct case_spec *c = &s->cases[i];
		if (!o->all && !suite_glob_any(c->name, o->filters, o->nfilters))
			continue;
		if (suite_glob_any(c->name, o->excludes, o->nexcludes))
			continue;
		/* Sharding counts matched cases, so shards of one selection
		 * partition it exactly. */
		if (o->shard_n && (int)(matched++ % (size_t)o->shard_n) != o->shard_i - 1)
			continue;
		sel[n++] = c;
	}
	*count = n;
	return sel;
}

/* Unknown variants are an input error when this build has kernels; without
 * kernels the GPU families are simply absent and their cases are skipped. */
static int check_variants(const struct catalog *cat, const struct case_spec **sel, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct case_spec *c = sel[i];
		if (catalog_lookup(cat, c->variant))
			continue;
		if (!cat->has_kernels && strncmp(c->variant, "harness.", 8) != 0)
			continue;
		cmd_error("%s:%d: unknown variant '%s' (conform --variants lists them)", c->file,
			  c->line, c->variant);
		return -1;
	}
	return 0;
}

static void print_variants(const struct catalog *cat)
{
	printf("# kernels: %s%s%s\n", cat->has_kernels ? "built for " : "not built",
	       cat->has_kernels ? cat->archs : "", "");
	for (size_t i = 0; i < cat->count; i++) {
		const struct catalog_entry *e = &cat->v[i];
		printf("%-28s %-14s %s\n", e->name, e->dtypes, e->summary);
		printf("%-28s   %s\n", "", e->contract);
		if (e->tunables[0])
			printf("%-28s   tunables: %s\n", "", e->tunables);
	}
}

static int any_needs_gpu(const struct catalog *cat, const struct case_spec **sel, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct catalog_entry *e = catalog_lookup(cat, sel[i]->variant);
		if (!e || e->gpu || sel[i]->nreq)
			return 1;
	}
	return 0;
}

static int run_exec(int argc, char **argv)
{
	struct run_opts o;
	struct suite s;
	struct catalog cat;
	char err[1024], worker_path[4096], db_path[4096];
	size_t n = 0;

	if (parse_opts(argc, argv, &o) < 0)
		return EXIT_USAGE;
	if (session_find_worker(worker_path, sizeof worker_path, &cat, err, sizeof err) < 0) {
		cmd_error("%s", err);
		return EXIT_USAGE;
	}
	if (o.variants) {
		print_variants(&cat);
		catalog_free(&cat);
		return 0;
	}
	if (cmd_load_suites(&o.rs, &s) < 0) {
		catalog_free(&cat);
		return EXIT_USAGE;
	}
	int rc = EXIT_USAGE;
	const struct case_spec **sel = select_cases(&o, &s, &n);
	struct db *db = NULL;
	struct session *ss = NULL;
	struct junit_state ju = {.path = o.junit_path};
	char *cmdline = cmd_join_args(argc, argv);
	if (!sel || !cmdline) {
		cmd_error("out of memory");
		goto out;
	}
	if (check_variants(&cat, sel, n) < 0)
		goto out;
	if (o.list) {
		for (size_t i = 0; i < n; i++)
			printf("%s\n", sel[i]->name);
		rc = 0;
		goto out;
	}
	if (n == 0) {
		cmd_error("no case matches the selection");
		goto out;
	}
	if (cmd_db_path(o.db_path, db_path, sizeof db_path) < 0)
		goto out;
	if (db_open(db_path, 5000, &db, err, sizeof err) < 0) {
		cmd_error("%s", err);
		goto out;
	}
	if (!(ss = malloc(sizeof *ss))) {
		cmd_error("out of memory");
		goto out;
	}

	const volatile sig_atomic_t *stop = cmd_catch_stop();
	struct session_config cfg = {
		.worker_path = worker_path,
		.device = o.rs.device,
		.verbose = o.verbose,
		.timeout_s = o.rs.timeout_s,
		.hang_timeout_s = o.rs.hang_timeout_s,
		.seed = o.rs.seed,
		.catalog = &cat,
		.db = db,
		.stop = stop,
		.command_line = cmdline,
	};
	if (session_open(ss, &cfg, err, sizeof err) < 0) {
		free(ss);
		ss = NULL;
		cmd_error("%s", err);
		rc = *stop ? EXIT_INTERRUPTED : EXIT_USAGE;
		goto out;
	}

	struct report_sink sink;
	struct console_state con = {.verbose = o.verbose, .json = o.json,
				    .progress = isatty(STDERR_FILENO) && !o.verbose};
	struct json_state js;
	console_sink(&sink, &con);
	session_add_sink(ss, &sink);
	if (o.json) {
		json_sink(&sink, &js);
		session_add_sink(ss, &sink);
	}
	if (o.junit_path) {
		junit_sink(&sink, &ju);
		session_add_sink(ss, &sink);
	}

	if (session_run(ss, sel, n, err, sizeof err) == SESSION_FAILED) {
		cmd_error("%s", err);
		rc = EXIT_USAGE;
	} else if (ss->sum.interrupted) {
		rc = EXIT_INTERRUPTED;
	} else if (ss->sum.tally[TALLY_FAILED]) {
		rc = EXIT_UNEXPECTED;
	} else if (!ss->rn.rc.has_gpu && any_needs_gpu(&cat, sel, n)) {
		rc = EXIT_NO_DEVICE;
	} else {
		rc = EXIT_CONFORMANT;
	}
out:
	if (ss)
		session_close(ss);
	free(ss);
	junit_free(&ju);
	db_close(db);
	free(cmdline);
	free(sel);
	suite_free(&s);
	catalog_free(&cat);
	return rc;
}

const struct cmd_entry cmd_run_entry = {
	.name = "run",
	.usage = "run --all | --filter GLOB [options]",
	.summary = "run conformance cases (the default command)",
	.exec = run_exec,
};
