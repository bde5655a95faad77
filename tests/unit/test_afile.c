// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtp_afile on every kind of path (docs/reliability.md): the errno each
 * refusal gives, what commit and abort leave behind.  The device, FIFO and
 * full-filesystem cases run end to end in tests/integration/output-paths.t.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <dirent.h>
#include <stdbool.h>

#include "afile.h"
#include "tap.h"

static char dir[64];

static int count_tmp(void)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strstr(e->d_name, ".tmp.") != NULL;
	closedir(d);
	return n;
}

static int slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return (int)n;
}

static int write_file(const char *path, const char *text)
{
	struct rtp_afile a;
	int ret = rtp_afile_open(&a, path);

	if (ret)
		return ret;
	fputs(text, a.f);
	return rtp_afile_commit(&a);
}

static bool exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/*
 * fs.protected_symlinks, applied by rtp_afile itself: another user's link
 * in a sticky world-writable directory is refused (-EACCES, nothing
 * written), unless the directory's owner owns it too; a link in any other
 * directory, or the caller's own, is followed.  Needs root to make links
 * that someone else owns (lchown).
 */
static void protected_links(void)
{
	char sd[PATH_MAX], l[PATH_MAX], t[PATH_MAX], own[PATH_MAX];
	const uid_t other = 65534;	/* nobody */
	struct rtp_afile a;
	int ret;

	if (geteuid() != 0) {
		tap_skip("needs root to chown a link to another user", "protected symlinks");
		return;
	}
	snprintf(sd, sizeof(sd), "%s/sticky", dir);
	snprintf(l, sizeof(l), "%s/link.json", sd);
	snprintf(t, sizeof(t), "%s/victim.json", dir);
	ret = mkdir(sd, 0755) | chmod(sd, 01777) | symlink(t, l) | lchown(l, other, other);
	ok(!ret, "set-up: a sticky world-writable directory, a link in it owned by uid %u", (unsigned)other);

	ret = rtp_afile_open(&a, l);
	ok(ret == -EACCES, "another user's link in a sticky world-writable directory: EACCES (got %d)", ret);
	if (!ret)
		rtp_afile_abort(&a);
	ok(!exists(t) && count_tmp() == 0, "... its target not created, no temporary file");

	/* A chain: the caller's own link in a plain directory, then the refused one. */
	snprintf(own, sizeof(own), "%s/own.json", dir);
	ret = symlink(l, own);
	ok(!ret && write_file(own, "x\n") == -EACCES && !exists(t),
	   "a chain that passes through the refused link: EACCES, nothing written");

	ok(!chown(sd, other, other) && write_file(l, "dir owner\n") == 0 && exists(t),
	   "the directory's owner owns the link too: followed");
	unlink(t);

	ok(!chown(sd, 0, 0) && !chmod(sd, 0777) && write_file(l, "not sticky\n") == 0 && exists(t),
	   "world-writable but not sticky: followed");
	unlink(t);

	ok(!chmod(sd, 01777) && !lchown(l, geteuid(), getegid()) && write_file(l, "mine\n") == 0 &&
	   exists(t) && !lstat(l, &(struct stat){0}), "the caller's own link in the sticky directory: followed");
	unlink(t);
	unlink(own);
	unlink(l);
	rmdir(sd);
}

int main(void)
{
	char p[PATH_MAX], q[PATH_MAX], buf[256];
	struct rtp_afile a;
	struct stat st;
	int ret, s;

	snprintf(dir, sizeof(dir), "/tmp/test_afile.XXXXXX");
	if (!mkdtemp(dir))
		return 1;

	snprintf(p, sizeof(p), "%s/new.txt", dir);
	ok(write_file(p, "one\n") == 0 && slurp(p, buf, sizeof(buf)) == 4 && !strcmp(buf, "one\n"),
	   "a new path: written whole");
	chmod(p, 0600);
	ok(write_file(p, "two\n") == 0 && slurp(p, buf, sizeof(buf)) == 4 && !strcmp(buf, "two\n") &&
	   !stat(p, &st) && (st.st_mode & 0777) == 0600, "an existing file: replaced, its mode 0600 kept");

	ok(rtp_afile_open(&a, p) == 0, "open for an abort");
	fputs("never\n", a.f);
	ok(count_tmp() == 1, "while open: one temporary file");
	rtp_afile_abort(&a);
	ok(count_tmp() == 0 && slurp(p, buf, sizeof(buf)) == 4 && !strcmp(buf, "two\n"),
	   "abort: the temporary removed, the old file untouched");

	/* A chain of two links, relative, to a file that does not exist yet. */
	snprintf(q, sizeof(q), "%s/l1", dir);
	ret = symlink("l2", q);
	snprintf(q, sizeof(q), "%s/l2", dir);
	ret |= symlink("target.txt", q);
	snprintf(q, sizeof(q), "%s/l1", dir);
	ok(!ret && write_file(q, "via links\n") == 0 && !lstat(q, &st) && S_ISLNK(st.st_mode),
	   "a chain of links: written, the first link still a link");
	snprintf(q, sizeof(q), "%s/target.txt", dir);
	ok(slurp(q, buf, sizeof(buf)) > 0 && !strcmp(buf, "via links\n"), "... into the final target");

	snprintf(q, sizeof(q), "%s/loop", dir);
	ret = symlink("loop", q);
	ok(!ret && rtp_afile_open(&a, q) == -ELOOP, "a link to itself: ELOOP");
	ok(rtp_afile_open(&a, dir) == -EISDIR, "a directory: EISDIR");
	snprintf(q, sizeof(q), "%s/no/such/dir/x", dir);
	ok(rtp_afile_open(&a, q) == -ENOENT, "a missing directory: ENOENT");
	ok(rtp_afile_open(&a, "") == -ENOENT, "an empty path: ENOENT");

	protected_links();

	/* A socket is no output file. */
	snprintf(q, sizeof(q), "%s/sock", dir);
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	{
		struct sockaddr_un sa = { .sun_family = AF_UNIX };

		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", q);
		ret = bind(s, (struct sockaddr *)&sa, sizeof(sa));
	}
	ok(!ret && rtp_afile_open(&a, q) == -ENOTSUP, "a socket: ENOTSUP");
	close(s);

	/* A character device: written through, never replaced. */
	ok(write_file("/dev/null", "x\n") == 0 && !stat("/dev/null", &st) && S_ISCHR(st.st_mode),
	   "/dev/null: written through, still a character device");
	ok(count_tmp() == 0, "no temporary file anywhere");

	snprintf(q, sizeof(q), "rm -rf %s", dir);
	if (system(q)) {
		/* leftover in /tmp only */
	}
	return tap_done();
}
