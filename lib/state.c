// SPDX-License-Identifier: GPL-2.0-or-later
/* The state journal: what a run changed, restored after it died (state.h). */
#include "state.h"
#include "ctlfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <signal.h>
#include <unistd.h>

/* The tracefs candidates of ctlfile.c and the irqlat module's parameters. */
const char *const rtp_state_default_roots[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
	"/sys/module/rtproof_irqlat/parameters",
	NULL,
};

#define STATE_MAX_BYTES	(64 * 1024)	/* a longer file is not ours */
#define STATE_MAX_ENTRIES 64
#define STATE_VALUE_MAX	512

struct entry {
	bool rmdir;
	char path[PATH_MAX];
	char value[STATE_VALUE_MAX];
};

struct rtp_state {
	char dir[PATH_MAX];
	const char *const *roots;
	bool default_dir;
	int fd;				/* the current file, flock()ed; -1: none yet */
	bool broken;			/* the journal failed once: said, then off */
	unsigned long long start;	/* our start time (/proc/self/stat field 22) */
	int n;
	struct entry e[STATE_MAX_ENTRIES];
};

/* ---- helpers --------------------------------------------------------------------------- */

/* Field 22 of /proc/PID/stat, the start time in clock ticks; 0: unknown. */
static unsigned long long proc_start(int pid)
{
	char p[64], buf[1024], *s;
	unsigned long long v = 0;
	ssize_t n;
	int fd, i;

	snprintf(p, sizeof(p), "/proc/%d/stat", pid);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	s = strrchr(buf, ')');		/* the comm may hold spaces and parentheses */
	if (!s)
		return 0;
	s++;
	/* after ") ": field 3 (state) ... field 22 */
	for (i = 3; i <= 22 && s; i++) {
		while (*s == ' ')
			s++;
		if (i == 22)
			v = strtoull(s, NULL, 10);
		s = strchr(s, ' ');
	}
	return v;
}

/* Is the run that wrote a file with this pid and start time gone? */
static bool owner_gone(int pid, unsigned long long start)
{
	unsigned long long now;

	if (pid <= 0)
		return true;
	if (kill(pid, 0) && errno == ESRCH)
		return true;
	now = proc_start(pid);
	/* the pid belongs to another process now; unknown: assume it is the owner */
	return start && now && now != start;
}

/* %XX for every byte outside a plain set: one token, no spaces or newlines. */
static void enc(const char *s, char *out, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;

	if (!*s && len > 1) {
		out[o++] = '%';		/* "%" alone: the empty value */
	}
	for (; *s && o + 4 < len; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    strchr("/._,:+-", c)) {
			out[o++] = (char)c;
		} else {
			out[o++] = '%';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		}
	}
	out[o] = 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static int dec(const char *s, char *out, size_t len)
{
	size_t o = 0;

	if (!strcmp(s, "%")) {
		out[0] = 0;
		return 0;
	}
	for (; *s; s++) {
		char c = *s;

		if (c == '%') {
			int h = hexval(s[1]), l = h < 0 ? -1 : hexval(s[2]);

			if (l < 0)
				return -EINVAL;
			c = (char)(h << 4 | l);
			s += 2;
		}
		if (!c || o + 1 >= len)
			return -EINVAL;
		out[o++] = c;
	}
	out[o] = 0;
	return 0;
}

bool rtp_state_path_allowed(const char *const *roots, const char *path)
{
	const char *p;
	size_t i;

	if (!path || path[0] != '/' || strlen(path) >= PATH_MAX)
		return false;
	/* no empty, "." or ".." parts */
	for (p = path; *p; ) {
		const char *q;
		size_t n;

		p++;
		q = strchr(p, '/');
		n = q ? (size_t)(q - p) : strlen(p);
		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		p += n;
	}
	for (i = 0; roots && roots[i]; i++) {
		size_t l = strlen(roots[i]);

		if (l && !strncmp(path, roots[i], l) && path[l] == '/')
			return true;
	}
	return false;
}

/* path, once its links are resolved, is still under the root (resolved too)? */
static bool resolved_under(const char *root, const char *path)
{
	char rr[PATH_MAX], rp[PATH_MAX];
	size_t l;

	if (!realpath(root, rr) || !realpath(path, rp))
		return false;
	l = strlen(rr);
	return !strncmp(rp, rr, l) && rp[l] == '/';
}

static const char *root_of(const char *const *roots, const char *path)
{
	size_t i;

	for (i = 0; roots[i]; i++) {
		size_t l = strlen(roots[i]);

		if (!strncmp(path, roots[i], l) && path[l] == '/')
			return roots[i];
	}
	return NULL;
}

/* An instance path: ROOT/instances/rtproof-NAME, NAME of [A-Za-z0-9._-]. */
static bool instance_ok(const char *root, const char *path)
{
	size_t l = strlen(root), k = strlen(RTP_STATE_INSTANCE_PREFIX);
	const char *name;
	char parent[PATH_MAX], rr[PATH_MAX], rp[PATH_MAX];

	if (strncmp(path + l, "/instances/", 11))
		return false;
	name = path + l + 11;
	if (strncmp(name, RTP_STATE_INSTANCE_PREFIX, k) || !name[k])
		return false;
	if (strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") !=
	    strlen(name))
		return false;
	snprintf(parent, sizeof(parent), "%s/instances", root);
	if (!realpath(root, rr) || !realpath(parent, rp))
		return false;
	/* the instances directory itself is no link out of the root */
	return strlen(rp) == strlen(rr) + 10 && !strncmp(rp, rr, strlen(rr)) &&
	       !strcmp(rp + strlen(rr), "/instances");
}

/* ---- the run's own journal ------------------------------------------------------------- */

int rtp_state_open(struct rtp_state **out, const struct rtp_state_cfg *cfg)
{
	struct rtp_state *st;

	*out = NULL;
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->default_dir = !cfg || !cfg->dir;
	snprintf(st->dir, sizeof(st->dir), "%s", cfg && cfg->dir ? cfg->dir : RTP_STATE_DIR);
	st->roots = cfg && cfg->roots ? cfg->roots : rtp_state_default_roots;
	st->fd = -1;
	st->start = proc_start((int)getpid());
	*out = st;
	return 0;
}

/* The directory, made and checked: ours, writable by nobody else.  An fd or -errno. */
static int open_dir(const char *dir, bool make_parent)
{
	struct stat sb;
	int fd;

	if (make_parent) {
		char parent[PATH_MAX], *s;

		snprintf(parent, sizeof(parent), "%s", dir);
		s = strrchr(parent, '/');
		if (s && s != parent) {
			*s = 0;
			if (mkdir(parent, 0755) && errno != EEXIST)
				return -errno;
		}
	}
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb) || sb.st_uid != geteuid() || (sb.st_mode & 022)) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* The whole journal into a new file, locked, renamed over the old one. */
static int save(struct rtp_state *st)
{
	char tmp[PATH_MAX + 32], final[PATH_MAX + 32], buf[3 * (PATH_MAX + STATE_VALUE_MAX) + 16];
	int dfd, fd, i, ret = 0;
	FILE *f;

	if (st->broken)
		return -EIO;
	snprintf(final, sizeof(final), "%s/%d.state", st->dir, (int)getpid());
	if (!st->n) {
		/* nothing to restore: no file */
		if (st->fd >= 0) {
			unlink(final);
			close(st->fd);
			st->fd = -1;
		}
		return 0;
	}
	dfd = open_dir(st->dir, st->default_dir);
	if (dfd < 0) {
		ret = dfd;
		goto fail;
	}
	close(dfd);
	snprintf(tmp, sizeof(tmp), "%s/%d.tmp.XXXXXX", st->dir, (int)getpid());
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto fail;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		ret = -errno;
		goto fail_tmp;
	}
	f = fdopen(dup(fd), "w");
	if (!f) {
		ret = -errno;
		goto fail_tmp;
	}
	fprintf(f, "rtproof-state 1\npid %d\nstart %llu\n", (int)getpid(), st->start);
	for (i = 0; i < st->n; i++) {
		char p[3 * PATH_MAX], v[3 * STATE_VALUE_MAX];

		enc(st->e[i].path, p, sizeof(p));
		if (st->e[i].rmdir) {
			snprintf(buf, sizeof(buf), "rmdir %s\n", p);
		} else {
			enc(st->e[i].value, v, sizeof(v));
			snprintf(buf, sizeof(buf), "write %s %s\n", p, v);
		}
		fputs(buf, f);
	}
	if (fflush(f) || fsync(fd))
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret)
		goto fail_tmp;
	if (rename(tmp, final)) {
		ret = -errno;
		goto fail_tmp;
	}
	if (st->fd >= 0)
		close(st->fd);	/* the old file's lock: the new one holds it now */
	st->fd = fd;
	return 0;
fail_tmp:
	unlink(tmp);
	close(fd);
fail:
	st->broken = true;
	return ret;
}

static int find(const struct rtp_state *st, const char *path)
{
	int i;

	for (i = 0; i < st->n; i++)
		if (!strcmp(st->e[i].path, path))
			return i;
	return -1;
}

static int record(struct rtp_state *st, const char *path, const char *old, bool rmdir)
{
	struct entry *e;
	size_t l;

	if (!st || st->broken)
		return 0;
	if (!rtp_state_path_allowed(st->roots, path))
		return 0;	/* not a system setting this journal covers */
	if (find(st, path) >= 0)
		return 0;	/* the first value is the one to restore */
	if (st->n == STATE_MAX_ENTRIES)
		return -ENOSPC;
	e = &st->e[st->n];
	e->rmdir = rmdir;
	snprintf(e->path, sizeof(e->path), "%s", path);
	snprintf(e->value, sizeof(e->value), "%s", old ? old : "");
	l = strlen(e->value);
	while (l && (e->value[l - 1] == '\n' || e->value[l - 1] == ' '))
		e->value[--l] = 0;
	st->n++;
	return save(st);
}

int rtp_state_record_write(struct rtp_state *st, const char *path, const char *old)
{
	return record(st, path, old, false);
}

int rtp_state_record_rmdir(struct rtp_state *st, const char *path)
{
	return record(st, path, NULL, true);
}

void rtp_state_forget(struct rtp_state *st, const char *path)
{
	int i;

	if (!st || (i = find(st, path)) < 0)
		return;
	memmove(&st->e[i], &st->e[i + 1], (size_t)(st->n - i - 1) * sizeof(st->e[0]));
	st->n--;
	save(st);
}

void rtp_state_close(struct rtp_state *st)
{
	char final[PATH_MAX + 32];

	if (!st)
		return;
	if (st->fd >= 0) {
		snprintf(final, sizeof(final), "%s/%d.state", st->dir, (int)getpid());
		unlink(final);
		close(st->fd);
	}
	free(st);
}

/* ---- restoring what dead runs left -------------------------------------------------------- */

void rtp_state_event_line(const struct rtp_state_event *e, char *buf, size_t len)
{
	char v[STATE_VALUE_MAX], by[64];
	size_t i;

	/* the value is data: shown printable, one line */
	snprintf(v, sizeof(v), "%s", e->value ? e->value : "");
	for (i = 0; v[i]; i++)
		if ((unsigned char)v[i] < 0x20 || (unsigned char)v[i] >= 0x7f || v[i] == '\'')
			v[i] = '?';
	if (e->pid > 0)
		snprintf(by, sizeof(by), "left by pid %d", e->pid);
	else
		snprintf(by, sizeof(by), "left by a dead run");
	switch (e->what) {
	case RTP_STATE_RESTORED:
		snprintf(buf, len, "restored %s to '%s' (%s)", e->path, v, by);
		break;
	case RTP_STATE_REMOVED:
		snprintf(buf, len, "removed tracing instance %s (%s)", e->path, by);
		break;
	case RTP_STATE_FAILED:
		snprintf(buf, len, "could not restore %s%s%s%s: %s (%s)", e->path, e->value ? " to '" : "",
			 e->value ? v : "", e->value ? "'" : "", strerror(-e->err), by);
		break;
	case RTP_STATE_REFUSED:
		snprintf(buf, len, "refused %s%s%s: %s", e->path ? e->path : e->file,
			 e->path ? " in " : "", e->path ? e->file : "", e->why);
		break;
	case RTP_STATE_LIVE:
		snprintf(buf, len, "left %s alone: pid %d still runs", e->file, e->pid);
		break;
	}
}

struct stale {
	int pid;
	unsigned long long start;
	int n;
	struct entry e[STATE_MAX_ENTRIES];
};

/* Reads a state file; -EINVAL for anything it does not expect. */
static int parse(int fd, struct stale *s)
{
	char *buf, *line, *save = NULL;
	ssize_t n;
	int ret = 0, lineno = 0;

	buf = malloc(STATE_MAX_BYTES + 1);
	if (!buf)
		return -ENOMEM;
	n = pread(fd, buf, STATE_MAX_BYTES + 1, 0);
	if (n < 0 || n > STATE_MAX_BYTES) {
		free(buf);
		return n < 0 ? -errno : -EFBIG;
	}
	buf[n] = 0;
	if (strlen(buf) != (size_t)n) {
		free(buf);
		return -EINVAL;
	}
	s->n = 0;
	s->pid = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char a[16], p[3 * PATH_MAX], v[3 * STATE_VALUE_MAX], extra[2];
		int k;

		lineno++;
		if (lineno == 1) {
			if (strcmp(line, "rtproof-state 1"))
				ret = -EINVAL;
		} else if (!strncmp(line, "pid ", 4)) {
			s->pid = atoi(line + 4);
		} else if (!strncmp(line, "start ", 6)) {
			s->start = strtoull(line + 6, NULL, 10);
		} else if (strlen(line) < sizeof(p) &&
			   (k = sscanf(line, "%15s %4095s %1535s %1s", a, p, v, extra)) >= 2) {
			struct entry *e = &s->e[s->n];

			if (s->n == STATE_MAX_ENTRIES) {
				ret = -E2BIG;
			} else if (!strcmp(a, "rmdir") && k == 2) {
				e->rmdir = true;
				e->value[0] = 0;
				ret = dec(p, e->path, sizeof(e->path));
			} else if (!strcmp(a, "write") && k == 3) {
				e->rmdir = false;
				ret = dec(p, e->path, sizeof(e->path));
				if (!ret)
					ret = dec(v, e->value, sizeof(e->value));
			} else {
				ret = -EINVAL;
			}
			if (!ret)
				s->n++;
		} else {
			ret = -EINVAL;
		}
		if (ret)
			break;
	}
	free(buf);
	return ret;
}

static int restore_entry(const char *const *roots, const struct entry *e, const char **why)
{
	const char *root;
	char p[PATH_MAX + 32];

	*why = NULL;
	if (!rtp_state_path_allowed(roots, e->path) || !(root = root_of(roots, e->path))) {
		*why = "outside the tracefs and module parameter directories";
		return 1;
	}
	if (e->rmdir) {
		const char *name = strrchr(e->path, '/') + 1;

		if (strncmp(name, RTP_STATE_INSTANCE_PREFIX, strlen(RTP_STATE_INSTANCE_PREFIX))) {
			*why = "not a tracing instance rtproof names (" RTP_STATE_INSTANCE_PREFIX "...)";
			return 1;
		}
		if (access(e->path, F_OK))
			return -errno;	/* gone already (ENOENT: not said) */
		if (!instance_ok(root, e->path)) {
			*why = "not a tracing instance rtproof names (" RTP_STATE_INSTANCE_PREFIX "...) "
			       "under <tracefs>/instances";
			return 1;
		}
		snprintf(p, sizeof(p), "%s/tracing_on", e->path);
		rtp_ctl_write_nofollow(p, "0");
		snprintf(p, sizeof(p), "%s/events/enable", e->path);
		rtp_ctl_write_nofollow(p, "0");
		return rmdir(e->path) ? -errno : 0;
	}
	if (!resolved_under(root, e->path)) {
		/* absent, or a link out of the root */
		if (access(e->path, F_OK))
			return -errno;
		*why = "resolves outside the tracefs and module parameter directories";
		return 1;
	}
	return rtp_ctl_write_nofollow(e->path, e->value);
}

/* Restores one dead run's file: settings restored, or -errno. */
static int restore_file(const struct rtp_state_cfg *cfg, int dfd, const struct stat *dsb,
			const char *name, void (*said)(void *, const struct rtp_state_event *), void *arg)
{
	const char *const *roots = cfg && cfg->roots ? cfg->roots : rtp_state_default_roots;
	struct rtp_state_event ev;
	char file[PATH_MAX + 300];
	struct stat sb, sb2;
	struct stale *s;
	int fd, i, ret, done = 0, namepid = atoi(name);

	snprintf(file, sizeof(file), "%s/%s", cfg && cfg->dir ? cfg->dir : RTP_STATE_DIR, name);
	memset(&ev, 0, sizeof(ev));
	ev.file = file;
	ev.pid = namepid;
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) || sb.st_uid != dsb->st_uid || (sb.st_mode & 022) ||
	    sb.st_nlink != 1) {
		ev.what = RTP_STATE_REFUSED;
		ev.why = "not a regular file of the state directory's owner, writable by it alone";
		if (said)
			said(arg, &ev);
		close(fd);
		return 0;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		ret = errno == EWOULDBLOCK ? 0 : -errno;
		if (!ret) {
			ev.what = RTP_STATE_LIVE;
			if (said)
				said(arg, &ev);
		}
		close(fd);
		return ret;
	}
	/* the file we locked is still the one under that name (not renamed over) */
	if (fstatat(dfd, name, &sb2, AT_SYMLINK_NOFOLLOW) || sb2.st_ino != sb.st_ino ||
	    sb2.st_dev != sb.st_dev) {
		close(fd);
		return 0;
	}
	s = malloc(sizeof(*s));
	if (!s) {
		close(fd);
		return -ENOMEM;
	}
	ret = parse(fd, s);
	if (ret || s->pid != namepid) {
		ev.what = RTP_STATE_REFUSED;
		ev.why = ret ? "not a state file rtproof wrote" : "its pid is not its name's";
		if (said)
			said(arg, &ev);
		if (owner_gone(namepid, 0))
			unlinkat(dfd, name, 0);	/* ours to drop: root's directory, no live owner */
		goto out;
	}
	if (!owner_gone(s->pid, s->start)) {
		ev.what = RTP_STATE_LIVE;
		if (said)
			said(arg, &ev);
		goto out;
	}
	/* The tracer off before its settings go back: every current_tracer to nop first. */
	for (i = 0; i < s->n; i++) {
		const char *b = strrchr(s->e[i].path, '/');
		const char *why;

		if (!s->e[i].rmdir && b && !strcmp(b, "/current_tracer")) {
			struct entry nop = s->e[i];

			snprintf(nop.value, sizeof(nop.value), "nop");
			if (restore_entry(roots, &nop, &why) < 0) {
				/* said below, with the entry's own value */
			}
		}
	}
	/* then in the reverse order of the changes */
	for (i = s->n - 1; i >= 0; i--) {
		const struct entry *e = &s->e[i];
		const char *why;
		int r = restore_entry(roots, e, &why);

		ev.path = e->path;
		ev.value = e->rmdir ? NULL : e->value;
		ev.why = why;
		ev.err = r < 0 ? r : 0;
		if (r == 1)
			ev.what = RTP_STATE_REFUSED;
		else if (r == -ENOENT)
			continue;	/* gone already: the instance, or tracefs or the module */
		else if (r < 0)
			ev.what = RTP_STATE_FAILED;
		else
			ev.what = e->rmdir ? RTP_STATE_REMOVED : RTP_STATE_RESTORED;
		if (!r)
			done++;
		if (said)
			said(arg, &ev);
	}
	unlinkat(dfd, name, 0);
out:
	free(s);
	close(fd);	/* the lock last: nobody read the file half-restored */
	return done;
}

/* "<digits>.state" */
static bool state_name(const char *n)
{
	size_t d = strspn(n, "0123456789");

	return d > 0 && d < 12 && !strcmp(n + d, ".state");
}

/* "<digits>.tmp.XXXXXX" of a dead run: a journal write it did not finish */
static void drop_dead_tmp(int dfd, const char *n)
{
	size_t d = strspn(n, "0123456789");

	if (d > 0 && d < 12 && !strncmp(n + d, ".tmp.", 5) && kill(atoi(n), 0) && errno == ESRCH)
		unlinkat(dfd, n, 0);
}

int rtp_state_restore_stale(const struct rtp_state_cfg *cfg,
			    void (*said)(void *arg, const struct rtp_state_event *e), void *arg)
{
	const char *dir = cfg && cfg->dir ? cfg->dir : RTP_STATE_DIR;
	struct dirent *de;
	struct stat dsb;
	int dfd, total = 0, ret;
	DIR *d;

	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (fstat(dfd, &dsb) || (dsb.st_uid != 0 && dsb.st_uid != geteuid()) || (dsb.st_mode & 022)) {
		struct rtp_state_event ev = { .what = RTP_STATE_REFUSED, .file = dir,
			.why = "the state directory must belong to root (or the caller) and be "
			       "writable by nobody else" };

		if (said)
			said(arg, &ev);
		close(dfd);
		return -EPERM;
	}
	d = fdopendir(dup(dfd));
	if (!d) {
		ret = -errno;
		close(dfd);
		return ret;
	}
	while ((de = readdir(d))) {
		if (!state_name(de->d_name)) {
			drop_dead_tmp(dfd, de->d_name);
			continue;
		}
		ret = restore_file(cfg, dfd, &dsb, de->d_name, said, arg);
		if (ret > 0)
			total += ret;
	}
	closedir(d);
	close(dfd);
	return total;
}
