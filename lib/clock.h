/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_CLOCK_H
#define RTP_CLOCK_H

/*
 * Time in nanoseconds, the one way the suite reads a clock: a timespec
 * to ns and back, and "now" on a clock (CLOCK_MONOTONIC for every
 * interval and deadline; CLOCK_THREAD_CPUTIME_ID for a thread's CPU time).
 * No wrap in 584 years of uptime.
 */

#include <stdint.h>
#include <time.h>

static inline uint64_t rtp_ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000ull + (uint64_t)ts->tv_nsec;
}

static inline struct timespec rtp_ns_ts(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ull),
			       .tv_nsec = (long)(ns % 1000000000ull) };
	return ts;
}

static inline uint64_t rtp_now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return rtp_ts_ns(&ts);
}

#endif /* RTP_CLOCK_H */
