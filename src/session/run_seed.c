/*
 * run_seed.c - a fresh seed for a run (run_seed.h).
 */
#include "session/run_seed.h"

#include <fcntl.h>
#include <unistd.h>

#include "common/text.h"

uint64_t run_seed_fresh(void)
{
	uint64_t s = 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (read(fd, &s, sizeof s) != (ssize_t)sizeof s)
			s = 0;
		close(fd);
	}
	if (!s)
		s = (uint64_t)getpid() * 0x9E3779B97F4A7C15ull ^ (uint64_t)(text_now() * 1e9);
	return s % 1000000000000ull; /* short enough to retype */
}
