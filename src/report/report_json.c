/*
 * report_json.c - JSON lines on stdout: one object per result, then one
 * {"summary": ...} object.  Field names match the database's columns.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "text.h"

static void json_str(const char *key, const char *value, int comma)
{
	printf("\"%s\":\"", key);
	text_json_escape(stdout, value);
	printf("\"%s", comma ? "," : "");
}

static int json_result(void *ctx, const struct result *r, size_t index, size_t total,
		       char *err, size_t len)
{
	(void)ctx; (void)index; (void)total; (void)err; (void)len;
	const struct case_spec *c = r->c;
	putchar('{');
	json_str("case", c->name, 1);
	json_str("variant", c->variant, 1);
	json_str("dtype", dtype_name(c->dtype), 1);
	printf("\"n\":%" PRId64 ",\"cols\":%" PRId64 ",", c->n, c->cols);
	json_str("params", c->params, 1);
	json_str("expect", expect_name(c->expect), 1);
	json_str("status", status_name(r->status), 1);
	json_str("observed", outcome_name(r->outcome), 1);
	json_str("message", r->message, 1);
	if (r->err_norm >= 0)
		printf("\"err_norm\":%.6g,", r->err_norm);
	else
		printf("\"err_norm\":null,");
	printf("\"duration_ms\":%.3f,\"seed\":%" PRIu64 "}\n", r->duration_s * 1e3, r->seed);
	fflush(stdout);
	return 0;
}

static int json_end(void *ctx, const struct run_summary *s, char *err, size_t len)
{
	(void)ctx; (void)err; (void)len;
	printf("{\"summary\":{\"passed\":%d,\"failed\":%d,\"skipped\":%d,\"interrupted\":%s,"
	       "\"wall_s\":%.3f,\"statuses\":{",
	       s->tally[TALLY_PASSED], s->tally[TALLY_FAILED], s->tally[TALLY_SKIPPED],
	       s->interrupted ? "true" : "false", s->wall_s);
	for (int i = 0; i < STATUS_COUNT; i++)
		printf("%s\"%s\":%d", i ? "," : "", status_name((enum status)i), s->counts[i]);
	printf("}}}\n");
	fflush(stdout);
	return 0;
}

void json_sink(struct report_sink *s, struct json_state *st)
{
	memset(s, 0, sizeof *s);
	s->result = json_result;
	s->end = json_end;
	s->ctx = st;
}
