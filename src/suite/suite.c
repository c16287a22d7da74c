/*
 * suite.c - reading suite files into case lists (format and limits in
 * suite.h).
 *
 * A file is read as logical lines: '#' starts a comment wherever it appears
 * (values hold neither spaces nor '#'), and a backslash ending a line, after
 * its comment is removed, joins the next line to it.  Each logical line is
 * "case NAME key=value ...".  Every key other than the case keys (the
 * case_keys table below) is a kernel parameter and lands in
 * case_spec.params in the order written, even when the line uses it only
 * to build the name or another value through a {key} placeholder; one
 * that fills another key's value is marked as a template variable.
 *
 * Expansion: the line's list values (a|b|c) form a cartesian product taken
 * in key order, the last key varying fastest.  A {key} placeholder may
 * appear in NAME and in any value and is replaced by that key's value in
 * the current combination, in one pass; a list-valued key must appear in
 * NAME so that expanded names differ.  Names are checked after expansion.
 *
 * Cost: everything is linear in the input.  The bytes are checked as each
 * physical line is read; a line stops at SUITE_LINE_KEYS_MAX keys, so the
 * checks that compare a key with the keys before it cost a bounded amount
 * per key; a line's parameters are refused as soon as the keys read so far
 * cannot fit CASE_PARAMS_MAX, and its cases are counted against the caps
 * before any is built.  Case names are found through a hash index kept in
 * the suite between loads.
 *
 * Invariants: a load either appends all the cases of its input or none
 * (on error the suite is left as it was), case names are unique across the
 * whole suite, the suite never holds more than SUITE_CASES_MAX cases, and
 * every error is one line "file:line: what was expected".
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r under -std=c11 */
#endif
#include "suite/suite.h"

#include <errno.h>
#include <fnmatch.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/case.h"
#include "common/file_read.h"
#include "common/num.h"
#include "common/params.h"
#include "common/requirement.h"
#include "common/vec.h"

/* The template bits of a case (case_spec.template_params) number the
 * parameters of one line, at most its keys. */
_Static_assert(SUITE_LINE_KEYS_MAX <= 64, "case_spec.template_params has 64 bits");

/* A growable string. */
struct sbuf {
	char *p;
	size_t n, cap;
};

static int sbuf_put(struct sbuf *b, const char *s, size_t len)
{
	if (vec_reserve(b->p, b->n, b->cap, len + 1) < 0) /* + 1: the terminator */
		return -1;
	memcpy(b->p + b->n, s, len);
	b->n += len;
	b->p[b->n] = '\0';
	return 0;
}

/* Open-addressing index of the case names of cases[0..used); slots hold
 * case index + 1. */
struct suite_index {
	size_t *slot;
	size_t cap, used;
};

static size_t name_hash(const char *s)
{
	uint64_t h = 0xCBF29CE484222325ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001B3ULL;
	return (size_t)h;
}

/* The slot holding name, or the empty slot where it would go (cap > 0). */
static size_t *index_slot(const struct suite_index *x, const struct case_spec *cases,
			  const char *name)
{
	size_t i = name_hash(name) & (x->cap - 1);
	while (x->slot[i] && strcmp(cases[x->slot[i] - 1].name, name) != 0)
		i = (i + 1) & (x->cap - 1);
	return &x->slot[i];
}

/* The index + 1 of the case called name, or 0. */
static size_t index_find(const struct suite_index *x, const struct case_spec *cases,
			 const char *name)
{
	return x->cap ? *index_slot(x, cases, name) : 0;
}

static int index_add(struct suite_index *x, const struct case_spec *cases, size_t k)
{
	if ((x->used + 1) * 2 > x->cap) {
		struct suite_index big = { NULL, x->cap ? x->cap * 2 : 64, 0 };
		if (!(big.slot = calloc(big.cap, sizeof *big.slot)))
			return -1;
		for (size_t i = 0; i < x->cap; i++)
			if (x->slot[i])
				*index_slot(&big, cases, cases[x->slot[i] - 1].name) = x->slot[i];
		big.used = x->used;
		free(x->slot);
		*x = big;
	}
	*index_slot(x, cases, cases[k].name) = k + 1;
	x->used++;
	return 0;
}

/* Makes s->index cover exactly cases[0..count): the one of the last load
 * does unless a failed load took cases back.  Returns 0, or -1 when out
 * of memory (the index is then empty). */
static int index_sync(struct suite *s)
{
	struct suite_index *x = s->index;

	if (x && x->used == s->count)
		return 0;
	if (!x && !(x = s->index = calloc(1, sizeof *x)))
		return -1;
	free(x->slot);
	memset(x, 0, sizeof *x);
	for (size_t i = 0; i < s->count; i++) {
		if (index_add(x, s->cases, i) < 0) {
			free(x->slot);
			memset(x, 0, sizeof *x);
			return -1;
		}
	}
	return 0;
}

/* One key=value of a line; the value split at '|' into alternatives. */
struct kv {
	const char *key;
	const char *raw;   /* the value as written, for messages */
	char **alt;
	size_t nalt;
	int feeds;         /* another key's value names it as {key} */
};

struct loader {
	struct suite *s;
	const char *origin;
	char *err;
	size_t errlen;
	size_t before;     /* the suite's count when this load began */
	struct sbuf scratch;
};

#ifdef __GNUC__
__attribute__((format(printf, 3, 4)))
#endif
static int fail(struct loader *l, int line, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (!l->errlen)
		return -1;
	k = snprintf(l->err, l->errlen, "%s:%d: ", l->origin, line);
	if (k >= 0 && (size_t)k < l->errlen) {
		va_start(ap, fmt);
		vsnprintf(l->err + k, l->errlen - (size_t)k, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int is_key(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || *s == '_'))
		return 0;
	for (s++; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

/* [A-Za-z0-9_-]+ components separated by single dots. */
static int is_dotted(const char *s)
{
	size_t comp = 0;

	for (; *s; s++) {
		if (*s == '.') {
			if (comp == 0)
				return 0;
			comp = 0;
		} else if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			   (*s >= '0' && *s <= '9') || *s == '_' || *s == '-') {
			comp++;
		} else {
			return 0;
		}
	}
	return comp > 0;
}

static struct kv *kv_find(struct kv *kv, size_t nkv, const char *key, size_t klen)
{
	for (size_t i = 0; i < nkv; i++)
		if (strlen(kv[i].key) == klen && strncmp(kv[i].key, key, klen) == 0)
			return &kv[i];
	return NULL;
}

/* 1 if text holds the placeholder {key}. */
static int has_placeholder(const char *text, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = strchr(text, '{'); p; p = strchr(p + 1, '{'))
		if (strncmp(p + 1, key, klen) == 0 && p[klen + 1] == '}')
			return 1;
	return 0;
}

/* Checks every {key} of text names a key of the line whose own values hold
 * no placeholder (substitution is a single pass).  When text is a value
 * (in_value), marks the keys it names as feeding it. */
static int check_placeholders(struct loader *l, int line, const char *text, const char *where,
			      int in_value, struct kv *kv, size_t nkv)
{
	for (const char *p = strchr(text, '{'); p; p = strchr(p, '{')) {
		const char *end = strchr(p, '}');
		if (!end)
			return fail(l, line, "unterminated '{' in %s '%s'", where, text);
		size_t klen = (size_t)(end - p - 1);
		struct kv *k = kv_find(kv, nkv, p + 1, klen);
		if (!k)
			return fail(l, line, "placeholder {%.*s} in %s names no key of this line",
				    (int)klen, p + 1, where);
		if (strchr(k->raw, '{'))
			return fail(l, line, "placeholder {%s} in %s names a key whose value has placeholders itself",
				    k->key, where);
		k->feeds |= in_value;
		p = end + 1;
	}
	return 0;
}

/* Replaces the placeholders of text with the current combination's values,
 * into l->scratch. */
static int substitute(struct loader *l, const char *text, struct kv *kv, size_t nkv,
		      const size_t *idx)
{
	l->scratch.n = 0;
	if (sbuf_put(&l->scratch, "", 0) < 0)
		return -1;
	for (const char *p = text; *p;) {
		const char *open = strchr(p, '{');
		if (!open)
			return sbuf_put(&l->scratch, p, strlen(p));
		const char *end = strchr(open, '}'); /* present: check_placeholders */
		struct kv *k = kv_find(kv, nkv, open + 1, (size_t)(end - open - 1));
		const char *v = k->alt[idx[k - kv]];
		if (sbuf_put(&l->scratch, p, (size_t)(open - p)) < 0 ||
		    sbuf_put(&l->scratch, v, strlen(v)) < 0)
			return -1;
		p = end + 1;
	}
	return 0;
}

static int parse_requires(struct loader *l, int line, struct case_spec *c, const char *value)
{
	char why[256];
	int count = requirement_parse_list("requires=", value, c->req, CASE_REQ_MAX, why, sizeof why);

	if (count < 0)
		return fail(l, line, "%s", why);
	c->nreq = count;
	return 0;
}

/* Appends ", word" (or word, first) to a list of names for a message. */
static void list_add(char *list, size_t len, const char *word)
{
	size_t used = strlen(list);
	snprintf(list + used, len - used, "%s%s", used ? ", " : "", word);
}

/* The keys a case line gives the case itself, each applied to the case by
 * its function; every other key is a kernel parameter (apply_param).  Each
 * takes a value with its placeholders replaced and returns 0, or -1 with
 * the message. */
typedef int apply_fn(struct loader *l, int line, struct case_spec *c, const char *key,
		     const char *value);

static int apply_variant(struct loader *l, int line, struct case_spec *c, const char *key,
			 const char *value)
{
	(void)key;
	if (strlen(value) >= sizeof c->variant || !is_dotted(value))
		return fail(l, line, "bad variant '%s' (a dotted catalog name such as block.tree)", value);
	strcpy(c->variant, value);
	return 0;
}

/* n and cols; their product is checked once both are known (apply_keys). */
static int apply_count(struct loader *l, int line, struct case_spec *c, const char *key,
		       const char *value)
{
	long long count;

	if (num_parse_count(value, &count) < 0 || count < 1 || count > CASE_ELEMENTS_MAX)
		return fail(l, line, "%s must be a count from 1 to 2^%d (decimal or 2^K), got '%s'", key,
			    CASE_ELEMENTS_MAX_LOG2, value);
	if (key[0] == 'n')
		c->n = count;
	else
		c->cols = count;
	return 0;
}

static int apply_dtype(struct loader *l, int line, struct case_spec *c, const char *key,
		       const char *value)
{
	(void)key;
	if (dtype_parse(value, &c->dtype) < 0) {
		char list[80] = "";
		for (int d = 0; d < DTYPE_COUNT; d++)
			list_add(list, sizeof list, dtype_name((enum dtype)d));
		return fail(l, line, "unknown dtype '%s' (one of %s)", value, list);
	}
	return 0;
}

static int apply_expect(struct loader *l, int line, struct case_spec *c, const char *key,
			const char *value)
{
	(void)key;
	if (expect_parse(value, &c->expect) < 0) {
		char list[80] = "";
		for (int e = 0; e < EXPECT_COUNT; e++)
			list_add(list, sizeof list, expect_name((enum expect)e));
		return fail(l, line, "expect must be one of %s (got '%s')", list, value);
	}
	return 0;
}

static int apply_requires(struct loader *l, int line, struct case_spec *c, const char *key,
			  const char *value)
{
	(void)key;
	return parse_requires(l, line, c, value);
}

/* The same bound as the command line's --timeout (CASE_SECONDS_MAX). */
static int apply_timeout(struct loader *l, int line, struct case_spec *c, const char *key,
			 const char *value)
{
	(void)key;
	if (num_parse_decimal(value, &c->timeout_s) < 0 || !(c->timeout_s > 0.0) ||
	    c->timeout_s > CASE_SECONDS_MAX)
		return fail(l, line, "timeout must be a number of seconds in (0, %d], got '%s'",
			    CASE_SECONDS_MAX, value);
	return 0;
}

/* Beyond 1000 times conform's tolerance a check says little. */
static int apply_tolerance(struct loader *l, int line, struct case_spec *c, const char *key,
			   const char *value)
{
	(void)key;
	if (num_parse_decimal(value, &c->tolerance) < 0 || !(c->tolerance > 1.0) ||
	    c->tolerance > 1000.0)
		return fail(l, line, "tolerance must be a factor above 1 and at most 1000 "
			    "(times conform's tolerance), got '%s'", value);
	return 0;
}

static const struct case_key {
	const char *key;
	apply_fn *apply;
} case_keys[] = {
	{ "variant", apply_variant }, { "n", apply_count }, { "cols", apply_count },
	{ "dtype", apply_dtype }, { "expect", apply_expect }, { "requires", apply_requires },
	{ "timeout", apply_timeout }, { "tolerance", apply_tolerance },
};

static const struct case_key *case_key_find(const char *key)
{
	for (size_t i = 0; i < sizeof case_keys / sizeof *case_keys; i++)
		if (strcmp(case_keys[i].key, key) == 0)
			return &case_keys[i];
	return NULL;
}

static int fail_params_long(struct loader *l, int line, const char *name)
{
	return fail(l, line, "parameters of case '%s' exceed %d characters", name, CASE_PARAMS_MAX - 1);
}

/* Appends a kernel parameter; a template variable (see case.h) is marked.
 * op is checked here, whatever the variant: the database files results
 * by it (the worker then checks it against the variant's operators). */
static int apply_param(struct loader *l, int line, struct case_spec *c, const char *key,
		       const char *value, int is_template, int *npairs)
{
	enum op op;

	if (strcmp(key, "op") == 0 && op_parse(value, &op) < 0) {
		char list[80] = "";
		for (int o = 0; o < OP_COUNT; o++)
			list_add(list, sizeof list, op_name((enum op)o));
		return fail(l, line, "unknown op '%s' (one of %s)", value, list);
	}
	if (strpbrk(value, ",\t\n"))
		return fail(l, line, "value of '%s' may not contain a comma, got '%s'", key, value);
	if (params_append(c->params, sizeof c->params, key, value) < 0)
		return fail_params_long(l, line, c->name);
	if (is_template)
		c->template_params |= 1ULL << *npairs;
	++*npairs;
	return 0;
}

static int append_case(struct loader *l, int line, const struct case_spec *c)
{
	struct suite *s = l->s;
	size_t dup = index_find(s->index, s->cases, c->name);

	if (dup) {
		const struct case_spec *first = &s->cases[dup - 1];
		return fail(l, line, "duplicate case name '%s' (first defined at %s:%d)",
			    c->name, first->file, first->line);
	}
	if (vec_reserve(s->cases, s->count, s->cap, 1) < 0)
		return fail(l, line, "out of memory");
	s->cases[s->count] = *c;
	if (index_add(s->index, s->cases, s->count) < 0)
		return fail(l, line, "out of memory");
	s->count++;
	return 0;
}

/* Applies every key of the current combination idx to c. */
static int apply_keys(struct loader *l, int line, struct case_spec *c, struct kv *kv, size_t nkv,
		      const size_t *idx)
{
	int npairs = 0;

	for (size_t k = 0; k < nkv; k++) {
		const struct case_key *ck = case_key_find(kv[k].key);
		if (substitute(l, kv[k].alt[idx[k]], kv, nkv, idx) < 0)
			return fail(l, line, "out of memory");
		if (ck ? ck->apply(l, line, c, kv[k].key, l->scratch.p) < 0
		       : apply_param(l, line, c, kv[k].key, l->scratch.p, kv[k].feeds, &npairs) < 0)
			return -1;
	}
	if (c->cols && c->n > CASE_ELEMENTS_MAX / c->cols)
		return fail(l, line, "n x cols = %lld x %lld is more than 2^%d elements", (long long)c->n,
			    (long long)c->cols, CASE_ELEMENTS_MAX_LOG2);
	return 0;
}

/* Expands the parsed line into cases, odometer style. */
static int expand(struct loader *l, int line, const char *name, struct kv *kv, size_t nkv)
{
	size_t *idx = calloc(nkv + 1, sizeof *idx);
	int rc = 0;

	if (!idx)
		return fail(l, line, "out of memory");
	for (;;) {
		struct case_spec c;

		memset(&c, 0, sizeof c);
		c.dtype = DTYPE_F32;
		c.expect = EXPECT_PASS;
		c.line = line;
		snprintf(c.file, sizeof c.file, "%s", l->origin);

		if (substitute(l, name, kv, nkv, idx) < 0) {
			rc = fail(l, line, "out of memory");
			break;
		}
		if (l->scratch.n >= sizeof c.name) {
			rc = fail(l, line, "case name '%.40s...' is longer than %d characters",
				  l->scratch.p, CASE_NAME_MAX - 1);
			break;
		}
		if (!is_dotted(l->scratch.p)) {
			rc = fail(l, line, "bad case name '%s' (a dotted path of [A-Za-z0-9_-] components)",
				  l->scratch.p);
			break;
		}
		strcpy(c.name, l->scratch.p);
		if ((rc = apply_keys(l, line, &c, kv, nkv, idx)) < 0 ||
		    (rc = append_case(l, line, &c)) < 0)
			break;

		size_t k = nkv;
		while (k > 0 && ++idx[k - 1] == kv[k - 1].nalt)
			idx[--k] = 0;
		if (k == 0)
			break;
	}
	free(idx);
	return rc;
}

/* The fewest characters a value can take after substitution: its
 * shortest alternative, or 1 when placeholders may stand for less. */
static size_t shortest_value(const struct kv *k)
{
	size_t least = SIZE_MAX;

	if (strchr(k->raw, '{'))
		return 1;
	for (size_t a = 0; a < k->nalt; a++) {
		size_t n = strlen(k->alt[a]);
		if (n < least)
			least = n;
	}
	return least;
}

/* Checks that the line's total cases fit the caps of a line, of its file
 * and of the suite, before any is built. */
static int check_case_count(struct loader *l, int line, const char *name, const struct kv *kv,
			    size_t nkv)
{
	size_t total = 1, in_file = l->s->count - l->before;

	for (size_t i = 0; i < nkv; i++) {
		if (total > SUITE_LINE_CASES_MAX / kv[i].nalt)
			return fail(l, line, "case '%s' expands to more than %d cases", name,
				    SUITE_LINE_CASES_MAX);
		total *= kv[i].nalt;
	}
	if (total > SUITE_FILE_CASES_MAX - in_file)
		return fail(l, line, "case '%s' brings this file past %d cases", name, SUITE_FILE_CASES_MAX);
	if (l->s->count > SUITE_CASES_MAX || total > SUITE_CASES_MAX - l->s->count)
		return fail(l, line, "case '%s' brings the suites past %d cases in all", name,
			    SUITE_CASES_MAX);
	return 0;
}

/* "kernel FILE": a user's kernel file the suite's cases use (variant
 * user.NAME), relative to the suite file's directory. */
static int parse_kernel(struct loader *l, int line, const char *path, const char *extra)
{
	const char *slash = strrchr(l->origin, '/');
	char *full;

	if (!path || extra)
		return fail(l, line, "expected 'kernel FILE' (one path, relative to the suite file)");
	if (l->s->nkernels == SUITE_KERNELS_MAX)
		return fail(l, line, "more than %d kernel files", SUITE_KERNELS_MAX);
	if (path[0] == '/' || !slash)
		full = strdup(path);
	else if ((full = malloc((size_t)(slash - l->origin) + strlen(path) + 2)))
		sprintf(full, "%.*s/%s", (int)(slash - l->origin), l->origin, path);
	if (!full)
		return fail(l, line, "out of memory");
	l->s->kernels[l->s->nkernels++] = full;
	return 0;
}

/* Splits a logical line in place and expands it. */
static int parse_line(struct loader *l, int line, char *text)
{
	static const char space[] = " \t\r\v\f";
	char *tok[3], *save = NULL;
	struct kv *kv = NULL;
	size_t nkv = 0, cap = 0, params = 0;
	int rc = -1;

	tok[0] = strtok_r(text, space, &save);
	if (!tok[0])
		return 0;
	if (strcmp(tok[0], "kernel") == 0) {
		const char *path = strtok_r(NULL, space, &save);
		return parse_kernel(l, line, path, path ? strtok_r(NULL, space, &save) : NULL);
	}
	if (strcmp(tok[0], "case") != 0)
		return fail(l, line, "expected 'case NAME key=value ...' or 'kernel FILE', got '%s'", tok[0]);
	tok[1] = strtok_r(NULL, space, &save);
	if (!tok[1])
		return fail(l, line, "expected 'case NAME key=value ...', got 'case' alone");
	if (strchr(tok[1], '='))
		return fail(l, line, "expected a case name after 'case', got '%s'", tok[1]);

	while ((tok[2] = strtok_r(NULL, space, &save))) {
		char *eq = strchr(tok[2], '=');
		if (nkv == SUITE_LINE_KEYS_MAX) {
			fail(l, line, "more than %d key=value pairs on one line", SUITE_LINE_KEYS_MAX);
			goto out;
		}
		if (!eq) {
			fail(l, line, "expected key=value, got '%s'", tok[2]);
			goto out;
		}
		*eq = '\0';
		if (!is_key(tok[2])) {
			fail(l, line, "bad key '%s' (keys are [a-z_][a-z0-9_]*)", tok[2]);
			goto out;
		}
		if (kv_find(kv, nkv, tok[2], strlen(tok[2]))) {
			fail(l, line, "duplicate key '%s'", tok[2]);
			goto out;
		}
		const char *val = eq + 1;
		if (!*val || *val == '|' || strstr(val, "||") || val[strlen(val) - 1] == '|') {
			fail(l, line, "key '%s' has an empty value or alternative in '%s'", tok[2], val);
			goto out;
		}
		if (vec_reserve(kv, nkv, cap, 1) < 0) {
			fail(l, line, "out of memory");
			goto out;
		}
		struct kv *k = &kv[nkv];
		memset(k, 0, sizeof *k);
		k->key = tok[2];
		k->nalt = 1;
		for (const char *p = val; *p; p++)
			k->nalt += *p == '|';
		/* The raw value is kept whole for messages; alternatives are copies. */
		k->raw = val;
		if (!(k->alt = calloc(k->nalt, sizeof *k->alt)) ||
		    !(k->alt[0] = strdup(val))) {
			nkv++;
			fail(l, line, "out of memory");
			goto out;
		}
		nkv++;
		for (size_t a = 1; a < k->nalt; a++) {
			k->alt[a] = strchr(k->alt[a - 1], '|');
			*k->alt[a]++ = '\0';
		}
		/* Every case of the line holds at least this much of params:
		 * refuse as soon as that cannot fit, not after the whole line. */
		if (!case_key_find(k->key)) {
			params += (params ? 1 : 0) + strlen(k->key) + 1 + shortest_value(k);
			if (params >= CASE_PARAMS_MAX) {
				fail_params_long(l, line, tok[1]);
				goto out;
			}
		}
	}

	for (size_t i = 0; i < nkv; i++) {
		if (kv[i].nalt > 1 && !has_placeholder(tok[1], kv[i].key)) {
			fail(l, line, "list-valued key '%s' must appear as {%s} in the case name",
			     kv[i].key, kv[i].key);
			goto out;
		}
	}
	if (check_case_count(l, line, tok[1], kv, nkv) < 0)
		goto out;
	if (check_placeholders(l, line, tok[1], "the case name", 0, kv, nkv) < 0)
		goto out;
	for (size_t i = 0; i < nkv; i++) {
		char where[64];
		snprintf(where, sizeof where, "the value of '%.40s'", kv[i].key);
		if (check_placeholders(l, line, kv[i].raw, where, 1, kv, nkv) < 0)
			goto out;
	}
	if (!kv_find(kv, nkv, "variant", 7)) {
		fail(l, line, "case '%s' has no variant= (the kernel variant to run)", tok[1]);
		goto out;
	}
	if (!kv_find(kv, nkv, "n", 1)) {
		fail(l, line, "case '%s' has no n= (the problem size)", tok[1]);
		goto out;
	}
	rc = expand(l, line, tok[1], kv, nkv);
out:
	for (size_t i = 0; i < nkv; i++) {
		if (kv[i].alt)
			free(kv[i].alt[0]);
		free(kv[i].alt);
	}
	free(kv);
	return rc;
}

/* Refuses the bytes that must not reach a terminal or the database from a
 * physical line p..end: a control character anywhere (tab, CR, VT and FF
 * are white space), a byte above 0x7e outside a comment (a comment may be
 * UTF-8).  Refusing rather than replacing keeps a case's name what the
 * file says. */
static int check_bytes(struct loader *l, int line, const char *p, const char *end)
{
	int comment = 0;

	for (const char *q = p; q < end; q++) {
		unsigned char b = (unsigned char)*q;
		comment |= b == '#';
		if ((b < 0x20 && b != '\t' && b != '\r' && b != '\v' && b != '\f') || b == 0x7f)
			return fail(l, line, "control character 0x%02x at column %zu (a suite file is printable text)",
				    b, (size_t)(q - p) + 1);
		if (b > 0x7f && !comment)
			return fail(l, line, "byte 0x%02x at column %zu outside a comment (names and values are ASCII)",
				    b, (size_t)(q - p) + 1);
	}
	return 0;
}

/* Walks the physical lines of text[0..size), checks their bytes, strips
 * comments, joins continuations, and hands each logical line with its
 * first line number to parse_line. */
static int parse_text(struct loader *l, const char *text, size_t size)
{
	struct sbuf lb = { NULL, 0, 0 };
	int lineno = 0, start = 0, rc = 0;
	const char *p = text, *end = text + size;

	while (p < end && rc == 0) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		lineno++;
		if (check_bytes(l, lineno, p, eol) < 0) {
			rc = -1;
			break;
		}
		const char *hash = memchr(p, '#', (size_t)(eol - p));
		const char *stop = hash ? hash : eol;
		if (lb.n == 0)
			start = lineno;
		while (stop > p && strchr(" \t\r\v\f", stop[-1]))
			stop--;
		int more = stop > p && stop[-1] == '\\';
		if (sbuf_put(&lb, p, (size_t)(stop - p - more)) < 0 || sbuf_put(&lb, " ", 1) < 0)
			rc = fail(l, lineno, "out of memory");
		else if (more && !nl)
			rc = fail(l, lineno, "line continues past the end of the file");
		else if (!more) {
			rc = parse_line(l, start, lb.p);
			lb.n = 0;
		}
		p = nl ? nl + 1 : end;
	}
	if (rc == 0 && lb.n > 0) /* a final line ending "\\\n" */
		rc = fail(l, lineno, "line continues past the end of the file");
	free(lb.p);
	return rc;
}

int suite_add(struct suite *s, const struct case_spec *c, char *err, size_t len)
{
	struct loader l = { s, c->file, err, len, s->count, { NULL, 0, 0 } };

	if (index_sync(s) < 0)
		return fail(&l, 0, "out of memory");
	return append_case(&l, c->line, c);
}

int suite_load_buffer(struct suite *s, const char *origin, const char *data, size_t size,
		      char *err, size_t len)
{
	struct loader l = { s, origin, err, len, s->count, { NULL, 0, 0 } };
	int rc;

	if (size > SUITE_FILE_BYTES_MAX) {
		/* The line that holds the first byte too many. */
		int line = 1;
		for (const char *p = data; (p = memchr(p, '\n', (size_t)(data + SUITE_FILE_BYTES_MAX - p)));
		     p++)
			line++;
		rc = fail(&l, line, "the file goes past %d bytes here (the most a suite file may hold)",
			  SUITE_FILE_BYTES_MAX);
	} else if (index_sync(s) < 0) {
		rc = fail(&l, 0, "out of memory");
	} else {
		rc = parse_text(&l, data, size);
	}
	if (rc < 0)
		s->count = l.before;
	free(l.scratch.p);
	return rc;
}

int suite_load_text(struct suite *s, const char *origin, const char *text, char *err, size_t len)
{
	return suite_load_buffer(s, origin, text, strlen(text), err, len);
}

/* Reads at most SUITE_FILE_BYTES_MAX + 1 bytes (file_read_bounded), and
 * leaves the refusal of a longer file to suite_load_buffer. */
int suite_load_file(struct suite *s, const char *path, char *err, size_t len)
{
	char *text;
	size_t size;

	if (file_read_bounded(path, SUITE_FILE_BYTES_MAX, &text, &size, err, len) < 0)
		return -1;
	int rc = suite_load_buffer(s, path, text, size, err, len);
	free(text);
	return rc;
}

/* Suite files sort by file name, whatever folder holds them, so the order
 * of cases does not depend on how the families are laid out. */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static int compare_paths(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	int c = strcmp(base_name(x), base_name(y));
	return c ? c : strcmp(x, y);
}

/* Appends to g the files matching dir/pattern (GLOB_APPEND after the first).
 * Returns 0, or -1 when out of memory or unreadable. */
static int glob_suites(const char *dir, const char *pattern, int append, glob_t *g)
{
	size_t dl = strlen(dir);
	char *pat = malloc(dl + strlen(pattern) + 2);
	int rc;

	if (!pat)
		return -1;
	sprintf(pat, "%s%s%s", dir, dl && dir[dl - 1] == '/' ? "" : "/", pattern);
	rc = glob(pat, append ? GLOB_APPEND : 0, NULL, g);
	free(pat);
	return rc == 0 || rc == GLOB_NOMATCH ? 0 : -1;
}

int suite_load_dir(struct suite *s, const char *dir, char *err, size_t len)
{
	struct stat st;
	glob_t g;
	size_t before = s->count;
	int rc = 0;

	if (stat(dir, &st) != 0) {
		snprintf(err, len, "%s: cannot read directory: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, len, "%s: cannot read directory: not a directory", dir);
		return -1;
	}
	memset(&g, 0, sizeof g);
	/* A family keeps its suites in its own folder (kernels/<family>/);
	 * an installed tree has them flat. */
	if (glob_suites(dir, "*.suite", 0, &g) < 0 || glob_suites(dir, "*/*.suite", 1, &g) < 0) {
		snprintf(err, len, "%s: cannot list the suite files", dir);
		globfree(&g);
		return -1;
	}
	qsort(g.gl_pathv, g.gl_pathc, sizeof *g.gl_pathv, compare_paths);
	for (size_t i = 0; i < g.gl_pathc && rc == 0; i++)
		rc = suite_load_file(s, g.gl_pathv[i], err, len);
	globfree(&g);
	if (rc < 0)
		s->count = before;
	return rc;
}

void suite_free(struct suite *s)
{
	if (s->index)
		free(s->index->slot);
	free(s->index);
	s->index = NULL;
	free(s->cases);
	s->cases = NULL;
	s->count = s->cap = 0;
	for (size_t i = 0; i < s->nkernels; i++)
		free(s->kernels[i]);
	s->nkernels = 0;
}

int suite_glob_any(const char *name, const char *const *globs, size_t nglobs)
{
	for (size_t i = 0; i < nglobs; i++)
		if (fnmatch(globs[i], name, 0) == 0)
			return 1;
	return 0;
}
