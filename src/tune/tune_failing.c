/*
 * tune_failing.c - the tunable values a tune's failures go with (see
 * tune_failing.h).
 *
 * Nothing is allocated: a key's distinct values fit a fixed table, as a
 * tunable's space does (TUNABLE_SPACE_MAX), and the keys are looked at one
 * at a time, each with a pass over the configurations.  The values are
 * listed in number order when they are numbers, else as text, so that the
 * line does not depend on the order the search happened to try them.
 */
#include "tune/tune_failing.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/num.h"
#include "common/params.h"
#include "common/text.h"

/* The most values of a side listed before "...". */
#define TUNE_FAILING_LIST_MAX 8
/* params_each's bound on a key or a value. */
#define TUNE_FAILING_TEXT_MAX 64

struct tf_keys {
	char name[TUNE_FAILING_KEYS_MAX][TUNE_FAILING_TEXT_MAX];
	size_t count;
};

struct tf_value {
	char text[TUNE_FAILING_TEXT_MAX];
	int numeric;      /* 1: num is its value */
	long long num;
	int failed, passed; /* seen in a failing, a passing configuration */
};

struct tf_values {
	struct tf_value v[TUNE_FAILING_VALUES_MAX];
	size_t count;
};

/* params_each: adds key to the list unless it is there or the list is full. */
static int tf_add_key(void *ctx, const char *key, const char *value)
{
	struct tf_keys *k = ctx;
	(void)value;
	for (size_t i = 0; i < k->count; i++)
		if (strcmp(k->name[i], key) == 0)
			return 0;
	if (k->count < TUNE_FAILING_KEYS_MAX)
		text_copy(k->name[k->count++], sizeof k->name[0], key);
	return 0;
}

/* The distinct values of key over the counted configurations, each with
 * the sides it was seen on.  Returns 0, or -1 when a configuration lacks
 * the key or there are more values than the table holds: then the key
 * explains nothing. */
static int tf_collect(const struct tune_failing_config *c, size_t n, const char *key, struct tf_values *vals)
{
	vals->count = 0;
	for (size_t i = 0; i < n; i++) {
		enum tally t = status_tally_expecting_pass(c[i].status);
		char text[TUNE_FAILING_TEXT_MAX];
		if (t == TALLY_SKIPPED)
			continue;
		if (params_get(c[i].params, key, text, sizeof text) < 0)
			return -1;
		size_t j;
		for (j = 0; j < vals->count && strcmp(vals->v[j].text, text) != 0; j++)
			;
		if (j == vals->count) {
			if (vals->count == TUNE_FAILING_VALUES_MAX)
				return -1;
			struct tf_value *v = &vals->v[vals->count++];
			memset(v, 0, sizeof *v);
			text_copy(v->text, sizeof v->text, text);
			v->numeric = num_parse_int(text, LLONG_MIN, LLONG_MAX, &v->num) == 0 ||
				     num_parse_count(text, &v->num) == 0;
		}
		if (t == TALLY_FAILED)
			vals->v[j].failed = 1;
		else
			vals->v[j].passed = 1;
	}
	return 0;
}

/* Numbers first, in order; then text, in order. */
static int tf_value_cmp(const void *a, const void *b)
{
	const struct tf_value *x = a, *y = b;
	if (x->numeric != y->numeric)
		return x->numeric ? -1 : 1;
	if (x->numeric)
		return x->num < y->num ? -1 : x->num > y->num;
	return strcmp(x->text, y->text);
}

static int tf_pow2(const struct tf_value *v)
{
	return v->numeric && v->num > 0 && (v->num & (v->num - 1)) == 0;
}

/* Appends "K = V" for one value of the side, else "K ∈ {A, B, ...}";
 * returns how many values the side has. */
static size_t tf_list(char *buf, size_t len, const char *key, const struct tf_values *vals, int failed,
		      int braces_only)
{
	size_t count = 0;
	for (size_t i = 0; i < vals->count; i++)
		count += vals->v[i].failed == failed;
	if (count == 1 && !braces_only) {
		for (size_t i = 0; i < vals->count; i++)
			if (vals->v[i].failed == failed)
				text_appendf(buf, len, "%s = %s", key, vals->v[i].text);
		return count;
	}
	if (!braces_only)
		text_appendf(buf, len, "%s ∈ ", key);
	text_appendf(buf, len, "{");
	size_t listed = 0;
	for (size_t i = 0; i < vals->count; i++) {
		if (vals->v[i].failed != failed)
			continue;
		if (listed == TUNE_FAILING_LIST_MAX) {
			text_appendf(buf, len, ", ...");
			break;
		}
		text_appendf(buf, len, "%s%s", listed ? ", " : "", vals->v[i].text);
		listed++;
	}
	text_appendf(buf, len, "}");
	return count;
}

/* The line for a key whose failing and passing values are disjoint. */
static void tf_explain(char *buf, size_t len, const char *key, struct tf_values *vals)
{
	qsort(vals->v, vals->count, sizeof vals->v[0], tf_value_cmp);
	int pow2_split = 1;
	for (size_t i = 0; i < vals->count; i++)
		if (tf_pow2(&vals->v[i]) != vals->v[i].passed || !vals->v[i].numeric)
			pow2_split = 0;

	text_appendf(buf, len, "fails for ");
	size_t nf = tf_list(buf, len, key, vals, 1, 0);
	text_appendf(buf, len, " (every configuration with %s); ", nf == 1 ? "it" : "them");
	if (pow2_split) {
		text_appendf(buf, len, "passes at every power of two (");
		tf_list(buf, len, key, vals, 0, 1);
		text_appendf(buf, len, ")");
	} else {
		text_appendf(buf, len, "passes with ");
		tf_list(buf, len, key, vals, 0, 0);
	}
}

int tune_failing_describe(const struct tune_failing_config *configs, size_t n, char *buf, size_t len)
{
	struct tf_keys keys;
	size_t nfail = 0, ncount = 0;

	if (len == 0)
		return -1;
	buf[0] = '\0';
	keys.count = 0;
	for (size_t i = 0; i < n; i++) {
		enum tally t = status_tally_expecting_pass(configs[i].status);
		if (t == TALLY_SKIPPED)
			continue;
		ncount++;
		nfail += t == TALLY_FAILED;
		if (params_each(configs[i].params, tf_add_key, &keys) < 0) {
			text_appendf(buf, len, "configuration %zu: parameters \"%s\" cannot be read", i + 1,
				     configs[i].params ? configs[i].params : "");
			return -1;
		}
	}
	if (nfail == 0)
		return 0;
	if (nfail == ncount) {
		text_appendf(buf, len, "fails at every configuration");
		return 1;
	}

	/* The table is large (a key's every value): one, reused per key. */
	struct tf_values vals;
	for (size_t k = 0; k < keys.count; k++) {
		if (tf_collect(configs, n, keys.name[k], &vals) < 0)
			continue;
		int disjoint = 1;
		for (size_t i = 0; i < vals.count; i++)
			if (vals.v[i].failed && vals.v[i].passed)
				disjoint = 0;
		if (disjoint) {
			tf_explain(buf, len, keys.name[k], &vals);
			return 1;
		}
	}
	text_appendf(buf, len, "fails at %zu of %zu configurations", nfail, ncount);
	return 1;
}
