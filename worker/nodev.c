/*
 * nodev.c - the no-GPU reason (see nodev.h).
 *
 * The order of the tests is the order of what must be true for a GPU to be
 * used: a driver, recent enough, seeing devices, the one asked for.
 */
#include "worker/nodev.h"

#include <stdio.h>

/* "12.2" from 12020, CUDA's encoding (1000 * major + 10 * minor). */
static void version_text(int v, char *buf, size_t len)
{
	snprintf(buf, len, "%d.%d", v / 1000, v % 1000 / 10);
}

void nodev_describe(const struct nodev_facts *f, char *buf, size_t len)
{
	char driver[32], runtime[32];
	const char *text = f->error_text ? f->error_text : "unknown error";
	version_text(f->driver_version, driver, sizeof driver);
	version_text(f->runtime_version, runtime, sizeof runtime);
	if (f->driver_version <= 0)
		snprintf(buf, len, "no CUDA driver found (libcuda.so.1 cannot be loaded)");
	else if (f->error == NODEV_CUDA_INSUFFICIENT_DRIVER)
		snprintf(buf, len, "CUDA driver too old: it supports CUDA %s, this worker needs %s",
			 driver, runtime);
	else if (f->error == NODEV_CUDA_SYSTEM_DRIVER_MISMATCH)
		snprintf(buf, len, "CUDA driver %s does not match the loaded kernel module (%s)",
			 driver, text);
	else if (f->error == NODEV_CUDA_NO_DEVICE ||
		 (f->error == NODEV_CUDA_SUCCESS && f->count <= 0))
		snprintf(buf, len, "no CUDA device found (CUDA driver %s)", driver);
	else if (f->error != NODEV_CUDA_SUCCESS)
		snprintf(buf, len, "CUDA unavailable: %s (error %d)", text, f->error);
	else
		snprintf(buf, len, "no CUDA device %d: %d present", f->device, f->count);
}
