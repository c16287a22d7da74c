/*
 * shrink.h - the search for the smallest failing problem below one that
 * failed, as an ask/tell object: shrink_next() names the next problem to
 * run, the caller runs it however it likes (now, later, on another
 * worker) and tells the outcome with shrink_tell().  Nothing here runs a
 * case, reads a clock or allocates: the caller passes the time.
 *
 * The search, for one dimension (a flat problem's elements, or a rows
 * problem's rows, then its cols):
 *  - the ascent tries the "awkward ladder" below the failing size f in
 *    ascending order: 1, 2, 3, then 2^k - 1, 2^k, 2^k + 1 for k >= 2 (the
 *    sizes where reductions go wrong: a partial warp, a tail, a power of
 *    two).  The first that fails is the new f and ends the ascent; the
 *    largest that passed before it is the pass bound p (none when none
 *    passed).  When none fails, f stays and p is the largest that passed;
 *  - bisection between p and f (mid = p + (f - p) / 2: a failing mid is
 *    the new f, a passing one the new p) until f = p + 1.  Without a p
 *    there is nothing to bisect.
 * A rows problem shrinks its rows with cols fixed, then its cols with the
 * rows fixed at the shrunk count ("rows and columns separately"), then
 * runs (rows - 1) x cols, so that the shape's neighbour in each dimension
 * was measured at the shape itself; when that one fails too, the search
 * starts again from it (rows strictly fall each round, so it ends).
 *
 * A probe's outcome is a pass, a failure, or neither (SHRINK_UNKNOWN: a
 * SKIP, or anything else the caller cannot call clean).  An unknown size
 * is not a failure, so the ascent goes on past it, and it is never a pass
 * bound: the ascent's p is the largest candidate that passed.  In
 * bisection an unknown mid moves the lower bound as a pass would (the
 * failure looked for is, as far as anyone knows, above it: stopping there
 * would leave f where it is), but the result never names it as passing:
 * a result names only the neighbours that were run and passed.
 *
 * Invariants: no problem is asked twice (the original one counts as run:
 * it is known to fail); the result's problem is always one that failed
 * (the original when nothing smaller did); the search stops at the probe
 * or time budget, whichever comes first, and then says which.
 */
#ifndef CONFORM_SHRINK_H
#define CONFORM_SHRINK_H

#include <stddef.h>
#include <stdint.h>

/* The probes a search asks unless its limits say otherwise, and the most
 * any may ask (the record of what was run is a fixed array). */
#define SHRINK_PROBES_DEFAULT 48
#define SHRINK_PROBES_MAX 256
/* The seconds a search takes unless its limits say otherwise. */
#define SHRINK_SECONDS_DEFAULT 60.0

enum shrink_outcome {
	SHRINK_PASS,
	SHRINK_FAIL,
	SHRINK_UNKNOWN, /* neither: a SKIP, an error of the harness's own */
};

struct shrink_limits {
	int max_probes;  /* 0: SHRINK_PROBES_DEFAULT; at most SHRINK_PROBES_MAX */
	double max_s;    /* 0: SHRINK_SECONDS_DEFAULT; counted from the first shrink_next */
};

/* One problem run (or the original, known to fail), and what it did. */
struct shrink_seen {
	int64_t n, cols;
	enum shrink_outcome outcome;
};

/* The search's state: the caller owns it (no allocation); its fields are
 * shrink.c's. */
struct shrink {
	int64_t n, cols;      /* the smallest failing problem so far */
	int rows;             /* 1: a rows problem (cols > 0) */
	int dim;              /* the dimension shrinking: 0 n (elements or rows), 1 cols */
	int stage;            /* enum shrink_stage (shrink.c) */
	int64_t cand;         /* the ascent's last candidate, 0 before the first */
	int64_t lo;           /* below f: the largest passed (or, bisecting, unknown); 0: none */
	int pending;          /* 1: the problem pend_* was asked and not told yet */
	int64_t pend_n, pend_cols;
	struct shrink_seen seen[SHRINK_PROBES_MAX + 1]; /* [0]: the original */
	int nseen;
	int probes, max_probes;
	double max_s, started_at;
	int started;
	int cut_short;
	char why_cut[64];
};

struct shrink_result {
	int64_t n, cols;          /* the smallest failing problem found */
	/* The problem one smaller in the last dimension searched, n - 1
	 * (flat, pass_cols 0) or n x (cols - 1) (rows), when it was run and
	 * passed; -1, -1 otherwise (n = 1 fails, it was unknown, or the
	 * search was cut short before it). */
	int64_t pass_n, pass_cols;
	/* Rows problems: (n - 1) x cols was run and passed: n - 1; -1
	 * otherwise, and always for flat problems. */
	int64_t pass_fewer_rows;
	int probes;               /* problems asked */
	int cut_short;            /* 1: a limit stopped the search */
	char why_cut[64];         /* "48 probes", "60 s"; "" when not cut */
};

/* A search below the failing problem n (elements, or rows of cols when
 * cols > 0).  lim NULL: the defaults. */
void shrink_init(struct shrink *s, int64_t n, int64_t cols, const struct shrink_limits *lim);

/* The next problem to run, in *n and *cols: returns 1; or 0 when the
 * search is over (done, or a limit reached).  now is the caller's clock
 * in seconds (any origin, never going back).  Each problem asked must be
 * told before the next is asked; asked again before that, it names the
 * same problem (nothing new is asked). */
int shrink_next(struct shrink *s, double now, int64_t *n, int64_t *cols);

/* The outcome of the problem last asked; ignored when none is waiting.
 * A value outside the enum counts as SHRINK_UNKNOWN. */
void shrink_tell(struct shrink *s, enum shrink_outcome outcome);

/* What the search found so far (final once shrink_next returned 0). */
void shrink_result(const struct shrink *s, struct shrink_result *r);

/* r in one line, saying only what was measured:
 * "smallest failing size n = 97 (passes at n = 96); 23 probes",
 * "smallest failing shape 3 x 33 (passes at 3 x 32 and 2 x 33); 20 probes",
 * "search cut short after 48 probes: smallest failing found n = 1000". */
void shrink_describe(const struct shrink_result *r, char *buf, size_t len);

#endif
