/*
 * user_compile.c - compiling a user kernel's configuration into the cache
 * (see user_compile.h).
 */
#include "worker/user_compile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "worker/kernel_file.h"
#include "worker/variant.h"

int user_compiler_open(struct user_compiler *uc, char *msg, size_t len)
{
	if (!uc->tried) {
		uc->tried = 1;
		if (nvrtc_open(&uc->nvrtc, uc->why, sizeof uc->why) == 0)
			user_build_include_dir(&uc->nvrtc, uc->include_dir, sizeof uc->include_dir);
	}
	if (!uc->nvrtc.handle) {
		snprintf(msg, len, "%s", uc->why);
		return -1;
	}
	return 0;
}

int user_compile(struct user_compiler *uc, const struct user_config *c, struct user_built *b,
		 struct case_result *r)
{
	char msg[RESULT_MESSAGE_MAX];

	memset(b, 0, sizeof *b);
	if (user_compiler_open(uc, msg, sizeof msg) < 0) {
		case_result_set(r, OUTCOME_SKIPPED, "%s", msg);
		return -1;
	}
	if (user_build(&uc->nvrtc, c, b, msg, sizeof msg) < 0) {
		case_result_set(r, OUTCOME_ERROR, "%s %s", c->k->path, msg);
		return -1;
	}
	if (b->cached)
		case_result_set(r, OUTCOME_CORRECT, "cache hit (%.12s)%s%s", b->key, msg[0] ? "; " : "", msg);
	else
		case_result_set(r, OUTCOME_CORRECT, "compiled in %.2f s (%.12s)%s%s", b->seconds, b->key,
				msg[0] ? "; " : "", msg);
	return 0;
}

void user_compile_case(struct user_compiler *uc, const struct variant *v, const struct case_args *a,
		       int sm, struct case_result *r)
{
	const struct kernel_file *k = kernel_file_of(v);
	char msg[RESULT_MESSAGE_MAX];
	/* The tunables' values as kernel_file.c binds them: one int each. */
	int values[TUNABLES_MAX] = {0};
	enum op op;
	struct user_built b;

	if (!k) {
		case_result_set(r, OUTCOME_INVALID, "%s: not a user kernel", a->variant);
		return;
	}
	/* The same refusals a case's own worker makes before its build
	 * (worker_main.c's run_case, launch_prepare), so that nothing is
	 * compiled that the case would never have compiled. */
	if (k->changed[0]) {
		case_result_set(r, OUTCOME_ERROR, "%s", k->changed);
		return;
	}
	if (!(v->dtypes & DTYPE_BIT(a->dtype))) {
		case_result_set(r, OUTCOME_INVALID, "%s does not support dtype %s", v->name,
				dtype_name(a->dtype));
		return;
	}
	if (variant_op(v, a, &op, msg, sizeof msg) < 0 || variant_bind(v, a, values, msg, sizeof msg) < 0) {
		case_result_set(r, OUTCOME_INVALID, "launch contract violated: %s", msg);
		return;
	}
	if (user_compiler_open(uc, msg, sizeof msg) < 0) {
		case_result_set(r, OUTCOME_SKIPPED, "%s", msg);
		return;
	}
	const struct user_config c = {k, a->dtype, op, values, sm, uc->include_dir};
	if (user_compile(uc, &c, &b, r) == 0)
		free(b.code);
}

void user_compile_tell(const struct case_args *a, const struct case_result *r, const char *how)
{
	fprintf(stderr, "conform-worker: %s %s %s: %s%s\n", a->variant, dtype_name(a->dtype),
		a->params && a->params[0] ? a->params : "defaults", r->message, how);
}
