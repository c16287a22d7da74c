/*
 * compare_print.h - conform compare's answer as text, Markdown, JSON lines
 * and JUnit (compare_print.c).  verbose lists the SAME configurations and
 * the new and removed entries too.
 */
#ifndef CONFORM_COMPARE_PRINT_H
#define CONFORM_COMPARE_PRINT_H

#include <stdio.h>

#include "compare.h"

void compare_print_table(FILE *f, const struct compare_result *r, int verbose);
void compare_print_markdown(FILE *f, const struct compare_result *r, int verbose);
void compare_print_json(FILE *f, const struct compare_result *r);
void compare_print_junit(FILE *f, const struct compare_result *r);

#endif
