/*
 * paths.h - where conform finds its worker program and its suites, and
 * whether two paths are one file.
 *
 * An installed conform finds both under libexec and share beside its bin
 * directory, wherever the tree has been moved since configure (the tree is
 * relocatable); a build tree finds the worker next to the binary and the
 * suites in the source tree; then the directories configure chose.
 * Environment variables override all of these: CONFORM_WORKER,
 * CONFORM_SUITES.  It also finds compute-sanitizer (CONFORM_SANITIZER).
 */
#ifndef CONFORM_PATHS_H
#define CONFORM_PATHS_H

#include <stddef.h>

/* The running conform's own path (from /proc/self/exe, so a symlink to the
 * binary gives the binary).  Returns 0, or -1 with errno set. */
int paths_self(char *buf, size_t len);

/* Returns 0 and the worker's path, or -1 with a message. */
int paths_worker(char *buf, size_t len, char *err, size_t errlen);

/* Returns 0 and the suites directory, or -1 with a message. */
int paths_suites(char *buf, size_t len, char *err, size_t errlen);

/* compute-sanitizer, for run --sanitize: $CONFORM_SANITIZER, else the
 * first on PATH, else beside a CUDA toolkit ($CUDA_HOME, $CUDA_PATH, the
 * one the build used, /usr/local/cuda).  Returns 0 and its path; -1 with
 * a message when CONFORM_SANITIZER names no program (the user's mistake);
 * -2 with one when there is none to be found (this machine's lack). */
int paths_sanitizer(char *buf, size_t len, char *err, size_t errlen);

/* 1 when a and b name the same file, whether it exists yet or not
 * ("x.db", "./x.db", a symlink to it, a hard link); else 0.  Two outputs on
 * one path would overwrite each other, so commands refuse them. */
int paths_same_file(const char *a, const char *b);

/* 1 when path is the database db_path or its -wal, -shm or -journal file
 * (paths_same_file), with *which "" or that suffix; else 0.  An output
 * there would replace the database. */
int paths_is_database(const char *path, const char *db_path, const char **which);

#endif
