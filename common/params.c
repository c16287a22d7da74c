/*
 * params.c - lookup and construction of canonical "k=v,k=v" strings.
 *
 * A params string is only ever built by params_append, which refuses values
 * that would break the form (a comma, tab or newline), so parsing here can
 * split on commas and on the first '=' of each pair without quoting rules.
 * A value is text here; a caller that wants a number parses it
 * (num_parse_count, or the worker's tunables).
 */
#include "common/params.h"

#include <string.h>

/* Finds key's value: sets *val and *vlen and returns 0, or -1 if absent. */
static int params_find(const char *params, const char *key, const char **val, size_t *vlen)
{
	size_t klen = strlen(key);
	const char *p = params;

	if (!params || klen == 0)
		return -1;
	while (*p) {
		const char *end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		if ((size_t)(end - p) > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
			*val = p + klen + 1;
			*vlen = (size_t)(end - *val);
			return 0;
		}
		p = *end ? end + 1 : end;
	}
	return -1;
}

int params_get(const char *params, const char *key, char *buf, size_t len)
{
	const char *val;
	size_t vlen;

	if (params_find(params, key, &val, &vlen) < 0 || vlen >= len)
		return -1;
	memcpy(buf, val, vlen);
	buf[vlen] = '\0';
	return 0;
}

int params_append(char *params, size_t len, const char *key, const char *value)
{
	size_t used = strlen(params);
	size_t need = used + (used ? 1 : 0) + strlen(key) + 1 + strlen(value) + 1;

	if (need > len || strpbrk(value, ",\t\n") || strpbrk(key, ",=\t\n") || !*key)
		return -1;
	if (used)
		params[used++] = ',';
	strcpy(params + used, key);
	used += strlen(key);
	params[used++] = '=';
	strcpy(params + used, value);
	return 0;
}

int params_without(const char *params, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key), used = 0;
	const char *p = params ? params : "";

	if (len == 0)
		return -1;
	buf[0] = '\0';
	while (*p) {
		const char *end = strchr(p, ',');
		size_t n;
		if (!end)
			end = p + strlen(p);
		n = (size_t)(end - p);
		if (!(n > klen && strncmp(p, key, klen) == 0 && p[klen] == '=')) {
			if (used + (used ? 1 : 0) + n + 1 > len)
				return -1;
			if (used)
				buf[used++] = ',';
			memcpy(buf + used, p, n);
			used += n;
			buf[used] = '\0';
		}
		p = *end ? end + 1 : end;
	}
	return 0;
}

int params_each(const char *params, int (*fn)(void *ctx, const char *key, const char *value), void *ctx)
{
	const char *p = params ? params : "";

	while (*p) {
		const char *end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		const char *eq = memchr(p, '=', (size_t)(end - p));
		char key[64], value[64];
		if (!eq || (size_t)(eq - p) >= sizeof key || (size_t)(end - eq - 1) >= sizeof value)
			return -1;
		memcpy(key, p, (size_t)(eq - p));
		key[eq - p] = '\0';
		memcpy(value, eq + 1, (size_t)(end - eq - 1));
		value[end - eq - 1] = '\0';
		int r = fn(ctx, key, value);
		if (r != 0)
			return r;
		p = *end ? end + 1 : end;
	}
	return 0;
}
