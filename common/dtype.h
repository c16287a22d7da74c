/*
 * dtype.h - element types and reduction operators, shared by host code and
 * kernels (plain C, no CUDA types).
 */
#ifndef CONFORM_DTYPE_H
#define CONFORM_DTYPE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum dtype { DTYPE_F32, DTYPE_F64, DTYPE_I32, DTYPE_U32, DTYPE_BF16, DTYPE_COUNT };
#define DTYPE_BIT(d) (1u << (d))

enum op { OP_SUM, OP_MAX, OP_MIN, OP_COUNT };
#define OP_BIT(o) (1u << (o))

const char *dtype_name(enum dtype d);
int dtype_parse(const char *word, enum dtype *out);
size_t dtype_size(enum dtype d);
int dtype_is_float(enum dtype d);
/* The smallest type of a set of DTYPE_BITs (the first in enum order of
 * those of its size), or -1 for an empty set. */
int dtype_smallest(unsigned set);

const char *op_name(enum op o);
int op_parse(const char *word, enum op *out);

#ifdef __cplusplus
}
#endif
#endif
