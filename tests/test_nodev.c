/*
 * test_nodev.c - the no-GPU reason says what is true: no driver at all is
 * not a driver too old, and neither is a machine without devices.  The
 * facts are those the CUDA runtime reports in each case (with no driver:
 * cudaErrorInsufficientDriver and driver version 0).
 */
#include "tests/test.h"
#include "worker/nodev.h"

static const char *describe(int error, const char *text, int count, int device, int driver)
{
	static char buf[256];
	struct nodev_facts f = {.error = error, .error_text = text, .count = count, .device = device,
				.driver_version = driver, .runtime_version = 13000};
	nodev_describe(&f, buf, sizeof buf);
	return buf;
}

int main(void)
{
	const char *insufficient = "CUDA driver version is insufficient for CUDA runtime version";
	/* No libcuda: the runtime says "insufficient", the driver version is 0. */
	CHECK_STR(describe(NODEV_CUDA_INSUFFICIENT_DRIVER, insufficient, 0, 0, 0),
		  "no CUDA driver found (libcuda.so.1 cannot be loaded)");
	/* A driver, older than the runtime. */
	CHECK_STR(describe(NODEV_CUDA_INSUFFICIENT_DRIVER, insufficient, 0, 0, 12020),
		  "CUDA driver too old: it supports CUDA 12.2, this worker needs 13.0");
	/* A driver, no device: by error or by count. */
	CHECK_STR(describe(NODEV_CUDA_NO_DEVICE, "no CUDA-capable device is detected", 0, 0, 13000),
		  "no CUDA device found (CUDA driver 13.0)");
	CHECK_STR(describe(NODEV_CUDA_SUCCESS, "no error", 0, 0, 13020),
		  "no CUDA device found (CUDA driver 13.2)");
	/* Devices, but not the one asked for. */
	CHECK_STR(describe(NODEV_CUDA_SUCCESS, "no error", 2, 3, 13000), "no CUDA device 3: 2 present");
	/* A user-space driver that does not match the kernel module. */
	CHECK_CONTAINS(describe(NODEV_CUDA_SYSTEM_DRIVER_MISMATCH,
				"system has unsupported display driver / cuda driver combination", 0, 0, 13000),
		       "does not match the loaded kernel module");
	/* Anything else: the runtime's words and its number. */
	CHECK_STR(describe(46, "CUDA-capable device(s) is/are busy or unavailable", 0, 0, 13000),
		  "CUDA unavailable: CUDA-capable device(s) is/are busy or unavailable (error 46)");
	CHECK_STR(describe(999, NULL, 0, 0, 13000), "CUDA unavailable: unknown error (error 999)");
	return TEST_END();
}
