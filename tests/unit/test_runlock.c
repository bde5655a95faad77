// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Run locks (lib/runlock.c): one holder at a time, the second told the
 * first's pid at once; the lock dies with its process; a planted link or
 * a directory others can write is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runlock.h"
#include "sysinfo.h"
#include "tap.h"

static char dir[64];

static void test_exclusive(void)
{
	struct rtp_runlock a, b;
	char path[128], txt[32];
	int holder = -1, ret;

	ret = rtp_runlock_take(dir, "timerlat", &a, &holder);
	ok(ret == 0 && a.fd >= 0, "the first run takes the lock (%d)", ret);
	snprintf(path, sizeof(path), "%s/timerlat.lock", dir);
	ok(!rtp_read_file(path, txt, sizeof(txt)) && atoi(txt) == (int)getpid(),
	   "the lock file holds its pid (%s)", txt);
	ret = rtp_runlock_take(dir, "timerlat", &b, &holder);
	ok(ret == -EBUSY && holder == (int)getpid() && b.fd < 0,
	   "a second is refused at once: -EBUSY, the holder's pid (%d, %d)", ret, holder);
	rtp_runlock_release(&a);
	ok(a.fd == -1 && access(path, F_OK) == -1 && errno == ENOENT, "released, the file removed");
	ret = rtp_runlock_take(dir, "timerlat", &b, &holder);
	ok(ret == 0, "then it can be taken again (%d)", ret);
	rtp_runlock_release(&b);
	rtp_runlock_release(&b);
	ok(b.fd == -1, "releasing twice is harmless");
}

/* held by another process; gone with it (SIGKILL: no clean-up ran) */
static void test_process(void)
{
	struct rtp_runlock l;
	int p[2], holder = 0, ret, st;
	pid_t pid;
	char c;

	if (pipe(p)) {
		tap_skip("pipe failed", "a lock held by another process");
		return;
	}
	pid = fork();
	if (pid == 0) {
		struct rtp_runlock h;
		int x;

		close(p[0]);
		if (rtp_runlock_take(dir, "timerlat", &h, &x) == 0 && write(p[1], "y", 1) == 1)
			pause();
		_exit(1);
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 1) {
		close(p[0]);
		ok(0, "the child took the lock");
		waitpid(pid, &st, 0);
		return;
	}
	close(p[0]);
	ret = rtp_runlock_take(dir, "timerlat", &l, &holder);
	ok(ret == -EBUSY && holder == (int)pid, "held by pid %d: refused, that pid named (%d)", (int)pid,
	   holder);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	ret = rtp_runlock_take(dir, "timerlat", &l, &holder);
	ok(ret == 0, "the holder killed: the lock is free (%d)", ret);
	rtp_runlock_release(&l);
}

/*
 * A taker that opened the file just before its holder removed it must not
 * hold a lock on a name no one else sees: the fd locked is checked against
 * what the name holds.  Simulated: lock a file, then replace the name.
 */
static void test_replaced(void)
{
	struct rtp_runlock a, b;
	char path[128], moved[128];
	int holder, ret;

	ret = rtp_runlock_take(dir, "swap", &a, &holder);
	snprintf(path, sizeof(path), "%s/swap.lock", dir);
	snprintf(moved, sizeof(moved), "%s/swap.old", dir);
	/* the name moved away under a holder (as if removed): the next taker gets the new file */
	if (!ret && !rename(path, moved)) {
		ret = rtp_runlock_take(dir, "swap", &b, &holder);
		ok(ret == 0, "a new file under the name: taken (%d)", ret);
		rtp_runlock_release(&b);
	} else {
		ok(0, "set-up of the replaced-name case (%d)", ret);
	}
	if (a.fd >= 0) {
		close(a.fd);
		a.fd = -1;
	}
	unlink(moved);
}

static void test_planted(void)
{
	struct rtp_runlock l;
	char path[128], target[128], open_dir[128], txt[64];
	int holder, ret, fd;

	/* a symbolic link where the lock file goes: not followed, the target untouched */
	snprintf(target, sizeof(target), "%s/victim", dir);
	fd = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		if (write(fd, "keep\n", 5) != 5)
			tap_diag("short write");
		close(fd);
	}
	snprintf(path, sizeof(path), "%s/linked.lock", dir);
	if (symlink(target, path))
		tap_diag("symlink: %s", strerror(errno));
	ret = rtp_runlock_take(dir, "linked", &l, &holder);
	ok(ret == -EPERM && l.fd < 0, "a planted symbolic link is refused (%d)", ret);
	ok(!rtp_read_file(target, txt, sizeof(txt)) && !strcmp(txt, "keep"), "its target is untouched (%s)",
	   txt);

	/* a directory others may write in */
	snprintf(open_dir, sizeof(open_dir), "%s/open", dir);
	mkdir(open_dir, 0700);
	chmod(open_dir, 01777);
	ret = rtp_runlock_take(open_dir, "timerlat", &l, &holder);
	ok(ret == -EPERM, "a world-writable directory is refused (%d)", ret);
	chmod(open_dir, 0775);
	ret = rtp_runlock_take(open_dir, "timerlat", &l, &holder);
	ok(ret == -EPERM, "a group-writable one too (%d)", ret);
	/* the directory itself a link */
	snprintf(path, sizeof(path), "%s/dirlink", dir);
	if (symlink(open_dir, path))
		tap_diag("symlink: %s", strerror(errno));
	ret = rtp_runlock_take(path, "timerlat", &l, &holder);
	ok(ret < 0 && l.fd < 0, "a directory that is a link is refused (%d)", ret);
}

static void test_dir(void)
{
	char buf[256], want[128];
	struct stat st;

	snprintf(want, sizeof(want), "%s/run", dir);
	setenv("RTPROOF_RUN_DIR", want, 1);
	ok(rtp_runlock_dir(buf, sizeof(buf)) == 0 && !strcmp(buf, want) && !stat(want, &st) &&
	   (st.st_mode & 0777) == 0700, "RTPROOF_RUN_DIR: made 0700 and used (%s)", buf);
	unsetenv("RTPROOF_RUN_DIR");
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/rtp-lock.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		tap_skip("mkdtemp failed", "run locks");
		return tap_done();
	}
	test_exclusive();
	test_process();
	test_replaced();
	test_planted();
	test_dir();
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			tap_diag("could not remove %s", dir);
	}
	return tap_done();
}
