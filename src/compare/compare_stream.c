/*
 * compare_stream.c - two sides' readers merged by key into items
 * (compare_stream.h).
 *
 * Each side's next entry is held until the item that pairs it has been
 * given out and the caller asks for the next one: only then is that side
 * read further, so an item's entries stay valid for as long as promised.
 * The items a listing pass needs are kept from the tallying pass when
 * they fit (kept_add), so a comparison that lists a few changes sorts
 * each side once.
 */
#include <stdio.h>
#include <stdlib.h>

#include "compare/compare_side.h"
#include "compare/compare_stream.h"

/* An item kept from the tallying pass, with copies of its entries. */
struct kept_item {
	struct compare_item item;
	struct compare_entry base, cand;
};

/* The most the kept items may take: a few thousand, the lists a person
 * reads; a comparison that lists more is read again from the database. */
#define KEPT_BYTES_MAX ((size_t)16 << 20)

struct compare_stream {
	struct db *db;
	struct compare_side *sides[2];  /* base, cand */
	const struct compare_filter *filter;
	double threshold;
	struct compare_reader *readers[2];
	const struct compare_entry *next[2]; /* each side's next entry; NULL: none left */
	int advance[2];                 /* next[k] is in the last item given: read on */
	struct compare_item item;
	/* The items the printing lists (a change, or timed), kept by the
	 * tallying pass while they fit in KEPT_BYTES_MAX; past it, the timed
	 * ones without a change or a verdict (SAME) are let go first
	 * (same_dropped), then all (kept_whole 0).  A pass they serve is
	 * replayed from here instead of sorting both sides again. */
	struct kept_item *kept;
	size_t nkept, capkept;
	int kept_whole, same_dropped;
	int replaying;
	size_t replay;
};

int compare_stream_open(struct db *db, struct compare_side *base, struct compare_side *cand,
			const struct compare_filter *f, double threshold, struct compare_stream **out, char *err,
			size_t len)
{
	struct compare_stream *s = calloc(1, sizeof *s);

	*out = NULL;
	if (!s) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	s->db = db;
	s->sides[0] = base;
	s->sides[1] = cand;
	s->filter = f;
	s->threshold = threshold;
	*out = s;
	return 0;
}

static void readers_close(struct compare_stream *s)
{
	for (int k = 0; k < 2; k++) {
		compare_reader_close(s->readers[k]);
		s->readers[k] = NULL;
	}
}

static void kept_drop(struct compare_stream *s)
{
	free(s->kept);
	s->kept = NULL;
	s->nkept = s->capkept = 0;
	s->kept_whole = 0;
}

void compare_stream_close(struct compare_stream *s)
{
	if (!s)
		return;
	readers_close(s);
	free(s->kept);
	free(s);
}

/* An item whose only news is a SAME timing, its energy the same or not
 * measured: listed only by -v, JSON and JUnit. */
static int same_only(const struct compare_item *it)
{
	return it->change == CHANGE_NONE && it->verdict == VERDICT_SAME && it->energy != ENERGY_VERDICT_MORE &&
	       it->energy != ENERGY_VERDICT_LESS;
}

/* Lets go of the SAME-only items, and of all when that leaves less than
 * half the room free. */
static void kept_shrink(struct compare_stream *s)
{
	size_t j = 0;

	for (size_t i = 0; i < s->nkept; i++)
		if (!same_only(&s->kept[i].item))
			s->kept[j++] = s->kept[i];
	s->nkept = j;
	s->same_dropped = 1;
	if (s->nkept >= s->capkept / 2)
		kept_drop(s);
}

/* Keeps a copy of an item the printing may list, while there is room. */
static void kept_add(struct compare_stream *s, const struct compare_item *it)
{
	if (!s->kept_whole || (it->change == CHANGE_NONE && !it->timed) ||
	    (s->same_dropped && same_only(it)))
		return;
	if (s->nkept == s->capkept) {
		size_t cap = s->capkept ? 2 * s->capkept : 64;
		if (cap * sizeof *s->kept > KEPT_BYTES_MAX) {
			if (s->same_dropped) {
				kept_drop(s);
				return;
			}
			kept_shrink(s);
			kept_add(s, it);
			return;
		}
		struct kept_item *k = realloc(s->kept, cap * sizeof *k);
		if (!k) {
			kept_drop(s);
			return;
		}
		s->kept = k;
		s->capkept = cap;
	}
	struct kept_item *k = &s->kept[s->nkept++];
	k->item = *it;
	if (it->base)
		k->base = *it->base;
	if (it->cand)
		k->cand = *it->cand;
}

int compare_stream_start_listing(struct compare_stream *s, int same_too, char *err, size_t len)
{
	if (s->kept_whole && !(same_too && s->same_dropped)) {
		readers_close(s);
		s->replaying = 1;
		s->replay = 0;
		return 0;
	}
	return compare_stream_start(s, err, len);
}

int compare_stream_start(struct compare_stream *s, char *err, size_t len)
{
	s->replaying = 0;
	readers_close(s);
	for (int k = 0; k < 2; k++) {
		if (compare_reader_open(s->db, s->sides[k], s->filter, &s->readers[k], err, len) < 0) {
			readers_close(s);
			return -1;
		}
		s->next[k] = NULL;
		s->advance[k] = 1;
	}
	return 0;
}

int compare_stream_next(struct compare_stream *s, const struct compare_item **it, char *err, size_t len)
{
	if (s->replaying) {
		if (s->replay == s->nkept)
			return 0;
		struct kept_item *k = &s->kept[s->replay++];
		s->item = k->item;
		s->item.base = k->item.base ? &k->base : NULL;
		s->item.cand = k->item.cand ? &k->cand : NULL;
		*it = &s->item;
		return 1;
	}
	for (int k = 0; k < 2; k++) {
		if (!s->advance[k])
			continue;
		int got = compare_reader_next(s->readers[k], &s->next[k], err, len);
		if (got < 0)
			return -1;
		if (got == 0)
			s->next[k] = NULL;
		s->advance[k] = 0;
	}
	if (!s->next[0] && !s->next[1])
		return 0;
	int order = compare_pair_order(s->next[0], s->next[1]);
	s->advance[0] = order <= 0;
	s->advance[1] = order >= 0;
	compare_item_make(s->advance[0] ? s->next[0] : NULL, s->advance[1] ? s->next[1] : NULL, s->threshold,
			  &s->item);
	*it = &s->item;
	return 1;
}

int compare_stream_tally(struct compare_stream *s, struct compare_result *r, char *err, size_t len)
{
	const struct compare_item *it;
	int k;

	if (compare_stream_start(s, err, len) < 0)
		return -1;
	kept_drop(s);
	s->kept_whole = 1;
	s->same_dropped = 0;
	while ((k = compare_stream_next(s, &it, err, len)) > 0) {
		if (compare_tally(r, it) < 0) {
			snprintf(err, len, "out of memory");
			return -1;
		}
		kept_add(s, it);
	}
	if (k < 0)
		kept_drop(s);
	return k;
}
