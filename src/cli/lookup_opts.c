/*
 * lookup_opts.c - options of best and history (see lookup_opts.h).
 */
#include "cli/lookup_opts.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cmd.h"
#include "common/dtype.h"
#include "common/num.h"
#include "common/params.h"
#include "common/text.h"

const struct cmd_option lookup_options[] = {
	{.id = LOOKUP_OPT_GPU, .name = "gpu", .arg = CMD_ARG_TEXT, .metavar = "NAME",
	 .help = "only devices whose name matches (a glob; \"host\" without GPU)"},
	{.id = LOOKUP_OPT_DEVICE, .name = "device", .arg = CMD_ARG_TEXT, .unlisted = 1},
	{.id = CMD_OPT_JSON, .synopsis = "--json, --csv", .help = "machine-readable output"},
	{.id = CMD_OPT_CSV, .unlisted = 1}, /* on the --json line */
	{.id = CMD_OPT_DB, .help = "result database"},
	{0},
};

int lookup_set(void *opts, int id, const struct cmd_value *v)
{
	struct lookup_opts *o = opts;
	long long n;
	switch (id) {
	case LOOKUP_OPT_N:
		if (num_parse_count(v->text, &n) < 0 || n < 1) {
			cmd_error("--n: expected a size, decimal or 2^K, got '%s'", v->text);
			return -1;
		}
		o->q.n = n;
		break;
	case CMD_OPT_DTYPE: o->q.dtype = dtype_name(v->dtype); break;
	case CMD_OPT_OP: o->q.op = op_name(v->op); break;
	case LOOKUP_OPT_GPU: o->q.device = v->text; break;
	case LOOKUP_OPT_DEVICE:
		/* --device is a GPU ordinal wherever it is taken; an ordinal
		 * means nothing to results read back from a database, which may
		 * come from other machines, so it is refused rather than read as
		 * a name (it once was: "--device 0" found nothing). */
		cmd_error("%s: --device takes a GPU ordinal (run, tune); to filter by GPU name use --gpu NAME",
			  v->command);
		return -1;
	case CMD_OPT_CSV:
	case CMD_OPT_JSON: return cmd_format_set(&o->format, id, v);
	case CMD_OPT_DB: o->db_path = v->text; break;
	case CMD_OPT_OBJECTIVE: o->objective = v->objective; break;
	}
	return 0;
}

int lookup_opts_parse(const struct cmd_entry *e, int argc, char **argv, struct lookup_opts *o)
{
	int operand;
	memset(o, 0, sizeof *o);
	int r = cmd_parse(e, argc, argv, o, &operand);
	if (r != 0)
		return r;
	if (operand == argc) {
		cmd_error("%s: which kernel? (a variant or a glob, e.g. 'device.*')", e->name);
		return EXIT_USAGE;
	}
	o->q.pattern = argv[operand];
	return 0;
}

int lookup_db_open(const struct lookup_opts *o, char *path, size_t len, struct db **db)
{
	char err[CMD_ERR_MAX];
	struct stat sb;
	if (cmd_db_path(o->db_path, path, len) < 0)
		return -1;
	if (stat(path, &sb) != 0 && errno == ENOENT) {
		cmd_error("%s: no database yet (conform tune creates it)", path);
		return -1;
	}
	if (db_open_lookup(path, db, err, sizeof err) < 0) {
		cmd_error("%s", err);
		return -1;
	}
	return 0;
}

void lookup_config(const struct db_tuned_row *row, char *buf, size_t len)
{
	if (params_without(row->params, "op", buf, len) < 0)
		snprintf(buf, len, "%s", row->params);
	if (!buf[0])
		snprintf(buf, len, "(default)");
}

void lookup_size(const struct db_tuned_row *row, char *buf, size_t len)
{
	text_count(buf, len, row->n);
	if (row->cols) {
		size_t used = strlen(buf);
		snprintf(buf + used, len - used, "x%lld", (long long)row->cols);
	}
}

void lookup_widen(int *width, const char *s)
{
	int w = (int)strlen(s);
	if (w > *width)
		*width = w;
}
