/*
 * report_console.c - the human report.
 *
 * stdout: one line per notable result (every result with -v), a per-status
 * count, and last the summary line "N passed, N failed, N skipped".  With
 * --json, stdout belongs to the JSON lines and these go to stderr.
 * A failure the run's baseline lists says so after its name, "(known:
 * REASON)", with the message as observed (the stored one carries the
 * baseline's note, which would say the reason twice); a listed case that
 * passed is notable too, so that its entry is removed.
 * stderr: on a terminal, a live progress line with the case in flight, its
 * watchdog countdown and an ETA.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/text.h"
#include "report/report.h"
#include "session/baseline.h"

static FILE *out_stream(const struct console_state *st)
{
	return st->json ? stderr : stdout;
}

static void clear_progress(struct console_state *st)
{
	if (st->progress)
		fputs("\r\033[K", stderr);
}

static void draw_progress(struct console_state *st, double remaining)
{
	if (!st->progress || !st->current)
		return;
	double elapsed = text_now() - st->started;
	char eta[32] = "";
	if (st->index > 0) {
		double left = elapsed / (double)st->index * (double)(st->total - st->index);
		snprintf(eta, sizeof eta, " ETA %.0fs", left);
	}
	if (st->ndev > 1) {
		/* Each device's case in flight, its name cut to share the line. */
		int w = 72 / st->ndev < 12 ? 12 : 72 / st->ndev;
		fprintf(stderr, "\r\033[K[%zu/%zu]%s", st->index + 1, st->total, eta);
		for (int k = 0; k < st->ndev; k++) {
			const struct device_activity *d = &st->dev[k];
			if (d->c)
				fprintf(stderr, " | %d: %.*s (%.1fs)", d->ordinal, w, d->c->name, d->remaining_s);
			else
				fprintf(stderr, " | %d: idle", d->ordinal);
		}
	} else {
		fprintf(stderr, "\r\033[K[%zu/%zu]%s %.60s (%.1fs left)", st->index + 1, st->total, eta,
			st->current->name, remaining);
	}
	fflush(stderr);
}

static int console_begin(void *ctx, const struct run_context *rc, char *err, size_t len)
{
	struct console_state *st = ctx;
	(void)err;
	(void)len;
	st->started = text_now();
	FILE *f = out_stream(st);
	st->ndev = report_spread(rc);
	for (int k = 0; k < st->ndev; k++) {
		const struct gpu_info *g = &rc->devices[k];
		st->dev[k] = (struct device_activity){.ordinal = g->index};
		fprintf(f, "device %d: %s (sm_%d%d, %d SMs)\n", g->index, g->name, g->cc_major, g->cc_minor,
			g->sm_count);
	}
	const char *cases = rc->total == 1 ? "case" : "cases";
	if (st->ndev)
		fprintf(f, "%zu %s over %d devices, seed %llu\n", rc->total, cases, st->ndev,
			(unsigned long long)rc->seed);
	else if (rc->has_gpu)
		fprintf(f, "device %d: %s (sm_%d%d, %d SMs); %zu %s, seed %llu\n", rc->gpu.index,
			rc->gpu.name, rc->gpu.cc_major, rc->gpu.cc_minor, rc->gpu.sm_count, rc->total, cases,
			(unsigned long long)rc->seed);
	else
		fprintf(f, "no GPU: %s; GPU cases are skipped; %zu %s, seed %llu\n",
			rc->nodev_reason, rc->total, cases, (unsigned long long)rc->seed);
	if (st->db_path)
		fprintf(f, "results in %s\n", st->db_path);
	fflush(f);
	return 0;
}

static void console_start(void *ctx, const struct case_spec *c, size_t index, size_t total,
			  double timeout_s)
{
	struct console_state *st = ctx;
	st->current = c;
	st->index = index;
	st->total = total;
	st->timeout_s = timeout_s;
	draw_progress(st, timeout_s);
}

static void console_tick(void *ctx, double remaining)
{
	draw_progress(ctx, remaining);
}

static void console_devices(void *ctx, const struct device_activity *a, int n)
{
	struct console_state *st = ctx;
	for (int k = 0; k < n && k < st->ndev; k++)
		st->dev[k] = a[k];
}

static int console_result(void *ctx, const struct result *r, size_t index, size_t total,
			  char *err, size_t len)
{
	struct console_state *st = ctx;
	(void)index;
	(void)total;
	(void)err;
	(void)len;
	int known = result_known(r), fixed = result_fixed(r);
	int notable = (r->status != STATUS_PASS && r->status != STATUS_XFAIL && r->status != STATUS_SKIP) ||
		      r->tolerated || fixed;
	if (!notable && !st->verbose)
		return 0;
	clear_progress(st);
	FILE *f = out_stream(st);
	const char *message = known ? baseline_note_skip(r->message, r->baseline_reason) : r->message;
	fprintf(f, "%-7s %s", status_name(r->status), r->c->name);
	if (known)
		fprintf(f, " (known: %s)", r->baseline_reason);
	else if (fixed)
		fprintf(f, " (fixed, remove it from the baseline: %s)", r->baseline_reason);
	if (r->status == STATUS_XFAIL || r->status == STATUS_XPASS || r->c->expect == EXPECT_UNDEFINED)
		fprintf(f, " [expected %s, observed %s]", expect_name(r->c->expect), outcome_name(r->outcome));
	if (message[0])
		fprintf(f, ": %s", message);
	if (st->verbose)
		fprintf(f, " (%.2fs)", r->duration_s);
	if (st->ndev && r->gpu)
		fprintf(f, " [device %d]", r->gpu->index);
	fputc('\n', f);
	fflush(f);
	return 0;
}

/* Once per group: the diagnosis of its failures, under their lines.  The
 * group is named by its first failing case. */
static int console_amend(void *ctx, const struct result_diagnosis *d, size_t index, char *err,
			 size_t len)
{
	struct console_state *st = ctx;
	(void)index; (void)err; (void)len;
	if (!d->first)
		return 0;
	clear_progress(st);
	FILE *f = out_stream(st);
	if (d->pattern)
		fprintf(f, "PATTERN %s: %s\n", d->c->name, d->pattern);
	if (d->shrunk)
		fprintf(f, "SHRUNK  %s: %s\n        reproduce: %s\n", d->c->name, d->shrunk,
			d->repro ? d->repro : "-");
	fflush(f);
	return 0;
}

static int console_end(void *ctx, const struct run_summary *s, char *err, size_t len)
{
	struct console_state *st = ctx;
	(void)err;
	(void)len;
	clear_progress(st);
	st->current = NULL;
	FILE *f = out_stream(st);
	int first = 1;
	for (int i = 0; i < STATUS_COUNT; i++) {
		if (!s->counts[i])
			continue;
		fprintf(f, "%s%s %d", first ? "" : ", ", status_name((enum status)i), s->counts[i]);
		first = 0;
	}
	fprintf(f, "%s%s in %.1f s\n", first ? "no cases" : "", s->interrupted ? "; interrupted" : "",
		s->wall_s);
	char line[192];
	report_summary_line(s, line, sizeof line);
	fprintf(f, "%s\n", line);
	fflush(f);
	return 0;
}

void console_sink(struct report_sink *s, struct console_state *st)
{
	memset(s, 0, sizeof *s);
	s->begin = console_begin;
	s->start = console_start;
	s->tick = console_tick;
	s->devices = console_devices;
	s->result = console_result;
	s->amend = console_amend;
	s->end = console_end;
	s->ctx = st;
}
