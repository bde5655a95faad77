// SPDX-License-Identifier: GPL-2.0-or-later
/* Exclusive, non-blocking run locks in a directory no one else can write. */
#include "runlock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* a directory is safe when it is the caller's or root's and no one else may write in it */
static int safe_dir(const char *dir)
{
	struct stat st;
	int fd, ret = 0;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		ret = -errno;
	else if ((st.st_uid != geteuid() && st.st_uid != 0) || (st.st_mode & (S_IWGRP | S_IWOTH)))
		ret = -EPERM;
	close(fd);
	return ret;
}

static int make_dir(const char *dir, mode_t mode)
{
	if (mkdir(dir, mode) && errno != EEXIST)
		return -errno;
	return safe_dir(dir);
}

int rtp_runlock_dir(char *buf, size_t len)
{
	const char *env = getenv("RTPROOF_RUN_DIR");
	int ret;

	if (env && env[0]) {
		snprintf(buf, len, "%s", env);
		return make_dir(buf, 0700);
	}
	snprintf(buf, len, "/run/rtproof");
	ret = make_dir(buf, 0755);
	if (ret != -EACCES && ret != -EROFS && ret != -ENOENT)
		return ret;
	/* no /run of ours: a directory of the caller's own under /tmp, never a shared name */
	snprintf(buf, len, "/tmp/rtproof-%u", (unsigned)geteuid());
	ret = make_dir(buf, 0700);
	if (!ret) {
		struct stat st;

		if (lstat(buf, &st) || st.st_uid != geteuid() || (st.st_mode & 077))
			ret = -EPERM;
	}
	return ret;
}

int rtp_runlock_take(const char *dir, const char *name, struct rtp_runlock *l, int *holder)
{
	char d[PATH_MAX - 64], txt[32];
	struct stat st;
	ssize_t n;
	int dfd, ret;

	l->fd = -1;
	*holder = 0;
	if (dir) {
		snprintf(d, sizeof(d), "%s", dir);
		ret = safe_dir(d);
	} else {
		ret = rtp_runlock_dir(d, sizeof(d));
	}
	snprintf(l->path, sizeof(l->path), "%s", d);
	if (ret)
		return ret;
	snprintf(l->path, sizeof(l->path), "%s/%s.lock", d, name);
	dfd = open(d, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	l->fd = openat(dfd, strrchr(l->path, '/') + 1, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	ret = l->fd < 0 ? -errno : 0;
	close(dfd);
	if (ret)
		return ret == -ELOOP ? -EPERM : ret;
	if (fstat(l->fd, &st)) {
		ret = -errno;
		goto close_fd;
	}
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink != 1) {
		ret = -EPERM;
		goto close_fd;
	}
	if (flock(l->fd, LOCK_EX | LOCK_NB)) {
		ret = errno == EWOULDBLOCK ? -EBUSY : -errno;
		if (ret == -EBUSY) {
			n = pread(l->fd, txt, sizeof(txt) - 1, 0);
			if (n > 0) {
				txt[n] = 0;
				*holder = atoi(txt);
			}
		}
		goto close_fd;
	}
	n = snprintf(txt, sizeof(txt), "%d\n", (int)getpid());
	if (ftruncate(l->fd, 0) || pwrite(l->fd, txt, (size_t)n, 0) != n) {
		ret = -errno;
		goto unlock;
	}
	return 0;
unlock:
	flock(l->fd, LOCK_UN);
close_fd:
	close(l->fd);
	l->fd = -1;
	return ret;
}

void rtp_runlock_release(struct rtp_runlock *l)
{
	if (l->fd < 0)
		return;
	/* the file stays (unlinking it would let a waiter lock a name no one else sees) */
	if (ftruncate(l->fd, 0)) {
		/* a stale pid in it is harmless: the lock, not the text, decides */
	}
	flock(l->fd, LOCK_UN);
	close(l->fd);
	l->fd = -1;
}
