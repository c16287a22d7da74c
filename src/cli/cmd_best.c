/*
 * cmd_best.c - "conform best": the fastest known configuration of a kernel,
 * or the most frugal one.
 *
 *   conform best KERNEL --n N [--dtype T] [--op O] [--gpu NAME] [--objective O] [--json|--csv]
 *
 * Answers from the database alone (no worker, no GPU), through the view
 * best_configs: for each device, dtype and op with results, the fastest
 * correct timed configuration at n, or at the nearest tuned size, saying
 * so.  KERNEL may be a glob: the best across the matching variants.  Meant
 * to be fast enough for scripts and build systems to call per kernel
 * (tests/test_best.c holds it under 50 ms on 100k results).  --objective
 * energy or edp ranks every timed result instead (tune/best.h) and adds
 * the energy figures to the output; by time the output is what it always
 * was.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/lookup_opts.h"
#include "common/text.h"
#include "report/emit.h"
#include "report/emit_energy.h"
#include "tune/best.h"
#include "tune/tune_energy.h"

static const struct cmd_option best_options[] = {
	{.id = LOOKUP_OPT_N, .name = "n", .arg = CMD_ARG_TEXT, .metavar = "N",
	 .help = "problem size, decimal or 2^K; the nearest tuned size when N\nwas not tuned"},
	{.id = CMD_OPT_DTYPE, .synopsis = "--dtype T, --op O",
	 .help = "only this element type, operator (default: each tuned one)"},
	{.id = CMD_OPT_OP, .unlisted = 1}, /* on the --dtype line */
	{.id = CMD_OPT_OBJECTIVE,
	 .help = "best by time (default), energy (J per launch) or edp\n(energy x time)"},
	{.include = lookup_options},
	{0},
};

/* By energy or edp: a row's energy per launch in the table's unit (u) and
 * its average power, "-" when not measured; the table's header names the
 * unit. */
static void energy_cells(const struct db_tuned_row *r, const struct tune_energy_unit *u)
{
	if (energy_measured(&r->energy))
		printf("  %10.3f", r->energy.joules * u->per_joule);
	else
		printf("  %10s", "-");
	if (energy_measured(&r->energy) && r->energy.watts > 0)
		printf("  %6.1f", r->energy.watts);
	else
		printf("  %6s", "-");
}

static void print_table(const struct best_answer *a, size_t n, enum objective o)
{
	struct tune_energy_unit unit;
	char unit_title[16];
	double max_j = 0;
	/* Columns as wide as their widest entry (lookup_widen). */
	int wd = 6, wv = 7, wc = 13, ws = 8;
	char config[CASE_PARAMS_MAX], size[48], note[48];
	for (size_t i = 0; i < n; i++) {
		lookup_config(&a[i].row, config, sizeof config);
		lookup_size(&a[i].row, size, sizeof size);
		lookup_widen(&wd, db_device_label(a[i].row.device));
		lookup_widen(&wv, a[i].row.variant);
		lookup_widen(&wc, config);
		lookup_widen(&ws, size);
		if (energy_measured(&a[i].row.energy) && a[i].row.energy.joules > max_j)
			max_j = a[i].row.energy.joules;
	}
	tune_energy_unit(max_j, &unit);
	snprintf(unit_title, sizeof unit_title, "%s/launch", unit.name);
	if (o != OBJECTIVE_TIME)
		printf("best by %s: %s\n", objective_name(o), tune_objective_rule(o));
	for (size_t i = 0; i < n; i++) {
		if (a[i].exact)
			continue;
		text_count(note, sizeof note, a[i].requested_n);
		text_count(size, sizeof size, a[i].row.n);
		printf("no result at n=%s; nearest tuned size %s", note, size);
		if (n > 1)
			printf(" (%s %s %s)", db_device_label(a[i].row.device), a[i].row.dtype, a[i].row.op);
		putchar('\n');
	}
	printf("%-*s  %-*s  %-*s  %-5s  %-3s  %-*s  %11s  %8s  %6s", wd, "device", wv, "variant", ws, "n",
	       "dtype", "op", wc, "configuration", "median (µs)", "GB/s", "noise");
	/* "µJ/launch": µ is two bytes in one column, and printf pads bytes. */
	if (o != OBJECTIVE_TIME)
		printf("  %*s  %6s", 10 + (strstr(unit_title, "µ") ? 1 : 0), unit_title, "W");
	printf("  %-20s  %s\n", "measured", "build");
	for (size_t i = 0; i < n; i++) {
		const struct db_tuned_row *r = &a[i].row;
		lookup_config(r, config, sizeof config);
		lookup_size(r, size, sizeof size);
		/* As wide as "median (µs)", 11 columns in 12 bytes. */
		printf("%-*s  %-*s  %-*s  %-5s  %-3s  %-*s  %11.2f  %8.2f  %5.1f%%", wd,
		       db_device_label(r->device), wv, r->variant, ws, size, r->dtype, r->op[0] ? r->op : "-", wc,
		       config, r->median_ms * 1e3, r->gbps, r->noise * 100);
		if (o != OBJECTIVE_TIME)
			energy_cells(r, &unit);
		printf("  %-20s  %s\n", r->measured_at, r->git_revision[0] ? r->git_revision : "-");
	}
}

/* --csv and --json: the same columns; by energy or edp the energy figures
 * and the objective after them. */
static void print_rows(const struct best_answer *a, size_t n, enum emit_format format, enum objective o)
{
	struct emit_rows rows = {.f = stdout, .format = format};
	char config[CASE_PARAMS_MAX], reasons[EMIT_ENERGY_TEXT];
	for (size_t i = 0; i < n; i++) {
		const struct db_tuned_row *r = &a[i].row;
		lookup_config(r, config, sizeof config);
		struct emit_field fields[17 + EMIT_ENERGY_FIELDS + 1] = {
			EMIT_STR("device", db_device_label(r->device)),
			EMIT_STR("variant", r->variant),
			EMIT_STR("dtype", r->dtype),
			EMIT_STR("op", r->op),
			EMIT_INT("n", r->n),
			EMIT_INT("cols", r->cols),
			EMIT_INT("requested_n", a[i].requested_n),
			EMIT_BOOL("exact", a[i].exact),
			EMIT_STR("config", config),
			EMIT_STR("params", r->params),
			EMIT_REAL("median_us", r->median_ms * 1e3),
			EMIT_REAL("gbps", r->gbps),
			EMIT_REAL("noise", r->noise),
			EMIT_STR("measured_at", r->measured_at),
			EMIT_STR("git_revision", r->git_revision),
			EMIT_INT("run_id", r->run_id),
			EMIT_INT("result_id", r->result_id),
		};
		size_t nf = 17;
		if (o != OBJECTIVE_TIME) {
			nf += emit_energy_fields(&r->energy, fields + nf, reasons, sizeof reasons);
			fields[nf++] = EMIT_STR("objective", objective_name(o));
		}
		emit_row(&rows, fields, nf);
	}
}

static int best_exec(int argc, char **argv)
{
	struct lookup_opts o;
	struct db *db;
	struct best_answer *a = NULL;
	size_t n = 0;
	char path[4096], err[CMD_ERR_MAX];
	int r = lookup_opts_parse(&cmd_best_entry, argc, argv, &o);
	if (r != 0)
		return r;
	if (o.q.n == 0) {
		cmd_error("best: --n N is required (the problem size, e.g. 2^24)");
		return EXIT_USAGE;
	}
	if (lookup_db_open(&o, path, sizeof path, &db) < 0)
		return EXIT_USAGE;
	if (best_lookup(db, &o.q, o.objective, &a, &n, err, sizeof err) < 0) {
		cmd_error("%s", err);
		db_close(db);
		return EXIT_USAGE;
	}
	if (n == 0) {
		best_explain_none(db, path, &o.q, 0, err, sizeof err);
		cmd_error("%s", err);
		free(a);
		db_close(db);
		return EXIT_USAGE;
	}
	if (o.format == EMIT_TABLE)
		print_table(a, n, o.objective);
	else
		print_rows(a, n, o.format, o.objective);
	free(a);
	db_close(db);
	return 0;
}

const struct cmd_entry cmd_best_entry = {
	.name = "best",
	.usage = "best KERNEL --n N [options]",
	.summary = "the fastest (or most frugal) known configuration, from the database",
	.exec = best_exec,
	.options = best_options,
	.help_head = "usage: conform best KERNEL --n N [--dtype T] [--op O] [--gpu NAME] [--objective O]\n"
		     "                    [--json|--csv]\n"
		     "  KERNEL                a variant, or a glob: the best across matching variants\n",
	.help_tail = "exit: 0 found, 2 usage error, empty database or nothing tuned for KERNEL\n",
	.operands = 1,
	.set = lookup_set,
};
