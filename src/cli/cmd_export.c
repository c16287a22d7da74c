/*
 * cmd_export.c - "conform export": the best configurations into a user's
 * build.
 *
 *   conform export KERNEL --header FILE [--dtype T] [--op O] [--gpu NAME] [--objective O] [--db PATH]
 *   conform export KERNEL --json [...]
 *
 * KERNEL is a variant or a glob ('device.*').  --header writes a C header
 * of lookup tables (src/export/export_header.c); --json writes a line per
 * configuration, its tunables as an object.  Both at once is allowed.  The
 * header is written beside FILE and renamed over it, so a build never
 * reads half of one.  Reads the database alone: no worker, no GPU.
 * --objective energy or edp exports the best by that objective
 * (tune/best.h), and both outputs say so; by time they are what they were.
 */
#include "config.h"
#include "revision.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "cli/lookup_opts.h"
#include "common/text.h"
#include "common/whole_file.h"
#include "export/export.h"
#include "session/paths.h"
#include "tune/best.h"

enum { EXPORT_OPT_HEADER = CMD_OPT_OWN + 16 };

struct export_opts {
	struct lookup_opts lookup;  /* KERNEL, --dtype, --op, --gpu, --json, --db */
	const char *header;         /* --header FILE; "-" for stdout */
};

static const struct cmd_option export_options[] = {
	{.id = EXPORT_OPT_HEADER, .name = "header", .arg = CMD_ARG_TEXT, .metavar = "FILE",
	 .help = "write a C header of lookup tables (- for standard output)"},
	{.id = CMD_OPT_DTYPE, .synopsis = "--dtype T, --op O", .help = "only this element type, operator"},
	{.id = CMD_OPT_OP, .unlisted = 1}, /* on the --dtype line */
	{.id = LOOKUP_OPT_GPU, .name = "gpu", .arg = CMD_ARG_TEXT, .metavar = "NAME",
	 .help = "only devices whose name matches (a glob; \"host\" without GPU)"},
	{.id = LOOKUP_OPT_DEVICE, .name = "device", .arg = CMD_ARG_TEXT, .unlisted = 1}, /* refused */
	{.id = CMD_OPT_OBJECTIVE,
	 .help = "export the best by time (default), energy (J per launch)\nor edp (energy x time)"},
	{.id = CMD_OPT_JSON, .help = "a JSON line per configuration on standard output"},
	{.id = CMD_OPT_DB, .help = "result database"},
	{0},
};

static int export_set(void *opts, int id, const struct cmd_value *v)
{
	struct export_opts *o = opts;
	if (id == EXPORT_OPT_HEADER) {
		o->header = v->text;
		return 0;
	}
	return lookup_set(&o->lookup, id, v);
}

/* Where --header FILE goes, checked before anything is read: not the
 * database or its journal, and a regular file or a new name, written
 * through a temporary beside it (whole_file.h).  Returns 0 (hf open, or
 * unused for "-"), or -1 after the error. */
static int open_header(const char *header, const char *db_path, struct whole_file *hf)
{
	const char *which;

	memset(hf, 0, sizeof *hf);
	if (strcmp(header, "-") == 0)
		return 0;
	if (paths_is_database(header, db_path, &which)) {
		cmd_error("export: --header %s is the database%s (--db %s): choose another file", header,
			  which[0] ? "'s journal" : "", db_path);
		return -1;
	}
	if (whole_file_open(hf, header) < 0) {
		cmd_error("export: cannot write %s: %s", header, whole_file_why(hf, errno));
		return -1;
	}
	return 0;
}

/* The header into hf, renamed over its path, or to stdout for "-".
 * Returns 0, or -1 after the error (hf dropped). */
static int write_header(const char *path, struct whole_file *hf, const struct db_tuned_row *rows,
			size_t n, const struct export_meta *m)
{
	char err[CMD_ERR_MAX];
	FILE *f = strcmp(path, "-") == 0 ? stdout : hf->f;

	if (export_header_write(f, rows, n, m, err, sizeof err) < 0) {
		cmd_error("export: %s", err);
		return -1;
	}
	if (f == stdout)
		return fflush(stdout) == 0 ? 0 : -1;
	if (whole_file_commit(hf) < 0) {
		cmd_error("export: cannot write %s: %s", path, whole_file_why(hf, errno));
		return -1;
	}
	return 0;
}

static int export_exec(int argc, char **argv)
{
	struct export_opts o;
	struct db *db;
	char path[4096], err[CMD_ERR_MAX], when[32];
	int operand;

	memset(&o, 0, sizeof o);
	int r = cmd_parse(&cmd_export_entry, argc, argv, &o, &operand);
	if (r != 0)
		return r;
	if (operand == argc) {
		cmd_error("export: which kernel? (a variant or a glob, e.g. 'device.*')");
		return EXIT_USAGE;
	}
	o.lookup.q.pattern = argv[operand];
	if (!o.header && o.lookup.format != EMIT_JSON) {
		cmd_error("export: say what to write: --header FILE, --json, or both");
		return EXIT_USAGE;
	}
	if (o.header && o.lookup.format == EMIT_JSON && strcmp(o.header, "-") == 0) {
		cmd_error("export: --header - and --json would both write to standard output");
		return EXIT_USAGE;
	}
	if (lookup_db_open(&o.lookup, path, sizeof path, &db) < 0)
		return EXIT_USAGE;
	struct whole_file hf = {0};
	if (o.header && open_header(o.header, path, &hf) < 0) {
		db_close(db);
		return EXIT_USAGE;
	}

	struct db_tuned_row *rows;
	size_t count;
	int rc = EXIT_USAGE;
	if (best_rows(db, &o.lookup.q, o.lookup.objective, &rows, &count, err, sizeof err) < 0) {
		cmd_error("export: %s", err);
		whole_file_abort(&hf);
		db_close(db);
		return EXIT_USAGE;
	}
	if (count == 0) {
		best_explain_none(db, path, &o.lookup.q, 0, err, sizeof err);
		cmd_error("%s", err);
		goto out;
	}
	text_utc_iso(when, sizeof when, time(NULL));
	const char *base = o.header ? strrchr(o.header, '/') : NULL;
	const struct export_meta m = {
		.pattern = o.lookup.q.pattern,
		.db_path = path,
		.version = PACKAGE_VERSION,
		.revision = CONFORM_GIT_REVISION,
		.generated_at = when,
		.header_name = base ? base + 1 : o.header && strcmp(o.header, "-") ? o.header : "best.h",
		.objective = o.lookup.objective,
	};
	if (o.header && write_header(o.header, &hf, rows, count, &m) < 0)
		goto out;
	if (o.lookup.format == EMIT_JSON) {
		if (export_json_write(stdout, rows, count, o.lookup.objective, err, sizeof err) < 0) {
			cmd_error("export: %s", err);
			goto out;
		}
	}
	rc = 0;
out:
	whole_file_abort(&hf);
	free(rows);
	db_close(db);
	return rc;
}

const struct cmd_entry cmd_export_entry = {
	.name = "export",
	.usage = "export KERNEL --header FILE | --json",
	.summary = "the best configurations as a C header or JSON, for a build",
	.exec = export_exec,
	.options = export_options,
	.help_head = "usage: conform export KERNEL --header FILE [--json] [--dtype T] [--op O] [--gpu NAME]\n"
		     "                     [--objective O]\n"
		     "       conform export KERNEL --json [...]\n"
		     "  KERNEL                a variant, or a glob ('device.*'): every matching variant\n",
	.help_tail = "exit: 0 written, 2 usage error, empty database, nothing tuned for KERNEL,\n"
		     "      or a configuration the header cannot hold\n",
	.operands = 1,
	.set = export_set,
};
