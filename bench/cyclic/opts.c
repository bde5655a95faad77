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
#include "result.h"

enum {
	OPT_POLICY = 256, OPT_MAINAFF, OPT_LATENCY, OPT_HISTFILE, OPT_JSON, OPT_TRACEMARK,
	OPT_SPIKE, OPT_MAXLAT, OPT_TIMER, OPT_NOMLOCK, OPT_LOAD, OPT_HELP, OPT_VERSION, OPT_OFFSET,
};

static const struct option longopts[] = {
	{ "priority", required_argument, NULL, 'p' },
	{ "policy", required_argument, NULL, OPT_POLICY },
	{ "interval", required_argument, NULL, 'i' },
	{ "distance", required_argument, NULL, 'd' },
	{ "offset", required_argument, NULL, OPT_OFFSET },
	{ "loops", required_argument, NULL, 'l' },
	{ "duration", required_argument, NULL, 'D' },
	{ "threads", optional_argument, NULL, 't' },
	{ "affinity", optional_argument, NULL, 'a' },
	{ "smp", no_argument, NULL, 'S' },
	{ "mlockall", no_argument, NULL, 'm' },
	{ "no-mlockall", no_argument, NULL, OPT_NOMLOCK },
	{ "mainaffinity", required_argument, NULL, OPT_MAINAFF },
	{ "latency", required_argument, NULL, OPT_LATENCY },
	{ "quiet", no_argument, NULL, 'q' },
	{ "nsecs", no_argument, NULL, 'N' },
	{ "histogram", required_argument, NULL, 'h' },
	{ "histfile", required_argument, NULL, OPT_HISTFILE },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "breaktrace", required_argument, NULL, 'b' },
	{ "tracemark", no_argument, NULL, OPT_TRACEMARK },
	{ "spike", required_argument, NULL, OPT_SPIKE },
	{ "max-latency", required_argument, NULL, OPT_MAXLAT },
	{ "timer", required_argument, NULL, OPT_TIMER },
	{ "relative", no_argument, NULL, 'r' },
	{ "load", required_argument, NULL, OPT_LOAD },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: rtproof-cyclic [options]\n"
"Timer wake-up latency: each thread sleeps to an absolute release time and\n"
"records how late it woke, measured from the intended release.\n"
"\n"
"  -p, --priority N       priority 1..99 (default 95)\n"
"      --policy P         fifo|rr|other|batch|idle|deadline (default fifo)\n"
"  -i, --interval US      period in microseconds, or with a unit: 500us, 2ms (default 1000)\n"
"  -d, --distance US      thread n runs with interval + n*US, as in cyclictest (default 0;\n"
"                         cyclictest's is 500 without -S)\n"
"      --offset US        thread n's first release n*US after the start (default 0)\n"
"  -l, --loops N          wake-ups per thread, then stop (default: no limit)\n"
"  -D, --duration T       run time: 500ms, 10s, 5m, 2h, 1d; bare number = seconds\n"
"  -t, --threads[=N]      N threads (default and bare -t: one per CPU)\n"
"  -a, --affinity[=CPUS]  pin threads round-robin to CPUS, e.g. 0-3,6 (default: all online)\n"
"  -S, --smp              one thread per CPU, pinned, distance 0 (the default)\n"
"  -m, --mlockall         lock memory (default); --no-mlockall to skip\n"
"      --mainaffinity CPUS  pin the main thread\n"
"      --latency US       hold /dev/cpu_dma_latency at US (default 0; 'off' to leave it)\n"
"  -q, --quiet            no live display; the summary is printed at the end\n"
"  -N, --nsecs            print nanoseconds instead of microseconds\n"
"  -h, --histogram US     also keep cyclictest's 1 us text histogram up to US\n"
"      --histfile FILE    write that histogram to FILE (default: stdout)\n"
"      --json FILE        write the result document (schema rtproof/1) to FILE\n"
"  -b, --breaktrace US    stop when a latency exceeds US (verdict fail)\n"
"      --tracemark        with -b: write a mark to tracefs trace_marker, stop tracing\n"
"      --spike US         list the largest samples above US (time, CPU, latency)\n"
"      --max-latency US   budget: verdict fail and exit 2 when the max exceeds it\n"
"      --timer T          nanosleep (absolute clock_nanosleep, default) or timerfd\n"
"  -r, --relative         relative clock_nanosleep instead of absolute\n"
"      --load NAME        name the load running beside this run (recorded only)\n"
"      --help, --version\n"
"\n"
"Exit: 0 pass, 1 error, 2 fail (budget exceeded or breaktrace), 4 skip (no RT privilege).\n");
}

void cyclic_defaults(struct cyclic_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->priority = 95;
	o->policy = SCHED_FIFO;
	o->interval_ns = 1000000;
	o->mlock = true;
	o->dma_latency_us = 0;
	o->timer = CYCLIC_NANOSLEEP;
	o->load = "unspecified";
	if (rtp_cpus_online(&o->cpus))
		CPU_ZERO(&o->cpus);
}

/* Microseconds as a bare integer, or any duration with a unit. */
static int parse_us(const char *s, uint64_t *ns)
{
	uint64_t us;
	int ret;

	ret = rtp_parse_u64(s, 0, UINT64_MAX / 1000, &us);
	if (!ret) {
		*ns = us * 1000;
		return 0;
	}
	if (ret == -ERANGE)
		return ret;
	if (s && *s && isdigit((unsigned char)s[strlen(s) - 1]))
		return -EINVAL;	/* "1.5" is ambiguous: ask for a unit */
	return rtp_parse_duration_ns(s, ns);
}

static int bad(const char *opt, const char *val, const char *why)
{
	rtp_error("%s %s: %s", opt, val, why);
	return RTP_EXIT_ERROR;
}

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

int cyclic_parse(struct cyclic_opts *o, int argc, char **argv)
{
	bool prio_given = false;
	uint64_t v;
	int c, ret;

	cyclic_defaults(o);
	optind = 0;	/* glibc: full re-initialisation, so parse can run again */
	opterr = 0;
	for (;;) {
		const char *arg;
		char name[32];
		int li = -1;

		c = getopt_long(argc, argv, ":p:i:d:l:D:t::a::SmqNh:b:r", longopts, &li);
		if (c == -1)
			break;
		arg = optarg;
		rtp_opt_name(longopts, li, c, name, sizeof(name));
		switch (c) {
		case 'p':
			ret = rtp_parse_prio(arg, 0, 99, &o->priority);
			if (ret)
				return bad(name, arg, "priority must be 1..99 (0 for other/batch/idle)");
			prio_given = true;
			break;
		case OPT_POLICY:
			if (rtp_parse_policy(arg, &o->policy))
				return bad(name, arg, "policy must be fifo, rr, other, batch, idle or deadline");
			break;
		case 'i':
			ret = parse_us(arg, &v);
			if (ret || v < 1000 || v > 10000000000ull)
				return bad(name, arg, "interval must be 1 us .. 10 s");
			o->interval_ns = v;
			break;
		case 'd':
			ret = parse_us(arg, &v);
			if (ret || v > 10000000000ull)
				return bad(name, arg, "distance must be 0 .. 10 s");
			o->distance_ns = v;
			break;
		case OPT_OFFSET:
			ret = parse_us(arg, &v);
			if (ret || v > 10000000000ull)
				return bad(name, arg, "offset must be 0 .. 10 s");
			o->offset_ns = v;
			break;
		case 'l':
			if (rtp_parse_u64(arg, 1, UINT64_MAX, &o->loops))
				return bad(name, arg, "loops must be a positive integer");
			break;
		case 'D':
			ret = rtp_parse_duration_ns(arg, &v);
			if (ret || v == 0)
				return bad(name, arg, ret == -ERANGE ? "duration out of range (at most 100d)" :
					   "duration must be positive, like 500ms, 10s, 5m, 2h, 1d");
			o->duration_ns = v;
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
			o->mlock = true;
			break;
		case OPT_NOMLOCK:
			o->mlock = false;
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
		case 'q':
			o->quiet = true;
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
		case OPT_JSON:
			if (!*arg)
				return bad(name, "''", "empty file name");
			o->json = arg;
			break;
		case 'b':
			ret = parse_us(arg, &v);
			if (ret || v == 0)
				return bad(name, arg, "breaktrace threshold must be a positive number of us");
			o->breaktrace_ns = v;
			break;
		case OPT_TRACEMARK:
			o->tracemark = true;
			break;
		case OPT_SPIKE:
			ret = parse_us(arg, &v);
			if (ret || v == 0)
				return bad(name, arg, "spike threshold must be a positive number of us");
			o->spike_ns = v;
			break;
		case OPT_MAXLAT:
			ret = parse_us(arg, &v);
			if (ret || v == 0)
				return bad(name, arg, "latency budget must be a positive number of us");
			o->max_latency_ns = v;
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
		case OPT_LOAD:
			if (!*arg)
				return bad(name, "''", "empty load name");
			o->load = arg;
			break;
		case OPT_HELP:
			usage(stdout);
			return CYCLIC_HELP_SHOWN;
		case OPT_VERSION:
			printf("rtproof-cyclic %s\n", RTP_VERSION);
			return CYCLIC_HELP_SHOWN;
		default:	/* ':' missing value, '?' unknown option */
			return rtp_opt_fail(c, argv);
		}
	}
	if (optind < argc) {
		rtp_error("%s: unexpected argument (see --help)", argv[optind]);
		return RTP_EXIT_ERROR;
	}
	if (rtp_policy_is_rt(o->policy) && o->policy != SCHED_DEADLINE) {
		if (o->priority < 1)
			return bad("-p", "0", "priority must be 1..99 for fifo and rr");
	} else if (!prio_given) {
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
