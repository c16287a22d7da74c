/*
 * user_cases.c - a user kernel's conformance cases (see user_cases.h).
 *
 * The ladders hold the sizes at which reductions are usually wrong: a
 * single element, less than, exactly and just over a warp, around a
 * block and around powers of two (a tree that assumes one), primes (no
 * vector width divides them), 2^24 +- 1 (the f32 mantissa), and a
 * problem past every 32-bit index, where the GPU has the memory for it:
 * 2^31 + 3 elements for reduce, and for rows and softmax rows x cols with
 * (rows - 1) * cols > INT_MAX, where a 32-bit `row * cols` wraps
 * (huge_shape.h; the worker names in its catalog the cols the kernel's
 * rules take).  That last case takes the host seconds to half a minute
 * (drawing the input and its reference), and an index overflows the same
 * way whatever the type and the operator: so it is posed once per kernel,
 * for its smallest dtype and first operator, and not for a kernel
 * declared to hang, which would spend its whole deadline drawing.
 */
#include "session/user_cases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/huge_shape.h"
#include "common/num.h"
#include "common/params.h"
#include "common/requirement.h"
#include "common/text.h"
#include "suite/suite.h"

static const int64_t reduce_ladder[] = {
	1, 31, 32, 33, 255, 257, 4097, 65521, 1000003, (1 << 24) - 1, (1 << 24) + 1,
	(1LL << 31) + 3,
};
/* rows x cols: one element, a row shorter than, equal to and longer than
 * a warp, single columns, odd and long rows, and a few very long ones;
 * then the shape past 32-bit indices (huge_shape.h). */
static const int64_t rows_ladder[][2] = {
	{1, 1}, {1, 31}, {3, 32}, {7, 33}, {1001, 1}, {1001, 257}, {33, 4099}, {4, (1 << 20) + 1},
};

/* The deadline of the cases past 2^31 elements: drawing the input and
 * its reference on the host takes seconds. */
#define HUGE_TIMEOUT_S 60.0

struct maker {
	struct case_spec *v;
	size_t n, cap;
	double huge_timeout_s;     /* the deadline of a case past 2^31 elements */
	char *err;
	size_t len;
};

static struct case_spec *add(struct maker *m)
{
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 64;
		struct case_spec *v = realloc(m->v, cap * sizeof *v);
		if (!v) {
			snprintf(m->err, m->len, "out of memory");
			return NULL;
		}
		m->v = v;
		m->cap = cap;
	}
	struct case_spec *c = &m->v[m->n++];
	memset(c, 0, sizeof *c);
	return c;
}

/* The case keys the declaration sets: expectation, requirements, deadline. */
static int declared(const struct catalog_entry *e, struct case_spec *c, char *err, size_t len)
{
	if (e->expect[0] && expect_parse(e->expect, &c->expect) < 0) {
		snprintf(err, len, "%s: @expect %s: not an expectation", e->path, e->expect);
		return -1;
	}
	if (e->requires[0]) {
		/* One place is kept for the memory the largest case needs. */
		char why[256];
		int count = requirement_parse_list("@requires ", e->requires, c->req, CASE_REQ_MAX - 1, why,
						   sizeof why);
		if (count < 0) {
			snprintf(err, len, "%s: %s", e->path, why);
			return -1;
		}
		c->nreq = count;
	}
	if (e->timeout[0] && num_parse_decimal(e->timeout, &c->timeout_s) < 0) {
		snprintf(err, len, "%s: @timeout %s: not a number of seconds", e->path, e->timeout);
		return -1;
	}
	text_copy(c->file, sizeof c->file, e->path);
	c->line = 1;
	return 0;
}

/* One case of e: dtype d, operator op (NULL: none), size n x cols. */
static int one(struct maker *m, const struct catalog_entry *e, enum dtype d, const char *op,
	       int64_t n, int64_t cols)
{
	struct case_spec *c = add(m);
	char size[64];

	if (!c)
		return -1;
	if (cols)
		snprintf(size, sizeof size, "r%lld.c%lld", (long long)n, (long long)cols);
	else
		snprintf(size, sizeof size, "n%lld", (long long)n);
	snprintf(c->name, sizeof c->name, "%s.%s%s%s.%s", e->name, op ? op : "", op ? "." : "",
		 dtype_name(d), size);
	text_copy(c->variant, sizeof c->variant, e->name);
	c->dtype = d;
	c->n = n;
	c->cols = cols;
	if (op)
		params_append(c->params, sizeof c->params, "op", op);
	if (declared(e, c, m->err, m->len) < 0)
		return -1;
	/* Past 2^31 elements: the input and the reference on the host and
	 * the input on the GPU, twice over for safety. */
	int64_t bytes;
	if (__builtin_mul_overflow(n, cols ? cols : 1, &bytes) ||
	    __builtin_mul_overflow(bytes, (int64_t)dtype_size(d), &bytes))
		bytes = INT64_MAX;
	if (bytes >= (1LL << 32)) {
		struct requirement *r = &c->req[c->nreq++];
		snprintf(r->what, sizeof r->what, "mem");
		r->cmp = REQ_GE;
		r->value = bytes >= (1LL << 45) ? 99999 : (int)(2 * (bytes >> 30) + 1);
		if (!(c->timeout_s > 0))
			c->timeout_s = m->huge_timeout_s;
	}
	return 0;
}

/* The entry's dtypes ("f32,bf16") that the request allows, as bits. */
static unsigned wanted_dtypes(const struct catalog_entry *e, const struct user_case_request *q)
{
	unsigned set = 0;
	char buf[128];

	text_copy(buf, sizeof buf, e->dtypes);
	for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		enum dtype d;
		if (dtype_parse(w, &d) == 0 && (!q->have_dtype || d == q->dtype))
			set |= DTYPE_BIT(d);
	}
	return set;
}

/* The operators of an entry, from its tunables text ("op=sum|max ..."). */
static int entry_ops(const struct catalog_entry *e, char ops[OP_COUNT][8])
{
	int n = 0;

	if (strncmp(e->tunables, "op=", 3) != 0)
		return 0;
	for (const char *p = e->tunables + 3; *p && *p != ' ' && n < OP_COUNT;) {
		size_t l = strcspn(p, "| ");
		snprintf(ops[n++], sizeof ops[0], "%.*s", (int)(l < 7 ? l : 7), p);
		p += l + (p[l] == '|');
	}
	return n;
}

int user_cases_make(const struct catalog *cat, const struct user_case_request *q,
		    struct case_spec **cases, size_t *count, char *err, size_t len)
{
	struct maker m = {.err = err, .len = len,
			  .huge_timeout_s = q->timeout_s > HUGE_TIMEOUT_S ? q->timeout_s : HUGE_TIMEOUT_S};
	int any = 0;

	*cases = NULL;
	*count = 0;
	for (size_t i = 0; i < cat->count; i++) {
		const struct catalog_entry *e = &cat->v[i];
		int asked = 0;
		for (size_t k = 0; k < q->npaths; k++)
			asked |= strcmp(q->paths[k], e->path) == 0;
		if (!e->kind[0] || !asked)
			continue;
		int rows = strcmp(e->kind, "reduce") != 0;
		unsigned dtypes = wanted_dtypes(e, q);
		char ops[OP_COUNT][8];
		int nops = entry_ops(e, ops);
		any |= dtypes != 0;
		/* The case past 32-bit indices is posed for the smallest
		 * element type (the least memory) and the first operator, and
		 * not for a kernel declared to hang. */
		const int huge_dtype = strcmp(e->expect, "hang") == 0 ? -1 : dtype_smallest(dtypes);
		const int64_t huge_cols = e->huge_cols > 0 ? e->huge_cols : huge_shape_cols[0];
		for (int d = 0; d < DTYPE_COUNT; d++) {
			if (!(dtypes & DTYPE_BIT(d)))
				continue;
			for (int o = 0; o < (nops ? nops : 1); o++) {
				const char *op = nops ? ops[o] : NULL;
				int rc = 0;
				if (!rows && q->nn) {
					for (size_t k = 0; k < q->nn && rc == 0; k++)
						rc = one(&m, e, (enum dtype)d, op, q->n[k], 0);
				} else if (!rows) {
					size_t steps = sizeof reduce_ladder / sizeof reduce_ladder[0];
					if (d != huge_dtype || o != 0)
						steps--; /* 2^31 + 3 */
					for (size_t k = 0; k < steps && rc == 0; k++)
						rc = one(&m, e, (enum dtype)d, op, reduce_ladder[k], 0);
				} else if (q->nn || q->ncols) {
					static const int64_t def_rows[] = {1001}, def_cols[] = {1, 31, 33, 1000, 4099};
					const int64_t *rv = q->nn ? q->n : def_rows, *cv = q->ncols ? q->cols : def_cols;
					size_t nr = q->nn ? q->nn : 1, nc = q->ncols ? q->ncols : 5;
					for (size_t a = 0; a < nr && rc == 0; a++)
						for (size_t b = 0; b < nc && rc == 0; b++)
							rc = one(&m, e, (enum dtype)d, op, rv[a], cv[b]);
				} else {
					for (size_t k = 0; k < sizeof rows_ladder / sizeof rows_ladder[0] && rc == 0; k++)
						rc = one(&m, e, (enum dtype)d, op, rows_ladder[k][0], rows_ladder[k][1]);
					if (d == huge_dtype && o == 0 && rc == 0)
						rc = one(&m, e, (enum dtype)d, op, huge_shape_rows(huge_cols), huge_cols);
				}
				if (rc < 0) {
					free(m.v);
					return -1;
				}
			}
		}
	}
	if (!any && q->have_dtype) {
		free(m.v);
		snprintf(err, len, "--dtype %s: no kernel file declares it", dtype_name(q->dtype));
		return -1;
	}
	*cases = m.v;
	*count = m.n;
	return 0;
}
