// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof check, the kernel: preemption model, threaded IRQs, timers, clocksource,
 * RT throttling, mitigations, the hypervisor. */
#include "checks.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "opt.h"
#include "sysinfo.h"

void check_preempt(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	struct rtp_preempt_evidence ev = { 0 };
	char realtime[16], sched[128], model[16], src[64], v[16];
	bool dynamic, threadirqs;

	if (!rtp_check_read(c, "/sys/kernel/realtime", realtime, sizeof(realtime)))
		ev.realtime = realtime;
	if (!rtp_check_read(c, "/sys/kernel/debug/sched/preempt", sched, sizeof(sched)))
		ev.sched_preempt = sched;
	ev.uname_version = c->version[0] ? c->version : NULL;
	ev.config = c->config;
	ev.cmdline = c->cmdline;
	rtp_preempt_model(&ev, model, sizeof(model), src, sizeof(src));
	dynamic = strstr(c->version, "PREEMPT_DYNAMIC") ||
		  rtp_kconfig_get(c->config, "CONFIG_PREEMPT_DYNAMIC", v, sizeof(v)) == 1;
	threadirqs = rtp_cmdline_get(c->cmdline, "threadirqs", NULL, 0) == 1;
	if (!strcmp(model, "rt")) {
		r->status = RTP_CHECK_PASS;
		seen(r, "PREEMPT_RT kernel %s (from %s)", c->release, src);
		return;
	}
	if (!strcmp(model, "unknown")) {
		r->status = RTP_CHECK_FAIL;
		seen(r, "not PREEMPT_RT as far as can be read: kernel %s, version \"%s\", no config",
		     c->release, c->version);
		fix(r, "boot a PREEMPT_RT kernel (Debian: apt-get install linux-image-rt-amd64)");
		return;
	}
	seen(r, "not PREEMPT_RT: %s is a %s kernel in mode %s (%s%s)%s", c->release,
	     dynamic ? "PREEMPT_DYNAMIC" : "non-RT", model, src,
	     dynamic && strcmp(src, "debugfs sched/preempt") ?
		     "; the live mode is in /sys/kernel/debug/sched/preempt, debugfs not mounted" : "",
	     threadirqs ? ", threadirqs on" : ", no threadirqs");
	if (dynamic)
		fix(r, "boot a PREEMPT_RT kernel (Debian: apt-get install linux-image-rt-amd64); "
		       "short of that boot with preempt=full threadirqs");
	else
		fix(r, "boot a PREEMPT_RT kernel (Debian: apt-get install linux-image-rt-amd64)");
	/* Full preemption with threaded IRQs is a usable audio machine. */
	if ((!strcmp(model, "full") || !strcmp(model, "lazy")) && threadirqs &&
	    c->profile == RTP_PROFILE_AUDIO)
		r->status = RTP_CHECK_WARN;
	else
		r->status = RTP_CHECK_FAIL;
}

void check_threadirqs(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char v[16];
	int forced = rtp_kconfig_get(c->config, "CONFIG_IRQ_FORCED_THREADING", v, sizeof(v));

	if (rt_kernel(c)) {
		r->status = RTP_CHECK_PASS;
		seen(r, "PREEMPT_RT: every IRQ handler runs in a thread");
		return;
	}
	if (rtp_cmdline_get(c->cmdline, "threadirqs", NULL, 0) == 1) {
		r->status = RTP_CHECK_PASS;
		seen(r, "threadirqs on the command line: IRQ handlers run in threads%s",
		     forced == 0 ? ", but CONFIG_IRQ_FORCED_THREADING is not set" : "");
		if (forced == 0)
			r->status = RTP_CHECK_FAIL;
		fix(r, "rebuild with CONFIG_IRQ_FORCED_THREADING=y");
		return;
	}
	r->status = RTP_CHECK_FAIL;
	seen(r, "no threadirqs on the command line: IRQ handlers run in hard-IRQ context, "
		"above every thread, and their priority cannot be set");
	if (forced == 0)
		fix(r, "rebuild with CONFIG_IRQ_FORCED_THREADING=y and boot with threadirqs, "
		       "or boot a PREEMPT_RT kernel");
	else
		fix(r, "add threadirqs to GRUB_CMDLINE_LINUX in /etc/default/grub, update-grub, reboot");
}

void check_hrtimers(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char v[16];
	int ret = rtp_kconfig_get(c->config, "CONFIG_HIGH_RES_TIMERS", v, sizeof(v));

	if (ret < 0) {
		no_config(c, r);
		return;
	}
	if (ret == 1 && !strcmp(v, "y")) {
		r->status = RTP_CHECK_PASS;
		seen(r, "CONFIG_HIGH_RES_TIMERS=y (%s)", c->config_src);
		return;
	}
	r->status = RTP_CHECK_FAIL;
	seen(r, "CONFIG_HIGH_RES_TIMERS not set (%s): timers expire on the tick, ms late",
	     c->config_src);
	fix(r, "rebuild the kernel with CONFIG_HIGH_RES_TIMERS=y");
}

void check_nohz(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char v[16], hz[16] = "?", val[1024];
	int full = rtp_kconfig_get(c->config, "CONFIG_NO_HZ_FULL", v, sizeof(v));
	bool idle = rtp_kconfig_get(c->config, "CONFIG_NO_HZ_IDLE", v, sizeof(v)) == 1;
	bool booted = rtp_cmdline_get(c->cmdline, "nohz_full", val, sizeof(val)) == 1;

	if (full < 0) {
		no_config(c, r);
		return;
	}
	rtp_kconfig_get(c->config, "CONFIG_HZ", hz, sizeof(hz));
	if (full == 1) {
		r->status = RTP_CHECK_PASS;
		seen(r, "CONFIG_NO_HZ_FULL=y, HZ=%s%s%s", hz, booted ? ", nohz_full=" : "",
		     booted ? val : " (not booted with nohz_full=: no CPU is tickless)");
		return;
	}
	r->status = RTP_CHECK_WARN;
	seen(r, "no CONFIG_NO_HZ_FULL (%s, HZ=%s): the tick interrupts a busy CPU every %s ms",
	     idle ? "CONFIG_NO_HZ_IDLE=y" : "periodic tick", hz,
	     atoi(hz) > 0 ? (atoi(hz) == 1000 ? "1" : atoi(hz) == 250 ? "4" :
			     atoi(hz) == 300 ? "3.3" : atoi(hz) == 100 ? "10" : "1000/HZ") : "1000/HZ");
	fix(r, "use a kernel with CONFIG_NO_HZ_FULL=y and boot with nohz_full=<measured CPUs>");
}

void check_clocksource(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char cur[64], avail[256] = "";

	if (rtp_check_read(c, "/sys/devices/system/clocksource/clocksource0/current_clocksource",
			   cur, sizeof(cur))) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "%s/sys/devices/system/clocksource/clocksource0 unreadable", c->root);
		return;
	}
	rtp_check_read(c, "/sys/devices/system/clocksource/clocksource0/available_clocksource",
		       avail, sizeof(avail));
	seen(r, "clocksource %s (available: %s)", cur, avail[0] ? avail : "unknown");
	if (!strcmp(cur, "tsc") || !strcmp(cur, "arch_sys_counter") || !strcmp(cur, "riscv_clocksource")) {
		r->status = RTP_CHECK_PASS;
		return;
	}
	if (!strcmp(cur, "hpet") || !strcmp(cur, "acpi_pm") || !strcmp(cur, "jiffies") ||
	    !strcmp(cur, "pit")) {
		r->status = RTP_CHECK_FAIL;
		rtp_appendf(r->seen, sizeof(r->seen), ": each clock read is an I/O access of about 1 us or more");
		if (has_word(avail, "tsc"))
			fix(r, "echo tsc > /sys/devices/system/clocksource/clocksource0/current_clocksource "
			       "(boot: clocksource=tsc)");
		else
			fix(r, "the TSC was found unstable (dmesg | grep -i tsc); boot tsc=reliable only "
			       "if this CPU has an invariant TSC");
		return;
	}
	/* kvm-clock, hyperv, xen: paravirtual, read without an exit. */
	r->status = RTP_CHECK_WARN;
	rtp_appendf(r->seen, sizeof(r->seen), ": a paravirtual clock, not the TSC");
	if (has_word(avail, "tsc"))
		fix(r, "echo tsc > /sys/devices/system/clocksource/clocksource0/current_clocksource");
	else
		fix(r, "give the guest an invariant TSC (QEMU: -cpu host,+invtsc)");
}

/* The release's major.minor is at least maj.min ("6.12.117+deb13-rt-amd64"). */
static bool release_at_least(const char *rel, int maj, int min)
{
	int a, b;

	if (sscanf(rel, "%d.%d", &a, &b) != 2)
		return false;
	return a > maj || (a == maj && b >= min);
}

#define FAIR_SERVER "/sys/kernel/debug/sched/fair_server"

/*
 * From 6.12 the fair server (a SCHED_DEADLINE server for the CFS tasks of
 * each CPU, kernel/sched/deadline.c's dl_server) keeps CFS tasks from
 * starving: when RT threads have held a CPU, it runs its CFS tasks for
 * runtime ns of every period ns, ahead of the RT threads.  It took over
 * from RT throttling, so sched_rt_runtime_us=-1 no longer changes what
 * stops an RT thread; the knob is the server's runtime in debugfs.
 */
static void check_fair_server(const struct rtp_check_ctx *c, struct rtp_check_result *r,
			      const char *rt_run)
{
	char dir[PATH_MAX + 64], v[32], on[256] = "", zero[256] = "";
	long long rt_ns = -1, per_ns = -1, val;
	int n_on = 0, n_zero = 0;
	cpu_set_t cpus = c->cpus;

	rpath(c, FAIR_SERVER, dir, sizeof(dir));
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &cpus))
			continue;
		if (readf(c, v, sizeof(v), FAIR_SERVER "/cpu%d/runtime", cpu))
			continue;
		val = atoll(v);
		if (val > 0) {
			if (n_on++ < 8)
				rtp_appendf(on, sizeof(on), "%s%d", n_on > 1 ? "," : "", cpu);
			if (rt_ns < 0) {
				rt_ns = val;
				if (!readf(c, v, sizeof(v), FAIR_SERVER "/cpu%d/period", cpu))
					per_ns = atoll(v);
			}
		} else if (n_zero++ < 8) {
			rtp_appendf(zero, sizeof(zero), "%s%d", n_zero > 1 ? "," : "", cpu);
		}
	}
	if (!n_on && !n_zero) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "kernel %s: RT threads are held back by the fair server (a deadline server for "
			"CFS tasks), not by sched_rt_runtime_us (%s); %s/cpuN/runtime unreadable "
			"(debugfs not mounted, or not root)", c->release, rt_run, dir);
		fix(r, "mount -t debugfs none /sys/kernel/debug, then run this check as root");
		return;
	}
	if (!n_on) {
		r->status = RTP_CHECK_PASS;
		seen(r, "fair server runtime 0 on CPU(s) %s%s: CFS tasks never preempt RT threads there "
			"(from 6.12 this, not sched_rt_runtime_us %s, is what decides)", zero,
		     n_zero > 8 ? ",..." : "", rt_run);
		return;
	}
	r->status = RTP_CHECK_FAIL;
	if (per_ns > 0)
		seen(r, "kernel %s: the fair server (a deadline server for CFS tasks) runs starved CFS "
			"tasks for %g ms of every %g ms on CPU(s) %s%s, ahead of any RT thread; "
			"sched_rt_runtime_us (%s) does not change that since 6.12", c->release,
		     rt_ns / 1e6, per_ns / 1e6, on, n_on > 8 ? ",..." : "", rt_run);
	else
		seen(r, "kernel %s: the fair server (a deadline server for CFS tasks) runs starved CFS "
			"tasks for %g ms per period on CPU(s) %s%s, ahead of any RT thread; "
			"sched_rt_runtime_us (%s) does not change that since 6.12", c->release,
		     rt_ns / 1e6, on, n_on > 8 ? ",..." : "", rt_run);
	/*
	 * On 6.12.117 (Debian 13) the write fails with EBUSY while deadline
	 * admission control is on (sched_rt_runtime_us >= 0), measured in
	 * the guest: the sysctl goes first, though alone it stops nothing.
	 */
	if (strcmp(rt_run, "unread") && atol(rt_run) >= 0)
		fix(r, "sysctl -w kernel.sched_rt_runtime_us=-1; for f in %s/cpu*/runtime; do echo 0 > "
		       "$f; done (the sysctl alone stops nothing, but while it is >= 0 the write fails "
		       "with EBUSY; at every boot; the kernel warns \"Fair server disabled\": an RT "
		       "thread that never sleeps then starves that CPU's CFS tasks)", FAIR_SERVER);
	else
		fix(r, "for f in %s/cpu*/runtime; do echo 0 > $f; done (at every boot; the kernel "
		       "warns \"Fair server disabled\": an RT thread that never sleeps then starves "
		       "that CPU's CFS tasks)", FAIR_SERVER);
}

void check_rt_throttle(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char run[32] = "unread", per[32] = "1000000", dir[PATH_MAX + 64], v[8];
	struct stat st;
	long rt, p;
	bool have_run;

	have_run = !rtp_check_read(c, "/proc/sys/kernel/sched_rt_runtime_us", run, sizeof(run));
	rpath(c, FAIR_SERVER, dir, sizeof(dir));
	/* 6.12 and later, or the server's files are there (a backport). */
	if (!stat(dir, &st) || release_at_least(c->release, 6, 12)) {
		check_fair_server(c, r, run);
		/* With RT group scheduling, RT throttling still applies to the groups. */
		if (r->status != RTP_CHECK_SKIP && have_run && atol(run) >= 0 &&
		    rtp_kconfig_get(c->config, "CONFIG_RT_GROUP_SCHED", v, sizeof(v)) == 1 &&
		    !strcmp(v, "y")) {
			rtp_appendf(r->seen, sizeof(r->seen), "; CONFIG_RT_GROUP_SCHED=y: RT throttling of "
			       "groups too (sched_rt_runtime_us %s)", run);
			if (r->status == RTP_CHECK_PASS) {
				r->status = RTP_CHECK_FAIL;
				fix(r, "sysctl -w kernel.sched_rt_runtime_us=-1");
			}
		}
		return;
	}
	if (!have_run) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "%s/proc/sys/kernel/sched_rt_runtime_us unreadable", c->root);
		return;
	}
	rtp_check_read(c, "/proc/sys/kernel/sched_rt_period_us", per, sizeof(per));
	rt = atol(run);
	p = atol(per);
	if (rt < 0) {
		r->status = RTP_CHECK_PASS;
		seen(r, "sched_rt_runtime_us -1: no RT throttling");
		return;
	}
	r->status = RTP_CHECK_FAIL;
	seen(r, "sched_rt_runtime_us %ld of sched_rt_period_us %ld: RT threads are stopped for "
		"%ld ms of every %ld ms they keep a CPU busy", rt, p,
	     p > rt ? (p - rt) / 1000 : 0, p / 1000);
	fix(r, "sysctl -w kernel.sched_rt_runtime_us=-1 (keep it in /etc/sysctl.d/)");
}

/*
 * A knob that is one number in one file below the root, good at 0: it
 * passes ("NAME 0GOOD"), else warns ("NAME VALUE BAD", and the fix).
 */
void check_timer_migration(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	static const struct zero_knob k = {
		.path = "/proc/sys/kernel/timer_migration", .name = "timer_migration",
		.good = ": timers stay on the CPU that armed them",
		.bad = ": timers of idle CPUs move to busy ones",
		.fix = "sysctl -w kernel.timer_migration=0",
		.absent = RTP_CHECK_SKIP, .absent_seen = " (CONFIG_SMP off?)",
	};

	check_zero_knob(c, r, &k);
}

void check_mitigations(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char dir[PATH_MAX + 64], v[512], val[64], names[512] = "";
	int active = 0, vuln = 0, total = 0;
	struct dirent *d;
	DIR *dp;

	dp = opendir_or_skip(c, r, "/sys/devices/system/cpu/vulnerabilities", dir, sizeof(dir));
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		if (readf(c, v, sizeof(v), "/sys/devices/system/cpu/vulnerabilities/%s", d->d_name))
			continue;
		total++;
		if (!strncmp(v, "Mitigation", 10)) {
			active++;
			rtp_appendf(names, sizeof(names), "%s%s", active > 1 ? ", " : "", d->d_name);
		} else if (!strncmp(v, "Vulnerable", 10)) {
			vuln++;
		}
	}
	closedir(dp);
	if (rtp_cmdline_get(c->cmdline, "mitigations", val, sizeof(val)) == 1 && !strcmp(val, "off")) {
		r->status = RTP_CHECK_PASS;
		seen(r, "mitigations=off: %d of %d vulnerability files say Mitigation", active, total);
		return;
	}
	if (!active) {
		r->status = RTP_CHECK_PASS;
		seen(r, "no mitigation active (%d vulnerability files: %d vulnerable, the rest not affected)",
		     total, vuln);
		return;
	}
	r->status = RTP_CHECK_WARN;
	seen(r, "%d mitigations active (%s): they add to every syscall, IRQ and context switch",
	     active, names);
	fix(r, "mitigations=off on the kernel command line (a security trade: a dedicated machine only)");
}

static bool cpuinfo_hypervisor(const struct rtp_check_ctx *c)
{
	char *ci = rtp_check_slurp(c, "/proc/cpuinfo", 1 << 22);
	bool yes = false;

	for (const char *l = ci; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (!strncmp(l, "flags", 5) || !strncmp(l, "Features", 8)) {
			const char *e = strchr(l, '\n');
			char line[4096];
			size_t n = e ? (size_t)(e - l) : strlen(l);

			if (n >= sizeof(line))
				n = sizeof(line) - 1;
			memcpy(line, l, n);
			line[n] = '\0';
			yes = has_word(line, "hypervisor");
			break;
		}
	}
	free(ci);
	return yes;
}

void check_virt(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char vendor[128] = "", hv[64] = "", how[256] = "", stat[1024];
	unsigned long long steal = 0, total = 0;
	bool virt = false, have_steal;

	if (cpuinfo_hypervisor(c)) {
		virt = true;
		rtp_appendf(how, sizeof(how), "CPUID hypervisor flag");
	}
	if (!rtp_check_read(c, "/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor)) &&
	    (strstr(vendor, "QEMU") || strstr(vendor, "VMware") || strstr(vendor, "Xen") ||
	     strstr(vendor, "Microsoft") || strstr(vendor, "innotek") || strstr(vendor, "Amazon EC2"))) {
		virt = true;
		rtp_appendf(how, sizeof(how), "%sDMI vendor %s", how[0] ? ", " : "", vendor);
	}
	if (!rtp_check_read(c, "/sys/hypervisor/type", hv, sizeof(hv)) && hv[0]) {
		virt = true;
		rtp_appendf(how, sizeof(how), "%s/sys/hypervisor/type %s", how[0] ? ", " : "", hv);
	}
	have_steal = !rtp_check_read(c, "/proc/stat", stat, sizeof(stat)) &&
		     !rtp_parse_stat_steal(stat, &steal, &total) && total;
	if (!virt) {
		r->status = RTP_CHECK_PASS;
		seen(r, "no hypervisor seen (CPUID flag, DMI vendor, /sys/hypervisor)");
		if (!have_steal || !steal)
			return;
	}
	if (virt)
		seen(r, "runs under a hypervisor (%s)", how);
	if (have_steal)
		rtp_appendf(r->seen, sizeof(r->seen), ", steal time %.3f %% of CPU time since boot",
		       100.0 * (double)steal / (double)total);
	else
		rtp_appendf(r->seen, sizeof(r->seen), ", steal time unreadable");
	fix(r, "measure on bare metal for hardware figures; in a VM give each vCPU its own host "
	       "CPU (virsh vcpupin / QEMU -smp pinned with taskset) on an RT host");
	r->status = have_steal && (double)steal >= 0.01 * (double)total ? RTP_CHECK_FAIL
									  : RTP_CHECK_WARN;
	if (r->status == RTP_CHECK_FAIL)
		rtp_appendf(r->seen, sizeof(r->seen), ": the host takes CPUs away from this system");
	else if (virt)
		rtp_appendf(r->seen, sizeof(r->seen), ": figures are a VM's, not the hardware's");
}

