// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtp-spin: plants a known delay for the integration tests.  A SCHED_FIFO
 * thread pinned to one CPU busy-spins for --spin every --every, for
 * --duration, so a lower-priority measuring thread on that CPU must see
 * wake-ups late by up to the spin length.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "opt.h"
#include "rt.h"
#include "run.h"

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "prio", required_argument, NULL, 'p' },
		{ "spin", required_argument, NULL, 's' },
		{ "every", required_argument, NULL, 'e' },
		{ "duration", required_argument, NULL, 'D' },
		{ "delay", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t spin = 2000000, every = 200000000, duration = 5000000000ull, delay = 0;
	uint64_t next, end, spins = 0;
	struct rtp_sched s = { .policy = SCHED_FIFO, .priority = 99 };
	int cpu = 0, c, ret;

	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'c': ret = rtp_parse_int(optarg, 0, CPU_SETSIZE - 1, &cpu); break;
		case 'p': ret = rtp_parse_prio(optarg, 1, 99, &s.priority); break;
		case 's': ret = rtp_parse_duration_ns(optarg, &spin); break;
		case 'e': ret = rtp_parse_duration_ns(optarg, &every); break;
		case 'D': ret = rtp_parse_duration_ns(optarg, &duration); break;
		case 'd': ret = rtp_parse_duration_ns(optarg, &delay); break;
		default: ret = -EINVAL; break;
		}
		if (ret) {
			rtp_error("%s: %s", argv[optind - 1], rtp_opt_strerror(ret));
			return 1;
		}
	}
	if ((ret = rtp_pin_cpu(0, cpu)) || (ret = rtp_sched_set(0, &s)) || (ret = rtp_mlock_all(0))) {
		rtp_error("setup: %s", strerror(-ret));
		return 1;
	}
	next = rtp_now_ns(CLOCK_MONOTONIC) + delay;
	end = next + duration;
	while (next < end) {
		struct timespec ts = rtp_ns_ts(next);
		uint64_t stop;

		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		stop = rtp_now_ns(CLOCK_MONOTONIC) + spin;
		while (rtp_now_ns(CLOCK_MONOTONIC) < stop)
			;
		spins++;
		next += every;
	}
	printf("rtp-spin: %llu spins of %llu ns on CPU %d at FIFO %d\n", (unsigned long long)spins,
	       (unsigned long long)spin, cpu, s.priority);
	return 0;
}
