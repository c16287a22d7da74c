/*
 * cmd_args.c - what the commands share in reading their arguments: numbers
 * of seconds, counts, the database path, the command line as recorded.
 * Each parser prints its own one-line error (cmd_error) and returns -1, so
 * every command words the same mistake the same way.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "common/case.h"
#include "common/num.h"
#include "common/text.h"
#include "db/db.h"
#include "session/paths.h"
#include "session/session.h"
#include "suite/suite.h"

int cmd_parse_seconds(const char *flag, const char *text, double *out)
{
	double v;
	if (num_parse_decimal(text, &v) < 0 || !(v > 0) || v > CASE_SECONDS_MAX) {
		cmd_error("%s: expected a number of seconds in (0, %d] such as 10 or 2.5, got '%s'",
			  flag, CASE_SECONDS_MAX, text);
		return -1;
	}
	*out = v;
	return 0;
}

int cmd_parse_count(const char *flag, const char *text, unsigned long long max,
		    unsigned long long *out)
{
	/* One message for every value out of range, 0 included, so that the
	 * range said is the range taken. */
	if (num_parse_uint(text, max, out) < 0 || *out == 0) {
		cmd_error("%s: expected a decimal integer from 1 to %llu, got '%s'", flag, max, text);
		return -1;
	}
	return 0;
}

int cmd_parse_uint(const char *flag, const char *text, unsigned long long max,
		   unsigned long long *out)
{
	if (num_parse_uint(text, max, out) < 0) {
		cmd_error("%s: expected a decimal integer from 0 to %llu, got '%s'", flag, max, text);
		return -1;
	}
	return 0;
}

int cmd_db_path(const char *given, char *buf, size_t len)
{
	if (given) {
		text_copy(buf, len, given);
		return 0;
	}
	if (db_default_path(buf, len) < 0) {
		cmd_error("cannot tell where the database goes: set --db, CONFORM_DB or HOME");
		return -1;
	}
	return 0;
}

char *cmd_join_args(int argc, char **argv)
{
	size_t len = 1;
	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	char *s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

/* Set by SIGINT, SIGTERM or SIGHUP: the one process-wide fact a signal
 * can carry.  A hang-up (a closed terminal, a dropped ssh) stops a run as
 * Ctrl-C does: interrupted, exit 130, the run marked so. */
static volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* Until a command can stop cleanly, a stop signal ends conform at once,
 * with the exit code of an interrupted run: nothing is half-written yet
 * (SQLite rolls an open transaction back). */
static void on_early_stop_signal(int sig)
{
	(void)sig;
	_exit(EXIT_INTERRUPTED);
}

void cmd_exit_on_stop(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_early_stop_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

const volatile sig_atomic_t *cmd_catch_stop(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop_signal; /* no SA_RESTART: waits must see the signal */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN); /* a dead worker's pipe is an error return, not a death */
	return &stop_requested;
}

void cmd_run_settings_init(struct cmd_run_settings *rs)
{
	memset(rs, 0, sizeof *rs);
	rs->timeout_s = SESSION_TIMEOUT_S;
	rs->hang_timeout_s = SESSION_HANG_TIMEOUT_S;
}

int cmd_parse_sizes(const char *flag, const char *text, int64_t *sizes, size_t max, size_t *count)
{
	/* A copy as long as the text: a fixed buffer would cut the last size
	 * short (12345 read as 1234). */
	char *buf = strdup(text);
	size_t n = 0;
	int rc = 0;

	if (!buf) {
		cmd_error("out of memory");
		return -1;
	}
	if (!text[0] || text[strlen(text) - 1] == ',' || text[0] == ',' || strstr(text, ",,"))
		rc = -1;
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok && rc == 0;
	     tok = strtok_r(NULL, ",", &save)) {
		long long v;
		if (num_parse_count(tok, &v) < 0 || v < 1) {
			rc = -1;
		} else if (v > CASE_ELEMENTS_MAX) {
			cmd_error("%s: at most 2^%d elements, got '%s'", flag, CASE_ELEMENTS_MAX_LOG2, tok);
			rc = -2;
		} else if (n == max) {
			cmd_error("%s: at most %zu sizes", flag, max);
			rc = -2;
		} else {
			sizes[n++] = v;
		}
	}
	free(buf);
	if (rc == -1)
		cmd_error("%s: expected sizes as decimal or 2^K, comma separated, got '%s'", flag, text);
	if (rc < 0)
		return -1;
	*count = n;
	return 0;
}

void cmd_run_settings_free(struct cmd_run_settings *rs)
{
	kernel_list_free(&rs->kernels);
}

int cmd_kernel_set(struct kernel_list *kl, int id, const struct cmd_value *v)
{
	char err[CMD_ERR_MAX];
	int rc = id == CMD_OPT_KERNEL ? kernel_list_add(kl, v->text, err, sizeof err)
				       : kernel_list_add_dir(kl, v->text, err, sizeof err);
	if (rc < 0)
		cmd_error("%s %s", v->flag, err);
	return rc;
}

int cmd_run_settings_set(struct cmd_run_settings *rs, int id, const struct cmd_value *v)
{
	switch (id) {
	case CMD_OPT_KERNEL:
	case CMD_OPT_KERNELS: return cmd_kernel_set(&rs->kernels, id, v);
	case CMD_OPT_SUITES: rs->suites_dir = v->text; break;
	case CMD_OPT_SUITE:
		if (rs->nsuite_files == CMD_SUITE_FILES_MAX) {
			cmd_error("too many --suite files (at most %d)", CMD_SUITE_FILES_MAX);
			return -1;
		}
		rs->suite_files[rs->nsuite_files++] = v->text;
		break;
	case CMD_OPT_TIMEOUT: rs->timeout_s = v->seconds; break;
	case CMD_OPT_HANG_TIMEOUT: rs->hang_timeout_s = v->seconds; break;
	case CMD_OPT_SEED:
		rs->seed = v->u;
		rs->seed_given = 1;
		break;
	case CMD_OPT_DEVICE:
	case CMD_OPT_DEVICES: return cmd_devices_set(&rs->device, &rs->device_given, &rs->devices, id, v);
	}
	return 0;
}

int cmd_devices_set(int *device, int *device_given, struct device_set *ds, int id,
		    const struct cmd_value *v)
{
	char err[256];
	int devices_given = ds->all || ds->n > 0;
	if ((id == CMD_OPT_DEVICE && devices_given) || (id == CMD_OPT_DEVICES && *device_given)) {
		cmd_error("%s: --device and --devices exclude each other", v->command);
		return -1;
	}
	if (id == CMD_OPT_DEVICE) {
		*device = (int)v->u;
		*device_given = 1;
		return 0;
	}
	if (device_set_parse(v->text, ds, err, sizeof err) < 0) {
		cmd_error("%s: %s", v->flag, err);
		return -1;
	}
	/* The first named is the device of whatever runs on one. */
	if (ds->n > 0)
		*device = ds->list[0];
	return 0;
}

int cmd_format_set(enum emit_format *format, int id, const struct cmd_value *v)
{
	enum emit_format want = id == CMD_OPT_CSV ? EMIT_CSV : EMIT_JSON;
	if (*format != EMIT_TABLE && *format != want) {
		cmd_error("%s: --csv and --json exclude each other", v->command);
		return -1;
	}
	*format = want;
	return 0;
}

int cmd_load_suites(struct cmd_run_settings *rs, struct suite *s)
{
	char err[CMD_ERR_MAX], dir[4096];
	memset(s, 0, sizeof *s);
	if (rs->nsuite_files) {
		for (size_t i = 0; i < rs->nsuite_files; i++)
			if (suite_load_file(s, rs->suite_files[i], err, sizeof err) < 0)
				goto fail;
	} else {
		if (rs->suites_dir)
			text_copy(dir, sizeof dir, rs->suites_dir);
		else if (paths_suites(dir, sizeof dir, err, sizeof err) < 0)
			goto fail;
		if (suite_load_dir(s, dir, err, sizeof err) < 0)
			goto fail;
	}
	/* The suites' kernel files join --kernel's, after them. */
	for (size_t i = 0; i < s->nkernels; i++)
		if (kernel_list_add(&rs->kernels, s->kernels[i], err, sizeof err) < 0)
			goto fail;
	return 0;
fail:
	cmd_error("%s", err);
	suite_free(s);
	return -1;
}
