/*
 * file_read.c - reading an input file whole, within a bound (file_read.h).
 */
#include "file_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"

int file_read_bounded(const char *path, size_t max, char **data, size_t *size, char *err,
		      size_t len)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL, chunk[8192];
	size_t n = 0, cap = 0, got;
	int oom = 0;

	*data = NULL;
	*size = 0;
	if (!f) {
		snprintf(err, len, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
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
