/*
 * test_emit.c - the JSON and CSV writer: escaping, numbers that JSON
 * cannot hold (NaN, infinities, seeds past 2^53), nesting, and records in
 * both formats from one field list.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/emit.h"
#include "tests/test.h"

/* What fn wrote, malloc'd (NULL when out of memory). */
static char *written(void (*fn)(FILE *f))
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	fn(f);
	fclose(f);
	return buf;
}

static void nested(FILE *f)
{
	struct emit_json j;
	emit_json_init(&j, f);
	emit_json_object(&j, NULL);
	emit_json_string(&j, "s", "a\"b\\c\nd\te\x01");
	emit_json_real(&j, "nan", NAN, -1);
	emit_json_real(&j, "inf", -INFINITY, 3);
	emit_json_real(&j, "g", 0.1234567, -1);
	emit_json_real(&j, "fixed", 2.5, 3);
	emit_json_array(&j, "list");
	emit_json_int(&j, NULL, -3);
	emit_json_uint(&j, NULL, 18446744073709551615ull);
	emit_json_uint_exact(&j, NULL, 18446744073709551615ull);
	emit_json_object(&j, NULL);
	emit_json_close(&j);
	emit_json_close(&j);
	emit_json_bool(&j, "yes", 1);
	emit_json_null(&j, "none");
	emit_json_close(&j);
}

static void record(FILE *f, enum emit_format format)
{
	struct emit_rows r = {.f = f, .format = format};
	for (int i = 0; i < 2; i++) {
		const struct emit_field fields[] = {
			EMIT_STR("text", i ? "plain" : "a,\"b\"\nc"),
			EMIT_INT("n", i),
			EMIT_REAL("x", i ? 1.5 : NAN),
			EMIT_BOOL("ok", i),
			EMIT_NULL("none"),
			EMIT_UINT_EXACT("seed", i ? 9007199254740993ull : 0),
		};
		emit_row(&r, fields, sizeof fields / sizeof fields[0]);
	}
}

static void record_json(FILE *f) { record(f, EMIT_JSON); }
static void record_csv(FILE *f) { record(f, EMIT_CSV); }

int main(void)
{
	char *got;
	CHECK_STR(got = written(nested),
		  "{\"s\":\"a\\\"b\\\\c\\nd\\te\\u0001\",\"nan\":null,\"inf\":null,\"g\":0.123457,"
		  "\"fixed\":2.500,\"list\":[-3,18446744073709551615,\"18446744073709551615\",{}],"
		  "\"yes\":true,\"none\":null}\n");
	free(got);
	CHECK_STR(got = written(record_json),
		  "{\"text\":\"a,\\\"b\\\"\\nc\",\"n\":0,\"x\":null,\"ok\":false,\"none\":null,\"seed\":\"0\"}\n"
		  "{\"text\":\"plain\",\"n\":1,\"x\":1.5,\"ok\":true,\"none\":null,"
		  "\"seed\":\"9007199254740993\"}\n");
	free(got);
	CHECK_STR(got = written(record_csv),
		  "text,n,x,ok,none,seed\n"
		  "\"a,\"\"b\"\"\nc\",0,,0,,0\n"
		  "plain,1,1.5,1,,9007199254740993\n");
	free(got);
	return TEST_END();
}
