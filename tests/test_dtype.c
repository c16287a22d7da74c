/*
 * test_dtype.c - element types and operators by name and size (common/dtype.h).
 *
 * Expected values are worked out by hand (or are published test vectors),
 * never recomputed with the code under test.
 */
#include "common/dtype.h"
#include "tests/test.h"

static void test_dtype(void)
{
	enum dtype d;
	enum op o;

	CHECK_STR(dtype_name(DTYPE_F32), "f32");
	CHECK_STR(dtype_name(DTYPE_F64), "f64");
	CHECK_STR(dtype_name(DTYPE_I32), "i32");
	CHECK_STR(dtype_name(DTYPE_U32), "u32");
	CHECK_STR(dtype_name(DTYPE_BF16), "bf16");
	for (int i = 0; i < DTYPE_COUNT; i++) {
		CHECK_INT(dtype_parse(dtype_name((enum dtype)i), &d), 0);
		CHECK_INT(d, i);
	}
	CHECK_INT(dtype_parse("f16", &d), -1);
	CHECK_INT(dtype_parse("F32", &d), -1);
	CHECK_INT(dtype_parse("", &d), -1);
	CHECK_INT(dtype_size(DTYPE_F32), 4);
	CHECK_INT(dtype_size(DTYPE_F64), 8);
	CHECK_INT(dtype_size(DTYPE_I32), 4);
	CHECK_INT(dtype_size(DTYPE_U32), 4);
	CHECK_INT(dtype_size(DTYPE_BF16), 2);
	CHECK(dtype_is_float(DTYPE_F32) && dtype_is_float(DTYPE_F64) && dtype_is_float(DTYPE_BF16));
	CHECK(!dtype_is_float(DTYPE_I32) && !dtype_is_float(DTYPE_U32));

	CHECK_STR(op_name(OP_SUM), "sum");
	CHECK_STR(op_name(OP_MAX), "max");
	CHECK_STR(op_name(OP_MIN), "min");
	CHECK_INT(op_parse("min", &o), 0);
	CHECK_INT(o, OP_MIN);
	CHECK_INT(op_parse("prod", &o), -1);
}

int main(void)
{
	test_dtype();
	return TEST_END();
}
