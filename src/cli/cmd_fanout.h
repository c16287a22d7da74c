/*
 * cmd_fanout.h - tune and bench over several GPUs: one conform per device,
 * side by side (see cmd_fanout.c).
 */
#ifndef CONFORM_CMD_FANOUT_H
#define CONFORM_CMD_FANOUT_H

#include "cli/cmd.h"
#include "report/emit.h"
#include "session/device_set.h"

/* Runs the command argv (argv[0] is its name, "tune" or "bench") once per
 * device of ds at the same time, each with --device D in place of
 * --devices; their stderr passed through prefixed, their stdout written
 * device by device at the end (format: CSV's header once).  Returns the
 * exit code. */
int cmd_fanout(int argc, char **argv, const struct device_set *ds, enum emit_format format);

#endif
