/*
 * session_check.c - cases against the catalog (session_check.h).
 *
 * The catalog carries a variant's parameters as the text people read
 * ("op=sum|max block=32..1024 (power of two) items=1|2"): a declaration is
 * a word that starts with a name and '=', the values run to the next
 * space, and the words in parentheses qualify the one before.  Only the
 * names, and op's values, are read from it here.
 */
#include "session/session_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#ifdef __GNUC__
__attribute__((format(printf, 4, 5)))
#endif
static int fail(const struct case_spec *c, char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	int k = snprintf(err, len, "%s:%d: ", c->file, c->line);

	if (k >= 0 && (size_t)k < len) {
		va_start(ap, fmt);
		vsnprintf(err + k, len - (size_t)k, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* 1 when the comma list holds word (wlen bytes) as an item.  sep is the
 * list's separator. */
static int list_has(const char *list, size_t llen, char sep, const char *word, size_t wlen)
{
	const char *end = list + llen;

	for (const char *p = list; p < end;) {
		const char *q = memchr(p, sep, (size_t)(end - p));
		size_t n = (size_t)((q ? q : end) - p);
		if (n == wlen && strncmp(p, word, wlen) == 0)
			return 1;
		p = q ? q + 1 : end;
	}
	return 0;
}

int session_variant_has_dtype(const struct catalog_entry *e, enum dtype d)
{
	const char *name = dtype_name(d);
	return list_has(e->dtypes, strlen(e->dtypes), ',', name, strlen(name));
}

/* The next declaration of a tunables text from *p: its name and values.
 * Returns 1, or 0 at the end. */
static int tunable_next(const char **p, const char **name, size_t *nlen, const char **values,
			size_t *vlen)
{
	for (const char *w = *p; *w;) {
		size_t wlen = strcspn(w, " ");
		size_t id = 0;
		while (id < wlen && ((w[id] >= 'a' && w[id] <= 'z') || (w[id] >= '0' && w[id] <= '9') ||
				     w[id] == '_'))
			id++;
		const char *next = w + wlen + (w[wlen] == ' ');
		if (id > 0 && id < wlen && w[id] == '=') {
			*name = w;
			*nlen = id;
			*values = w + id + 1;
			*vlen = wlen - id - 1;
			*p = next;
			return 1;
		}
		w = next;
	}
	return 0;
}

/* The values the tunables text declares for key (e.g. "sum|max" for op):
 * 1 and *values, *vlen, or 0 when it declares no such tunable. */
static int tunable_find(const char *tunables, const char *key, size_t klen, const char **values,
			size_t *vlen)
{
	const char *p = tunables, *name;
	size_t nlen;

	while (tunable_next(&p, &name, &nlen, values, vlen))
		if (nlen == klen && strncmp(name, key, klen) == 0)
			return 1;
	return 0;
}

/* "op, block, items" from a tunables text, or "no parameters". */
static void tunable_names(const char *tunables, char *buf, size_t len)
{
	const char *p = tunables, *name, *values;
	size_t nlen, vlen, used = 0;

	buf[0] = '\0';
	while (used < len && tunable_next(&p, &name, &nlen, &values, &vlen))
		used += (size_t)snprintf(buf + used, len - used, "%s%.*s", used ? ", " : "", (int)nlen, name);
	if (!buf[0])
		snprintf(buf, len, "no parameters");
}

/* Checks each parameter of c against the variant's tunables. */
static int check_params(const struct catalog_entry *e, const struct case_spec *c, char *err, size_t len)
{
	const char *p = c->params;

	for (int i = 0; *p; i++) {
		const char *eq = strchr(p, '='), *end = strchr(p, ',');
		const char *values;
		size_t klen, vlen;

		if (!end)
			end = p + strlen(p);
		if (!eq || eq > end) /* not from a suite: a pair without '=' */
			eq = end;
		klen = (size_t)(eq - p);
		/* A template variable only names the case or the variant. */
		if (c->template_params & (1ULL << i)) {
			;
		} else if (klen == 2 && strncmp(p, "op", 2) == 0) {
			/* A variant that reduces by no operator lists no op
			 * and ignores it (the tuner gives one to every case). */
			if (tunable_find(e->tunables, "op", 2, &values, &vlen) &&
			    !list_has(values, vlen, '|', eq + 1, (size_t)(end - eq - (*eq == '='))))
				return fail(c, err, len, "case '%s': op=%.*s: %s takes op=%.*s", c->name,
					    (int)(end - eq - (*eq == '=')), eq + (*eq == '='), e->name, (int)vlen, values);
		} else if (!tunable_find(e->tunables, p, klen, &values, &vlen)) {
			char names[256];
			tunable_names(e->tunables, names, sizeof names);
			return fail(c, err, len, "case '%s': %s has no parameter '%.*s' (it takes %s)", c->name,
				    e->name, (int)klen, p, names);
		}
		p = *end ? end + 1 : end;
	}
	return 0;
}

int session_check_case(const struct catalog *cat, const struct case_spec *c, char *err, size_t len)
{
	const struct catalog_entry *e = catalog_lookup(cat, c->variant);

	if (!e) {
		if (!cat->has_kernels && strncmp(c->variant, "harness.", 8) != 0)
			return 0;
		return fail(c, err, len, "unknown variant '%s' (conform --variants lists them)", c->variant);
	}
	if (!session_variant_has_dtype(e, c->dtype))
		return fail(c, err, len, "case '%s': %s does not support dtype %s (it has %s)", c->name,
			    e->name, dtype_name(c->dtype), e->dtypes);
	return check_params(e, c, err, len);
}

int session_check_cases(const struct catalog *cat, const struct case_spec *const *cases, size_t n,
			char *err, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (session_check_case(cat, cases[i], err, len) < 0)
			return -1;
	return 0;
}
