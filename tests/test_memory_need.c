/*
 * test_memory_need.c - a case's memory counted and said: the sizes in
 * words, the sum that never wraps, and the SKIP of a problem too large
 * for the machine naming each buffer and what the machine has.
 */
#include <stdint.h>
#include <string.h>

#include "tests/test.h"
#include "worker/guard.h"
#include "worker/memory_need.h"

static void test_bytes(void)
{
	char b[32];

	memory_bytes_format(0, b, sizeof b);
	CHECK_STR(b, "0 B");
	memory_bytes_format(4, b, sizeof b);
	CHECK_STR(b, "4 B");
	memory_bytes_format(999, b, sizeof b);
	CHECK_STR(b, "999 B");
	memory_bytes_format(1000, b, sizeof b);
	CHECK_STR(b, "1.0 kB");
	memory_bytes_format(999960, b, sizeof b); /* rounds to the next unit */
	CHECK_STR(b, "1.0 MB");
	memory_bytes_format((size_t)1 << 33, b, sizeof b); /* 2^31 floats */
	CHECK_STR(b, "8.6 GB");
	memory_bytes_format((size_t)139 << 30, b, sizeof b);
	CHECK_STR(b, "149.3 GB");
	memory_bytes_format(SIZE_MAX, b, sizeof b);
	CHECK_STR(b, "18.4 EB");
}

/* A kernel declaring @scratch 4 * n (then 8 * n) at n = 2^31 + 3 in f32,
 * on a device with too little free. */
static void test_scratch_too_large(void)
{
	const size_t n = ((size_t)1 << 31) + 3;
	struct memory_need m;
	struct case_result r;

	memory_need_init(&m, "device");
	memory_need_add(&m, "input", 4 * n, 2 * GUARD_BYTES);
	memory_need_add(&m, "output", 4, 2 * GUARD_BYTES);
	memory_need_add(&m, "scratch", 4 * n, 2 * GUARD_BYTES);
	memory_need_add(&m, NULL, 0, 256); /* the audit's report: counted, not named */
	CHECK_INT(m.count, 3);
	CHECK(m.total == 8 * n + 4 + 6 * GUARD_BYTES + 256);

	memset(&r, 0, sizeof r);
	CHECK_INT(memory_need_check(&m, 16000000000u, &r), -1);
	CHECK_INT(r.outcome, OUTCOME_SKIPPED);
	CHECK_STR(r.message, "needs 17.2 GB of device memory (input 8.6 GB, output 4 B, scratch 8.6 GB), "
			     "the device has 16.0 GB free");
	/* With the input and scratch of 8 n bytes: 25.8 GB. */
	memory_need_init(&m, "device");
	memory_need_add(&m, "input", 4 * n, 2 * GUARD_BYTES);
	memory_need_add(&m, "output", 4, 2 * GUARD_BYTES);
	memory_need_add(&m, "scratch", 8 * n, 2 * GUARD_BYTES);
	CHECK_INT(memory_need_check(&m, 21300000000u, &r), -1);
	CHECK_STR(r.message, "needs 25.8 GB of device memory (input 8.6 GB, output 4 B, scratch 17.2 GB), "
			     "the device has 21.3 GB free");

	/* What fits is not refused, and r is left alone. */
	memset(&r, 0, sizeof r);
	r.outcome = OUTCOME_CORRECT;
	CHECK_INT(memory_need_check(&m, (size_t)139 << 30, &r), 0);
	CHECK_INT(r.outcome, OUTCOME_CORRECT);
	CHECK_STR(r.message, "");
	CHECK_INT(memory_need_check(&m, m.total, &r), 0);
	CHECK_INT(memory_need_check(&m, m.total - 1, &r), -1);

	/* An allocation that failed after the check passed says so. */
	memory_need_skip(&m, (size_t)139 << 30, "cudaMalloc ran out of memory", &r);
	CHECK_INT(r.outcome, OUTCOME_SKIPPED);
	CHECK_STR(r.message, "needs 25.8 GB of device memory (input 8.6 GB, output 4 B, scratch 17.2 GB), "
			     "the device has 149.3 GB free; cudaMalloc ran out of memory");
}

static void test_host(void)
{
	struct memory_need m;
	struct case_result r;

	memset(&r, 0, sizeof r);
	memory_need_init(&m, "host");
	memory_need_add(&m, "input", (size_t)1 << 33, 0);
	memory_need_add(&m, "reference", 0, 0);
	CHECK_INT(memory_need_check(&m, (size_t)4 << 30, &r), -1);
	CHECK_STR(r.message, "needs 8.6 GB of host memory (input 8.6 GB, reference 0 B), "
			     "the host has 4.3 GB available");
	/* The host says what it has (this one has some). */
	CHECK(memory_host_available() > 0);
}

/* A need past the address space saturates: never a small sum that fits. */
static void test_saturates(void)
{
	struct memory_need m;
	struct case_result r;

	memory_need_init(&m, "device");
	memory_need_add(&m, "input", SIZE_MAX / 2 + 1, 0);
	memory_need_add(&m, "scratch", SIZE_MAX / 2 + 1, 2 * GUARD_BYTES);
	CHECK(m.total == SIZE_MAX);
	memset(&r, 0, sizeof r);
	CHECK_INT(memory_need_check(&m, (size_t)139 << 30, &r), -1);
	CHECK_CONTAINS(r.message, "needs 18.4 EB of device memory");

	/* More parts than are named are still counted. */
	memory_need_init(&m, "host");
	for (int k = 0; k < MEMORY_NEED_PARTS + 2; k++)
		memory_need_add(&m, "part", 10, 0);
	CHECK_INT(m.count, MEMORY_NEED_PARTS);
	CHECK(m.total == 10 * (MEMORY_NEED_PARTS + 2));
}

int main(void)
{
	test_bytes();
	test_scratch_too_large();
	test_host();
	test_saturates();
	return TEST_END();
}
