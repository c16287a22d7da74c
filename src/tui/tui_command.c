/*
 * tui_command.c - the command lines the reading panes copy (see
 * tui_command.h).
 */
#include "tui/tui_command.h"

#include <stdio.h>
#include <string.h>

#include "common/sanitizer_report.h"
#include "common/text.h"
#include "db/db.h"
#include "tui/tui_app.h"

const struct case_spec *tui_command_suite_case(const struct tui_app *app, const char *name)
{
	const struct suite *su = &app->suite;
	size_t base_len = strcspn(name, "@");
	for (size_t i = 0; i < su->count; i++)
		if (strcmp(su->cases[i].name, name) == 0)
			return &su->cases[i];
	for (size_t i = 0; i < su->count; i++)
		if (strlen(su->cases[i].name) == base_len && strncmp(su->cases[i].name, name, base_len) == 0)
			return &su->cases[i];
	return NULL;
}

static int is_user(const struct tui_app *app, const struct tui_command_of *w)
{
	const struct catalog_entry *e = catalog_lookup(&app->cat, w->variant);
	return (w->source && w->source[0]) || strncmp(w->variant, "user.", 5) == 0 ||
	       (e && e->path && e->path[0]);
}

int tui_command_kernel_options(const char *command_line, tui_kernel_option_fn fn, void *ctx)
{
	static const char *const options[] = {"--kernel", "--kernels"};
	int found = 0, value_of = -1;
	for (const char *s = command_line; *s;) {
		while (*s == ' ')
			s++;
		size_t n = strcspn(s, " ");
		if (!n)
			break;
		int option = -1;
		size_t at = 0;
		if (value_of >= 0) {
			fn(ctx, options[value_of], s, n);
			found++;
		} else {
			for (int i = 0; i < 2; i++) {
				size_t ol = strlen(options[i]);
				if (n == ol && strncmp(s, options[i], ol) == 0)
					option = i;
				else if (n > ol + 1 && strncmp(s, options[i], ol) == 0 && s[ol] == '=')
					at = ol + 1, option = i;
			}
			if (option >= 0 && at) {
				fn(ctx, options[option], s + at, n - at);
				found++;
				option = -1;
			}
		}
		/* A value is not the next option's flag. */
		value_of = value_of >= 0 ? -1 : option;
		s += n;
	}
	return found;
}

struct options_out {
	char *buf;
	size_t len;
};

static void append_option(void *ctx, const char *option, const char *file, size_t flen)
{
	struct options_out *o = ctx;
	char word[4096];
	snprintf(word, sizeof word, "%.*s", (int)flen, file);
	text_shell_append(o->buf, o->len, option);
	text_shell_append(o->buf, o->len, word);
}

/* The --kernel and --kernels options of the run's command line, appended
 * to buf; how many. */
static int run_kernels(const struct tui_app *app, int64_t run_id, char *buf, size_t len)
{
	struct db_run_row run;
	char err[256];
	struct options_out o = {buf, len};
	if (!app->db || db_run_read(app->db, run_id, &run, err, sizeof err) <= 0)
		return 0;
	return tui_command_kernel_options(run.command_line, append_option, &o);
}

/* Appends the options that make a user kernel's variant known (" --kernel
 * FILE", or the run's --kernel/--kernels options) to buf; nothing for a
 * built-in variant.  Returns 0, or -1 with why (the file is not known). */
static int command_kernels(const struct tui_app *app, const struct tui_command_of *w, char *buf,
			   size_t len, char *why, size_t wlen)
{
	if (!is_user(app, w))
		return 0;
	const struct catalog_entry *e = catalog_lookup(&app->cat, w->variant);
	const char *path = e && e->path && e->path[0] ? e->path : NULL;
	/* The file as it is now, when it is the source the result was of. */
	int same = path && (!w->source || !w->source[0] || !e->source || !e->source[0] ||
			    strcmp(e->source, w->source) == 0);
	if (!same && run_kernels(app, w->run_id, buf, len) > 0)
		return 0;
	if (path) {
		text_shell_append(buf, len, "--kernel");
		text_shell_append(buf, len, path);
		return 0;
	}
	snprintf(why, wlen, "%s is a kernel file's, and neither this interface's --kernel nor run "
		 "#%lld's command line names the file", w->variant, (long long)w->run_id);
	return -1;
}

int tui_command_tune(const struct tui_app *app, const struct tui_command_of *w, char *buf, size_t len,
		     char *why, size_t wlen)
{
	char n[32], cols[32];
	text_copy(buf, len, "conform tune");
	text_shell_append(buf, len, w->variant);
	if (command_kernels(app, w, buf, len, why, wlen) < 0)
		return -1;
	text_count(n, sizeof n, w->n);
	text_shell_append(buf, len, "--n");
	text_shell_append(buf, len, n);
	if (w->cols > 0) {
		snprintf(cols, sizeof cols, "%lld", (long long)w->cols);
		text_shell_append(buf, len, "--cols");
		text_shell_append(buf, len, cols);
	}
	text_shell_append(buf, len, "--dtype");
	text_shell_append(buf, len, w->dtype);
	if (w->op && w->op[0]) {
		text_shell_append(buf, len, "--op");
		text_shell_append(buf, len, w->op);
	}
	text_shell_append(buf, len, "--fresh");
	text_shell_append(buf, len, "--db");
	text_shell_append(buf, len, app->db_path);
	return 0;
}

int tui_command_run(const struct tui_app *app, const struct db_result_row *r, const char *seed,
		    char *buf, size_t len, char *why, size_t wlen)
{
	const struct tui_command_of w = {.variant = r->variant, .source = r->source, .run_id = r->run_id};
	const struct case_spec *c = tui_command_suite_case(app, r->case_name);
	const struct catalog_entry *e = catalog_lookup(&app->cat, r->variant);
	const int user = is_user(app, &w);
	/* A kernel file's ladder case (the suites hold it under the file's
	 * path), or one of a file this interface was not given. */
	const int ladder = user && (!c || (e && e->path && strcmp(c->file, e->path) == 0));
	const int posed = strchr(r->case_name, '@') != NULL;
	char name[CASE_NAME_MAX], num[32];

	if (posed && c && strcmp(dtype_name(c->dtype), r->dtype) != 0) {
		snprintf(why, wlen, "conform run poses %s only at its own type (%s), not %s", c->name,
			 dtype_name(c->dtype), r->dtype);
		return -1;
	}
	text_copy(buf, len, "conform run");
	if (user && command_kernels(app, &w, buf, len, why, wlen) < 0)
		return -1;
	if (!ladder && c && c->file[0]) {
		text_shell_append(buf, len, "--suite");
		text_shell_append(buf, len, c->file);
	}
	/* At another size: the name conform run gives a case posed there
	 * (case_resized), which --filter selects from a ladder; a suite's
	 * case is selected by its own name and resized by --n. */
	text_copy(name, sizeof name, r->case_name);
	if (posed) {
		struct case_spec base;
		memset(&base, 0, sizeof base);
		snprintf(base.name, sizeof base.name, "%.*s", (int)strcspn(r->case_name, "@"), r->case_name);
		if (ladder)
			case_resized(&base, r->n, r->cols, &base);
		text_copy(name, sizeof name, base.name);
	}
	text_shell_append(buf, len, "--filter");
	text_shell_append(buf, len, name);
	if (posed) {
		snprintf(num, sizeof num, "%lld", (long long)r->n);
		text_shell_append(buf, len, "--n");
		text_shell_append(buf, len, num);
		if (ladder) {
			text_shell_append(buf, len, "--dtype");
			text_shell_append(buf, len, r->dtype);
		}
	}
	/* A result of run --sanitize TOOL: "memcheck: ...". */
	char tool[16];
	enum sanitizer_tool t;
	snprintf(tool, sizeof tool, "%.*s", (int)strcspn(r->sanitizer, ":"), r->sanitizer);
	if (r->sanitizer[0] && sanitizer_tool_parse(tool, &t) == 0 && t != SANITIZER_NONE) {
		text_shell_append(buf, len, "--sanitize");
		text_shell_append(buf, len, tool);
	}
	if (seed && seed[0]) {
		text_shell_append(buf, len, "--seed");
		text_shell_append(buf, len, seed);
	}
	text_shell_append(buf, len, "--db");
	text_shell_append(buf, len, app->db_path);
	return 0;
}
