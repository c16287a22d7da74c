/*
 * file_read.c - reading an input file whole, within a bound (file_read.h).
 */
#include "common/file_read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/vec.h"

const char *file_type_refusal(mode_t m)
{
	if (S_ISREG(m))
		return NULL;
	if (S_ISDIR(m))
		return "it is a directory";
	if (S_ISLNK(m))
		return "it is a symbolic link, not a regular file";
	if (S_ISFIFO(m))
		return "it is a FIFO, not a regular file";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "it is a device, not a regular file";
	return "it is not a regular file";
}

/* path opened for reading if it is a regular file: O_NONBLOCK, so that
 * opening a FIFO does not wait for a writer.  NULL with err set. */
static FILE *open_regular(const char *path, char *err, size_t len)
{
	const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat sb;
	const char *why;
	FILE *f;

	if (fd < 0) {
		snprintf(err, len, "%s: cannot read: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &sb) == 0 && (why = file_type_refusal(sb.st_mode)) != NULL) {
		snprintf(err, len, "%s: cannot read: %s", path, why);
		close(fd);
		return NULL;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 || !(f = fdopen(fd, "rb"))) {
		snprintf(err, len, "%s: cannot read: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	return f;
}

int file_read_bounded(const char *path, size_t max, char **data, size_t *size, char *err,
		      size_t len)
{
	char *text = NULL, chunk[8192];
	size_t n = 0, cap = 0, got;
	int oom = 0;

	*data = NULL;
	*size = 0;
	FILE *f = open_regular(path, err, len);
	if (!f)
		return -1;
	/* One byte past max is enough to know there was more: an endless
	 * input costs no more than that. */
	while (n <= max) {
		size_t want = max + 1 - n;
		if ((got = fread(chunk, 1, want < sizeof chunk ? want : sizeof chunk, f)) == 0)
			break;
		if (vec_reserve(text, n, cap, got + 1) < 0) { /* + 1: the terminator */
			oom = 1;
			break;
		}
		memcpy(text + n, chunk, got);
		n += got;
	}
	if (!oom && !text && !(text = malloc(1)))
		oom = 1;
	if (oom || ferror(f)) {
		snprintf(err, len, "%s: cannot read: %s", path, oom ? "out of memory" : strerror(errno));
		fclose(f);
		free(text);
		return -1;
	}
	fclose(f);
	text[n] = '\0';
	*data = text;
	*size = n;
	return 0;
}
