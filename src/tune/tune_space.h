/*
 * tune_space.h - a variant's tuning space: the grid the tuner walks.
 *
 * A space is written as space-separated axes, each key=v1,v2,...
 * ("block=128,256,512 items=1,2,4 vec=1,4"), the form worker/variant.h
 * declares.  A configuration picks one value per axis.  Configurations are
 * numbered 0 .. count-1 in mixed radix, the last axis varying fastest (the
 * order of nested loops written in the space's order), so a search can talk
 * about configurations as plain integers.  Values keep the order they are
 * written in: "one step along an axis" means the next value in that list.
 *
 * A variant without a space has one configuration, the empty one (encoded
 * as ""): it runs with its default parameters.
 */
#ifndef CONFORM_TUNE_SPACE_H
#define CONFORM_TUNE_SPACE_H

#include <stddef.h>
#include <stdint.h>

#include "common/tunable_limits.h"

/* An axis per tunable (TUNABLES_MAX), each with the tunable's name and
 * the values of its space (tunable_limits.h). */
#define TUNE_CONFIGS_MAX (1u << 20) /* searches keep a cost per configuration */

struct tune_axis {
	char key[TUNABLE_NAME_MAX + 1];
	char values[TUNABLE_SPACE_MAX][TUNABLE_VALUE_MAX + 1];
	int count;
};

struct tune_space {
	struct tune_axis axes[TUNABLES_MAX];
	int naxes;
	uint64_t count;        /* configurations: product of the axes' value counts */
};

/* One configuration: the index of the chosen value on each axis. */
struct tune_config {
	int v[TUNABLES_MAX];
};

/* Parses a space ("" or NULL: no axes, one configuration).  Returns 0, or -1
 * with a one-line message naming the offending part. */
int tune_space_parse(struct tune_space *s, const char *text, char *err, size_t len);

uint64_t tune_space_count(const struct tune_space *s);

/* The configuration numbered `index` (< count). */
void tune_space_at(const struct tune_space *s, uint64_t index, struct tune_config *c);

/* The number of configuration c. */
uint64_t tune_space_index(const struct tune_space *s, const struct tune_config *c);

/* Writes "block=256,items=4,vec=4" (axes in space order), the text a
 * configuration's results are stored and found again under.  Returns 0, or
 * -1 when it does not fit. */
int tune_space_encode(const struct tune_space *s, const struct tune_config *c, char *buf,
		      size_t len);

/* The configurations one step away along one axis, by number, into out
 * (room for 2 * TUNABLES_MAX).  Returns how many. */
int tune_space_neighbors(const struct tune_space *s, uint64_t index, uint64_t *out);

#endif
