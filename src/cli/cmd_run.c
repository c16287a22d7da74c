/*
 * cmd_run.c - "conform run" (and "conform --all"): run conformance cases.
 *
 * Loads the suites, selects cases (--all, --filter, --exclude, --shard),
 * checks them against the worker's catalog, opens the database (the
 * preamble of cmd_inputs.h), and runs them as a session (session.h) with
 * the console, JSON and JUnit sinks after the database's.  With --baseline FILE, the failures of the cases it
 * lists are known: reported as such, and not failing the run.
 * Every input problem is found before the first case runs.
 */
#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "cli/cmd_inputs.h"
#include "common/num.h"
#include "common/text.h"
#include "db/db.h"
#include "report/report.h"
#include "session/baseline.h"
#include "session/catalog_client.h"
#include "session/paths.h"
#include "session/run_seed.h"
#include "session/session.h"
#include "session/session_check.h"
#include "session/user_cases.h"
#include "suite/suite.h"

#define MAX_GLOBS 64

struct run_opts {
	int all, list, variants, json, verbose;
	const char *filters[MAX_GLOBS];
	size_t nfilters;
	const char *excludes[MAX_GLOBS];
	size_t nexcludes;
	const char *db_path;
	const char *junit_path;
	const char *baseline_path;
	const char *tag;
	int shard_i, shard_n;
	int jobs;                         /* --jobs; 0: the session's default */
	struct cmd_run_settings rs;
	struct user_case_request uq;      /* --n, --cols, --dtype of --kernel's cases */
	enum sanitizer_tool sanitize;     /* --sanitize TOOL; SANITIZER_NONE: not */
	int shrink;                       /* --shrink 1, --no-shrink 0; -1: with --kernel */
	double shrink_s;                  /* --shrink-time; 0: the session's default */
};

enum { O_ALL = CMD_OPT_OWN, O_LIST, O_VARIANTS, O_FILTER, O_EXCLUDE, O_SHARD, O_JUNIT, O_BASELINE,
       O_N, O_COLS, O_JOBS, O_SANITIZE, O_SHRINK, O_NO_SHRINK, O_SHRINK_TIME };

static const struct cmd_option run_options[] = {
	{.id = O_ALL, .name = "all", .help = "run every case of every suite"},
	{.id = O_FILTER, .name = "filter", .arg = CMD_ARG_TEXT, .metavar = "GLOB",
	 .help = "run the cases whose name matches (repeatable)"},
	{.id = O_EXCLUDE, .name = "exclude", .arg = CMD_ARG_TEXT, .metavar = "GLOB",
	 .help = "leave out the cases whose name matches (repeatable)"},
	{.id = O_LIST, .name = "list", .help = "print the selected case names, one per line, and exit"},
	{.id = O_VARIANTS, .name = "variants", .help = "print the kernel variants this build has, and exit"},
	{.id = O_SHARD, .name = "shard", .arg = CMD_ARG_TEXT, .metavar = "I/N",
	 .help = "run the I-th of N deterministic slices (1 <= I <= N)"},
	{.id = CMD_OPT_KERNEL, .help = "check a kernel file of yours (repeatable; docs/kernels.md):\n"
				      "every dtype and op over a ladder of awkward sizes"},
	{.id = CMD_OPT_KERNELS},
	{.id = O_N, .name = "n", .arg = CMD_ARG_TEXT, .metavar = "LIST",
	 .help = "--kernel's sizes instead of the ladder: elements, or rows (2^20,33);\n"
		 "with --filter alone, the suite cases selected at these sizes"},
	{.id = O_COLS, .name = "cols", .arg = CMD_ARG_TEXT, .metavar = "LIST",
	 .help = "--kernel's row lengths, for row and softmax kernels (or, with\n"
		 "--filter alone, the selected suite cases')"},
	{.id = CMD_OPT_DTYPE, .help = "--kernel's element type (default: every one it declares)"},
	{.id = CMD_OPT_TIMEOUT},
	{.id = CMD_OPT_HANG_TIMEOUT},
	{.id = O_SANITIZE, .name = "sanitize", .arg = CMD_ARG_TEXT, .metavar = "TOOL",
	 .help = "run each case alone under compute-sanitizer's memcheck, racecheck,\n"
		 "synccheck or initcheck: a report makes it FAIL (deadlines longer)"},
	{.id = O_SHRINK, .name = "shrink",
	 .help = "after the run, find each failure's smallest failing size and a\n"
		 "command that runs it (the default with --kernel)"},
	{.id = O_NO_SHRINK, .name = "no-shrink", .help = "do not search for smallest failing sizes"},
	{.id = O_SHRINK_TIME, .name = "shrink-time", .arg = CMD_ARG_SECONDS, .metavar = "SEC",
	 .help = "time one search may take, then it says how far it got (default 120)"},
	{.id = O_JOBS, .name = "jobs", .arg = CMD_ARG_COUNT, .max = SESSION_JOBS_MAX, .metavar = "N",
	 .help = "cases on N workers at once, reported in order (default: half\n"
		 "the processors, 1 to 4); a hang no longer holds the others up"},
	{.id = CMD_OPT_SEED},
	{.id = CMD_OPT_DEVICE},
	{.id = CMD_OPT_DEVICES},
	{.id = CMD_OPT_DB},
	{.id = CMD_OPT_TAG},
	{.id = O_JUNIT, .name = "junit", .arg = CMD_ARG_TEXT, .metavar = "FILE",
	 .help = "write a JUnit XML report"},
	{.id = O_BASELINE, .name = "baseline", .arg = CMD_ARG_TEXT, .metavar = "FILE",
	 .help = "cases known to fail here, a line each: NAME_OR_GLOB REASON;\n"
		 "their failures are reported as known and do not fail the run"},
	{.id = CMD_OPT_JSON, .help = "JSON lines on stdout (the human report moves to stderr)"},
	{.id = CMD_OPT_SUITES},
	{.id = CMD_OPT_SUITE},
	{.id = CMD_OPT_VERBOSE, .help = "a line for every case; worker diagnostics on stderr"},
	{0},
};

static int parse_shard(const char *text, int *i, int *n)
{
	char buf[64];
	const char *slash = strchr(text, '/');
	unsigned long long vi, vn;
	size_t li = slash ? (size_t)(slash - text) : 0;
	/* Each side through the one strict parser: sscanf("%d/%d") would take
	 * " 1/+2" and wrap 4294967297 to 1. */
	if (!slash || li >= sizeof buf || num_parse_uint(slash + 1, 1u << 20, &vn) < 0 ||
	    (memcpy(buf, text, li), buf[li] = '\0', num_parse_uint(buf, vn, &vi) < 0) ||
	    vi < 1) {
		cmd_error("--shard: expected I/N with 1 <= I <= N <= %u, got '%s'", 1u << 20, text);
		return -1;
	}
	*i = (int)vi;
	*n = (int)vn;
	return 0;
}

static int run_set(void *opts, int id, const struct cmd_value *v)
{
	struct run_opts *o = opts;
	switch (id) {
	case O_ALL: o->all = 1; break;
	case O_LIST: o->list = 1; break;
	case O_VARIANTS: o->variants = 1; break;
	case CMD_OPT_JSON: o->json = 1; break;
	case CMD_OPT_VERBOSE: o->verbose = 1; break;
	case O_FILTER:
	case O_EXCLUDE: {
		const char **globs = id == O_FILTER ? o->filters : o->excludes;
		size_t *n = id == O_FILTER ? &o->nfilters : &o->nexcludes;
		if (*n == MAX_GLOBS) {
			cmd_error("too many --filter/--exclude patterns (at most %d each)", MAX_GLOBS);
			return -1;
		}
		globs[(*n)++] = v->text;
		break;
	}
	case O_SHARD: return parse_shard(v->text, &o->shard_i, &o->shard_n);
	case O_JOBS: o->jobs = (int)v->u; break;
	case O_SHRINK: o->shrink = 1; break;
	case O_NO_SHRINK: o->shrink = 0; break;
	case O_SHRINK_TIME: o->shrink_s = v->seconds; break;
	case O_SANITIZE:
		if (sanitizer_tool_parse(v->text, &o->sanitize) < 0 || o->sanitize == SANITIZER_NONE) {
			cmd_error("--sanitize: '%s' is not a tool: memcheck, racecheck, synccheck or initcheck",
				  v->text);
			return -1;
		}
		break;
	case CMD_OPT_DB: o->db_path = v->text; break;
	case CMD_OPT_TAG: o->tag = v->text; break;
	case O_JUNIT: o->junit_path = v->text; break;
	case O_BASELINE: o->baseline_path = v->text; break;
	case O_N: return cmd_parse_sizes(v->flag, v->text, o->uq.n, USER_SIZES_MAX, &o->uq.nn);
	case O_COLS: return cmd_parse_sizes(v->flag, v->text, o->uq.cols, USER_SIZES_MAX, &o->uq.ncols);
	case CMD_OPT_DTYPE:
		o->uq.dtype = v->dtype;
		o->uq.have_dtype = 1;
		break;
	default: return cmd_run_settings_set(&o->rs, id, v);
	}
	return 0;
}

/* parse_opts: nothing is selected and a person is at the terminal. */
#define RUN_OPEN_TUI (-1)

/* Returns 0, RUN_OPEN_TUI, or what run_exec returns (cmd_parse). */
static int parse_opts(int argc, char **argv, struct run_opts *o)
{
	int operand;
	memset(o, 0, sizeof *o);
	o->shrink = -1;
	cmd_run_settings_init(&o->rs);
	int r = cmd_parse(&cmd_run_entry, argc, argv, o, &operand);
	if (r != 0)
		return r;
	/* --list alone lists every case: a listing selects nothing to run. */
	if (o->list && !o->nfilters && !o->rs.kernels.n)
		o->all = 1;
	if (o->uq.have_dtype && !o->rs.kernels.n) {
		cmd_error("--dtype chooses the cases of --kernel files (none given)");
		return EXIT_USAGE;
	}
	if ((o->uq.nn || o->uq.ncols) && !o->rs.kernels.n && !o->nfilters) {
		cmd_error("--n and --cols choose the sizes of --kernel files' cases, or of the cases "
			  "--filter selects (neither given)");
		return EXIT_USAGE;
	}
	if (o->shrink < 0)
		o->shrink = o->rs.kernels.n > 0;
	if (!o->all && !o->nfilters && !o->variants && !o->rs.kernels.n) {
		/* "conform --db x.db" on a terminal: the interface on that
		 * database, as "conform" alone opens it on the default one. */
		if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))
			return RUN_OPEN_TUI;
		cmd_error("nothing selected: use --all, --filter GLOB or --kernel FILE (see conform run --help)");
		return EXIT_USAGE;
	}
	if (!o->rs.seed_given)
		o->rs.seed = run_seed_fresh();
	return 0;
}

/* The selected cases, in suite order, then the kernel files' cases
 * (selected by --filter too when it is given). */
static const struct case_spec **select_cases(const struct run_opts *o, const struct suite *s,
					     const struct case_spec *user, size_t nuser, size_t *count)
{
	const size_t total = s->count + nuser;
	const struct case_spec **sel = calloc(total ? total : 1, sizeof *sel);
	size_t n = 0, matched = 0;
	if (!sel)
		return NULL;
	for (size_t i = 0; i < total; i++) {
		const struct case_spec *c = i < s->count ? &s->cases[i] : &user[i - s->count];
		int is_user = i >= s->count;
		if (!(is_user && !o->nfilters) && !(o->all && !is_user) &&
		    !suite_glob_any(c->name, o->filters, o->nfilters))
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

/*
 * --n and --cols over suite cases (a kernel file's ladder takes them
 * itself): each selected suite case posed at each size given, its own
 * where a list is not given (case_resized names them, as the search for
 * the smallest failing size does).  *count and *sel are replaced; the
 * cases are allocated into *resized.  Returns 0, or -1 when out of
 * memory or too many.
 */
static int resize_cases(const struct run_opts *o, const struct case_spec *user, size_t nuser,
			const struct case_spec ***sel, size_t *count, struct case_spec **resized)
{
	const size_t nn = o->uq.nn ? o->uq.nn : 1, nc = o->uq.ncols ? o->uq.ncols : 1;
	size_t total = 0;
	*resized = NULL;
	if (!o->uq.nn && !o->uq.ncols)
		return 0;
	struct case_spec *v = calloc(*count * nn * nc + 1, sizeof *v);
	const struct case_spec **out = calloc(*count * nn * nc + 1, sizeof *out);
	if (!v || !out) {
		free(v);
		free(out);
		return -1;
	}
	for (size_t i = 0; i < *count; i++) {
		const struct case_spec *c = (*sel)[i];
		if (c >= user && c < user + nuser) { /* sized by its ladder already */
			out[total++] = c;
			continue;
		}
		for (size_t a = 0; a < nn; a++)
			for (size_t b = 0; b < nc; b++) {
				int64_t cols = o->uq.ncols ? o->uq.cols[b] : c->cols;
				case_resized(c, o->uq.nn ? o->uq.n[a] : c->n, cols, &v[total]);
				out[total] = &v[total];
				total++;
			}
	}
	free(*sel);
	*sel = out;
	*count = total;
	*resized = v;
	return 0;
}

/* Every file the run writes is a different file, and none is an input:
 * --junit over the database (or its -wal/-shm/-journal) or over a suite
 * file would replace it at the end of the run. */
static int check_outputs(const struct run_opts *o, const char *db_path)
{
	const char *which;
	if (!o->junit_path)
		return 0;
	if (paths_is_database(o->junit_path, db_path, &which)) {
		cmd_error("--junit %s is the database%s (--db %s): choose another file", o->junit_path,
			  which[0] ? "'s journal" : "", db_path);
		return -1;
	}
	for (size_t i = 0; i < o->rs.nsuite_files; i++)
		if (paths_same_file(o->junit_path, o->rs.suite_files[i])) {
			cmd_error("--junit %s is a --suite file: choose another file", o->junit_path);
			return -1;
		}
	if (o->baseline_path && paths_same_file(o->junit_path, o->baseline_path)) {
		cmd_error("--junit %s is the --baseline file: choose another file", o->junit_path);
		return -1;
	}
	return 0;
}

/* The most "matches no selected case" lines a run prints: a baseline for
 * the whole catalog run as shards, or with --filter, leaves most entries
 * unmatched in every job. */
#define UNMATCHED_SAID_MAX 10

/* Warns of the baseline's entries that match none of the selected cases:
 * a misspelt name or a case that is gone, or one this selection leaves
 * out.  Not an error: the run is still what was asked for.  Returns 0, or
 * -1 when out of memory. */
static int warn_unmatched(const struct baseline *bl, const struct case_spec **sel, size_t n)
{
	unsigned char *used = calloc(bl->count ? bl->count : 1, 1);
	size_t unmatched = 0;

	if (!used)
		return -1;
	for (size_t i = 0; i < n; i++)
		baseline_mark(bl, sel[i]->name, used);
	for (size_t i = 0; i < bl->count; i++) {
		if (used[i])
			continue;
		if (unmatched++ < UNMATCHED_SAID_MAX)
			fprintf(stderr, "conform: warning: %s:%d: '%s' matches no selected case\n",
				bl->origin, bl->entries[i].line, bl->entries[i].name);
	}
	if (unmatched > UNMATCHED_SAID_MAX)
		fprintf(stderr, "conform: warning: %s: %zu more entries match no selected case\n",
			bl->origin, unmatched - UNMATCHED_SAID_MAX);
	free(used);
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

/* What a run's steps share, from its options to its exit code (run_free
 * frees it). */
struct run {
	struct run_opts o;
	struct cmd_inputs in;
	const struct case_spec **sel;   /* the cases to run, sel[0..n) */
	size_t n;
	struct case_spec *resized;      /* the suite cases --n and --cols pose */
	struct baseline bl;             /* --baseline's, when given */
	struct junit_state ju;          /* --junit's, when given */
	char *cmdline;                  /* the command line the run is stored with */
	char sanitizer[4096];           /* --sanitize: compute-sanitizer's path, */
	char sanitizer_missing[512];    /* or why it was not found */
	int have_sanitizer;
};

/* The cases to run: selected, posed at --n and --cols, checked against
 * the catalog, and --baseline read and matched against them.  Returns 0,
 * or -1 after the error. */
static int run_select(struct run *r)
{
	const struct cmd_inputs *in = &r->in;
	char err[CMD_ERR_MAX];

	r->sel = select_cases(&r->o, &in->suite, in->user, in->nuser, &r->n);
	if (!r->sel || resize_cases(&r->o, in->user, in->nuser, &r->sel, &r->n, &r->resized) < 0) {
		cmd_error("out of memory");
		return -1;
	}
	if (session_check_cases(&in->cat, r->sel, r->n, err, sizeof err) < 0 ||
	    (r->o.baseline_path && baseline_load_file(&r->bl, r->o.baseline_path, err, sizeof err) < 0)) {
		cmd_error("%s", err);
		return -1;
	}
	/* An empty selection is the same mistake whether listed or run. */
	if (r->n == 0) {
		cmd_error("no case matches the selection");
		return -1;
	}
	if (r->o.baseline_path && warn_unmatched(&r->bl, r->sel, r->n) < 0) {
		cmd_error("out of memory");
		return -1;
	}
	return 0;
}

/* --sanitize's tool.  Without compute-sanitizer every case is a SKIP that
 * says so: the run was asked for a check it cannot make here.  Returns 0,
 * or -1 after the error (CONFORM_SANITIZER is not a program). */
static int run_find_sanitizer(struct run *r)
{
	if (r->o.sanitize == SANITIZER_NONE)
		return 0;
	int found = paths_sanitizer(r->sanitizer, sizeof r->sanitizer, r->sanitizer_missing,
				    sizeof r->sanitizer_missing);
	if (found == -1) {
		cmd_error("%s", r->sanitizer_missing);
		return -1;
	}
	r->have_sanitizer = found == 0;
	if (r->have_sanitizer)
		fprintf(stderr, "conform: each case alone under %s --tool %s, its deadlines %g times longer\n",
			r->sanitizer, sanitizer_tool_name(r->o.sanitize), runner_sanitize_factor(r->o.sanitize));
	return 0;
}

/* Where the results go: the database's path, the files the run writes
 * checked against it and the inputs, the JUnit file and the database
 * opened.  Returns 0, or -1 after the error. */
static int run_open_outputs(struct run *r)
{
	char err[CMD_ERR_MAX];
	if (cmd_inputs_open(&r->in, CMD_INPUTS_DB_PATH) != 0 || check_outputs(&r->o, r->in.db_path) < 0)
		return -1;
	r->ju.path = r->o.junit_path;
	if (r->o.junit_path && junit_open(&r->ju, err, sizeof err) < 0) {
		cmd_error("%s", err);
		return -1;
	}
	return cmd_inputs_open(&r->in, CMD_INPUTS_DB) != 0 ? -1 : 0;
}

/* The session's configuration: the defaults, and what the command line
 * chose. */
static void run_config(struct run *r, const volatile sig_atomic_t *stop, struct session_config *cfg)
{
	const struct run_opts *o = &r->o;
	session_config_init(cfg, r->in.worker_path, &r->in.cat, r->in.db, stop, r->cmdline);
	cfg->device = o->rs.device;
	cfg->devices = &o->rs.devices;
	cfg->verbose = o->verbose;
	cfg->timeout_s = o->rs.timeout_s;
	cfg->hang_timeout_s = o->rs.hang_timeout_s;
	cfg->seed = o->rs.seed;
	cfg->tag = o->tag;
	cfg->baseline = o->baseline_path ? &r->bl : NULL;
	cfg->kernels = &o->rs.kernels;
	cfg->jobs = o->jobs;
	cfg->sanitize = o->sanitize;
	cfg->sanitizer = r->have_sanitizer ? r->sanitizer : NULL;
	cfg->sanitizer_missing = r->sanitizer_missing;
	cfg->shrink = o->shrink;
	cfg->shrink_s = o->shrink_s;
}

/* The selected cases as a session, told to the database, the console,
 * and JSON and JUnit when asked.  Returns the exit code. */
static int run_session(struct run *r, int argc, char **argv)
{
	const struct run_opts *o = &r->o;
	char err[CMD_ERR_MAX];
	struct session *ss = malloc(sizeof *ss);
	int rc;

	r->cmdline = cmd_join_args(argc, argv);
	if (!ss || !r->cmdline) {
		free(ss);
		cmd_error("out of memory");
		return EXIT_USAGE;
	}
	const volatile sig_atomic_t *stop = cmd_catch_stop();
	struct session_config cfg;
	run_config(r, stop, &cfg);
	if (session_open(ss, &cfg, err, sizeof err) < 0) {
		free(ss);
		cmd_error("%s", err);
		return *stop ? EXIT_INTERRUPTED : EXIT_USAGE;
	}

	struct report_sink sink;
	struct console_state con = {.verbose = o->verbose, .json = o->json, .db_path = r->in.db_path,
				    .progress = isatty(STDERR_FILENO) && !o->verbose};
	struct json_state js = {0};
	console_sink(&sink, &con);
	session_add_sink(ss, &sink);
	if (o->json) {
		json_sink(&sink, &js);
		session_add_sink(ss, &sink);
	}
	if (o->junit_path) {
		junit_sink(&sink, &r->ju);
		session_add_sink(ss, &sink);
	}

	if (session_run(ss, r->sel, r->n, err, sizeof err) == SESSION_FAILED) {
		/* A stop while waiting for the database's lock is an
		 * interruption, said in err. */
		cmd_error("%s", err);
		rc = *stop ? EXIT_INTERRUPTED : EXIT_USAGE;
	} else if (ss->sum.interrupted) {
		rc = EXIT_INTERRUPTED;
	} else if (ss->sum.tally[TALLY_FAILED] > ss->sum.known) {
		rc = EXIT_UNEXPECTED;
	} else if (!ss->rn.rc.has_gpu && any_needs_gpu(&r->in.cat, r->sel, r->n)) {
		rc = EXIT_NO_DEVICE;
	} else {
		rc = EXIT_CONFORMANT;
	}
	session_close(ss);
	free(ss);
	return rc;
}

/* A parsed run, step by step; each step's error is exit code 2. */
static int run_steps(struct run *r, int argc, char **argv)
{
	const struct run_opts *o = &r->o;
	/* With --kernel, the suites are read for --all only: the run is the
	 * kernel files' cases, which --filter chooses among.  The suites'
	 * kernel files join --kernel's before the worker lists the catalog. */
	unsigned suites = !o->variants && (o->all || !o->rs.kernels.n) ? CMD_INPUTS_SUITES : 0;
	if (cmd_inputs_open(&r->in, suites | CMD_INPUTS_WORKER) != 0)
		return EXIT_USAGE;
	if (o->variants) {
		print_variants(&r->in.cat);
		return 0;
	}
	if (cmd_inputs_open(&r->in, CMD_INPUTS_USER_CASES) != 0 || run_select(r) < 0)
		return EXIT_USAGE;
	if (o->list) {
		for (size_t i = 0; i < r->n; i++)
			printf("%s\n", r->sel[i]->name);
		return 0;
	}
	if (run_find_sanitizer(r) < 0 || run_open_outputs(r) < 0)
		return EXIT_USAGE;
	return run_session(r, argc, argv);
}

static void run_free(struct run *r)
{
	junit_free(&r->ju);
	baseline_free(&r->bl);
	free(r->cmdline);
	free(r->sel);
	free(r->resized);
	cmd_inputs_close(&r->in);
	cmd_run_settings_free(&r->o.rs);
}

static int run_exec(int argc, char **argv)
{
	struct run r;
	memset(&r, 0, sizeof r);
	int rc = parse_opts(argc, argv, &r.o);
	if (rc == RUN_OPEN_TUI) {
		cmd_run_settings_free(&r.o.rs); /* the interface reads argv itself */
		return cmd_tui_entry.exec(argc, argv);
	}
	r.in.rs = &r.o.rs;
	r.in.uq = &r.o.uq;
	r.in.db_given = r.o.db_path;
	if (rc == 0)
		rc = run_steps(&r, argc, argv);
	run_free(&r);
	return rc;
}

const struct cmd_entry cmd_run_entry = {
	.name = "run",
	.usage = "run --all | --filter GLOB | --kernel FILE [options]",
	.summary = "run conformance cases (the default command)",
	.exec = run_exec,
	.options = run_options,
	.help_head = "usage: conform [run] --all | --filter GLOB | --kernel FILE [options]\n",
	.help_tail = "exit: 0 conformant (known failures of --baseline included), 1 unexpected results,\n"
		     "2 usage or input error, 77 no CUDA device, 130 interrupted\n"
		     "(SIGINT, SIGTERM or SIGHUP)\n",
	.set = run_set,
};
