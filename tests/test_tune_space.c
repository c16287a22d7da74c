/*
 * test_tune_space.c - parsing tuning spaces, numbering, encoding and
 * neighbours.
 */
#include <stdio.h>
#include <string.h>

#include "common/case.h"
#include "common/params.h"
#include "tests/test.h"
#include "tune/tune_space.h"

static char err[256];

static int one_line(const char *s)
{
	return s[0] && !strchr(s, '\n');
}

static void test_parse(void)
{
	struct tune_space s;
	CHECK_INT(tune_space_parse(&s, "block=64,128,256,512,1024 items=1,2,4,8,16  vec=1,2,4", err,
				   sizeof err), 0);
	CHECK_INT(s.naxes, 3);
	CHECK_STR(s.axes[0].key, "block");
	CHECK_INT(s.axes[0].count, 5);
	CHECK_STR(s.axes[0].values[4], "1024");
	CHECK_STR(s.axes[2].key, "vec");
	CHECK_STR(s.axes[2].values[1], "2");
	CHECK_INT(tune_space_count(&s), 75);

	/* No space: one configuration, the empty one. */
	CHECK_INT(tune_space_parse(&s, "", err, sizeof err), 0);
	CHECK_INT(s.naxes, 0);
	CHECK_INT(tune_space_count(&s), 1);
	CHECK_INT(tune_space_parse(&s, NULL, err, sizeof err), 0);
	CHECK_INT(tune_space_count(&s), 1);
	CHECK_INT(tune_space_parse(&s, "algo=tree,shfl", err, sizeof err), 0);
	CHECK_STR(s.axes[0].values[1], "shfl");
}

static void expect_error(const char *text, const char *want)
{
	struct tune_space s;
	err[0] = '\0';
	CHECK_INT(tune_space_parse(&s, text, err, sizeof err), -1);
	CHECK_CONTAINS(err, want);
	CHECK(one_line(err));
}

static void test_parse_errors(void)
{
	expect_error("block", "'block' is not key=v1,v2,...");
	expect_error("block=", "axis 'block' has an empty value");
	expect_error("block=1,,2", "empty value");
	expect_error("block=1,2,", "empty value");
	expect_error("=1,2", "is not a parameter name");
	expect_error("9lives=1", "'9lives' is not a parameter name");
	expect_error("bl-ock=1", "not a parameter name");
	expect_error("block=1,2 block=4", "axis 'block' appears twice");
	expect_error("block=1,2,1", "axis 'block' lists '1' twice");
	expect_error("block=a=b", "contains '='");
	expect_error("a=1 b=1 c=1 d=1 e=1 f=1 g=1 h=1 i=1 j=1 k=1 l=1 m=1", "more than 12 axes");
	expect_error("block=123456789012345678901234567890123", "longer than 32 bytes");
	/* 32 * 32 * 32 * 32 > 2^20 configurations. */
	char big[2048] = "";
	for (int a = 0; a < 5; a++) {
		char axis[256];
		int n = snprintf(axis, sizeof axis, "%sk%d=", a ? " " : "", a);
		for (int v = 0; v < 32; v++)
			n += snprintf(axis + n, sizeof axis - (size_t)n, "%s%d", v ? "," : "", v);
		strcat(big, axis);
	}
	expect_error(big, "more than 1048576 configurations");
}

static void test_numbering(void)
{
	struct tune_space s;
	struct tune_config c;
	char buf[128];
	CHECK_INT(tune_space_parse(&s, "block=64,128,256 items=1,2 vec=1,2,4", err, sizeof err), 0);
	CHECK_INT(tune_space_count(&s), 18);

	/* The last axis varies fastest. */
	tune_space_at(&s, 0, &c);
	CHECK_INT(tune_space_encode(&s, &c, buf, sizeof buf), 0);
	CHECK_STR(buf, "block=64,items=1,vec=1");
	tune_space_at(&s, 1, &c);
	CHECK_INT(tune_space_encode(&s, &c, buf, sizeof buf), 0);
	CHECK_STR(buf, "block=64,items=1,vec=2");
	tune_space_at(&s, 3, &c);
	CHECK_INT(tune_space_encode(&s, &c, buf, sizeof buf), 0);
	CHECK_STR(buf, "block=64,items=2,vec=1");
	tune_space_at(&s, 17, &c);
	CHECK_INT(tune_space_encode(&s, &c, buf, sizeof buf), 0);
	CHECK_STR(buf, "block=256,items=2,vec=4");
	CHECK_INT(tune_space_encode(&s, &c, buf, 10), -1);

	/* Every number has its own text, the one its results are stored and
	 * found again under (a tune's resume looks them up by it), and its
	 * configuration numbers back to it. */
	static const char *const all[18] = {
		"block=64,items=1,vec=1", "block=64,items=1,vec=2", "block=64,items=1,vec=4",
		"block=64,items=2,vec=1", "block=64,items=2,vec=2", "block=64,items=2,vec=4",
		"block=128,items=1,vec=1", "block=128,items=1,vec=2", "block=128,items=1,vec=4",
		"block=128,items=2,vec=1", "block=128,items=2,vec=2", "block=128,items=2,vec=4",
		"block=256,items=1,vec=1", "block=256,items=1,vec=2", "block=256,items=1,vec=4",
		"block=256,items=2,vec=1", "block=256,items=2,vec=2", "block=256,items=2,vec=4",
	};
	int ok = 1;
	for (uint64_t i = 0; i < tune_space_count(&s); i++) {
		tune_space_at(&s, i, &c);
		if (tune_space_index(&s, &c) != i || tune_space_encode(&s, &c, buf, sizeof buf) < 0 ||
		    strcmp(buf, all[i]) != 0)
			ok = 0;
	}
	CHECK(ok);

	/* The case's parameters are the configuration's text with the
	 * operator after it, the axes' values found there by key. */
	tune_space_at(&s, 1 * 6 + 1 * 3 + 2, &c);
	CHECK_INT(tune_space_encode(&s, &c, buf, sizeof buf), 0);
	CHECK_INT(params_append(buf, sizeof buf, "op", "sum"), 0);
	CHECK_STR(buf, "block=128,items=2,vec=4,op=sum");
	char word[16];
	CHECK_INT(params_get(buf, "vec", word, sizeof word), 0);
	CHECK_STR(word, "4");

	/* The empty space encodes as "". */
	CHECK_INT(tune_space_parse(&s, "", err, sizeof err), 0);
	tune_space_at(&s, 0, &c);
	CHECK_INT(tune_space_encode(&s, &c, buf, sizeof buf), 0);
	CHECK_STR(buf, "");
	CHECK_INT(tune_space_index(&s, &c), 0);
}

static int contains_text(char (*texts)[128], int n, const char *want)
{
	for (int i = 0; i < n; i++)
		if (strcmp(texts[i], want) == 0)
			return 1;
	return 0;
}

static void test_neighbors(void)
{
	struct tune_space s;
	struct tune_config c;
	uint64_t nb[2 * TUNABLES_MAX];
	CHECK_INT(tune_space_parse(&s, "block=64,128,256 items=1,2 vec=1,2,4", err, sizeof err), 0);

	/* block=128,items=1,vec=2: both blocks, the other items, both vecs. */
	char buf[128], texts[2 * TUNABLES_MAX][128];
	tune_space_at(&s, 1 * 6 + 0 * 3 + 1, &c);
	CHECK_INT(tune_space_encode(&s, &c, buf, sizeof buf), 0);
	CHECK_STR(buf, "block=128,items=1,vec=2");
	int n = tune_space_neighbors(&s, tune_space_index(&s, &c), nb);
	CHECK_INT(n, 5);
	for (int i = 0; i < n && i < 2 * TUNABLES_MAX; i++) {
		struct tune_config w;
		tune_space_at(&s, nb[i], &w);
		CHECK_INT(tune_space_encode(&s, &w, texts[i], sizeof texts[i]), 0);
	}
	const char *want[] = {"block=64,items=1,vec=2", "block=256,items=1,vec=2",
			      "block=128,items=2,vec=2", "block=128,items=1,vec=1",
			      "block=128,items=1,vec=4"};
	for (int i = 0; i < 5; i++)
		CHECK(contains_text(texts, n, want[i]));
	/* A corner has one neighbour per axis. */
	CHECK_INT(tune_space_neighbors(&s, 0, nb), 3);
	/* No axes: no neighbours. */
	CHECK_INT(tune_space_parse(&s, "", err, sizeof err), 0);
	CHECK_INT(tune_space_neighbors(&s, 0, nb), 0);
}

/* The most a variant declares (tunable_limits.h): twelve axes whose names
 * and values are as long as a tunable's may be, each configuration
 * encoded into a case's parameters with its operator and read back; a
 * thirteenth axis, or a longer name, is refused. */
static void test_limits(void)
{
	static struct tune_space s; /* large: not on the stack */
	static const char name[] = "tunable_with_a_long_name_nmbr_%02d"; /* 32 characters */
	static const char choice[] = "a_choice_name_of_32_characters_x";
	char text[2048] = "", params[CASE_PARAMS_MAX];
	struct tune_config c;

	for (int a = 0; a < 12; a++) {
		snprintf(text + strlen(text), sizeof text - strlen(text), "%s", a ? " " : "");
		snprintf(text + strlen(text), sizeof text - strlen(text), name, a);
		snprintf(text + strlen(text), sizeof text - strlen(text), "=-2147483648,2147483647,%s", choice);
	}
	CHECK_INT(tune_space_parse(&s, text, err, sizeof err), 0);
	CHECK_STR(err, "");
	CHECK_INT(s.naxes, 12);
	if (s.naxes != 12)
		return;
	CHECK_STR(s.axes[11].key, "tunable_with_a_long_name_nmbr_11");
	CHECK_STR(s.axes[11].values[2], choice);
	CHECK_INT(tune_space_count(&s), 531441);
	const uint64_t ends[] = {0, 531440};
	for (int i = 0; i < 2; i++) {
		tune_space_at(&s, ends[i], &c);
		CHECK_INT(tune_space_encode(&s, &c, params, sizeof params), 0);
		CHECK_INT(params_append(params, sizeof params, "op", "sum"), 0);
		/* Every axis's value, found by its name in the case's parameters. */
		int found = 0;
		for (int a = 0; a < 12; a++) {
			char key[TUNABLE_NAME_MAX + 1], word[TUNABLE_VALUE_MAX + 1];
			snprintf(key, sizeof key, name, a);
			found += params_get(params, key, word, sizeof word) == 0 &&
				 strcmp(word, i ? choice : "-2147483648") == 0;
		}
		CHECK_INT(found, 12);
		CHECK_INT(tune_space_index(&s, &c), ends[i]);
	}
	CHECK_CONTAINS(params, "tunable_with_a_long_name_nmbr_11=a_choice_name_of_32_characters_x,op=sum");
	uint64_t nb[2 * 12];
	CHECK_INT(tune_space_neighbors(&s, 531440, nb), 12);

	snprintf(text + strlen(text), sizeof text - strlen(text), " thirteenth=1,2");
	CHECK_INT(tune_space_parse(&s, text, err, sizeof err), -1);
	CHECK_STR(err, "tuning space: more than 12 axes");
	CHECK_INT(tune_space_parse(&s, "tunable_with_a_long_name_nmbr_033=1", err, sizeof err), -1);
	CHECK_STR(err, "tuning space: parameter 'tunable_with_a_long_name_nmbr_033' is longer than 32 characters");
	CHECK_INT(tune_space_parse(&s, "a=a_choice_name_of_33_characters_xy", err, sizeof err), -1);
	CHECK_CONTAINS(err, "is longer than 32 bytes");
}

int main(void)
{
	test_parse();
	test_limits();
	test_parse_errors();
	test_numbering();
	test_neighbors();
	return TEST_END();
}
