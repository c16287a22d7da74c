/*
 * best.h - the best configuration of a kernel at a size, from the database,
 * by an objective (common/objective.h): time, energy or edp.
 *
 * By time, the database's view best_configs holds the best correct timed
 * configuration per device, variant, dtype, op and size, by the rule of
 * every "best" (timing_rank_cmp, timing.h: the lowest upper end of the
 * median's interval, then the lowest median).  By energy or edp every
 * correct timed result of those groups is a candidate (db_timed_each), and
 * objective_rank_cmp picks each group's best here, the first stored among
 * equals: a result without an energy figure never beats one with, and only
 * a group where none has one is answered by time.
 *
 * best_lookup() picks, for each device, dtype, op and column count that
 * has results for the kernel (a variant, or a glob: the best across
 * matching variants), the size asked for, or the nearest tuned size when
 * that one was not tuned (nearest in log2, the larger on a tie), and the
 * best variant there by the same objective.
 */
#ifndef CONFORM_BEST_H
#define CONFORM_BEST_H

#include <stddef.h>
#include <stdint.h>

#include "common/objective.h"
#include "db/db.h"

struct best_answer {
	struct db_tuned_row row;   /* the best configuration found */
	int64_t requested_n;
	int exact;                 /* row.n == requested_n */
};

/* What a stored row is ranked by: its median and interval, its energy per
 * launch and that figure's uncertainty. */
void best_row_key(const struct db_tuned_row *row, struct objective_key *k);

/* The best row by objective o of each device, variant, dtype, op, n and
 * cols that matches q (q->n is ignored), in db_best_each's order: by time
 * best_configs' rows.  Returns 0 with *out (malloc'd, the caller frees)
 * and *count, possibly 0; or -1 with a message. */
int best_rows(struct db *db, const struct db_tuned_query *q, enum objective o,
	      struct db_tuned_row **out, size_t *count, char *err, size_t len);

/* Every run's best that matches q (q->n: only that size when not 0), in
 * db_history_each's order, for conform history.  Returns as best_rows. */
int best_history(struct db *db, const struct db_tuned_query *q, struct db_tuned_row **out,
		 size_t *count, char *err, size_t len);

/* Looks up q (q->n: the size wanted) by objective o.  Returns 0 with *out
 * (malloc'd, the caller frees) and *count, possibly 0; or -1 with a
 * message. */
int best_lookup(struct db *db, const struct db_tuned_query *q, enum objective o,
		struct best_answer **out, size_t *count, char *err, size_t len);

/* The one-line reason a lookup found nothing: an empty database, no
 * results for this kernel (naming the variants that have some), or none
 * that pass the filters (q->n among them when n_filters). */
void best_explain_none(struct db *db, const char *db_path, const struct db_tuned_query *q,
		       int n_filters, char *msg, size_t len);

#endif
