/*
 * tui_eta.h - the time left of a sweep or tune, from what its work has
 * taken so far at each size.
 *
 * An evaluation's cost is nothing like constant over a sweep.  Generating
 * the input, the host's reference and the check grow with the elements,
 * and the sizes come smallest first; and each size opens with its
 * references (the copy, the untuned baseline), which can cost many
 * configurations' time.  So the elapsed time over the evaluations done,
 * times those left, promised a fraction of what the last size then took
 * (the recorded sweeps of tests/data/eta_h100_sweeps.h show by how much).
 *
 * Here each size has two costs of its own, measured there: its opening
 * (the references and the first configuration, until the first
 * configuration's result) and the seconds per evaluation after it.  A size
 * not begun takes each from the sizes measured around it, interpolated by
 * elements, or beyond the largest, from the trend of the two largest when
 * it rises with the elements.  Where a cost cannot be told that way (one
 * size measured and a larger one to come, or a cost that fell with the
 * elements) there is no estimate rather than a guess.
 */
#ifndef CONFORM_TUI_ETA_H
#define CONFORM_TUI_ETA_H

#include <stddef.h>

/* The work planned at one size of a sweep, and what of it is done. */
struct tui_eta_size {
	double elements;   /* n, or n x cols: what an evaluation's cost grows with */
	double planned;    /* evaluations planned at this size, references included */
	double opened;     /* evaluations in its opening; 0 while it is not over */
	double opening_s;  /* the seconds the opening took */
	double done;       /* evaluations done after the opening */
	double spent_s;    /* the seconds those took */
};

/* Seconds left of the work of sizes[current..nsizes) (those before are
 * over, whatever they planned), the evaluation in flight at sizes[current]
 * running for in_flight_s; or -1 when no estimate can be made (no opening
 * over yet, or a size whose costs cannot be told from those measured). */
double tui_eta_left(const struct tui_eta_size *sizes, size_t nsizes, size_t current,
		    double in_flight_s);

#endif
