/*
 * whole_file.c - writing a file through a temporary one (whole_file.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file_read.h"
#include "common/whole_file.h"

/* Why path, when it exists, is not a file to replace (a symbolic link
 * included: the rename would replace the link); NULL when it is a regular
 * file or does not exist. */
static const char *refusal_of(const char *path)
{
	struct stat sb;

	return lstat(path, &sb) == 0 ? file_type_refusal(sb.st_mode) : NULL;
}

const char *whole_file_why(const struct whole_file *w, int err)
{
	return w->refused ? w->refused : strerror(err);
}

int whole_file_open(struct whole_file *w, const char *path)
{
	size_t n = strlen(path) + sizeof ".XXXXXX";
	int fd;

	memset(w, 0, sizeof *w);
	w->path = path;
	if ((w->refused = refusal_of(path)) != NULL) {
		errno = EINVAL;
		return -1;
	}
	if (!(w->tmp = malloc(n)))
		return -1;
	snprintf(w->tmp, n, "%s.XXXXXX", path);
	if ((fd = mkstemp(w->tmp)) < 0 || !(w->f = fdopen(fd, "w"))) {
		int e = errno;
		if (fd >= 0) {
			close(fd);
			unlink(w->tmp);
		}
		free(w->tmp);
		w->tmp = NULL;
		errno = e;
		return -1;
	}
	/* mkstemp makes it 0600; the file is as readable as any other. */
	mode_t mask = umask(0);
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
	return 0;
}

int whole_file_commit(struct whole_file *w)
{
	FILE *f = w->f;
	int e;

	w->f = NULL;
	if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0) {
		e = errno ? errno : EIO;
		fclose(f);
		goto fail;
	}
	if (fclose(f) != 0 || rename(w->tmp, w->path) != 0) {
		e = errno;
		goto fail;
	}
	free(w->tmp);
	w->tmp = NULL;
	return 0;
fail:
	whole_file_abort(w);
	errno = e;
	return -1;
}

void whole_file_abort(struct whole_file *w)
{
	if (w->f)
		fclose(w->f);
	if (w->tmp)
		unlink(w->tmp);
	free(w->tmp);
	w->f = NULL;
	w->tmp = NULL;
}
