/*
 * session_check.h - cases against the worker's catalog, before anything
 * runs: the one check that "conform run", the TUI and tune share, so that
 * a case the worker would refuse is an input error (file:line, exit 2)
 * found before the first case starts, never an ERROR result found after.
 *
 * What the catalog tells is checked here: the variant exists, it takes the
 * case's dtype, and each parameter is one it reads (a tunable listed in
 * its catalog entry, or op, which a variant without operators ignores) or
 * a template variable of the suite line (case_spec.template_params).  What
 * the catalog only describes in words (a tunable's range, the rules
 * between tunables and the problem) stays the worker's contract check, so
 * that one place evaluates it.
 */
#ifndef CONFORM_SESSION_CHECK_H
#define CONFORM_SESSION_CHECK_H

#include <stddef.h>

#include "common/case.h"
#include "common/dtype.h"
#include "session/catalog_client.h"

/* Checks one case.  Returns 0, or -1 with "file:line: ..." in err.  A
 * variant the catalog lacks is an error, except when the worker was built
 * without kernels and the variant is not the harness's: its family is
 * simply absent and the case will be skipped. */
int session_check_case(const struct catalog *cat, const struct case_spec *c, char *err, size_t len);

/* session_check_case for cases[0..n), stopping at the first error. */
int session_check_cases(const struct catalog *cat, const struct case_spec *const *cases, size_t n,
			char *err, size_t len);

/* 1 when the variant takes dtype d (its catalog entry's "f32,i32"), else 0. */
int session_variant_has_dtype(const struct catalog_entry *e, enum dtype d);

#endif
