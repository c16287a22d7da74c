/*
 * kernel_file.c - reading a user's kernel file (see kernel_file.h and
 * docs/kernels.md for the declaration's grammar).
 *
 * The declaration's strings are copied into one arena owned by the file,
 * so the variant built from it (struct tunable, struct rule) points into
 * memory that lives exactly as long as the kernel_file.  Every check a
 * line can fail is made while reading it, with its line number; the
 * checks that need the whole declaration (required directives, names the
 * expressions use) follow, naming the directive's line.
 */
#include "worker/kernel_file.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/file_read.h"
#include "common/num.h"
#include "common/problem.h"
#include "common/requirement.h"
#include "common/sha256.h"
#include "common/text.h"
#include "worker/expr.h"

/* Where each tunable's value lands in the launch's parameter struct: an
 * int array, in declaration order (user_kernel.cu's user_params begins
 * with it). */
#define VALUE_FIELD(i) ((size_t)(i) * sizeof(int))

static const char *const kind_names[KERNEL_KIND_COUNT] = {"reduce", "rows", "softmax"};
static const char *const expr_names[KEXPR_COUNT] = {"@block", "@shared", "@grid", "@scratch"};

/* Names the device and the expressions' own functions take; a tunable
 * may not take one of them, nor one of the problem's (problem.h). */
static const char *const reserved[] = {"sms", "occupancy", "op", "min", "max", "pow2"};

const char *kernel_expr_name(enum kernel_expr e)
{
	return (unsigned)e < KEXPR_COUNT ? expr_names[e] : "?";
}

const char *kernel_kind_name(enum kernel_kind k)
{
	return (unsigned)k < KERNEL_KIND_COUNT ? kind_names[k] : "?";
}

const struct kernel_file *kernel_file_of(const struct variant *v)
{
	/* Only kernel_file_parse() sets .user, in the variant that is the
	 * first member of its kernel_file. */
	if (!v || !v->user)
		return NULL;
	return (const struct kernel_file *)v;
}

/* The reader's state: where it is, for messages. */
struct reader {
	struct kernel_file *k;
	const char *origin;
	int line;
	char *err;
	size_t len;
	int seen[24];                 /* per directives[], the line it was first given on */
	int expr_line[KEXPR_COUNT];
	int tunable_line[TUNABLES_MAX];
	int rule_line[KERNEL_RULES_MAX];
};

static int fail(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct reader *r, const char *fmt, ...)
{
	char what[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (r->line > 0)
		snprintf(r->err, r->len, "%s:%d: %s", r->origin, r->line, what);
	else
		snprintf(r->err, r->len, "%s: %s", r->origin, what);
	return -1;
}

/* A copy of s[0..n) in the arena, which was sized for the whole source. */
static const char *keep(struct kernel_file *k, const char *s, size_t n)
{
	char *p = k->arena + k->arena_used;

	if (k->arena_used + n + 1 > k->arena_cap)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	k->arena_used += n + 1;
	return p;
}

static int is_ident(const char *s, size_t n)
{
	if (n == 0 || !(islower((unsigned char)s[0]) || s[0] == '_'))
		return 0;
	for (size_t i = 1; i < n; i++)
		if (!(islower((unsigned char)s[i]) || isdigit((unsigned char)s[i]) || s[i] == '_'))
			return 0;
	return 1;
}

int kernel_file_default_name(const char *path, char *buf, size_t len)
{
	const char *base = strrchr(path, '/');
	size_t n, o = 0;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 3 && strcmp(base + n - 3, ".cu") == 0)
		n -= 3;
	/* A name begins with a letter or '_', as @name's own must. */
	if (n && isdigit((unsigned char)base[0]) && len > 1)
		buf[o++] = '_';
	for (size_t i = 0; i < n && o + 1 < len && o < KERNEL_NAME_MAX; i++) {
		unsigned char c = (unsigned char)tolower((unsigned char)base[i]);
		buf[o++] = islower(c) || isdigit(c) ? (char)c : '_';
	}
	buf[o] = '\0';
	return o ? 0 : -1;
}

/* Splits a list of words separated by spaces or commas; calls each. */
static int each_word(struct reader *r, const char *value, const char *what,
		     int (*each)(struct reader *r, const char *word))
{
	char buf[256];
	int count = 0;

	text_copy(buf, sizeof buf, value);
	for (char *save = NULL, *w = strtok_r(buf, " \t,", &save); w; w = strtok_r(NULL, " \t,", &save)) {
		if (each(r, w) < 0)
			return -1;
		count++;
	}
	if (!count)
		return fail(r, "%s needs at least one value", what);
	return 0;
}

static int add_dtype(struct reader *r, const char *w)
{
	enum dtype d;

	/* u32 is a dtype of some built-in cases, not one a kernel file's T
	 * can be (user_build.c has no type for it). */
	if (dtype_parse(w, &d) < 0 || d == DTYPE_U32)
		return fail(r, "unknown dtype '%s' (f32, f64, i32, bf16)", w);
	r->k->variant.dtypes |= DTYPE_BIT(d);
	return 0;
}

static int add_op(struct reader *r, const char *w)
{
	enum op o;

	if (op_parse(w, &o) < 0)
		return fail(r, "unknown op '%s' (sum, max, min)", w);
	r->k->variant.ops |= OP_BIT(o);
	return 0;
}

/* One token of a @tunable line: a quoted text or a run of non-blanks. */
static const char *token(const char **p, size_t *n)
{
	const char *s = *p;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return NULL;
	const char *start = s;
	if (*s == '"') {
		const char *q = strchr(s + 1, '"');
		s = q ? q + 1 : s + strlen(s);
	} else {
		while (*s && *s != ' ' && *s != '\t')
			s++;
	}
	*n = (size_t)(s - start);
	*p = s;
	return start;
}

static int is_reserved(const char *s, size_t n)
{
	if (problem_is_name(s, n))
		return 1;
	for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
		if (strlen(reserved[i]) == n && strncmp(reserved[i], s, n) == 0)
			return 1;
	return 0;
}

static int tunable_index(const struct kernel_file *k, const char *name, size_t n)
{
	for (size_t i = 0; i < k->set.count; i++)
		if (strlen(k->tunables[i].name) == n && strncmp(k->tunables[i].name, name, n) == 0)
			return (int)i;
	return -1;
}

/* An integer of a tunable's range or list: decimal or 2^K, maybe negative. */
static int parse_int(const char *s, size_t n, long long *v)
{
	char buf[40];
	int neg = n > 0 && s[0] == '-';

	if (n - (size_t)neg == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, s + neg, n - (size_t)neg);
	buf[n - (size_t)neg] = '\0';
	if (num_parse_count(buf, v) < 0)
		return -1;
	if (neg)
		*v = -*v;
	return 0;
}

/* "64..1024", "1|2|4|8" or "striped|blocked" into t. */
static int tunable_values(struct reader *r, struct tunable *t, const char *s, size_t n)
{
	const char *dots = NULL;

	for (size_t i = 0; i + 1 < n; i++)
		if (s[i] == '.' && s[i + 1] == '.')
			dots = s + i;
	if (dots) {
		if (parse_int(s, (size_t)(dots - s), &t->lo) < 0 ||
		    parse_int(dots + 2, n - (size_t)(dots + 2 - s), &t->hi) < 0 || t->lo > t->hi)
			return fail(r, "tunable %s: range '%.*s' is not LO..HI with LO <= HI", t->name,
				    (int)n, s);
		if (t->lo < INT_MIN || t->hi > INT_MAX)
			return fail(r, "tunable %s: range '%.*s' goes outside an int (%d..%d), the type "
				    "the kernel receives it as", t->name, (int)n, s, INT_MIN, INT_MAX);
		return 0;
	}
	int numeric = 1, names = 1, outside = 0;
	size_t longest = 0;
	for (const char *p = s, *end = s + n; p < end;) {
		const char *bar = memchr(p, '|', (size_t)(end - p));
		size_t wl = bar ? (size_t)(bar - p) : (size_t)(end - p);
		long long v;
		/* Plain decimal in a list: the binding compares words. */
		if (parse_int(p, wl, &v) < 0 || memchr(p, '^', wl))
			numeric = 0;
		else if (v < INT_MIN || v > INT_MAX)
			outside = 1;
		if (!is_ident(p, wl))
			names = 0;
		if (wl > longest)
			longest = wl;
		p += wl + (bar ? 1 : 0);
		if (bar && p == end)
			numeric = names = 0;
	}
	if (!numeric && !names)
		return fail(r, "tunable %s: values '%.*s' are neither LO..HI, integers like 1|2|4 nor "
			    "names like striped|blocked", t->name, (int)n, s);
	if (numeric && outside)
		return fail(r, "tunable %s: values '%.*s' go outside an int (%d..%d), the type the "
			    "kernel receives them as", t->name, (int)n, s, INT_MIN, INT_MAX);
	if (!numeric && longest > TUNABLE_VALUE_MAX)
		return fail(r, "tunable %s: a name of '%.*s' is over %d characters", t->name, (int)n, s,
			    TUNABLE_VALUE_MAX);
	const char *kept = keep(r->k, s, n);
	if (numeric)
		t->values = kept;
	else
		t->choices = kept;
	return 0;
}

/* The least integer of a "8|4|2" list (one tunable_values() accepted). */
static long long list_lowest(const char *list)
{
	long long low = 0, v;
	int first = 1;

	for (const char *p = list; p;) {
		size_t n = strcspn(p, "|");
		if (parse_int(p, n, &v) == 0 && (first || v < low)) {
			low = v;
			first = 0;
		}
		p = p[n] ? p + n + 1 : NULL;
	}
	return low;
}

/* The least value of t's range that its pow2 and multiple= allow:
 * 0 with *out, or -1 when the range holds none. */
static int range_lowest(const struct tunable *t, long long *out)
{
	const long long m = t->multiple_of;

	if (t->pow2) {
		for (long long v = 1; v <= t->hi; v *= 2) {
			if (v >= t->lo && (!m || v % m == 0)) {
				*out = v;
				return 0;
			}
			if (v > t->hi / 2)
				break; /* twice v passes hi (or overflows) */
		}
		return -1;
	}
	long long v = t->lo;
	/* The next multiple up, which may pass the largest long long. */
	if (m && v % m != 0 && __builtin_add_overflow(v, v > 0 ? m - v % m : -(v % m), &v))
		return -1;
	if (v > t->hi)
		return -1;
	*out = v;
	return 0;
}

static int parse_tunable(struct reader *r, const char *value)
{
	struct kernel_file *k = r->k;
	const char *p = value;
	size_t n;
	const char *tok = token(&p, &n);

	if (k->set.count == TUNABLES_MAX)
		return fail(r, "at most %d tunables", TUNABLES_MAX);
	if (!tok || !is_ident(tok, n))
		return fail(r, "@tunable: expected NAME VALUES ..., where NAME is [a-z_][a-z0-9_]*");
	if (is_reserved(tok, n))
		return fail(r, "@tunable: '%.*s' is a name conform gives expressions; choose another",
			    (int)n, tok);
	/* The source sees NAME upper-cased as a macro: it must not be T (the
	 * element type), one of the prelude's CONFORM_ names, a reserved
	 * identifier (a leading underscore), or too long to stay distinct. */
	if ((n == 1 && tok[0] == 't') || (n >= 7 && strncmp(tok, "conform", 7) == 0) || tok[0] == '_' ||
	    n > TUNABLE_NAME_MAX)
		return fail(r, "@tunable: '%.*s' would be the macro of a name the prelude or the compiler "
			    "uses (T, CONFORM_*, a leading _) or is over %d characters; choose another",
			    (int)n, tok, TUNABLE_NAME_MAX);
	if (tunable_index(k, tok, n) >= 0)
		return fail(r, "@tunable: '%.*s' is declared twice", (int)n, tok);
	struct tunable *t = &k->tunables[k->set.count];
	memset(t, 0, sizeof *t);
	t->name = keep(k, tok, n);
	t->field = VALUE_FIELD(k->set.count);
	if (!(tok = token(&p, &n)))
		return fail(r, "@tunable %s: expected its values (LO..HI, 1|2|4 or a|b)", t->name);
	if (tunable_values(r, t, tok, n) < 0)
		return -1;
	while ((tok = token(&p, &n))) {
		if (tok[0] == '"') {
			if (n < 2 || tok[n - 1] != '"')
				return fail(r, "@tunable %s: unterminated \"", t->name);
			t->doc = keep(k, tok + 1, n - 2);
		} else if (n == 4 && strncmp(tok, "pow2", 4) == 0 && !t->values && !t->choices) {
			t->pow2 = 1;
		} else if (n > 9 && strncmp(tok, "multiple=", 9) == 0 && !t->values && !t->choices) {
			long long m;
			if (parse_int(tok + 9, n - 9, &m) < 0 || m < 1 || m > 1 << 20)
				return fail(r, "@tunable %s: multiple= takes a count", t->name);
			t->multiple_of = (int)m;
		} else if (n > 8 && strncmp(tok, "default=", 8) == 0) {
			t->def = keep(k, tok + 8, n - 8);
		} else if (n > 6 && strncmp(tok, "space=", 6) == 0) {
			t->space = keep(k, tok + 6, n - 6);
		} else {
			return fail(r, "@tunable %s: unexpected '%.*s' (pow2 or multiple=K after a "
				    "range, default=, space=, a \"description\")", t->name, (int)n, tok);
		}
	}
	if (!t->doc)
		t->doc = "";
	if (!t->def) {
		/* The lowest value it may take: the first choice, the least of
		 * the list, or the range's least that pow2 and multiple=
		 * allow. */
		long long low;
		char text[32];
		if (t->choices) {
			t->def = keep(k, t->choices, strcspn(t->choices, "|"));
		} else {
			if (t->values)
				low = list_lowest(t->values);
			else if (range_lowest(t, &low) < 0)
				return fail(r, "@tunable %s: no value of %lld..%lld is allowed by %s%s%.*d",
					    t->name, t->lo, t->hi, t->pow2 ? "pow2" : "",
					    !t->multiple_of ? "" : t->pow2 ? " and multiple=" : "multiple=",
					    t->multiple_of ? 1 : 0, t->multiple_of);
			snprintf(text, sizeof text, "%lld", low);
			t->def = keep(k, text, strlen(text));
		}
	}
	r->tunable_line[k->set.count] = r->line;
	k->set.count++;
	return 0;
}

static int parse_rule(struct reader *r, const char *value)
{
	struct kernel_file *k = r->k;
	const char *semi = strchr(value, ';');
	size_t el = semi ? (size_t)(semi - value) : strlen(value);

	if (k->set.nrules == KERNEL_RULES_MAX)
		return fail(r, "at most %d rules", KERNEL_RULES_MAX);
	/* The rules are said whole in the catalog's contract (2 KiB). */
	size_t said = strlen(value);
	for (size_t i = 0; i < k->set.nrules; i++)
		said += strlen(k->rules[i].expr) + (k->rules[i].why ? strlen(k->rules[i].why) : 0) + 8;
	if (said > 1536)
		return fail(r, "the rules come to more than 1536 characters");
	while (el && isspace((unsigned char)value[el - 1]))
		el--;
	if (!el)
		return fail(r, "@rule: expected an expression, then '; why' if you like");
	struct rule *ru = &k->rules[k->set.nrules];
	ru->expr = keep(k, value, el);
	ru->why = NULL;
	if (semi) {
		const char *why = semi + 1;
		while (isspace((unsigned char)*why))
			why++;
		if (*why)
			ru->why = keep(k, why, strlen(why));
	}
	r->rule_line[k->set.nrules] = r->line;
	k->set.nrules++;
	return 0;
}

static int parse_expr(struct reader *r, enum kernel_expr e, const char *value)
{
	if (r->expr_line[e])
		return fail(r, "%s is given twice (first on line %d)", expr_names[e], r->expr_line[e]);
	if (!*value)
		return fail(r, "%s: expected an expression", expr_names[e]);
	r->k->expr[e] = keep(r->k, value, strlen(value));
	r->expr_line[e] = r->line;
	return 0;
}

/* A directive that may appear once. */
static int once(struct reader *r, int *seen, const char *name)
{
	if (*seen)
		return fail(r, "%s is given twice (first on line %d)", name, *seen);
	*seen = r->line;
	return 0;
}

static int parse_kind(struct reader *r, const char *value)
{
	for (int i = 0; i < KERNEL_KIND_COUNT; i++)
		if (strcmp(value, kind_names[i]) == 0) {
			r->k->kind = (enum kernel_kind)i;
			return 0;
		}
	return fail(r, "unknown kind '%s' (reduce, rows or softmax)", value);
}

/* "NAME" or "NAME<ARGUMENTS>": a __global__ function, or a template one
 * with the arguments that instantiate it (the tunables' macros among
 * them).  What follows the name is handed to NVRTC as written, as part
 * of a name expression; so it may not end the expression early. */
static int parse_entry(struct reader *r, const char *value)
{
	struct kernel_file *k = r->k;
	size_t n = 0;

	while (isalnum((unsigned char)value[n]) || value[n] == '_')
		n++;
	const char *rest = value + n;
	size_t rl = strlen(rest);
	int depth = 0, ok = n > 0 && !isdigit((unsigned char)value[0]) && n < sizeof k->entry_name &&
			    strlen(value) < sizeof k->entry;
	if (ok && rl) {
		ok = rest[0] == '<' && rest[rl - 1] == '>';
		for (const char *p = rest; ok && *p; p++) {
			depth += *p == '<' ? 1 : *p == '>' ? -1 : 0;
			ok = !strchr(";{}\"'\\", *p) && (depth > 0 || p[1] == '\0');
		}
	}
	if (!ok)
		return fail(r, "@entry: expected the name of a __global__ function, or of a template one with "
			    "its arguments (name<BLOCK, 4>), got '%s'", value);
	memcpy(k->entry_name, value, n);
	k->entry_name[n] = '\0';
	text_copy(k->entry, sizeof k->entry, value);
	k->entry_line = r->line;
	return 0;
}

static int parse_name(struct reader *r, const char *value)
{
	if (!is_ident(value, strlen(value)) || strlen(value) > KERNEL_NAME_MAX)
		return fail(r, "@name: expected [a-z_][a-z0-9_]* of at most %d characters, got '%s'",
			    KERNEL_NAME_MAX, value);
	snprintf(r->k->name, sizeof r->k->name, "user.%s", value);
	return 0;
}

static int parse_summary(struct reader *r, const char *value)
{
	if (!*value || strcmp(value, "-") == 0)
		return fail(r, "@summary: expected a line of text");
	text_copy(r->k->summary, sizeof r->k->summary, value);
	return 0;
}

static int parse_dtypes(struct reader *r, const char *value)
{
	return each_word(r, value, "@dtypes", add_dtype);
}

static int parse_ops(struct reader *r, const char *value)
{
	return each_word(r, value, "@ops", add_op);
}

static int parse_block(struct reader *r, const char *value) { return parse_expr(r, KEXPR_BLOCK, value); }
static int parse_grid(struct reader *r, const char *value) { return parse_expr(r, KEXPR_GRID, value); }
static int parse_shared(struct reader *r, const char *value) { return parse_expr(r, KEXPR_SHARED, value); }
/* @scratch and @workspace give one buffer under two contracts
 * (kernel_file.h): whichever comes second is refused, naming the first. */
static int parse_scratch_as(struct reader *r, const char *value, int workspace)
{
	if (r->expr_line[KEXPR_SCRATCH] && r->k->workspace != workspace)
		return fail(r, "@workspace and @scratch are the same buffer: give one (%s is on line %d)",
			    r->k->workspace ? "@workspace" : "@scratch", r->expr_line[KEXPR_SCRATCH]);
	r->k->workspace = workspace;
	return parse_expr(r, KEXPR_SCRATCH, value);
}

static int parse_scratch(struct reader *r, const char *value) { return parse_scratch_as(r, value, 0); }

/* Scratch the kernel writes before it reads (a seed's "workspace"). */
static int parse_workspace(struct reader *r, const char *value) { return parse_scratch_as(r, value, 1); }

static int parse_cooperative(struct reader *r, const char *value)
{
	if (*value)
		return fail(r, "@cooperative takes no value");
	r->k->cooperative = 1;
	return 0;
}

static int parse_expect(struct reader *r, const char *value)
{
	enum expect e;

	if (expect_parse(value, &e) < 0)
		return fail(r, "unknown expectation '%s' (pass, fail, hang, error, launch-error, crash, undefined)",
			    value);
	text_copy(r->k->expect, sizeof r->k->expect, value);
	return 0;
}

/* One requirement per line, read as a suite's requires= reads it; the
 * cases keep one place of CASE_REQ_MAX for the memory the largest needs. */
static int parse_requires(struct reader *r, const char *value)
{
	struct kernel_file *k = r->k;
	struct requirement req;
	size_t used = strlen(k->requires);
	int count = used ? 1 : 0;

	for (const char *p = k->requires; *p; p++)
		count += *p == ',';
	if (requirement_parse(value, strlen(value), &req) < 0)
		return fail(r, "@requires: expected one requirement, sm or mem, one of >= > <= < == !=, "
			    "and a number, such as sm>=80 or mem>=16; got '%s'", value);
	if (count == CASE_REQ_MAX - 1 || used + strlen(value) + 2 > sizeof k->requires)
		return fail(r, "@requires: at most %d requirements", CASE_REQ_MAX - 1);
	snprintf(k->requires + used, sizeof k->requires - used, "%s%s", used ? "," : "", value);
	return 0;
}

static int parse_timeout(struct reader *r, const char *value)
{
	struct kernel_file *k = r->k;

	if (num_parse_decimal(value, &k->timeout_s) < 0 || !(k->timeout_s > 0) ||
	    k->timeout_s > CASE_SECONDS_MAX)
		return fail(r, "@timeout: expected seconds in (0, %d], got '%s'", CASE_SECONDS_MAX, value);
	return 0;
}

/* What each of the entry's parameters receives, in order: the buffers
 * by name, every other item an expression (a scalar the kernel takes in
 * the integer type it declares). */
static int parse_args(struct reader *r, const char *value)
{
	static const char *const roles[] = {[KARG_IN] = "in", [KARG_OUT] = "out", [KARG_SCRATCH] = "scratch"};
	struct kernel_file *k = r->k;
	int seen[KARG_VALUE] = {0};
	const char *p = value;
	size_t n;

	for (const char *tok; (tok = token(&p, &n));) {
		if (k->nargs == KERNEL_ARGS_MAX)
			return fail(r, "@args: at most %d parameters", KERNEL_ARGS_MAX);
		struct kernel_arg *a = &k->args[k->nargs];
		a->role = KARG_VALUE;
		for (int i = 0; i < KARG_VALUE; i++)
			if (strlen(roles[i]) == n && strncmp(roles[i], tok, n) == 0)
				a->role = (enum kernel_arg_role)i;
		if (a->role != KARG_VALUE && seen[a->role]++)
			return fail(r, "@args: %s is named twice", roles[a->role]);
		if (tok[0] == '"')
			return fail(r, "@args: expected in, out, scratch or an expression, got %.*s", (int)n, tok);
		if (!(a->text = keep(k, tok, n)))
			return fail(r, "out of memory");
		k->nargs++;
	}
	if (!k->nargs)
		return fail(r, "@args: expected what each parameter receives, in order: in, out, scratch or "
			    "an expression of the problem (n, rows, cols) and the tunables");
	if (!seen[KARG_IN] || !seen[KARG_OUT])
		return fail(r, "@args: the entry must take both in and out");
	k->args_line = r->line;
	return 0;
}

/* The declaration's directives.  A directive marked once may be given
 * once; `seen` is where its line is kept (0: not given). */
struct directive {
	const char *name;
	int (*parse)(struct reader *r, const char *value);
	int once;
};

static const struct directive directives[] = {
	{"kind", parse_kind, 1},       {"entry", parse_entry, 1},   {"args", parse_args, 1},
	{"dtypes", parse_dtypes, 1},   {"ops", parse_ops, 1},       {"name", parse_name, 1},
	{"summary", parse_summary, 1}, {"tunable", parse_tunable, 0}, {"rule", parse_rule, 0},
	{"block", parse_block, 0},     {"grid", parse_grid, 0},     {"shared", parse_shared, 0},
	{"scratch", parse_scratch, 0}, {"workspace", parse_workspace, 1},
	{"cooperative", parse_cooperative, 1},
	{"expect", parse_expect, 1},   {"requires", parse_requires, 0}, {"timeout", parse_timeout, 1},
};
#define DIRECTIVE_COUNT (sizeof directives / sizeof directives[0])
_Static_assert(DIRECTIVE_COUNT <= sizeof ((struct reader *)0)->seen / sizeof(int),
	       "struct reader keeps a line for every directive");

/* The line where directive `name` was given, 0 when it was not. */
static int seen_line(const struct reader *r, const char *name)
{
	for (size_t i = 0; i < DIRECTIVE_COUNT; i++)
		if (strcmp(directives[i].name, name) == 0)
			return r->seen[i];
	return 0;
}

static int parse_directive(struct reader *r, const char *word, size_t wl, const char *value)
{
	char known[256];
	size_t o = 0;

	for (size_t i = 0; i < DIRECTIVE_COUNT; i++) {
		const struct directive *d = &directives[i];
		if (strlen(d->name) != wl || strncmp(d->name, word, wl) != 0)
			continue;
		if (d->once) {
			char name[32];
			snprintf(name, sizeof name, "@%s", d->name);
			if (once(r, &r->seen[i], name) < 0)
				return -1;
		} else if (!r->seen[i]) {
			r->seen[i] = r->line;
		}
		return d->parse(r, value);
	}
	for (size_t i = 0; i < DIRECTIVE_COUNT && o < sizeof known; i++)
		o += (size_t)snprintf(known + o, sizeof known - o, "%s%s", i ? ", " : "", directives[i].name);
	return fail(r, "unknown directive '@%.*s' (%s)", (int)wl, word, known);
}

/* One line of the first comment: a directive or prose. */
static int parse_line(struct reader *r, const char *line, size_t n)
{
	char buf[1024];
	const char *p = line, *end = line + n;

	while (p < end && isspace((unsigned char)*p))
		p++;
	if (end - p >= 2 && strncmp(p, "/*", 2) == 0) {
		p += 2;
		while (p < end && *p == '*' && !(end - p >= 2 && p[1] == '/'))
			p++; /* a doc comment's extra stars */
	} else if (end - p >= 2 && strncmp(p, "//", 2) == 0)
		p += 2;
	else if (p < end && *p == '*' && !(end - p >= 2 && p[1] == '/'))
		p++;
	while (p < end && isspace((unsigned char)*p))
		p++;
	if (p == end || *p != '@')
		return 0;
	/* The comment's end may share the directive's line. */
	for (const char *q = p; q + 1 < end; q++)
		if (q[0] == '*' && q[1] == '/') {
			end = q;
			break;
		}
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	if ((size_t)(end - p) >= sizeof buf)
		return fail(r, "a directive of more than %zu characters", sizeof buf - 1);
	memcpy(buf, p + 1, (size_t)(end - p - 1));
	buf[end - p - 1] = '\0';
	/* A tab would split the catalog's line (catalog_wire.h). */
	for (char *q = buf; *q; q++)
		if (*q == '\t' || *q == '\r')
			*q = ' ';
	size_t wl = 0;
	while (islower((unsigned char)buf[wl]))
		wl++;
	if (buf[wl] && !isspace((unsigned char)buf[wl]))
		return fail(r, "a directive is '@word value', got '@%s'", buf);
	const char *value = buf + wl;
	while (isspace((unsigned char)*value))
		value++;
	return parse_directive(r, buf, wl, value);
}

/* Walks the file's first comment line by line. */
static int parse_comment(struct reader *r, const char *text, size_t size)
{
	const char *p = text, *end = text + size;
	int line = 1;

	if (end - p >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		p += 3; /* a UTF-8 byte-order mark */
	while (p < end && isspace((unsigned char)*p)) {
		if (*p == '\n')
			line++;
		p++;
	}
	const int first = line;
	int block = end - p >= 2 && strncmp(p, "/*", 2) == 0;
	if (!block && !(end - p >= 2 && strncmp(p, "//", 2) == 0))
		return fail(r, "no declaration: the file must begin with a comment declaring the kernel "
			    "(@kind, @entry, @dtypes, @block, @grid; see docs/kernels.md)");
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *close = NULL;
		if (block) {
			/* The opening slash-star is not a closing star-slash. */
			const char *q = line == first ? p + 2 : p;
			for (; q + 1 < p + n; q++)
				if (q[0] == '*' && q[1] == '/') {
					close = q;
					break;
				}
		} else {
			const char *s = p;
			while (s < p + n && isspace((unsigned char)*s))
				s++;
			if (!(p + n - s >= 2 && strncmp(s, "//", 2) == 0))
				return 0; /* the run of // lines ended */
		}
		r->line = line;
		if (parse_line(r, p, n) < 0)
			return -1;
		if (block && close)
			return 0;
		p += n + (nl ? 1 : 0);
		line++;
	}
	r->line = 0;
	return block ? fail(r, "the first comment never ends (no */)") : 0;
}

/* The names an expression may use while the declaration is checked: every
 * tunable (at its lowest value) and the problem; `device` adds sms, and
 * `occupancy` occupancy. */
struct check_scope {
	const struct kernel_file *k;
	int device, occupancy;
};

static int check_lookup(void *ctx, const char *name, size_t len, long long *out)
{
	const struct check_scope *c = ctx;
	const struct problem pb = {.dtype = DTYPE_F32, .n = 1, .cols = 1};

	if (tunable_index(c->k, name, len) >= 0) {
		*out = 1;
		return 0;
	}
	if ((c->device && len == 3 && strncmp(name, "sms", 3) == 0) ||
	    (c->occupancy && len == 9 && strncmp(name, "occupancy", 9) == 0)) {
		*out = 1;
		return 0;
	}
	return problem_lookup(&pb, name, len, out);
}

static int check_expr(struct reader *r, int line, const char *what, const char *text, int device,
		      int occupancy)
{
	struct check_scope c = {r->k, device, occupancy};
	char why[256];

	if (expr_check(text, check_lookup, &c, why, sizeof why) == 0)
		return 0;
	r->line = line;
	if (strncmp(why, "unknown name", 12) == 0) {
		/* NAME in upper case is the macro in the code; expressions
		 * name the tunable itself. */
		char lower[64] = "";
		const char *q = strchr(why, '\'');
		size_t l = q ? strcspn(q + 1, "'") : 0;
		for (size_t i = 0; q && i < l && i + 1 < sizeof lower; i++)
			lower[i] = (char)tolower((unsigned char)q[1 + i]), lower[i + 1] = '\0';
		if (lower[0] && tunable_index(r->k, lower, strlen(lower)) >= 0 && strncmp(q + 1, lower, l) != 0)
			return fail(r, "%s '%s': %s: expressions name the tunable '%s' (%.*s is its macro in "
				    "the code)", what, text, why, lower, (int)l, q + 1);
		char names[128];
		problem_names_list(names, sizeof names);
		return fail(r, "%s '%s': %s: not a declared tunable, nor one of %s%s%s", what, text, why, names,
			    device ? ", sms" : "", occupancy ? ", occupancy" : "");
	}
	return fail(r, "%s '%s': %s", what, text, why);
}

/* What a default may name while the declaration is checked: the
 * tunables declared before tunable `self`, at their defaults, and the
 * problem. */
struct default_scope {
	const struct kernel_file *k;
	size_t self;
	const long long *values;     /* the defaults of the tunables before self */
	const unsigned char *varies; /* varies[j]: tunable j's default reads the problem */
	int problem;                 /* this default reads the problem, itself or through one */
	const char *later;           /* a tunable it names that is not declared before it */
	size_t later_len;
};

static int default_lookup(void *ctx, const char *name, size_t len, long long *out)
{
	struct default_scope *d = ctx;
	const struct problem pb = {.dtype = DTYPE_F32, .n = 1, .cols = 1};
	int i = tunable_index(d->k, name, len);

	if (i >= 0 && (size_t)i >= d->self) {
		d->later = name;
		d->later_len = len;
		return -1;
	}
	if (i >= 0) {
		d->problem |= d->varies[i];
		*out = d->values[i];
		return 0;
	}
	d->problem = 1;
	return problem_lookup(&pb, name, len, out);
}

/*
 * A default must be a value its tunable takes, or every case that leaves
 * the tunable out is refused.  A default of constants and of the tunables
 * declared before it is evaluated here, those at their own defaults; one
 * that reads the problem (n, cols, esize, a dtype flag) has a value only
 * for a case, which says so when the value is not one the tunable takes.
 * values[i] and varies[i] are filled for the defaults after it.
 */
static int check_default(struct reader *r, size_t i, long long *values, unsigned char *varies)
{
	const struct tunable *t = &r->k->tunables[i];
	struct default_scope d = {.k = r->k, .self = i, .values = values, .varies = varies};
	char why[256];

	r->line = r->tunable_line[i];
	varies[i] = 0;
	if (t->choices) {
		values[i] = tunable_list_index(t->choices, t->def);
		return 0;
	}
	if (expr_check(t->def, default_lookup, &d, why, sizeof why) < 0) {
		if (d.later && d.later_len == strlen(t->name) && strncmp(d.later, t->name, d.later_len) == 0)
			return fail(r, "tunable %s: default=%s names %s itself", t->name, t->def, t->name);
		if (d.later)
			return fail(r, "tunable %s: default=%s names %.*s, declared after it (a default "
				    "names the tunables declared before it)", t->name, t->def,
				    (int)d.later_len, d.later);
		return fail(r, "tunable %s: default=%s: %s", t->name, t->def, why);
	}
	varies[i] = (unsigned char)d.problem;
	if (d.problem)
		return 0;
	if (expr_eval(t->def, default_lookup, &d, &values[i], why, sizeof why) < 0 ||
	    tunable_value_ok(t, values[i], why, sizeof why) < 0)
		return fail(r, "tunable %s: default=%s: %s", t->name, t->def, why);
	return 0;
}

/* The parameters: @args as given, else the kind's own signature; each
 * expression checked like a launch expression's. */
static int check_args(struct reader *r)
{
	static const char *const flat[] = {"in", "out", "n", "scratch"};
	static const char *const rows[] = {"in", "out", "rows", "cols", "scratch"};
	struct kernel_file *k = r->k;
	int scratch = 0;

	if (!k->nargs) {
		const char *const *items = k->kind == KERNEL_REDUCE ? flat : rows;
		size_t count = k->kind == KERNEL_REDUCE ? sizeof flat / sizeof *flat : sizeof rows / sizeof *rows;
		for (size_t i = 0; i < count; i++) {
			k->args[i].text = items[i];
			k->args[i].role = i == 0 ? KARG_IN : i == 1 ? KARG_OUT : i + 1 == count ? KARG_SCRATCH
											      : KARG_VALUE;
		}
		k->nargs = count;
		return 0;
	}
	for (size_t i = 0; i < k->nargs; i++) {
		scratch |= k->args[i].role == KARG_SCRATCH;
		if (k->args[i].role == KARG_VALUE && check_expr(r, k->args_line, "@args", k->args[i].text, 1, 1) < 0)
			return -1;
	}
	if (k->expr[KEXPR_SCRATCH] && !scratch) {
		r->line = k->args_line;
		return fail(r, "@args passes no scratch, but %s (line %d) asks for some: name it where "
			    "the entry takes it", k->workspace ? "@workspace" : "@scratch",
			    r->expr_line[KEXPR_SCRATCH]);
	}
	return 0;
}

/* What needs the whole declaration. */
static int check_whole(struct reader *r)
{
	struct kernel_file *k = r->k;
	long long defaults[TUNABLES_MAX];
	unsigned char varies[TUNABLES_MAX];

	r->line = 0;
	if (!seen_line(r, "kind"))
		return fail(r, "the declaration has no @kind (reduce, rows or softmax; the declaration is "
			    "the file's first comment)");
	if (!seen_line(r, "entry"))
		return fail(r, "the declaration has no @entry (the __global__ function)");
	if (!seen_line(r, "dtypes"))
		return fail(r, "the declaration has no @dtypes (f32 f64 i32 bf16)");
	if (!r->expr_line[KEXPR_BLOCK] || !r->expr_line[KEXPR_GRID])
		return fail(r, "the declaration needs @block and @grid (expressions of the tunables and n)");
	if (k->kind == KERNEL_SOFTMAX) {
		if (k->variant.dtypes & ~(DTYPE_BIT(DTYPE_F32) | DTYPE_BIT(DTYPE_BF16))) {
			r->line = seen_line(r, "dtypes");
			return fail(r, "a softmax takes f32 and bf16 only");
		}
		if (seen_line(r, "ops")) {
			r->line = seen_line(r, "ops");
			return fail(r, "a softmax has no operator: leave out @ops");
		}
	} else if (!k->variant.ops) {
		k->variant.ops = OP_BIT(OP_SUM);
	}
	for (size_t i = 0; i < k->set.count; i++) {
		const struct tunable *t = &k->tunables[i];
		if (t->choices && tunable_list_index(t->choices, t->def) < 0) {
			r->line = r->tunable_line[i];
			return fail(r, "tunable %s: default '%s' is not one of %s", t->name, t->def, t->choices);
		}
		if (!t->choices && check_expr(r, r->tunable_line[i], "default", t->def, 0, 0) < 0)
			return -1;
		/* The default, and every value of the space, must be values the
		 * tunable takes: found here, not as a SKIP of every case or
		 * evaluation. */
		if (check_default(r, i, defaults, varies) < 0)
			return -1;
		long long v;
		char why[160];
		int count = 0;
		for (const char *p = t->space; p && *p;) {
			size_t l = strcspn(p, ",");
			char word[64];
			snprintf(word, sizeof word, "%.*s", (int)(l < 63 ? l : 63), p);
			if (++count > TUNABLE_SPACE_MAX)
				return fail(r, "tunable %s: space= lists more than %d values", t->name,
					    TUNABLE_SPACE_MAX);
			if (l > TUNABLE_VALUE_MAX)
				return fail(r, "tunable %s: space= value '%s' is over %d characters", t->name,
					    word, TUNABLE_VALUE_MAX);
			if (t->choices ? tunable_list_index(t->choices, word) < 0
				       : parse_int(p, l, &v) < 0 || tunable_value_ok(t, v, why, sizeof why) < 0)
				return fail(r, "tunable %s: space= value '%s' is not one it takes (%s)", t->name, word,
					    t->choices ? t->choices : t->values ? t->values : "its range");
			p += l + (p[l] == ',');
		}
	}
	for (size_t i = 0; i < k->set.nrules; i++)
		if (check_expr(r, r->rule_line[i], "@rule", k->rules[i].expr, 0, 0) < 0)
			return -1;
	for (int e = 0; e < KEXPR_COUNT; e++)
		if (k->expr[e] && check_expr(r, r->expr_line[e], expr_names[e], k->expr[e], 1,
					     e == KEXPR_GRID || e == KEXPR_SCRATCH) < 0)
			return -1;
	return check_args(r);
}

int kernel_file_parse(struct kernel_file *k, const char *origin, const char *text, size_t size,
		      const struct kernel_ops *ops, char *err, size_t len)
{
	struct reader r = {.k = k, .origin = origin, .err = err, .len = len};
	struct sha256 h;
	unsigned char digest[32];

	memset(k, 0, sizeof *k);
	text_copy(k->path, sizeof k->path, origin);
	if (size > KERNEL_FILE_MAX)
		return fail(&r, "more than %d bytes: not a kernel file", KERNEL_FILE_MAX);
	if (memchr(text, '\0', size))
		return fail(&r, "a NUL byte: not a CUDA source");
	k->source = malloc(size + 1);
	k->arena_cap = size + 64;
	k->arena = malloc(k->arena_cap);
	if (!k->source || !k->arena) {
		kernel_file_free(k);
		return fail(&r, "out of memory");
	}
	memcpy(k->source, text, size);
	k->source[size] = '\0';
	k->source_len = size;
	sha256_init(&h);
	sha256_update(&h, text, size);
	sha256_final(&h, digest);
	sha256_hex(digest, k->sha256);

	k->set.tunables = k->tunables;
	k->set.rules = k->rules;
	k->set.size = TUNABLES_MAX * sizeof(int);
	if (parse_comment(&r, text, size) < 0 || check_whole(&r) < 0) {
		kernel_file_free(k);
		return -1;
	}
	if (!k->name[0]) {
		char base[KERNEL_NAME_MAX + 1];
		if (kernel_file_default_name(origin, base, sizeof base) < 0) {
			kernel_file_free(k);
			r.line = 0;
			return fail(&r, "no name for the variant: add @name");
		}
		snprintf(k->name, sizeof k->name, "user.%s", base);
	}
	if (!k->summary[0])
		snprintf(k->summary, sizeof k->summary, "user kernel (%s) %s() of %s",
			 kernel_kind_name(k->kind), k->entry_name, origin);

	struct variant *v = &k->variant;
	v->name = k->name;
	v->summary = k->summary;
	v->gpu = 1;
	v->user = 1;
	/* The hardware it needs, said in the catalog's "Requires:". */
	v->requires = k->requires[0] ? k->requires : NULL;
	v->params.set = &k->set;
	if (ops) {
		v->check = ops->check;
		v->run = ops->run;
		v->build = ops->build;
		v->refs = ops->refs[k->kind];
	}
	return 0;
}

/* The most quoted includes a file may have, and the most bytes they may
 * come to: each is read whole for the source hash, in the catalog, which
 * has a deadline of its own.  Far more than any kernel needs, far less
 * than would outlast the deadline. */
#define KERNEL_INCLUDES_MAX 64
#define KERNEL_INCLUDED_BYTES_MAX (4 << 20)

/* The source hash covers the files the source includes by a quoted name
 * beside it ("#include \"my_helpers.cuh\""), one level deep: an edit of
 * a helper is an edit of the kernel, for the cache and for history.  A
 * name that cannot be read is left to the compiler to say so (it may be
 * found on the include path); one beside the file that is not a regular
 * file (a FIFO would keep the compiler waiting for a writer), and more
 * includes than the bounds above are refused: 0, or -1 with err
 * "PATH:LINE: why". */
static int hash_includes(struct kernel_file *k, char *err, size_t len)
{
	const char *slash = strrchr(k->path, '/');
	struct reader r = {.k = k, .origin = k->path, .err = err, .len = len};
	struct sha256 h;
	unsigned char digest[32];
	int count = 0, hashed = 0;
	size_t bytes = 0;
	const char *counted = k->source;

	r.line = 1;
	sha256_init(&h);
	sha256_update(&h, k->source, k->source_len);
	for (const char *p = k->source; (p = strstr(p, "#include")); p += 8) {
		const char *q = p + 8;
		while (*q == ' ' || *q == '\t')
			q++;
		const char *close = *q == '"' ? strchr(q + 1, '"') : NULL;
		const char *nl = strchr(q, '\n');
		if (!close || (nl && close > nl) || close - q - 1 > 512)
			continue;
		for (; counted < p; counted++)
			r.line += *counted == '\n';
		if (++count > KERNEL_INCLUDES_MAX)
			return fail(&r, "more than %d #include \"...\" lines (each is read for the source "
				    "hash): gather them in fewer files", KERNEL_INCLUDES_MAX);
		char path[4700], *data;
		size_t size;
		char why[256];
		struct stat st;
		const char *refusal;
		const int name_len = (int)(close - q - 1);
		snprintf(path, sizeof path, "%.*s%s%.*s", slash ? (int)(slash - k->path) : 0, k->path,
			 slash ? "/" : "", name_len, q + 1);
		if (stat(path, &st) == 0 && (refusal = file_type_refusal(st.st_mode)) != NULL)
			return fail(&r, "#include \"%.*s\": %s", name_len, q + 1, refusal);
		if (file_read_bounded(path, KERNEL_INCLUDED_BYTES_MAX - bytes, &data, &size, why,
				      sizeof why) < 0)
			continue;
		if ((bytes += size) > KERNEL_INCLUDED_BYTES_MAX) {
			free(data);
			return fail(&r, "#include \"%.*s\": the files included come to more than %d MiB "
				    "(each is read for the source hash)", name_len, q + 1,
				    KERNEL_INCLUDED_BYTES_MAX >> 20);
		}
		sha256_update(&h, path, strlen(path) + 1);
		sha256_update(&h, data, size);
		free(data);
		hashed = 1;
	}
	sha256_final(&h, digest);
	if (hashed)
		sha256_hex(digest, k->sha256);
	return 0;
}

int kernel_file_load(struct kernel_file *k, const char *path, const struct kernel_ops *ops,
		     char *err, size_t len)
{
	char *data;
	size_t size;
	int rc;

	memset(k, 0, sizeof *k);
	if (file_read_bounded(path, KERNEL_FILE_MAX, &data, &size, err, len) < 0)
		return -1;
	rc = kernel_file_parse(k, path, data, size, ops, err, len);
	free(data);
	if (rc == 0 && (rc = hash_includes(k, err, len)) < 0)
		kernel_file_free(k);
	return rc;
}

void kernel_file_free(struct kernel_file *k)
{
	free(k->source);
	free(k->arena);
	memset(k, 0, sizeof *k);
}

/* A launch expression's names: the bound tunables, the problem, the
 * device. */
static int scope_lookup(void *ctx, const char *name, size_t len, long long *out)
{
	const struct kernel_scope *s = ctx;
	int i = tunable_index(s->k, name, len);

	if (i >= 0) {
		*out = s->values[i];
		return 0;
	}
	if (len == 3 && strncmp(name, "sms", 3) == 0) {
		*out = s->sms;
		return 0;
	}
	if (len == 9 && strncmp(name, "occupancy", 9) == 0) {
		*out = s->occupancy;
		return 0;
	}
	return problem_lookup(&s->pb, name, len, out);
}

int kernel_file_eval(const struct kernel_scope *s, enum kernel_expr e, long long *out, char *err,
		     size_t len)
{
	char why[256];

	if (!s->k->expr[e]) {
		*out = 0;
		return 0;
	}
	if (expr_eval(s->k->expr[e], scope_lookup, (void *)s, out, why, sizeof why) < 0) {
		snprintf(err, len, "%s '%s': %s", expr_names[e], s->k->expr[e], why);
		return -1;
	}
	return 0;
}

int kernel_file_eval_arg(const struct kernel_scope *s, size_t i, long long *out, char *err, size_t len)
{
	char why[256];

	if (expr_eval(s->k->args[i].text, scope_lookup, (void *)s, out, why, sizeof why) < 0) {
		snprintf(err, len, "@args parameter %zu '%s': %s", i + 1, s->k->args[i].text, why);
		return -1;
	}
	return 0;
}

/* The C type of an integer's code, for messages. */
static const char *integer_words(unsigned char code)
{
	switch (code) {
	case KARG_CODE_INTEGER | KARG_CODE_SIGNED | 4: return "a 32-bit int";
	case KARG_CODE_INTEGER | 4: return "a 32-bit unsigned";
	case KARG_CODE_INTEGER | KARG_CODE_SIGNED | 8: return "a 64-bit signed integer";
	case KARG_CODE_INTEGER | 8: return "a 64-bit unsigned integer";
	case KARG_CODE_INTEGER | KARG_CODE_SIGNED | 2: return "a 16-bit short";
	case KARG_CODE_INTEGER | 2: return "a 16-bit unsigned short";
	default: return "an integer";
	}
}

int kernel_file_pack_arg(const struct kernel_file *k, size_t i, unsigned char code, long long v,
			 unsigned char out[8], char *why, size_t len)
{
	unsigned bytes = code & KARG_CODE_BYTES;
	int is_signed = (code & KARG_CODE_SIGNED) != 0, bits = (int)bytes * 8;

	if (!(code & KARG_CODE_INTEGER) || (bytes != 2 && bytes != 4 && bytes != 8)) {
		snprintf(why, len, "parameter %zu of %s has type code 0x%02x, not an integer the launch can pass",
			 i + 1, k->entry_name, code);
		return -2;
	}
	/* An unsigned 64-bit parameter takes every non-negative long long. */
	long long lo = !is_signed ? 0 : bits == 64 ? LLONG_MIN : -(1LL << (bits - 1));
	long long hi = bits == 64 ? LLONG_MAX : is_signed ? (1LL << (bits - 1)) - 1 : (1LL << bits) - 1;
	if (v < lo || v > hi) {
		snprintf(why, len, "%s = %lld does not fit parameter %zu of %s, %s (%lld..%lld): the kernel "
			 "cannot take this problem", k->args[i].text, v, i + 1, k->entry_name, integer_words(code),
			 lo, hi);
		return -1;
	}
	/* Host order, the width the kernel declares: the bits of v's low
	 * bytes, which in range are the value of either signedness. */
	memset(out, 0, 8);
	if (bytes == 8) {
		memcpy(out, &v, 8);
	} else if (bytes == 4) {
		uint32_t w = (uint32_t)v;
		memcpy(out, &w, 4);
	} else {
		uint16_t w = (uint16_t)v;
		memcpy(out, &w, 2);
	}
	return 0;
}
