/*
 * catalog_client.h - the variant catalog as conform sees it.
 *
 * conform never links the kernels; it asks the worker (conform-worker
 * --catalog), which prints one line per variant.  The same list serves
 * suite validation, --list-variants and the TUI.
 */
#ifndef CONFORM_CATALOG_CLIENT_H
#define CONFORM_CATALOG_CLIENT_H

#include <stddef.h>

struct catalog_entry {
	char name[64];
	int gpu;              /* needs a CUDA device */
	char dtypes[64];      /* "f32,i32" */
	char summary[256];
	char contract[512];
	char tunables[256];
	char space[512];      /* tuning space "block=128,256 items=1,2"; "" when none */
};

struct catalog {
	struct catalog_entry *v;
	size_t count;
	int has_kernels;      /* the worker was built with CUDA kernels */
	char archs[128];      /* e.g. "sm_80 sm_90 compute_90" */
};

int catalog_load(struct catalog *cat, const char *worker_path, char *err, size_t len);
const struct catalog_entry *catalog_lookup(const struct catalog *cat, const char *name);
void catalog_free(struct catalog *cat);

#endif
