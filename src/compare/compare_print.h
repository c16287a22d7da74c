/*
 * compare_print.h - conform compare's answer as text, Markdown, JSON lines
 * and JUnit (compare_print.c).  verbose lists the SAME configurations and
 * the new and removed entries too.
 */
#ifndef CONFORM_COMPARE_PRINT_H
#define CONFORM_COMPARE_PRINT_H

#include <stdio.h>

#include "compare/compare.h"
#include "compare/compare_stream.h"

/* Each prints r, tallied by a pass of s (compare_stream_tally), reading
 * the items it lists from s again: a pass per list, and none for a list
 * the tallies say is empty.  Returns 0, or -1 with a message (what was
 * printed up to the failure stays printed). */
int compare_print_table(FILE *f, const struct compare_result *r, struct compare_stream *s, int verbose,
			char *err, size_t len);
int compare_print_markdown(FILE *f, const struct compare_result *r, struct compare_stream *s, int verbose,
			   char *err, size_t len);
int compare_print_json(FILE *f, const struct compare_result *r, struct compare_stream *s, char *err,
		       size_t len);
int compare_print_junit(FILE *f, const struct compare_result *r, struct compare_stream *s, char *err,
			size_t len);

/* The pieces of the terminal's form, for an interface that shows the same
 * comparison in its own layout. */

/* "run 12 (bench, 2026-11-25T05:41:19Z, build abc1234, tag nightly)". */
void compare_side_text(const struct compare_side *s, char *buf, size_t len);
/* What differs between the sides besides the change itself (devices, kinds
 * of run, builds, timers, the same run twice), "; "-separated; "" when
 * nothing does. */
void compare_differences(const struct compare_result *r, char *buf, size_t len);
/* "0 regressions, 0 fixed, 0 other changes, 3 new, 4 removed". */
void compare_status_text(const struct compare_result *r, char *buf, size_t len);
/* "296 configurations timed in both, threshold 5%: 3 slower, 5 faster, 288 same". */
void compare_timing_text(const struct compare_result *r, char *buf, size_t len);
/* "2 more, 1 less, 5 same, 3 not measured": the energy verdicts of the
 * items timed in both. */
void compare_energy_text(const struct compare_result *r, char *buf, size_t len);
/* A timed item's change of energy: "energy +12.0% (more)", "energy not
 * measured". */
void compare_energy_change_text(const struct compare_item *it, char *buf, size_t len);
/* The size as users write it ("2^20"), "x128" after it for rows. */
void compare_size_text(const struct compare_entry *e, char *buf, size_t len);
/* A timed item's change of median and its interval: "+3.2% [+1.0%, +5.1%]";
 * the change alone, "+3.2%"; the interval alone, "[+1.0%, +5.1%]". */
void compare_ratio_text(const struct compare_item *it, char *buf, size_t len);
void compare_change_text(const struct compare_item *it, char *buf, size_t len);
void compare_interval_text(const struct compare_item *it, char *buf, size_t len);

#endif
