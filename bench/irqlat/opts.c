// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-irqlat: command-line options. */
#include "irqlat.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "opt.h"
#include "driver.h"
#include "result.h"
#include "../../kernel/module/rtproof_irqlat.h"

#define bad rtp_opt_bad

enum { OPT_SOURCE = 256, OPT_IRQPRIO, OPT_CPU, OPT_DELAY, OPT_DEVICE, OPT_RTC,
       OPT_TRACEFS, OPT_SYSFS, OPT_OSNOISE };

const struct option irqlat_longopts[] = {
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "interval", required_argument, NULL, 'i' },
	{ "priority", required_argument, NULL, 'p' },
	{ "irq-prio", required_argument, NULL, OPT_IRQPRIO },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "delay", required_argument, NULL, OPT_DELAY },
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "rtc", required_argument, NULL, OPT_RTC },
	{ "tracefs", required_argument, NULL, OPT_TRACEFS },
	{ "sysfs-module", required_argument, NULL, OPT_SYSFS },
	{ "osnoise", no_argument, NULL, OPT_OSNOISE },
	{ NULL, 0, NULL, 0 },
};
const char irqlat_shortopts[] = "i:p:";

const char irqlat_synopsis[] =
"The stages of an interrupt's way to user space: (a) the timer's programmed\n"
"expiry, (b) the primary (hard-IRQ) handler, (c) the IRQ thread, (d) the\n"
"user-space reader's wake-up.\n";

const char irqlat_help[] =
"      --source S         auto (default), module, timerlat, rtc or user\n"
"                         module:   rtproof_irqlat.ko's software interrupt, all\n"
"                                   four stages (load the module first)\n"
"                         timerlat: the kernel's timerlat tracer (tracefs): IRQ\n"
"                                   and thread latency of its per-CPU timer\n"
"                         rtc:      /dev/rtc0 periodic interrupts, realfeel-style\n"
"                                   interval error (hrtimer-emulated on modern kernels)\n"
"                         user:     a user-space timer only; no interrupt stage\n"
"                         auto takes the first of module, timerlat, rtc that can\n"
"                         run here; never user\n"
"  -i, --interval US      period, microseconds or with a unit (default 1000)\n"
"  -p, --priority N       the reader's SCHED_FIFO priority 1..99, 0 = SCHED_OTHER\n"
"                         (default 90)\n"
"      --irq-prio N       set the IRQ thread's SCHED_FIFO priority 1..99 for the\n"
"                         run, as rtirq does (restored afterwards)\n"
"      --cpu N            pin the timer (module, timerlat) and the reader to CPU N\n"
"      --delay US         module: plant a delay of US in the primary handler\n"
"                         (truth test: it must show in irq_latency), 0..1000\n"
"                         (--max-latency: a budget on the total (module) or on\n"
"                         the source's headline stage)\n"
"      --device PATH      the module's device (default " RTP_IRQLAT_DEVICE ")\n"
"      --rtc PATH         the RTC device (default /dev/rtc0)\n"
"      --tracefs DIR      tracefs (default /sys/kernel/tracing)\n"
"      --osnoise          timerlat: also record the osnoise tracer's noise events\n"
"                         (NMI, IRQ, softirq, thread interference) per CPU, beside\n"
"                         the latencies (their tracing adds to the measured path;\n"
"                         elsewhere the document says why there is none)\n";

const char irqlat_epilog[] =
"Exit: 0 pass, 1 error, 2 fail (budget exceeded), 4 skip (no source can run\n"
"here; each one's reason is printed).\n";

void irqlat_defaults(void *oo)
{
	struct irqlat_opts *o = oo;

	memset(o, 0, sizeof(*o));
	rtp_common_defaults(&o->co);
	o->source = SRC_AUTO;
	o->interval_ns = 1000000;
	o->priority = 90;
	o->cpu = -1;
	o->device = RTP_IRQLAT_DEVICE;
	o->rtc = "/dev/rtc0";
	o->sysfs_module = "/sys/module/rtproof_irqlat";
}

int irqlat_option(void *oo, int c, const char *name, const char *arg, int argc, char **argv)
{
	struct irqlat_opts *o = oo;
	uint64_t v;
	int ret;

	(void)argc;
	(void)argv;
	switch (c) {
	case OPT_SOURCE: {
		int s;

		if (!strcmp(arg, "auto")) {
			o->source = SRC_AUTO;
			break;
		}
		for (s = 0; s < SRC_N; s++)
			if (!strcmp(arg, irqlat_source_name((enum irqlat_source)s)))
				break;
		if (s == SRC_N)
			return bad(name, arg, "source must be auto, module, timerlat, rtc or user");
		o->source = (enum irqlat_source)s;
		break;
	}
	case 'i':
		ret = rtp_parse_us(arg, &v);
		if (ret || v < 50000 || v > 1000000000ull)
			return bad(name, arg, "interval must be 50 us .. 1 s");
		o->interval_ns = v;
		break;
	case 'p':
		if (rtp_parse_prio(arg, 0, 99, &o->priority))
			return bad(name, arg, "priority must be 0..99 (0: SCHED_OTHER)");
		break;
	case OPT_IRQPRIO:
		if (rtp_parse_prio(arg, 1, 99, &o->irq_prio))
			return bad(name, arg, "IRQ thread priority must be 1..99");
		break;
	case OPT_CPU: {
		const char *why = rtp_parse_online_cpu(arg, &o->cpu);

		if (why)
			return bad(name, arg, why);
		break;
	}
	case OPT_DELAY:
		ret = rtp_parse_us(arg, &v);
		if (ret || v > 1000000)
			return bad(name, arg, "delay must be 0 .. 1000 us");
		if (v % 1000)
			return bad(name, arg, "delay must be a whole number of microseconds");
		o->delay_ns = v;
		o->delay_set = true;
		break;
	case OPT_OSNOISE:
		o->osnoise = true;
		break;
	case OPT_DEVICE:
	case OPT_RTC:
	case OPT_TRACEFS:
	case OPT_SYSFS:
		if (!*arg)
			return bad(name, "''", "empty path");
		if (c == OPT_DEVICE)
			o->device = arg;
		else if (c == OPT_RTC)
			o->rtc = arg;
		else if (c == OPT_TRACEFS)
			o->tracefs = arg;
		else
			o->sysfs_module = arg;
		break;
	}
	return 0;
}

int irqlat_check(void *oo)
{
	struct irqlat_opts *o = oo;

	if (o->delay_set && o->source != SRC_MODULE && o->source != SRC_AUTO) {
		rtp_error("--delay: only the module source can plant a delay (--source %s)",
			  irqlat_source_name(o->source));
		return RTP_EXIT_ERROR;
	}
	if (o->delay_ns * 2 > o->interval_ns) {
		char d[32], i[32];

		snprintf(d, sizeof(d), "%llu", (unsigned long long)(o->delay_ns / 1000));
		snprintf(i, sizeof(i), "%llu us", (unsigned long long)(o->interval_ns / 1000));
		rtp_error("--delay %s: at most half the interval (%s)", d, i);
		return RTP_EXIT_ERROR;
	}
	if (!o->co.duration_ns && !o->co.loops)
		o->co.duration_ns = 10000000000ull;
	return 0;
}
