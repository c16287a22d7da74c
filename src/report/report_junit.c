/*
 * report_junit.c - JUnit XML for CI systems.
 *
 * One <testsuite> per family (the first component of the case name).
 * FAIL and XPASS are <failure>s (the result was not what the suite says),
 * TIMEOUT, CRASH and ERROR are <error>s, SKIP is <skipped>; PASS and XFAIL
 * pass, XFAIL with a note.  A failure the run's baseline lists (a known
 * failure) is <skipped> with the message that gives the baseline's reason,
 * since CI systems fail a build on a <failure> or an <error>; a listed case
 * that passed says in its output that its entry can go.
 *
 * Every <testsuite> names the run: timestamp (its start, ISO-8601 UTC as
 * runs.started_at) and hostname, and <properties> with its seed, device
 * (the GPU, or "host"), revision, conform_version and run_id (its id in
 * the database).
 *
 * The report is valid against junit-10.xsd, the Jenkins xUnit schema that
 * CI readers of JUnit follow (tests/data/junit-10.xsd, tests/junit.sh).
 * That schema has no skipped count on <testsuites>: only each <testsuite>
 * carries one, and readers count the <skipped> of the cases.
 *
 * The file is written at the end of the run, also an interrupted one,
 * through a temporary file and rename, so a reader never sees half a
 * report; the temporary file is created before the first case runs
 * (junit_open), so a path that cannot be written is refused before the run
 * rather than after it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/text.h"
#include "common/vec.h"
#include "report/report.h"

static int junit_begin(void *ctx, const struct run_context *rc, char *err, size_t len)
{
	struct junit_state *st = ctx;
	(void)err; (void)len;
	st->rc = rc;
	return 0;
}

static int junit_result(void *ctx, const struct result *r, size_t index, size_t total,
			char *err, size_t len)
{
	struct junit_state *st = ctx;
	(void)index; (void)total;
	if (vec_push(st->results, st->count, st->cap, *r) < 0) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	return 0;
}

/* The diagnosis goes into the failure's message, after what the case
 * said: a CI page shows the smallest failing case and its command. */
static int junit_amend(void *ctx, const struct result_diagnosis *d, size_t index, char *err, size_t len)
{
	struct junit_state *st = ctx;
	(void)err; (void)len;
	/* Every result was copied, in order: the index-th is d's. */
	if (index >= st->count || st->results[index].c != d->c)
		return 0;
	struct result *r = &st->results[index];
	if (d->pattern)
		text_appendf(r->message, sizeof r->message, "; %s", d->pattern);
	if (d->shrunk)
		text_appendf(r->message, sizeof r->message, "; %s; reproduce: %s", d->shrunk,
			     d->repro ? d->repro : "-");
	return 0;
}

static size_t family_len(const char *name)
{
	const char *dot = strchr(name, '.');
	return dot ? (size_t)(dot - name) : strlen(name);
}

/* The element a result's <testcase> holds, "failure", "error" or
 * "skipped", or NULL for none: the one rule for the cases and the counts
 * of every <testsuite>. */
static const char *case_tag(const struct result *r)
{
	if (result_known(r))
		return "skipped";
	switch (r->status) {
	case STATUS_FAIL:
	case STATUS_XPASS:
		return "failure";
	case STATUS_TIMEOUT:
	case STATUS_CRASH:
	case STATUS_ERROR:
		return "error";
	case STATUS_SKIP:
		return "skipped";
	default:
		return NULL;
	}
}

/* Counts of the <testsuites> and <testsuite> attributes. */
struct junit_counts {
	int tests, failures, errors, skipped;
	double time;
};

static void count_case(struct junit_counts *n, const struct result *r)
{
	const char *tag = case_tag(r);
	n->tests++;
	n->time += r->duration_s;
	n->failures += tag && strcmp(tag, "failure") == 0;
	n->errors += tag && strcmp(tag, "error") == 0;
	n->skipped += tag && strcmp(tag, "skipped") == 0;
}

static void write_case(FILE *f, const struct result *r)
{
	const char *name = r->c->name;
	size_t fl = family_len(name);
	fprintf(f, "    <testcase classname=\"%.*s\" name=\"", (int)fl, name);
	text_xml_escape(f, name);
	fprintf(f, "\" time=\"%.3f\"", r->duration_s);
	const char *tag = case_tag(r);
	int fixed = result_fixed(r);
	if (!tag && r->status != STATUS_XFAIL && !r->tolerated && !fixed) {
		fputs("/>\n", f);
		return;
	}
	fputs(">\n", f);
	if (tag) {
		fprintf(f, "      <%s type=\"%s\" message=\"", tag, status_name(r->status));
		text_xml_escape(f, r->message);
		fprintf(f, "\">expected %s, observed %s</%s>\n", expect_name(r->c->expect),
			outcome_name(r->outcome), tag);
	} else if (fixed) {
		fputs("      <system-out>fixed, remove it from the baseline: listed as known to fail (", f);
		text_xml_escape(f, r->baseline_reason);
		fputs(")", f);
		if (r->message[0]) {
			fputs(". ", f);
			text_xml_escape(f, r->message);
		}
		fputs("</system-out>\n", f);
	} else if (r->tolerated) {
		fputs("      <system-out>", f);
		text_xml_escape(f, r->message);
		fputs("</system-out>\n", f);
	} else {
		fprintf(f, "      <system-out>XFAIL: expected %s and observed %s. ",
			expect_name(r->c->expect), outcome_name(r->outcome));
		text_xml_escape(f, r->message);
		fputs("</system-out>\n", f);
	}
	fputs("    </testcase>\n", f);
}

static void write_property(FILE *f, const char *name, const char *value)
{
	fprintf(f, "      <property name=\"%s\" value=\"", name);
	text_xml_escape(f, value);
	fputs("\"/>\n", f);
}

/* A family's <testsuite> start tag and the run's <properties>. */
static void write_suite_head(FILE *f, const struct run_context *rc, const char *fam, size_t fl,
			     const struct junit_counts *n)
{
	char num[32];

	fprintf(f, "  <testsuite name=\"%.*s\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\"",
		(int)fl, fam, n->tests, n->failures, n->errors, n->skipped, n->time);
	fprintf(f, " timestamp=\"%s\" hostname=\"", rc->started_at);
	text_xml_escape(f, rc->host);
	fputs("\">\n    <properties>\n", f);
	snprintf(num, sizeof num, "%llu", (unsigned long long)rc->seed);
	write_property(f, "seed", num);
	write_property(f, "device", report_device(rc));
	if (report_spread(rc)) {
		/* "0: NVIDIA H200, 1: NVIDIA H200": the devices a run spread over. */
		char list[1024];
		size_t used = 0;
		list[0] = '\0';
		for (int k = 0; k < rc->ndevices && used < sizeof list; k++) {
			int w = snprintf(list + used, sizeof list - used, "%s%d: %s", k ? ", " : "",
					 rc->devices[k].index, rc->devices[k].name);
			if (w < 0)
				break;
			used += (size_t)w;
		}
		write_property(f, "devices", list);
	}
	write_property(f, "revision", rc->git_revision);
	write_property(f, "conform_version", rc->version);
	if (rc->run_id > 0) {
		snprintf(num, sizeof num, "%lld", (long long)rc->run_id);
		write_property(f, "run_id", num);
	}
	fputs("    </properties>\n", f);
}

static int junit_end(void *ctx, const struct run_summary *s, char *err, size_t len)
{
	struct junit_state *st = ctx;
	if (!st->out.f && junit_open(st, err, len) < 0)
		return -1;
	FILE *f = st->out.f;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	struct junit_counts all = {0};
	for (size_t i = 0; i < st->count; i++)
		count_case(&all, &st->results[i]);
	fprintf(f, "<testsuites name=\"conform\" tests=\"%d\" failures=\"%d\" errors=\"%d\" time=\"%.3f\">\n",
		all.tests, all.failures, all.errors, s->wall_s);
	/* Families in order of first appearance; results keep run order. */
	for (size_t i = 0; i < st->count; i++) {
		const char *fam = st->results[i].c->name;
		size_t fl = family_len(fam);
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = family_len(st->results[j].c->name) == fl &&
			       strncmp(st->results[j].c->name, fam, fl) == 0;
		if (seen)
			continue;
		struct junit_counts n = {0};
		for (size_t j = i; j < st->count; j++) {
			const struct result *r = &st->results[j];
			if (family_len(r->c->name) == fl && strncmp(r->c->name, fam, fl) == 0)
				count_case(&n, r);
		}
		write_suite_head(f, st->rc, fam, fl, &n);
		for (size_t j = i; j < st->count; j++) {
			const struct result *r = &st->results[j];
			if (family_len(r->c->name) == fl && strncmp(r->c->name, fam, fl) == 0)
				write_case(f, r);
		}
		fputs("  </testsuite>\n", f);
	}
	fputs("</testsuites>\n", f);
	if (whole_file_commit(&st->out) < 0) {
		snprintf(err, len, "cannot write the report: %s (--junit %s)", strerror(errno), st->path);
		return -1;
	}
	return 0;
}

int junit_open(struct junit_state *st, char *err, size_t len)
{
	if (whole_file_open(&st->out, st->path) < 0) {
		/* The reason first: a long path must not hide it. */
		snprintf(err, len, "cannot write the JUnit report: %s (--junit %s)",
			 whole_file_why(&st->out, errno), st->path);
		return -1;
	}
	return 0;
}

void junit_sink(struct report_sink *s, struct junit_state *st)
{
	memset(s, 0, sizeof *s);
	s->begin = junit_begin;
	s->result = junit_result;
	s->amend = junit_amend;
	s->end = junit_end;
	s->ctx = st;
}

void junit_free(struct junit_state *st)
{
	whole_file_abort(&st->out);
	free(st->results);
	st->results = NULL;
	st->count = st->cap = 0;
}
