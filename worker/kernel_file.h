/*
 * kernel_file.h - a user's kernel file: a CUDA source whose first comment
 * declares it (docs/kernels.md), read into a variant like the built-in
 * ones.
 *
 * The declaration says which of conform's problems the kernel solves
 * (its kind), the entry point, the dtypes and operators, the tunables and
 * their rules (tunable.h's typed declaration, built from the text), the
 * launch geometry as expressions and the expectation.  kernel_file_load()
 * reads and checks all of it before anything runs: a malformed line is
 * refused with "FILE:LINE: why", and every expression is parsed with the
 * names it may use, so a tunable used but not declared is found here, not
 * when a case runs.
 *
 * The worker registers each file's variant (catalog_add); its check(),
 * run() and build() come from the caller (user_kernel.cu, or nothing in a
 * build without CUDA), so this file stays plain C that the tests link.
 */
#ifndef CONFORM_KERNEL_FILE_H
#define CONFORM_KERNEL_FILE_H

#include <stddef.h>

#include "worker/tunable.h"
#include "worker/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest kernel file read: far above any hand-written kernel, far
 * below what would hurt to hold and hash. */
#define KERNEL_FILE_MAX (1 << 20)
#define KERNEL_NAME_MAX 48   /* the NAME of user.NAME */
#define KERNEL_RULES_MAX 16
#define KERNEL_ARGS_MAX 16   /* the entry's parameters @args may name */

/* conform's problems a user kernel may solve. */
enum kernel_kind { KERNEL_REDUCE, KERNEL_ROWS, KERNEL_SOFTMAX, KERNEL_KIND_COUNT };

const char *kernel_kind_name(enum kernel_kind k);

/* The launch expressions, in the order they are evaluated. */
enum kernel_expr { KEXPR_BLOCK, KEXPR_SHARED, KEXPR_GRID, KEXPR_SCRATCH, KEXPR_COUNT };

/* "@block", "@shared", ... */
const char *kernel_expr_name(enum kernel_expr e);

/* What one parameter of the entry receives (@args): a buffer, or the
 * value of an expression, passed in the integer type the entry declares. */
enum kernel_arg_role { KARG_IN, KARG_OUT, KARG_SCRATCH, KARG_VALUE };

struct kernel_arg {
	enum kernel_arg_role role;
	const char *text;             /* as written: "in", "rows", "cols/4" */
};

/* What the caller gives every user variant: the entry points and, per
 * kind, the family whose references it is timed against. */
struct kernel_ops {
	int (*check)(const struct case_args *a, char *msg, size_t len);
	void (*run)(const struct case_args *a, struct case_result *r);
	void (*build)(const struct case_args *a, struct case_result *r);
	const struct variant_refs *refs[KERNEL_KIND_COUNT];
};

/* The entry points of a build with CUDA (user_kernel.cu). */
extern const struct kernel_ops user_kernel_ops;

struct kernel_file {
	struct variant variant;       /* user.NAME, pointing into this struct */
	char path[4096];
	char name[KERNEL_NAME_MAX + 8]; /* "user.NAME" */
	enum kernel_kind kind;
	char entry[256];              /* as written: "grid_sum", "full_reduce<THREADS, 4>" */
	char entry_name[128];         /* its function's name: "full_reduce" */
	int entry_line;               /* where @entry is, for the signature check's messages */
	/* Each parameter of the entry, in order: @args, else the kind's
	 * signature (in out n scratch; in out rows cols scratch). */
	struct kernel_arg args[KERNEL_ARGS_MAX];
	size_t nargs;
	int args_line;                /* where @args is (0: the kind's signature) */
	char summary[256];
	struct tunable tunables[TUNABLES_MAX];
	struct rule rules[KERNEL_RULES_MAX];
	struct tunable_set set;
	const char *expr[KEXPR_COUNT]; /* NULL: not given (shared, scratch: 0) */
	int cooperative;
	/* 1: the scratch is @workspace, which the kernel writes before it
	 * reads: poisoned before every checked launch, and free to be left
	 * dirty; 0: @scratch, zeroed once and to be left zeroed. */
	int workspace;
	/* The expectation and requirements, as a suite line would give them
	 * ("" when none), and the deadline (0: the run's). */
	char expect[16];
	char requires[64];
	double timeout_s;
	char *source;                 /* the file's bytes, NUL-terminated */
	size_t source_len;
	char sha256[65];              /* of the source */
	char changed[256];            /* why its cases are refused: the file is not the text
				       * conform's catalog read ("" when it is) */
	char *arena;                  /* the declaration's strings */
	size_t arena_used, arena_cap;
};

/* Reads path and parses its declaration into k, a variant whose entry
 * points are ops' (ops may be NULL: no entry points, for the tests).
 * Returns 0, or -1 with one line "PATH:LINE: why" (or "PATH: why"), k
 * then holding nothing to free. */
int kernel_file_load(struct kernel_file *k, const char *path, const struct kernel_ops *ops,
		     char *err, size_t len);

/* Same, from text already in memory (origin names it in messages). */
int kernel_file_parse(struct kernel_file *k, const char *origin, const char *text, size_t size,
		      const struct kernel_ops *ops, char *err, size_t len);

void kernel_file_free(struct kernel_file *k);

/* The file behind a user variant, or NULL for a built-in one. */
const struct kernel_file *kernel_file_of(const struct variant *v);

/* The problem and the device as the launch expressions see them. */
struct kernel_scope {
	const struct kernel_file *k;
	const int *values;            /* each tunable's bound value, in declaration order */
	struct problem pb;
	long long sms, occupancy;
};

/* Evaluates launch expression e (an absent one is 0).  Returns 0 with
 * *out, or -1 with a message naming the directive. */
int kernel_file_eval(const struct kernel_scope *s, enum kernel_expr e, long long *out, char *err,
		     size_t len);

/* Evaluates the expression of parameter i (a KARG_VALUE of @args).
 * Returns 0 with *out, or -1 with a message naming it. */
int kernel_file_eval_arg(const struct kernel_scope *s, size_t i, long long *out, char *err, size_t len);

/* The codes of the entry's parameters that the launch check writes into
 * the compiled code (conform_args_): a pointer, a pointer to const, or an
 * integer of KARG_CODE_BYTES bytes, KARG_CODE_SIGNED or not. */
#define KARG_CODE_POINTER 0x01
#define KARG_CODE_CONST_POINTER 0x02
#define KARG_CODE_INTEGER 0x40
#define KARG_CODE_SIGNED 0x80
#define KARG_CODE_BYTES 0x0f

/* Stores value v of parameter i as an integer of the type `code` says,
 * into out (2, 4 or 8 bytes, host order).  Returns 0; -1 with why when the
 * type cannot hold v (the case cannot be posed to this kernel: a SKIP);
 * -2 with why when code is no integer the launch can pass. */
int kernel_file_pack_arg(const struct kernel_file *k, size_t i, unsigned char code, long long v,
			 unsigned char out[8], char *why, size_t len);

/* The NAME of a file's variant when it declares none: the file name
 * without ".cu", lower-cased, every other character than [a-z0-9_] made
 * '_'.  Returns 0, or -1 when nothing is left of it. */
int kernel_file_default_name(const char *path, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
