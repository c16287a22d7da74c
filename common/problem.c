/*
 * problem.c - the problem's names for expressions (see problem.h).
 */
#include "common/problem.h"

#include <stdio.h>
#include <string.h>

enum problem_name { PN_N, PN_ROWS, PN_COLS, PN_ESIZE, PN_F32, PN_F64, PN_I32, PN_BF16, PN_COUNT };

const char *const problem_names[PN_COUNT] = {"n", "rows", "cols", "esize", "f32", "f64", "i32", "bf16"};
const size_t problem_name_count = PN_COUNT;

static int name_index(const char *name, size_t len)
{
	for (int i = 0; i < PN_COUNT; i++)
		if (strlen(problem_names[i]) == len && strncmp(problem_names[i], name, len) == 0)
			return i;
	return -1;
}

int problem_lookup(const struct problem *pb, const char *name, size_t len, long long *out)
{
	static const enum dtype flag[] = {[PN_F32] = DTYPE_F32, [PN_F64] = DTYPE_F64,
					  [PN_I32] = DTYPE_I32, [PN_BF16] = DTYPE_BF16};

	int i = name_index(name, len);

	switch (i) {
	case PN_N: *out = pb->n; return 0;
	case PN_ROWS: *out = pb->cols > 0 ? pb->n : 1; return 0;
	case PN_COLS: *out = pb->cols; return 0;
	case PN_ESIZE: *out = (long long)dtype_size(pb->dtype); return 0;
	case PN_F32: case PN_F64: case PN_I32: case PN_BF16: *out = pb->dtype == flag[i]; return 0;
	default: return -1;
	}
}

int problem_is_name(const char *name, size_t len)
{
	return name_index(name, len) >= 0;
}

void problem_names_list(char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int i = 0; i < PN_COUNT && o < len; i++) {
		int w = snprintf(buf + o, len - o, "%s%s", i ? ", " : "", problem_names[i]);
		if (w < 0)
			return;
		o += (size_t)w;
	}
}
