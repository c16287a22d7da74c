/*
 * tui_command.h - the command lines the reading panes copy (Y), written so
 * that conform takes them as they are: the variant's kernel file for a
 * user kernel, the case's suite file, the run's seed, words a shell would
 * split quoted (text_shell_append), and the database shown.
 *
 * A user kernel (user.NAME) resolves only with its file.  The file is the
 * one this interface was given (its catalog entry's path, preferred when
 * its source hash is the result's), else the --kernel and --kernels
 * options of the command line that stored the result's run (runs keep it
 * as typed, so a relative path is relative to where that run started).
 */
#ifndef CONFORM_TUI_COMMAND_H
#define CONFORM_TUI_COMMAND_H

#include <stddef.h>
#include <stdint.h>

#include "common/case.h"

struct tui_app;
struct db_result_row;

/* What measures or runs a stored result again. */
struct tui_command_of {
	const char *variant;
	const char *source;        /* results.source; "" for a built-in variant */
	int64_t run_id;            /* the run that stored it */
	const char *dtype, *op;    /* op "" when the params name none */
	int64_t n, cols;
};

/* The kernel options of a stored command line (runs.command_line: the
 * arguments joined by spaces, so a file whose name has a space in it is cut
 * there): fn is called with "--kernel" or "--kernels" and the file or
 * folder (not NUL-terminated: flen bytes) for each --kernel FILE,
 * --kernel=FILE, --kernels DIR and --kernels=DIR, in order.  Returns how
 * many. */
typedef void (*tui_kernel_option_fn)(void *ctx, const char *option, const char *file, size_t flen);
int tui_command_kernel_options(const char *command_line, tui_kernel_option_fn fn, void *ctx);

/* "conform tune VARIANT [--kernel FILE] --n N [--cols C] --dtype T [--op OP]
 * --fresh --db DB": measures the problem again, nothing taken from the
 * database.  Returns 0, or -1 with why. */
int tui_command_tune(const struct tui_app *app, const struct tui_command_of *w, char *buf, size_t len,
		     char *why, size_t wlen);

/* "conform run [--kernel FILE | --suite FILE] --filter CASE [--n N --dtype T]
 * [--sanitize TOOL] [--seed S] --db DB": runs the case of stored result r
 * again, as its run did (with seed, the run's seed: the same name and
 * seed give the same input).  A case the interface posed at another size
 * (NAME@n=...) is the case conform run names at that size; one posed at
 * another type has no command line.  Returns 0, or -1 with why. */
int tui_command_run(const struct tui_app *app, const struct db_result_row *r, const char *seed,
		    char *buf, size_t len, char *why, size_t wlen);

/* The interface's case of a stored case name: the suites' case of that
 * name, else of its name before "@" (what the problem pane's types and
 * sizes add); NULL when no suite holds it. */
const struct case_spec *tui_command_suite_case(const struct tui_app *app, const char *name);

#endif
