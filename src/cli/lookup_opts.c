/*
 * lookup_opts.c - options of best and history (see lookup_opts.h).
 */
#include "lookup_opts.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "dtype.h"
#include "params.h"
#include "text.h"

int lookup_opts_parse(int argc, char **argv, const char *help, struct lookup_opts *o)
{
	enum { O_N = 256, O_DTYPE, O_OP, O_DEVICE, O_CSV, O_JSON, O_DB, O_HELP };
	static const struct option longopts[] = {
		{"n", required_argument, NULL, O_N},
		{"dtype", required_argument, NULL, O_DTYPE},
		{"op", required_argument, NULL, O_OP},
		{"device", required_argument, NULL, O_DEVICE},
		{"csv", no_argument, NULL, O_CSV},
		{"json", no_argument, NULL, O_JSON},
		{"db", required_argument, NULL, O_DB},
		{"help", no_argument, NULL, O_HELP},
		{NULL, 0, NULL, 0},
	};
	const char *cmd = argv[0];
	int csv = 0, json = 0, ch;
	memset(o, 0, sizeof *o);
	opterr = 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
		long long n;
		enum dtype d;
		enum op op;
		switch (ch) {
		case O_N:
			if (params_parse_count(optarg, &n) < 0 || n < 1) {
				cmd_error("--n: expected a size, decimal or 2^K, got '%s'", optarg);
				return -1;
			}
			o->q.n = n;
			break;
		case O_DTYPE:
			if (dtype_parse(optarg, &d) < 0) {
				cmd_error("--dtype: unknown element type '%s' (f32, f64, i32, u32, bf16)", optarg);
				return -1;
			}
			o->q.dtype = dtype_name(d);
			break;
		case O_OP:
			if (op_parse(optarg, &op) < 0) {
				cmd_error("--op: unknown operator '%s' (sum, max, min)", optarg);
				return -1;
			}
			o->q.op = op_name(op);
			break;
		case O_DEVICE: o->q.device = optarg; break;
		case O_CSV: csv = 1; break;
		case O_JSON: json = 1; break;
		case O_DB: o->db_path = optarg; break;
		case O_HELP:
			fputs(help, stdout);
			return 1;
		default:
			return cmd_option_error(ch, argv[optind - 1], cmd);
		}
	}
	if (optind == argc) {
		cmd_error("%s: which kernel? (a variant or a glob, e.g. 'device.*')", cmd);
		return -1;
	}
	o->q.pattern = argv[optind++];
	if (optind < argc) {
		cmd_error("unexpected argument '%s' (see conform %s --help)", argv[optind], cmd);
		return -1;
	}
	if (csv && json) {
		cmd_error("%s: --csv and --json exclude each other", cmd);
		return -1;
	}
	o->format = csv ? EMIT_CSV : json ? EMIT_JSON : EMIT_TABLE;
	return 0;
}

int lookup_db_open(const struct lookup_opts *o, char *path, size_t len, struct db **db)
{
	char err[1024];
	struct stat sb;
	if (cmd_db_path(o->db_path, path, len) < 0)
		return -1;
	if (stat(path, &sb) != 0 && errno == ENOENT) {
		cmd_error("%s: no database yet (conform tune creates it)", path);
		return -1;
	}
	if (db_open(path, 5000, db, err, sizeof err) < 0) {
		cmd_error("%s", err);
		return -1;
	}
	return 0;
}

const char *lookup_device_name(const struct db_tuned_row *row)
{
	return row->device[0] ? row->device : "host";
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
