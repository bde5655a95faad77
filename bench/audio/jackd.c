// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --start-server: a jackd of this run's own (jackd -R -d dummy), under a
 * private server name, its output in a log this program reads: jack2's
 * xrun callback names no culprit, but its engine logs
 * "JackEngine::XRun: client = NAME was not finished, state = STATE".
 * The log is the server's text: parsed as data, names copied bounded.
 */
#include "jack.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "strbuf.h"

int audio_jackd_start(struct audio_jackd *s, unsigned rate, unsigned period, char *why, size_t len)
{
	char r[16], p[16];
	const char *suffix;
	sigset_t none;
	int fd;

	memset(s, 0, sizeof(*s));
	s->pid = -1;
	s->log_fd = -1;
	snprintf(s->dir, sizeof(s->dir), "/tmp/rtproof-jackd.XXXXXX");
	if (!mkdtemp(s->dir)) {
		snprintf(why, len, "--start-server: cannot create a directory for jackd's log: %s",
			 strerror(errno));
		s->dir[0] = '\0';
		return -errno;
	}
	suffix = strrchr(s->dir, '.') + 1;
	snprintf(s->name, sizeof(s->name), "rtproof-%s", suffix);
	snprintf(s->log, sizeof(s->log), "%s/jackd.log", s->dir);
	fd = open(s->log, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(why, len, "--start-server: cannot create %s: %s", s->log, strerror(errno));
		audio_jackd_stop(s);
		return -EIO;
	}
	s->log_fd = open(s->log, O_RDONLY | O_CLOEXEC);
	snprintf(r, sizeof(r), "%u", rate);
	snprintf(p, sizeof(p), "%u", period);
	s->pid = fork();
	if (s->pid < 0) {
		snprintf(why, len, "--start-server: cannot fork: %s", strerror(errno));
		close(fd);
		audio_jackd_stop(s);
		return -EIO;
	}
	if (s->pid == 0) {
		/* The driver blocks the stop signals everywhere: jackd must get them. */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		/* This run killed outright: its server goes too (forked from main). */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() == 1)
			_exit(127);
		if (dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0)
			_exit(127);
		setenv("JACK_NO_AUDIO_RESERVATION", "1", 1);
		execlp("jackd", "jackd", "-n", s->name, "-R", "-d", "dummy", "-r", r, "-p", p,
		       (char *)NULL);
		dprintf(STDERR_FILENO, "cannot run jackd: %s\n", strerror(errno));
		_exit(127);
	}
	close(fd);
	return 0;
}

bool audio_jackd_alive(struct audio_jackd *s)
{
	int st;

	if (s->pid <= 0)
		return false;
	if (waitpid(s->pid, &st, WNOHANG) == s->pid) {
		s->pid = -1;
		return false;
	}
	return true;
}

/* jackd's banner, printed on every start: never the reason it stopped */
static bool banner_line(const char *l)
{
	static const char *const b[] = { "jackdmp ", "Copyright ", "jackdmp comes with", "This is free software",
					 "under certain conditions" };
	size_t i;

	for (i = 0; i < sizeof(b) / sizeof(b[0]); i++)
		if (!strncmp(l, b[i], strlen(b[i])))
			return true;
	return false;
}

void audio_jackd_last_line(const struct audio_jackd *s, char *out, size_t len)
{
	char buf[4096], *line, *save = NULL, *e, *keep[3], *last = NULL;
	unsigned nk = 0, i;
	ssize_t n;
	int fd;
	off_t sz;

	snprintf(out, len, "no output");
	fd = open(s->log, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	sz = lseek(fd, 0, SEEK_END);
	if (sz > (off_t)sizeof(buf) - 1)
		lseek(fd, sz - (off_t)sizeof(buf) + 1, SEEK_SET);
	else
		lseek(fd, 0, SEEK_SET);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	/*
	 * The last lines that are not the banner, at most 3, in order: jackd
	 * writes its errors unbuffered and the banner at exit, so the last
	 * line alone was "under certain conditions; see the file COPYING".
	 */
	for (line = strtok_r(buf, "\r\n", &save); line; line = strtok_r(NULL, "\r\n", &save)) {
		/* Printable bytes only: the server's text goes to a terminal. */
		for (e = line; *e; e++)
			if ((unsigned char)*e < 0x20 || (unsigned char)*e == 0x7f)
				*e = '?';
		last = line;
		if (banner_line(line))
			continue;
		if (nk == 3)
			memmove(keep, keep + 1, 2 * sizeof(keep[0]));
		keep[nk < 3 ? nk++ : 2] = line;
	}
	if (!nk) {
		if (last)
			snprintf(out, len, "%s", last);
		return;
	}
	out[0] = '\0';
	for (i = 0; i < nk; i++)
		rtp_appendf(out, len, "%s%s", i ? "; " : "", keep[i]);
}

/*
 * "JackEngine::XRun: client = NAME was not finished, state = STATE"
 * "JackEngine::XRun: client NAME finished after current callback"
 * -> name and rank: 2 it was running (or finished late), 1 it waited to be
 * run (triggered), 0 not such a line.
 */
/* A client's name goes to a terminal: control bytes become '?'. */
static void printable(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s == 0x7f)
			*s = '?';
}

int audio_jackd_parse_xrun(const char *line, char *name, size_t len)
{
	static const char was[] = "JackEngine::XRun: client = ";
	static const char late[] = "JackEngine::XRun: client ";
	const char *p, *e;
	size_t n;

	if ((p = strstr(line, was))) {
		p += sizeof(was) - 1;
		e = strstr(p, " was not finished");
		if (!e)
			return 0;
		n = (size_t)(e - p);
		snprintf(name, len, "%.*s", (int)(n < len ? n : len - 1), p);
		printable(name);
		return strstr(e, "state = Triggered") ? 1 : 2;
	}
	if ((p = strstr(line, late))) {
		p += sizeof(late) - 1;
		e = strstr(p, " finished after current callback");
		if (!e)
			return 0;
		n = (size_t)(e - p);
		snprintf(name, len, "%.*s", (int)(n < len ? n : len - 1), p);
		printable(name);
		return 2;
	}
	return 0;
}

int audio_jackd_read(struct audio_jackd *s, void (*line)(void *arg, const char *l), void *arg)
{
	char buf[2048];
	ssize_t n;
	size_t i;

	if (s->log_fd < 0)
		return 0;
	while ((n = read(s->log_fd, buf, sizeof(buf))) > 0) {
		for (i = 0; i < (size_t)n; i++) {
			if (buf[i] == '\n' || s->partial_len + 1 >= sizeof(s->partial)) {
				s->partial[s->partial_len] = '\0';
				line(arg, s->partial);
				s->partial_len = 0;
				if (buf[i] == '\n')
					continue;
			}
			s->partial[s->partial_len++] = buf[i];
		}
	}
	return 0;
}

void audio_jackd_stop(struct audio_jackd *s)
{
	struct timespec ts = { 0, 10000000 };
	int i, st;

	if (s->pid > 0) {
		kill(s->pid, SIGTERM);
		for (i = 0; i < 500; i++) {	/* 5 s */
			if (waitpid(s->pid, &st, WNOHANG) == s->pid)
				break;
			nanosleep(&ts, NULL);
		}
		if (i == 500) {
			kill(s->pid, SIGKILL);
			waitpid(s->pid, &st, 0);
		}
		s->pid = -1;
	}
	if (s->log_fd >= 0)
		close(s->log_fd);
	s->log_fd = -1;
	if (s->log[0])
		unlink(s->log);
	if (s->dir[0])
		rmdir(s->dir);
	s->log[0] = s->dir[0] = '\0';
}
