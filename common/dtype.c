/*
 * dtype.c - names and sizes of element types and reduction operators.
 *
 * The names are the words suite files, the wire protocol and the database
 * use; the tables below are indexed by the enums and must stay in enum order.
 */
#include "common/dtype.h"
#include "common/text.h"

#include <string.h>

static const char *const dtype_names[DTYPE_COUNT] = {
	"f32", "f64", "i32", "u32", "bf16",
};

static const size_t dtype_sizes[DTYPE_COUNT] = { 4, 8, 4, 4, 2 };

static const char *const op_names[OP_COUNT] = { "sum", "max", "min" };

const char *dtype_name(enum dtype d)
{
	return (unsigned)d < DTYPE_COUNT ? dtype_names[d] : "?";
}

int dtype_parse(const char *word, enum dtype *out)
{
	int i = text_index(dtype_names, DTYPE_COUNT, word);
	if (i < 0)
		return -1;
	*out = (enum dtype)i;
	return 0;
}

size_t dtype_size(enum dtype d)
{
	return (unsigned)d < DTYPE_COUNT ? dtype_sizes[d] : 0;
}

int dtype_is_float(enum dtype d)
{
	return d == DTYPE_F32 || d == DTYPE_F64 || d == DTYPE_BF16;
}

int dtype_smallest(unsigned set)
{
	int best = -1;

	for (int d = 0; d < DTYPE_COUNT; d++)
		if ((set & DTYPE_BIT(d)) && (best < 0 || dtype_sizes[d] < dtype_sizes[best]))
			best = d;
	return best;
}

const char *op_name(enum op o)
{
	return (unsigned)o < OP_COUNT ? op_names[o] : "?";
}

int op_parse(const char *word, enum op *out)
{
	int i = text_index(op_names, OP_COUNT, word);
	if (i < 0)
		return -1;
	*out = (enum op)i;
	return 0;
}
