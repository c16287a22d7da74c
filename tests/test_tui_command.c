/*
 * test_tui_command.c - the kernel options of a stored command line
 * (tui_command_kernel_options): the form with a space and with "=", files
 * and folders, a value never read as the next option, words that only
 * begin like the options.
 */
#include <stdio.h>
#include <string.h>

#include "tests/test.h"
#include "tui/tui_command.h"

static void collect(void *ctx, const char *option, const char *file, size_t flen)
{
	char *out = ctx;
	size_t used = strlen(out);
	snprintf(out + used, 512 - used, "%s<%s:%.*s>", used ? " " : "", option, (int)flen, file);
}

static void check(const char *cmd, int count, const char *want)
{
	char out[512] = "";
	CHECK_INT(tui_command_kernel_options(cmd, collect, out), count);
	CHECK_STR(out, want);
}

int main(void)
{
	check("", 0, "");
	check("run --all --seed 7", 0, "");
	check("tune --kernel examples/kernels/grid_sum.cu --n 2^24", 1,
	      "<--kernel:examples/kernels/grid_sum.cu>");
	check("run --kernel=a.cu  --kernels dir --kernels=other --kernel b.cu", 4,
	      "<--kernel:a.cu> <--kernels:dir> <--kernels:other> <--kernel:b.cu>");
	/* The value of --kernel is a file even when it looks like an option. */
	check("run --kernel --kernels --n 5", 1, "<--kernel:--kernels>");
	check("run --kernel --kernel x.cu", 1, "<--kernel:--kernel>");
	/* Words that only begin like the options, and an option with no value. */
	check("run --kernelsx a --kernel-file b --kernel= c --kernel", 0, "");
	return TEST_END();
}
