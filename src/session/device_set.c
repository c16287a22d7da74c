/*
 * device_set.c - parsing --devices LIST|all (see device_set.h).
 */
#include "session/device_set.h"

#include <stdio.h>
#include <string.h>

#include "common/num.h"

static int has(const struct device_set *ds, int d)
{
	for (int i = 0; i < ds->n; i++)
		if (ds->list[i] == d)
			return 1;
	return 0;
}

/* One item, "D" or "A-B", into ds.  Returns 0, or -1 with the reason. */
static int add_item(struct device_set *ds, const char *item, char *err, size_t len)
{
	char lo_text[32], *dash;
	long long lo, hi;

	if (strlen(item) >= sizeof lo_text)
		goto bad;
	strcpy(lo_text, item);
	dash = strchr(lo_text, '-');
	if (dash)
		*dash = '\0';
	if (num_parse_int(lo_text, 0, DEVICE_ORDINAL_MAX, &lo) < 0 ||
	    (dash && num_parse_int(dash + 1, 0, DEVICE_ORDINAL_MAX, &hi) < 0))
		goto bad;
	if (!dash)
		hi = lo;
	if (hi < lo) {
		snprintf(err, len, "'%s' is an empty range", item);
		return -1;
	}
	for (long long d = lo; d <= hi; d++) {
		if (has(ds, (int)d)) {
			snprintf(err, len, "device %lld is named twice", d);
			return -1;
		}
		if (ds->n == DEVICE_SET_MAX) {
			snprintf(err, len, "at most %d devices", DEVICE_SET_MAX);
			return -1;
		}
		ds->list[ds->n++] = (int)d;
	}
	return 0;
bad:
	snprintf(err, len, "expected 'all' or device ordinals 0 to %d and ranges (0,2 or 0-3), got '%s'",
		 DEVICE_ORDINAL_MAX, item);
	return -1;
}

int device_set_parse(const char *text, struct device_set *ds, char *err, size_t len)
{
	char buf[256];

	memset(ds, 0, sizeof *ds);
	if (strcmp(text, "all") == 0) {
		ds->all = 1;
		return 0;
	}
	if (!text[0] || strlen(text) >= sizeof buf || text[0] == ',' || text[strlen(text) - 1] == ',' ||
	    strstr(text, ",,")) {
		snprintf(err, len, "expected 'all' or device ordinals and ranges, comma separated (0,2 or 0-3), got '%s'",
			 text);
		return -1;
	}
	strcpy(buf, text);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (add_item(ds, tok, err, len) < 0)
			return -1;
	return 0;
}

void device_set_resolve(struct device_set *ds, int count)
{
	if (!ds->all)
		return;
	ds->all = 0;
	ds->n = count < 1 ? 1 : count > DEVICE_SET_MAX ? DEVICE_SET_MAX : count;
	for (int i = 0; i < ds->n; i++)
		ds->list[i] = i;
}
