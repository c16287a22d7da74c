/*
 * tune_cli.c - options and driver of "conform tune" and "conform bench"
 * (see tune_cli.h).
 *
 * Every input problem (flags, unknown variant, dtype a variant lacks, a
 * malformed tuning space, an unusable database) is found before anything
 * runs or is stored.  Variants that need a GPU are dropped with a note when
 * there is none, and the command then exits 77 like a run with skipped GPU
 * cases.
 */
#include "config.h"

#include "cli/tune_cli.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "cli/cmd_fanout.h"
#include "cli/cmd_inputs.h"
#include "common/num.h"
#include "common/params.h"
#include "common/stats.h"
#include "common/text.h"
#include "db/db.h"
#include "session/catalog_client.h"
#include "session/session_check.h"
#include "suite/suite.h"
#include "tune/tune_space.h"

enum { O_N = CMD_OPT_OWN, O_COLS, O_STRATEGY, O_TIME, O_FRESH, O_MAX_NOISE, O_HOT, O_NO_ENERGY };

/* The problem: tune's to choose, bench's preset. */
static const struct cmd_option problem_options[] = {
	{.id = O_N, .name = "n", .arg = CMD_ARG_TEXT, .metavar = "LIST",
	 .help = "problem sizes, comma separated, decimal or 2^K (2^20,2^24)"},
	{.id = CMD_OPT_DTYPE},
	{.id = CMD_OPT_OP},
	{.id = O_COLS, .name = "cols", .arg = CMD_ARG_COUNT, .max = 1ull << 31, .metavar = "C",
	 .help = "rows of C elements (segmented reductions); n counts rows"},
	{.id = CMD_OPT_KERNEL, .help = "tune a kernel file of yours (repeatable; docs/kernels.md);\n"
				      "without VARIANT, every kernel of the files"},
	{.id = CMD_OPT_KERNELS},
	{0},
};

/* The search, the measurement and the output: the same for both. */
static const struct cmd_option search_options[] = {
	{.id = O_STRATEGY, .name = "strategy", .arg = CMD_ARG_TEXT, .metavar = "S",
	 .help = "exhaustive (default), random or anneal"},
	{.id = CMD_OPT_BUDGET},
	{.id = O_TIME, .name = "time", .arg = CMD_ARG_SECONDS, .metavar = "SEC",
	 .help = "time limit per search instead of a budget"},
	{.id = CMD_OPT_SEED, .help = "search and input seed (default 1)"},
	{.id = CMD_OPT_OBJECTIVE,
	 .help = "what the search minimises, and each variant's best is\n"
		 "best by: time (default), energy (J per launch) or edp"},
	{.id = O_FRESH, .name = "fresh", .help = "measure again what the database already has"},
	{.id = CMD_OPT_MIN_SAMPLES},
	{.id = O_MAX_NOISE, .name = "max-noise", .arg = CMD_ARG_TEXT, .metavar = "F",
	 .help = "stop sampling once the median's 95 % interval is\nwithin this fraction of it (default 0.005)"},
	{.id = CMD_OPT_MAX_TIME},
	{.id = O_HOT, .name = "hot", .help = "keep the L2 cache warm between launches"},
	{.id = O_NO_ENERGY, .name = "no-energy",
	 .help = "measure no energy, power or clocks (no burst of\n"
		 "launches after the samples; no energy columns)"},
	{.id = CMD_OPT_TIMEOUT,
	 .help = "deadline of one evaluation, plus 40 ns per element for\n"
		 "the input and its check on the host, plus 3 s for the\n"
		 "energy burst unless --no-energy (default 10)"},
	{.id = CMD_OPT_CSV, .synopsis = "--csv, --json",
	 .help = "machine-readable rows on stdout (the summary goes to stderr)"},
	{.id = CMD_OPT_JSON, .unlisted = 1}, /* on the --csv line */
	{.id = CMD_OPT_DB},
	{.id = CMD_OPT_DEVICE},
	{.id = CMD_OPT_DEVICES,
	 .help = "tune on each of these GPUs at once (0,1 or 0-3 or all), a\n"
		 "conform per GPU; a best configuration is per GPU"},
	{.id = CMD_OPT_VERBOSE},
	{.id = CMD_OPT_TAG},
	{0},
};

const struct cmd_option tune_cli_options[] = {
	{.include = problem_options},
	{.include = search_options},
	{0},
};

/* bench knows the problem options only to refuse them (tune_cli_set). */
const struct cmd_option bench_cli_options[] = {
	{.include = problem_options, .unlisted = 1},
	{.include = search_options},
	{0},
};

const char tune_cli_help_tail[] =
	"exit: 0 all evaluations ran, 1 some failed, hung or crashed, 2 usage or input error,\n"
	"      77 no CUDA device for the variants, 130 interrupted\n";

static int parse_fraction(const char *flag, const char *text, double *out)
{
	double v;
	if (num_parse_decimal(text, &v) < 0 || !(v > 0) || v > 1) {
		cmd_error("%s: expected a fraction in (0, 1] such as 0.01, got '%s'", flag, text);
		return -1;
	}
	*out = v;
	return 0;
}

static void defaults(struct tune_cli *c, int bench)
{
	memset(c, 0, sizeof *c);
	c->bench = bench;
	c->o.op = OP_SUM;
	c->o.seed = 1;
	c->o.strategy = tune_strategy_find("exhaustive");
	stats_request_defaults(&c->o.timing);
	c->timeout_s = SESSION_TIMEOUT_S;
	c->format = EMIT_TABLE;
	if (bench) {
		static const int64_t sizes[] = {1LL << 20, 1LL << 24, 1LL << 28, 1LL << 30};
		c->pattern = "device.*";
		/* The preset is a flat sum; the row reductions are tuned with
		 * conform tune 'device.rows_*' --cols C. */
		c->exclude = "device.rows_*";
		memcpy(c->sizes, sizes, sizeof sizes);
		c->nsizes = sizeof sizes / sizeof sizes[0];
		c->o.dtype = DTYPE_F32;
	}
}

/* What tune_cli_set fills: the command, and what its checks need to know
 * was given. */
struct tune_parse {
	struct tune_cli *c;
	int have_dtype, budget_given, time_given;
};

int tune_cli_set(void *opts, int id, const struct cmd_value *v)
{
	struct tune_parse *p = opts;
	struct tune_cli *c = p->c;
	/* The problem is bench's preset, not an option of it. */
	if (c->bench && (id == O_N || id == CMD_OPT_DTYPE || id == CMD_OPT_OP || id == O_COLS ||
			 id == CMD_OPT_KERNEL || id == CMD_OPT_KERNELS)) {
		cmd_error("bench: %s is fixed by the preset (use conform tune)", v->flag);
		return -1;
	}
	switch (id) {
	case O_N: return cmd_parse_sizes(v->flag, v->text, c->sizes, TUNE_SIZES_MAX, &c->nsizes);
	case CMD_OPT_DTYPE:
		c->o.dtype = v->dtype;
		p->have_dtype = 1;
		break;
	case CMD_OPT_OP: c->o.op = v->op; break;
	case O_COLS: c->o.cols = (int64_t)v->u; break;
	case O_STRATEGY:
		c->o.strategy = tune_strategy_find(v->text);
		if (!c->o.strategy) {
			cmd_error("--strategy: unknown strategy '%s' (%s)", v->text, tune_strategy_list());
			return -1;
		}
		break;
	case CMD_OPT_BUDGET:
		c->o.budget = v->u;
		p->budget_given = 1;
		break;
	case O_TIME:
		c->o.time_limit_s = v->seconds;
		p->time_given = 1;
		break;
	case CMD_OPT_SEED: c->o.seed = v->u; break;
	case O_FRESH: c->o.fresh = 1; break;
	case CMD_OPT_MIN_SAMPLES: c->o.timing.min_samples = (int)v->u; break;
	case O_MAX_NOISE: return parse_fraction(v->flag, v->text, &c->o.timing.max_noise);
	case CMD_OPT_MAX_TIME: c->o.timing.max_time_s = v->seconds; break;
	case O_HOT: c->o.timing.hot = 1; break;
	case CMD_OPT_OBJECTIVE: c->o.objective = v->objective; break;
	case O_NO_ENERGY: c->o.timing.energy = 0; break;
	case CMD_OPT_TIMEOUT: c->timeout_s = v->seconds; break;
	case CMD_OPT_CSV:
	case CMD_OPT_JSON: return cmd_format_set(&c->format, id, v);
	case CMD_OPT_DB: c->db_path = v->text; break;
	case CMD_OPT_DEVICE:
	case CMD_OPT_DEVICES: return cmd_devices_set(&c->device, &c->device_given, &c->devices, id, v);
	case CMD_OPT_VERBOSE: c->verbose = 1; break;
	case CMD_OPT_TAG: c->tag = v->text; break;
	case CMD_OPT_KERNEL:
	case CMD_OPT_KERNELS: return cmd_kernel_set(&c->kernels, id, v);
	}
	return 0;
}

int tune_cli_parse(int argc, char **argv, int bench, struct tune_cli *c)
{
	const char *cmd = bench ? "bench" : "tune";
	struct tune_parse p = {.c = c};
	int operand;
	defaults(c, bench);
	int r = cmd_parse(bench ? &cmd_bench_entry : &cmd_tune_entry, argc, argv, &p, &operand);
	if (r != 0)
		return r;
	if (!bench) {
		if (operand == argc && !c->kernels.n) {
			cmd_error("tune: which variant? (conform tune VARIANT|GLOB --n LIST --dtype T)");
			return EXIT_USAGE;
		}
		/* The kernel files' variants, all of them unless one is named. */
		c->pattern = operand < argc ? argv[operand] : "user.*";
	}
	if (!bench && !c->nsizes) {
		cmd_error("tune: --n LIST is required (sizes such as 2^20,2^24)");
		return EXIT_USAGE;
	}
	if (!bench && !p.have_dtype) {
		cmd_error("tune: --dtype is required (f32, f64, i32, u32, bf16)");
		return EXIT_USAGE;
	}
	if (!c->o.timing.energy && c->o.objective != OBJECTIVE_TIME) {
		cmd_error("%s: --objective %s needs the energy measured: leave out --no-energy", cmd,
			  objective_name(c->o.objective));
		return EXIT_USAGE;
	}
	if (p.budget_given && p.time_given) {
		cmd_error("%s: --budget and --time exclude each other", cmd);
		return EXIT_USAGE;
	}
	/* A measurement may sample for max_time_s: a deadline below that
	 * would kill healthy evaluations as hung. */
	if (c->timeout_s <= c->o.timing.max_time_s) {
		cmd_error("%s: --timeout (%g s) must exceed --max-time (%g s)", cmd, c->timeout_s,
			  c->o.timing.max_time_s);
		return EXIT_USAGE;
	}
	if (c->o.timing.max_samples < c->o.timing.min_samples)
		c->o.timing.max_samples = c->o.timing.min_samples;
	return 0;
}

static int is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* Checks that a variant's space parses; prints the error. */
static int space_ok(const struct catalog_entry *e)
{
	char err[CMD_ERR_MAX];
	struct tune_space *space = malloc(sizeof *space);
	int ok = space && tune_space_parse(space, e->space, err, sizeof err) == 0;
	if (!space)
		cmd_error("out of memory");
	else if (!ok)
		cmd_error("%s: %s", e->name, err);
	free(space);
	return ok;
}

/*
 * The variants to tune: an exact name is taken whatever it is (a variant
 * without a space runs once, at its defaults); a glob takes the variants
 * that have a tuning space and support the dtype, leaving out the families'
 * references (they are measured with every sweep anyway).  Returns the
 * count, or -1 with the exit code in *rc.
 */
static long select_variants(const struct tune_cli *c, const struct catalog *cat,
			    const struct catalog_entry **out, int *rc)
{
	const struct catalog_entry *e = catalog_lookup(cat, c->pattern);
	long n = 0;
	*rc = EXIT_USAGE;
	if (e) {
		if (!session_variant_has_dtype(e, c->o.dtype)) {
			cmd_error("%s does not support dtype %s (it has %s)", e->name,
				  dtype_name(c->o.dtype), e->dtypes);
			return -1;
		}
		if (!space_ok(e))
			return -1;
		out[0] = e;
		return 1;
	}
	int glob = is_glob(c->pattern), matched = 0;
	for (size_t i = 0; glob && i < cat->count; i++) {
		e = &cat->v[i];
		if (!suite_glob_any(e->name, &c->pattern, 1) ||
		    (c->exclude && suite_glob_any(e->name, &c->exclude, 1)))
			continue;
		matched++;
		if (!e->space[0] || tune_is_reference(cat, e->name) || !session_variant_has_dtype(e, c->o.dtype))
			continue;
		if (!space_ok(e))
			return -1;
		out[n++] = e;
	}
	if (n > 0)
		return n;
	/* Without CUDA the device families are simply not built: that is the
	 * "no device" case, not a typo. */
	if (!cat->has_kernels && strncmp(c->pattern, "harness.", 8) != 0) {
		cmd_error("conform was built without CUDA kernels: nothing matches '%s' here",
			  c->pattern);
		*rc = EXIT_NO_DEVICE;
	} else if (matched) {
		cmd_error("no variant matching '%s' has a tuning space and supports %s", c->pattern,
			  dtype_name(c->o.dtype));
	} else {
		cmd_error("unknown variant '%s' (conform --variants lists them)", c->pattern);
	}
	return -1;
}

/* The live progress line on stderr, with the current search's ETA. */
struct progress {
	int on;
	char where[48];         /* "n=2^20 f32" */
	char variant[64];
	double start, last;
};

static void progress_draw(void *ctx, const char *variant, uint64_t done, uint64_t total)
{
	struct progress *p = ctx;
	double now = text_now();
	if (strcmp(p->variant, variant) != 0 || done <= 1) {
		text_copy(p->variant, sizeof p->variant, variant);
		p->start = p->last;
	}
	p->last = now;
	if (!p->on)
		return;
	char eta[32] = "";
	if (done > 0 && total > done)
		snprintf(eta, sizeof eta, " ETA %.0fs",
			 (now - p->start) / (double)done * (double)(total - done));
	fprintf(stderr, "\r\033[K[%s] %s %llu/%llu%s", p->where, variant, (unsigned long long)done,
		(unsigned long long)total, eta);
	fflush(stderr);
}

static void progress_clear(struct progress *p)
{
	if (p->on) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
}

/* Drops the variants that need a GPU when there is none; returns how many
 * were dropped. */
static size_t drop_gpu_variants(const struct tune_session *s, const struct catalog_entry **v,
				size_t *n)
{
	size_t kept = 0, dropped = 0;
	for (size_t i = 0; i < *n; i++) {
		if (v[i]->gpu && !s->run.rn.rc.has_gpu) {
			fprintf(stderr, "conform: skipping %s: %s\n", v[i]->name, s->run.rn.rc.nodev_reason);
			dropped++;
		} else {
			v[kept++] = v[i];
		}
	}
	*n = kept;
	return dropped;
}

/* The opening lines: the device, what is tuned, and where the results go
 * (without --db, a default file the user never named). */
static void describe(FILE *f, const struct tune_cli *c, const struct tune_session *s, size_t nv,
		     const char *db_path)
{
	const struct run_context *rc = &s->run.rn.rc;
	if (rc->has_gpu)
		fprintf(f, "device %d: %s (sm_%d%d, %d SMs)", rc->gpu.index, rc->gpu.name,
			rc->gpu.cc_major, rc->gpu.cc_minor, rc->gpu.sm_count);
	else
		fprintf(f, "host (no GPU)");
	fprintf(f, "; tuning %zu variant%s at %zu size%s, %s, seed %llu%s%s%s%s\n", nv,
		nv == 1 ? "" : "s", c->nsizes, c->nsizes == 1 ? "" : "s", tune_strategy_name(c->o.strategy),
		(unsigned long long)c->o.seed, c->o.fresh ? ", fresh" : "",
		c->o.objective != OBJECTIVE_TIME ? ", by " : "",
		c->o.objective != OBJECTIVE_TIME ? objective_name(c->o.objective) : "",
		c->o.timing.energy ? "" : ", no energy");
	fprintf(f, "results in %s\n", db_path);
	fflush(f);
}

/* What the steps of tune_cli_run share (tune_job_free frees it). */
struct tune_job {
	struct tune_cli *c;
	struct cmd_inputs in;                   /* the worker and its catalog, the database */
	const struct catalog_entry **variants;  /* what is tuned, variants[0..count) */
	size_t count;
	int no_device;                          /* variants needing a GPU were dropped */
	struct tune_session *s;
	struct tune_sweep *sweeps;              /* one per size, sweeps[0..nsweeps) run */
	size_t nsweeps;
	char *cmdline;                          /* the command line the run is stored with */
};

/* Several devices: a tune on each, side by side (one named is
 * c->device, cmd_devices_set).  The database is made ready (created, its
 * schema, WAL) here first: two conforms making one new file at once could
 * each wait out the other's lock and give up (seen 1 in 8 on a loaded
 * machine).  Returns the exit code. */
static int tune_cli_fanout(struct tune_cli *c, int argc, char **argv)
{
	struct cmd_inputs in = {.kernels = &c->kernels, .db_given = c->db_path};
	int rc = cmd_inputs_open(&in, CMD_INPUTS_DB);
	cmd_inputs_close(&in);
	return rc != 0 ? rc : cmd_fanout(argc, argv, &c->devices, c->format);
}

/* The worker and its catalog, the variants to tune, the database.
 * Returns 0, or the exit code after the error. */
static int tune_cli_prepare(struct tune_job *j, int argc, char **argv)
{
	struct tune_cli *c = j->c;
	int rc;
	if (cmd_inputs_open(&j->in, CMD_INPUTS_WORKER) != 0)
		return EXIT_USAGE;
	j->variants = calloc(j->in.cat.count ? j->in.cat.count : 1, sizeof *j->variants);
	j->sweeps = calloc(c->nsizes, sizeof *j->sweeps);
	j->s = calloc(1, sizeof *j->s);
	j->cmdline = cmd_join_args(argc, argv);
	if (!j->variants || !j->sweeps || !j->s || !j->cmdline) {
		cmd_error("out of memory");
		return EXIT_USAGE;
	}
	long nv = select_variants(c, &j->in.cat, j->variants, &rc);
	if (nv < 0)
		return rc;
	j->count = (size_t)nv;
	return cmd_inputs_open(&j->in, CMD_INPUTS_DB);
}

/* The tune's session, the variants it cannot run here dropped, and its
 * run begun.  Returns 0, or the exit code after the error. */
static int tune_cli_start(struct tune_job *j, const volatile sig_atomic_t *stop)
{
	struct tune_cli *c = j->c;
	char err[CMD_ERR_MAX];
	/* tune_open adds the search's seed and timing. */
	struct session_config cfg;
	session_config_init(&cfg, j->in.worker_path, &j->in.cat, j->in.db, stop, j->cmdline);
	cfg.device = c->device;
	cfg.verbose = c->verbose;
	cfg.timeout_s = c->timeout_s;
	cfg.kind = c->bench ? RUN_BENCH : RUN_TUNE;
	cfg.tag = c->tag;
	cfg.kernels = &c->kernels;
	if (tune_open(j->s, &c->o, &cfg, err, sizeof err) < 0) {
		cmd_error("%s", err);
		return *stop ? EXIT_INTERRUPTED : EXIT_USAGE;
	}
	j->no_device = drop_gpu_variants(j->s, j->variants, &j->count) > 0;
	if (j->count == 0) {
		cmd_error("cannot tune '%s': %s", c->pattern, j->s->run.rn.rc.nodev_reason);
		return EXIT_NO_DEVICE;
	}
	if (tune_begin(j->s, err, sizeof err) < 0) {
		cmd_error("%s", err);
		return EXIT_USAGE;
	}
	return 0;
}

/* A sweep of the variants at each size, each printed as it ends (bench's
 * one table at the end), the summary, and the session closed.  Returns
 * the exit code. */
static int tune_cli_sweep_all(struct tune_job *j, const volatile sig_atomic_t *stop)
{
	struct tune_cli *c = j->c;
	struct tune_session *s = j->s;
	char err[CMD_ERR_MAX];
	int interrupted = 0;
	struct tune_printer pr = {.f = stdout, .format = c->format, .o = &c->o,
				  .device = s->run.rn.rc.has_gpu ? s->run.rn.rc.gpu.index : -1};
	FILE *human = c->format == EMIT_TABLE ? stdout : stderr;
	struct progress prog = {.on = isatty(STDERR_FILENO) && !c->verbose, .last = text_now()};
	s->progress.fn = progress_draw;
	s->progress.ctx = &prog;
	describe(human, c, s, j->count, j->in.db_path);

	for (size_t i = 0; i < c->nsizes; i++) {
		char size[32];
		text_count(size, sizeof size, c->sizes[i]);
		snprintf(prog.where, sizeof prog.where, "n=%s %s", size, dtype_name(c->o.dtype));
		int r = tune_sweep_run(s, j->variants, j->count, c->sizes[i], &j->sweeps[i], err, sizeof err);
		j->nsweeps = i + 1;
		progress_clear(&prog);
		if (!c->bench)
			tune_print_sweep(&pr, &j->sweeps[i]);
		if (r < 0) {
			/* A stop while waiting for the database's lock is an
			 * interruption, said in err. */
			cmd_error("%s", err);
			int rc = *stop ? EXIT_INTERRUPTED : EXIT_USAGE;
			tune_close(s, 1, err, sizeof err);
			return rc;
		}
		if (r > 0) {
			interrupted = 1;
			break;
		}
	}
	if (c->bench)
		tune_print_bench(&pr, j->sweeps, j->nsweeps);
	tune_print_summary(&pr, human, s, interrupted);
	if (tune_close(s, interrupted, err, sizeof err) < 0) {
		cmd_error("%s", err);
		return EXIT_USAGE;
	}
	if (interrupted)
		return EXIT_INTERRUPTED;
	if (s->shown.tally[TALLY_FAILED])
		return EXIT_UNEXPECTED;
	return j->no_device ? EXIT_NO_DEVICE : EXIT_CONFORMANT;
}

static void tune_job_free(struct tune_job *j)
{
	char err[CMD_ERR_MAX];
	if (j->s)
		tune_close(j->s, 1, err, sizeof err);
	for (size_t i = 0; i < j->nsweeps; i++)
		tune_sweep_free(&j->sweeps[i]);
	free(j->sweeps);
	free(j->s);
	free(j->variants);
	free(j->cmdline);
	cmd_inputs_close(&j->in);
}

int tune_cli_run(struct tune_cli *c, int argc, char **argv)
{
	if (c->devices.all || c->devices.n > 1)
		return tune_cli_fanout(c, argc, argv);
	struct tune_job j;
	memset(&j, 0, sizeof j);
	j.c = c;
	j.in.kernels = &c->kernels;
	j.in.db_given = c->db_path;
	int rc = tune_cli_prepare(&j, argc, argv);
	if (rc == 0) {
		const volatile sig_atomic_t *stop = cmd_catch_stop();
		rc = tune_cli_start(&j, stop);
		if (rc == 0)
			rc = tune_cli_sweep_all(&j, stop);
	}
	tune_job_free(&j);
	return rc;
}
