/*
 * pattern.c - a property of sizes that splits one configuration's failing
 * results from its passing ones exactly (see pattern.h).
 *
 * The rules are a table, tried in order; each says whether a case has
 * its property and what a case is keyed by when counted and listed (its
 * size, or for the 32-bit index its whole shape).  Nothing is allocated:
 * the sizes listed are found by passes over the cases (a few, as at most
 * five of each side are wanted), so the input can be any length.
 */
#include "session/pattern.h"

#include <limits.h>
#include <string.h>

#include "common/text.h"

/* The most sizes of a side listed before "...". */
#define PATTERN_LIST_MAX 4

/* The size that the alignment properties read: a rows kernel's lanes and
 * vectors run along a row. */
static int64_t case_size(const struct pattern_case *c)
{
	return c->cols > 0 ? c->cols : c->n;
}

static int not_pow2(const struct pattern_case *c)
{
	int64_t s = case_size(c);
	return !(s > 0 && (s & (s - 1)) == 0);
}

static int not_multiple_32(const struct pattern_case *c)
{
	return case_size(c) % 32 != 0;
}

static int not_multiple_4(const struct pattern_case *c)
{
	return case_size(c) % 4 != 0;
}

static int not_multiple_256(const struct pattern_case *c)
{
	return case_size(c) % 256 != 0;
}

/* More elements than an int indexes (n x cols past int64 is past it too). */
static int above_int32(const struct pattern_case *c)
{
	int64_t e;
	if (c->cols <= 0)
		return c->n > INT32_MAX;
	return __builtin_mul_overflow(c->n, c->cols, &e) || e > INT32_MAX;
}

struct pattern_rule {
	int (*holds)(const struct pattern_case *c); /* the failures' property */
	int by_shape;     /* counted and listed by shape (n x cols), not size */
	const char *what; /* after "only at <sizes> that are ", or "only " by shape */
};

static const struct pattern_rule rules[] = {
	{not_pow2, 0, "not a power of two"},
	{not_multiple_32, 0, "not a multiple of 32 (a partly idle warp)"},
	{not_multiple_4, 0, "not a multiple of 4 (a tail shorter than a 4-element vector)"},
	{not_multiple_256, 0, "not a multiple of 256 (a partly idle block of 256)"},
	{above_int32, 1, "above 2^31 - 1 elements (a 32-bit index)"},
};

/* A case as counted and listed: (size, 0), or by shape (n, cols). */
struct pattern_key {
	int64_t a, b;
};

static struct pattern_key key_of(const struct pattern_case *c, int by_shape)
{
	struct pattern_key k = {by_shape ? c->n : case_size(c), by_shape && c->cols > 0 ? c->cols : 0};
	return k;
}

static int key_cmp(struct pattern_key x, struct pattern_key y)
{
	if (x.a != y.a)
		return x.a < y.a ? -1 : 1;
	return x.b < y.b ? -1 : x.b > y.b;
}

/* 1 when every failing case has rule's property and no passing one has. */
static int pattern_splits(const struct pattern_case *c, size_t nc, const struct pattern_rule *rule)
{
	for (size_t i = 0; i < nc; i++) {
		enum tally t = status_tally_expecting_pass(c[i].status);
		if (t != TALLY_SKIPPED && rule->holds(&c[i]) != (t == TALLY_FAILED))
			return 0;
	}
	return 1;
}

/* The smallest distinct keys of side's cases, ascending, in out[0..max):
 * returns how many (fewer than max when there are no more). */
static size_t pattern_smallest(const struct pattern_case *c, size_t nc, enum tally side, int by_shape,
			       struct pattern_key *out, size_t max)
{
	size_t k;
	for (k = 0; k < max; k++) {
		int found = 0;
		struct pattern_key best = {0, 0};
		for (size_t i = 0; i < nc; i++) {
			if (status_tally_expecting_pass(c[i].status) != side)
				continue;
			struct pattern_key x = key_of(&c[i], by_shape);
			if (k > 0 && key_cmp(x, out[k - 1]) <= 0)
				continue;
			if (!found || key_cmp(x, best) < 0) {
				best = x;
				found = 1;
			}
		}
		if (!found)
			break;
		out[k] = best;
	}
	return k;
}

/* The failures' verb: their own when they all share one. */
static const char *pattern_verb(const struct pattern_case *c, size_t nc)
{
	int first = -1, same = 1;
	for (size_t i = 0; i < nc; i++) {
		if (status_tally_expecting_pass(c[i].status) != TALLY_FAILED)
			continue;
		if (first < 0)
			first = (int)c[i].status;
		else if ((int)c[i].status != first)
			same = 0;
	}
	if (same && first == STATUS_TIMEOUT)
		return "times out";
	if (same && first == STATUS_CRASH)
		return "crashes";
	return "fails";
}

/* Appends "A, B, C, D, ..." (the first PATTERN_LIST_MAX of n keys). */
static void pattern_list(char *buf, size_t len, const struct pattern_key *k, size_t n, int by_shape)
{
	char a[24], b[24];
	for (size_t i = 0; i < n && i < PATTERN_LIST_MAX; i++) {
		text_count(a, sizeof a, (long long)k[i].a);
		if (by_shape && k[i].b > 0) {
			text_count(b, sizeof b, (long long)k[i].b);
			text_appendf(buf, len, "%s%s x %s", i ? ", " : "", a, b);
		} else
			text_appendf(buf, len, "%s%s", i ? ", " : "", a);
	}
	if (n > PATTERN_LIST_MAX)
		text_appendf(buf, len, ", ...");
}

int pattern_find(const struct pattern_case *cases, size_t ncases, char *buf, size_t len)
{
	if (len == 0)
		return 0;
	buf[0] = '\0';

	/* Rows of cols are said by their column counts, unless some of the
	 * results are flat. */
	int rows = 1;
	for (size_t i = 0; i < ncases; i++)
		if (status_tally_expecting_pass(cases[i].status) != TALLY_SKIPPED && cases[i].cols <= 0)
			rows = 0;

	for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++) {
		const struct pattern_rule *rule = &rules[r];
		struct pattern_key fails[PATTERN_LIST_MAX + 1], passes[PATTERN_LIST_MAX + 1];
		if (!pattern_splits(cases, ncases, rule))
			continue;
		size_t nf = pattern_smallest(cases, ncases, TALLY_FAILED, rule->by_shape, fails, PATTERN_LIST_MAX + 1);
		size_t np = pattern_smallest(cases, ncases, TALLY_PASSED, rule->by_shape, passes, PATTERN_LIST_MAX + 1);
		if (nf < 2 || np < 2)
			continue;
		const char *verb = pattern_verb(cases, ncases);
		if (rule->by_shape)
			text_appendf(buf, len, "%s only %s (%s at ", verb, rule->what, verb);
		else
			text_appendf(buf, len, "%s only at %s that are %s (%s at ", verb,
				     rows ? "column counts" : "sizes", rule->what, verb);
		pattern_list(buf, len, fails, nf, rule->by_shape);
		text_appendf(buf, len, "; passes at ");
		pattern_list(buf, len, passes, np, rule->by_shape);
		text_appendf(buf, len, ")");
		return 1;
	}
	return 0;
}
