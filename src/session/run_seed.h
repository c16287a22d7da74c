/*
 * run_seed.h - a fresh seed for a run that was given none.
 *
 * The seed is printed and stored with the run, so the run can be repeated
 * with --seed: it is kept below 10^12, short enough to retype.  Kept apart
 * from common/rng.c, whose streams are pure functions of their seed.
 */
#ifndef CONFORM_RUN_SEED_H
#define CONFORM_RUN_SEED_H

#include <stdint.h>

/* From /dev/urandom; where that cannot be read, from the pid and the clock. */
uint64_t run_seed_fresh(void);

#endif
