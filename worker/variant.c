/*
 * variant.c - what the worker derives from a variant's declaration: the
 * texts the catalog carries to conform, the op parameter and the binding
 * of its tunables (variant.h, tunable.h).
 */
#include <stdio.h>
#include <string.h>

#include "params.h"
#include "variant.h"

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
