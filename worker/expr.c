/*
 * expr.c - a recursive-descent evaluator for expr.h's grammar.
 *
 * One function per precedence level, lowest first; each evaluates as it
 * parses, so both arms of ?: and the right side of && and || are parsed
 * but only evaluated for their effect on errors when taken: an untaken arm
 * may divide by zero without failing ("esize == 0 ? 0 : 128 / esize").
 */
#include "worker/expr.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

struct parser {
	const char *p;
	expr_lookup_fn lookup;
	void *ctx;
	int skip;        /* > 0: inside an untaken branch, errors of value are ignored */
	char *err;
	size_t errlen;
	int failed;
};

static void fail(struct parser *ps, const char *what)
{
	if (!ps->failed)
		snprintf(ps->err, ps->errlen, "%s at '%.20s'", what, ps->p);
	ps->failed = 1;
}

/* A value error (division by zero, overflow) counts only where evaluated. */
static void fail_value(struct parser *ps, const char *what)
{
	if (!ps->skip)
		fail(ps, what);
}

static void blank(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

static int accept(struct parser *ps, const char *tok)
{
	size_t n = strlen(tok);

	blank(ps);
	if (strncmp(ps->p, tok, n) != 0)
		return 0;
	/* "<" is not the start of "<=", nor "!" of "!=" */
	if (n == 1 && (tok[0] == '<' || tok[0] == '>' || tok[0] == '!' || tok[0] == '=') && ps->p[1] == '=')
		return 0;
	if (n == 1 && (tok[0] == '&' || tok[0] == '|') && ps->p[1] == tok[0])
		return 0;
	ps->p += n;
	return 1;
}

static void expect(struct parser *ps, const char *tok)
{
	if (!accept(ps, tok))
		fail(ps, tok[0] == ')' ? "expected ')'" : tok[0] == ':' ? "expected ':'" : "expected ','");
}

static long long ternary(struct parser *ps);

static long long checked(struct parser *ps, long long a, long long b, char op)
{
	long long r = 0;

	switch (op) {
	case '+':
		if (__builtin_add_overflow(a, b, &r))
			fail_value(ps, "overflow");
		return r;
	case '-':
		if (__builtin_sub_overflow(a, b, &r))
			fail_value(ps, "overflow");
		return r;
	case '*':
		if (__builtin_mul_overflow(a, b, &r))
			fail_value(ps, "overflow");
		return r;
	default:
		if (b == 0 || (a == LLONG_MIN && b == -1)) {
			fail_value(ps, b == 0 ? "division by zero" : "overflow");
			return 0;
		}
		return op == '/' ? a / b : a % b;
	}
}

static long long call(struct parser *ps, const char *name, size_t len)
{
	long long a, b;

	if (len == 4 && strncmp(name, "pow2", 4) == 0) {
		a = ternary(ps);
		expect(ps, ")");
		return a > 0 && (a & (a - 1)) == 0;
	}
	if (len == 3 && (strncmp(name, "min", 3) == 0 || strncmp(name, "max", 3) == 0)) {
		a = ternary(ps);
		expect(ps, ",");
		b = ternary(ps);
		expect(ps, ")");
		return name[1] == 'i' ? (a < b ? a : b) : (a > b ? a : b);
	}
	fail(ps, "unknown function");
	return 0;
}

static long long primary(struct parser *ps)
{
	blank(ps);
	if (accept(ps, "(")) {
		long long v = ternary(ps);
		expect(ps, ")");
		return v;
	}
	if (isdigit((unsigned char)*ps->p)) {
		long long v = 0;
		while (isdigit((unsigned char)*ps->p)) {
			if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *ps->p - '0', &v))
				fail(ps, "number too large");
			ps->p++;
		}
		return v;
	}
	if (isalpha((unsigned char)*ps->p) || *ps->p == '_') {
		const char *name = ps->p;
		long long v = 0;

		while (isalnum((unsigned char)*ps->p) || *ps->p == '_')
			ps->p++;
		size_t len = (size_t)(ps->p - name);
		if (accept(ps, "("))
			return call(ps, name, len);
		if (ps->lookup(ps->ctx, name, len, &v) < 0) {
			if (!ps->failed)
				snprintf(ps->err, ps->errlen, "unknown name '%.*s'", (int)len, name);
			ps->failed = 1;
		}
		return v;
	}
	fail(ps, *ps->p ? "unexpected character" : "unexpected end");
	return 0;
}

static long long unary(struct parser *ps)
{
	if (accept(ps, "-"))
		return checked(ps, 0, unary(ps), '-');
	if (accept(ps, "!"))
		return !unary(ps);
	return primary(ps);
}

static long long product(struct parser *ps)
{
	long long v = unary(ps);

	for (;;) {
		char op = accept(ps, "*") ? '*' : accept(ps, "/") ? '/' : accept(ps, "%") ? '%' : 0;
		if (!op)
			return v;
		v = checked(ps, v, unary(ps), op);
	}
}

static long long sum(struct parser *ps)
{
	long long v = product(ps);

	for (;;) {
		char op = accept(ps, "+") ? '+' : accept(ps, "-") ? '-' : 0;
		if (!op)
			return v;
		v = checked(ps, v, product(ps), op);
	}
}

static long long relation(struct parser *ps)
{
	long long v = sum(ps);

	for (;;) {
		if (accept(ps, "<="))
			v = v <= sum(ps);
		else if (accept(ps, ">="))
			v = v >= sum(ps);
		else if (accept(ps, "<"))
			v = v < sum(ps);
		else if (accept(ps, ">"))
			v = v > sum(ps);
		else
			return v;
	}
}

static long long equality(struct parser *ps)
{
	long long v = relation(ps);

	for (;;) {
		if (accept(ps, "=="))
			v = v == relation(ps);
		else if (accept(ps, "!="))
			v = v != relation(ps);
		else
			return v;
	}
}

static long long conjunction(struct parser *ps)
{
	long long v = equality(ps);

	while (accept(ps, "&&")) {
		ps->skip += !v;
		long long w = equality(ps);
		ps->skip -= !v;
		v = v && w;
	}
	return v;
}

static long long disjunction(struct parser *ps)
{
	long long v = conjunction(ps);

	while (accept(ps, "||")) {
		ps->skip += !!v;
		long long w = conjunction(ps);
		ps->skip -= !!v;
		v = v || w;
	}
	return v;
}

static long long ternary(struct parser *ps)
{
	long long c = disjunction(ps), a, b;

	if (!accept(ps, "?"))
		return c;
	ps->skip += !c;
	a = ternary(ps);
	ps->skip -= !c;
	expect(ps, ":");
	ps->skip += !!c;
	b = ternary(ps);
	ps->skip -= !!c;
	return c ? a : b;
}

int expr_eval(const char *text, expr_lookup_fn lookup, void *ctx, long long *out, char *err,
	      size_t errlen)
{
	struct parser ps = {.p = text, .lookup = lookup, .ctx = ctx, .err = err, .errlen = errlen};
	long long v = ternary(&ps);

	blank(&ps);
	if (!ps.failed && *ps.p)
		fail(&ps, "unexpected text");
	if (ps.failed)
		return -1;
	*out = v;
	return 0;
}

int expr_check(const char *text, expr_lookup_fn lookup, void *ctx, char *err, size_t errlen)
{
	/* As if inside an untaken branch throughout: the values the lookup
	 * stands in are not the ones a case will have, so no error of value
	 * means anything here. */
	struct parser ps = {.p = text, .lookup = lookup, .ctx = ctx, .skip = 1, .err = err,
			    .errlen = errlen};

	(void)ternary(&ps);
	blank(&ps);
	if (!ps.failed && *ps.p)
		fail(&ps, "unexpected text");
	return ps.failed ? -1 : 0;
}
