/*
 * session_diagnose.c - after a run's last case, what explains its failures
 * (session_diagnose.h).
 *
 * The run's results are grouped by what a fix would share: variant, dtype,
 * parameters (the operator and the configuration) and whether the problem
 * is flat or rows.  For each group with a failure:
 *  - its pattern (pattern.h), drawn from the sizes the run posed, costs
 *    nothing and is always looked for;
 *  - with shrinking on, the smallest failing problem below its smallest
 *    failing case (shrink.h), each probe run through the session's runner
 *    like any case, named as `conform run --n` names a case posed at
 *    another size (case_resized), so that its input is the one the
 *    printed command gives.  A size the run already posed is not run
 *    again: its result is told to the search.
 * What is found goes to every sink's amend, once per failing result of the
 * group.  The results themselves, and the run's tallies, never change:
 * this is an explanation beside them.
 */
#include "session/session_diagnose.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "common/text.h"
#include "common/vec.h"
#include "session/pattern.h"
#include "session/session_lanes.h"
#include "session/shrink.h"

int session_seen_add(struct session *s, const struct result *r)
{
	const struct session_seen v = {r->c, r->status, r->outcome};
	return vec_push(s->seen, s->nseen, s->seen_cap, v);
}

/* The results that one fix would share. */
static int same_group(const struct case_spec *a, const struct case_spec *b)
{
	return strcmp(a->variant, b->variant) == 0 && a->dtype == b->dtype &&
	       strcmp(a->params, b->params) == 0 && (a->cols > 0) == (b->cols > 0) &&
	       a->expect == b->expect && a->tolerance == b->tolerance;
}

static int failed(const struct session_seen *v)
{
	return v->c->expect == EXPECT_PASS && status_tally_expecting_pass(v->status) == TALLY_FAILED;
}

/* What a probe's result tells the search: a refused configuration or a
 * skip says nothing of the kernel at that size. */
static enum shrink_outcome probe_outcome(enum status st, enum outcome o)
{
	if (st == STATUS_PASS)
		return SHRINK_PASS;
	if (o == OUTCOME_INVALID || o == OUTCOME_SKIPPED)
		return SHRINK_UNKNOWN;
	return status_tally_expecting_pass(st) == TALLY_FAILED ? SHRINK_FAIL : SHRINK_UNKNOWN;
}

/*
 * The command that runs start at n x cols: a kernel file's ladder case by
 * the name it has at that size (the filter picks its operator), a suite's
 * case by its own name, resized by --n and --cols (run resolves the filter
 * first).  Either way the command's case has the probe's name, so its
 * input seed.
 */
static void repro_of(const struct session *s, const struct case_spec *start, int64_t n, int64_t cols,
		     char *buf, size_t len)
{
	const struct catalog_entry *e = catalog_lookup(s->rn.cfg.catalog, start->variant);
	const int user = e && e->path && e->path[0];
	const int ladder = user && strcmp(start->file, e->path) == 0;
	struct case_spec at;
	char num[32];

	case_resized(start, n, cols, &at);
	text_copy(buf, len, "conform run");
	if (user) {
		text_shell_append(buf, len, "--kernel");
		text_shell_append(buf, len, e->path);
	}
	if (!ladder && start->file[0]) {
		text_shell_append(buf, len, "--suite");
		text_shell_append(buf, len, start->file);
	}
	text_shell_append(buf, len, "--filter");
	text_shell_append(buf, len, ladder ? at.name : start->name);
	snprintf(num, sizeof num, "%lld", (long long)n);
	text_shell_append(buf, len, "--n");
	text_shell_append(buf, len, num);
	if (cols > 0) {
		snprintf(num, sizeof num, "%lld", (long long)cols);
		text_shell_append(buf, len, "--cols");
		text_shell_append(buf, len, num);
	}
	if (ladder) {
		text_shell_append(buf, len, "--dtype");
		text_shell_append(buf, len, dtype_name(start->dtype));
	}
	snprintf(num, sizeof num, "%llu", (unsigned long long)s->rn.cfg.seed);
	text_shell_append(buf, len, "--seed");
	text_shell_append(buf, len, num);
}

/* The result the run already has for the group's case at n x cols, or
 * NULL. */
static const struct session_seen *posed(const struct session *s, const size_t *group, size_t ng,
					int64_t n, int64_t cols)
{
	for (size_t k = 0; k < ng; k++) {
		const struct session_seen *v = &s->seen[group[k]];
		if (v->c->n == n && v->c->cols == cols)
			return v;
	}
	return NULL;
}

/* The search's probes: its ascent runs the awkward ladder's sizes that the
 * run did not pose (a failure past 2^31 has some ninety below it, most of
 * them small and quick).  Its time is the session's (run --shrink-time):
 * sizes near 2^31 take the host seconds each to draw and check. */
#define DIAGNOSE_PROBES_MAX 128

/* The search below start; fills d's shrunk fields (line and repro in the
 * buffers given).  Returns 1 when a stop interrupted it. */
static int shrink_group(struct session *s, const struct case_spec *start, const size_t *group, size_t ng,
			struct result_diagnosis *d, char *line, size_t llen, char *repro, size_t rlen)
{
	struct shrink sh;
	struct shrink_result sr;
	int64_t n, cols;
	int stopped = 0;

	const struct shrink_limits limits = {.max_probes = DIAGNOSE_PROBES_MAX,
					     .max_s = s->shrink_s > 0 ? s->shrink_s : SESSION_SHRINK_S};
	shrink_init(&sh, start->n, start->cols, &limits);
	while (shrink_next(&sh, text_now(), &n, &cols)) {
		const struct session_seen *v = posed(s, group, ng, n, cols);
		if (v) {
			shrink_tell(&sh, probe_outcome(v->status, v->outcome));
			continue;
		}
		struct case_spec probe;
		struct result res;
		case_resized(start, n, cols, &probe);
		if (session_run_case(s, &probe, rng_case_seed(s->rn.cfg.seed, probe.name), &res)) {
			stopped = 1;
			break;
		}
		shrink_tell(&sh, probe_outcome(res.status, res.outcome));
	}
	shrink_result(&sh, &sr);
	shrink_describe(&sr, line, llen);
	if (stopped)
		text_appendf(line, llen, " (interrupted)");
	repro_of(s, start, sr.n, sr.cols, repro, rlen);
	d->shrunk = line;
	d->repro = repro;
	d->n = sr.n;
	d->cols = sr.cols;
	d->pass_n = sr.pass_n;
	d->pass_cols = sr.pass_cols;
	d->probes = sr.probes;
	d->cut_short = sr.cut_short || stopped;
	return stopped;
}

/* Hands d, for each failing result of the group, to every sink. */
static int amend_group(struct session *s, const size_t *group, size_t ng, struct result_diagnosis *d,
		       char *err, size_t len)
{
	int first = 1;
	for (size_t k = 0; k < ng; k++) {
		const struct session_seen *v = &s->seen[group[k]];
		if (!failed(v))
			continue;
		d->c = v->c;
		d->first = first;
		first = 0;
		for (size_t j = 0; j < s->nsinks; j++)
			if (s->sinks[j].amend && s->sinks[j].amend(s->sinks[j].ctx, d, group[k], err, len) < 0)
				return -1;
	}
	return 0;
}

int session_diagnose(struct session *s, char *err, size_t len)
{
	unsigned char *done = calloc(s->nseen ? s->nseen : 1, 1);
	size_t *group = malloc((s->nseen ? s->nseen : 1) * sizeof *group);
	struct pattern_case *pc = malloc((s->nseen ? s->nseen : 1) * sizeof *pc);
	int rc = 0;

	if (!done || !group || !pc) {
		snprintf(err, len, "out of memory");
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < s->nseen && rc == 0; i++) {
		if (done[i] || !failed(&s->seen[i]))
			continue;
		size_t ng = 0;
		const struct case_spec *start = NULL;
		for (size_t j = i; j < s->nseen; j++) {
			const struct session_seen *v = &s->seen[j];
			if (done[j] || !same_group(s->seen[i].c, v->c))
				continue;
			done[j] = 1;
			pc[ng] = (struct pattern_case){v->c->n, v->c->cols, v->status};
			group[ng++] = j;
			/* The smallest failing problem, in elements, starts the search. */
			if (failed(v) && (!start || v->c->n * (v->c->cols ? v->c->cols : 1) <
							start->n * (start->cols ? start->cols : 1)))
				start = v->c;
		}
		char pattern[512], line[512], repro[2048];
		struct result_diagnosis d = {.pass_n = -1, .pass_cols = -1};
		if (pattern_find(pc, ng, pattern, sizeof pattern))
			d.pattern = pattern;
		if (s->shrink && !session_stopped(s) &&
		    shrink_group(s, start, group, ng, &d, line, sizeof line, repro, sizeof repro))
			s->diagnosis_stopped = 1;
		if (d.pattern || d.shrunk)
			rc = amend_group(s, group, ng, &d, err, len);
	}
out:
	free(done);
	free(group);
	free(pc);
	return rc;
}
