/*
 * test_params.c - a case's parameters as one "k=v,k=v" string
 * (common/params.h).
 *
 * Expected values are worked out by hand (or are published test vectors),
 * never recomputed with the code under test.
 */
#include <string.h>

#include "common/num.h"
#include "common/params.h"
#include "tests/test.h"

static void test_params(void)
{
	char buf[16], p[32] = "";
	long long v = -7;

	/* params_without drops one key wherever it is. */
	char w[64];
	CHECK_INT(params_without("block=256,items=4,op=sum", "op", w, sizeof w), 0);
	CHECK_STR(w, "block=256,items=4");
	CHECK_INT(params_without("op=max,block=256", "op", w, sizeof w), 0);
	CHECK_STR(w, "block=256");
	CHECK_INT(params_without("op=sum", "op", w, sizeof w), 0);
	CHECK_STR(w, "");
	CHECK_INT(params_without("opx=1,block=2", "op", w, sizeof w), 0);
	CHECK_STR(w, "opx=1,block=2");
	CHECK_INT(params_without("", "op", w, sizeof w), 0);
	CHECK_STR(w, "");
	CHECK_INT(params_without("block=256,items=4", "op", w, 8), -1);

	CHECK_INT(params_append(p, sizeof p, "block", "256"), 0);
	CHECK_INT(params_append(p, sizeof p, "op", "sum"), 0);
	CHECK_INT(params_append(p, sizeof p, "n", "2^20"), 0);
	CHECK_STR(p, "block=256,op=sum,n=2^20");
	CHECK_INT(params_append(p, sizeof p, "x", "a,b"), -1);
	CHECK_INT(params_append(p, sizeof p, "", "1"), -1);
	CHECK_INT(params_append(p, sizeof p, "long", "0123456789"), -1); /* 29 + 16 > 32 */
	CHECK_STR(p, "block=256,op=sum,n=2^20");
	CHECK_INT(params_append(p, sizeof p, "w", "12345"), 0); /* exactly 31 chars */
	CHECK_INT(strlen(p), 31);

	CHECK_INT(params_get(p, "op", buf, sizeof buf), 0);
	CHECK_STR(buf, "sum");
	CHECK_INT(params_get(p, "w", buf, sizeof buf), 0);
	CHECK_STR(buf, "12345");
	CHECK_INT(params_get(p, "o", buf, sizeof buf), -1);     /* prefix of a key */
	CHECK_INT(params_get(p, "bloc", buf, sizeof buf), -1);
	CHECK_INT(params_get(p, "sum", buf, sizeof buf), -1);   /* a value, not a key */
	CHECK_INT(params_get(p, "block", buf, 3), -1);          /* "256" needs 4 bytes */
	CHECK_INT(params_get(p, "block", buf, 4), 0);
	CHECK_STR(buf, "256");
	CHECK_INT(params_get("", "op", buf, sizeof buf), -1);

	/* A count, read as the worker reads a tunable: its text (params_get),
	 * then the number (num_parse_count).  An absent key or a value that is
	 * not a count leaves the caller's default in place. */
	char word[64];
	CHECK_INT(params_get(p, "block", word, sizeof word), 0);
	CHECK_INT(num_parse_count(word, &v), 0);
	CHECK_INT(v, 256);
	CHECK_INT(params_get(p, "n", word, sizeof word), 0);
	CHECK_INT(num_parse_count(word, &v), 0);
	CHECK_INT(v, 1 << 20);
	v = 7;
	CHECK_INT(params_get(p, "op", word, sizeof word), 0);
	CHECK_INT(num_parse_count(word, &v), -1);
	CHECK_INT(params_get(p, "cols", word, sizeof word), -1);
	CHECK_INT(params_get("k=123456789012345678901234567890123", "k", word, sizeof word), 0);
	CHECK_INT(num_parse_count(word, &v), -1);
	CHECK_INT(v, 7);
}

int main(void)
{
	test_params();
	return TEST_END();
}
