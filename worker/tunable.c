/*
 * tunable.c - binding and describing declared tunables (see tunable.h).
 *
 * Invariant: the check a case passes and the text a user reads come from
 * the same declaration, so the contract printed by --variants is the one
 * enforced before every launch.
 */
#include "worker/tunable.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/case.h"
#include "common/num.h"
#include "common/params.h"
#include "worker/expr.h"

/* What a rule or default can name: the tunables bound so far, the problem. */
struct scope {
	const struct tunable_set *set;
	const long long *values;
	const unsigned char *bound; /* bound[i]: values[i] is set */
	const struct problem *pb;
	int waiting;                /* a lookup named a tunable not bound yet */
};

static int scope_lookup(void *ctx, const char *name, size_t len, long long *out)
{
	struct scope *s = ctx;

	for (size_t i = 0; s->set && i < s->set->count; i++) {
		const char *t = s->set->tunables[i].name;
		if (strlen(t) == len && strncmp(t, name, len) == 0) {
			if (!s->bound[i]) {
				s->waiting = 1;
				return -1;
			}
			*out = s->values[i];
			return 0;
		}
	}
	return problem_lookup(s->pb, name, len, out);
}

int tunable_list_index(const char *list, const char *word)
{
	size_t wl = strlen(word);
	int i = 0;

	for (const char *p = list; p; i++) {
		const char *bar = strchr(p, '|');
		size_t n = bar ? (size_t)(bar - p) : strlen(p);
		if (n == wl && strncmp(p, word, n) == 0)
			return i;
		p = bar ? bar + 1 : NULL;
	}
	return -1;
}

/* 1 if v is one of the integers of a "1|2|4" list. */
static int list_has(const char *list, long long v)
{
	char word[32];

	snprintf(word, sizeof word, "%lld", v);
	return tunable_list_index(list, word) >= 0;
}

/* The value of `key` in "block=256,items=2" (a variant's defaults). */
static int default_override(const char *defaults, const char *key, char *buf, size_t len)
{
	return defaults && params_get(defaults, key, buf, len) == 0;
}

/* Parses the text of one value: a choice's name, or an integer given by a
 * user (decimal, 2^K, a leading minus) or, for a default, an expression. */
static int parse_value(const struct tunable *t, const char *text, int is_default, struct scope *sc,
		       long long *v, char *msg, size_t len)
{
	char err[160];

	if (t->choices) {
		int i = tunable_list_index(t->choices, text);
		if (i < 0) {
			snprintf(msg, len, "%s=%s: expected %s", t->name, text, t->choices);
			return -1;
		}
		*v = i;
		return 0;
	}
	if (is_default) {
		if (expr_eval(text, scope_lookup, sc, v, err, sizeof err) < 0) {
			snprintf(msg, len, "%s: default '%s': %s", t->name, text, err);
			return -1;
		}
		return 0;
	}
	int neg = text[0] == '-' && (t->lo < 0 || t->values);
	if (num_parse_count(text + neg, v) < 0) {
		snprintf(msg, len, "%s: not an integer", t->name);
		return -1;
	}
	if (neg)
		*v = -*v;
	return 0;
}

int tunable_value_ok(const struct tunable *t, long long v, char *msg, size_t len)
{
	if (t->choices)
		return 0;
	if (t->values) {
		if (list_has(t->values, v))
			return 0;
		snprintf(msg, len, "%s=%lld is not one of %s", t->name, v, t->values);
		return -1;
	}
	if (v < t->lo || v > t->hi) {
		snprintf(msg, len, "%s=%lld is outside %lld..%lld", t->name, v, t->lo, t->hi);
		return -1;
	}
	if (t->pow2 && (v <= 0 || (v & (v - 1)) != 0)) {
		snprintf(msg, len, "%s=%lld is not a power of two", t->name, v);
		return -1;
	}
	if (t->multiple_of && v % t->multiple_of != 0) {
		snprintf(msg, len, "%s=%lld is not a multiple of %d", t->name, v, t->multiple_of);
		return -1;
	}
	return 0;
}

/* Checks one rule; -1 with the rule, its reason and the values it read. */
static int check_rule(const struct rule *r, struct scope *sc, char *msg, size_t len)
{
	char err[160];
	long long v;

	if (expr_eval(r->expr, scope_lookup, sc, &v, err, sizeof err) < 0) {
		snprintf(msg, len, "rule '%s': %s", r->expr, err);
		return -1;
	}
	if (v)
		return 0;
	size_t used = (size_t)snprintf(msg, len, "%s does not hold%s%s%s", r->expr, r->why ? " (" : "",
				       r->why ? r->why : "", r->why ? ")" : "");
	for (size_t i = 0; sc->set && i < sc->set->count && used < len; i++)
		if (sc->bound[i] && strstr(r->expr, sc->set->tunables[i].name))
			used += (size_t)snprintf(msg + used, len - used, "%s%s=%lld", used ? ", " : ": ",
						 sc->set->tunables[i].name, sc->values[i]);
	return -1;
}

/* Binds tunable i from its text; -1 with a message. */
static int bind_one(const struct tunable *t, const char *word, int is_default, struct scope *sc,
		    long long *v, void *out, char *msg, size_t len)
{
	if (parse_value(t, word, is_default, sc, v, msg, len) < 0 || tunable_value_ok(t, *v, msg, len) < 0)
		return -1;
	if (*v < -2147483647LL - 1 || *v > 2147483647LL) {
		snprintf(msg, len, "%s=%lld does not fit an int", t->name, *v);
		return -1;
	}
	memcpy((char *)out + t->field, &(int){(int)*v}, sizeof(int));
	return 0;
}

/*
 * The values the case gives first, then the defaults, each as soon as the
 * tunables its expression names are bound ("items" defaults from "vec",
 * whichever of them is declared first); a default that names itself or a
 * cycle is an error.
 */
int tunable_bind(const struct variant_params *vp, const struct problem *pb, const char *params,
		 void *out, long long *values, char *msg, size_t len)
{
	const struct tunable_set *set = vp->set;
	long long local[TUNABLES_MAX];
	unsigned char bound[TUNABLES_MAX] = {0};
	struct scope sc = {.set = set, .values = local, .bound = bound, .pb = pb};
	char word[CASE_PARAMS_MAX]; /* a case's whole parameter text fits */

	if (set) {
		if (set->count > TUNABLES_MAX) {
			snprintf(msg, len, "more than %d tunables declared", TUNABLES_MAX);
			return -1;
		}
		memset(out, 0, set->size);
	}
	for (size_t i = 0; set && i < set->count; i++) {
		const struct tunable *t = &set->tunables[i];
		if (params_get(params ? params : "", t->name, word, sizeof word) != 0)
			continue;
		if (bind_one(t, word, 0, &sc, &local[i], out, msg, len) < 0)
			return -1;
		bound[i] = 1;
	}
	size_t left = 0;
	for (size_t i = 0; set && i < set->count; i++)
		left += !bound[i];
	for (int progress = 1; left && progress;) {
		progress = 0;
		for (size_t i = 0; i < set->count; i++) {
			const struct tunable *t = &set->tunables[i];
			if (bound[i])
				continue;
			/* The declaration's default is read in place: an
			 * expression may be longer than any one value. */
			const char *text = word;
			if (!default_override(vp->defaults, t->name, word, sizeof word))
				text = t->def ? t->def : "0";
			sc.waiting = 0;
			/* A choice's default is its name, not an expression. */
			if (bind_one(t, text, !t->choices, &sc, &local[i], out, msg, len) < 0) {
				if (sc.waiting)
					continue; /* again once what it names is bound */
				return -1;
			}
			bound[i] = 1;
			left--;
			progress = 1;
		}
		if (left && !progress)
			return -1; /* msg says which name it waits for */
	}
	for (size_t i = 0; set && i < set->nrules; i++)
		if (check_rule(&set->rules[i], &sc, msg, len) < 0)
			return -1;
	for (size_t i = 0; i < vp->nrules; i++)
		if (check_rule(&vp->rules[i], &sc, msg, len) < 0)
			return -1;
	if (values && set)
		memcpy(values, local, set->count * sizeof *values);
	return 0;
}

/* Appends printf-style text at buf[*used]; stops quietly at the end. */
static void __attribute__((format(printf, 4, 5))) append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;

	if (*used >= len)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	*used = n < 0 ? len : *used + (size_t)n;
}

int tunable_describe(const struct variant_params *vp, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; vp->set && i < vp->set->count; i++) {
		const struct tunable *t = &vp->set->tunables[i];

		append(buf, len, &used, "%s%s=", used ? " " : "", t->name);
		if (t->choices || t->values)
			append(buf, len, &used, "%s", t->choices ? t->choices : t->values);
		else
			append(buf, len, &used, "%lld..%lld", t->lo, t->hi);
		if (t->pow2)
			append(buf, len, &used, " (power of two)");
		if (t->multiple_of)
			append(buf, len, &used, " (multiple of %d)", t->multiple_of);
	}
	return used < len ? 0 : -1;
}

static void contract_rules(const struct rule *r, size_t n, char *buf, size_t len, size_t *used)
{
	for (size_t i = 0; i < n; i++) {
		append(buf, len, used, "%s%s", *used ? "; " : "", r[i].expr);
		if (r[i].why)
			append(buf, len, used, " (%s)", r[i].why);
	}
}

int tunable_contract(const struct variant_params *vp, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	contract_rules(vp->rules, vp->nrules, buf, len, &used);
	if (vp->set)
		contract_rules(vp->set->rules, vp->set->nrules, buf, len, &used);
	return used < len ? 0 : -1;
}

int tunable_space(const struct variant_params *vp, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	if (vp->space) {
		append(buf, len, &used, "%s", vp->space);
		return used < len ? 0 : -1;
	}
	for (size_t i = 0; vp->set && i < vp->set->count; i++) {
		const struct tunable *t = &vp->set->tunables[i];
		if (t->space)
			append(buf, len, &used, "%s%s=%s", used ? " " : "", t->name, t->space);
	}
	return used < len ? 0 : -1;
}
