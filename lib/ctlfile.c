// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel's control files: the tracefs root and one writer (ctlfile.h). */
#include "ctlfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *const tracefs_roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

const char *rtp_tracefs_candidate(size_t i)
{
	return i < sizeof(tracefs_roots) / sizeof(tracefs_roots[0]) ? tracefs_roots[i] : NULL;
}

int rtp_tracefs_root(const char *const *need, char *buf, size_t len)
{
	const char *root;

	for (size_t i = 0; (root = rtp_tracefs_candidate(i)); i++) {
		const char *const *n = need;

		while (*n && rtp_ctl_exists(root, *n))
			n++;
		if (!*n) {
			snprintf(buf, len, "%s", root);
			return 0;
		}
	}
	return -ENOENT;
}

bool rtp_ctl_exists(const char *dir, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

static int ctl_write(const char *path, const char *val, int flags)
{
	size_t n = strlen(val);
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | flags);
	ssize_t w;
	int ret = 0;

	if (fd < 0)
		return -errno;
	w = write(fd, val, n);
	if (w < 0)
		ret = -errno;
	else if ((size_t)w != n)
		ret = -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

int rtp_ctl_write(const char *path, const char *val)
{
	return ctl_write(path, val, 0);
}

int rtp_ctl_write_nofollow(const char *path, const char *val)
{
	return ctl_write(path, val, O_NOFOLLOW);
}

int rtp_ctl_write_at(const char *dir, const char *name, const char *val)
{
	char path[512];

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	return rtp_ctl_write(path, val);
}

int rtp_ctl_write_u64(const char *path, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)v);
	return rtp_ctl_write(path, buf);
}
