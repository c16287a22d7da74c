/*
 * guard.c - reading guard zones (see guard.h).  The device side fills and
 * gathers them (audit.cu); what a changed byte means is decided here, on
 * the host, where it is tested without a GPU.
 */
#include "worker/guard.h"

#include <stdio.h>

int64_t guard_first_changed(const unsigned char *guard, size_t len, size_t *changed)
{
	int64_t first = -1;
	size_t k = 0;

	for (size_t i = 0; i < len; i++) {
		if (guard[i] == GUARD_FILL)
			continue;
		if (first < 0)
			first = (int64_t)i;
		k++;
	}
	if (changed)
		*changed = k;
	return first;
}

int guard_check(const char *name, size_t bytes, const unsigned char *before,
		const unsigned char *after, char *msg, size_t len)
{
	size_t k_before = 0, k_after = 0;
	/* The byte nearest the buffer is the last of the guard before it. */
	int64_t lo = -1;

	for (size_t i = GUARD_BYTES; i-- > 0;)
		if (before[i] != GUARD_FILL) {
			if (lo < 0)
				lo = (int64_t)(GUARD_BYTES - i);
			k_before++;
		}
	const int64_t hi = guard_first_changed(after, GUARD_BYTES, &k_after);

	if (hi >= 0) {
		snprintf(msg, len, "wrote past the end of %s: offset %lld of a %zu-byte buffer "
			 "(%zu guard byte%s changed)", name, (long long)bytes + (long long)hi, bytes,
			 k_after, k_after == 1 ? "" : "s");
		return -1;
	}
	if (lo >= 0) {
		snprintf(msg, len, "wrote before the start of %s: offset -%lld (%zu guard byte%s changed)",
			 name, (long long)lo, k_before, k_before == 1 ? "" : "s");
		return -1;
	}
	return 0;
}
