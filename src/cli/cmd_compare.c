/*
 * cmd_compare.c - "conform compare": did anything get wrong or slower?
 *
 *   conform compare [BASE] [NEW] [--tag NAME]... [--kind K] [--threshold P]
 *                   [--gate energy] [--markdown|--json] [--junit FILE] [--db PATH] [-v]
 *
 * A side is a run id (up to 6 digits), "last", "last~N" (N finished runs
 * before the newest of the kind), a git revision (4 to 40 hex digits, not
 * a run id: the newest run built from it), or --tag NAME (every run of that tag, compared as one: the
 * shards of a CI job).  Tags fill the base side first, then the new one;
 * operands fill what is left.  Without NEW, the newest finished run of the
 * kind; without BASE, the run of the same kind and device before NEW.  The
 * kind is --kind, else NEW's (a run id, a revision, a tag) or that of the
 * newest run.
 *
 * Exit status: 0 no regression, 1 a status that became a failure or a
 * configuration SLOWER beyond the threshold (and, with --gate energy, one
 * that spends more energy), 2 usage (bad flags, no such run, an unusable
 * database).  Statuses and time always gate; energy, whose measurement
 * a GPU may lack, is reported beside time and gates only when asked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/lookup_opts.h"
#include "common/num.h"
#include "common/text.h"
#include "common/vec.h"
#include "common/whole_file.h"
#include "compare/compare.h"
#include "compare/compare_print.h"
#include "compare/compare_side.h"
#include "compare/compare_stream.h"
#include "db/db.h"
#include "session/baseline.h"

enum { O_KIND = CMD_OPT_OWN, O_THRESHOLD, O_GATE, O_MARKDOWN, O_JUNIT, O_FILTER, O_N, O_WRITE_BASELINE };

struct compare_opts {
	const char *tags[2];
	int ntags;
	int kind;                   /* -1: from the runs */
	double threshold;
	int gate_energy;            /* --gate energy */
	int markdown, json, verbose;
	const char *junit_path, *db_path, *baseline_path;
	struct compare_filter filter;
};

static const struct cmd_option compare_options[] = {
	{.id = CMD_OPT_TAG, .help = "a side: every run of this tag, as one (the first\n"
				    "--tag is the base, a second the new side)"},
	{.id = O_KIND, .name = "kind", .arg = CMD_ARG_TEXT, .metavar = "K",
	 .help = "conformance, tune, bench or sweep (default: the new run's)"},
	{.id = O_THRESHOLD, .name = "threshold", .arg = CMD_ARG_TEXT, .metavar = "P%",
	 .help = "how much slower counts, beyond the noise (default 5%)"},
	{.id = O_GATE, .name = "gate", .arg = CMD_ARG_TEXT, .metavar = "energy",
	 .help = "also exit 1 when a configuration spends more energy\n"
		 "(statuses and time always gate)"},
	{.id = O_FILTER, .name = "filter", .arg = CMD_ARG_TEXT, .metavar = "GLOB",
	 .help = "only cases or variants whose name matches"},
	{.id = O_N, .name = "n", .arg = CMD_ARG_TEXT, .metavar = "N", .help = "only this size (decimal or 2^K)"},
	{.id = CMD_OPT_DTYPE, .synopsis = "--dtype T, --op O", .help = "only this element type, operator"},
	{.id = CMD_OPT_OP, .unlisted = 1}, /* on the --dtype line */
	{.id = O_MARKDOWN, .name = "markdown", .help = "Markdown, for a CI job's summary"},
	{.id = CMD_OPT_JSON, .help = "JSON lines: the runs, each change and verdict, a summary"},
	{.id = O_JUNIT, .name = "junit", .arg = CMD_ARG_TEXT, .metavar = "FILE",
	 .help = "also write JUnit XML: a test per changed case and compared configuration"},
	{.id = O_WRITE_BASELINE, .name = "write-baseline", .arg = CMD_ARG_TEXT, .metavar = "FILE",
	 .help = "write NEW's failures as a baseline for run --baseline,\nand compare nothing"},
	{.id = CMD_OPT_DB},
	{.id = CMD_OPT_VERBOSE, .help = "list unchanged timings, new and removed cases too"},
	{0},
};

/* "5%", "5" (percent) or "0.5%": (0, 1000] percent. */
static int parse_threshold(const char *text, double *out)
{
	char buf[32];
	size_t l = strlen(text);
	double pct;
	if (l && text[l - 1] == '%')
		l--;
	if (l == 0 || l >= sizeof buf)
		goto bad;
	memcpy(buf, text, l);
	buf[l] = '\0';
	if (num_parse_decimal(buf, &pct) < 0 || !(pct > 0) || pct > 1000)
		goto bad;
	*out = pct / 100;
	return 0;
bad:
	cmd_error("--threshold: expected a percentage in (0, 1000] such as 5%% or 2.5, got '%s'", text);
	return -1;
}

static int compare_set(void *opts, int id, const struct cmd_value *v)
{
	struct compare_opts *o = opts;
	enum run_kind k;
	switch (id) {
	case CMD_OPT_TAG:
		if (o->ntags == 2) {
			cmd_error("--tag: at most two (the base side, then the new one)");
			return -1;
		}
		o->tags[o->ntags++] = v->text;
		break;
	case O_KIND:
		if (run_kind_parse(v->text, &k) < 0) {
			cmd_error("--kind: expected conformance, tune, bench or sweep, got '%s'", v->text);
			return -1;
		}
		o->kind = (int)k;
		break;
	case O_THRESHOLD: return parse_threshold(v->text, &o->threshold);
	case O_GATE:
		/* What gates besides statuses and time, which always do. */
		if (strcmp(v->text, "energy") != 0) {
			cmd_error("--gate: expected energy (statuses and time always gate), got '%s'", v->text);
			return -1;
		}
		o->gate_energy = 1;
		break;
	case O_FILTER: o->filter.glob = v->text; break;
	case O_N: {
		long long n;
		if (num_parse_count(v->text, &n) < 0 || n < 1) {
			cmd_error("--n: expected a size as decimal or 2^K, got '%s'", v->text);
			return -1;
		}
		o->filter.n = (int64_t)n;
		break;
	}
	case CMD_OPT_DTYPE: o->filter.dtype = dtype_name(v->dtype); break;
	case CMD_OPT_OP: o->filter.op = op_name(v->op); break;
	case O_MARKDOWN: o->markdown = 1; break;
	case CMD_OPT_JSON: o->json = 1; break;
	case O_JUNIT: o->junit_path = v->text; break;
	case O_WRITE_BASELINE: o->baseline_path = v->text; break;
	case CMD_OPT_DB: o->db_path = v->text; break;
	case CMD_OPT_VERBOSE: o->verbose = 1; break;
	}
	return 0;
}

/* 4 to 40 hex digits, and "-dirty" after them as a build from a tree
 * with changes records its revision. */
static int is_revision(const char *ref)
{
	size_t hex = strspn(ref, "0123456789abcdefABCDEF");
	return hex >= 4 && hex <= 40 && (ref[hex] == '\0' || strcmp(ref + hex, "-dirty") == 0);
}

/* Fills a side's run list and label from a reference, or from the kind
 * alone: the newest run when before is 0, else the run before `before`
 * on `device`.  Returns 0, or -1 after printing why. */
static int side_resolve(struct db *db, const char *ref, const char *tag, int kind, int64_t device,
			int64_t before, struct compare_side *s)
{
	char err[CMD_ERR_MAX];
	int64_t id = 0;
	int r = 0;
	unsigned long long u;
	if (tag) {
		if (db_runs_tagged(db, tag, kind, s->ids, COMPARE_RUNS_MAX, &s->nruns, err, sizeof err) < 0)
			goto db_error;
		if (s->nruns == 0) {
			cmd_error("--tag %s: no finished %s%srun has this tag", tag,
				  kind < 0 ? "" : run_kind_name(kind), kind < 0 ? "" : " ");
			return -1;
		}
		if (s->nruns > COMPARE_RUNS_MAX) {
			cmd_error("--tag %s: %zu runs, more than the %d compare takes", tag, s->nruns, COMPARE_RUNS_MAX);
			return -1;
		}
		snprintf(s->label, sizeof s->label, "tag %s (%zu run%s)", tag, s->nruns, s->nruns == 1 ? "" : "s");
		id = s->ids[s->nruns - 1];
		r = db_run_read(db, id, &s->run, err, sizeof err);
	} else {
		if (!ref)
			r = db_runs_newest(db, kind, before ? device : -1, before, 0, &id, err, sizeof err);
		else if (strcmp(ref, "last") == 0)
			r = db_runs_newest(db, kind, -1, 0, 0, &id, err, sizeof err);
		else if (strncmp(ref, "last~", 5) == 0 && num_parse_uint(ref + 5, 1u << 20, &u) == 0)
			r = db_runs_newest(db, kind, -1, 0, (int)u, &id, err, sizeof err);
		else if (strlen(ref) <= 6 && num_parse_uint(ref, INT64_MAX, &u) == 0)
			id = (int64_t)u, r = 1; /* a git revision is shown with 7 or more */
		else if (is_revision(ref))
			r = db_runs_by_revision(db, ref, kind, &id, err, sizeof err);
		else {
			cmd_error("'%s': expected a run id, last, last~N or a git revision (4 to 40 hex digits)", ref);
			return -1;
		}
		if (r < 0)
			goto db_error;
		if (r == 0) {
			cmd_error("%s: no finished %s%srun", ref ? ref : before ? "the base" : "the new side",
				  kind < 0 ? "" : run_kind_name(kind), kind < 0 ? "" : " ");
			return -1;
		}
		r = compare_side_of_run(db, id, s, err, sizeof err);
	}
	if (r < 0)
		goto db_error;
	if (r == 0) {
		cmd_error("run %lld: no such run", (long long)id);
		return -1;
	}
	return 0;
db_error:
	cmd_error("%s", err);
	return -1;
}

/* One line of the baseline file. */
struct baseline_line {
	char name[CASE_NAME_MAX];
	char reason[256];
};

/* NEW's failures as a baseline file (run --baseline): one line a case,
 * the reason saying what was seen where.  The side is read as compare
 * reads it, a result at a time; only its failures are kept.  Written
 * whole or not at all (a temporary file renamed over FILE).  Returns 0,
 * or EXIT_USAGE after printing why. */
static int write_baseline(struct db *db, const char *path, struct compare_side *s,
			  const struct compare_filter *f)
{
	struct whole_file out = {0};
	struct compare_reader *rd = NULL;
	const struct compare_entry *x;
	struct baseline_line *lines = NULL;
	struct baseline_entry *e = NULL;
	size_t n = 0, cap = 0, unnamed = 0;
	char err[CMD_ERR_MAX], left_out[CASE_NAME_MAX] = "";
	int k, rc = EXIT_USAGE;

	if (compare_reader_open(db, s, f, &rd, err, sizeof err) < 0) {
		cmd_error("%s", err);
		goto out;
	}
	while ((k = compare_reader_next(rd, &x, err, sizeof err)) > 0) {
		/* A tune's configurations share a case name: one line each. */
		if (status_tally(x->status) != TALLY_FAILED || (n && strcmp(lines[n - 1].name, x->case_name) == 0))
			continue;
		/* A name no suite could give (empty, a space, a glob character:
		 * a database may hold anything) has no line that means it. */
		if (!baseline_name_ok(x->case_name)) {
			if (!unnamed++)
				snprintf(left_out, sizeof left_out, "%s", x->case_name);
			continue;
		}
		if (vec_reserve(lines, n, cap, 1) < 0) {
			snprintf(err, sizeof err, "out of memory");
			k = -1;
			break;
		}
		snprintf(lines[n].name, sizeof lines[n].name, "%s", x->case_name);
		snprintf(lines[n].reason, sizeof lines[n].reason, "%s (%s) in %s, build %s", status_name(x->status),
			 x->observed, s->label, s->run.git_revision[0] ? s->run.git_revision : "unknown");
		/* Cut to fit, it may end in half a character or a space. */
		text_sanitize(lines[n].reason);
		text_trim_right(lines[n].reason);
		n++;
	}
	if (k < 0) {
		cmd_error("%s", err);
		goto out;
	}
	if (!(e = calloc(n ? n : 1, sizeof *e))) {
		cmd_error("out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		e[i] = (struct baseline_entry){.name = lines[i].name, .reason = lines[i].reason};
	if (whole_file_open(&out, path) < 0 ||
	    fprintf(out.f, "# conform compare --write-baseline: the failures of %s\n", s->label) < 0 ||
	    baseline_write(out.f, e, n) < 0 || whole_file_commit(&out) < 0) {
		cmd_error("--write-baseline %s: %s", path, whole_file_why(&out, errno));
		goto out;
	}
	if (unnamed)
		fprintf(stderr, "conform: --write-baseline: %zu failing result%s left out: %s case name "
			"is not one a suite can give ('%s'%s)\n", unnamed, unnamed == 1 ? "" : "s",
			unnamed == 1 ? "its" : "their", left_out, unnamed > 1 ? ", ..." : "");
	printf("%s: %zu known failure%s of %s\n", path, n, n == 1 ? "" : "s", s->label);
	rc = 0;
out:
	whole_file_abort(&out);
	compare_reader_close(rd);
	vec_free(lines, n, cap);
	free(e);
	return rc;
}

/* Prints the comparison in the form asked for, and JUnit beside it when
 * asked.  Returns 0, or EXIT_USAGE after printing why. */
static int compare_print(const struct compare_opts *o, const struct compare_result *res, struct compare_stream *st)
{
	char err[CMD_ERR_MAX];
	int r;

	if (o->junit_path) {
		struct whole_file jf;
		r = 0;
		if (whole_file_open(&jf, o->junit_path) < 0 ||
		    (r = compare_print_junit(jf.f, res, st, err, sizeof err)) < 0 || whole_file_commit(&jf) < 0) {
			cmd_error("--junit %s: %s", o->junit_path, r < 0 ? err : whole_file_why(&jf, errno));
			whole_file_abort(&jf);
			return EXIT_USAGE;
		}
	}
	if (o->json)
		r = compare_print_json(stdout, res, st, err, sizeof err);
	else if (o->markdown)
		r = compare_print_markdown(stdout, res, st, o->verbose, err, sizeof err);
	else
		r = compare_print_table(stdout, res, st, o->verbose, err, sizeof err);
	if (r < 0) {
		cmd_error("%s", err);
		return EXIT_USAGE;
	}
	return 0;
}

/* The two sides the arguments name: refs[1] and tags[1] the new side,
 * [0] the base.  Tags fill the base side first; named runs fill what is
 * left, the last one being the new side; --write-baseline's one side is the
 * new one.  Returns 0, or EXIT_USAGE after the one-line error. */
struct named_sides {
	const char *refs[2], *tags[2];
};

static int sides_named(const struct compare_opts *o, int argc, char **argv, int first,
		       struct named_sides *ns)
{
	int nrefs = argc - first;
	if (o->markdown && o->json) {
		cmd_error("--markdown and --json: choose one");
		return EXIT_USAGE;
	}
	if (o->ntags + nrefs > 2) {
		cmd_error("more than two sides (%d --tag and %d runs named)", o->ntags, nrefs);
		return EXIT_USAGE;
	}
	*ns = (struct named_sides){{NULL, NULL},
				   {o->ntags > 0 ? o->tags[0] : NULL, o->ntags > 1 ? o->tags[1] : NULL}};
	for (int i = 0; i < nrefs; i++)
		ns->refs[2 - nrefs + i] = argv[first + i];
	if (o->baseline_path) {
		/* One side: the run whose failures become the baseline. */
		if (o->ntags + nrefs > 1 || o->json || o->markdown || o->junit_path) {
			cmd_error("--write-baseline takes one run (NEW or one --tag) and no other output");
			return EXIT_USAGE;
		}
		ns->tags[1] = ns->tags[0], ns->tags[0] = NULL;
	}
	return 0;
}

/* The new side, then (unless only it is wanted) the base of its kind and
 * device.  Returns 0, or -1 after the one-line error. */
static int sides_resolve(struct db *db, const struct compare_opts *o, const struct named_sides *ns,
			 struct compare_side *base, struct compare_side *cand)
{
	/* The new side first: without --kind, its kind is the comparison's. */
	if (side_resolve(db, ns->refs[1], ns->tags[1], o->kind, -1, 0, cand) < 0)
		return -1;
	int kind = o->kind >= 0 ? o->kind : (int)cand->run.kind;
	/* A tag may hold runs of several kinds: its side is the kind's runs. */
	if (ns->tags[1] && o->kind < 0) {
		memset(cand, 0, sizeof *cand);
		if (side_resolve(db, NULL, ns->tags[1], kind, -1, 0, cand) < 0)
			return -1;
	}
	if (o->baseline_path)
		return 0;
	return side_resolve(db, ns->refs[0], ns->tags[0], kind, cand->run.device_id, cand->ids[0], base);
}

static int compare_exec(int argc, char **argv)
{
	struct compare_opts o = {.kind = -1, .threshold = COMPARE_THRESHOLD_DEFAULT};
	char path[4096], err[CMD_ERR_MAX];
	int first, rc = EXIT_USAGE;
	struct db *db = NULL;
	struct compare_side *base = NULL, *cand = NULL;
	struct compare_stream *st = NULL;
	struct compare_result res;
	struct named_sides ns;
	int have_res = 0, snapshot = 0;

	int r = cmd_parse(&cmd_compare_entry, argc, argv, &o, &first);
	if (r != 0)
		return r;
	if (sides_named(&o, argc, argv, first, &ns) != 0)
		return EXIT_USAGE;
	struct lookup_opts lo = {.db_path = o.db_path};
	if (lookup_db_open(&lo, path, sizeof path, &db) < 0)
		return EXIT_USAGE;
	/* The tallies are printed before the items they count, which are read
	 * again for printing: every read sees the database as the first did. */
	if (db_snapshot_begin(db, err, sizeof err) < 0) {
		cmd_error("%s", err);
		goto out;
	}
	snapshot = 1;
	if (!(base = calloc(1, sizeof *base)) || !(cand = calloc(1, sizeof *cand))) {
		cmd_error("out of memory");
		goto out;
	}
	if (sides_resolve(db, &o, &ns, base, cand) < 0)
		goto out;
	if (o.baseline_path) {
		rc = write_baseline(db, o.baseline_path, cand, &o.filter);
		goto out;
	}
	compare_result_init(&res, base, cand, o.threshold);
	res.gate_energy = o.gate_energy;
	have_res = 1;
	if (compare_stream_open(db, base, cand, &o.filter, o.threshold, &st, err, sizeof err) < 0 ||
	    compare_stream_tally(st, &res, err, sizeof err) < 0) {
		cmd_error("%s", err);
		goto out;
	}
	/* A gate that compared nothing must not pass as one that found
	 * nothing: a filter that takes nothing, or a resumed tune that stored
	 * no result of its own. */
	if (!compare_overlaps(&res)) {
		cmd_error("nothing to compare: no case or configuration%s is in both %s and %s",
			  o.filter.glob || o.filter.n || o.filter.dtype || o.filter.op ? " that the filters take" : "",
			  base->label, cand->label);
		goto out;
	}
	rc = compare_print(&o, &res, st);
	if (rc == 0 && compare_regressed(&res))
		rc = EXIT_UNEXPECTED;
out:
	compare_stream_close(st);
	if (have_res)
		compare_result_free(&res);
	free(base);
	free(cand);
	if (snapshot)
		db_snapshot_end(db);
	db_close(db);
	return rc;
}

const struct cmd_entry cmd_compare_entry = {
	.name = "compare",
	.usage = "compare [BASE] [NEW] [options]",
	.summary = "status changes and timing verdicts between two runs; exit 1 on a regression",
	.exec = compare_exec,
	.options = compare_options,
	.help_head = "usage: conform compare [BASE] [NEW] [--tag NAME]... [--kind K] [--threshold P%]\n"
		     "                       [--gate energy] [--filter GLOB] [--n N] [--dtype T] [--op O]\n"
		     "                       [--markdown|--json] [--junit FILE] [--db PATH] [-v]\n"
		     "       conform compare [NEW] --write-baseline FILE\n"
		     "  BASE, NEW             a run id, last, last~N, or a git revision (4-40 hex digits);\n"
		     "                        default: the newest finished run and the one of the same\n"
		     "                        kind and device before it\n",
	.help_tail = "A configuration is SLOWER when its median grew by more than the threshold and\n"
		     "its interval lies above the base's; FASTER likewise; else SAME.  Where both\n"
		     "sides measured its energy per launch, it spends more energy when new / base - 1\n"
		     "exceeds both figures' uncertainties plus a measurement's repeatability\n"
		     "(docs/comparing.md); less likewise; else the same.  Reported beside time, a\n"
		     "failure only with --gate energy.\n"
		     "exit: 0 no regression, 1 a status became a failure or a configuration is\n"
		     "SLOWER (or spends more energy, with --gate energy), 2 usage error or no such run\n",
	.operands = 2,
	.set = compare_set,
};
