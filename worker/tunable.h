/*
 * tunable.h - a variant's tunables declared once, as data.
 *
 * A family declares its tunables (name, what it is, the values it may
 * take, its default, the values the tuner tries, and the field of the
 * family's parameter struct that receives it) and the rules between them
 * and the problem, as expressions (expr.h).  Everything else is derived
 * from that one declaration:
 *
 *   tunable_bind()      parses a case's parameters, applies defaults,
 *                       range-checks each value, checks every rule and fills
 *                       the family's parameter struct - the contract check;
 *   tunable_describe()  the "tunables" text of --variants and the TUI;
 *   tunable_contract()  the "Requires:" text;
 *   tunable_space()     the tuning space the tuner walks.
 *
 * Names a rule or a default may use: every tunable declared before it (all
 * of them, in a rule), and the problem: n (elements, or rows when cols > 0),
 * cols, esize (bytes per input element), and the flags f32, f64, i32, bf16
 * (1 for the case's dtype).
 */
#ifndef CONFORM_TUNABLE_H
#define CONFORM_TUNABLE_H

#include <stddef.h>
#include <stdint.h>

#include "common/dtype.h"
#include "common/problem.h"
#include "common/tunable_limits.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One tunable.  The values it may take are one of:
 *   .choices  "striped|blocked": a name, bound as its index (0, 1, ...);
 *   .values   "1|2|4|8": one of these integers;
 *   .lo, .hi  a range, narrowed by .pow2 (powers of two) or .multiple_of. */
struct tunable {
	const char *name;
	const char *doc;        /* what it is, a few words: "threads per block" */
	const char *choices;
	const char *values;
	long long lo, hi;
	int pow2;
	int multiple_of;
	const char *def;        /* the default: an expression, or a choice's name */
	const char *space;      /* the values the tuner tries, "64,128,256"; NULL: not tuned */
	size_t field;           /* offsetof() the int that receives it in the family's struct */
};

/* A rule: an expression that must hold, and why it exists (may be NULL). */
struct rule {
	const char *expr;
	const char *why;
};

/* A family's declaration: its tunables and the rules between them. */
struct tunable_set {
	const struct tunable *tunables;
	size_t count;
	const struct rule *rules;
	size_t nrules;
	size_t size;            /* sizeof the family's parameter struct */
};

#define TUNABLE_LIST(a) .tunables = (a), .count = sizeof(a) / sizeof((a)[0])
#define RULE_LIST(a) .rules = (a), .nrules = sizeof(a) / sizeof((a)[0])

/* What a variant declares: its family's set (NULL: no tunables), its own
 * defaults over the family's ("block=256,items=2"), its own rules, and its
 * space over the family's when it tunes fewer values
 * ("batch=4,8,16,32 width=8,16,32"). */
struct variant_params {
	const struct tunable_set *set;
	const char *defaults;
	const struct rule *rules;
	size_t nrules;
	const char *space;
};

/* Index of word in a "a|b|c" list (a tunable's values or choices), or -1. */
int tunable_list_index(const char *list, const char *word);

/* Whether v is a value t may take (its list, or its range, power of two
 * or multiple; any index for named choices): 0, else -1 with the reason. */
int tunable_value_ok(const struct tunable *t, long long v, char *msg, size_t len);

/* Binds params ("block=256,items=4") for the problem into out (set->size
 * bytes, zeroed first) and values[] (each tunable's value, in declaration
 * order; may be NULL).  Returns 0, or -1 with a message naming the
 * parameter or the rule that failed. */
int tunable_bind(const struct variant_params *vp, const struct problem *pb, const char *params,
		 void *out, long long *values, char *msg, size_t len);

/* The derived texts.  Each returns 0, or -1 when the text did not fit in
 * len bytes (it is then cut, never overrun). */
/* "block=64..1024 (multiple of 32) items=1|2|4|8" ("" when none). */
int tunable_describe(const struct variant_params *vp, char *buf, size_t len);

/* The rules, "; "-joined, each with its reason ("" when none). */
int tunable_contract(const struct variant_params *vp, char *buf, size_t len);

/* "block=64,128,256 items=2,4" ("" when nothing is tuned). */
int tunable_space(const struct variant_params *vp, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
