/*
 * tune_print.c - the tuner's reports (see tune_print.h).
 *
 * One function computes each derived figure and one writes each format's
 * row, so tune and bench, text, CSV and JSON always agree.  A figure that
 * does not apply (a failed configuration, no copy bandwidth, no baseline,
 * no energy measured) is "-" in tables, empty in CSV and null in JSON, and
 * a table leaves the energy columns out when none of its rows has energy.
 */
#include "tune/tune_failing.h"
#include "tune/tune_print.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "common/timing.h"
#include "report/emit.h"
#include "report/emit_energy.h"
#include "tune/tune_energy.h"
#include "tune/tune_tie.h"

static int timed(const struct tune_row *r)
{
	return r->status == STATUS_PASS && r->timing.samples > 0 && r->timing.median_ms > 0;
}

static double median_us(const struct tune_row *r)
{
	return timed(r) ? r->timing.median_ms * 1e3 : NAN;
}

static double gbps(const struct tune_row *r)
{
	return timed(r) && r->gbps > 0 ? r->gbps : NAN;
}

static double pct_copy(const struct tune_row *r)
{
	return timed(r) && r->gbps > 0 && r->copy_gbps > 0 ? 100 * r->gbps / r->copy_gbps : NAN;
}

/* A copy is not a reduction: comparing it with the baseline means nothing. */
static double x_baseline(const struct tune_row *r)
{
	return timed(r) && r->role != TUNE_COPY && r->baseline_ms > 0
		       ? r->baseline_ms / r->timing.median_ms : NAN;
}

/* A timed row's energy figures, when the burst measured them. */
static int has_energy(const struct tune_row *r)
{
	return timed(r) && energy_measured(&r->timing.energy);
}

/* The Pareto mark of a tuned row with an energy figure; -1: none applies
 * (a reference, or no energy figure). */
static int pareto_mark(const struct tune_row *r)
{
	return r->role == TUNE_TUNED && has_energy(r) ? r->pareto : -1;
}

static double noise(const struct tune_row *r)
{
	return timed(r) ? r->timing.noise : NAN;
}

/* The robust figures: NAN for a result stored before there were intervals
 * (tune_tie_interval reads it as its median alone). */
static double spread(const struct tune_row *r)
{
	return timed(r) && r->timing.ci_high_ms > 0 ? r->timing.spread : NAN;
}

static double ci_us(const struct tune_row *r, int high)
{
	if (!timed(r) || !(r->timing.ci_high_ms > 0))
		return NAN;
	return (high ? r->timing.ci_high_ms : r->timing.ci_low_ms) * 1e3;
}

/* Sampling stopped at --max-time or --max-samples before the spread came
 * under --max-noise: the median is less sure than asked for. */
static int noise_missed(const struct tune_row *r)
{
	return timed(r) && !r->timing.noise_met;
}

static const char *role_name(enum tune_role role)
{
	static const char *const names[] = {"tuned", "baseline", "copy"};
	return names[role];
}

static const char *shown_config(const struct tune_row *r)
{
	return r->config[0] ? r->config : "(default)";
}

/* The message a table shows: why a configuration did not work, but not the
 * contract's refusals of single configurations, which say the same thing
 * every time (refused_too: show those as well). */
static const char *table_message(const struct tune_row *r, int refused_too)
{
	if (r->outcome == OUTCOME_INVALID)
		return refused_too ? r->message : "";
	if (r->status == STATUS_PASS)
		return timed(r) ? "" : "not timed";
	return r->message;
}

/*
 * Text tables.
 */

/* Columns count characters, not bytes: the headers say µs and ×. */
static int display_width(const char *s)
{
	int w = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			w++;
	return w;
}

static void cell(FILE *f, const char *s, int width, int right)
{
	int pad = width - display_width(s);
	if (right)
		fprintf(f, "%*s%s", pad > 0 ? pad : 0, "", s);
	else
		fprintf(f, "%s%*s", s, pad > 0 ? pad : 0, "");
}

static void number_cell(FILE *f, double v, int decimals, int width)
{
	char buf[32];
	if (isnan(v))
		snprintf(buf, sizeof buf, "-");
	else
		snprintf(buf, sizeof buf, "%.*f", decimals, v);
	fputs("  ", f);
	cell(f, buf, width, 1);
}

/* A fraction as a percentage, with a sign in front ("±" for the spread). */
static void percent_cell(FILE *f, double v, const char *sign, int width)
{
	char buf[32];
	if (isnan(v))
		snprintf(buf, sizeof buf, "-");
	else
		snprintf(buf, sizeof buf, "%s%.1f%%", sign, v * 100);
	fputs("  ", f);
	cell(f, buf, width, 1);
}

/* The median, followed by '~' when the noise target was not reached (one
 * column kept for the mark, so that the digits stay aligned). */
static void median_cell(FILE *f, const struct tune_row *r)
{
	char buf[32];
	double us = median_us(r);
	if (isnan(us))
		snprintf(buf, sizeof buf, "- ");
	else
		snprintf(buf, sizeof buf, "%.2f%s", us, noise_missed(r) ? "~" : " ");
	fputs("  ", f);
	cell(f, buf, 12, 1);
}

static void problem_title(char *buf, size_t len, const struct tune_options *o, long long n)
{
	char count[32];
	text_count(count, sizeof count, n);
	if (o->cols)
		snprintf(buf, len, "n=%s x %lld %s %s", count, (long long)o->cols, dtype_name(o->dtype),
			 op_name(o->op));
	else
		snprintf(buf, len, "n=%s %s %s", count, dtype_name(o->dtype), op_name(o->op));
}

static void print_refs(FILE *f, const struct tune_sweep *sw)
{
	for (size_t i = 0; i < sw->nrefs; i++) {
		const struct tune_refs *r = &sw->refs[i];
		fputs("  references: ", f);
		if (!r->family.copy)
			fprintf(f, "no copy kernel");
		else if (r->copy_gbps > 0)
			fprintf(f, "%s %.2f GB/s (%s)", r->family.copy, r->copy_gbps,
				r->copy_measured ? "measured now" : "stored");
		else
			fprintf(f, "%s not measured", r->family.copy);
		if (r->baseline && r->baseline_ms > 0)
			fprintf(f, "; baseline %s %.2f µs\n", r->baseline, r->baseline_ms * 1e3);
		else if (r->baseline)
			fprintf(f, "; baseline %s did not time\n", r->baseline);
		else
			fprintf(f, "; no baseline\n");
	}
}

/* A table's layout: its text columns' widths, and whether it has energy
 * columns (some row has an energy figure) and in what unit. */
struct widths {
	int variant, config;
	int energy;
	struct tune_energy_unit unit;
	char energy_title[16];   /* "mJ/launch" */
};

#define ENERGY_WIDTH 10
#define WATTS_WIDTH 6

static void widths_of(const struct tune_row *const *rows, size_t n, struct widths *w)
{
	double max_j = 0;
	w->variant = (int)strlen("variant");
	w->config = (int)strlen("configuration");
	for (size_t i = 0; i < n; i++) {
		int v = display_width(rows[i]->variant), c = display_width(shown_config(rows[i]));
		if (v > w->variant)
			w->variant = v;
		if (c > w->config)
			w->config = c;
		if (has_energy(rows[i]) && rows[i]->timing.energy.joules > max_j)
			max_j = rows[i]->timing.energy.joules;
	}
	w->energy = max_j > 0;
	tune_energy_unit(max_j, &w->unit);
	snprintf(w->energy_title, sizeof w->energy_title, "%s/launch", w->unit.name);
}

static void table_header(FILE *f, const struct widths *w, const char *config_title)
{
	fputs("  ", f);
	cell(f, "variant", w->variant, 0);
	fputs("  ", f);
	cell(f, config_title, w->config, 0);
	const char *titles[] = {"median (µs) ", "GB/s", "% copy", "× base", "noise", "spread",
				w->energy_title, "W", "P"};
	const int widths[] = {12, 8, 7, 6, 6, 7, ENERGY_WIDTH, WATTS_WIDTH, 1};
	for (int i = 0; i < (w->energy ? 9 : 6); i++) {
		fputs("  ", f);
		cell(f, titles[i], widths[i], 1);
	}
	fputs("  status\n", f);
}

/* The energy cells: J per launch in the table's unit, the counter's
 * average power, and the Pareto mark: P on the front, . off it, - no
 * energy figure. */
static void energy_cells(FILE *f, const struct widths *w, const struct tune_row *r)
{
	const struct energy_stats *e = &r->timing.energy;
	int on = has_energy(r), mark = pareto_mark(r);
	number_cell(f, on ? e->joules * w->unit.per_joule : NAN, 3, ENERGY_WIDTH);
	number_cell(f, on && e->watts > 0 ? e->watts : NAN, 1, WATTS_WIDTH);
	fputs("  ", f);
	cell(f, mark < 0 ? "-" : mark ? "P" : ".", 1, 1);
}

/* ": tied, median in [a, b] µs", or the interval of the objective's
 * figure that tied the row. */
static void tied_note(FILE *f, const struct widths *w, const struct tune_row *r, enum objective o)
{
	double lo, hi;
	if (o != OBJECTIVE_TIME && tune_tie_objective_interval(o, r, &lo, &hi) == 0) {
		if (o == OBJECTIVE_ENERGY)
			fprintf(f, ": tied, energy in [%.3f, %.3f] %s", lo * w->unit.per_joule,
				hi * w->unit.per_joule, w->unit.name);
		else
			fprintf(f, ": tied, edp in [%.3g, %.3g] J·s", lo, hi);
		return;
	}
	tune_tie_interval(&r->timing, &lo, &hi);
	fprintf(f, ": tied, median in [%.2f, %.2f] µs", lo * 1e3, hi * 1e3);
}

/* One row; a tune table marks the best ('*') and the rows tied with it
 * ('='; tune_tie.h), whose intervals it shows, a bench table (whose rows
 * are each a variant's best) says why a variant had no configuration to
 * run. */
static void table_row(FILE *f, const struct widths *w, const struct tune_row *r, int bench,
		      enum objective o)
{
	int mark = !bench;
	fputc(mark && r->best ? '*' : ' ', f);
	fputc(mark && r->tied ? '=' : ' ', f);
	cell(f, r->variant, w->variant, 0);
	fputs("  ", f);
	cell(f, shown_config(r), w->config, 0);
	median_cell(f, r);
	number_cell(f, gbps(r), 2, 8);
	number_cell(f, pct_copy(r), 1, 7);
	number_cell(f, x_baseline(r), 2, 6);
	percent_cell(f, noise(r), "", 6);
	percent_cell(f, spread(r), "±", 7);
	if (w->energy)
		energy_cells(f, w, r);
	fprintf(f, "  %s", status_name(r->status));
	const char *msg = table_message(r, bench);
	if (msg[0])
		fprintf(f, ": %s", msg);
	else if (mark && r->tied)
		tied_note(f, w, r, o);
	fputc('\n', f);
}

/* The lines under a table that explain the marks its rows carry: the
 * objective's best when it is not time, the ties, the energy columns. */
static void table_footnotes(FILE *f, const struct widths *w, const struct tune_row *const *rows,
			    size_t n, int bench, enum objective o)
{
	int missed = 0, tied = 0;
	unsigned timers = 0; /* a bit per timer among the timed rows */
	for (size_t i = 0; i < n; i++) {
		missed |= noise_missed(rows[i]);
		tied |= !bench && rows[i]->tied;
		if (timed(rows[i]))
			timers |= 1u << rows[i]->timing.timer;
	}
	if (o != OBJECTIVE_TIME)
		fprintf(f, "  %s by %s: %s;\n    a configuration without an energy figure never beats one with\n",
			bench ? "best" : "* best", objective_name(o), tune_objective_rule(o));
	if (tied && o == OBJECTIVE_TIME)
		fputs("  = tied with the best: median intervals overlap; the lowest upper bound wins\n", f);
	else if (tied)
		fprintf(f, "  = tied with the best: %s intervals overlap; the rule above picks among them\n",
			o == OBJECTIVE_ENERGY ? "energy" : "energy-delay");
	if (w->energy) {
		fprintf(f, "  %s/launch: energy per launch; W: average power while it ran\n", w->unit.name);
		fputs("  P: on its variant's Pareto front of time and energy in this sweep (no other "
		      "configuration\n     is both faster and more frugal); . off it; - no energy figure\n", f);
	}
	if (missed)
		fputs("  ~ noise target not reached (--max-noise)\n", f);
	if (timers & (timers - 1)) {
		/* CUPTI did not load for some evaluations (or stored ones came
		 * from another setup): their medians hold different things. */
		fputs("  ! timed by more than one timer (", f);
		for (int t = 0, first = 1; t < 32; t++)
			if (timers & (1u << t)) {
				fprintf(f, "%s%s", first ? "" : ", ", timing_timer_name((enum timing_timer)t));
				first = 0;
			}
		fputs("): medians of different timers are not comparable\n", f);
	}
}

/* Under the table, for each tuned variant with a failing configuration:
 * the tunable values its failures go with (tune_failing.h), a fact of the
 * configurations evaluated here. */
static void failing_values(FILE *f, const struct tune_row *const *rows, size_t n)
{
	struct tune_failing_config *cfg = malloc((n ? n : 1) * sizeof *cfg);
	if (!cfg)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct tune_row *v = rows[i];
		int first = v->role == TUNE_TUNED;
		for (size_t k = 0; k < i && first; k++)
			first = !(rows[k]->role == TUNE_TUNED && strcmp(rows[k]->variant, v->variant) == 0);
		if (!first)
			continue;
		size_t m = 0;
		for (size_t k = i; k < n; k++)
			if (rows[k]->role == TUNE_TUNED && strcmp(rows[k]->variant, v->variant) == 0)
				cfg[m++] = (struct tune_failing_config){rows[k]->config, rows[k]->status};
		char line[512];
		if (tune_failing_describe(cfg, m, line, sizeof line) == 1)
			fprintf(f, "  %s %s\n", v->variant, line);
	}
	free(cfg);
}

/*
 * CSV and JSON.
 */

/* The columns of a row, the same in CSV and JSON. */
#define TUNE_FIELDS (27 + EMIT_ENERGY_FIELDS)

static void row_fields(const struct tune_printer *p, long long n, const struct tune_row *r,
		       struct emit_field *f, char reasons[EMIT_ENERGY_TEXT])
{
	const struct tune_options *o = p->o;
	size_t i = 0;
	f[i++] = EMIT_INT("n", n);
	f[i++] = EMIT_STR("dtype", dtype_name(o->dtype));
	f[i++] = EMIT_STR("op", op_name(o->op));
	f[i++] = EMIT_INT("cols", o->cols);
	f[i++] = EMIT_STR("variant", r->variant);
	f[i++] = EMIT_STR("role", role_name(r->role));
	f[i++] = EMIT_STR("config", r->config);
	f[i++] = EMIT_STR("status", status_name(r->status));
	f[i++] = EMIT_STR("observed", outcome_name(r->outcome));
	f[i++] = EMIT_REAL("median_us", median_us(r));
	f[i++] = EMIT_REAL("gbps", gbps(r));
	f[i++] = EMIT_REAL("pct_copy", pct_copy(r));
	f[i++] = EMIT_REAL("x_baseline", x_baseline(r));
	f[i++] = EMIT_REAL("noise", noise(r));
	f[i++] = EMIT_REAL("spread", spread(r));
	f[i++] = EMIT_REAL("ci_low_us", ci_us(r, 0));
	f[i++] = EMIT_REAL("ci_high_us", ci_us(r, 1));
	/* noise_met < 0: a result stored before the verdict was (db_robust_read). */
	f[i++] = timed(r) && r->timing.noise_met >= 0 ? EMIT_BOOL("noise_met", r->timing.noise_met)
						       : EMIT_NULL("noise_met");
	f[i++] = EMIT_INT("throttled", r->timing.throttled);
	f[i++] = timed(r) ? EMIT_STR("timer", timing_timer_name(r->timing.timer)) : EMIT_NULL("timer");
	f[i++] = EMIT_INT("samples", r->timing.samples);
	f[i++] = EMIT_BOOL("best", r->best);
	f[i++] = EMIT_BOOL("tied", r->tied);
	f[i++] = EMIT_BOOL("reused", r->reused);
	f[i++] = EMIT_STR("message", r->message);
	/* Columns are only ever appended, so that those before keep their
	 * places.  The rows of tunes on several devices (--devices) are told
	 * apart by this one. */
	f[i++] = p->device >= 0 ? EMIT_INT("device", p->device) : EMIT_NULL("device");
	/* What it spent, as run --json and the database name it. */
	const struct energy_stats none = {0};
	i += emit_energy_fields(has_energy(r) ? &r->timing.energy : &none, f + i, reasons, EMIT_ENERGY_TEXT);
	int mark = pareto_mark(r);
	f[i++] = mark < 0 ? EMIT_NULL("pareto") : EMIT_BOOL("pareto", mark);
}

static void machine_row(struct tune_printer *p, long long n, const struct tune_row *r)
{
	struct emit_field fields[TUNE_FIELDS];
	char reasons[EMIT_ENERGY_TEXT];
	struct emit_rows rows = {.f = p->f, .format = p->format, .header_done = p->header_done};
	row_fields(p, n, r, fields, reasons);
	emit_row(&rows, fields, TUNE_FIELDS);
	p->header_done = rows.header_done;
}

/*
 * The reports.
 */

void tune_print_sweep(struct tune_printer *p, const struct tune_sweep *sw)
{
	if (p->format != EMIT_TABLE) {
		for (size_t i = 0; i < sw->count; i++)
			machine_row(p, sw->n, &sw->rows[i]);
		fflush(p->f);
		return;
	}
	const struct tune_row **rows = malloc((sw->count ? sw->count : 1) * sizeof *rows);
	if (!rows)
		return;
	for (size_t i = 0; i < sw->count; i++)
		rows[i] = &sw->rows[i];
	char title[128];
	struct widths w;
	problem_title(title, sizeof title, p->o, sw->n);
	fprintf(p->f, "%s\n", title);
	print_refs(p->f, sw);
	widths_of(rows, sw->count, &w);
	table_header(p->f, &w, "configuration");
	for (size_t i = 0; i < sw->count; i++)
		table_row(p->f, &w, rows[i], 0, p->o->objective);
	table_footnotes(p->f, &w, rows, sw->count, 0, p->o->objective);
	failing_values(p->f, rows, sw->count);
	fputc('\n', p->f);
	fflush(p->f);
	free(rows);
}

static int bench_order(const struct tune_row *x, const struct tune_row *y, enum objective o)
{
	/* The best first, by the objective's rule; the untimed last. */
	if (timed(x) != timed(y))
		return timed(x) ? -1 : 1;
	if (timed(x)) {
		struct objective_key kx, ky;
		tune_row_key(x, &kx);
		tune_row_key(y, &ky);
		int c = objective_rank_cmp(o, &kx, &ky);
		if (c != 0)
			return c;
	}
	return strcmp(x->variant, y->variant);
}

/* The rows bench shows of one sweep: the baselines, and each tuned
 * variant's first row (its best, or its first failure when none ran). */
static size_t bench_rows(const struct tune_sweep *sw, enum objective o, const struct tune_row **out)
{
	size_t n = 0;
	for (size_t i = 0; i < sw->count; i++) {
		const struct tune_row *r = &sw->rows[i];
		if (r->role == TUNE_BASELINE ||
		    (r->role == TUNE_TUNED && (i == 0 || strcmp(sw->rows[i - 1].variant, r->variant) != 0)))
			out[n++] = r;
	}
	/* A few rows, and qsort takes no objective: an insertion sort. */
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 && bench_order(out[k], out[k - 1], o) < 0; k--) {
			const struct tune_row *t = out[k];
			out[k] = out[k - 1];
			out[k - 1] = t;
		}
	return n;
}

void tune_print_bench(struct tune_printer *p, const struct tune_sweep *sweeps, size_t nsweeps)
{
	size_t total = 0;
	for (size_t s = 0; s < nsweeps; s++)
		total += sweeps[s].count;
	const struct tune_row **rows = calloc(total ? total : 1, sizeof *rows);
	size_t *first = calloc(nsweeps + 1, sizeof *first);
	if (!rows || !first) {
		free(rows);
		free(first);
		return;
	}
	size_t n = 0;
	for (size_t s = 0; s < nsweeps; s++) {
		first[s] = n;
		n += bench_rows(&sweeps[s], p->o->objective, rows + n);
	}
	first[nsweeps] = n;
	if (p->format != EMIT_TABLE) {
		for (size_t s = 0; s < nsweeps; s++)
			for (size_t i = first[s]; i < first[s + 1]; i++)
				machine_row(p, sweeps[s].n, rows[i]);
	} else {
		struct widths w;
		widths_of(rows, n, &w);
		fprintf(p->f, "bench: %s %s, best configuration%s%s per variant and size\n",
			dtype_name(p->o->dtype), op_name(p->o->op),
			p->o->objective != OBJECTIVE_TIME ? " by " : "",
			p->o->objective != OBJECTIVE_TIME ? objective_name(p->o->objective) : "");
		fprintf(p->f, "%-6s", "size");
		table_header(p->f, &w, "best configuration");
		for (size_t s = 0; s < nsweeps; s++) {
			char count[32];
			text_count(count, sizeof count, sweeps[s].n);
			for (size_t i = first[s]; i < first[s + 1]; i++) {
				fprintf(p->f, "%-6s", count);
				table_row(p->f, &w, rows[i], 1, p->o->objective);
			}
		}
		table_footnotes(p->f, &w, rows, n, 1, p->o->objective);
	}
	fflush(p->f);
	free(rows);
	free(first);
}

void tune_print_summary(struct tune_printer *p, FILE *human, const struct tune_session *s,
			int interrupted)
{
	const struct run_summary *sum = &s->shown;
	int total = sum->tally[TALLY_PASSED] + sum->tally[TALLY_FAILED] + sum->tally[TALLY_SKIPPED];
	if (p->format == EMIT_JSON) {
		struct emit_json j;
		emit_json_init(&j, p->f);
		emit_json_object(&j, NULL);
		emit_json_object(&j, "summary");
		emit_json_int(&j, "passed", sum->tally[TALLY_PASSED]);
		emit_json_int(&j, "failed", sum->tally[TALLY_FAILED]);
		emit_json_int(&j, "skipped", sum->tally[TALLY_SKIPPED]);
		emit_json_int(&j, "evaluations", total);
		emit_json_uint(&j, "reused", s->reused);
		emit_json_bool(&j, "interrupted", interrupted);
		emit_json_string(&j, "objective", objective_name(p->o->objective));
		emit_json_close(&j);
		emit_json_close(&j);
	}
	fprintf(human, "%d evaluations: %llu measured, %llu from the database%s\n", total,
		(unsigned long long)((unsigned long long)total - s->reused),
		(unsigned long long)s->reused, interrupted ? "; interrupted" : "");
	char line[128];
	report_summary_line(sum, line, sizeof line);
	fprintf(human, "%s\n", line);
	fflush(human);
}
