/*
 * tune_print.h - the tuner's reports: a table per sweep (conform tune), one
 * table of the best per size and variant (conform bench), as text, CSV or
 * JSON lines.
 *
 * Derived figures, the same in every format:
 *   GB/s      bytes the kernel must move / median time, 1e9 bytes per second
 *   % copy    GB/s as a percentage of the family's copy bandwidth
 *   x base    the family baseline's median / this median (above 1: faster
 *             than the baseline: CUB for device.*, cuDNN for softmax.*)
 * and, when some row has an energy figure (tune_energy.h), J per launch,
 * the average power and the Pareto mark of each tuned configuration (on its
 * variant's front of time and energy in the sweep).  Each variant's best is
 * best by the options' objective, and the reports say which when it is not
 * time.
 */
#ifndef CONFORM_TUNE_PRINT_H
#define CONFORM_TUNE_PRINT_H

#include <stdio.h>

#include "report/emit.h"
#include "tune/tune.h"

struct tune_printer {
	FILE *f;
	enum emit_format format;
	const struct tune_options *o;
	int header_done;        /* CSV: the header line is written once */
	int device;             /* the GPU's ordinal, each row's "device"; -1: none */
};

/* Every row of the sweep, fastest first within each variant, the best of
 * each variant marked. */
void tune_print_sweep(struct tune_printer *p, const struct tune_sweep *sw);

/* The best row of each variant and the baselines, size by size. */
void tune_print_bench(struct tune_printer *p, const struct tune_sweep *sweeps, size_t n);

/* The closing lines: the evaluation counts, then (in every format, on the
 * stream the human report uses) "N passed, N failed, N skipped".  JSON adds
 * a final {"summary": ...} line to p->f. */
void tune_print_summary(struct tune_printer *p, FILE *human, const struct tune_session *s,
			int interrupted);

#endif
