/*
 * export_header.c - `conform export --header FILE`: the best configurations
 * as a C header a user's build includes (see export.h).
 *
 * The header is self-contained C99 (string.h and stddef.h only) and compiles
 * clean under -Wall -Wextra -pedantic: every table is a static array inside
 * a static inline function, so a translation unit that uses one table
 * carries no unused objects for the others.  Per variant, dtype and op:
 *
 *   conform_table_<variant>_<dtype>_<op>(&count)   the entries
 *   conform_best_<variant>_<dtype>_<op>(device, n, cols)
 *
 * and across every exported variant conform_best_any(device, dtype, op, n,
 * cols): the best variant at the chosen size (the lowest ci_high_us, then
 * median_us: timing_rank_cmp's rule), as `conform best GLOB` answers.  The choice of size is written once, in the header's helpers;
 * tests/export.sh holds it to `conform best` at sizes on and between the
 * tuned ones.
 *
 * Exported by energy or edp, the entries do not hold the figures the best
 * is chosen by: each table lists its entries best first (objective_rank_cmp,
 * the order conform best ranks in), a table of every entry ranked so backs
 * conform_best_any, and the lookups take the first entry that matches at
 * the chosen size (conform_lookup_ranked, in a block of its own that two
 * headers share).  Each entry's energy and power follow it in a comment.
 *
 * Invariant: no string from the database reaches the header except
 * through put_c_string, inside a C string literal (a comment names a
 * table by its C identifier only), and every number is written as a
 * constant C accepts (put_llong, put_double), so a hostile database can
 * neither add code to the header nor make it fail to compile.
 */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/timing.h"
#include "export/export.h"
#include "tune/best.h"
#include "tune/tune_energy.h"

/* The helpers every exported header carries, guarded so that two headers
 * can be included together. */
static const char header_helpers[] =
	"#ifndef CONFORM_EXPORT_TYPES\n"
	"#define CONFORM_EXPORT_TYPES\n"
	"#define CONFORM_PARAMS_MAX 16\n"
	"\n"
	"/* One tunable and its value. */\n"
	"struct conform_param {\n"
	"\tconst char *name;\n"
	"\tlong long value;\n"
	"};\n"
	"\n"
	"/* The best correct configuration conform measured for one problem. */\n"
	"struct conform_config {\n"
	"\tconst char *device;      /* the GPU's name as cudaGetDeviceProperties gives it; \"host\" for none */\n"
	"\tconst char *variant;     /* \"device.atomic\" */\n"
	"\tconst char *dtype;       /* \"f32\" */\n"
	"\tconst char *op;          /* \"sum\" */\n"
	"\tlong long n, cols;       /* n elements, or n rows of cols (cols 0: a flat problem) */\n"
	"\tstruct conform_param params[CONFORM_PARAMS_MAX];\n"
	"\tint nparams;             /* the tunables stored; the others take the variant's defaults */\n"
	"\tdouble median_us, gbps;  /* cold median as measured */\n"
	"\tdouble ci_high_us;       /* the upper end of the median's 95 % interval (the median when\n"
	"\t\t\t\t  * none was kept): the best has the lowest, then the lowest median */\n"
	"\tconst char *measured_at; /* ISO-8601 UTC */\n"
	"\tconst char *revision;    /* the conform build that measured it; \"\" when unknown */\n"
	"};\n"
	"\n"
	"/* c's value of the tunable name, or fallback where c leaves it to the variant's default. */\n"
	"static inline long long conform_param(const struct conform_config *c, const char *name,\n"
	"\t\t\t\t      long long fallback)\n"
	"{\n"
	"\tint i;\n"
	"\tfor (i = 0; i < c->nparams; i++)\n"
	"\t\tif (strcmp(c->params[i].name, name) == 0)\n"
	"\t\t\treturn c->params[i].value;\n"
	"\treturn fallback;\n"
	"}\n"
	"\n"
	"/* Whether c is for device, dtype and op (each NULL: any) and rows of cols. */\n"
	"static inline int conform_matches(const struct conform_config *c, const char *device,\n"
	"\t\t\t\t  const char *dtype, const char *op, long long cols)\n"
	"{\n"
	"\treturn (!device || strcmp(c->device, device) == 0) && (!dtype || strcmp(c->dtype, dtype) == 0) &&\n"
	"\t       (!op || strcmp(c->op, op) == 0) && c->cols == cols;\n"
	"}\n"
	"\n"
	"/* How far size m is from n: the larger over the smaller, so that the nearer in log2 is the\n"
	" * smaller ratio. */\n"
	"static inline double conform_ratio(long long m, long long n)\n"
	"{\n"
	"\treturn m > n ? (double)m / (double)n : (double)n / (double)m;\n"
	"}\n"
	"\n"
	"/* *size := the size of t's matching entries nearest n in log2, the larger on a tie, if nearer\n"
	" * than *size (0: none yet). */\n"
	"static inline void conform_nearest_size(const struct conform_config *t, size_t count,\n"
	"\t\t\t\t\tconst char *device, const char *dtype, const char *op,\n"
	"\t\t\t\t\tlong long n, long long cols, long long *size)\n"
	"{\n"
	"\tsize_t i;\n"
	"\tfor (i = 0; i < count; i++) {\n"
	"\t\tdouble d, e;\n"
	"\t\tif (!conform_matches(&t[i], device, dtype, op, cols))\n"
	"\t\t\tcontinue;\n"
	"\t\tif (*size == 0) {\n"
	"\t\t\t*size = t[i].n;\n"
	"\t\t\tcontinue;\n"
	"\t\t}\n"
	"\t\td = conform_ratio(t[i].n, n);\n"
	"\t\te = conform_ratio(*size, n);\n"
	"\t\tif (d < e || (d == e && t[i].n > *size))\n"
	"\t\t\t*size = t[i].n;\n"
	"\t}\n"
	"}\n"
	"\n"
	"/* *best := the best of t's matching entries at size, if better than *best: the lowest\n"
	" * ci_high_us, then the lowest median_us, as conform ranks them. */\n"
	"static inline void conform_fastest_at(const struct conform_config *t, size_t count,\n"
	"\t\t\t\t      const char *device, const char *dtype, const char *op,\n"
	"\t\t\t\t      long long size, long long cols, const struct conform_config **best)\n"
	"{\n"
	"\tsize_t i;\n"
	"\tfor (i = 0; i < count; i++)\n"
	"\t\tif (t[i].n == size && conform_matches(&t[i], device, dtype, op, cols) &&\n"
	"\t\t    (!*best || t[i].ci_high_us < (*best)->ci_high_us ||\n"
	"\t\t     (t[i].ci_high_us == (*best)->ci_high_us && t[i].median_us < (*best)->median_us)))\n"
	"\t\t\t*best = &t[i];\n"
	"}\n"
	"\n"
	"/* The entry of t for device (NULL: any), dtype and op (NULL: any) at n elements, or n rows\n"
	" * of cols, else at the nearest tuned size; NULL when t has none for them. */\n"
	"static inline const struct conform_config *conform_lookup(const struct conform_config *t,\n"
	"\t\t\t\t\t\t\t  size_t count, const char *device,\n"
	"\t\t\t\t\t\t\t  const char *dtype, const char *op,\n"
	"\t\t\t\t\t\t\t  long long n, long long cols)\n"
	"{\n"
	"\tconst struct conform_config *best = NULL;\n"
	"\tlong long size = 0;\n"
	"\tif (n < 1)\n"
	"\t\treturn NULL;\n"
	"\tconform_nearest_size(t, count, device, dtype, op, n, cols, &size);\n"
	"\tif (size)\n"
	"\t\tconform_fastest_at(t, count, device, dtype, op, size, cols, &best);\n"
	"\treturn best;\n"
	"}\n"
	"#endif /* CONFORM_EXPORT_TYPES */\n";

/* What a header exported by energy or edp adds to the helpers: lookups in
 * tables listed best first. */
static const char ranked_helpers[] =
	"\n"
	"#ifndef CONFORM_EXPORT_RANKED\n"
	"#define CONFORM_EXPORT_RANKED\n"
	"/* The first of t's matching entries at size, or NULL: t lists its entries best first. */\n"
	"static inline const struct conform_config *conform_first_at(const struct conform_config *t,\n"
	"\t\t\t\t\t\t\t    size_t count, const char *device,\n"
	"\t\t\t\t\t\t\t    const char *dtype, const char *op,\n"
	"\t\t\t\t\t\t\t    long long size, long long cols)\n"
	"{\n"
	"\tsize_t i;\n"
	"\tfor (i = 0; i < count; i++)\n"
	"\t\tif (t[i].n == size && conform_matches(&t[i], device, dtype, op, cols))\n"
	"\t\t\treturn &t[i];\n"
	"\treturn NULL;\n"
	"}\n"
	"\n"
	"/* conform_lookup for a table listed best first: the nearest size as there, then the first\n"
	" * entry at it. */\n"
	"static inline const struct conform_config *conform_lookup_ranked(const struct conform_config *t,\n"
	"\t\t\t\t\t\t\t\t size_t count, const char *device,\n"
	"\t\t\t\t\t\t\t\t const char *dtype, const char *op,\n"
	"\t\t\t\t\t\t\t\t long long n, long long cols)\n"
	"{\n"
	"\tlong long size = 0;\n"
	"\tif (n < 1)\n"
	"\t\treturn NULL;\n"
	"\tconform_nearest_size(t, count, device, dtype, op, n, cols, &size);\n"
	"\treturn size ? conform_first_at(t, count, device, dtype, op, size, cols) : NULL;\n"
	"}\n"
	"#endif /* CONFORM_EXPORT_RANKED */\n";

/* One table: the rows of a variant, dtype and op. */
struct group {
	const struct db_tuned_row **rows;
	size_t count;
	char ident[200]; /* <variant>_<dtype>_<op>, as a C identifier */
};

/* rows ordered by variant, dtype, op, device, cols and n: the tables' order. */
static int row_order(const void *a, const void *b)
{
	const struct db_tuned_row *x = *(const struct db_tuned_row *const *)a;
	const struct db_tuned_row *y = *(const struct db_tuned_row *const *)b;
	int c = strcmp(x->variant, y->variant);
	if (!c)
		c = strcmp(x->dtype, y->dtype);
	if (!c)
		c = strcmp(x->op, y->op);
	if (!c)
		c = strcmp(x->device, y->device);
	if (!c)
		c = (x->cols > y->cols) - (x->cols < y->cols);
	if (!c)
		c = (x->n > y->n) - (x->n < y->n);
	return c;
}

/* Whether x ranks before y by objective o (tune/best.h). */
static int ranks_before(enum objective o, const struct db_tuned_row *x, const struct db_tuned_row *y)
{
	struct objective_key kx, ky;
	best_row_key(x, &kx);
	best_row_key(y, &ky);
	return objective_rank_cmp(o, &kx, &ky) < 0;
}

/* 1 when x and y belong to one table: variant, dtype and op. */
static int same_table(const struct db_tuned_row *x, const struct db_tuned_row *y)
{
	return strcmp(x->variant, y->variant) == 0 && strcmp(x->dtype, y->dtype) == 0 &&
	       strcmp(x->op, y->op) == 0;
}

/* Orders rows[0..n), sorted by row_order, best first by o: within each
 * table when by_table, else all of them; rows o cannot tell apart keep
 * their order.  An insertion sort (qsort takes no objective): a header
 * holds one row per problem, hundreds, not the results. */
static void rank_rows(const struct db_tuned_row **rows, size_t n, enum objective o, int by_table)
{
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 && (!by_table || same_table(rows[k], rows[k - 1])) &&
				   ranks_before(o, rows[k], rows[k - 1]);
		     k--) {
			const struct db_tuned_row *t = rows[k];
			rows[k] = rows[k - 1];
			rows[k - 1] = t;
		}
}

/* s as part of a C identifier: letters, digits and '_', anything else '_'. */
static void ident_append(char *buf, size_t len, const char *s)
{
	size_t used = strlen(buf);
	for (; *s && used + 1 < len; s++)
		buf[used++] = isalnum((unsigned char)*s) ? *s : '_';
	buf[used] = '\0';
}

/* s as a C string literal: quotes, backslashes, question marks (no
 * trigraph such as ??/ can form) and what is not printable ASCII escaped
 * (octal, three digits, so a digit after it cannot join). */
static void put_c_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\' || c == '?')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\%03o", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* A comment's text: no "*" followed by "/" can end it early. */
static void put_comment_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		fputc(*s, f);
		if (*s == '*' && s[1] == '/')
			fputc(' ', f);
	}
}

/* v as a constant C accepts: long long's lowest has no literal. */
static void put_llong(FILE *f, long long v)
{
	if (v == LLONG_MIN)
		fputs("(-9223372036854775807LL - 1)", f);
	else
		fprintf(f, "%lldLL", v);
}

/* v as a constant C accepts: infinities and NaN have no literal. */
static void put_double(FILE *f, double v)
{
	if (isnan(v))
		fputs("(0.0 / 0.0)", f);
	else if (isinf(v))
		fputs(v > 0 ? "(1.0 / 0.0)" : "(-1.0 / 0.0)", f);
	else
		fprintf(f, "%.6g", v);
}

/* An entry's energy, in a comment (ranked headers): numbers alone, which
 * cannot end the comment. */
static void put_energy_comment(FILE *f, const struct db_tuned_row *r)
{
	if (!energy_measured(&r->energy)) {
		fputs("\t\t/* no energy figure */\n", f);
		return;
	}
	fprintf(f, "\t\t/* %.4g J per launch", r->energy.joules);
	if (r->energy.watts > 0)
		fprintf(f, ", %.4g W", r->energy.watts);
	fputs(" */\n", f);
}

static int put_entry(FILE *f, const struct db_tuned_row *r, enum objective o, char *err, size_t len)
{
	struct export_param p[EXPORT_PARAMS_MAX];
	int np = export_params(r, p, err, len);
	if (np < 0)
		return -1;
	fputs("\t\t{", f);
	put_c_string(f, db_device_label(r->device));
	fputs(", ", f);
	put_c_string(f, r->variant);
	fputs(", ", f);
	put_c_string(f, r->dtype);
	fputs(", ", f);
	put_c_string(f, r->op);
	fputs(", ", f);
	put_llong(f, (long long)r->n);
	fputs(", ", f);
	put_llong(f, (long long)r->cols);
	fputs(",\n\t\t {", f);
	for (int k = 0; k < np; k++) {
		fprintf(f, "%s{", k ? ", " : "");
		put_c_string(f, p[k].name);
		fputs(", ", f);
		put_llong(f, p[k].value);
		fputs("}", f);
	}
	if (np == 0)
		fputs("{0, 0}", f); /* an empty initializer is not C99 */
	fprintf(f, "}, %d, ", np);
	put_double(f, r->median_ms * 1e3);
	fputs(", ", f);
	put_double(f, r->gbps);
	fputs(", ", f);
	put_double(f, timing_rank_bound(r->median_ms, r->robust.ci_high_ms) * 1e3);
	fputs(", ", f);
	put_c_string(f, r->measured_at);
	fputs(", ", f);
	put_c_string(f, r->git_revision);
	fputs("},\n", f);
	if (o != OBJECTIVE_TIME)
		put_energy_comment(f, r);
	return 0;
}

/* The lookups of the tables: by time the lowest bound at the size, else
 * the first entry there (the tables listed best first). */
static const char *lookup_of(enum objective o)
{
	return o == OBJECTIVE_TIME ? "conform_lookup" : "conform_lookup_ranked";
}

static int put_group(FILE *f, const struct group *g, enum objective o, char *err, size_t len)
{
	fprintf(f, "\n/* %s: %zu configuration%s (the variant, dtype and op are in each entry)%s. */\n",
		g->ident, g->count, g->count == 1 ? "" : "s",
		o == OBJECTIVE_TIME ? "" : o == OBJECTIVE_ENERGY ? ", best by energy first" : ", best by edp first");
	fprintf(f, "static inline const struct conform_config *conform_table_%s(size_t *count)\n{\n",
		g->ident);
	fputs("\tstatic const struct conform_config t[] = {\n", f);
	for (size_t i = 0; i < g->count; i++)
		if (put_entry(f, g->rows[i], o, err, len) < 0)
			return -1;
	fputs("\t};\n\t*count = sizeof t / sizeof t[0];\n\treturn t;\n}\n\n", f);
	fprintf(f, "/* %s's configuration for device (NULL: any) at n elements, or n rows of cols,\n"
		   " * else at the nearest tuned size; NULL when there is none. */\n",
		g->ident);
	fprintf(f,
		"static inline const struct conform_config *conform_best_%s(const char *device, long long n,\n"
		"\t\t\t\t\t\t\t\t  long long cols)\n{\n"
		"\tsize_t count;\n"
		"\tconst struct conform_config *t = conform_table_%s(&count);\n"
		"\treturn %s(t, count, device, NULL, NULL, n, cols);\n}\n",
		g->ident, g->ident, lookup_of(o));
	return 0;
}

/* conform_best_any of a header exported by energy or edp: every entry,
 * best first across the variants (ranked), looked up as one table. */
static int put_any_ranked(FILE *f, const struct db_tuned_row **ranked, size_t n, enum objective o,
			  char *err, size_t len)
{
	fprintf(f, "\n/* Every entry above, best by %s first: what conform_best_any looks up. */\n",
		objective_name(o));
	fputs("static inline const struct conform_config *conform_ranked_entries(size_t *count)\n{\n"
	      "\tstatic const struct conform_config t[] = {\n",
	      f);
	for (size_t i = 0; i < n; i++)
		if (put_entry(f, ranked[i], o, err, len) < 0)
			return -1;
	fputs("\t};\n\t*count = sizeof t / sizeof t[0];\n\treturn t;\n}\n", f);
	fprintf(f, "\n/* Across every table above: the best variant by %s for device (NULL: any), dtype and\n"
		   " * op (each NULL: any) at n elements, or n rows of cols, else at the nearest tuned size;\n"
		   " * NULL when there is none. */\n",
		objective_name(o));
	fputs("static inline const struct conform_config *conform_best_any(const char *device, const char *dtype,\n"
	      "\t\t\t\t\t\t\t    const char *op, long long n, long long cols)\n{\n"
	      "\tsize_t count;\n"
	      "\tconst struct conform_config *t = conform_ranked_entries(&count);\n"
	      "\treturn conform_lookup_ranked(t, count, device, dtype, op, n, cols);\n}\n",
	      f);
	return 0;
}

static void put_any(FILE *f, const struct group *g, size_t ng)
{
	fputs("\n/* Across every table above: the best variant for device (NULL: any), dtype and op\n"
	      " * (each NULL: any) at n elements, or n rows of cols, else at the nearest tuned size;\n"
	      " * NULL when there is none. */\n"
	      "static inline const struct conform_config *conform_best_any(const char *device, const char *dtype,\n"
	      "\t\t\t\t\t\t\t    const char *op, long long n, long long cols)\n{\n"
	      "\tstatic const struct conform_config *(*const tables[])(size_t *) = {\n",
	      f);
	for (size_t i = 0; i < ng; i++)
		fprintf(f, "\t\tconform_table_%s,\n", g[i].ident);
	fputs("\t};\n"
	      "\tconst struct conform_config *best = NULL;\n"
	      "\tlong long size = 0;\n"
	      "\tsize_t i, count;\n"
	      "\tif (n < 1)\n"
	      "\t\treturn NULL;\n"
	      /* The table is fetched before its count is read: the two in
	       * one call would be unsequenced. */
	      "\tfor (i = 0; i < sizeof tables / sizeof tables[0]; i++) {\n"
	      "\t\tconst struct conform_config *t = tables[i](&count);\n"
	      "\t\tconform_nearest_size(t, count, device, dtype, op, n, cols, &size);\n"
	      "\t}\n"
	      "\tfor (i = 0; size && i < sizeof tables / sizeof tables[0]; i++) {\n"
	      "\t\tconst struct conform_config *t = tables[i](&count);\n"
	      "\t\tconform_fastest_at(t, count, device, dtype, op, size, cols, &best);\n"
	      "\t}\n"
	      "\treturn best;\n}\n",
	      f);
}

/* The include guard: CONFORM_EXPORT_ and the file's name in capitals. */
static void guard_of(const char *header_name, char *buf, size_t len)
{
	snprintf(buf, len, "CONFORM_EXPORT_");
	ident_append(buf, len, header_name);
	for (char *p = buf; *p; p++)
		*p = (char)toupper((unsigned char)*p);
}

/* Splits sorted rows into groups; returns the count, or -1 (no memory). */
static long make_groups(const struct db_tuned_row **sorted, size_t n, struct group *g)
{
	size_t ng = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && strcmp(sorted[i]->variant, sorted[j]->variant) == 0 &&
		       strcmp(sorted[i]->dtype, sorted[j]->dtype) == 0 &&
		       strcmp(sorted[i]->op, sorted[j]->op) == 0)
			j++;
		g[ng].rows = &sorted[i];
		g[ng].count = j - i;
		g[ng].ident[0] = '\0';
		ident_append(g[ng].ident, sizeof g[ng].ident, sorted[i]->variant);
		ident_append(g[ng].ident, sizeof g[ng].ident, "_");
		ident_append(g[ng].ident, sizeof g[ng].ident, sorted[i]->dtype);
		ident_append(g[ng].ident, sizeof g[ng].ident, "_");
		ident_append(g[ng].ident, sizeof g[ng].ident, sorted[i]->op);
		ng++;
		i = j;
	}
	return (long)ng;
}

int export_header_write(FILE *f, const struct db_tuned_row *rows, size_t n,
			const struct export_meta *m, char *err, size_t len)
{
	const struct db_tuned_row **sorted = calloc(n ? n : 1, sizeof *sorted);
	const struct db_tuned_row **ranked = calloc(n ? n : 1, sizeof *ranked);
	struct group *g = calloc(n ? n : 1, sizeof *g);
	const enum objective o = m->objective;
	int rc = -1;
	if (!sorted || !ranked || !g) {
		snprintf(err, len, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		sorted[i] = &rows[i];
	qsort(sorted, n, sizeof *sorted, row_order);
	if (o != OBJECTIVE_TIME) {
		memcpy(ranked, sorted, n * sizeof *ranked);
		rank_rows(ranked, n, o, 0);
		rank_rows(sorted, n, o, 1);
	}
	size_t ng = (size_t)make_groups(sorted, n, g);
	for (size_t i = 0; i < ng; i++)
		for (size_t k = i + 1; k < ng; k++)
			if (strcmp(g[i].ident, g[k].ident) == 0) {
				snprintf(err, len, "%s and %s have one C name (conform_best_%s): export them apart",
					 g[i].rows[0]->variant, g[k].rows[0]->variant, g[i].ident);
				goto out;
			}

	char guard[300];
	guard_of(m->header_name, guard, sizeof guard);
	fputs("/*\n * ", f);
	put_comment_text(f, m->header_name);
	fputs(" - tuned configurations exported by conform ", f);
	put_comment_text(f, m->version);
	fputs(" (", f);
	put_comment_text(f, m->revision);
	fputs(") on ", f);
	put_comment_text(f, m->generated_at);
	if (o == OBJECTIVE_TIME)
		fputs(",\n * the best correct configuration measured per device and size, for '", f);
	else
		fprintf(f, ",\n * the best correct configuration by %s measured per device and size, for '",
			objective_name(o));
	put_comment_text(f, m->pattern);
	fputs("'\n * from ", f);
	put_comment_text(f, m->db_path);
	fputs(".  Generated: regenerate it with conform export rather than\n"
	      " * edit it.\n"
	      " *\n"
	      " * For each variant, dtype and op:\n"
	      " *   conform_table_<variant>_<dtype>_<op>(&count)        its entries\n"
	      " *   conform_best_<variant>_<dtype>_<op>(device, n, cols) the entry for device (NULL: any)\n"
	      " *       at n elements (cols 0) or n rows of cols, else at the nearest tuned size\n"
	      " *       (nearest in log2, the larger on a tie), as `conform best` answers\n"
	      " * and conform_best_any(device, dtype, op, n, cols): the best variant there.\n"
	      " * conform_param(config, \"block\", fallback) reads one tunable; a tunable a\n"
	      " * configuration does not list takes the variant's default.\n",
	      f);
	if (o != OBJECTIVE_TIME)
		fprintf(f, " *\n * Best by %s: %s;\n"
			   " * a configuration without an energy figure never beats one with.  Each table\n"
			   " * lists its entries best first and the lookups take the first at the size.\n",
			objective_name(o), tune_objective_rule(o));
	fputs(" */\n", f);
	fprintf(f, "#ifndef %s\n#define %s\n\n#include <stddef.h>\n#include <string.h>\n\n", guard, guard);
	fputs(header_helpers, f);
	if (o != OBJECTIVE_TIME)
		fputs(ranked_helpers, f);
	for (size_t i = 0; i < ng; i++)
		if (put_group(f, &g[i], o, err, len) < 0)
			goto out;
	if (o == OBJECTIVE_TIME)
		put_any(f, g, ng);
	else if (put_any_ranked(f, ranked, n, o, err, len) < 0)
		goto out;
	fprintf(f, "\n#endif /* %s */\n", guard);
	rc = 0;
out:
	free(sorted);
	free(ranked);
	free(g);
	return rc;
}
