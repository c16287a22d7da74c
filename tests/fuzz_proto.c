/*
 * fuzz_proto.c - the worker protocol's parsers (proto.h) and the catalog's
 * (catalog_wire.h) against mutated lines.
 *
 * From a fixed seed, valid lines (greetings, RUN and DONE lines, catalog
 * records, all written by the formatters) are mutated - bytes flipped,
 * inserted and deleted, fields replaced by tricky values, duplicated,
 * dropped or swapped, lines spliced and cut - and fed to every parser.
 * Whatever a parser makes of a line:
 *   - nothing crashes or reads out of bounds (ASan, when configured);
 *   - what it accepts is printable (text_sanitize would change nothing) and
 *     came from a line no longer than the protocol allows; a DONE line's
 *     energy figures are missing (0) or what a measurement gives;
 *   - what it accepts the formatter writes again, and that line reads back
 *     to the same values: format(parse(format(parse(x)))) equals
 *     format(parse(x)), so accept and reject agree on both sides;
 *   - what the catalog parser refuses comes with a printable message.
 *
 *   fuzz_proto [ITERATIONS [SEED]]
 *
 * runs ITERATIONS mutations (default 500000) or for FUZZ_SECONDS, which
 * comes first, and names the seed and line of any failure, so a failure
 * replays with the same arguments.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/catalog_wire.h"
#include "common/num.h"
#include "common/proto.h"
#include "common/rng.h"
#include "common/text.h"
#include "tests/test.h"

#define FUZZ_SECONDS 2.0
/* Room for the longest catalog line and then some. */
#define FUZZ_LINE_MAX (CATALOG_WIRE_LINE_MAX + 4096)

static char corpus[64][PROTO_LINE_MAX];
static size_t ncorpus;

/* Values that have broken or could break parsers of numbers and words. */
static const char *const tokens[] = {
	"", "-", "0", "-0", "00", "+1", " 1", "1 ", "1\t", "4294967295", "4294967296", "-1",
	"2147483647", "2147483648", "9223372036854775807", "9223372036854775808",
	"-9223372036854775808", "18446744073709551615", "18446744073709551616", "1e+308", "1e+309",
	"-1e+999", "4.9e-324", "1e-400", "nan", "-nan", "inf", "-inf", "infinity", "nan(1)", "0x10",
	"0x1p3", "1.5e-07", ".5", "5.", "1e5", "2^10", "yes", "no", "1", "kernels", "no-kernels",
	"completed-correct", "hung", "skipped", "f32", "bf16", "x,y", "1,2,3,4,5", "10,500,0.005,1.5,1",
	"\x1b[2J", "\xc2\x9b", "\xe2\x89", "\xff", "\x7f", "\r", "caf\xc3\xa9", "HELLO", "NODEV", "DONE",
	"RUN", "variant", "build",
};

static const char interesting[] = "\t\n\x1b\x7f\xc2\x9b\xff-+.e09 ,^x";

static void add(const char *line)
{
	if (ncorpus < sizeof corpus / sizeof corpus[0])
		text_copy(corpus[ncorpus++], PROTO_LINE_MAX, line);
}

static void add_owned(char *line)
{
	CHECK(line != NULL);
	if (line)
		add(line);
	free(line);
}

static void seed_corpus(void)
{
	char line[PROTO_LINE_MAX], err[256];
	struct gpu_info g = {.index = 1, .cc_major = 9, .cc_minor = 0, .sm_count = 132,
			     .memory_bytes = 85029158912LL, .driver_version = 13000, .runtime_version = 13000};
	strcpy(g.name, "NVIDIA H100 80GB HBM3");
	strcpy(g.uuid, "GPU-0a1b2c3d-0000-1111-2222-333344445555");
	CHECK_INT(proto_format_hello(line, sizeof line, &g), 0);
	add(line);
	CHECK_INT(proto_format_nodev(line, sizeof line, "no CUDA driver found (libcuda.so.1 cannot be loaded)"), 0);
	add(line);

	struct case_spec c;
	memset(&c, 0, sizeof c);
	strcpy(c.name, "block.tree.sum.f32.b256");
	strcpy(c.variant, "block.tree");
	c.dtype = DTYPE_F32;
	c.n = 100003;
	strcpy(c.params, "block=256,op=sum");
	CHECK_INT(proto_format_run(line, sizeof line, 7, &c, 18446744073709551615ull, NULL), 0);
	add(line);
	struct timing_request t = {.min_samples = 10, .max_samples = 500, .max_noise = 0.005,
				   .max_time_s = 1.5, .hot = 1, .energy = 1};
	c.cols = 4099;
	c.params[0] = '\0';
	CHECK_INT(proto_format_run(line, sizeof line, 8, &c, 1, &t), 0);
	add(line);

	struct case_result r = {.outcome = OUTCOME_WRONG, .fatal = 1, .err_norm = 0.25, .kernel_ms = 1.5,
				.timing = {.samples = 12, .median_ms = 0.125, .mean_ms = 0.13, .stddev_ms = 0.001,
					   .min_ms = 0.12, .noise = 0.0077, .ci_low_ms = 0.124,
					   .ci_high_ms = 0.126, .spread = 0.008, .noise_met = 1, .throttled = 2,
					   .timer = TIMER_EVENTS, .bytes = 4294967296.0, .clock_start_mhz = 1980, .clock_end_mhz = 1755,
					   .result_spread = -1,
					   .energy = {.joules = 0.0421, .watts = 437.5, .watts_sampled = 440.1,
						      .uncertainty = 0.013, .window_s = 0.301, .burst_s = 0.52,
						      .launches = 5461, .sm_mhz = 1980, .mem_mhz = 3201,
						      .reasons_known = 1, .reasons = 4}}};
	strcpy(r.message, "2 of 8 wrong: [1] got 3 want 4 (\xc2\xb1 1 ulp)");
	CHECK_INT(proto_format_done(line, sizeof line, 9, &r), 0);
	add(line);
	struct case_result ok = {.outcome = OUTCOME_CORRECT, .err_norm = -1};
	CHECK_INT(proto_format_done(line, sizeof line, 4294967295u, &ok), 0);
	add(line);

	struct catalog_build b = {.has_kernels = 1, .archs = "sm_80 sm_90 compute_90"};
	add_owned(catalog_wire_format_build(&b, err, sizeof err));
	struct catalog_entry e = {
		.name = "block.tree", .gpu = 1, .dtypes = "f32,i32", .summary = "shared-memory tree",
		.contract = "Requires: block is a power of two, 32..1024", .tunables = "block=32..1024",
		.space = "block=128,256 items=1,2", .copy = "device.copy", .copy_n = 268435456,
		.baseline = "device.cub", .baseline_rows = "", .huge_cols = 1025,
	};
	add_owned(catalog_wire_format_variant(&e, err, sizeof err));
	struct catalog_entry h = {.name = "harness.pass", .dtypes = "f32", .summary = "", .contract = "none"};
	add_owned(catalog_wire_format_variant(&h, err, sizeof err));
}

static size_t pick(struct rng *r, size_t n)
{
	return n ? (size_t)rng_range(r, 0, (int64_t)n - 1) : 0;
}

/* The field of s that position i is in: [*b, *e). */
static void field_at(const char *s, size_t n, size_t i, size_t *b, size_t *e)
{
	*b = i;
	while (*b > 0 && s[*b - 1] != '\t')
		--*b;
	*e = i;
	while (*e < n && s[*e] != '\t' && s[*e] != '\n')
		++*e;
}

/* Replaces s[b..e) with the n bytes of t, if the result fits. */
static void replace(char *s, size_t *len, size_t b, size_t e, const char *t, size_t n)
{
	if (*len - (e - b) + n >= FUZZ_LINE_MAX)
		return;
	memmove(s + b + n, s + e, *len - e + 1);
	memcpy(s + b, t, n);
	*len = *len - (e - b) + n;
}

static void mutate(struct rng *r, char *s, size_t *len)
{
	size_t i = pick(r, *len), b, e;
	char c;
	switch (rng_range(r, 0, 10)) {
	case 0: /* flip a bit */
		if (*len)
			s[i] ^= (char)(1u << pick(r, 8));
		break;
	case 1: /* overwrite with a byte that matters to some parser */
		if (*len)
			s[i] = interesting[pick(r, sizeof interesting - 1)];
		break;
	case 2: /* insert one */
		c = interesting[pick(r, sizeof interesting - 1)];
		replace(s, len, i, i, &c, 1);
		break;
	case 3: /* delete a few bytes */
		replace(s, len, i, i + pick(r, *len - i < 8 ? *len - i + 1 : 8), "", 0);
		break;
	case 4: { /* replace a field with a token */
		const char *t = tokens[pick(r, sizeof tokens / sizeof *tokens)];
		field_at(s, *len, i, &b, &e);
		replace(s, len, b, e, t, strlen(t));
		break;
	}
	case 5: { /* replace a field with a long run of one byte */
		/* Either about a message's length or about a catalog line's,
		 * on both sides of each limit. */
		static char run[CATALOG_WIRE_LINE_MAX + 64];
		size_t n = rng_range(r, 0, 3) == 0 ? CATALOG_WIRE_LINE_MAX - 64 + pick(r, 128)
						     : pick(r, 2 * RESULT_MESSAGE_MAX);
		memset(run, rng_range(r, 0, 1) ? 'x' : '\xc3', n);
		field_at(s, *len, i, &b, &e);
		replace(s, len, b, e, run, n);
		break;
	}
	case 6: /* duplicate a field */
		field_at(s, *len, i, &b, &e);
		if (e < *len) {
			char *copy = malloc(e - b + 1);
			memcpy(copy, s + b, e - b);
			copy[e - b] = '\t';
			replace(s, len, b, b, copy, e - b + 1);
			free(copy);
		}
		break;
	case 7: /* drop a field and its tab */
		field_at(s, *len, i, &b, &e);
		replace(s, len, b, e < *len && s[e] == '\t' ? e + 1 : e, "", 0);
		break;
	case 8: { /* splice: this line's head, another's tail */
		const char *o = corpus[pick(r, ncorpus)];
		size_t on = strlen(o), j = pick(r, on);
		replace(s, len, i, *len, o + j, on - j);
		break;
	}
	case 9: /* cut */
		s[i] = '\0';
		*len = i;
		break;
	default: { /* another record's tag */
		static const char *const tags[] = {"HELLO", "NODEV", "RUN", "DONE", "build", "variant"};
		const char *t = tags[pick(r, 6)];
		field_at(s, *len, 0, &b, &e);
		replace(s, len, b, e, t, strlen(t));
		break;
	}
	}
}

static int printable(const char *s)
{
	char copy[RESULT_MESSAGE_MAX * 2];
	if (strlen(s) >= sizeof copy)
		return 1; /* longer than any protocol text: checked by length elsewhere */
	strcpy(copy, s);
	return text_sanitize(copy) == 0;
}

static char failing[200];

/* A failed check names the line (its start) so that it can be looked at. */
#define FUZZ_CHECK(cond) do { \
	int before_ = test_failures; \
	CHECK(cond); \
	if (test_failures > before_) \
		fprintf(stderr, "  on line: %s\n", failing); \
} while (0)

static void fuzz_hello(const char *line)
{
	struct gpu_info g;
	char reason[512], again[PROTO_LINE_MAX], third[PROTO_LINE_MAX];
	int h = proto_parse_hello(line, &g, reason, sizeof reason);
	if (h < 0)
		return;
	FUZZ_CHECK(strlen(line) < PROTO_LINE_MAX);
	if (h == 1) {
		FUZZ_CHECK(printable(g.name) && printable(g.uuid));
		FUZZ_CHECK(proto_format_hello(again, sizeof again, &g) == 0);
	} else {
		FUZZ_CHECK(printable(reason));
		FUZZ_CHECK(proto_format_nodev(again, sizeof again, reason) == 0);
	}
	struct gpu_info g2;
	char reason2[512];
	FUZZ_CHECK(proto_parse_hello(again, &g2, reason2, sizeof reason2) == h);
	if (h == 1)
		FUZZ_CHECK(proto_format_hello(third, sizeof third, &g2) == 0);
	else
		FUZZ_CHECK(proto_format_nodev(third, sizeof third, reason2) == 0);
	FUZZ_CHECK(strcmp(again, third) == 0);
}

static void fuzz_done(const char *line)
{
	unsigned seq, seq2;
	struct case_result r, r2;
	char again[PROTO_LINE_MAX], third[PROTO_LINE_MAX];
	if (proto_parse_done(line, &seq, &r) < 0)
		return;
	FUZZ_CHECK(strlen(line) < PROTO_LINE_MAX);
	FUZZ_CHECK(printable(r.message));
	FUZZ_CHECK(r.fatal == 0 || r.fatal == 1);
	FUZZ_CHECK(r.timing.samples >= 0);
	FUZZ_CHECK(r.timing.noise_met == 0 || r.timing.noise_met == 1);
	FUZZ_CHECK(r.timing.throttled >= 0);
	FUZZ_CHECK(r.timing.timer >= TIMER_NONE && r.timing.timer <= TIMER_HOST);
	/* Energy: missing (0) or what a measurement gives (energy.h). */
	const struct energy_stats *e = &r.timing.energy;
	FUZZ_CHECK(e->joules == 0 || (e->joules >= 1e-6 && e->joules <= 1e6));
	FUZZ_CHECK(e->watts == 0 || (e->watts >= 1 && e->watts <= 1e6));
	FUZZ_CHECK(e->watts_sampled == 0 || (e->watts_sampled >= 1 && e->watts_sampled <= 1e6));
	FUZZ_CHECK(e->uncertainty >= 0 && e->uncertainty <= 100);
	FUZZ_CHECK(e->joules > 0 || (e->uncertainty == 0 && e->window_s == 0));
	FUZZ_CHECK(isfinite(e->window_s) && e->window_s >= 0 && isfinite(e->burst_s) && e->burst_s >= 0);
	FUZZ_CHECK(e->launches >= 0 && e->sm_mhz >= 0 && e->sm_mhz <= 100000 && e->mem_mhz >= 0 &&
		   e->mem_mhz <= 100000);
	FUZZ_CHECK(e->reasons_known || e->reasons == 0);
	FUZZ_CHECK(proto_format_done(again, sizeof again, seq, &r) == 0);
	FUZZ_CHECK(proto_parse_done(again, &seq2, &r2) == 0);
	FUZZ_CHECK(seq2 == seq && r2.outcome == r.outcome && strcmp(r2.message, r.message) == 0);
	FUZZ_CHECK(r2.timing.timer == r.timing.timer);
	FUZZ_CHECK(proto_format_done(third, sizeof third, seq2, &r2) == 0);
	FUZZ_CHECK(strcmp(again, third) == 0);
}

/* The worker's side of RUN: it must not crash on what conform could send,
 * and what it accepts conform could have sent. */
static void fuzz_run(const char *line)
{
	static char copy[FUZZ_LINE_MAX];
	unsigned seq;
	struct case_args a;
	struct timing_request t;
	enum proto_verb verb;
	strcpy(copy, line);
	if (proto_parse_request(copy, &verb, &seq, &a, &t) < 0 || verb != PROTO_RUN)
		return;
	FUZZ_CHECK(a.n >= 0 && a.cols >= 0);
	struct case_spec c;
	memset(&c, 0, sizeof c);
	if (strlen(a.name) >= sizeof c.name || strlen(a.variant) >= sizeof c.variant ||
	    strlen(a.params) >= sizeof c.params)
		return; /* conform could not have sent it: nothing to compare */
	strcpy(c.name, a.name);
	strcpy(c.variant, a.variant);
	strcpy(c.params, a.params);
	c.dtype = a.dtype;
	c.n = a.n;
	c.cols = a.cols;
	char again[PROTO_LINE_MAX], third[PROTO_LINE_MAX];
	if (proto_format_run(again, sizeof again, seq, &c, a.seed, a.timing) < 0)
		return; /* the names together too long for a line */
	struct timing_request t2;
	FUZZ_CHECK(proto_parse_request(strcpy(third, again), &verb, &seq, &a, &t2) == 0 && verb == PROTO_RUN);
	struct case_spec c2 = c;
	strcpy(c2.name, a.name);
	strcpy(c2.variant, a.variant);
	strcpy(c2.params, a.params);
	c2.dtype = a.dtype;
	c2.n = a.n;
	c2.cols = a.cols;
	FUZZ_CHECK(proto_format_run(third, sizeof third, seq, &c2, a.seed, a.timing) == 0);
	FUZZ_CHECK(strcmp(again, third) == 0);
}

static int entry_printable(const struct catalog_entry *e)
{
	const char *s[] = {e->name, e->dtypes, e->summary, e->contract, e->tunables, e->space,
			   e->copy, e->baseline, e->baseline_rows};
	for (size_t i = 0; i < sizeof s / sizeof *s; i++) {
		char *copy = strdup(s[i]);
		int ok = copy && text_sanitize(copy) == 0;
		free(copy);
		if (!ok)
			return 0;
	}
	return 1;
}

static void fuzz_catalog(const char *line)
{
	struct catalog_build b, b2;
	struct catalog_entry e, e2;
	char err[256] = "", err2[256];
	int kind = catalog_wire_parse(line, &b, &e, err, sizeof err);
	if (kind < 0) {
		FUZZ_CHECK(err[0] != '\0' && printable(err));
		return;
	}
	size_t n = strlen(line);
	FUZZ_CHECK(n - (n && line[n - 1] == '\n') < CATALOG_WIRE_LINE_MAX);
	char *again = kind == CATALOG_WIRE_BUILD ? catalog_wire_format_build(&b, err2, sizeof err2)
						 : catalog_wire_format_variant(&e, err2, sizeof err2);
	if (kind == CATALOG_WIRE_BUILD) {
		char *archs = strdup(b.archs);
		FUZZ_CHECK(archs && text_sanitize(archs) == 0);
		free(archs);
		catalog_wire_free_build(&b);
	} else {
		FUZZ_CHECK(entry_printable(&e));
		catalog_wire_free_variant(&e);
	}
	FUZZ_CHECK(again != NULL);
	if (!again) {
		fprintf(stderr, "  format: %s\n", err2);
		return;
	}
	FUZZ_CHECK(catalog_wire_parse(again, &b2, &e2, err2, sizeof err2) == kind);
	char *third = NULL;
	if (kind == CATALOG_WIRE_BUILD) {
		third = catalog_wire_format_build(&b2, err2, sizeof err2);
		catalog_wire_free_build(&b2);
	} else if (kind == CATALOG_WIRE_VARIANT) {
		third = catalog_wire_format_variant(&e2, err2, sizeof err2);
		catalog_wire_free_variant(&e2);
	}
	FUZZ_CHECK(third && strcmp(again, third) == 0);
	free(again);
	free(third);
}

int main(int argc, char **argv)
{
	unsigned long long iterations = 500000, seed = 1;
	if ((argc > 1 && num_parse_uint(argv[1], ~0ull, &iterations) < 0) ||
	    (argc > 2 && num_parse_uint(argv[2], ~0ull, &seed) < 0) || argc > 3) {
		fprintf(stderr, "usage: fuzz_proto [ITERATIONS [SEED]]\n");
		return 2;
	}
	seed_corpus();
	struct rng r;
	rng_init(&r, seed);
	static char line[FUZZ_LINE_MAX];
	double start = text_now();
	unsigned long long k;
	for (k = 0; k < iterations; k++) {
		if ((k & 1023) == 0 && text_now() - start > FUZZ_SECONDS)
			break;
		strcpy(line, corpus[pick(&r, ncorpus)]);
		size_t len = strlen(line);
		for (int m = (int)rng_range(&r, 1, 4); m > 0; m--)
			mutate(&r, line, &len);
		text_copy(failing, sizeof failing, line);
		text_sanitize(failing);
		int before = test_failures;
		fuzz_hello(line);
		fuzz_done(line);
		fuzz_run(line);
		fuzz_catalog(line);
		if (test_failures > before && test_failures >= 10) {
			fprintf(stderr, "stopping after %d failures\n", test_failures);
			break;
		}
	}
	fprintf(stderr, "%llu mutated lines from seed %llu in %.2f s\n", k, seed, text_now() - start);
	return TEST_END();
}
