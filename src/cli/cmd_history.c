/*
 * cmd_history.c - "conform history": how a kernel's best got there.
 *
 *   conform history KERNEL [--n N] [--dtype T] [--op O] [--device NAME] [--json|--csv]
 *
 * For each device, dtype, op and size, one line per run that timed the
 * kernel (a variant or a glob: the best across matching variants in that
 * run): when, which build, the run's best configuration, its median and
 * GB/s, and what changed since the run before (the median, in percent, and
 * whether the configuration moved).  A resumed tune that measured nothing
 * new has no line of its own.  --csv and --json add that result's noise
 * and robust figures (spread, interval, noise_met, throttled, timer) under
 * the names tune's rows give them.
 */
#include <stdio.h>
#include <string.h>

#include "best.h"
#include "cmd.h"
#include "emit.h"
#include "lookup_opts.h"
#include "text.h"
#include "timing.h"

static const struct cmd_option history_options[] = {
	{.id = LOOKUP_OPT_N, .name = "n", .arg = CMD_ARG_TEXT, .metavar = "N",
	 .help = "only this size (decimal or 2^K)"},
	{.id = CMD_OPT_DTYPE, .synopsis = "--dtype T, --op O", .help = "only this element type, operator"},
	{.id = CMD_OPT_OP, .unlisted = 1}, /* on the --dtype line */
	{.include = lookup_options},
	{0},
};

struct history {
	enum emit_format format;
	struct emit_rows out;         /* --csv, --json */
	size_t rows;
	struct db_tuned_row prev;     /* the previous row, for grouping and changes */
};

static int same_problem(const struct db_tuned_row *a, const struct db_tuned_row *b)
{
	return a->device_id == b->device_id && strcmp(a->dtype, b->dtype) == 0 &&
	       strcmp(a->op, b->op) == 0 && a->n == b->n && a->cols == b->cols;
}

static int print_row(void *ctx, const struct db_tuned_row *r)
{
	struct history *h = ctx;
	char config[256], size[48], change[96] = "";
	int continues = h->rows > 0 && same_problem(&h->prev, r);
	lookup_config(r, config, sizeof config);
	lookup_size(r, size, sizeof size);
	double pct = 0;
	int moved = 0;
	if (continues) {
		pct = (r->median_ms / h->prev.median_ms - 1) * 100;
		moved = strcmp(r->variant, h->prev.variant) != 0 ||
			strcmp(r->params, h->prev.params) != 0;
		/* A kernel file edited between the runs (its source hash). */
		int edited = strcmp(r->variant, h->prev.variant) == 0 &&
			     strcmp(r->source, h->prev.source) != 0;
		snprintf(change, sizeof change, "%+.1f%%%s%s", pct, moved ? ", new configuration" : "",
			 edited ? ", source edited" : "");
	}
	if (h->format == EMIT_TABLE) {
		if (!continues)
			printf("%s%s %s %s n=%s\n  %-20s  %-14s  %-16s  %-28s  %11s  %8s  %s\n",
			       h->rows ? "\n" : "", db_device_label(r->device), r->dtype,
			       r->op[0] ? r->op : "-", size, "date", "build", "variant", "configuration",
			       "median (µs)", "GB/s", "change");
		/* A kernel file's build is its source: the first 12 digits of its hash. */
		char build[72];
		if (r->source[0])
			snprintf(build, sizeof build, "src %.10s", r->source);
		else
			snprintf(build, sizeof build, "%s", r->git_revision[0] ? r->git_revision : "-");
		printf("  %-20s  %-14s  %-16s  %-28s  %11.2f  %8.2f  %s\n", r->measured_at, build,
		       r->variant, config,
		       r->median_ms * 1e3, r->gbps, change);
	} else {
		/* One column list for --csv and --json; the change is missing
		 * (empty, null) on a problem's first run.  The robust figures
		 * are the run's best result's, named as in tune's rows. */
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
			EMIT_BOOL("noise_met", r->robust.noise_met),
			EMIT_INT("throttled", r->robust.throttled),
			EMIT_STR("timer", timing_timer_name(r->robust.timer)),
			continues ? EMIT_REAL("change_pct", pct) : EMIT_NULL("change_pct"),
			continues ? EMIT_BOOL("config_changed", moved) : EMIT_NULL("config_changed"),
		};
		emit_row(&h->out, fields, sizeof fields / sizeof fields[0]);
	}
	h->prev = *r;
	h->rows++;
	return 0;
}

static int history_exec(int argc, char **argv)
{
	struct lookup_opts o;
	struct db *db;
	char path[4096], err[CMD_ERR_MAX];
	int r = lookup_opts_parse(&cmd_history_entry, argc, argv, &o);
	if (r != 0)
		return r;
	if (lookup_db_open(&o, path, sizeof path, &db) < 0)
		return EXIT_USAGE;
	struct history h = {.format = o.format, .out = {.f = stdout, .format = o.format}};
	if (db_history_each(db, &o.q, print_row, &h, err, sizeof err) < 0) {
		cmd_error("%s", err);
		db_close(db);
		return EXIT_USAGE;
	}
	if (h.rows == 0) {
		best_explain_none(db, path, &o.q, 1, err, sizeof err);
		cmd_error("%s", err);
		db_close(db);
		return EXIT_USAGE;
	}
	db_close(db);
	return 0;
}

const struct cmd_entry cmd_history_entry = {
	.name = "history",
	.usage = "history KERNEL [options]",
	.summary = "how the best configuration changed across runs and builds",
	.exec = history_exec,
	.options = history_options,
	.help_head = "usage: conform history KERNEL [--n N] [--dtype T] [--op O] [--device NAME] [--json|--csv]\n"
		     "  KERNEL                a variant, or a glob: the best across matching variants per run\n",
	.help_tail = "exit: 0 found, 2 usage error, empty database or nothing tuned for KERNEL\n",
	.operands = 1,
	.set = lookup_set,
};
