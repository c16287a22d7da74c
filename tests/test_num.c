/*
 * test_num.c - the strict number parsers (common/num.h).
 *
 * Expected values are worked out by hand (or are published test vectors),
 * never recomputed with the code under test.
 */
#include <limits.h>

#include "common/num.h"
#include "tests/test.h"

/* The one strict parser: every form strtol/strtod/sscanf would also take
 * (space, sign, hex, exponent, overflow) is refused. */
static void test_num(void)
{
	unsigned long long u = 9;
	long long i = 9;
	double d = 9;

	CHECK_INT(num_parse_uint("0", 10, &u), 0);
	CHECK_INT(u, 0);
	CHECK_INT(num_parse_uint("18446744073709551615", ULLONG_MAX, &u), 0);
	CHECK(u == ULLONG_MAX);
	u = 9;
	CHECK_INT(num_parse_uint("18446744073709551616", ULLONG_MAX, &u), -1);
	CHECK_INT(num_parse_uint("4294967297", 0x7fffffff, &u), -1);
	CHECK_INT(num_parse_uint("11", 10, &u), -1);
	CHECK_INT(num_parse_uint("0x10", 100, &u), -1);
	CHECK_INT(num_parse_uint(" 5", 100, &u), -1);
	CHECK_INT(num_parse_uint("5 ", 100, &u), -1);
	CHECK_INT(num_parse_uint("+1", 100, &u), -1);
	CHECK_INT(num_parse_uint("-1", 100, &u), -1);
	CHECK_INT(num_parse_uint("", 100, &u), -1);
	CHECK_INT(num_parse_uint(NULL, 100, &u), -1);
	CHECK_INT(u, 9);

	CHECK_INT(num_parse_int("-5", -10, 10, &i), 0);
	CHECK_INT(i, -5);
	CHECK_INT(num_parse_int("-9223372036854775808", LLONG_MIN, LLONG_MAX, &i), 0);
	CHECK(i == LLONG_MIN);
	CHECK_INT(num_parse_int("9223372036854775807", LLONG_MIN, LLONG_MAX, &i), 0);
	CHECK(i == LLONG_MAX);
	i = 9;
	CHECK_INT(num_parse_int("-9223372036854775809", LLONG_MIN, LLONG_MAX, &i), -1);
	CHECK_INT(num_parse_int("9223372036854775808", LLONG_MIN, LLONG_MAX, &i), -1);
	CHECK_INT(num_parse_int("-11", -10, 10, &i), -1);
	CHECK_INT(num_parse_int("--1", -10, 10, &i), -1);
	CHECK_INT(num_parse_int("-", -10, 10, &i), -1);
	CHECK_INT(num_parse_int("+1", -10, 10, &i), -1);
	CHECK_INT(i, 9);

	CHECK_INT(num_parse_decimal("2.5", &d), 0);
	CHECK(d == 2.5);
	CHECK_INT(num_parse_decimal(".5", &d), 0);
	CHECK(d == 0.5);
	CHECK_INT(num_parse_decimal("7.", &d), 0);
	CHECK(d == 7.0);
	CHECK_INT(num_parse_decimal("0.1", &d), 0);
	CHECK(d == 0.1);
	d = 9;
	CHECK_INT(num_parse_decimal("1e3", &d), -1);
	CHECK_INT(num_parse_decimal("0x10", &d), -1);
	CHECK_INT(num_parse_decimal("inf", &d), -1);
	CHECK_INT(num_parse_decimal("nan", &d), -1);
	CHECK_INT(num_parse_decimal(" 5", &d), -1);
	CHECK_INT(num_parse_decimal("+5", &d), -1);
	CHECK_INT(num_parse_decimal("-5", &d), -1);
	CHECK_INT(num_parse_decimal("1,5", &d), -1);
	CHECK_INT(num_parse_decimal("1.2.3", &d), -1);
	CHECK_INT(num_parse_decimal(".", &d), -1);
	CHECK_INT(num_parse_decimal("", &d), -1);
	CHECK_INT(num_parse_decimal("1234567890123456", &d), -1); /* 16 digits: not exact */
	CHECK(d == 9);
}

/* Counts: decimal digits or 2^K, never signed, never suffixed. */
static void test_count(void)
{
	long long v = -7;

	CHECK_INT(num_parse_count("0", &v), 0);
	CHECK_INT(v, 0);
	CHECK_INT(num_parse_count("100003", &v), 0);
	CHECK_INT(v, 100003);
	CHECK_INT(num_parse_count("2^20", &v), 0);
	CHECK_INT(v, 1048576);
	CHECK_INT(num_parse_count("2^0", &v), 0);
	CHECK_INT(v, 1);
	CHECK_INT(num_parse_count("2^62", &v), 0);
	CHECK_INT(v, 4611686018427387904LL);
	CHECK_INT(num_parse_count("9223372036854775807", &v), 0);
	CHECK_INT(v, LLONG_MAX);
	v = 5;
	CHECK_INT(num_parse_count("9223372036854775808", &v), -1);
	CHECK_INT(num_parse_count("2^63", &v), -1);
	CHECK_INT(num_parse_count("-1", &v), -1);
	CHECK_INT(num_parse_count("+1", &v), -1);
	CHECK_INT(num_parse_count("12a", &v), -1);
	CHECK_INT(num_parse_count("1M", &v), -1);
	CHECK_INT(num_parse_count(" 1", &v), -1);
	CHECK_INT(num_parse_count("", &v), -1);
	CHECK_INT(num_parse_count("2^", &v), -1);
	CHECK_INT(num_parse_count("2^-1", &v), -1);
	CHECK_INT(num_parse_count("3^2", &v), -1);
	CHECK_INT(v, 5); /* failures leave *out alone */
}

int main(void)
{
	test_num();
	test_count();
	return TEST_END();
}
