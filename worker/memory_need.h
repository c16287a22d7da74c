/*
 * memory_need.h - the memory a case's buffers take, counted before they
 * are allocated, and the SKIP that says so when they do not fit.
 *
 * A problem too large for the machine it runs on (2^31 elements and a
 * scratch of 4 n bytes on a GPU of 24 GB, or its input and reference on
 * a host with little memory free) is no fault of the kernel: the case is
 * SKIPPED with a message naming each buffer and what the machine has,
 * "needs 25.8 GB of device memory (input 8.6 GB, output 4 B, scratch 17.2
 * GB), the device has 21.3 GB free".  The drivers fill a memory_need
 * with their buffers (reduce_driver.cu for the device, and the host
 * copies of the input and reference there and in softmax_driver.cu);
 * the arithmetic and the words live here, plain C, so the tests check
 * them without a GPU.  Sizes are in bytes; sums saturate at SIZE_MAX
 * rather than wrap, so a need that cannot be met never looks small.
 */
#ifndef CONFORM_MEMORY_NEED_H
#define CONFORM_MEMORY_NEED_H

#include <stddef.h>

#include "common/case.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MEMORY_NEED_PARTS 6

struct memory_need {
	const char *where;                       /* "device" or "host" */
	int count;
	const char *name[MEMORY_NEED_PARTS];     /* "input", "output", "scratch", ... */
	size_t bytes[MEMORY_NEED_PARTS];
	size_t total;                            /* the parts and the overheads */
};

/* An empty need of `where`'s memory. */
void memory_need_init(struct memory_need *m, const char *where);

/* Adds a buffer of `bytes`, named in the message (name NULL: counted
 * only), and `overhead` bytes counted but never named (its guard zones). */
void memory_need_add(struct memory_need *m, const char *name, size_t bytes, size_t overhead);

/* bytes in decimal units, to one decimal: "4 B", "8.6 GB", "1.2 TB". */
void memory_bytes_format(size_t bytes, char *buf, size_t len);

/* Sets r SKIPPED: "needs T of WHERE memory (PART B, ...), the WHERE has
 * HAVE free" (the host: "available"), then "; " and note when given. */
void memory_need_skip(const struct memory_need *m, size_t have, const char *note,
		      struct case_result *r);

/* 0 when m fits in `have` bytes, else -1 with r SKIPPED (memory_need_skip). */
int memory_need_check(const struct memory_need *m, size_t have, struct case_result *r);

/* The host's memory available to a new allocation now: MemAvailable of
 * /proc/meminfo (else the free pages), or less where the worker's memory
 * cgroup allows less; SIZE_MAX when it cannot be told, so that the
 * allocation itself decides. */
size_t memory_host_available(void);

#ifdef __cplusplus
}
#endif
#endif
