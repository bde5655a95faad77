// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The state journal (lib/state.c, docs/security.md) on a fake tree:
 * a temporary directory stands in for tracefs, injected as the allowed
 * root.  A dead run's settings come back; a live one's (lock held) do
 * not; a state file naming a path outside the roots, a link out of them
 * or an instance rtproof did not name is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "state.h"
#include "tap.h"

static char top[64], root[128], sdir[128], outside[128];
static const char *roots[2];

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static const char *get(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	buf[0] = 0;
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = 0;
	return buf;
}

static char lines[16][512];
static int nlines;

static void said(void *arg, const struct rtp_state_event *e)
{
	(void)arg;
	if (nlines < 16)
		rtp_state_event_line(e, lines[nlines++], sizeof(lines[0]));
}

static int restore(void)
{
	struct rtp_state_cfg cfg = { .dir = sdir, .roots = roots };

	nlines = 0;
	return rtp_state_restore_stale(&cfg, said, NULL);
}

static bool said_like(const char *needle)
{
	int i;

	for (i = 0; i < nlines; i++)
		if (strstr(lines[i], needle))
			return true;
	return false;
}

static int count_state_files(void)
{
	char cmd[256];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls %s | grep -c '\\.state$'", sdir);
	p = popen(cmd, "r");
	if (p) {
		if (fscanf(p, "%d", &n) != 1)
			n = -1;
		pclose(p);
	}
	return n;
}

/* A pid nobody has: a child's, reaped. */
static int dead_pid(void)
{
	pid_t p = fork();

	if (p == 0)
		_exit(0);
	waitpid(p, NULL, 0);
	return (int)p;
}

/* A state file as a dead run would have left it (mode 0600). */
static void plant(int pid, const char *body)
{
	char p[256], text[4096];
	int fd;

	snprintf(p, sizeof(p), "%s/%d.state", sdir, pid);
	snprintf(text, sizeof(text), "rtproof-state 1\npid %d\nstart 0\n%s", pid, body);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0) {
		if (write(fd, text, strlen(text)) < 0)
			perror("write");
		close(fd);
	}
}

/*
 * The run: records, changes, then dies by SIGKILL (mode 0), lives on
 * until its pipe closes (mode 1), or ends cleanly (mode 2).
 */
static pid_t run_child(int mode, int *hold)
{
	char tr[256], on[256], inst[256];
	int ready[2], wait_fd[2];
	pid_t p;
	char c;

	if (pipe(ready) || pipe(wait_fd))
		return -1;
	p = fork();
	if (p == 0) {
		struct rtp_state_cfg cfg = { .dir = sdir, .roots = roots };
		struct rtp_state *st;

		close(ready[0]);
		close(wait_fd[1]);
		snprintf(tr, sizeof(tr), "%s/current_tracer", root);
		snprintf(on, sizeof(on), "%s/tracing_on", root);
		snprintf(inst, sizeof(inst), "%s/instances/rtproof-explain-%d", root, (int)getpid());
		if (rtp_state_open(&st, &cfg))
			_exit(1);
		if (rtp_state_record_write(st, tr, "nop\n"))
			_exit(2);
		put(tr, "timerlat");
		rtp_state_record_write(st, tr, "timerlat");	/* the first value stays */
		if (rtp_state_record_write(st, on, "0"))
			_exit(3);
		put(on, "1");
		if (rtp_state_record_rmdir(st, inst))
			_exit(4);
		mkdir(inst, 0700);
		if (mode == 2) {
			rmdir(inst);
			rtp_state_forget(st, inst);
			put(tr, "nop");
			put(on, "0");
			rtp_state_close(st);
			_exit(0);
		}
		if (write(ready[1], "x", 1) < 0)
			_exit(5);
		if (mode == 0)
			kill(getpid(), SIGKILL);
		if (read(wait_fd[0], &c, 1) < 0)
			_exit(6);
		_exit(0);
	}
	close(ready[1]);
	close(wait_fd[0]);
	if (read(ready[0], &c, 1) != 1 && mode != 2)
		tap_diag("child ended early");
	close(ready[0]);
	*hold = wait_fd[1];
	return p;
}

int main(void)
{
	char p[512], tr[256], on[256], inst[256], line[600];
	int hold, status, n, pid, fd;
	pid_t child;

	snprintf(top, sizeof(top), "/tmp/rtp-state-test.XXXXXX");
	if (!mkdtemp(top))
		return 1;
	snprintf(root, sizeof(root), "%s/tracing", top);
	snprintf(sdir, sizeof(sdir), "%s/state", top);
	snprintf(outside, sizeof(outside), "%s/outside", top);
	mkdir(root, 0755);
	snprintf(p, sizeof(p), "%s/instances", root);
	mkdir(p, 0755);
	mkdir(sdir, 0700);
	mkdir(outside, 0755);
	roots[0] = root;
	roots[1] = NULL;
	snprintf(tr, sizeof(tr), "%s/current_tracer", root);
	snprintf(on, sizeof(on), "%s/tracing_on", root);
	put(tr, "nop");
	put(on, "0");

	/* the lexical check */
	snprintf(p, sizeof(p), "%s/current_tracer", root);
	ok(rtp_state_path_allowed(roots, p), "a file under the root is allowed");
	snprintf(p, sizeof(p), "%s/../outside/x", root);
	ok(!rtp_state_path_allowed(roots, p), "a .. part is refused");
	snprintf(p, sizeof(p), "%s2/x", root);
	ok(!rtp_state_path_allowed(roots, p), "a sibling with the root as prefix is refused");
	ok(!rtp_state_path_allowed(rtp_state_default_roots, "/etc/passwd"), "/etc/passwd is refused");
	ok(rtp_state_path_allowed(rtp_state_default_roots, "/sys/kernel/tracing/current_tracer"),
	   "the real tracefs is allowed");
	ok(rtp_state_path_allowed(rtp_state_default_roots,
				  "/sys/module/rtproof_irqlat/parameters/delay_us"),
	   "the module's delay_us is allowed");

	/* nothing to do */
	ok(restore() == 0 && nlines == 0, "an empty state directory: nothing restored");

	/* a clean run leaves no file */
	child = run_child(2, &hold);
	waitpid(child, &status, 0);
	close(hold);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a clean run ends well");
	ok(count_state_files() == 0, "a clean run deletes its state file");

	/* a live run (its lock held) is left alone */
	child = run_child(1, &hold);
	ok(count_state_files() == 1, "a live run has its state file");
	n = restore();
	ok(n == 0, "a live run's settings are not restored (%d)", n);
	snprintf(line, sizeof(line), "still runs");
	ok(said_like(line), "and it says so: %s", nlines ? lines[0] : "(nothing)");
	ok(!strcmp(get(tr), "timerlat"), "the live run's tracer is untouched");
	close(hold);
	waitpid(child, &status, 0);

	/* ... that run died without its clean end: restored now */
	n = restore();
	ok(n == 3, "the dead run's three changes are undone (%d)", n);
	ok(!strcmp(get(tr), "nop") && !strcmp(get(on), "0"), "tracer and tracing_on as before");
	snprintf(line, sizeof(line), "restored %s to 'nop' (left by pid %d)", tr, (int)child);
	ok(said_like(line), "says: %s", line);
	snprintf(inst, sizeof(inst), "%s/instances/rtproof-explain-%d", root, (int)child);
	ok(access(inst, F_OK) && errno == ENOENT, "its tracing instance is removed");
	snprintf(line, sizeof(line), "removed tracing instance %s", inst);
	ok(said_like(line), "says: %s", line);
	ok(count_state_files() == 0, "its state file is gone");

	/* SIGKILL in the middle */
	child = run_child(0, &hold);
	waitpid(child, &status, 0);
	close(hold);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "a run killed by SIGKILL");
	ok(!strcmp(get(tr), "timerlat"), "left the tracer changed");
	n = restore();
	ok(n == 3 && !strcmp(get(tr), "nop") && !strcmp(get(on), "0"),
	   "the next pass restores it (%d)", n);
	ok(restore() == 0 && nlines == 0, "a second pass has nothing left");

	/* a dead pid, but someone holds the file's lock: left alone */
	pid = dead_pid();
	put(tr, "timerlat");
	snprintf(line, sizeof(line), "write %s nop\n", tr);
	plant(pid, line);
	snprintf(p, sizeof(p), "%s/%d.state", sdir, pid);
	fd = open(p, O_RDONLY);
	ok(fd >= 0 && !flock(fd, LOCK_EX), "the lock taken by someone");
	ok(restore() == 0 && !strcmp(get(tr), "timerlat"), "a held lock keeps the settings");
	close(fd);
	ok(restore() == 1 && !strcmp(get(tr), "nop"), "the lock free and the pid gone: restored");

	/* our own pid with another start time: a reused pid, the owner is gone */
	put(on, "1");
	snprintf(line, sizeof(line), "write %s 0\n", on);
	plant((int)getpid(), line);
	snprintf(p, sizeof(p), "%s/%d.state", sdir, (int)getpid());
	{
		/* start 1: no process of ours started at tick 1 */
		char text[512];

		snprintf(text, sizeof(text), "rtproof-state 1\npid %d\nstart 1\n%s", (int)getpid(), line);
		put(p, text);
		chmod(p, 0600);
	}
	ok(restore() == 1 && !strcmp(get(on), "0"), "a pid reused by another process: restored");

	/* refused: outside the roots, a link out, an instance not rtproof's, a bad file */
	snprintf(p, sizeof(p), "%s/victim", outside);
	put(p, "precious");
	pid = dead_pid();
	snprintf(line, sizeof(line), "write %s pwned\n", p);
	plant(pid, line);
	n = restore();
	ok(n == 0 && !strcmp(get(p), "precious"), "a path outside the roots is not written");
	ok(said_like("refused") && said_like("outside"), "and refused: %s", nlines ? lines[0] : "");
	ok(count_state_files() == 0, "the refused file is dropped");

	snprintf(line, sizeof(line), "%s/link", root);
	ok(!symlink(p, line), "a link in the root to a file outside");
	pid = dead_pid();
	{
		char body[600];

		snprintf(body, sizeof(body), "write %s pwned\n", line);
		plant(pid, body);
	}
	ok(restore() == 0 && !strcmp(get(p), "precious"), "a link out of the root is not followed");
	ok(said_like("refused"), "and refused: %s", nlines ? lines[0] : "");

	snprintf(inst, sizeof(inst), "%s/instances/someone-else", root);
	mkdir(inst, 0700);
	pid = dead_pid();
	snprintf(line, sizeof(line), "rmdir %s\n", inst);
	plant(pid, line);
	ok(restore() == 0 && !access(inst, F_OK), "an instance rtproof did not name stays");
	ok(said_like("refused"), "and refused: %s", nlines ? lines[0] : "");
	rmdir(inst);

	snprintf(inst, sizeof(inst), "%s/rtproof-x", outside);
	mkdir(inst, 0700);
	pid = dead_pid();
	snprintf(line, sizeof(line), "rmdir %s\n", inst);
	plant(pid, line);
	ok(restore() == 0 && !access(inst, F_OK), "an rtproof-named directory outside the roots stays");
	rmdir(inst);

	pid = dead_pid();
	snprintf(line, sizeof(line), "write %s/../outside/victim pwned\n", root);
	plant(pid, line);
	ok(restore() == 0 && !strcmp(get(p), "precious"), "a .. path is refused");

	pid = dead_pid();
	plant(pid, "chmod /etc/shadow 777\n");
	ok(restore() == 0 && said_like("not a state file"), "an unknown action: the file is refused");

	/* a group-writable state file, then a world-writable directory */
	pid = dead_pid();
	put(tr, "timerlat");
	snprintf(line, sizeof(line), "write %s nop\n", tr);
	plant(pid, line);
	snprintf(p, sizeof(p), "%s/%d.state", sdir, pid);
	chmod(p, 0620);
	ok(restore() == 0 && !strcmp(get(tr), "timerlat") && said_like("refused"),
	   "a state file others may write is refused");
	unlink(p);
	chmod(sdir, 0777);
	plant(pid, line);
	ok(restore() == -EPERM && !strcmp(get(tr), "timerlat"), "a state directory others may write is refused");
	snprintf(p, sizeof(p), "%s/%d.state", sdir, pid);
	unlink(p);
	chmod(sdir, 0700);

	/* a path outside the roots is not even recorded */
	{
		struct rtp_state_cfg cfg = { .dir = sdir, .roots = roots };
		struct rtp_state *st;

		ok(!rtp_state_open(&st, &cfg), "open");
		snprintf(p, sizeof(p), "%s/victim", outside);
		ok(rtp_state_record_write(st, p, "x") == 0 && count_state_files() == 0,
		   "a path outside the roots is not recorded");
		ok(rtp_state_record_write(NULL, tr, "x") == 0, "no journal: recording is a no-op");
		rtp_state_close(st);
	}

	snprintf(p, sizeof(p), "rm -rf %s", top);
	if (system(p))
		tap_diag("could not remove %s", top);
	return tap_done();
}
