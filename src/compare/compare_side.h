/*
 * compare_side.h - one side of conform compare as the database holds it:
 * the run (or the runs of a tag) it stands for, and its entries read back
 * in key order, filtered, the newest of each key, every string printable
 * as the store reads it (db_column_text).
 *
 * A reader holds one row at a time, so a side of any size is read in
 * bounded memory; compare_side_load keeps them all, for a caller that
 * shows them in its own order (the interface's runs pane).
 */
#ifndef CONFORM_COMPARE_SIDE_H
#define CONFORM_COMPARE_SIDE_H

#include <stddef.h>
#include <stdint.h>

#include "compare/compare.h"
#include "db/db.h"

/* Makes s the side of run `id` alone ("run 12"): its ids, label and run
 * row; its entries are still to read.  Returns 1, 0 when there is no such
 * run, -1 on error with a message. */
int compare_side_of_run(struct db *db, int64_t id, struct compare_side *s, char *err, size_t len);

/* Reads the entries of the side's runs (ids, nruns and label already set)
 * that f takes, ordered by key (compare_key_cmp), one per key: the one of
 * the highest result id, so the shards of a tagged run, or a case run
 * twice, count once.  Opening makes the side's run text and label safe for
 * a terminal too.  open returns 0, or -1 with a message; next returns 1
 * with *e (the reader's, valid until its next call), 0 after the last
 * entry, -1 on error with a message. */
struct compare_reader;
int compare_reader_open(struct db *db, struct compare_side *s, const struct compare_filter *f,
			struct compare_reader **out, char *err, size_t len);
int compare_reader_next(struct compare_reader *r, const struct compare_entry **e, char *err, size_t len);
void compare_reader_close(struct compare_reader *r);

/* Reads the side's entries, as a reader gives them, into s->entries.
 * Returns 0, or -1 with a message. */
int compare_side_load(struct db *db, struct compare_side *s, const struct compare_filter *f, char *err,
		      size_t len);
void compare_side_free(struct compare_side *s);

#endif
