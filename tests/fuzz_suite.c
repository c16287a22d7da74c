/*
 * fuzz_suite.c - the suite parser fed mutated suites for a bounded time.
 *
 * The corpus is the shipped suites (the .suite files of $srcdir/kernels) and
 * the hand-written edge cases below; each round takes one, mutates it with
 * a reproducible generator (fixed seed, FUZZ_SUITE_SEED to change it) and
 * loads it.  A round must not crash (ASan watches when configured with
 * --enable-asan), and must end one of two ways:
 *
 *   refused:  one line "origin:LINE: message", and the suite as it was;
 *   accepted: every new case within the limits of suite.h and case.h, and
 *             nothing but printable ASCII in what it names.
 *
 * It runs for FUZZ_SUITE_SECONDS (2 by default) or FUZZ_SUITE_ROUNDS rounds,
 * whichever ends first; a failure prints the seed, the round and the input
 * (as C escapes) so that it can be replayed.
 */
#include <ctype.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/case.h"
#include "common/rng.h"

#include "common/text.h"
#include "common/vec.h"
#include "suite/suite.h"
#include "tests/test.h"

static const char *const edge_cases[] = {
	"",
	"\n",
	"#\n",
	"case a.b variant=harness.pass n=1\n",
	"case a.{x} variant=k x=1|2|3 n=2^40\n",
	"case a.{x}.{y} variant=k.{z} z=q x=1|2 y=a|b n=7 cols=2^20 op=sum|max\n",
	"case r.{stat} variant=rows.op.{stat} stat=welford|lse dtype=f32|bf16 n=1 cols=3 timeout=86400\n",
	"case t variant=k n=1 requires=sm>=80,sm<100,mem>=16 expect=undefined timeout=.5\n",
	"case u variant=k n=1 cols=1000 dtype=bf16 tolerance=4\n",
	"case c variant=k \\\n   n=1 \\\n   # a comment\n   block=32\n",
	"case d.{op} variant=k op=sum|max|min n=2^62\n",
	"case e variant=k n=1 k1=1 k2=2 k3=3 k4=4 k5=5 k6=6 k7=7 k8=8 k9=9 k10=10 k11=11\n",
	"case f.{a}.{b}.{c} variant=k a=1|2|3|4|5|6|7|8 b=1|2|3|4|5|6|7|8 c=1|2|3|4|5|6|7|8 n=1\n",
	"case g variant=k n=1 timeout=999999999999999\n",
	"case h variant=k n=1 x={y} y={x}\n",
	"case \x1b[31mred variant=k n=1\n",
	"case i variant=k n=1 # caf\xc3\xa9\r\n",
};

/* Lines that fill a file to SUITE_FILE_CASES_MAX exactly (128 x 128,
 * 127 x 128 and 128 cases), for another input after it to take past it.
 * Loading it costs milliseconds, so a round starts from it only now and
 * then. */
static int big_case(char *buf, size_t len)
{
	char list[1024];
	size_t used = 0, shorter;

	for (int i = 1; i <= 128; i++) {
		shorter = used;
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%d", i > 1 ? "|" : "", i);
	}
	return snprintf(buf, len,
			"case p.{a}.{b} variant=k a=%s b=%s n=1\n"
			"case q.{a}.{b} variant=k a=%.*s b=%s n=1\n"
			"case r.{x} variant=k x=%s n=1\n",
			list, list, (int)shorter, list, list, list);
}

/* Fragments a mutation inserts: the format's own punctuation and the
 * values at its limits. */
static const char *const fragments[] = {
	"|", "{", "}", "=", "#", "\\\n", "\n", " ", "\t", "\r\n", ",", "{x}", "{op}", "{n}",
	"x=1|2", "op=", "n=", "2^", "2^40", "2^41", "2^62", "2^63", "86400", "86400.5",
	"999999999999999", "0", "-1", ".", "..", "case ", "case a.{x} ", "variant=", "cols=",
	"timeout=", "tolerance=", "1000.5", "requires=", "sm>=", "expect=", "dtype=", "\x1b", "\x7f", "\xff", "\xc3\xa9",
	"||", "|x", "{{x}}", "{x", "x}",
};

struct corpus {
	char **text;
	size_t *size;
	size_t count, cap, sizes_cap;
};

static int corpus_add(struct corpus *c, const char *data, size_t size)
{
	char *copy = malloc(size + 1);
	if (!copy)
		return -1;
	memcpy(copy, data, size);
	copy[size] = '\0';
	if (vec_reserve(c->size, c->count, c->sizes_cap, 1) < 0 || vec_push(c->text, c->count, c->cap, copy) < 0) {
		free(copy);
		return -1;
	}
	c->size[c->count - 1] = size;
	return 0;
}

static int corpus_add_file(struct corpus *c, const char *path)
{
	FILE *f = fopen(path, "rb");
	char buf[65536];
	size_t got;

	if (!f)
		return -1;
	got = fread(buf, 1, sizeof buf, f);
	fclose(f);
	return corpus_add(c, buf, got);
}

/* A growable byte buffer: the input of one round. */
struct bytes {
	char *p;
	size_t n, cap;
};

static int bytes_splice(struct bytes *b, size_t at, size_t cut, const char *ins, size_t len)
{
	if (!cut && !len)
		return 0;
	if (len > cut && vec_reserve(b->p, b->n, b->cap, len - cut) < 0)
		return -1;
	memmove(b->p + at + len, b->p + at + cut, b->n - at - cut);
	memcpy(b->p + at, ins, len);
	b->n = b->n - cut + len;
	return 0;
}

/* One of a few mutations at a random place. */
static int mutate(struct rng *r, struct bytes *b, const struct corpus *c)
{
	size_t at = b->n ? (size_t)rng_range(r, 0, (int64_t)b->n) : 0;
	size_t left = b->n - at;
	char byte;

	switch (rng_range(r, 0, 6)) {
	case 0: /* a random byte replaces one */
		if (!left)
			return 0;
		b->p[at] = (char)rng_range(r, 0, 255);
		return 0;
	case 1: /* a random byte is inserted */
		byte = (char)rng_range(r, 0, 255);
		return bytes_splice(b, at, 0, &byte, 1);
	case 2: { /* a fragment is inserted */
		const char *f = fragments[rng_range(r, 0, sizeof fragments / sizeof *fragments - 1)];
		return bytes_splice(b, at, 0, f, strlen(f));
	}
	case 3: /* a range is removed */
		return bytes_splice(b, at, (size_t)rng_range(r, 0, (int64_t)(left < 64 ? left : 64)), "", 0);
	case 4: { /* a range is repeated (lists and lines multiply) */
		size_t len = (size_t)rng_range(r, 0, (int64_t)(left < 256 ? left : 256));
		char *copy = malloc(len + 1);
		int reps = (int)rng_range(r, 1, 8), rc = 0;
		if (!copy)
			return -1;
		memcpy(copy, b->p + at, len);
		for (int i = 0; i < reps && rc == 0 && b->n < 65536; i++)
			rc = bytes_splice(b, at, 0, copy, len);
		free(copy);
		return rc;
	}
	case 5: { /* a piece of another input is spliced in */
		size_t k = (size_t)rng_range(r, 0, (int64_t)c->count - 1);
		size_t from = c->size[k] ? (size_t)rng_range(r, 0, (int64_t)c->size[k] - 1) : 0;
		size_t len = (size_t)rng_range(r, 0, (int64_t)(c->size[k] - from));
		return bytes_splice(b, at, 0, c->text[k] + from, len);
	}
	default: /* a byte is duplicated into a run of a list's separators */
		return bytes_splice(b, at, 0, "|1|2|3|4", 8);
	}
}

static void dump(const char *what, uint64_t seed, long round, const struct bytes *b, const char *err)
{
	fprintf(stderr, "fuzz_suite: seed %llu round %ld: %s\n  err: %s\n  input (%zu bytes): \"",
		(unsigned long long)seed, round, what, err, b->n);
	for (size_t i = 0; i < b->n && i < 4096; i++) {
		unsigned char ch = (unsigned char)b->p[i];
		if (ch == '\n')
			fputs("\\n", stderr);
		else if (ch == '"' || ch == '\\')
			fprintf(stderr, "\\%c", ch);
		else if (ch >= 0x20 && ch < 0x7f)
			fputc(ch, stderr);
		else
			fprintf(stderr, "\\x%02x\"\"", ch);
	}
	fputs("\"\n", stderr);
}

/* "origin:LINE: message" on one line. */
static int well_formed(const char *err, const char *origin)
{
	size_t olen = strlen(origin);
	const char *p = err + olen;

	if (strncmp(err, origin, olen) != 0 || *p++ != ':' || !isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	return p[0] == ':' && p[1] == ' ' && p[2] && !strchr(err, '\n');
}

static int printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			return 0;
	return 1;
}

/* What an accepted case must be; NULL when it is, else what it breaks. */
static const char *case_fault(const struct case_spec *c, const char *origin)
{
	if (!c->name[0] || strlen(c->name) >= CASE_NAME_MAX || !printable(c->name))
		return "name";
	if (!c->variant[0] || !printable(c->variant))
		return "variant";
	if (strlen(c->params) >= CASE_PARAMS_MAX || !printable(c->params))
		return "params";
	if (c->n < 1 || c->n > CASE_ELEMENTS_MAX || c->cols < 0 || c->cols > CASE_ELEMENTS_MAX ||
	    (c->cols && c->n > CASE_ELEMENTS_MAX / c->cols))
		return "size";
	if (!(c->timeout_s >= 0) || c->timeout_s > CASE_SECONDS_MAX)
		return "timeout";
	if (c->tolerance != 0 && !(c->tolerance > 1 && c->tolerance <= 1000))
		return "tolerance";
	if ((unsigned)c->dtype >= DTYPE_COUNT || (unsigned)c->expect >= EXPECT_COUNT ||
	    c->nreq < 0 || c->nreq > CASE_REQ_MAX)
		return "enum";
	if (strcmp(c->file, origin) != 0 || c->line < 1)
		return "origin";
	return NULL;
}

int main(void)
{
	const char *srcdir = getenv("srcdir"), *env;
	char pattern[512];
	struct corpus c = { 0 };
	struct bytes b = { 0 };
	struct rng r;
	glob_t g;
	uint64_t seed = 20240611;
	double seconds = 2, start = text_now();
	long rounds = 1000000, round, accepted = 0;

	if ((env = getenv("FUZZ_SUITE_SEED")))
		seed = strtoull(env, NULL, 10);
	if ((env = getenv("FUZZ_SUITE_SECONDS")))
		seconds = atof(env);
	if ((env = getenv("FUZZ_SUITE_ROUNDS")))
		rounds = atol(env);
	snprintf(pattern, sizeof pattern, "%s/kernels/*/*.suite", srcdir && *srcdir ? srcdir : ".");
	if (glob(pattern, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++)
			CHECK_INT(corpus_add_file(&c, g.gl_pathv[i]), 0);
		globfree(&g);
	}
	CHECK(c.count >= 10); /* the shipped suites were found */
	for (size_t i = 0; i < sizeof edge_cases / sizeof *edge_cases; i++)
		CHECK_INT(corpus_add(&c, edge_cases[i], strlen(edge_cases[i])), 0);
	char big[8192];
	int nbig = big_case(big, sizeof big);
	CHECK(nbig > 0 && (size_t)nbig < sizeof big);

	rng_init(&r, seed);
	for (round = 0; round < rounds && text_now() - start < seconds && !test_failures; round++) {
		size_t k = (size_t)rng_range(&r, 0, (int64_t)c.count - 1);
		int from_big = rng_range(&r, 0, 4095) == 0;
		struct suite s = { 0 };
		char err[1024] = "", origin[32];
		const char *fault = NULL;
		size_t before = 0;

		b.n = 0;
		/* A full file is followed by another input: more cases. */
		if (bytes_splice(&b, 0, 0, c.text[k], c.size[k]) < 0 ||
		    (from_big && bytes_splice(&b, 0, 0, big, (size_t)nbig) < 0))
			break;
		for (int m = (int)rng_range(&r, 0, 8); m > 0; m--)
			if (mutate(&r, &b, &c) < 0)
				break;
		/* Now and then into a suite that already holds cases, so that
		 * the names collide and a failed load must leave them be. */
		if (rng_range(&r, 0, 3) == 0) {
			CHECK_INT(suite_load_text(&s, "pre", "case a.b variant=k n=1\ncase pre.{x} variant=k x=1|2 n=1\n",
						  err, sizeof err), 0);
			before = s.count;
		}
		snprintf(origin, sizeof origin, "fuzz%ld", round);
		int rc = suite_load_buffer(&s, origin, b.p ? b.p : "", b.n, err, sizeof err);
		if (rc == -1) {
			if (!well_formed(err, origin))
				fault = "a refusal without origin:LINE: on one line";
			else if (s.count != before)
				fault = "a refusal kept cases";
		} else if (rc == 0) {
			accepted++;
			if (b.n > SUITE_FILE_BYTES_MAX || s.count - before > SUITE_FILE_CASES_MAX ||
			    s.count > SUITE_CASES_MAX)
				fault = "an input past the limits was accepted";
			for (size_t i = before; i < s.count && !fault; i++)
				fault = case_fault(&s.cases[i], origin);
		} else {
			fault = "neither 0 nor -1";
		}
		if (fault) {
			test_failures++;
			dump(fault, seed, round, &b, err);
		}
		test_checks++;
		suite_free(&s);
	}
	fprintf(stderr, "fuzz_suite: seed %llu, %ld rounds in %.1f s, %ld accepted\n",
		(unsigned long long)seed, round, text_now() - start, accepted);
	for (size_t i = 0; i < c.count; i++)
		free(c.text[i]);
	free(c.text);
	free(c.size);
	free(b.p);
	return TEST_END();
}
