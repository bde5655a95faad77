// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtp-measure: runs a command and says what it cost, for make bench-scale.
 * While it runs, /proc/PID/status is sampled every 5 ms for the peak of
 * VmLck (locked memory) and VmRSS; at its end wait4() gives its CPU time
 * (user + system, all its threads) and its peak RSS.  One line on stderr:
 *   rc=0 wall_s=1.234 user_s=0.100 sys_s=0.200 maxrss_kib=5000 vmlck_peak_kib=4000 vmrss_peak_kib=4900
 * The command's own stdout and stderr pass through.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run.h"

/* Reads "Key:   N kB" from /proc/pid/status into kib; false when gone. */
static int sample(pid_t pid, long *lck, long *rss)
{
	char path[64], line[256];
	FILE *f;
	long v;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "VmLck: %ld", &v) == 1 && v > *lck)
			*lck = v;
		else if (sscanf(line, "VmRSS: %ld", &v) == 1 && v > *rss)
			*rss = v;
	}
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	struct timespec ms5 = { 0, 5000000 };
	long lck = 0, rss = 0;
	struct rusage ru;
	uint64_t t0, t1;
	int status, rc;
	pid_t pid, w;

	if (argc < 2) {
		fprintf(stderr, "usage: rtp-measure CMD [ARGS...]\n");
		return 1;
	}
	t0 = rtp_now_ns(CLOCK_MONOTONIC);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "rtp-measure: error: fork: %s\n", strerror(errno));
		return 1;
	}
	if (!pid) {
		execvp(argv[1], argv + 1);
		fprintf(stderr, "rtp-measure: error: %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	for (;;) {
		w = wait4(pid, &status, WNOHANG, &ru);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			fprintf(stderr, "rtp-measure: error: wait4: %s\n", strerror(errno));
			return 1;
		}
		sample(pid, &lck, &rss);
		nanosleep(&ms5, NULL);
	}
	t1 = rtp_now_ns(CLOCK_MONOTONIC);
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	fprintf(stderr, "rc=%d wall_s=%.3f user_s=%.6f sys_s=%.6f maxrss_kib=%ld vmlck_peak_kib=%ld "
		"vmrss_peak_kib=%ld\n", rc, (double)(t1 - t0) / 1e9,
		(double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
		(double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6, ru.ru_maxrss, lck, rss);
	return rc;
}
