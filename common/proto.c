/*
 * proto.c - formatting and parsing of the worker protocol (see proto.h).
 *
 * Formatting returns -1 when a message would not fit in its buffer, so a
 * truncated line is never sent; parsing returns -1 on any malformed field,
 * and a number is well formed only as the other side's printf writes it.
 */
#include "common/proto.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/num.h"
#include "common/text.h"

#define MAX_FIELDS 34

static int fits(int written, size_t len)
{
	return written >= 0 && (size_t)written < len ? 0 : -1;
}

int proto_format_hello(char *buf, size_t len, const struct gpu_info *g)
{
	char name[sizeof g->name], uuid[sizeof g->uuid];
	text_copy(name, sizeof name, g->name);
	text_copy(uuid, sizeof uuid, g->uuid[0] ? g->uuid : "-");
	text_one_line(name);
	text_one_line(uuid);
	return fits(snprintf(buf, len, "HELLO\t%d\t%s\t%s\t%d\t%d\t%d\t%lld\t%d\t%d\t%d\n", g->index,
			     name, uuid, g->cc_major, g->cc_minor, g->sm_count, g->memory_bytes,
			     g->driver_version, g->runtime_version, g->count), len);
}

int proto_format_nodev(char *buf, size_t len, const char *reason)
{
	char r[1024];
	text_copy(r, sizeof r, reason);
	text_one_line(r);
	return fits(snprintf(buf, len, "NODEV\t%s\n", r), len);
}

/* Splits a copy of a line from a worker (PROTO_LINE_MAX bytes) into
 * fields.  A longer line is refused (-1), not read cut short. */
static int split_from_worker(char *copy, const char *line, char **f)
{
	size_t n = strlen(line);
	if (n >= PROTO_LINE_MAX)
		return -1;
	memcpy(copy, line, n + 1);
	return text_split_tabs(copy, f, MAX_FIELDS);
}

/* Keeps a text field from a worker: cut to fit, then made printable (after
 * the cut, which may split a character), so that nothing a worker says
 * reaches a terminal or the database raw. */
static void take_text(char *dst, size_t len, const char *field)
{
	text_copy(dst, len, field);
	text_sanitize(dst);
}

int proto_parse_hello(const char *line, struct gpu_info *g, char *reason, size_t len)
{
	char copy[PROTO_LINE_MAX];
	char *f[MAX_FIELDS];
	int n = split_from_worker(copy, line, f);
	if (n == 2 && strcmp(f[0], "NODEV") == 0) {
		take_text(reason, len, f[1]);
		return 0;
	}
	/* The device count (the 11th field) came later: a greeting
	 * without it says nothing of the other devices. */
	if ((n != 10 && n != 11) || strcmp(f[0], "HELLO") != 0)
		return -1;
	long long count = 0;
	if (n == 11 && num_parse_int(f[10], 0, INT_MAX, &count) < 0)
		return -1;
	long long v[7];
	const int idx[7] = {1, 4, 5, 6, 7, 8, 9};
	for (int i = 0; i < 7; i++)
		if (num_parse_int(f[idx[i]], 0, idx[i] == 7 ? LLONG_MAX : INT_MAX, &v[i]) < 0)
			return -1;
	memset(g, 0, sizeof *g);
	g->index = (int)v[0];
	take_text(g->name, sizeof g->name, f[2]);
	take_text(g->uuid, sizeof g->uuid, strcmp(f[3], "-") ? f[3] : "");
	g->cc_major = (int)v[1];
	g->cc_minor = (int)v[2];
	g->sm_count = (int)v[3];
	g->memory_bytes = v[4];
	g->driver_version = (int)v[5];
	g->runtime_version = (int)v[6];
	g->count = (int)count;
	return 1;
}

/* Splits s at commas, in place, like text_split_tabs: the number of
 * fields, or -1 when there are more than max. */
static int split_commas(char *s, char **v, int max)
{
	int n = 0;
	for (char *p = s;;) {
		if (n == max)
			return -1;
		v[n++] = p;
		p = strchr(p, ',');
		if (!p)
			return n;
		*p++ = '\0';
	}
}

/* RUN and BUILD carry the same fields: a case and its seed. */
static int format_request(char *buf, size_t len, const char *verb, unsigned seq,
			  const struct case_spec *c, uint64_t seed, const struct timing_request *t)
{
	char timing[128] = "-";
	if (t)
		snprintf(timing, sizeof timing, "%d,%d,%.9g,%.9g,%d,%d", t->min_samples, t->max_samples,
			 t->max_noise, t->max_time_s, t->hot, t->energy);
	return fits(snprintf(buf, len, "%s\t%u\t%s\t%s\t%s\t%" PRId64 "\t%" PRId64 "\t%" PRIu64 "\t%s\t%s\n",
			     verb, seq, c->name, c->variant, dtype_name(c->dtype), c->n, c->cols, seed,
			     c->params[0] ? c->params : "-", timing), len);
}

int proto_format_run(char *buf, size_t len, unsigned seq, const struct case_spec *c, uint64_t seed,
		     const struct timing_request *t)
{
	return format_request(buf, len, "RUN", seq, c, seed, t);
}

int proto_format_build(char *buf, size_t len, unsigned seq, const struct case_spec *c, uint64_t seed)
{
	return format_request(buf, len, "BUILD", seq, c, seed, NULL);
}

int proto_parse_request(char *line, enum proto_verb *verb, unsigned *seq, struct case_args *a,
			struct timing_request *t)
{
	char *f[MAX_FIELDS];
	int n = text_split_tabs(line, f, MAX_FIELDS);
	long long s, nn, cols;
	unsigned long long seed;
	if (n != 10 || (strcmp(f[0], "RUN") != 0 && strcmp(f[0], "BUILD") != 0) || num_parse_int(f[1], 0, UINT_MAX, &s) < 0 ||
	    num_parse_int(f[5], 0, INT64_MAX, &nn) < 0 || num_parse_int(f[6], 0, INT64_MAX, &cols) < 0 ||
	    num_parse_uint(f[7], UINT64_MAX, &seed) < 0)
		return -1;
	memset(a, 0, sizeof *a);
	if (dtype_parse(f[4], &a->dtype) < 0)
		return -1;
	*verb = strcmp(f[0], "RUN") == 0 ? PROTO_RUN : PROTO_BUILD;
	*seq = (unsigned)s;
	a->name = f[2];
	a->variant = f[3];
	a->n = nn;
	a->cols = cols;
	a->seed = seed;
	a->params = strcmp(f[8], "-") ? f[8] : "";
	if (strcmp(f[9], "-") != 0) {
		/* min_samples,max_samples,max_noise,max_time_s,hot,energy */
		char *v[7];
		long long lo, hi, hot, energy;
		memset(t, 0, sizeof *t);
		if (split_commas(f[9], v, 7) != 6 || num_parse_int(v[0], 1, INT_MAX, &lo) < 0 ||
		    num_parse_int(v[1], lo, INT_MAX, &hi) < 0 || num_parse_printed(v[2], &t->max_noise) < 0 ||
		    num_parse_printed(v[3], &t->max_time_s) < 0 || num_parse_int(v[4], 0, 1, &hot) < 0 ||
		    num_parse_int(v[5], 0, 1, &energy) < 0 ||
		    !(t->max_noise > 0) || !(t->max_time_s > 0))
			return -1;
		t->min_samples = (int)lo;
		t->max_samples = (int)hi;
		t->hot = (int)hot;
		t->energy = (int)energy;
		a->timing = t;
	}
	return 0;
}

int proto_format_done(char *buf, size_t len, unsigned seq, const struct case_result *r)
{
	char msg[RESULT_MESSAGE_MAX], reasons[24] = "-";
	text_copy(msg, sizeof msg, r->message);
	text_one_line(msg);
	const struct timing_stats *t = &r->timing;
	const struct energy_stats *e = &t->energy;
	if (e->reasons_known)
		snprintf(reasons, sizeof reasons, "%llu", e->reasons);
	return fits(snprintf(buf, len, "DONE\t%u\t%s\t%d\t%.9g\t%.9g\t%.6f\t%d\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%d\t%d\t%s\t%.17g\t%d\t%d\t%.9g"
			     "\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%ld\t%d\t%d\t%s\t%s\n",
			     seq, outcome_name(r->outcome), r->fatal, r->err_norm,
			     r->tol_checked ? r->err_ratio : -1.0, r->kernel_ms,
			     t->samples, t->median_ms, t->mean_ms, t->stddev_ms, t->min_ms, t->noise,
			     t->ci_low_ms, t->ci_high_ms, t->spread, t->noise_met, t->throttled, timing_timer_name(t->timer), t->bytes, t->clock_start_mhz, t->clock_end_mhz, t->result_spread,
			     e->joules, e->watts, e->watts_sampled, e->uncertainty, e->window_s, e->burst_s,
			     e->launches, e->sm_mhz, e->mem_mhz, reasons, msg), len);
}

/* The energy fields of a DONE line, f[23..32] (energy.h): each figure
 * finite and not negative, the reasons "-" (not read) or a bit mask.  A
 * figure no measurement gives reads as not measured: the result stands,
 * without it (energy_clear_implausible). */
static int parse_energy(char *const *f, struct energy_stats *e)
{
	double *figures[] = {&e->joules, &e->watts, &e->watts_sampled, &e->uncertainty,
			     &e->window_s, &e->burst_s};
	long long launches, sm, mem;
	unsigned long long reasons;
	for (int i = 0; i < 6; i++)
		if (num_parse_printed(f[i], figures[i]) < 0 || !isfinite(*figures[i]) || *figures[i] < 0)
			return -1;
	if (num_parse_int(f[6], 0, LONG_MAX, &launches) < 0 || num_parse_int(f[7], 0, INT_MAX, &sm) < 0 ||
	    num_parse_int(f[8], 0, INT_MAX, &mem) < 0)
		return -1;
	e->launches = (long)launches;
	e->sm_mhz = (int)sm;
	e->mem_mhz = (int)mem;
	if (strcmp(f[9], "-") != 0) {
		if (num_parse_uint(f[9], UINT64_MAX, &reasons) < 0)
			return -1;
		e->reasons_known = 1;
		e->reasons = reasons;
	}
	energy_clear_implausible(e);
	return 0;
}

int proto_parse_done(const char *line, unsigned *seq, struct case_result *r)
{
	char copy[PROTO_LINE_MAX];
	char *f[MAX_FIELDS];
	int n = split_from_worker(copy, line, f);
	long long s, fatal;
	memset(r, 0, sizeof *r);
	long long samples, noise_met, throttled, clk0, clk1;
	struct timing_stats *t = &r->timing;
	if (n != 34 || strcmp(f[0], "DONE") != 0 || num_parse_int(f[1], 0, UINT_MAX, &s) < 0 ||
	    outcome_parse(f[2], &r->outcome) < 0 || num_parse_int(f[3], 0, 1, &fatal) < 0 ||
	    num_parse_printed(f[4], &r->err_norm) < 0 || num_parse_printed(f[5], &r->err_ratio) < 0 ||
	    num_parse_printed(f[6], &r->kernel_ms) < 0 ||
	    num_parse_int(f[7], 0, INT_MAX, &samples) < 0 || num_parse_printed(f[8], &t->median_ms) < 0 ||
	    num_parse_printed(f[9], &t->mean_ms) < 0 || num_parse_printed(f[10], &t->stddev_ms) < 0 ||
	    num_parse_printed(f[11], &t->min_ms) < 0 || num_parse_printed(f[12], &t->noise) < 0 ||
	    num_parse_printed(f[13], &t->ci_low_ms) < 0 || num_parse_printed(f[14], &t->ci_high_ms) < 0 ||
	    num_parse_printed(f[15], &t->spread) < 0 || num_parse_int(f[16], 0, 1, &noise_met) < 0 ||
	    num_parse_int(f[17], 0, INT_MAX, &throttled) < 0 || timing_timer_parse(f[18], &t->timer) < 0 ||
	    num_parse_printed(f[19], &t->bytes) < 0 || num_parse_int(f[20], 0, INT_MAX, &clk0) < 0 ||
	    num_parse_int(f[21], 0, INT_MAX, &clk1) < 0 || num_parse_printed(f[22], &t->result_spread) < 0 ||
	    parse_energy(f + 23, &t->energy) < 0)
		return -1;
	/* A ratio is finite and non-negative; anything else means none. */
	r->tol_checked = r->err_ratio >= 0 && isfinite(r->err_ratio);
	if (!r->tol_checked)
		r->err_ratio = -1.0;
	*seq = (unsigned)s;
	r->fatal = (int)fatal;
	t->samples = (int)samples;
	t->noise_met = (int)noise_met;
	t->throttled = (int)throttled;
	t->clock_start_mhz = (int)clk0;
	t->clock_end_mhz = (int)clk1;
	take_text(r->message, sizeof r->message, f[33]);
	return 0;
}
