/*
 * export_params.c - a stored configuration's tunables as names and
 * integers, for the header and the JSON (see export.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/params.h"
#include "export/export.h"

struct collect {
	struct export_param *out;
	int count;
	int bad;          /* a value that is not an integer: its key is in out[count] */
	int too_many;
};

static int take_pair(void *ctx, const char *key, const char *value)
{
	struct collect *c = ctx;
	if (strcmp(key, "op") == 0) /* the problem's operator, not a tunable */
		return 0;
	if (c->count == EXPORT_PARAMS_MAX) {
		c->too_many = 1;
		return 1;
	}
	char *end;
	errno = 0;
	long long v = strtoll(value, &end, 10);
	if (!value[0] || *end || errno) {
		c->bad = 1;
		snprintf(c->out[c->count].name, sizeof c->out[c->count].name, "%s", key);
		return 1;
	}
	snprintf(c->out[c->count].name, sizeof c->out[c->count].name, "%s", key);
	c->out[c->count].value = v;
	c->count++;
	return 0;
}

int export_params(const struct db_tuned_row *row, struct export_param *out, char *err, size_t len)
{
	struct collect c = {.out = out};
	int r = params_each(row->params, take_pair, &c);
	if (r < 0) {
		snprintf(err, len, "%s: stored configuration '%s' is not key=value pairs", row->variant,
			 row->params);
		return -1;
	}
	if (c.too_many) {
		snprintf(err, len, "%s: configuration '%s' has more than %d tunables", row->variant,
			 row->params, EXPORT_PARAMS_MAX);
		return -1;
	}
	if (c.bad) {
		snprintf(err, len, "%s: tunable '%s' of '%s' is not an integer", row->variant,
			 out[c.count].name, row->params);
		return -1;
	}
	return c.count;
}
