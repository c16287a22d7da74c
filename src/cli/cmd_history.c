/*
 * cmd_history.c - "conform history": how a kernel's best got there.
 *
 *   conform history KERNEL [--n N] [--dtype T] [--op O] [--gpu NAME] [--json|--csv]
 *
 * For each device, dtype, op and size, one line per run that timed the
 * kernel (a variant or a glob: the best across matching variants in that
 * run): when, which build, the run's best configuration, its median and
 * GB/s, and what changed since the run before (the median, in percent, and
 * whether the configuration moved).  A resumed tune that measured nothing
 * new has no line of its own.  --csv and --json add that result's noise
 * and robust figures (spread, interval, noise_met, throttled, timer) under
 * the names tune's rows give them.
 *
 * The table's text columns are as wide as their widest entry (a device.*
 * configuration runs long), so it is printed once every row is read: a
 * line per run and problem, few enough to hold.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/lookup_opts.h"
#include "common/text.h"
#include "common/timing.h"
#include "report/emit.h"
#include "tune/best.h"

static const struct cmd_option history_options[] = {
	{.id = LOOKUP_OPT_N, .name = "n", .arg = CMD_ARG_TEXT, .metavar = "N",
	 .help = "only this size (decimal or 2^K)"},
	{.id = CMD_OPT_DTYPE, .synopsis = "--dtype T, --op O", .help = "only this element type, operator"},
	{.id = CMD_OPT_OP, .unlisted = 1}, /* on the --dtype line */
	{.include = lookup_options},
	{0},
};

static int same_problem(const struct db_tuned_row *a, const struct db_tuned_row *b)
{
	return a->device_id == b->device_id && strcmp(a->dtype, b->dtype) == 0 &&
	       strcmp(a->op, b->op) == 0 && a->n == b->n && a->cols == b->cols;
}

/* What changed since the run before on the same problem. */
struct change {
	int continues;                /* there was a run before */
	double pct;                   /* the median's change, in percent */
	int moved;                    /* another variant or configuration */
	int edited;                   /* the same kernel file, edited between the runs (its source hash) */
};

/* rows[i]'s change; rows are in db_history_each's order, a problem's runs
 * one after the other. */
static struct change change_at(const struct db_tuned_row *rows, size_t i)
{
	struct change c = {0};
	const struct db_tuned_row *r = &rows[i], *prev = i > 0 ? &rows[i - 1] : NULL;
	if (!prev || !same_problem(prev, r))
		return c;
	c.continues = 1;
	c.pct = (r->median_ms / prev->median_ms - 1) * 100;
	c.moved = strcmp(r->variant, prev->variant) != 0 || strcmp(r->params, prev->params) != 0;
	c.edited = strcmp(r->variant, prev->variant) == 0 && strcmp(r->source, prev->source) != 0;
	return c;
}

/* A kernel file's build is its source: the first 12 digits of its hash. */
static void build_of(const struct db_tuned_row *r, char *buf, size_t len)
{
	if (r->source[0])
		snprintf(buf, len, "src %.10s", r->source);
	else
		snprintf(buf, len, "%s", r->git_revision[0] ? r->git_revision : "-");
}

static void print_table(const struct db_tuned_row *rows, size_t n)
{
	/* Columns as wide as their widest entry (lookup_widen), the same in
	 * every problem's table. */
	int wdate = 4, wbuild = 5, wv = 7, wc = 13;
	char config[CASE_PARAMS_MAX], build[72], size[48], change[96];
	for (size_t i = 0; i < n; i++) {
		lookup_config(&rows[i], config, sizeof config);
		build_of(&rows[i], build, sizeof build);
		lookup_widen(&wdate, rows[i].measured_at);
		lookup_widen(&wbuild, build);
		lookup_widen(&wv, rows[i].variant);
		lookup_widen(&wc, config);
	}
	for (size_t i = 0; i < n; i++) {
		const struct db_tuned_row *r = &rows[i];
		struct change c = change_at(rows, i);
		if (!c.continues) {
			lookup_size(r, size, sizeof size);
			printf("%s%s %s %s n=%s\n  %-*s  %-*s  %-*s  %-*s  %11s  %8s  %s\n", i ? "\n" : "",
			       db_device_label(r->device), r->dtype, r->op[0] ? r->op : "-", size, wdate,
			       "date", wbuild, "build", wv, "variant", wc, "configuration", "median (µs)",
			       "GB/s", "change");
			change[0] = '\0';
		} else {
			snprintf(change, sizeof change, "%+.1f%%%s%s", c.pct,
				 c.moved ? ", new configuration" : "", c.edited ? ", source edited" : "");
		}
		lookup_config(r, config, sizeof config);
		build_of(r, build, sizeof build);
		printf("  %-*s  %-*s  %-*s  %-*s  %11.2f  %8.2f  %s\n", wdate, r->measured_at, wbuild, build,
		       wv, r->variant, wc, config, r->median_ms * 1e3, r->gbps, change);
	}
}

/* One column list for --csv and --json; the change is missing (empty,
 * null) on a problem's first run.  The robust figures are the run's best
 * result's, named as in tune's rows. */
static void print_rows(const struct db_tuned_row *rows, size_t n, enum emit_format format)
{
	struct emit_rows out = {.f = stdout, .format = format};
	char config[CASE_PARAMS_MAX];
	for (size_t i = 0; i < n; i++) {
		const struct db_tuned_row *r = &rows[i];
		struct change c = change_at(rows, i);
		lookup_config(r, config, sizeof config);
		const struct emit_field fields[] = {
			EMIT_STR("device", db_device_label(r->device)),
			EMIT_STR("dtype", r->dtype),
			EMIT_STR("op", r->op),
			EMIT_INT("n", r->n),
			EMIT_INT("cols", r->cols),
			EMIT_STR("date", r->measured_at),
			EMIT_STR("git_revision", r->git_revision),
			EMIT_INT("run_id", r->run_id),
			EMIT_STR("variant", r->variant),
			r->source[0] ? EMIT_STR("source", r->source) : EMIT_NULL("source"),
			EMIT_STR("config", config),
			EMIT_REAL("median_us", r->median_ms * 1e3),
			EMIT_REAL("gbps", r->gbps),
			EMIT_REAL("noise", r->noise),
			EMIT_REAL("spread", r->robust.spread),
			EMIT_REAL("ci_low_us", r->robust.ci_low_ms * 1e3),
			EMIT_REAL("ci_high_us", r->robust.ci_high_ms * 1e3),
			r->robust.noise_met < 0 ? EMIT_NULL("noise_met")
						   : EMIT_BOOL("noise_met", r->robust.noise_met),
			EMIT_INT("throttled", r->robust.throttled),
			EMIT_STR("timer", timing_timer_name(r->robust.timer)),
			c.continues ? EMIT_REAL("change_pct", c.pct) : EMIT_NULL("change_pct"),
			c.continues ? EMIT_BOOL("config_changed", c.moved) : EMIT_NULL("config_changed"),
		};
		emit_row(&out, fields, sizeof fields / sizeof fields[0]);
	}
}

static int history_exec(int argc, char **argv)
{
	struct lookup_opts o;
	struct db *db;
	struct db_tuned_row *rows;
	size_t n;
	char path[4096], err[CMD_ERR_MAX];
	int r = lookup_opts_parse(&cmd_history_entry, argc, argv, &o);
	if (r != 0)
		return r;
	if (lookup_db_open(&o, path, sizeof path, &db) < 0)
		return EXIT_USAGE;
	if (best_history(db, &o.q, &rows, &n, err, sizeof err) < 0) {
		cmd_error("%s", err);
		db_close(db);
		return EXIT_USAGE;
	}
	if (n == 0) {
		best_explain_none(db, path, &o.q, 1, err, sizeof err);
		cmd_error("%s", err);
		free(rows);
		db_close(db);
		return EXIT_USAGE;
	}
	if (o.format == EMIT_TABLE)
		print_table(rows, n);
	else
		print_rows(rows, n, o.format);
	free(rows);
	db_close(db);
	return 0;
}

const struct cmd_entry cmd_history_entry = {
	.name = "history",
	.usage = "history KERNEL [options]",
	.summary = "how the best configuration changed across runs and builds",
	.exec = history_exec,
	.options = history_options,
	.help_head = "usage: conform history KERNEL [--n N] [--dtype T] [--op O] [--gpu NAME] [--json|--csv]\n"
		     "  KERNEL                a variant, or a glob: the best across matching variants per run\n",
	.help_tail = "exit: 0 found, 2 usage error, empty database or nothing tuned for KERNEL\n",
	.operands = 1,
	.set = lookup_set,
};
