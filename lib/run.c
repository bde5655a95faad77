// SPDX-License-Identifier: GPL-2.0-or-later
#include "run.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "result.h"

int rtp_signals_block(sigset_t *set)
{
	int ret;

	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	ret = pthread_sigmask(SIG_BLOCK, set, NULL);
	return ret ? -ret : 0;
}

const char *rtp_format_ns(uint64_t ns, char *buf, size_t len)
{
	if (ns >= 10000000000ull)
		snprintf(buf, len, "%.2f s", (double)ns / 1e9);
	else if (ns >= 1000000ull)
		snprintf(buf, len, "%.3f ms", (double)ns / 1e6);
	else if (ns >= 1000ull)
		snprintf(buf, len, "%.1f us", (double)ns / 1e3);
	else
		snprintf(buf, len, "%llu ns", (unsigned long long)ns);
	return buf;
}

int rtp_run_begin(sigset_t *sigs, struct rtp_sysinfo *si, struct timespec *start,
		  struct rtp_result *res, const char *json)
{
	int ret;

	ret = rtp_signals_block(sigs);
	if (ret) {
		rtp_error("cannot block signals: %s", strerror(-ret));
		return RTP_EXIT_ERROR;
	}
	rtp_sysinfo_read(si);
	clock_gettime(CLOCK_REALTIME, start);
	if (json) {
		ret = rtp_result_open(res, json);
		if (ret) {
			rtp_error("--json %s: cannot create: %s", json, strerror(-ret));
			return RTP_EXIT_ERROR;
		}
	}
	return 0;
}
