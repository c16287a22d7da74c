/*
 * cmd_inputs.h - what a command that runs cases reads before it runs the
 * first: the suites, the worker and its catalog, the cases of the user's
 * kernel files, the database.  run, tune, bench and the interface each take
 * the parts they need, in the one order below, with the same one-line
 * error and exit code 2 for each problem (see cmd_inputs.c).
 */
#ifndef CONFORM_CMD_INPUTS_H
#define CONFORM_CMD_INPUTS_H

#include <stddef.h>

#include "cli/cmd.h"
#include "common/case.h"
#include "session/catalog_client.h"
#include "session/kernel_list.h"
#include "session/user_cases.h"
#include "suite/suite.h"

struct db;

/* The parts, in the order they open (a part opens after the ones above
 * it that were asked for, and each needs those it names). */
enum cmd_inputs_part {
	/* suite: rs's --suite files, else its --suites directory, else the
	 * default one; the kernel files they name join kernels, after the
	 * command line's. */
	CMD_INPUTS_SUITES = 1u << 0,
	/* worker_path and cat: the worker, and its catalog with kernels'
	 * files (their source hashes pinned from it). */
	CMD_INPUTS_WORKER = 1u << 1,
	/* user[0..nuser): the cases of the command line's kernel files (not
	 * the suites', whose own lines make theirs), as uq asks, at rs's
	 * --timeout.  Needs WORKER. */
	CMD_INPUTS_USER_CASES = 1u << 2,
	/* db_path: --db when given, else the default. */
	CMD_INPUTS_DB_PATH = 1u << 3,
	/* db: the database at db_path, opened as a run opens it (created,
	 * checked, migrated).  Opens DB_PATH first. */
	CMD_INPUTS_DB = 1u << 4,
};

struct cmd_inputs {
	/* Given by the command before the first open. */
	struct cmd_run_settings *rs;         /* SUITES' source, USER_CASES' --timeout; NULL:
					      * no SUITES, the cases at SESSION_TIMEOUT_S */
	struct kernel_list *kernels;         /* --kernel files; NULL: rs's */
	const struct user_case_request *uq;  /* USER_CASES' sizes and dtype; NULL: the ladders */
	const char *db_given;                /* --db PATH; NULL: the default */

	/* Filled part by part; cmd_inputs_close frees them. */
	unsigned open;                       /* the parts open (enum cmd_inputs_part) */
	size_t ncmdline;                     /* the kernel files the command line gave */
	struct suite suite;
	char worker_path[4096];
	struct catalog cat;
	struct case_spec *user;
	size_t nuser;
	char db_path[4096];
	struct db *db;
};

/* Opens the parts of `parts` (enum cmd_inputs_part) that are not open
 * yet, in order; a command may call it again for later parts (run finds
 * its database only once the selection is known).  Returns 0, or
 * EXIT_USAGE after printing the one-line error; what opened before the
 * error stays open until cmd_inputs_close. */
int cmd_inputs_open(struct cmd_inputs *in, unsigned parts);

/* Forgets the parts of `parts` without freeing them: the command keeps
 * them past cmd_inputs_close (the interface copies the suites, the
 * catalog and the database into its application and frees them there). */
void cmd_inputs_release(struct cmd_inputs *in, unsigned parts);

/* Frees every part, open or half opened by an error (the database
 * closed); in may then be opened again.  in must have started as all
 * zeros but for what the command gives. */
void cmd_inputs_close(struct cmd_inputs *in);

#endif
