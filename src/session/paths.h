/*
 * paths.h - where conform finds its worker program and its suites.
 *
 * An in-tree build finds both next to the conform binary (or in the source
 * tree for out-of-tree builds); an installed one finds them under libexec and
 * share.  Environment variables override either: CONFORM_WORKER,
 * CONFORM_SUITES.
 */
#ifndef CONFORM_PATHS_H
#define CONFORM_PATHS_H

#include <stddef.h>

/* Returns 0 and the worker's path, or -1 with a message. */
int paths_worker(char *buf, size_t len, char *err, size_t errlen);

/* Returns 0 and the suites directory, or -1 with a message. */
int paths_suites(char *buf, size_t len, char *err, size_t errlen);

#endif
