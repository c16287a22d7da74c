/*
 * tui_result_detail.c - the detail of one stored result (see
 * tui_result_detail.h).
 *
 * The checks behind a verdict store what they found in the result's
 * message, one part after another (case_result_lead puts a cause first,
 * "; " joins the rest): the detail splits the message where a part the
 * checks write begins, by the words they begin with, and labels each.  A
 * message that does not begin with one (a hang, a crash, a launch error,
 * a host case's words) is shown whole, as "message".
 */
#include "tui/tui_result_detail.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/text.h"
#include "tui/tui_energy.h"

/* The parts the checks write, by their first words, and their labels. */
static const struct {
	const char *lead, *label;
} verdict_parts[] = {
	{"exact probe (", "probe"},                      /* worker/reduce_driver.cu */
	{"wrote past the end of ", "guard"},             /* worker/guard.c */
	{"wrote before the start of ", "guard"},
	{"the kernel wrote into its input", "input"},    /* the input's hash */
	{"left its scratch dirty", "scratch"},           /* @scratch left set */
	{"never written: ", "cause"},                    /* worker/check.c */
	{"accumulated into an output it did not initialise", "cause"},
	{"NaN from finite inputs", "cause"},
	{"infinity from finite inputs", "cause"},
	{"the case itself: ", "the case itself"},        /* after a sanitizer's report */
};

/* The label of the part that starts at p, or NULL. */
static const char *part_at(const char *p)
{
	long long wrong, of;
	int end = 0;
	for (size_t i = 0; i < sizeof verdict_parts / sizeof verdict_parts[0]; i++)
		if (strncmp(p, verdict_parts[i].lead, strlen(verdict_parts[i].lead)) == 0)
			return verdict_parts[i].label;
	/* "3 of 4096 outputs wrong: [0] got ... want ...": the comparison. */
	if (sscanf(p, "%lld of %lld outputs wrong%n", &wrong, &of, &end) == 2 && end > 0)
		return "outputs";
	return NULL;
}

/* The verdict's parts of message m as fields; 0 when m does not begin
 * with one (nothing added). */
static int verdict_fields(struct tui_log *d, const char *m)
{
	const char *start[32], *label[32];
	size_t n = 0;
	if (!part_at(m))
		return 0;
	for (const char *p = m; *p && n < sizeof start / sizeof start[0]; p++) {
		const char *l = p == m || (p - m >= 2 && (strncmp(p - 2, "; ", 2) == 0 ||
							   strncmp(p - 2, ": ", 2) == 0))
					? part_at(p) : NULL;
		if (l) {
			start[n] = p;
			label[n++] = l;
		}
	}
	for (size_t k = 0; k < n; k++) {
		/* Up to the next part, without the "; " or ": " before it. */
		int w = (int)(k + 1 < n ? start[k + 1] - start[k] - 2 : (long)strlen(start[k]));
		tui_log_field(d, label[k], "%.*s", w, start[k]);
	}
	return 1;
}

/* Medians are stored in ms and shown in µs, as the tables show them. */
static double us(double ms)
{
	return ms * 1e3;
}

static void timing_fields(struct tui_log *d, const struct db_result_row *r)
{
	const char *u = tui_term_glyphs()->us;
	char line[256] = "";
	if (!isnan(r->median_ms))
		text_appendf(line, sizeof line, "median %.4g %s", us(r->median_ms), u);
	if (!isnan(r->gbps))
		text_appendf(line, sizeof line, "%s%.1f GB/s", line[0] ? ", " : "", r->gbps);
	if (r->samples > 0)
		text_appendf(line, sizeof line, "%s%d samples", line[0] ? ", " : "", r->samples);
	if (r->robust.timer != TIMER_NONE)
		text_appendf(line, sizeof line, "%stimed by %s", line[0] ? ", " : "",
			     timing_timer_name(r->robust.timer));
	tui_log_field(d, "timing", "%s", line);
	line[0] = '\0';
	if (!isnan(r->robust.spread) && !isnan(r->robust.ci_low_ms) && !isnan(r->robust.ci_high_ms))
		text_appendf(line, sizeof line, "median in [%.4g, %.4g] %s (95 %%), spread %.2f%%%s",
			     us(r->robust.ci_low_ms), us(r->robust.ci_high_ms), u, 100 * r->robust.spread,
			     r->robust.noise_met > 0	? ", noise target met"
			     : r->robust.noise_met == 0 ? ", noise target NOT reached"
							: "");
	else
		text_appendf(line, sizeof line, "not stored (measured before conform kept the median's "
			     "interval)");
	if (!isnan(r->noise))
		text_appendf(line, sizeof line, "; stddev/mean %.1f%%", 100 * r->noise);
	if (r->robust.throttled > 0)
		text_appendf(line, sizeof line, "; %d throttled samples dropped", r->robust.throttled);
	tui_log_field(d, "interval", "%s", line);
}

void tui_result_detail(struct tui_log *d, const struct db_result_row *r)
{
	char shape[48];
	tui_log_clear(d);
	tui_log_add(d, tui_term_status_attr(r->status), "%s  %s", status_name(r->status), r->case_name);
	tui_shape(shape, sizeof shape, r->n, r->cols);
	if (r->cols)
		tui_log_field(d, "problem", "%s %s, %s: %lld row%s of %lld", r->variant, r->dtype, shape,
			      (long long)r->n, r->n == 1 ? "" : "s", (long long)r->cols);
	else
		tui_log_field(d, "problem", "%s %s, n = %lld (%s)", r->variant, r->dtype, (long long)r->n,
			      shape);
	/* The run's took/seed line comes right after the problem, so a long
	 * message cannot push it out of a short screen. */
	if (isnan(r->duration_ms))
		tui_log_field(d, "took", "not stored; seed %s; recorded %s", r->seed[0] ? r->seed : "(none)",
			      r->created_at);
	else
		tui_log_field(d, "took", "%.1f ms; seed %s; recorded %s", r->duration_ms,
			      r->seed[0] ? r->seed : "(none)", r->created_at);
	if (r->device_id)
		tui_log_field(d, "device", "%s (device #%lld)", db_device_label(r->device),
			      (long long)r->device_id);
	else
		tui_log_field(d, "device", "%s", db_device_label(r->device));
	tui_log_field(d, "expected", "%s, observed %s", r->expect, r->observed);
	if (r->params[0])
		tui_log_field(d, "params", "%s", r->params);
	if (r->source[0])
		tui_log_field(d, "source", "%s (the kernel file's SHA-256)", r->source);
	if (!isnan(r->err_norm))
		tui_log_field(d, "error norm", "%.3g (relative L2)", r->err_norm);
	if (r->samples > 0 || !isnan(r->median_ms)) {
		timing_fields(d, r);
		tui_energy_detail(d, &r->energy);
	}
	/* What the verdict rests on; a sanitizer's report, which leads a
	 * message it is in, is its own field below. */
	const char *m = r->message;
	size_t slen = strlen(r->sanitizer);
	if (slen && strncmp(m, r->sanitizer, slen) == 0 && strncmp(m + slen, "; ", 2) == 0)
		m += slen + 2;
	else if (slen && strcmp(m, r->sanitizer) == 0)
		m += slen;
	if (!verdict_fields(d, m) && (m == r->message || m[0]))
		tui_log_field(d, "message", "%s", m[0] ? m : "(none)");
	/* A failure that explains itself: each only when the run stored it. */
	const struct {
		const char *label, *text;
	} diagnosis[] = {
		{"sanitizer", r->sanitizer},
		{"pattern", r->pattern},
		{"smallest failing", r->shrunk},
		{"reproduce", r->repro},
	};
	for (size_t i = 0; i < sizeof diagnosis / sizeof diagnosis[0]; i++)
		if (diagnosis[i].text[0])
			tui_log_field(d, diagnosis[i].label, "%s", diagnosis[i].text);
}
