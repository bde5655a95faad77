// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-cyclic's option parser: accepted and rejected command lines. */
#include <stdio.h>
#include <string.h>

#include "cyclic.h"
#include "tap.h"

#define MAXARGS 12

static const struct {
	const char *args[MAXARGS];
	int ret;
	const char *what;
} cases[] = {
	{ { NULL }, 0, "no options: the defaults" },
	{ { "-p", "80", "-i", "200", "-l", "1000", NULL }, 0, "priority, interval, loops" },
	{ { "-D", "1.5s", "-q", "-N", NULL }, 0, "duration with a decimal" },
	{ { "-i", "500us", NULL }, 0, "interval with a unit" },
	{ { "-t", NULL }, 0, "bare -t" },
	{ { "-t", "3", NULL }, 0, "-t 3 (separate argument)" },
	{ { "-t2", NULL }, 0, "-t2" },
	{ { "--threads=2", "-a", "0", NULL }, 0, "--threads=2 -a 0" },
	{ { "-a", NULL }, 0, "bare -a" },
	{ { "--policy", "other", NULL }, 0, "policy other drops the priority to 0" },
	{ { "--policy", "rr", "-p", "10", NULL }, 0, "rr 10" },
	{ { "-h", "100", "--histfile", "/tmp/x", NULL }, 0, "histogram to a file" },
	{ { "--histfile", "/tmp/x", NULL }, 0, "histfile alone implies -h 1000" },
	{ { "-b", "500", "--tracemark", NULL }, 0, "breaktrace with tracemark" },
	{ { "--timer", "timerfd", NULL }, 0, "timerfd" },
	{ { "-r", NULL }, 0, "relative" },
	{ { "--latency", "off", "--no-mlockall", NULL }, 0, "latency off" },
	{ { "--max-latency", "100", "--spike", "50", NULL }, 0, "budget and spikes" },
	{ { "-S", "-m", "--mainaffinity", "0", NULL }, 0, "smp, mlockall, mainaffinity" },
	{ { "--bogus", NULL }, 1, "unknown long option" },
	{ { "-x", NULL }, 1, "unknown short option" },
	{ { "-p", "120", NULL }, 1, "priority 120" },
	{ { "-p", "0", NULL }, 1, "priority 0 with fifo" },
	{ { "--policy", "other", "-p", "5", NULL }, 1, "priority 5 with other" },
	{ { "-p", "abc", NULL }, 1, "priority abc" },
	{ { "-i", "0", NULL }, 1, "interval 0" },
	{ { "-i", "1.5", NULL }, 1, "interval 1.5 without a unit" },
	{ { "-i", "-5", NULL }, 1, "negative interval" },
	{ { "-i", "20s", NULL }, 1, "interval above 10 s" },
	{ { "-a", "99", NULL }, 1, "affinity to an offline CPU" },
	{ { "-a", "1-0", NULL }, 1, "a reversed CPU range" },
	{ { "-a", "5000", NULL }, 1, "a CPU past CPU_SETSIZE" },
	{ { "-D", "5x", NULL }, 1, "duration 5x" },
	{ { "-D", "0", NULL }, 1, "duration 0" },
	{ { "-D", NULL }, 1, "duration without a value" },
	{ { "-l", "0", NULL }, 1, "loops 0" },
	{ { "-t", "0", NULL }, 1, "threads 0" },
	{ { "--policy", "fast", NULL }, 1, "unknown policy" },
	{ { "--timer", "hpet", NULL }, 1, "unknown timer" },
	{ { "--tracemark", NULL }, 1, "tracemark without breaktrace" },
	{ { "-r", "--timer", "timerfd", NULL }, 1, "relative with timerfd" },
	{ { "--json", "", NULL }, 1, "empty json path" },
	{ { "extra", NULL }, 1, "a stray argument" },
	{ { "-h", "0", NULL }, 1, "histogram 0" },
	{ { "--latency", "-3", NULL }, 1, "negative dma latency" },
};

int main(void)
{
	struct cyclic_opts o;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[MAXARGS + 2];
		int argc = 0, ret;

		argv[argc++] = "rtproof-cyclic";
		while (cases[i].args[argc - 1])
			argv[argc] = (char *)cases[i].args[argc - 1], argc++;
		argv[argc] = NULL;
		ret = cyclic_parse(&o, argc, argv);
		ok(ret == cases[i].ret, "%s -> %d", cases[i].what, ret);
	}
	{
		char *argv[] = { "rtproof-cyclic", NULL };

		cyclic_parse(&o, 1, argv);
		ok(o.priority == 95 && o.policy == SCHED_FIFO && o.interval_ns == 1000000 && o.co.mlock &&
		   o.dma_latency_us == 0 && o.nthreads == 0 && CPU_COUNT(&o.cpus) >= 1,
		   "defaults: FIFO 95, 1000 us, mlockall, cpu_dma_latency 0, a thread per CPU");
	}
	{
		char *argv[] = { "rtproof-cyclic", "--policy", "other", NULL };

		cyclic_parse(&o, 3, argv);
		ok(o.priority == 0 && o.policy == SCHED_OTHER, "--policy other: priority 0");
	}
	{
		char *argv[] = { "rtproof-cyclic", "-i", "250", "-d", "100", "-b", "2ms", NULL };

		cyclic_parse(&o, 7, argv);
		ok(o.interval_ns == 250000 && o.distance_ns == 100000 && o.breaktrace_ns == 2000000,
		   "microsecond options: 250 us, 100 us, 2 ms");
	}
	{
		char *argv[] = { "rtproof-cyclic", "-d", "500", "--offset", "300us", "-S", NULL };

		cyclic_parse(&o, 6, argv);
		ok(o.distance_ns == 0 && o.offset_ns == 300000,
		   "--offset 300us is kept apart from -d, which -S resets to 0 as in cyclictest");
	}
	return tap_done();
}
