// SPDX-License-Identifier: GPL-2.0-or-later
/* Preemption model detection from each kind of evidence, and the live read. */
#include <string.h>

#include "sysinfo.h"
#include "tap.h"

static const struct {
	struct rtp_preempt_evidence ev;
	const char *model;
	const char *source;
	const char *what;
} cases[] = {
	{ { .realtime = "1" }, "rt", "/sys/kernel/realtime", "/sys/kernel/realtime = 1" },
	{ { .realtime = "0", .uname_version = "#1 SMP PREEMPT_DYNAMIC" }, "unknown", "none",
	  "realtime 0 and a dynamic uname alone: unknown" },
	{ { .uname_version = "#1 SMP PREEMPT_RT Debian 6.1.158-1 (2025-11-09)" }, "rt", "uname",
	  "PREEMPT_RT in uname -v" },
	{ { .sched_preempt = "none voluntary (full)", .uname_version = "#1 SMP PREEMPT_DYNAMIC" },
	  "full", "debugfs sched/preempt", "debugfs shows full" },
	{ { .sched_preempt = "(none) voluntary full lazy" }, "none", "debugfs sched/preempt", "debugfs shows none" },
	{ { .sched_preempt = "none (voluntary) full" }, "voluntary", "debugfs sched/preempt", "debugfs shows voluntary" },
	{ { .config = "CONFIG_PREEMPT_RT=y\n" }, "rt", "kernel config", "config PREEMPT_RT" },
	{ { .config = "CONFIG_PREEMPT_VOLUNTARY=y\nCONFIG_PREEMPT_DYNAMIC=y\n", .cmdline = "quiet preempt=full" },
	  "full", "cmdline preempt=", "dynamic config with preempt=full on the command line" },
	{ { .config = "CONFIG_PREEMPT_VOLUNTARY=y\nCONFIG_PREEMPT_DYNAMIC=y\n", .cmdline = "quiet" },
	  "voluntary", "kernel config", "dynamic config, default voluntary" },
	{ { .config = "CONFIG_PREEMPT_VOLUNTARY=y\n", .cmdline = "preempt=full" }, "voluntary", "kernel config",
	  "preempt= is ignored without PREEMPT_DYNAMIC" },
	{ { .config = "CONFIG_PREEMPT_NONE=y\nCONFIG_PREEMPT_DYNAMIC=y\n", .cmdline = "nopreempt=full" }, "none",
	  "kernel config", "only a whole preempt= word counts" },
	{ { .config = "CONFIG_PREEMPT=y\n" }, "full", "kernel config", "config PREEMPT" },
	{ { .config = "CONFIG_PREEMPT_LAZY=y\nCONFIG_PREEMPT=y\n" }, "lazy", "kernel config", "config PREEMPT_LAZY" },
	{ { .config = "# CONFIG_PREEMPT_RT is not set\nCONFIG_PREEMPT_RT_X=y\nCONFIG_PREEMPT_NONE=y\n" }, "none",
	  "kernel config", "a longer symbol is not PREEMPT_RT" },
	{ { .uname_version = "#1 SMP PREEMPT Tue Jan 1" }, "full", "uname", "plain PREEMPT in uname -v" },
	{ { .uname_version = "#1 SMP Tue Jan 1" }, "unknown", "none", "no evidence" },
	{ { 0 }, "unknown", "none", "nothing readable" },
};

int main(void)
{
	struct rtp_sysinfo si;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char model[16], source[64];

		rtp_preempt_model(&cases[i].ev, model, sizeof(model), source, sizeof(source));
		ok(!strcmp(model, cases[i].model) && !strcmp(source, cases[i].source), "%s: %s from %s",
		   cases[i].what, model, source);
	}
	ok(rtp_sysinfo_read(&si) == 0, "reads this system");
	ok(si.kernel_release[0] && si.cpus_online >= 1 && si.hostname[0], "release %s, %d CPUs, host %s",
	   si.kernel_release, si.cpus_online, si.hostname);
	ok(si.preempt[0] != '\0', "preempt model %s (from %s)", si.preempt, si.preempt_source);
	return tap_done();
}
