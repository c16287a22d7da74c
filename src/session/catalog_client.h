/*
 * catalog_client.h - the variant catalog as conform sees it.
 *
 * conform never links the kernels; it asks the worker (conform-worker
 * --catalog), which prints one line per variant in the format of
 * catalog_wire.h.  The same list serves suite validation, --list-variants
 * and the TUI.  Every string is allocated to its full length: a catalog
 * is read whole or refused, never truncated.
 */
#ifndef CONFORM_CATALOG_CLIENT_H
#define CONFORM_CATALOG_CLIENT_H

#include <stddef.h>

#include "catalog_wire.h"

struct catalog {
	struct catalog_entry *v;  /* v[0..count), in the worker's order */
	size_t count, cap;
	int has_kernels;          /* the worker was built with CUDA kernels */
	const char *archs;        /* e.g. "sm_80 sm_90 compute_90" */
};

/* Runs worker_path --catalog and reads its answer.  Returns 0, or -1
 * with a message naming the line that could not be read or how the
 * worker failed (the catalog is then empty). */
int catalog_load(struct catalog *cat, const char *worker_path, char *err, size_t len);
const struct catalog_entry *catalog_lookup(const struct catalog *cat, const char *name);
void catalog_free(struct catalog *cat);

#endif
