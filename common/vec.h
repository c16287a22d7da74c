/*
 * vec.h - growable arrays: the one place that grows an array with realloc.
 *
 * A growable array is three lvalues its owner already has: a typed pointer
 * to the elements, the count in use and the count allocated, e.g.
 *
 *     struct case_spec *cases;  size_t count, cap;
 *
 *     if (vec_push(s->cases, s->count, s->cap, c) < 0)
 *             return fail(l, line, "out of memory");
 *
 * Keeping the owner's own typed fields (rather than a struct with a void
 * pointer) leaves every reader's s->cases[i] as it was and lets the
 * compiler check the element type.  Growth doubles, so n pushes cost O(n).
 *
 * Guarantees: on failure (out of memory, or a size that would overflow
 * size_t) the macros return -1 and leave the array exactly as it was, so
 * the owner can still use or free it; on success they return 0.  The
 * arguments are evaluated more than once: pass plain lvalues, never
 * expressions with side effects.  An all-zero triple (NULL, 0, 0) is an
 * empty array, and vec_free returns an array to that state.
 */
#ifndef CONFORM_VEC_H
#define CONFORM_VEC_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The first allocation holds this many elements. */
#define VEC_MIN_CAP 8

/* Makes *cap >= need, reallocating the array whose pointer is stored at
 * items_ptr (elements of `size` bytes).  Use through the macros below.
 * The pointer travels through memcpy because items_ptr points to a typed
 * pointer (struct case_spec **), which may not be written as a void *. */
static inline int vec_grow(void *items_ptr, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap : VEC_MIN_CAP;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return -1;
		n *= 2;
	}
	if (size && n > SIZE_MAX / size)
		return -1;
	void *items;
	memcpy(&items, items_ptr, sizeof items);
	void *grown = realloc(items, n * size);
	if (!grown)
		return -1;
	memcpy(items_ptr, &grown, sizeof grown);
	*cap = n;
	return 0;
}

/* Room for `more` elements after the len in use: 0, or -1 (unchanged). */
#define vec_reserve(items, len, cap, more) \
	((len) > SIZE_MAX - (size_t)(more) ? -1 : \
	 vec_grow(&(items), &(cap), (len) + (size_t)(more), sizeof *(items)))

/* Appends value (an element, copied): 0, or -1 (unchanged). */
#define vec_push(items, len, cap, value) \
	(vec_reserve(items, len, cap, 1) < 0 ? -1 : ((items)[(len)++] = (value), 0))

/* Frees the elements' storage (not what they point to); empty again. */
#define vec_free(items, len, cap) \
	do { free(items); (items) = NULL; (len) = 0; (cap) = 0; } while (0)

#endif
