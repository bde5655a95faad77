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
	if (!ret && faccessat(AT_FDCWD, buf, W_OK | X_OK, AT_EACCESS))
		ret = -errno;	/* root's: a user's run (a --tracefs of its own) locks apart */
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

/* opens the lock file in dfd: never through a link, only a file of ours */
static int open_lock(int dfd, const char *file, struct stat *st)
{
	int fd = openat(dfd, file, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);

	if (fd < 0)
		return errno == ELOOP ? -EPERM : -errno;
	if (fstat(fd, st)) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	if (!S_ISREG(st->st_mode) || st->st_uid != geteuid() || st->st_nlink != 1) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

int rtp_runlock_take(const char *dir, const char *name, struct rtp_runlock *l, int *holder)
{
	char d[PATH_MAX - 64], txt[32];
	const char *file;
	struct stat st, now;
	int dfd, ret, tries;
	ssize_t n;

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
	file = strrchr(l->path, '/') + 1;
	dfd = open(d, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	/*
	 * The holder unlinks the file before it lets go (no file left behind):
	 * a lock taken on a file since unlinked or replaced is no lock, so it
	 * is taken again on what the name holds now.
	 */
	for (tries = 0; tries < 8; tries++) {
		ret = open_lock(dfd, file, &st);
		if (ret < 0)
			goto close_dir;
		l->fd = ret;
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
		if (!fstatat(dfd, file, &now, AT_SYMLINK_NOFOLLOW) && now.st_dev == st.st_dev &&
		    now.st_ino == st.st_ino)
			break;
		close(l->fd);
		l->fd = -1;
	}
	if (l->fd < 0) {
		ret = -EAGAIN;
		goto close_dir;
	}
	n = snprintf(txt, sizeof(txt), "%d\n", (int)getpid());
	if (ftruncate(l->fd, 0) || pwrite(l->fd, txt, (size_t)n, 0) != n) {
		ret = -errno;
		goto unlink_file;
	}
	close(dfd);
	return 0;
unlink_file:
	unlinkat(dfd, file, 0);
close_fd:
	close(l->fd);
	l->fd = -1;
close_dir:
	close(dfd);
	return ret;
}

void rtp_runlock_release(struct rtp_runlock *l)
{
	if (l->fd < 0)
		return;
	/* unlinked while still held: a taker that opened it sees the name gone and retries */
	unlink(l->path);
	close(l->fd);
	l->fd = -1;
}
