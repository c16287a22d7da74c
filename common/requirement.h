/*
 * requirement.h - what a case needs of the device ("sm>=80", "mem>=16"),
 * read the same way from a suite's requires= and a kernel file's
 * @requires.
 */
#ifndef CONFORM_REQUIREMENT_H
#define CONFORM_REQUIREMENT_H

#include <stddef.h>

#include "common/case.h"

/* Parses one requirement "sm>=80" of len bytes at p: 0, or -1 for an
 * unknown quantity, -2 for a malformed one. */
int requirement_parse(const char *p, size_t len, struct requirement *r);

/* Parses a comma list "sm>=80,mem>=16" into req[0..max).  Returns the
 * count, or -1 with why: one line that quotes the list after key (the
 * suite's "requires=", a kernel file's "@requires "), without a
 * location, which the caller adds. */
int requirement_parse_list(const char *key, const char *list, struct requirement *req, int max, char *why,
			   size_t len);

#endif
