/*
 * tune_refs.h - what a stored timing is measured against: the copy
 * bandwidth behind its "% copy" and the baseline behind its "x base", one
 * rule for every reader of the database (the interface's Results table,
 * its best view and its Plot).
 *
 * The tuner measures a variant's family references (tune.h, struct
 * tune_family) in the run that tunes it: the copy once per device (stored
 * in device_bandwidth), the baseline at every problem it tunes.  A reader
 * finds the family in its catalog.  A variant the reader's catalog does not
 * place (a kernel file the reader was not given, or given to a build
 * without kernels; a database from a machine with other kernels) had its
 * family's references measured all the same: its baseline is then the one
 * some family names that was measured beside it, at the same problem, when
 * exactly one family's is; and without a family, the device's copy
 * bandwidth when one copy variant alone measured it.
 */
#ifndef CONFORM_TUNE_REFS_H
#define CONFORM_TUNE_REFS_H

#include <stddef.h>
#include <stdint.h>

#include "session/catalog_client.h"

struct db;

/* 1 when `variant` was measured beside the result in question (the same
 * run or device, and problem: the caller's rows say). */
typedef int (*tune_beside_fn)(void *ctx, const char *variant);

struct tune_stored_refs {
	const char *copy;          /* the family's copy variant; NULL: unknown */
	double copy_gbps;          /* the device's stored copy bandwidth; 0: none stored */
	const char *baseline;      /* the baseline of the problem's shape; NULL: none known */
};

/* The references of a result of `variant` on device device_id (0: the host)
 * at a problem of cols columns (0: flat), as the header says; beside may be
 * NULL (nothing is known of what was measured beside it).  The names stay
 * the catalog's.  Returns 0 with *out (its fields NULL and 0 where
 * unknown), or -1 with a message when the database cannot be read. */
int tune_refs_stored(const struct catalog *cat, struct db *db, const char *variant, int64_t cols,
		     int64_t device_id, tune_beside_fn beside, void *ctx, struct tune_stored_refs *out,
		     char *err, size_t len);

#endif
