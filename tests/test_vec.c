/*
 * test_vec.c - the growable-array macros: pushing keeps every element in
 * order, reserving grows by doubling, a size that would overflow is refused
 * with the array left as it was, and vec_free empties.
 */
#include <stdint.h>

#include "common/vec.h"
#include "tests/test.h"

struct pair {
	int key;
	double value;
};

static void test_push(void)
{
	struct pair *items = NULL;
	size_t len = 0, cap = 0;
	for (int i = 0; i < 1000; i++)
		CHECK_INT(vec_push(items, len, cap, ((struct pair){i, i * 0.5})), 0);
	CHECK_INT(len, 1000);
	CHECK_INT(cap, 1024); /* 8, doubled seven times */
	int in_order = 1;
	for (int i = 0; i < 1000; i++)
		in_order &= items[i].key == i && items[i].value == i * 0.5;
	CHECK(in_order);
	vec_free(items, len, cap);
	CHECK(items == NULL);
	CHECK_INT(len, 0);
	CHECK_INT(cap, 0);
	vec_free(items, len, cap); /* freeing an empty array is harmless */
}

static void test_reserve(void)
{
	char *s = NULL;
	size_t len = 0, cap = 0;
	CHECK_INT(vec_reserve(s, len, cap, 0), 0);
	CHECK(s == NULL); /* nothing asked, nothing allocated */
	CHECK_INT(vec_reserve(s, len, cap, 5), 0);
	CHECK_INT(cap, VEC_MIN_CAP);
	memcpy(s, "abcd", 5);
	len = 4;
	char *before = s;
	CHECK_INT(vec_reserve(s, len, cap, 4), 0); /* 4 + 4 fits in 8: no move */
	CHECK(s == before);
	CHECK_INT(vec_reserve(s, len, cap, 100), 0);
	CHECK_INT(cap, 128);
	CHECK_STR(s, "abcd");

	/* Sizes past what size_t can count fail cleanly, array untouched. */
	before = s;
	CHECK_INT(vec_reserve(s, len, cap, SIZE_MAX), -1);
	CHECK_INT(vec_reserve(s, len, cap, SIZE_MAX - len), -1);
	CHECK(s == before);
	CHECK_INT(len, 4);
	CHECK_INT(cap, 128);
	CHECK_STR(s, "abcd");
	vec_free(s, len, cap);

	/* Elements so large that the byte count overflows. */
	struct big { char b[1 << 20]; } *big = NULL;
	size_t nbig = 0, capbig = 0;
	CHECK_INT(vec_reserve(big, nbig, capbig, SIZE_MAX / 1024), -1);
	CHECK(big == NULL);
	CHECK_INT(capbig, 0);
}

int main(void)
{
	test_push();
	test_reserve();
	return TEST_END();
}
