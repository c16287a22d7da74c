/*
 * requirement.c - parsing what a case needs of the device (see
 * requirement.h).
 */
#include "common/requirement.h"

#include <stdio.h>
#include <string.h>

int requirement_parse(const char *p, size_t len, struct requirement *r)
{
	static const struct { const char *text; enum req_cmp cmp; } ops[] = {
		/* two-character operators first, so ">=" is not read as ">" */
		{ ">=", REQ_GE }, { "<=", REQ_LE }, { "==", REQ_EQ }, { "!=", REQ_NE },
		{ ">", REQ_GT }, { "<", REQ_LT },
	};
	const char *end = p + len, *q = p;
	size_t i;
	long v = 0;

	while (q < end && *q >= 'a' && *q <= 'z')
		q++;
	const char *what = q - p == 2 && strncmp(p, "sm", 2) == 0	 ? "sm"
			   : q - p == 3 && strncmp(p, "mem", 3) == 0 ? "mem"
								       : NULL;
	if (!what)
		return -1;
	for (i = 0; i < sizeof ops / sizeof *ops; i++)
		if ((size_t)(end - q) >= strlen(ops[i].text) && strncmp(q, ops[i].text, strlen(ops[i].text)) == 0)
			break;
	if (i == sizeof ops / sizeof *ops)
		return -2;
	q += strlen(ops[i].text);
	if (q == end)
		return -2;
	for (; q < end; q++) {
		if (*q < '0' || *q > '9' || v > 99999)
			return -2;
		v = v * 10 + (*q - '0');
	}
	snprintf(r->what, sizeof r->what, "%s", what);
	r->cmp = ops[i].cmp;
	r->value = (int)v;
	return 0;
}

int requirement_parse_list(const char *key, const char *list, struct requirement *req, int max, char *why,
			   size_t len)
{
	int count = 0;

	for (const char *p = list;; p++) {
		size_t l = strcspn(p, ",");
		struct requirement r;

		if (l == 0) {
			snprintf(why, len, "empty requirement in %s%s", key, list);
			return -1;
		}
		switch (requirement_parse(p, l, &r)) {
		case -1:
			snprintf(why, len, "unknown requirement '%.*s' (known: sm, e.g. sm>=80, and mem in "
				 "GiB, e.g. mem>=16)", (int)l, p);
			return -1;
		case -2:
			snprintf(why, len, "bad requirement '%.*s' (expected sm or mem, one of >= > <= < == "
				 "!=, and a number)", (int)l, p);
			return -1;
		}
		if (count == max) {
			snprintf(why, len, "at most %d requirements in %s%s", max, key, list);
			return -1;
		}
		req[count++] = r;
		p += l;
		if (!*p)
			return count;
	}
}
