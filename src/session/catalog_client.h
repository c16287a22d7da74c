/*
 * catalog_client.h - the variant catalog as conform sees it.
 *
 * conform never links the kernels; it asks the worker (conform-worker
 * --catalog), which prints one line per variant in the format of
 * catalog_wire.h.  The same list serves suite validation, --list-variants
 * and the TUI.  Every string is allocated to its full length: a catalog
 * is read whole or refused, never truncated.
 *
 * Listing the catalog touches no GPU and takes milliseconds, so the query
 * has a short deadline, and the answer is bounded: at most
 * CATALOG_LINES_MAX lines and CATALOG_BYTES_MAX bytes (each line at most
 * CATALOG_WIRE_LINE_MAX).  A worker that stays silent, talks past a bound
 * or does not exit in time is killed, and the query fails saying which.
 */
#ifndef CONFORM_CATALOG_CLIENT_H
#define CONFORM_CATALOG_CLIENT_H

#include <stddef.h>

#include "common/catalog_wire.h"
#include "session/kernel_list.h"

/* Far above any real catalog (a few hundred variants of a few hundred
 * bytes each), far below what would hurt to hold. */
#define CATALOG_LINES_MAX 4096
#define CATALOG_BYTES_MAX (8 << 20)

struct catalog {
	struct catalog_entry *v;  /* v[0..count), in the worker's order */
	size_t count, cap;
	int has_kernels;          /* the worker was built with CUDA kernels */
	const char *archs;        /* e.g. "sm_80 sm_90 compute_90" */
	char *refused;            /* the worker's "error" record, while loading */
};

/* Runs worker_path --catalog (with --kernel FILE for each of kernels,
 * which may be NULL) and reads its answer, all within timeout_s
 * seconds.  Returns 0, or -1 with a message naming the line that could not
 * be read, the bound passed or how the worker failed (the catalog is then
 * empty and the worker gone; a worker out of time is said with the kernel
 * files it was reading); when the worker refused a kernel file, the
 * message is the worker's own line ("FILE:LINE: why").  A catalog without
 * variants is refused: the suites could only blame themselves for it. */
int catalog_load(struct catalog *cat, const char *worker_path, const struct kernel_list *kernels,
		 double timeout_s, char *err, size_t len);
const struct catalog_entry *catalog_lookup(const struct catalog *cat, const char *name);
void catalog_free(struct catalog *cat);

#endif
