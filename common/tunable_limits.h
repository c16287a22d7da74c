/*
 * tunable_limits.h - how many tunables a variant declares and how long
 * their names and values may be.
 *
 * Both processes size what carries tunables from these numbers: the
 * worker's declarations (tunable.h, a kernel file's @tunable lines), the
 * tuner's spaces (one axis per tunable, tune_space.h) and a case's
 * parameter text (CASE_PARAMS_MAX, case.h), which travels to the worker,
 * the database and back.  A declaration within them is one every layer
 * carries whole; one beyond them is refused where it is read.
 */
#ifndef CONFORM_TUNABLE_LIMITS_H
#define CONFORM_TUNABLE_LIMITS_H

#define TUNABLES_MAX 12       /* per variant: the axes of its tuning space */
#define TUNABLE_NAME_MAX 32   /* characters of a tunable's name */
/* Characters of one value: an int, as the kernel receives it
 * ("-2147483648" is 11), or a named choice. */
#define TUNABLE_VALUE_MAX 32
#define TUNABLE_SPACE_MAX 64  /* values one tunable's space lists */

#endif
