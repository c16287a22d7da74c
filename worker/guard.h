/*
 * guard.h - guard zones: poisoned bytes before and after every device
 * buffer a kernel is given (input, output, scratch), checked after each
 * launch.
 *
 * A kernel that writes one element past its output, or before it, changes
 * no element conform compares; only the bytes around the buffer show it.
 * GUARD_BYTES on each side keep every buffer's start at the allocation's
 * 256-byte alignment, and are wide enough for the usual mistakes (an
 * element or a vector past the end, a warp's worth of stores).  A write
 * further away is compute-sanitizer's to find.
 */
#ifndef CONFORM_GUARD_H
#define CONFORM_GUARD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GUARD_BYTES 4096
#define GUARD_FILL 0xCB

/* Which side of a buffer a guard is. */
enum guard_side { GUARD_BEFORE, GUARD_AFTER };

/* The first byte of guard[0..len) that is not GUARD_FILL, or -1; *changed
 * (when not NULL) counts them all. */
int64_t guard_first_changed(const unsigned char *guard, size_t len, size_t *changed);

/*
 * Checks the two guards of buffer `name` (of `bytes` bytes); on a changed
 * byte writes the finding into msg and returns -1:
 *   "wrote past the end of out: offset 20 of a 16-byte buffer (4 bytes changed)"
 *   "wrote before the start of scratch: offset -4 (4 bytes changed)"
 * The guard before is the GUARD_BYTES just below the buffer, the guard
 * after the GUARD_BYTES from its end.  Returns 0 when both are intact.
 */
int guard_check(const char *name, size_t bytes, const unsigned char *before,
		const unsigned char *after, char *msg, size_t len);

#ifdef __cplusplus
}
#endif
#endif
