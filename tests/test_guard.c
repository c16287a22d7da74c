/*
 * test_guard.c - reading guard zones (worker/guard.h) without a GPU:
 * intact guards pass, and a byte changed after or before a buffer is
 * named with its offset from the buffer's start.
 */
#include <string.h>

#include "tests/test.h"
#include "worker/guard.h"

int main(void)
{
	static unsigned char before[GUARD_BYTES], after[GUARD_BYTES];
	char msg[256];
	size_t changed;

	memset(before, GUARD_FILL, sizeof before);
	memset(after, GUARD_FILL, sizeof after);
	CHECK_INT(guard_first_changed(after, sizeof after, &changed), -1);
	CHECK_INT(changed, 0);
	CHECK_INT(guard_check("out", 16, before, after, msg, sizeof msg), 0);

	/* A float written one element past a 4-element output: bytes 0..3
	 * after it, 16..19 of the buffer. */
	memset(after, 0, 4);
	CHECK_INT(guard_first_changed(after, sizeof after, &changed), 0);
	CHECK_INT(changed, 4);
	CHECK_INT(guard_check("out", 16, before, after, msg, sizeof msg), -1);
	CHECK_STR(msg, "wrote past the end of out: offset 16 of a 16-byte buffer (4 guard bytes changed)");
	memset(after, GUARD_FILL, sizeof after);
	after[4] = 0;
	CHECK_INT(guard_check("out", 16, before, after, msg, sizeof msg), -1);
	CHECK_STR(msg, "wrote past the end of out: offset 20 of a 16-byte buffer (1 guard byte changed)");
	memset(after, GUARD_FILL, sizeof after);

	/* out[-1] of a float: the last 4 bytes of the guard before. */
	memset(before + GUARD_BYTES - 4, 0, 4);
	CHECK_INT(guard_check("scratch", 1288, before, after, msg, sizeof msg), -1);
	CHECK_STR(msg, "wrote before the start of scratch: offset -1 (4 guard bytes changed)");
	memset(before, GUARD_FILL, sizeof before);
	before[0] = 1; /* the far end of the guard */
	CHECK_INT(guard_check("in", 8, before, after, msg, sizeof msg), -1);
	CHECK_STR(msg, "wrote before the start of in: offset -4096 (1 guard byte changed)");

	/* A byte that happens to hold the fill is not a change. */
	memset(before, GUARD_FILL, sizeof before);
	after[GUARD_BYTES - 1] = GUARD_FILL;
	CHECK_INT(guard_check("out", 4, before, after, msg, sizeof msg), 0);
	printf("%d checks, %d failed\n", test_checks, test_failures);
	return test_failures ? 1 : 0;
}
