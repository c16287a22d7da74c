/*
 * tune_space.c - parsing and numbering tuning spaces (see tune_space.h).
 *
 * The space text comes from a kernel author's descriptor, so the parser is
 * strict and says exactly what is wrong: a typo in a space would otherwise
 * show up as a tuner that silently never tries some configuration.
 */
#include "tune/tune_space.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "common/params.h"

static int is_key(const char *k, size_t n)
{
	if (n == 0 || !(isalpha((unsigned char)k[0]) || k[0] == '_'))
		return 0;
	for (size_t i = 1; i < n; i++)
		if (!(isalnum((unsigned char)k[i]) || k[i] == '_'))
			return 0;
	return 1;
}

/* Parses one "key=v1,v2" token of length n into a new axis. */
static int parse_axis(struct tune_space *s, const char *tok, size_t n, char *err, size_t len)
{
	const char *eq = memchr(tok, '=', n);
	if (!eq) {
		snprintf(err, len, "tuning space: '%.*s' is not key=v1,v2,...", (int)n, tok);
		return -1;
	}
	size_t klen = (size_t)(eq - tok);
	if (!is_key(tok, klen)) {
		snprintf(err, len, "tuning space: '%.*s' is not a parameter name", (int)klen, tok);
		return -1;
	}
	if (klen > TUNABLE_NAME_MAX) {
		snprintf(err, len, "tuning space: parameter '%.*s' is longer than %d characters", (int)klen,
			 tok, TUNABLE_NAME_MAX);
		return -1;
	}
	if (s->naxes == TUNABLES_MAX) {
		snprintf(err, len, "tuning space: more than %d axes", TUNABLES_MAX);
		return -1;
	}
	for (int a = 0; a < s->naxes; a++) {
		if (strlen(s->axes[a].key) == klen && strncmp(s->axes[a].key, tok, klen) == 0) {
			snprintf(err, len, "tuning space: axis '%.*s' appears twice", (int)klen, tok);
			return -1;
		}
	}
	struct tune_axis *ax = &s->axes[s->naxes];
	memset(ax, 0, sizeof *ax);
	memcpy(ax->key, tok, klen);

	const char *p = eq + 1, *end = tok + n;
	for (;;) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *vend = comma ? comma : end;
		size_t vlen = (size_t)(vend - p);
		if (vlen == 0) {
			snprintf(err, len, "tuning space: axis '%s' has an empty value", ax->key);
			return -1;
		}
		if (memchr(p, '=', vlen)) {
			snprintf(err, len, "tuning space: axis '%s': value '%.*s' contains '='", ax->key,
				 (int)vlen, p);
			return -1;
		}
		if (vlen > TUNABLE_VALUE_MAX) {
			snprintf(err, len, "tuning space: axis '%s': value '%.*s' is longer than %d bytes",
				 ax->key, (int)vlen, p, TUNABLE_VALUE_MAX);
			return -1;
		}
		if (ax->count == TUNABLE_SPACE_MAX) {
			snprintf(err, len, "tuning space: axis '%s' has more than %d values", ax->key,
				 TUNABLE_SPACE_MAX);
			return -1;
		}
		for (int i = 0; i < ax->count; i++) {
			if (strlen(ax->values[i]) == vlen && strncmp(ax->values[i], p, vlen) == 0) {
				snprintf(err, len, "tuning space: axis '%s' lists '%.*s' twice", ax->key,
					 (int)vlen, p);
				return -1;
			}
		}
		memcpy(ax->values[ax->count++], p, vlen);
		if (!comma)
			break;
		p = comma + 1;
	}
	s->naxes++;
	return 0;
}

int tune_space_parse(struct tune_space *s, const char *text, char *err, size_t len)
{
	memset(s, 0, sizeof *s);
	s->count = 1;
	const char *p = text ? text : "";
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		size_t n = strcspn(p, " \t");
		if (parse_axis(s, p, n, err, len) < 0)
			return -1;
		uint64_t c = (uint64_t)s->axes[s->naxes - 1].count;
		if (s->count * c > TUNE_CONFIGS_MAX) {
			snprintf(err, len, "tuning space: more than %u configurations", TUNE_CONFIGS_MAX);
			return -1;
		}
		s->count *= c;
		p += n;
	}
	return 0;
}

uint64_t tune_space_count(const struct tune_space *s)
{
	return s->count;
}

void tune_space_at(const struct tune_space *s, uint64_t index, struct tune_config *c)
{
	memset(c, 0, sizeof *c);
	for (int a = s->naxes - 1; a >= 0; a--) {
		uint64_t k = (uint64_t)s->axes[a].count;
		c->v[a] = (int)(index % k);
		index /= k;
	}
}

uint64_t tune_space_index(const struct tune_space *s, const struct tune_config *c)
{
	uint64_t index = 0;
	for (int a = 0; a < s->naxes; a++)
		index = index * (uint64_t)s->axes[a].count + (uint64_t)c->v[a];
	return index;
}

int tune_space_encode(const struct tune_space *s, const struct tune_config *c, char *buf,
		      size_t len)
{
	if (len == 0)
		return -1;
	buf[0] = '\0';
	for (int a = 0; a < s->naxes; a++)
		if (params_append(buf, len, s->axes[a].key, s->axes[a].values[c->v[a]]) < 0)
			return -1;
	return 0;
}

int tune_space_neighbors(const struct tune_space *s, uint64_t index, uint64_t *out)
{
	struct tune_config c;
	int n = 0;
	tune_space_at(s, index, &c);
	for (int a = 0; a < s->naxes; a++) {
		for (int d = -1; d <= 1; d += 2) {
			int v = c.v[a] + d;
			if (v < 0 || v >= s->axes[a].count)
				continue;
			struct tune_config nb = c;
			nb.v[a] = v;
			out[n++] = tune_space_index(s, &nb);
		}
	}
	return n;
}
