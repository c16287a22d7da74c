/*
 * compare_stream.h - conform compare of two sides of any size: the items,
 * in key order, paired from one reader per side (compare_side.h), read
 * from the database again for each pass the printing makes, unless the
 * items it lists fit in a bounded memory.  Nothing else but the current
 * item, the tallies and the best per problem is kept, so memory does not
 * grow with the runs.
 *
 * The passes agree only if the database does not change between them:
 * the caller holds one read snapshot (db_snapshot_begin) around them all.
 */
#ifndef CONFORM_COMPARE_STREAM_H
#define CONFORM_COMPARE_STREAM_H

#include <stddef.h>

#include "compare/compare.h"
#include "db/db.h"

struct compare_stream;

/* A comparison of base and cand (ids, nruns, label and run set) over the
 * entries f takes; f and the sides must outlive it.  Returns 0, or -1 with
 * a message. */
int compare_stream_open(struct db *db, struct compare_side *base, struct compare_side *cand,
			const struct compare_filter *f, double threshold, struct compare_stream **out, char *err,
			size_t len);
void compare_stream_close(struct compare_stream *s);

/* Starts a pass from the first item.  Returns 0, or -1 with a message. */
int compare_stream_start(struct compare_stream *s, char *err, size_t len);

/* Starts a pass over the items a printer lists: those with a change, and
 * the timed ones (same_too: with a SAME verdict and the same or no energy
 * verdict as well; without it, an item with neither may come too).  Replayed from memory when the tallying
 * pass (compare_stream_tally) could keep them, else read as
 * compare_stream_start reads.  Returns 0, or -1 with a message. */
int compare_stream_start_listing(struct compare_stream *s, int same_too, char *err, size_t len);

/* The next item of the pass: 1 with *it (the stream's, valid until its
 * next call), 0 after the last, -1 on error with a message. */
int compare_stream_next(struct compare_stream *s, const struct compare_item **it, char *err, size_t len);

/* A whole pass, counting every item into r (compare_result_init first;
 * r->items stays empty).  Returns 0, or -1 with a message. */
int compare_stream_tally(struct compare_stream *s, struct compare_result *r, char *err, size_t len);

#endif
