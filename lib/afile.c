// SPDX-License-Identifier: GPL-2.0-or-later
#include "afile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/magic.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

enum { KIND_ATOMIC, KIND_THROUGH };

static mode_t a_umask(void)
{
	mode_t m = umask(022);

	umask(m);
	return m;
}

/* fd 0, or -errno; EAGAIN waits (a descriptor someone made non-blocking). */
static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			struct pollfd pfd = { .fd = fd, .events = POLLOUT };

			if (errno == EINTR)
				continue;
			if (errno == EAGAIN) {
				poll(&pfd, 1, 1000);
				continue;
			}
			return -errno;
		}
		if (w == 0)
			return -EIO;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* write_all with SIGPIPE held off in this thread: a closed pipe is EPIPE, not death. */
static int write_all_nopipe(int fd, const char *p, size_t n)
{
	sigset_t pipe_set, old;
	int err;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	err = write_all(fd, p, n);
	if (err == -EPIPE && !sigismember(&old, SIGPIPE)) {
		struct timespec zero = { 0, 0 };

		sigtimedwait(&pipe_set, NULL, &zero);	/* the SIGPIPE this write raised */
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err;
}

/* The stream's sink: to the temporary file, or into memory; keeps the first error. */
static ssize_t a_write(void *cookie, const char *buf, size_t size)
{
	struct rtp_afile *a = cookie;
	int err;

	if (a->err) {
		errno = -a->err;
		return -1;
	}
	if (!a->through) {
		err = write_all(a->fd, buf, size);
		if (err) {
			a->err = err;
			errno = -err;
			return -1;
		}
		return (ssize_t)size;
	}
	if (a->len + size > a->cap) {
		size_t cap = a->cap ? a->cap : 4096;
		char *nb;

		while (cap < a->len + size)
			cap *= 2;
		nb = realloc(a->buf, cap);
		if (!nb) {
			a->err = -ENOMEM;
			errno = ENOMEM;
			return -1;
		}
		a->buf = nb;
		a->cap = cap;
	}
	memcpy(a->buf + a->len, buf, size);
	a->len += size;
	return (ssize_t)size;
}

static bool on_procfs(const char *path)
{
	char dir[PATH_MAX];
	struct statfs sf;

	snprintf(dir, sizeof(dir), "%s", path);
	return !statfs(dirname(dir), &sf) && sf.f_type == PROC_SUPER_MAGIC;
}

/*
 * The kernel's fs.protected_symlinks rule for a link we are about to follow
 * (fs/namei.c may_follow_link): allowed when the caller owns the link, when
 * the directory holding it is not both sticky and world-writable, or when
 * that directory's owner owns the link too.  Otherwise -EACCES, as open(2)
 * would say: someone else's link in /tmp never steers a write.
 */
static int may_follow(const char *link, const struct stat *lst)
{
	char dir[PATH_MAX];
	struct stat dst;

	if (lst->st_uid == geteuid())
		return 0;
	snprintf(dir, sizeof(dir), "%s", link);
	if (stat(dirname(dir), &dst))
		return -errno;
	if ((dst.st_mode & (S_ISVTX | S_IWOTH)) != (S_ISVTX | S_IWOTH))
		return 0;
	if (dst.st_uid == lst->st_uid)
		return 0;
	return -EACCES;
}

/*
 * Follows path's symbolic links into a->target and says how to write it:
 * KIND_ATOMIC (new or regular), KIND_THROUGH (FIFO, character device, a
 * /proc fd link), or a negative errno for what is refused (-EACCES: a link
 * may_follow() will not follow).
 */
static int resolve(struct rtp_afile *a, struct stat *st, bool *exists, bool *fdlink)
{
	char cur[PATH_MAX], link[PATH_MAX], dir[PATH_MAX];
	int hops;

	*exists = false;
	*fdlink = false;
	snprintf(cur, sizeof(cur), "%s", a->path);
	for (hops = 0; hops < 40; hops++) {
		ssize_t n;

		if (lstat(cur, st)) {
			if (errno != ENOENT)
				return -errno;
			snprintf(a->target, sizeof(a->target), "%s", cur);
			return KIND_ATOMIC;	/* a new file (or a missing directory: create says) */
		}
		if (!S_ISLNK(st->st_mode))
			break;
		if (on_procfs(cur)) {
			/* /dev/stdout, /dev/fd/N, /proc/self/fd/N: the open file itself */
			if (stat(cur, st))
				return -errno;
			*exists = true;
			*fdlink = true;
			snprintf(a->target, sizeof(a->target), "%s", cur);
			if (S_ISDIR(st->st_mode))
				return -EISDIR;
			if (S_ISBLK(st->st_mode))
				return -ENOTSUP;
			return KIND_THROUGH;
		}
		n = may_follow(cur, st);
		if (n)
			return (int)n;
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0)
			return -errno;
		link[n] = '\0';
		if (link[0] == '/') {
			snprintf(cur, sizeof(cur), "%s", link);
		} else {
			snprintf(dir, sizeof(dir), "%s", cur);
			if (snprintf(cur, sizeof(cur), "%s/%s", dirname(dir), link) >= (int)sizeof(cur))
				return -ENAMETOOLONG;
		}
	}
	if (hops == 40)
		return -ELOOP;
	*exists = true;
	snprintf(a->target, sizeof(a->target), "%s", cur);
	if (S_ISREG(st->st_mode))
		return KIND_ATOMIC;
	if (S_ISFIFO(st->st_mode) || S_ISCHR(st->st_mode))
		return KIND_THROUGH;
	if (S_ISDIR(st->st_mode))
		return -EISDIR;
	return -ENOTSUP;	/* a block device or a socket: not an output file */
}

static int open_stream(struct rtp_afile *a)
{
	cookie_io_functions_t io = { .write = a_write };

	a->f = fopencookie(a, "w", io);
	return a->f ? 0 : -errno;
}

int rtp_afile_open(struct rtp_afile *a, const char *path)
{
	struct stat st;
	bool exists, fdlink;
	int kind, ret;

	memset(a, 0, sizeof(*a));
	a->fd = -1;
	if (!strcmp(path, "-")) {
		a->to_stdout = true;
		a->through = true;
		a->fd = STDOUT_FILENO;
		snprintf(a->path, sizeof(a->path), "-");
		return open_stream(a);
	}
	if (!*path)
		return -ENOENT;
	if (strlen(path) >= sizeof(a->path))
		return -ENAMETOOLONG;
	snprintf(a->path, sizeof(a->path), "%s", path);
	kind = resolve(a, &st, &exists, &fdlink);
	a->fdlink = fdlink;
	if (kind < 0)
		return kind;
	if (kind == KIND_THROUGH) {
		a->through = true;
		/*
		 * Opened now so a refusal shows before the run.  A named FIFO with
		 * no reader yet (ENXIO) waits for one at commit; a pipe reached
		 * through /dev/stdout whose reader is gone is a closed pipe.
		 */
		a->fd = open(a->target, O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
		if (a->fd < 0) {
			if (errno == ENXIO && fdlink)
				return -EPIPE;
			if (errno != ENXIO || !S_ISFIFO(st.st_mode))
				return -errno;
			if (access(a->target, W_OK))
				return -errno;
		} else {
			fcntl(a->fd, F_SETFL, fcntl(a->fd, F_GETFL) & ~O_NONBLOCK);
		}
		ret = open_stream(a);
		if (ret && a->fd >= 0) {
			close(a->fd);
			a->fd = -1;
		}
		return ret;
	}
	if (snprintf(a->tmp, sizeof(a->tmp), "%s.tmp.XXXXXX", a->target) >= (int)sizeof(a->tmp))
		return -ENAMETOOLONG;
	a->fd = mkostemp(a->tmp, O_CLOEXEC);
	if (a->fd < 0) {
		a->tmp[0] = '\0';
		return -errno;
	}
	/* mkstemp's 0600 would hide results: the replaced file's mode, or 0644 as umask allows. */
	if (fchmod(a->fd, exists ? (st.st_mode & 07777) : (0644 & ~a_umask()))) {
		/* harmless: the file stays private */
	}
	ret = open_stream(a);
	if (ret) {
		close(a->fd);
		a->fd = -1;
		unlink(a->tmp);
		a->tmp[0] = '\0';
	}
	return ret;
}

static int commit_through(struct rtp_afile *a)
{
	int err = 0;

	if (a->to_stdout || a->fdlink) {
		/* The summary printed before it comes first on the same file. */
		if (fflush(stdout) && a->to_stdout)
			err = -errno;
	}
	if (!a->to_stdout && a->fd < 0) {
		a->fd = open(a->target, O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);	/* a FIFO: waits for its reader */
		if (a->fd < 0)
			return -errno;
	}
	if (!err)
		err = write_all_nopipe(a->fd, a->buf, a->len);
	if (!a->to_stdout) {
		if (close(a->fd) && !err && errno != EINTR)
			err = -errno;
	}
	a->fd = -1;
	return err;
}

int rtp_afile_commit(struct rtp_afile *a)
{
	int err = 0;

	if (!a->f)
		return -EBADF;
	if (fflush(a->f) || ferror(a->f))
		err = a->err ? a->err : -EIO;
	if (fclose(a->f) && !err)
		err = a->err ? a->err : -EIO;
	a->f = NULL;
	if (a->through) {
		if (!err)
			err = commit_through(a);
		else if (a->fd >= 0 && !a->to_stdout)
			close(a->fd);
		a->fd = -1;
		free(a->buf);
		a->buf = NULL;
		a->len = a->cap = 0;
		return err;
	}
	if (!err && fsync(a->fd))
		err = -errno;
	if (close(a->fd) && !err && errno != EINTR)
		err = -errno;
	a->fd = -1;
	if (!err && rename(a->tmp, a->target))
		err = -errno;
	if (err)
		unlink(a->tmp);
	a->tmp[0] = '\0';
	return err;
}

void rtp_afile_abort(struct rtp_afile *a)
{
	if (!a->f)
		return;
	fclose(a->f);
	a->f = NULL;
	if (a->fd >= 0 && !a->to_stdout)
		close(a->fd);
	a->fd = -1;
	if (a->tmp[0])
		unlink(a->tmp);
	a->tmp[0] = '\0';
	free(a->buf);
	a->buf = NULL;
	a->len = a->cap = 0;
}

const char *rtp_afile_name(const struct rtp_afile *a)
{
	return a->path;
}
