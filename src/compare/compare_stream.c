/*
 * compare_stream.c - two sides' readers merged by key into items
 * (compare_stream.h).
 *
 * Each side's next entry is held until the item that pairs it has been
 * given out and the caller asks for the next one: only then is that side
 * read further, so an item's entries stay valid for as long as promised.
 */
#include <stdio.h>
#include <stdlib.h>

#include "compare_side.h"
#include "compare_stream.h"

struct compare_stream {
	struct db *db;
	struct compare_side *sides[2];  /* base, cand */
	const struct compare_filter *filter;
	double threshold;
	struct compare_reader *readers[2];
	const struct compare_entry *next[2]; /* each side's next entry; NULL: none left */
	int advance[2];                 /* next[k] is in the last item given: read on */
	struct compare_item item;
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

void compare_stream_close(struct compare_stream *s)
{
	if (!s)
		return;
	readers_close(s);
	free(s);
}

int compare_stream_start(struct compare_stream *s, char *err, size_t len)
{
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
	while ((k = compare_stream_next(s, &it, err, len)) > 0) {
		if (compare_tally(r, it) < 0) {
			snprintf(err, len, "out of memory");
			return -1;
		}
	}
	return k;
}
