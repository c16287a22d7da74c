/*
 * cmd_inputs.c - the preamble of the commands that run cases (see
 * cmd_inputs.h).
 *
 * Invariants: a part opens at most once (until it is released or the
 * inputs closed), and only after the parts before it that were asked
 * for, so the suites' kernel files are in the list before the worker reads
 * it and the user's cases are made from the catalog that read them.  A
 * problem is one line on stderr and EXIT_USAGE before any case runs; its
 * message is the one of the function that found it (cmd_load_suites,
 * session_find_worker, user_cases_make, cmd_db_path, db_open), the same
 * for every command.
 */
#include "config.h"

#include "cli/cmd_inputs.h"

#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "session/session.h"

/* NULL: neither kernels nor rs was given. */
static struct kernel_list *cmd_inputs_kernels(struct cmd_inputs *in)
{
	return in->kernels ? in->kernels : in->rs ? &in->rs->kernels : NULL;
}

/* The --kernel files' cases (their ladders, or uq's sizes): a suite's
 * kernel files make no cases of their own (its lines do), so the request
 * names the command line's files only, listed first. */
static int cmd_inputs_user_cases(struct cmd_inputs *in, char *err, size_t len)
{
	const struct kernel_list *kl = cmd_inputs_kernels(in);
	struct user_case_request q = {0};
	if (in->uq)
		q = *in->uq;
	q.paths = kl ? (const char *const *)kl->paths : NULL;
	q.npaths = in->ncmdline;
	q.timeout_s = in->rs ? in->rs->timeout_s : SESSION_TIMEOUT_S;
	return user_cases_make(&in->cat, &q, &in->user, &in->nuser, err, len);
}

/* Opens one part; returns 0, or -1 after printing the error. */
static int cmd_inputs_open_part(struct cmd_inputs *in, unsigned part)
{
	char err[CMD_ERR_MAX];
	int r = 0;
	switch (part) {
	case CMD_INPUTS_SUITES:
		return cmd_load_suites(in->rs, &in->suite);
	case CMD_INPUTS_WORKER:
		r = session_find_worker(in->worker_path, sizeof in->worker_path, cmd_inputs_kernels(in),
					&in->cat, err, sizeof err);
		break;
	case CMD_INPUTS_USER_CASES:
		r = cmd_inputs_user_cases(in, err, sizeof err);
		break;
	case CMD_INPUTS_DB_PATH:
		return cmd_db_path(in->db_given, in->db_path, sizeof in->db_path);
	case CMD_INPUTS_DB:
		r = db_open(in->db_path, &in->db, err, sizeof err);
		break;
	}
	if (r < 0)
		cmd_error("%s", err);
	return r < 0 ? -1 : 0;
}

int cmd_inputs_open(struct cmd_inputs *in, unsigned parts)
{
	if (parts & CMD_INPUTS_DB)
		parts |= CMD_INPUTS_DB_PATH;
	/* The files the command line gave, before any suite's join them. */
	if (!in->open) {
		const struct kernel_list *kl = cmd_inputs_kernels(in);
		in->ncmdline = kl ? kl->n : 0;
	}
	for (unsigned part = CMD_INPUTS_SUITES; part <= CMD_INPUTS_DB; part <<= 1) {
		if (!(parts & part) || (in->open & part))
			continue;
		if (cmd_inputs_open_part(in, part) < 0)
			return EXIT_USAGE;
		in->open |= part;
	}
	return 0;
}

void cmd_inputs_release(struct cmd_inputs *in, unsigned parts)
{
	if (parts & CMD_INPUTS_SUITES)
		memset(&in->suite, 0, sizeof in->suite);
	if (parts & CMD_INPUTS_WORKER)
		memset(&in->cat, 0, sizeof in->cat);
	if (parts & CMD_INPUTS_USER_CASES) {
		in->user = NULL;
		in->nuser = 0;
	}
	if (parts & CMD_INPUTS_DB)
		in->db = NULL;
	in->open &= ~parts;
}

void cmd_inputs_close(struct cmd_inputs *in)
{
	/* Each free takes a part never opened (all zeros) and what a part
	 * that failed half way left. */
	db_close(in->db);
	in->db = NULL;
	free(in->user);
	in->user = NULL;
	in->nuser = 0;
	catalog_free(&in->cat);
	suite_free(&in->suite);
	in->open = 0;
}
