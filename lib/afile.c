// SPDX-License-Identifier: GPL-2.0-or-later
/* A file written whole or not at all. */
#include "afile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static mode_t a_umask(void)
{
	mode_t m = umask(022);

	umask(m);
	return m;
}

int rtp_afile_open(struct rtp_afile *a, const char *path)
{
	int fd;

	memset(a, 0, sizeof(*a));
	if (!strcmp(path, "-")) {
		a->to_stdout = true;
		a->f = stdout;
		return 0;
	}
	if (!*path)
		return -ENOENT;
	if (strlen(path) >= sizeof(a->path))
		return -ENAMETOOLONG;
	snprintf(a->path, sizeof(a->path), "%s", path);
	snprintf(a->tmp, sizeof(a->tmp), "%s.tmp.XXXXXX", path);
	fd = mkostemp(a->tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* mkstemp's 0600 would hide results from other users: 0644 as umask allows. */
	if (fchmod(fd, 0644 & ~a_umask())) {
		/* harmless: the file stays private */
	}
	a->f = fdopen(fd, "w");
	if (!a->f) {
		int err = -errno;

		close(fd);
		unlink(a->tmp);
		return err;
	}
	return 0;
}

int rtp_afile_commit(struct rtp_afile *a)
{
	int err = 0;

	if (a->to_stdout)
		return fflush(stdout) ? -EIO : 0;
	if (!a->f)
		return -EBADF;
	if (ferror(a->f))
		err = -EIO;
	if (fflush(a->f) && !err)
		err = -errno;
	if (!err && fsync(fileno(a->f)))
		err = -errno;
	if (fclose(a->f) && !err)
		err = -errno;
	a->f = NULL;
	if (!err && rename(a->tmp, a->path))
		err = -errno;
	if (err)
		unlink(a->tmp);
	return err;
}

void rtp_afile_abort(struct rtp_afile *a)
{
	if (a->to_stdout || !a->f)
		return;
	fclose(a->f);
	a->f = NULL;
	unlink(a->tmp);
}
