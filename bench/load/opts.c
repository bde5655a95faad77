// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-load: command-line options. */
#include "load.h"

#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"

#define bad rtp_opt_bad

const char *const load_part_names[LP_N] = { "ctxsw", "futex-pi", "syscall", "loopback", "spawn" };
const char *const load_part_ops[LP_N] = {
	"a round trip between two threads over pipes (two wake-ups, two context switches)",
	"a handoff of a contended PI mutex between two threads (futex_lock_pi / futex_unlock_pi)",
	"a system call (getppid)",
	"a 1 KiB UDP datagram over loopback and its reply (softirq network receive)",
	"a fork, exec of /bin/true and wait",
};

enum { OPT_PARTS = 256, OPT_ROUND, OPT_CPU };

const struct option load_longopts[] = {
	{ "parts", required_argument, NULL, OPT_PARTS },
	{ "rounds", required_argument, NULL, 'n' },
	{ "round-time", required_argument, NULL, OPT_ROUND },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ NULL, 0, NULL, 0 },
};
const char load_shortopts[] = "n:";

const char load_synopsis[] =
"The price of a kernel's latency in work done: wake-ups and context switches,\n"
"PI-futex handoff, system calls, loopback networking (softirqs), fork and exec,\n"
"each in short rounds at SCHED_OTHER on one CPU.  A round's figure is the time\n"
"per operation (ns); each part's operations per second over all rounds is what\n"
"rtproof compare sets side by side (throughput, higher is better), with an\n"
"interval over the runs.  See docs/load.md.\n";

const char load_help[] =
"      --parts LIST       comma list of ctxsw, futex-pi, syscall, loopback, spawn\n"
"                         (default: all)\n"
"  -n, --rounds N         rounds of each part, 1..100000 (default 30); the parts\n"
"                         take turns, round by round, so a drift of the machine\n"
"                         falls on all of them\n"
"      --round-time T     each round's length (default 100ms; 1ms .. 10s)\n"
"      --cpu N            the CPU the parts run on (default: the first allowed)\n";

const char load_epilog[] =
"Exit: 0 (figures only: throughput has no budget), 1 error.\n";

void load_defaults(void *oo)
{
	struct load_opts *o = oo;

	memset(o, 0, sizeof(*o));
	rtp_common_defaults(&o->co);
	o->parts = (1u << LP_N) - 1;
	o->rounds = 30;
	o->round_ns = 100000000;
	o->cpu = -1;
}

static int parse_parts(const char *arg, unsigned *out)
{
	char buf[256], *tok, *save = NULL;
	int p;

	if (strlen(arg) >= sizeof(buf))
		return -1;
	snprintf(buf, sizeof(buf), "%s", arg);
	*out = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (p = 0; p < LP_N; p++)
			if (!strcmp(tok, load_part_names[p]))
				break;
		if (p == LP_N)
			return -1;
		*out |= 1u << p;
	}
	return *out ? 0 : -1;
}

int load_option(void *oo, int c, const char *name, const char *arg, int argc, char **argv)
{
	struct load_opts *o = oo;
	uint64_t v;

	(void)argc;
	(void)argv;
	switch (c) {
	case OPT_PARTS:
		if (parse_parts(arg, &o->parts))
			return bad(name, arg, "parts must be a comma list of ctxsw, futex-pi, syscall, loopback, spawn");
		break;
	case 'n':
		if (rtp_parse_u64(arg, 1, 100000, &o->rounds))
			return bad(name, arg, "rounds must be 1..100000");
		break;
	case OPT_ROUND:
		if (rtp_parse_duration_ns(arg, &v) || v < 1000000 || v > 10000000000ull)
			return bad(name, arg, "round time must be 1ms .. 10s");
		o->round_ns = v;
		break;
	case OPT_CPU: {
		const char *why = rtp_parse_online_cpu(arg, &o->cpu);

		if (why)
			return bad(name, arg, why);
		break;
	}
	}
	return 0;
}

int load_check(void *oo)
{
	(void)oo;
	return 0;
}
