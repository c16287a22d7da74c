/*
 * tune_refs.c - what a stored timing is measured against (see
 * tune_refs.h).
 */
#include "tune/tune_refs.h"

#include <string.h>

#include "db/db.h"
#include "tune/tune.h"

static int same(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

/* The family whose baseline of the shape was measured beside the result,
 * when exactly one family's was (two families naming the same references
 * are one).  Returns 1 with *f, 0 when none or several. */
static int family_beside(const struct catalog *cat, int64_t cols, tune_beside_fn beside, void *ctx,
			 struct tune_family *f)
{
	int found = 0;
	const char *asked = NULL; /* a family's variants sit together: ask once */
	for (size_t i = 0; i < cat->count; i++) {
		struct tune_family g;
		const struct catalog_entry *e = &cat->v[i];
		const char *base = cols > 0 ? e->baseline_rows : e->baseline;
		if (!base || !*base || (asked && strcmp(asked, base) == 0))
			continue;
		asked = base;
		if (!tune_family_of(cat, e->name, &g) || !beside(ctx, base))
			continue;
		if (found && !(same(g.copy, f->copy) && g.copy_n == f->copy_n && same(g.baseline, f->baseline) &&
			       same(g.baseline_segmented, f->baseline_segmented)))
			return 0;
		*f = g;
		found = 1;
	}
	return found;
}

int tune_refs_stored(const struct catalog *cat, struct db *db, const char *variant, int64_t cols,
		     int64_t device_id, tune_beside_fn beside, void *ctx, struct tune_stored_refs *out,
		     char *err, size_t len)
{
	struct tune_family f;
	int known = tune_family_of(cat, variant, &f) || (beside && family_beside(cat, cols, beside, ctx, &f));
	int got = 0;

	memset(out, 0, sizeof *out);
	if (known) {
		out->copy = f.copy;
		out->baseline = cols > 0 ? f.baseline_segmented : f.baseline;
	}
	if (!db)
		return 0;
	if (known && f.copy)
		got = db_bandwidth_get(db, device_id, f.copy, &out->copy_gbps, err, len);
	else if (!known)
		got = db_bandwidth_only(db, device_id, &out->copy_gbps, err, len);
	if (got <= 0)
		out->copy_gbps = 0;
	return got < 0 ? -1 : 0;
}
