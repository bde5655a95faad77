// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-cyclic: command-line options (cyclictest's names where they mean the same). */
#include "cyclic.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "opt.h"
#include "rt.h"
#include "driver.h"
#include "result.h"

enum {
	OPT_POLICY = 256, OPT_MAINAFF, OPT_LATENCY, OPT_HISTFILE, OPT_TRACEMARK,
	OPT_SPIKE, OPT_TIMER, OPT_STOPRACE, OPT_OFFSET,
};

const struct option cyclic_longopts[] = {
	{ "priority", required_argument, NULL, 'p' },
	{ "policy", required_argument, NULL, OPT_POLICY },
	{ "interval", required_argument, NULL, 'i' },
	{ "distance", required_argument, NULL, 'd' },
	{ "offset", required_argument, NULL, OPT_OFFSET },
	{ "threads", optional_argument, NULL, 't' },
	{ "affinity", optional_argument, NULL, 'a' },
	{ "smp", no_argument, NULL, 'S' },
	{ "mlockall", no_argument, NULL, 'm' },
	{ "mainaffinity", required_argument, NULL, OPT_MAINAFF },
	{ "latency", required_argument, NULL, OPT_LATENCY },
	{ "nsecs", no_argument, NULL, 'N' },
	{ "histogram", required_argument, NULL, 'h' },
	{ "histfile", required_argument, NULL, OPT_HISTFILE },
	{ "breaktrace", required_argument, NULL, 'b' },
	{ "tracemark", no_argument, NULL, OPT_TRACEMARK },
	{ "spike", required_argument, NULL, OPT_SPIKE },
	{ "timer", required_argument, NULL, OPT_TIMER },
	{ "relative", no_argument, NULL, 'r' },
	{ "test-stop-race", no_argument, NULL, OPT_STOPRACE },
	{ NULL, 0, NULL, 0 },
};
const char cyclic_shortopts[] = "p:i:d:t::a::SmNh:b:r";

const char cyclic_synopsis[] =
"Timer wake-up latency: each thread sleeps to an absolute release time and\n"
"records how late it woke, measured from the intended release.\n";

const char cyclic_help[] =
"  -p, --priority N       priority 1..99 (default 95)\n"
"      --policy P         fifo|rr|other|batch|idle|deadline (default fifo);\n"
"                         deadline threads run unpinned (see docs/cyclic.md)\n"
"  -i, --interval US      period in microseconds, or with a unit: 500us, 2ms (default 1000)\n"
"  -d, --distance US      thread n runs with interval + n*US, as in cyclictest (default 0;\n"
"                         cyclictest's is 500 without -S)\n"
"      --offset US        thread n's first release n*US after the start (default 0)\n"
"  -t, --threads[=N]      N threads (default and bare -t: one per CPU)\n"
"  -a, --affinity[=CPUS]  pin threads round-robin to CPUS, e.g. 0-3,6 (default: all online)\n"
"  -S, --smp              one thread per CPU, pinned, distance 0 (the default)\n"
"  -m, --mlockall         lock memory (the default; --no-mlockall to skip)\n"
"      --mainaffinity CPUS  pin the main thread\n"
"      --latency US       hold /dev/cpu_dma_latency at US (default 0; 'off' to leave it)\n"
"  -N, --nsecs            print nanoseconds instead of microseconds\n"
"  -h, --histogram US     also keep cyclictest's 1 us text histogram up to US\n"
"      --histfile FILE    write that histogram to FILE (default: stdout)\n"
"  -b, --breaktrace US    stop when a latency exceeds US (verdict fail)\n"
"      --tracemark        with -b: write a mark to tracefs trace_marker, stop tracing\n"
"      --spike US         list the largest samples above US (time, CPU, latency)\n"
"      --timer T          nanosleep (absolute clock_nanosleep, default) or timerfd\n"
"  -r, --relative         relative clock_nanosleep instead of absolute\n"
"      --test-stop-race   self-test: the first stop signal lands just before a sleep\n";

const char cyclic_epilog[] =
"Exit: 0 pass, 1 error, 2 fail (budget exceeded or breaktrace), 4 skip (no RT privilege).\n";

void cyclic_defaults(void *oo)
{
	struct cyclic_opts *o = oo;

	memset(o, 0, sizeof(*o));
	o->priority = 95;
	o->policy = SCHED_FIFO;
	o->interval_ns = 1000000;
	rtp_common_defaults(&o->co);
	o->dma_latency_us = 0;
	o->timer = CYCLIC_NANOSLEEP;
	if (rtp_cpus_online(&o->cpus))
		CPU_ZERO(&o->cpus);
}

#define bad rtp_opt_bad

static int check_online(const char *opt, const char *val, const cpu_set_t *set)
{
	cpu_set_t online;
	char buf[256];
	int c;

	if (CPU_COUNT(set) == 0)
		return bad(opt, val, "no CPU in the list");
	if (rtp_cpus_online(&online))
		return 0;
	for (c = 0; c < CPU_SETSIZE; c++) {
		if (CPU_ISSET(c, set) && !CPU_ISSET(c, &online)) {
			char why[320];

			rtp_format_cpulist(&online, buf, sizeof(buf));
			snprintf(why, sizeof(why), "CPU %d is not online (online: %s)", c, buf);
			return bad(opt, val, why);
		}
	}
	return 0;
}

int cyclic_option(void *oo, int c, const char *name, const char *arg, int argc, char **argv)
{
	struct cyclic_opts *o = oo;
	uint64_t v;
	int ret;

	switch (c) {
	case 'p':
		ret = rtp_parse_prio(arg, 0, 99, &o->priority);
		if (ret)
			return bad(name, arg, "priority must be 1..99 (0 for other/batch/idle)");
		o->prio_given = true;
		break;
	case OPT_POLICY:
		if (rtp_parse_policy(arg, &o->policy))
			return bad(name, arg, "policy must be fifo, rr, other, batch, idle or deadline");
		break;
	case 'i':
		ret = rtp_parse_us(arg, &v);
		if (ret || v < 1000 || v > 10000000000ull)
			return bad(name, arg, "interval must be 1 us .. 10 s");
		o->interval_ns = v;
		break;
	case 'd':
		ret = rtp_parse_us(arg, &v);
		if (ret || v > 10000000000ull)
			return bad(name, arg, "distance must be 0 .. 10 s");
		o->distance_ns = v;
		break;
	case OPT_OFFSET:
		ret = rtp_parse_us(arg, &v);
		if (ret || v > 10000000000ull)
			return bad(name, arg, "offset must be 0 .. 10 s");
		o->offset_ns = v;
		break;
	case 't':
		if (!arg && optind < argc && isdigit((unsigned char)argv[optind][0]))
			arg = argv[optind++];	/* cyclictest accepts "-t 4" */
		if (arg) {
			if (rtp_parse_int(arg, 1, 4096, &o->nthreads))
				return bad(name, arg, "threads must be 1..4096");
		} else {
			o->nthreads = 0;
		}
		break;
	case 'a':
		if (!arg && optind < argc && isdigit((unsigned char)argv[optind][0]))
			arg = argv[optind++];
		if (arg) {
			ret = rtp_parse_cpulist(arg, &o->cpus);
			if (ret)
				return bad(name, arg, ret == -ERANGE ? "CPU number out of range" :
					   "malformed CPU list (use 0-3,6)");
			ret = check_online(name, arg, &o->cpus);
			if (ret)
				return ret;
		} else if (rtp_cpus_online(&o->cpus)) {
			return bad(name, "", "cannot read the online CPUs");
		}
		break;
	case 'S':
		o->nthreads = 0;
		o->distance_ns = 0;
		break;
	case 'm':
		o->co.mlock = true;
		break;
	case OPT_MAINAFF:
		ret = rtp_parse_cpulist(arg, &o->main_affinity);
		if (ret)
			return bad(name, arg, "malformed CPU list (use 0-3,6)");
		ret = check_online(name, arg, &o->main_affinity);
		if (ret)
			return ret;
		o->main_affinity_set = true;
		break;
	case OPT_LATENCY:
		if (!strcmp(arg, "off"))
			o->dma_latency_us = -1;
		else if (rtp_parse_int(arg, 0, 2000000000, &o->dma_latency_us))
			return bad(name, arg, "latency must be 0..2000000000 us or 'off'");
		break;
	case 'N':
		o->nsecs = true;
		break;
	case 'h':
		if (rtp_parse_u64(arg, 1, 10000000, &o->histogram_us))
			return bad(name, arg, "histogram size must be 1..10000000 us");
		break;
	case OPT_HISTFILE:
		if (!*arg)
			return bad(name, "''", "empty file name");
		o->histfile = arg;
		break;
	case 'b':
		ret = rtp_parse_us(arg, &v);
		if (ret || v == 0)
			return bad(name, arg, "breaktrace threshold must be a positive number of us");
		o->breaktrace_ns = v;
		break;
	case OPT_TRACEMARK:
		o->tracemark = true;
		break;
	case OPT_SPIKE:
		ret = rtp_parse_us(arg, &v);
		if (ret || v == 0)
			return bad(name, arg, "spike threshold must be a positive number of us");
		o->spike_ns = v;
		break;
	case OPT_TIMER:
		if (!strcmp(arg, "nanosleep"))
			o->timer = CYCLIC_NANOSLEEP;
		else if (!strcmp(arg, "timerfd"))
			o->timer = CYCLIC_TIMERFD;
		else
			return bad(name, arg, "timer must be nanosleep or timerfd");
		break;
	case 'r':
		o->relative = true;
		break;
	case OPT_STOPRACE:
		o->test_stop_race = true;
		break;
	}
	return 0;
}

int cyclic_check(void *oo)
{
	struct cyclic_opts *o = oo;

	if (rtp_policy_is_rt(o->policy) && o->policy != SCHED_DEADLINE) {
		if (o->priority < 1)
			return bad("-p", "0", "priority must be 1..99 for fifo and rr");
	} else if (!o->prio_given) {
		o->priority = 0;
	} else if (o->policy != SCHED_DEADLINE && o->priority != 0) {
		char val[16];

		snprintf(val, sizeof(val), "%d", o->priority);
		return bad("-p", val, "priority must be 0 for other, batch and idle");
	}
	if (o->tracemark && !o->breaktrace_ns) {
		rtp_error("--tracemark: needs -b/--breaktrace");
		return RTP_EXIT_ERROR;
	}
	if (o->relative && o->timer == CYCLIC_TIMERFD) {
		rtp_error("-r: relative sleeps do not apply to --timer timerfd");
		return RTP_EXIT_ERROR;
	}
	if (o->histfile && !o->histogram_us)
		o->histogram_us = 1000;	/* --histfile alone: cyclictest's common -h 1000 */
	if (CPU_COUNT(&o->cpus) == 0) {
		rtp_error("cannot read the online CPUs");
		return RTP_EXIT_ERROR;
	}
	return 0;
}
