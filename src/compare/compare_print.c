/*
 * compare_print.c - conform compare's answer, in the four forms it takes:
 * the terminal's, Markdown for a CI job's summary, JSON lines, and JUnit
 * (one test case per changed status and per compared configuration).
 *
 * Every form says the same things in the same order: the two sides and
 * what differs between them besides the change (device, build, timer), the
 * status changes, the timing verdicts, the energy verdicts, the best per
 * problem (labelled as no verdict), and the result with its exit code.
 * The energy verdicts are said only when some item timed in both has an
 * energy figure on either side, or under --gate energy (energy_said), so a
 * comparison of runs that measured no energy reads as it did before energy
 * was measured; JSON, read by programs, carries its energy members always
 * (null when missing).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/energy.h"
#include "common/params.h"
#include "common/text.h"
#include "compare/compare.h"
#include "compare/compare_print.h"
#include "report/emit.h"

void compare_size_text(const struct compare_entry *e, char *buf, size_t len)
{
	text_count(buf, len, e->n);
	if (e->cols)
		snprintf(buf + strlen(buf), len - strlen(buf), "x%lld", (long long)e->cols);
}

/* A configuration as shown: variant, dtype, op, size, params without op=. */
static void config_text(const struct compare_entry *e, char *buf, size_t len)
{
	char size[48], params[CASE_PARAMS_MAX];
	compare_size_text(e, size, sizeof size);
	if (params_without(e->params, "op", params, sizeof params) < 0)
		text_copy(params, sizeof params, e->params);
	snprintf(buf, len, "%s %s %s n=%s%s%s", e->variant, e->dtype, e->op[0] ? e->op : "-", size,
		 params[0] ? " " : "", params);
}

/* Said loudly, since a verdict across devices, kinds of run or timers
 * means little, and one across builds is the usual question but must not
 * pass unnoticed. */
void compare_differences(const struct compare_result *r, char *buf, size_t len)
{
	const struct db_run_row *b = &r->base->run, *c = &r->cand->run;
	buf[0] = '\0';
	if (b->device_id != c->device_id || strcmp(b->device, c->device) != 0)
		snprintf(buf + strlen(buf), len - strlen(buf), "different devices (%s, %s); ",
			 db_device_label(b->device), db_device_label(c->device));
	if (b->kind != c->kind)
		snprintf(buf + strlen(buf), len - strlen(buf), "different kinds of run (%s, %s); ",
			 run_kind_name(b->kind), run_kind_name(c->kind));
	if (strcmp(b->git_revision, c->git_revision) != 0)
		snprintf(buf + strlen(buf), len - strlen(buf), "different builds (%s, %s); ",
			 b->git_revision[0] ? b->git_revision : "unknown",
			 c->git_revision[0] ? c->git_revision : "unknown");
	if (r->mixed_timers)
		snprintf(buf + strlen(buf), len - strlen(buf),
			 "medians taken by different timers (cupti, events) are compared; ");
	if (r->base->nruns == 1 && r->cand->nruns == 1 && r->base->ids[0] == r->cand->ids[0])
		snprintf(buf + strlen(buf), len - strlen(buf), "the same run on both sides; ");
	if (buf[0])
		buf[strlen(buf) - 2] = '\0';
}

void compare_side_text(const struct compare_side *s, char *buf, size_t len)
{
	const struct db_run_row *r = &s->run;
	snprintf(buf, len, "%s (%s, %s, build %s%s%s)", s->label, run_kind_name(r->kind), r->started_at,
		 r->git_revision[0] ? r->git_revision : "unknown", r->tag[0] ? ", tag " : "", r->tag);
}

/* How an entry is named in the status lists: a conformance case by its
 * name; a tune's evaluation, whose case name its configurations share, by
 * its configuration. */
static const char *entry_label(const struct compare_result *r, const struct compare_entry *e, char *buf,
			       size_t len)
{
	if (r->cand->run.kind == RUN_CONFORMANCE)
		return e->case_name;
	config_text(e, buf, len);
	return buf;
}

/* Whether a status change is listed: new and removed entries only when
 * asked (a tune's search visits other configurations each time). */
static int listed_change(const struct compare_item *it, int verbose)
{
	return it->change != CHANGE_NONE &&
	       (verbose || (it->change != CHANGE_NEW && it->change != CHANGE_REMOVED));
}

/* A median's interval as listed, in µs; "[-]" for a result stored before
 * intervals were kept, which counts as its median alone. */
static const char *interval_text(const struct compare_entry *e, char *buf, size_t len)
{
	if (e->timing.ci_high_ms > 0)
		snprintf(buf, len, "[%.3f, %.3f]", e->timing.ci_low_ms * 1e3, e->timing.ci_high_ms * 1e3);
	else
		snprintf(buf, len, "[-]");
	return buf;
}

/* A best's configuration as listed: "-" when the side has none. */
static const char *params_shown(const struct compare_entry *e)
{
	return !e ? "-" : e->params[0] ? e->params : "(default)";
}

static const char *status_of(const struct compare_entry *e)
{
	return e ? status_name(e->status) : "-";
}

/* The best of one problem changed enough to list: another configuration,
 * or a median moved beyond the threshold; or present on one side only. */
static int best_changed(const struct compare_result *r, const struct compare_best *b)
{
	if (!b->base || !b->cand)
		return 1;
	return strcmp(b->base->params, b->cand->params) != 0 ||
	       fabs(b->cand->timing.median_ms / b->base->timing.median_ms - 1) > r->threshold;
}

static int listed_timing(const struct compare_item *it, int verbose)
{
	return it->timed && (verbose || it->verdict != VERDICT_SAME);
}

/* Whether the energy verdicts are said: when some item timed in both has
 * an energy figure, or when they gate (--gate energy), so that a gate with
 * nothing measured says so rather than passing in silence. */
static int energy_said(const struct compare_result *r)
{
	return r->energy_seen > 0 || r->gate_energy;
}

/* An energy verdict is listed when it is one of a change, or when asked;
 * an item without one only counts. */
static int listed_energy(const struct compare_item *it, int verbose)
{
	return it->timed && (it->energy == ENERGY_VERDICT_MORE || it->energy == ENERGY_VERDICT_LESS ||
			     (verbose && it->energy == ENERGY_VERDICT_SAME));
}

/* How many items listed_change takes, from the tallies alone. */
static int changes_listed(const struct compare_result *r, int verbose)
{
	int n = 0;
	for (int c = CHANGE_NONE + 1; c <= CHANGE_REMOVED; c++)
		n += r->counts[c];
	return verbose ? n : n - r->counts[CHANGE_NEW] - r->counts[CHANGE_REMOVED];
}

/* How many items listed_timing takes, from the tallies alone. */
static int timings_listed(const struct compare_result *r, int verbose)
{
	return r->verdicts[VERDICT_SLOWER] + r->verdicts[VERDICT_FASTER] + (verbose ? r->verdicts[VERDICT_SAME] : 0);
}

/* How many items listed_energy takes, from the tallies alone. */
static int energies_listed(const struct compare_result *r, int verbose)
{
	return r->energy[ENERGY_VERDICT_MORE] + r->energy[ENERGY_VERDICT_LESS] +
	       (verbose ? r->energy[ENERGY_VERDICT_SAME] : 0);
}

/* Starts a pass over the items for a list of `listed` of them (same_too:
 * SAME timings among them): 1 to read them, 0 when the list is empty
 * (nothing is read again), -1 on error with a message. */
static int pass_start(struct compare_stream *s, int listed, int same_too, char *err, size_t len)
{
	if (!listed)
		return 0;
	return compare_stream_start_listing(s, same_too, err, len) < 0 ? -1 : 1;
}

void compare_status_text(const struct compare_result *r, char *buf, size_t len)
{
	int other = r->counts[CHANGE_STATUS] + r->counts[CHANGE_OBSERVED];
	snprintf(buf, len, "%d regression%s, %d fixed, %d other change%s, %d new, %d removed",
		 r->counts[CHANGE_REGRESSION], r->counts[CHANGE_REGRESSION] == 1 ? "" : "s",
		 r->counts[CHANGE_FIXED], other, other == 1 ? "" : "s", r->counts[CHANGE_NEW],
		 r->counts[CHANGE_REMOVED]);
}

void compare_timing_text(const struct compare_result *r, char *buf, size_t len)
{
	int timed = r->verdicts[0] + r->verdicts[1] + r->verdicts[2];
	snprintf(buf, len, "%d configuration%s timed in both, threshold %.3g%%: %d slower, %d faster, %d same",
		 timed, timed == 1 ? "" : "s", 100 * r->threshold, r->verdicts[VERDICT_SLOWER],
		 r->verdicts[VERDICT_FASTER], r->verdicts[VERDICT_SAME]);
}

void compare_energy_text(const struct compare_result *r, char *buf, size_t len)
{
	snprintf(buf, len, "%d more, %d less, %d same, %d not measured", r->energy[ENERGY_VERDICT_MORE],
		 r->energy[ENERGY_VERDICT_LESS], r->energy[ENERGY_VERDICT_SAME], r->energy[ENERGY_VERDICT_NONE]);
}

void compare_energy_change_text(const struct compare_item *it, char *buf, size_t len)
{
	if (it->energy == ENERGY_VERDICT_NONE)
		snprintf(buf, len, "energy %s", compare_energy_name(it->energy));
	else
		snprintf(buf, len, "energy %+.1f%% (%s)", 100 * (it->energy_ratio - 1), compare_energy_name(it->energy));
}

/* One side's energy per launch as listed, in mJ with its uncertainty
 * where that was measured; "-" when the energy was not. */
static const char *joules_text(const struct compare_entry *e, char *buf, size_t len)
{
	const struct energy_stats *en = &e->timing.energy;
	if (!energy_measured(en))
		snprintf(buf, len, "-");
	else if (en->uncertainty > 0)
		snprintf(buf, len, "%.3f mJ +/-%.1f%%", en->joules * 1e3, 100 * en->uncertainty);
	else
		snprintf(buf, len, "%.3f mJ", en->joules * 1e3);
	return buf;
}

/* What the result line says of energy: its verdicts fail only under
 * --gate energy, and only then does the line count them. */
static void gated_energy_text(const struct compare_result *r, char *buf, size_t len)
{
	buf[0] = '\0';
	if (r->gate_energy)
		snprintf(buf, len, ", %d with more energy", r->energy[ENERGY_VERDICT_MORE]);
}

void compare_change_text(const struct compare_item *it, char *buf, size_t len)
{
	snprintf(buf, len, "%+.1f%%", 100 * (it->ratio - 1));
}

void compare_interval_text(const struct compare_item *it, char *buf, size_t len)
{
	snprintf(buf, len, "[%+.1f%%, %+.1f%%]", 100 * (it->lo - 1), 100 * (it->hi - 1));
}

void compare_ratio_text(const struct compare_item *it, char *buf, size_t len)
{
	char change[32], interval[64];
	compare_change_text(it, change, sizeof change);
	compare_interval_text(it, interval, sizeof interval);
	snprintf(buf, len, "%s %s", change, interval);
}

int compare_print_table(FILE *f, const struct compare_result *r, struct compare_stream *s, int verbose,
			char *err, size_t len)
{
	char a[512], b[512], diff[512], cfg[CASE_PARAMS_MAX + 128], ia[64], ib[64], line[160];
	const struct compare_item *it;
	int got;
	compare_side_text(r->base, a, sizeof a);
	compare_side_text(r->cand, b, sizeof b);
	fprintf(f, "base: %s\nnew:  %s\n", a, b);
	fprintf(f, "device: %s\n", db_device_label(r->cand->run.device));
	compare_differences(r, diff, sizeof diff);
	if (diff[0])
		fprintf(f, "WARNING: %s\n", diff);
	compare_status_text(r, line, sizeof line);
	fprintf(f, "\nstatus: %s\n", line);
	got = pass_start(s, changes_listed(r, verbose), 0, err, len);
	while (got > 0 && (got = compare_stream_next(s, &it, err, len)) > 0) {
		if (!listed_change(it, verbose))
			continue;
		const struct compare_entry *e = it->cand ? it->cand : it->base;
		fprintf(f, "  %-10s  %-40s  %s -> %s  (%s%s%s)\n", compare_change_name(it->change),
			entry_label(r, e, cfg, sizeof cfg), status_of(it->base), status_of(it->cand),
			it->base ? it->base->observed : "-", " -> ", it->cand ? it->cand->observed : "-");
	}
	if (got < 0)
		return -1;
	compare_timing_text(r, line, sizeof line);
	fprintf(f, "\ntiming: %s\n", line);
	got = pass_start(s, timings_listed(r, verbose), verbose, err, len);
	while (got > 0 && (got = compare_stream_next(s, &it, err, len)) > 0) {
		if (!listed_timing(it, verbose))
			continue;
		config_text(it->cand, cfg, sizeof cfg);
		compare_ratio_text(it, line, sizeof line);
		fprintf(f, "  %-6s  %s\n          %.3f us %s -> %.3f us %s: %s\n",
			compare_verdict_name(it->verdict), cfg, it->base->timing.median_ms * 1e3,
			interval_text(it->base, ia, sizeof ia), it->cand->timing.median_ms * 1e3,
			interval_text(it->cand, ib, sizeof ib), line);
	}
	if (got < 0)
		return -1;
	if (energy_said(r)) {
		compare_energy_text(r, line, sizeof line);
		fprintf(f, "\nenergy: %s\n", line);
		got = pass_start(s, energies_listed(r, verbose), verbose, err, len);
		while (got > 0 && (got = compare_stream_next(s, &it, err, len)) > 0) {
			if (!listed_energy(it, verbose))
				continue;
			config_text(it->cand, cfg, sizeof cfg);
			compare_energy_change_text(it, line, sizeof line);
			fprintf(f, "  %-6s  %s\n          %s -> %s: %s\n", compare_energy_name(it->energy), cfg,
				joules_text(it->base, ia, sizeof ia), joules_text(it->cand, ib, sizeof ib), line);
		}
		if (got < 0)
			return -1;
	}
	int changed = 0;
	for (size_t i = 0; i < r->nbest; i++)
		changed += best_changed(r, &r->best[i]);
	fprintf(f, "\nbest per problem (what conform history follows; not a verdict): %d of %zu changed\n",
		changed, r->nbest);
	for (size_t i = 0; i < r->nbest; i++) {
		const struct compare_best *bb = &r->best[i];
		if (!best_changed(r, bb))
			continue;
		const struct compare_entry *e = bb->cand ? bb->cand : bb->base;
		char size[48];
		compare_size_text(e, size, sizeof size);
		fprintf(f, "  %s %s %s n=%s: %s -> %s", e->variant, e->dtype, e->op[0] ? e->op : "-", size,
			params_shown(bb->base), params_shown(bb->cand));
		if (bb->base && bb->cand)
			fprintf(f, " (%.3f -> %.3f us, %+.1f%%)", bb->base->timing.median_ms * 1e3,
				bb->cand->timing.median_ms * 1e3, 100 * (bb->cand->timing.median_ms / bb->base->timing.median_ms - 1));
		fputc('\n', f);
	}
	gated_energy_text(r, line, sizeof line);
	fprintf(f, "\nresult: %d regression%s, %d slower configuration%s%s: %s\n",
		r->counts[CHANGE_REGRESSION], r->counts[CHANGE_REGRESSION] == 1 ? "" : "s",
		r->verdicts[VERDICT_SLOWER], r->verdicts[VERDICT_SLOWER] == 1 ? "" : "s", line,
		compare_regressed(r) ? "exit 1" : "exit 0");
	return 0;
}

int compare_print_markdown(FILE *f, const struct compare_result *r, struct compare_stream *s, int verbose,
			   char *err, size_t len)
{
	char a[512], b[512], diff[512], cfg[CASE_PARAMS_MAX + 128], ia[64], ib[64], gated[64];
	const struct compare_item *it;
	int got;
	compare_side_text(r->base, a, sizeof a);
	compare_side_text(r->cand, b, sizeof b);
	compare_differences(r, diff, sizeof diff);
	gated_energy_text(r, gated, sizeof gated);
	fprintf(f, "## conform compare: %s\n\n", compare_regressed(r) ? "regression" : "no regression");
	fprintf(f, "| | run |\n|---|---|\n| base | %s |\n| new | %s |\n| device | %s |\n\n", a, b,
		db_device_label(r->cand->run.device));
	if (diff[0])
		fprintf(f, "> **Warning:** %s\n\n", diff);
	fprintf(f, "**%d status regression%s, %d slower configuration%s%s** (threshold %.3g%%); "
		"%d fixed, %d faster.\n\n",
		r->counts[CHANGE_REGRESSION], r->counts[CHANGE_REGRESSION] == 1 ? "" : "s",
		r->verdicts[VERDICT_SLOWER], r->verdicts[VERDICT_SLOWER] == 1 ? "" : "s", gated,
		100 * r->threshold, r->counts[CHANGE_FIXED], r->verdicts[VERDICT_FASTER]);
	int any = 0;
	got = pass_start(s, changes_listed(r, verbose), 0, err, len);
	while (got > 0 && (got = compare_stream_next(s, &it, err, len)) > 0) {
		if (!listed_change(it, verbose))
			continue;
		if (!any++)
			fputs("### Status changes\n\n| change | case | base | new | observed |\n|---|---|---|---|---|\n", f);
		const struct compare_entry *e = it->cand ? it->cand : it->base;
		fprintf(f, "| %s | `%s` | %s | %s | %s -> %s |\n", compare_change_name(it->change),
			entry_label(r, e, cfg, sizeof cfg), status_of(it->base), status_of(it->cand),
			it->base ? it->base->observed : "-", it->cand ? it->cand->observed : "-");
	}
	if (got < 0)
		return -1;
	if (any)
		fputc('\n', f);
	any = 0;
	got = pass_start(s, timings_listed(r, verbose), verbose, err, len);
	while (got > 0 && (got = compare_stream_next(s, &it, err, len)) > 0) {
		if (!listed_timing(it, verbose))
			continue;
		if (!any++)
			fputs("### Timing\n\n| verdict | configuration | base (µs) | new (µs) | change | its interval |\n"
			      "|---|---|---|---|---|---|\n", f);
		config_text(it->cand, cfg, sizeof cfg);
		fprintf(f, "| **%s** | `%s` | %.3f %s | %.3f %s | %+.1f%% | [%+.1f%%, %+.1f%%] |\n",
			compare_verdict_name(it->verdict), cfg, it->base->timing.median_ms * 1e3,
			interval_text(it->base, ia, sizeof ia), it->cand->timing.median_ms * 1e3,
			interval_text(it->cand, ib, sizeof ib), 100 * (it->ratio - 1), 100 * (it->lo - 1),
			100 * (it->hi - 1));
	}
	if (got < 0)
		return -1;
	if (any)
		fputc('\n', f);
	int timed = r->verdicts[0] + r->verdicts[1] + r->verdicts[2];
	fprintf(f, "%d configuration%s timed in both: %d slower, %d faster, %d the same.  "
		"Cases: %d new, %d removed.\n\n",
		timed, timed == 1 ? "" : "s", r->verdicts[VERDICT_SLOWER], r->verdicts[VERDICT_FASTER],
		r->verdicts[VERDICT_SAME], r->counts[CHANGE_NEW], r->counts[CHANGE_REMOVED]);
	if (energy_said(r)) {
		char line[160];
		any = 0;
		got = pass_start(s, energies_listed(r, verbose), verbose, err, len);
		while (got > 0 && (got = compare_stream_next(s, &it, err, len)) > 0) {
			if (!listed_energy(it, verbose))
				continue;
			if (!any++)
				fputs("### Energy\n\n| verdict | configuration | base (per launch) | new (per launch) | change |\n"
				      "|---|---|---|---|---|\n", f);
			config_text(it->cand, cfg, sizeof cfg);
			fprintf(f, "| **%s** | `%s` | %s | %s | %+.1f%% |\n", compare_energy_name(it->energy), cfg,
				joules_text(it->base, ia, sizeof ia), joules_text(it->cand, ib, sizeof ib),
				100 * (it->energy_ratio - 1));
		}
		if (got < 0)
			return -1;
		if (any)
			fputc('\n', f);
		compare_energy_text(r, line, sizeof line);
		fprintf(f, "Energy: %s%s.\n\n", line,
			r->gate_energy ? " (`--gate energy`: more energy fails)" : " (not gated)");
	}
	any = 0;
	for (size_t i = 0; i < r->nbest; i++) {
		const struct compare_best *bb = &r->best[i];
		if (!best_changed(r, bb))
			continue;
		if (!any++)
			fputs("### Best per problem (not a verdict)\n\n| problem | base | new | change |\n|---|---|---|---|\n", f);
		const struct compare_entry *e = bb->cand ? bb->cand : bb->base;
		char size[48], change[32] = "-";
		compare_size_text(e, size, sizeof size);
		if (bb->base && bb->cand)
			snprintf(change, sizeof change, "%+.1f%%", 100 * (bb->cand->timing.median_ms / bb->base->timing.median_ms - 1));
		fprintf(f, "| `%s %s %s n=%s` | `%s` | `%s` | %s |\n", e->variant, e->dtype, e->op[0] ? e->op : "-",
			size, params_shown(bb->base), params_shown(bb->cand), change);
	}
	if (any)
		fputc('\n', f);
	fprintf(f, "Exit status %d.\n", compare_regressed(r));
	return 0;
}

static struct emit_field config_fields(const struct compare_entry *e, struct emit_field *f)
{
	f[0] = EMIT_STR("variant", e->variant);
	f[1] = EMIT_STR("dtype", e->dtype);
	f[2] = EMIT_STR("op", e->op);
	f[3] = EMIT_INT("n", e->n);
	f[4] = EMIT_INT("cols", e->cols);
	f[5] = EMIT_STR("params", e->params);
	return f[0];
}

/* A member that is null when the entry is absent from that side. */
static void json_text(struct emit_json *j, const char *key, const char *s)
{
	if (s)
		emit_json_string(j, key, s);
	else
		emit_json_null(j, key);
}

/* A side's energy per launch, null when not measured. */
static void json_joules(struct emit_json *j, const char *key, const struct energy_stats *e)
{
	if (energy_measured(e))
		emit_json_real(j, key, e->joules, -1);
	else
		emit_json_null(j, key);
}

int compare_print_json(FILE *f, const struct compare_result *r, struct compare_stream *s, char *err,
		       size_t len)
{
	const struct compare_item *it;
	int got;
	struct emit_json j;
	const struct compare_side *sides[2] = {r->base, r->cand};
	const char *names[2] = {"base", "new"};
	for (int k = 0; k < 2; k++) {
		const struct db_run_row *run = &sides[k]->run;
		emit_json_init(&j, f);
		emit_json_object(&j, NULL);
		emit_json_string(&j, "section", "run");
		emit_json_string(&j, "side", names[k]);
		emit_json_string(&j, "label", sides[k]->label);
		emit_json_int(&j, "run_id", run->id);
		emit_json_uint(&j, "runs", sides[k]->nruns);
		emit_json_string(&j, "kind", run_kind_name(run->kind));
		emit_json_string(&j, "tag", run->tag);
		emit_json_string(&j, "started_at", run->started_at);
		emit_json_string(&j, "git_revision", run->git_revision);
		emit_json_string(&j, "device", db_device_label(run->device));
		emit_json_close(&j);
	}
	got = pass_start(s, r->reported, 1, err, len);
	while (got > 0 && (got = compare_stream_next(s, &it, err, len)) > 0) {
		if (it->change == CHANGE_NONE && !it->timed)
			continue;
		const struct compare_entry *e = it->cand ? it->cand : it->base;
		struct emit_field cf[6];
		config_fields(e, cf);
		emit_json_init(&j, f);
		emit_json_object(&j, NULL);
		emit_json_string(&j, "section", it->timed ? "timing" : "status");
		emit_json_string(&j, "case", e->case_name);
		for (int k = 0; k < 6; k++)
			emit_json_field(&j, &cf[k]);
		emit_json_string(&j, "change", compare_change_name(it->change));
		json_text(&j, "status_base", it->base ? status_name(it->base->status) : NULL);
		json_text(&j, "status_new", it->cand ? status_name(it->cand->status) : NULL);
		if (it->timed) {
			emit_json_string(&j, "verdict", compare_verdict_name(it->verdict));
			emit_json_real(&j, "base_us", it->base->timing.median_ms * 1e3, -1);
			emit_json_real(&j, "new_us", it->cand->timing.median_ms * 1e3, -1);
			emit_json_real(&j, "ratio", it->ratio, -1);
			emit_json_real(&j, "ratio_low", it->lo, -1);
			emit_json_real(&j, "ratio_high", it->hi, -1);
			emit_json_string(&j, "timer_base", timing_timer_name(it->base->timing.timer));
			emit_json_string(&j, "timer_new", timing_timer_name(it->cand->timing.timer));
			json_joules(&j, "energy_base_j", &it->base->timing.energy);
			json_joules(&j, "energy_new_j", &it->cand->timing.energy);
			if (it->energy != ENERGY_VERDICT_NONE) {
				emit_json_real(&j, "energy_change", it->energy_ratio - 1, -1);
				emit_json_string(&j, "energy_verdict", compare_energy_name(it->energy));
			} else {
				emit_json_null(&j, "energy_change");
				emit_json_null(&j, "energy_verdict");
			}
		}
		emit_json_close(&j);
	}
	if (got < 0)
		return -1;
	for (size_t i = 0; i < r->nbest; i++) {
		const struct compare_best *bb = &r->best[i];
		const struct compare_entry *e = bb->cand ? bb->cand : bb->base;
		emit_json_init(&j, f);
		emit_json_object(&j, NULL);
		emit_json_string(&j, "section", "best");
		struct emit_field cf[6];
		config_fields(e, cf);
		for (int k = 0; k < 5; k++) /* the problem: not the params */
			emit_json_field(&j, &cf[k]);
		json_text(&j, "params_base", bb->base ? bb->base->params : NULL);
		json_text(&j, "params_new", bb->cand ? bb->cand->params : NULL);
		if (bb->base)
			emit_json_real(&j, "base_us", bb->base->timing.median_ms * 1e3, -1);
		else
			emit_json_null(&j, "base_us");
		if (bb->cand)
			emit_json_real(&j, "new_us", bb->cand->timing.median_ms * 1e3, -1);
		else
			emit_json_null(&j, "new_us");
		emit_json_bool(&j, "changed", best_changed(r, bb));
		emit_json_close(&j);
	}
	emit_json_init(&j, f);
	emit_json_object(&j, NULL);
	emit_json_object(&j, "summary");
	emit_json_int(&j, "regressions", r->counts[CHANGE_REGRESSION]);
	emit_json_int(&j, "fixed", r->counts[CHANGE_FIXED]);
	emit_json_int(&j, "status_changes", r->counts[CHANGE_STATUS] + r->counts[CHANGE_OBSERVED]);
	emit_json_int(&j, "new", r->counts[CHANGE_NEW]);
	emit_json_int(&j, "removed", r->counts[CHANGE_REMOVED]);
	emit_json_int(&j, "slower", r->verdicts[VERDICT_SLOWER]);
	emit_json_int(&j, "faster", r->verdicts[VERDICT_FASTER]);
	emit_json_int(&j, "same", r->verdicts[VERDICT_SAME]);
	emit_json_int(&j, "energy_more", r->energy[ENERGY_VERDICT_MORE]);
	emit_json_int(&j, "energy_less", r->energy[ENERGY_VERDICT_LESS]);
	emit_json_int(&j, "energy_same", r->energy[ENERGY_VERDICT_SAME]);
	emit_json_int(&j, "energy_not_measured", r->energy[ENERGY_VERDICT_NONE]);
	emit_json_bool(&j, "gate_energy", r->gate_energy);
	emit_json_real(&j, "threshold", r->threshold, -1);
	emit_json_bool(&j, "mixed_timers", r->mixed_timers);
	emit_json_int(&j, "exit", compare_regressed(r));
	emit_json_close(&j);
	emit_json_close(&j);
	return 0;
}

int compare_print_junit(FILE *f, const struct compare_result *r, struct compare_stream *s, char *err,
			size_t len)
{
	const struct compare_item *it;
	int got;
	char cfg[CASE_PARAMS_MAX + 128];
	int tests = r->reported, failures = compare_failures(r);
	/* errors: the schema CI readers follow (junit-10.xsd, as run's
	 * report) requires it on a <testsuite>; a comparison has none. */
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<testsuites name=\"conform compare\" tests=\"%d\" failures=\"%d\" errors=\"0\">\n"
		   "<testsuite name=\"compare\" tests=\"%d\" failures=\"%d\" errors=\"0\">\n",
		tests, failures, tests, failures);
	got = pass_start(s, r->reported, 1, err, len);
	while (got > 0 && (got = compare_stream_next(s, &it, err, len)) > 0) {
		if (it->change == CHANGE_NONE && !it->timed)
			continue;
		const struct compare_entry *e = it->cand ? it->cand : it->base;
		fputs("<testcase classname=\"", f);
		fputs(it->timed ? "timing" : "status", f);
		fputs("\" name=\"", f);
		if (it->timed) {
			config_text(e, cfg, sizeof cfg);
			text_xml_escape(f, cfg);
		} else {
			text_xml_escape(f, entry_label(r, e, cfg, sizeof cfg));
		}
		fputs("\">", f);
		int slower = it->timed && it->verdict == VERDICT_SLOWER;
		int more = it->timed && r->gate_energy && it->energy == ENERGY_VERDICT_MORE;
		if (it->change == CHANGE_REGRESSION) {
			fprintf(f, "<failure message=\"%s -&gt; %s\"/>", status_of(it->base), status_of(it->cand));
		} else if (slower || more) {
			/* One failure for the item, saying each verdict that fails it. */
			fputs("<failure message=\"", f);
			if (slower)
				fprintf(f, "SLOWER: %.3f -&gt; %.3f us (%+.1f%%, interval %+.1f%% to %+.1f%%)",
					it->base->timing.median_ms * 1e3, it->cand->timing.median_ms * 1e3,
					100 * (it->ratio - 1), 100 * (it->lo - 1), 100 * (it->hi - 1));
			if (more)
				fprintf(f, "%sMORE ENERGY: %.3f -&gt; %.3f mJ per launch (%+.1f%%)", slower ? "; " : "",
					it->base->timing.energy.joules * 1e3, it->cand->timing.energy.joules * 1e3,
					100 * (it->energy_ratio - 1));
			fputs("\"/>", f);
		}
		fputs("</testcase>\n", f);
	}
	if (got < 0)
		return -1;
	fputs("</testsuite>\n</testsuites>\n", f);
	return 0;
}
