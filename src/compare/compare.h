/*
 * compare.h - what conform compare decides about two runs, apart from where
 * the runs come from (compare_side.c, compare_stream.c) and how the answer
 * is printed (compare_print.c): the verdict on one configuration's timing
 * and, apart from it, on its energy, the kind of change of one case's
 * status, the pairing of two runs' entries and the tallies of a comparison.
 */
#ifndef CONFORM_COMPARE_H
#define CONFORM_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "common/case.h"
#include "common/energy.h"
#include "common/status.h"
#include "common/timing.h"
#include "db/db.h"

/* The default --threshold: a configuration is SLOWER (or FASTER) only when
 * its median moved by more than this fraction and the two medians'
 * intervals do not overlap. */
#define COMPARE_THRESHOLD_DEFAULT 0.05

/* One entry of a run: a conformance case, or one evaluated configuration
 * of a tune, bench or sweep (the case name repeats across configurations;
 * the params tell them apart). */
struct compare_entry {
	char case_name[CASE_NAME_MAX];
	char variant[CASE_VARIANT_MAX];
	char dtype[8];
	char op[8];
	int64_t n, cols;
	char params[CASE_PARAMS_MAX];
	enum status status;
	enum expect expect;
	char observed[24];
	int timed;                  /* timing holds a correct result's median */
	struct timing_stats timing; /* median, interval, samples, timer and
				     * energy (all 0 when not measured) */
	int64_t result_id, run_id;
};

enum compare_verdict { VERDICT_SAME, VERDICT_FASTER, VERDICT_SLOWER };

/* "SAME", "FASTER", "SLOWER". */
const char *compare_verdict_name(enum compare_verdict v);

/* The ratio of the new median to the base one, and the interval of that
 * ratio from the two medians' intervals ([new low / base high, new high /
 * base low]; a median without an interval counts as its point).  SLOWER
 * when the ratio exceeds 1 + threshold and the new interval lies wholly
 * above the base one; FASTER when the ratio is below 1 / (1 + threshold)
 * and the new interval lies wholly below; SAME otherwise: within the
 * threshold, or within the noise. */
enum compare_verdict compare_timing(const struct compare_entry *base, const struct compare_entry *cand,
				    double threshold, double *ratio, double *lo, double *hi);

/* What a configuration timed in both spent, judged apart from its time:
 * NONE when either side has no energy figure (energy_measured). */
enum energy_verdict { ENERGY_VERDICT_NONE, ENERGY_VERDICT_SAME, ENERGY_VERDICT_LESS, ENERGY_VERDICT_MORE };
#define ENERGY_VERDICTS 4

/* "not measured", "same", "less", "more". */
const char *compare_energy_name(enum energy_verdict v);

/* The ratio of the new energy per launch to the base one (0 when either
 * is not measured) and its verdict: MORE when ratio - 1 exceeds the sum of
 * the two figures' uncertainties and ENERGY_REPEAT (common/energy.h), the
 * most two measurements of one configuration are seen to differ; LESS when
 * it lies below the negative of that sum; SAME otherwise. */
enum energy_verdict compare_energy(const struct energy_stats *base, const struct energy_stats *cand,
				   double *ratio);

enum compare_change {
	CHANGE_NONE,
	CHANGE_REGRESSION,  /* now a failure (FAIL, XPASS, TIMEOUT, CRASH, ERROR), before
			     * not, or a new entry that fails */
	CHANGE_FIXED,       /* a failure before, not now */
	CHANGE_STATUS,      /* another change of status (PASS -> SKIP, XFAIL -> PASS...) */
	CHANGE_OBSERVED,    /* same status, other observed behaviour (an undefined case's flip) */
	CHANGE_NEW,         /* in the new run only, not failing */
	CHANGE_REMOVED,     /* in the base run only */
};

/* "regression", "fixed", "status", "observed", "new", "removed" ("" for none). */
const char *compare_change_name(enum compare_change c);

/* How an entry changed; base or cand may be NULL (absent from that run). */
enum compare_change compare_status(const struct compare_entry *base, const struct compare_entry *cand);

/* Sorts entries by their key (case name, then params) and keeps the newest
 * (highest result_id) of each key: the shards of a tagged run, or a case
 * run twice, count once.  Returns the new count. */
size_t compare_dedupe(struct compare_entry *e, size_t n);

/* Orders two deduplicated entries by key, as compare_dedupe sorted them. */
int compare_key_cmp(const struct compare_entry *a, const struct compare_entry *b);

/* One side of a comparison: a run, or every run of a tag (the shards of a
 * CI job), and, when loaded whole (compare_side_load), its entries,
 * deduplicated. */
#define COMPARE_RUNS_MAX 1024
struct compare_side {
	struct db_run_row run;      /* the newest run of the side */
	int64_t ids[COMPARE_RUNS_MAX];
	size_t nruns;
	char label[96];             /* "run 12", "tag main (3 runs)" */
	struct compare_entry *entries;
	size_t count, cap;
};

/* Which entries to compare; zero or NULL members take every entry. */
struct compare_filter {
	const char *glob;           /* the case name or the variant matches (fnmatch) */
	const char *dtype, *op;
	int64_t n;
};

/* One key of either side, paired. */
struct compare_item {
	const struct compare_entry *base, *cand; /* NULL: absent from that side */
	enum compare_change change;
	int timed;                  /* both sides timed: the verdicts below hold */
	enum compare_verdict verdict;
	double ratio, lo, hi;       /* new / base, and its interval */
	enum energy_verdict energy; /* its energy's, apart from its time */
	double energy_ratio;        /* new / base joules; 0 when not measured */
};

/* The best configuration of one variant for one problem on each side (what
 * conform history follows): a change of winner is not a regression.  The
 * entries are the result's own copies (NULL: none on that side), so that a
 * comparison whose items are gone (streamed) still has them. */
struct compare_best {
	struct compare_entry *base, *cand;
};

/* A comparison: what is known once every item has been seen.  items holds
 * the items themselves only for a comparison made in memory (compare_run);
 * a streamed one (compare_stream.h) reads them again when it prints them,
 * and nitems counts them. */
struct compare_result {
	struct compare_side *base, *cand;
	double threshold;
	struct compare_item *items;
	size_t nitems, capitems;
	struct compare_best *best;
	size_t nbest, capbest;
	int counts[7];              /* items per enum compare_change */
	int verdicts[3];            /* timed items per enum compare_verdict */
	int energy[ENERGY_VERDICTS]; /* timed items per enum energy_verdict */
	int energy_seen;            /* timed items with energy on either side: when none
				     * has, the comparison says nothing of energy */
	int more_energy_slower;     /* items both SLOWER and MORE: one failure each */
	int reported;               /* items with a change or a verdict: the tests of JUnit */
	int mixed_timers;           /* some paired medians were taken by different timers */
	int gate_energy;            /* set by the caller after init (--gate energy): more
				     * energy fails as SLOWER does; else it is reported only */
};

/* Which of the next entries of the two sides, in key order, the next item
 * pairs (NULL: that side has no more): -1 base alone, 1 cand alone, 0
 * both (the same key).  Both NULL: there is no next item. */
int compare_pair_order(const struct compare_entry *base, const struct compare_entry *cand);

/* The item of base and cand (one may be NULL): its change and, when both
 * are timed, its verdict. */
void compare_item_make(const struct compare_entry *base, const struct compare_entry *cand, double threshold,
		       struct compare_item *it);

/* An empty comparison of the two sides. */
void compare_result_init(struct compare_result *r, struct compare_side *base, struct compare_side *cand,
			 double threshold);

/* Counts an item into r, and its entries into the best per problem (copied:
 * it need not outlive the call).  Returns 0, or -1 (out of memory). */
int compare_tally(struct compare_result *r, const struct compare_item *it);

/* Pairs the two loaded sides, keeping every item.  Returns 0, or -1 (out
 * of memory). */
int compare_run(struct compare_side *base, struct compare_side *cand, double threshold,
		struct compare_result *out);
void compare_result_free(struct compare_result *r);

/* The items that fail the comparison: statuses that became a failure,
 * configurations SLOWER beyond the threshold and, when gate_energy, those
 * that spend more energy (an item both SLOWER and MORE counts once). */
int compare_failures(const struct compare_result *r);

/* 1 when the comparison finds a regression: compare_failures is not 0. */
int compare_regressed(const struct compare_result *r);

/* 1 when some case or configuration is in both sides: a comparison without
 * one compared nothing, which must not pass as one that found nothing. */
int compare_overlaps(const struct compare_result *r);

#endif
