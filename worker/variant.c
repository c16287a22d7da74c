/*
 * variant.c - what the worker derives from a variant's declaration: the
 * texts the catalog carries to conform, the op parameter, the binding of
 * its tunables (variant.h, tunable.h), and the shape past 32-bit indices
 * its rules take (huge_shape.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/huge_shape.h"
#include "common/params.h"
#include "worker/variant.h"

/* 0 when snprintf's result n fitted in len bytes, else -1. */
static int fitted(int n, size_t len)
{
	return n >= 0 && (size_t)n < len ? 0 : -1;
}

int variant_contract(const struct variant *v, char *buf, size_t len)
{
	char rules[2048];

	if (tunable_contract(&v->params, rules, sizeof rules) < 0)
		return -1;
	return fitted(snprintf(buf, len, "Requires: %s%s%s", v->requires ? v->requires : "",
			       v->requires && rules[0] ? "; " : "",
			       v->requires || rules[0] ? rules : "nothing"), len);
}

int variant_tunables(const struct variant *v, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int o = 0; o < OP_COUNT && used < len; o++)
		if (v->ops & OP_BIT(o))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "|" : "op=",
						 op_name((enum op)o));
	if (used && v->params.set && used < len)
		used += (size_t)snprintf(buf + used, len - used, " ");
	if (used >= len)
		return -1;
	return tunable_describe(&v->params, buf + used, len - used);
}

int variant_space(const struct variant *v, char *buf, size_t len)
{
	return tunable_space(&v->params, buf, len);
}

int variant_op(const struct variant *v, const struct case_args *a, enum op *out, char *msg, size_t len)
{
	char word[64];
	int o = 0;

	while (o < OP_COUNT && !(v->ops & OP_BIT(o)))
		o++;
	*out = (enum op)(o < OP_COUNT ? o : OP_SUM);
	/* A variant that reduces nothing by an operator (softmax, a copy, the
	 * harness's checks) ignores op=, as the tuner appends one to every
	 * evaluation. */
	if (!v->ops || params_get(a->params ? a->params : "", "op", word, sizeof word) != 0)
		return 0;
	if (op_parse(word, out) < 0 || !(v->ops & OP_BIT(*out))) {
		char ops[64];
		variant_tunables(&(struct variant){.ops = v->ops}, ops, sizeof ops);
		snprintf(msg, len, "op=%s: %s takes %s", word, v->name, ops + 3);
		return -1;
	}
	return 0;
}

int variant_bind(const struct variant *v, const struct case_args *a, void *out, char *msg, size_t len)
{
	const struct problem pb = {.dtype = a->dtype, .n = a->n, .cols = a->cols};

	return tunable_bind(&v->params, &pb, a->params, out, NULL, msg, len);
}

/* What variant_huge_cols asks of each candidate shape. */
struct huge_probe {
	const struct variant *v;
	enum dtype dtype;
	void *params; /* the parameter struct variant_bind fills */
};

static int huge_accepts(void *ctx, int64_t rows, int64_t cols)
{
	const struct huge_probe *h = ctx;
	const struct case_args a = {.name = h->v->name, .variant = h->v->name, .dtype = h->dtype,
				    .n = rows, .cols = cols};
	char msg[256];

	return variant_bind(h->v, &a, h->params, msg, sizeof msg) == 0;
}

long long variant_huge_cols(const struct variant *v)
{
	const int d = dtype_smallest(v->dtypes);
	const size_t size = v->params.set ? v->params.set->size : 0;
	struct huge_probe h = {v, d < 0 ? DTYPE_F32 : (enum dtype)d, calloc(1, size ? size : 1)};

	if (!h.params)
		return huge_shape_cols[0]; /* out of memory: the rule decides when the case runs */
	long long cols = huge_shape_choose(huge_accepts, &h);
	free(h.params);
	return cols;
}
