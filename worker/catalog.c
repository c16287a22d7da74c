/*
 * catalog.c - every variant this worker was built with, in one list.
 *
 * Each family exports a table (kernels/<family>/, kernels/harness/harness.c); this
 * file only strings the tables together.  Adding a family is adding its
 * table here.  The host-only harness table is always present, so a worker
 * built without CUDA still has a catalog to report.
 */
#ifdef HAVE_CONFIG_H
#include "config.h" /* HAVE_CUDA, CONFORM_CUDA_ARCHS */
#endif

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "worker/variant.h"

/* The CUDA architectures, as the build passed them to nvcc. */
#ifndef CONFORM_CUDA_ARCHS
#define CONFORM_CUDA_ARCHS ""
#endif

extern const struct variant_table harness_table;
#ifdef HAVE_CUDA
extern const struct variant_table block_table;
extern const struct variant_table warp_table;
extern const struct variant_table warp_redux_table;
extern const struct variant_table warp_tile_table;
extern const struct variant_table divergence_table;
extern const struct variant_table fault_table;
extern const struct variant_table device_table;
extern const struct variant_table device_rows_table;
extern const struct variant_table device_cub_table;
extern const struct variant_table warp_scan_table;
extern const struct variant_table warp_vote_table;
extern const struct variant_table warp_match_table;
extern const struct variant_table warp_histogram_table;
extern const struct variant_table warp_compact_table;
extern const struct variant_table warp_segmented_table;
extern const struct variant_table warp_argmax_table;
extern const struct variant_table warp_batched_table;
extern const struct variant_table divergence_batched_table;
extern const struct variant_table rows_op_table;
extern const struct variant_table rows_tile_table;
extern const struct variant_table rows_seed_table;
extern const struct variant_table softmax128_table;
extern const struct variant_table softmax_general_table;
extern const struct variant_table softmax_cudnn_table;
#endif

static const struct variant_table *const tables[] = {
	&harness_table,
#ifdef HAVE_CUDA
	&block_table,
	&warp_table,
	&warp_redux_table,
	&warp_tile_table,
	&divergence_table,
	&fault_table,
	&device_table,
	&device_rows_table,
	&device_cub_table,
	&warp_scan_table,
	&warp_vote_table,
	&warp_match_table,
	&warp_histogram_table,
	&warp_compact_table,
	&warp_segmented_table,
	&warp_argmax_table,
	&warp_batched_table,
	&divergence_batched_table,
	&rows_op_table,
	&rows_tile_table,
	&rows_seed_table,
	&softmax128_table,
	&softmax_general_table,
	&softmax_cudnn_table,
#endif
};

#define NTABLES (sizeof tables / sizeof tables[0])

/* The user's kernel files, added at start-up: process state of the
 * worker, which reads them once from its command line. */
static struct {
	const struct variant *v[CATALOG_ADDED_MAX];
	size_t count;
} added;

int catalog_add(const struct variant *v)
{
	if (added.count == CATALOG_ADDED_MAX || catalog_find(v->name))
		return -1;
	added.v[added.count++] = v;
	return 0;
}

const struct variant *catalog_at(size_t i)
{
	for (size_t t = 0; t < NTABLES; t++) {
		if (i < tables[t]->count)
			return &tables[t]->variants[i];
		i -= tables[t]->count;
	}
	return i < added.count ? added.v[i] : NULL;
}

size_t catalog_count(void)
{
	size_t n = 0;

	for (size_t t = 0; t < NTABLES; t++)
		n += tables[t]->count;
	return n + added.count;
}

const struct variant *catalog_find(const char *name)
{
	for (size_t t = 0; t < NTABLES; t++)
		for (size_t i = 0; i < tables[t]->count; i++)
			if (strcmp(tables[t]->variants[i].name, name) == 0)
				return &tables[t]->variants[i];
	for (size_t i = 0; i < added.count; i++)
		if (strcmp(added.v[i]->name, name) == 0)
			return added.v[i];
	return NULL;
}

const void *catalog_spec(const struct case_args *a, char *msg, size_t len)
{
	const struct variant *v = catalog_find(a->variant);

	if (!v || !v->spec) {
		snprintf(msg, len, "%s: %s", a->variant, v ? "declares no spec" : "not in the catalog");
		return NULL;
	}
	return v->spec;
}

const void *catalog_spec_run(const struct case_args *a, struct case_result *r)
{
	char msg[RESULT_MESSAGE_MAX];
	const void *spec = catalog_spec(a, msg, sizeof msg);

	if (!spec) {
		r->err_norm = -1;
		case_result_set(r, OUTCOME_INVALID, "%s", msg);
	}
	return spec;
}

int catalog_has_kernels(void)
{
#ifdef HAVE_CUDA
	return 1;
#else
	return 0;
#endif
}

const char *catalog_cuda_archs(void)
{
#ifdef HAVE_CUDA
	return CONFORM_CUDA_ARCHS;
#else
	return "";
#endif
}
