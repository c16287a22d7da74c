/*
 * kernel_list.h - the user's kernel files a command was given (--kernel
 * FILE, --kernels DIR), as conform passes them to every worker it starts.
 *
 * conform does not read the files: the worker does (its catalog lists each
 * as user.NAME, or refuses the file with the reason), so one parser judges
 * a file for the catalog, the cases and the runs alike.  Here they are only
 * collected and checked to exist, to be regular files and to have names
 * that print as they are, so that a typo in a path, a pipe or a name that
 * could not travel is said before a worker starts.
 */
#ifndef CONFORM_KERNEL_LIST_H
#define CONFORM_KERNEL_LIST_H

#include <stddef.h>

#define KERNEL_LIST_MAX 64

struct kernel_list {
	char *paths[KERNEL_LIST_MAX];
	/* Each file's SHA-256 as the catalog read it (kernel_list_pin), or
	 * NULL: every worker started later is told it, and runs no case of a
	 * file that has changed since (an edit in the middle of a run would
	 * otherwise be stored under the hash of the text before it). */
	const char *source[KERNEL_LIST_MAX];
	size_t n;
};

/* Adds one file (nothing when the same file is there, by whatever path).
 * Returns 0, or -1 with a message: missing, a directory or anything else
 * that is not a regular file (a FIFO, the pipe of <(...)), a name that
 * is not printable text (shown sanitised), too many. */
int kernel_list_add(struct kernel_list *kl, const char *path, char *err, size_t len);

/* Adds every *.cu file of dir, in name order; a directory named *.cu is
 * passed over.  Returns 0, or -1 with a message (unreadable, no .cu file
 * in it, or kernel_list_add's refusal of one of them). */
int kernel_list_add_dir(struct kernel_list *kl, const char *dir, char *err, size_t len);

void kernel_list_free(struct kernel_list *kl);

struct catalog;
/* Takes each file's source hash from the catalog (the entry of its path);
 * the strings stay the catalog's. */
void kernel_list_pin(struct kernel_list *kl, const struct catalog *cat);

/* Fills argv with prog, first (when not NULL), then "--kernel" and a path
 * for each file (kl may be NULL), followed by "--source" and its hash when
 * pinned, then NULL: at most 3 + 4 * KERNEL_LIST_MAX entries. */
#define KERNEL_LIST_ARGV_MAX (3 + 4 * KERNEL_LIST_MAX)
void kernel_list_argv(const struct kernel_list *kl, char **argv, const char *prog, const char *first);

#endif
