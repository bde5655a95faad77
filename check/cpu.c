// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof check, the CPUs: frequency governor and boost, idle states,
 * /dev/cpu_dma_latency, SMT siblings, isolation. */
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

void check_governor(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char bad[512] = "", gov[64], list[256];
	int ok = 0, nbad = 0;

	fmt_cpus(&c->cpus, list, sizeof(list));
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &c->cpus))
			continue;
		if (readf(c, gov, sizeof(gov), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu))
			continue;
		if (!strcmp(gov, "performance")) {
			ok++;
		} else {
			nbad++;
			rtp_appendf(bad, sizeof(bad), "%scpu%d %s", nbad > 1 ? ", " : "", cpu, gov);
		}
	}
	if (!ok && !nbad) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "no cpufreq for CPUs %s (no %s/sys/devices/system/cpu/cpuN/cpufreq): "
			"the frequency is set by firmware or the hypervisor", list, c->root);
		return;
	}
	if (!nbad) {
		r->status = RTP_CHECK_PASS;
		seen(r, "governor performance on CPUs %s (%d read)", list, ok);
		return;
	}
	r->status = RTP_CHECK_FAIL;
	seen(r, "governor not performance: %s: the clock ramps up after each wake-up", bad);
	fix(r, "cpupower frequency-set -g performance "
	       "(or: echo performance | tee /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor)");
}

/*
 * A boost switch in <root>PATH: passes at the value good, else warns, the
 * fix writing good; false, nothing set, when the file is unreadable.
 */
static bool boost_switch(const struct rtp_check_ctx *c, struct rtp_check_result *r, const char *path,
			 int good, const char *good_seen, const char *bad_seen)
{
	char v[16];

	if (rtp_check_read(c, path, v, sizeof(v)))
		return false;
	if (atoi(v) == good) {
		r->status = RTP_CHECK_PASS;
		seen(r, "%s", good_seen);
		return true;
	}
	r->status = RTP_CHECK_WARN;
	seen(r, "%s", bad_seen);
	fix(r, "echo %d > %s", good, path);
	return true;
}

void check_boost(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	if (boost_switch(c, r, "/sys/devices/system/cpu/intel_pstate/no_turbo", 1,
			 "intel_pstate no_turbo 1: turbo off, a steady clock",
			 "intel_pstate no_turbo 0: turbo on, the clock moves with load and heat"))
		return;
	if (boost_switch(c, r, "/sys/devices/system/cpu/cpufreq/boost", 0,
			 "cpufreq boost 0: a steady clock",
			 "cpufreq boost 1: the clock moves with load and heat"))
		return;
	r->status = RTP_CHECK_SKIP;
	seen(r, "no intel_pstate/no_turbo nor cpufreq/boost under %s/sys/devices/system/cpu: "
		"no boost control here", c->root);
}

void check_cstates(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	unsigned limit = c->profile == RTP_PROFILE_AUDIO ? 100 : 10;
	char name[64], lat[32], dis[16], drv[64] = "unknown", deep[128] = "", bad[512] = "";
	char cmd[512] = "";
	unsigned long worst = 0;
	unsigned badstates = 0;
	int nstates = 0, nbad = 0;

	rtp_check_read(c, "/sys/devices/system/cpu/cpuidle/current_driver", drv, sizeof(drv));
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &c->cpus))
			continue;
		for (int s = 0; s < 32; s++) {
			unsigned long us;

			if (readf(c, name, sizeof(name), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/name",
				  cpu, s) ||
			    readf(c, lat, sizeof(lat), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/latency",
				  cpu, s))
				break;
			nstates++;
			if (!readf(c, dis, sizeof(dis), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/disable",
				   cpu, s) && atoi(dis))
				continue;
			us = strtoul(lat, NULL, 10);
			if (us > worst) {
				worst = us;
				snprintf(deep, sizeof(deep), "%s (cpu%d state%d, exit %lu us)", name, cpu, s, us);
			}
			if (us > limit)
				badstates |= 1u << s;
			if (us > limit && nbad++ < 4)
				rtp_appendf(bad, sizeof(bad), "%scpu%d state%d %s %lu us", nbad > 1 ? ", " : "",
				       cpu, s, name, us);
		}
	}
	if (!nstates) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "no cpuidle states for the CPUs in use (driver %s): exit latencies unknown", drv);
		fix(r, "processor.max_cstate=1 intel_idle.max_cstate=0 keep idle shallow whatever the driver");
		return;
	}
	if (!nbad) {
		r->status = RTP_CHECK_PASS;
		seen(r, "driver %s, deepest enabled state %s, within %u us", drv,
		     deep[0] ? deep : "none", limit);
		return;
	}
	r->status = RTP_CHECK_FAIL;
	seen(r, "driver %s, %d enabled idle state(s) exit slower than %u us: %s%s", drv, nbad, limit,
	     bad, nbad > 4 ? ", ..." : "");
	for (int k = 0; k < 32; k++)
		if (badstates >> k & 1)
			rtp_appendf(cmd, sizeof(cmd), " /sys/devices/system/cpu/cpu*/cpuidle/state%d/disable", k);
	fix(r, "echo 1 | tee%s (boot: processor.max_cstate=1 intel_idle.max_cstate=0; "
	       "rtproof benches also hold /dev/cpu_dma_latency at 0 while they run)", cmd);
}

void check_dma_latency(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char p[PATH_MAX + 64];
	struct stat st;
	bool w;

	rpath(c, "/dev/cpu_dma_latency", p, sizeof(p));
	if (stat(p, &st)) {
		r->status = RTP_CHECK_FAIL;
		seen(r, "%s missing: nothing can hold the CPUs out of deep C-states (no CONFIG_CPU_IDLE/PM QoS?)",
		     p);
		fix(r, "use a kernel with CONFIG_CPU_IDLE, or boot with processor.max_cstate=1 "
		       "intel_idle.max_cstate=0");
		return;
	}
	if (c->uid == 0)
		w = true;
	else if (st.st_uid == c->uid)
		w = st.st_mode & S_IWUSR;
	else if (user_in_gid(c, st.st_gid))
		w = st.st_mode & S_IWGRP;
	else
		w = st.st_mode & S_IWOTH;
	if (w) {
		r->status = RTP_CHECK_PASS;
		seen(r, "%s writable by %s (mode %04o): benches hold C-state exit latency at 0 while they run",
		     p, c->user, (unsigned)(st.st_mode & 07777));
		return;
	}
	r->status = RTP_CHECK_FAIL;
	seen(r, "%s not writable by %s (mode %04o, uid %u gid %u): a bench cannot hold C-states shallow",
	     p, c->user, (unsigned)(st.st_mode & 07777), (unsigned)st.st_uid, (unsigned)st.st_gid);
	fix(r, "echo 'KERNEL==\"cpu_dma_latency\", GROUP=\"audio\", MODE=\"0660\"' > "
	       "/etc/udev/rules.d/99-cpu-dma-latency.rules && udevadm trigger");
}

void check_smt(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char ctl[32] = "unknown", shared[512] = "", a[64];
	int read = 0, nshared = 0;
	cpu_set_t sib;

	rtp_check_read(c, "/sys/devices/system/cpu/smt/control", ctl, sizeof(ctl));
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		char path[128];

		if (!CPU_ISSET(cpu, &c->cpus))
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
		if (read_cpulist(c, path, &sib))
			continue;
		read++;
		CPU_CLR(cpu, &sib);
		CPU_AND(&sib, &sib, &c->online);
		if (CPU_COUNT(&sib)) {
			nshared++;
			rtp_format_cpulist(&sib, a, sizeof(a));
			rtp_appendf(shared, sizeof(shared), "%scpu%d with %s", nshared > 1 ? ", " : "", cpu, a);
		}
	}
	if (!read) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "no topology/thread_siblings_list for the CPUs in use");
		return;
	}
	if (!nshared) {
		r->status = RTP_CHECK_PASS;
		seen(r, "no online SMT sibling of the CPUs in use (smt/control %s)", ctl);
		return;
	}
	r->status = RTP_CHECK_FAIL;
	seen(r, "SMT siblings share a core: %s (smt/control %s): a sibling's load stalls the measured thread",
	     shared, ctl);
	fix(r, "echo off > /sys/devices/system/cpu/smt/control (boot: nosmt)");
}

/* Housekeeping CPU 0, the rest for real-time work. */
static void suggest_cpus(const struct rtp_check_ctx *c, char *buf, size_t len)
{
	cpu_set_t s = c->online;

	CPU_CLR(0, &s);
	if (!CPU_COUNT(&s))
		snprintf(buf, len, "<CPUs>");
	else
		rtp_format_cpulist(&s, buf, len);
}

void check_isolation(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char iso[1024], nohz[1024], rcu[1024], sug[256], missing[128] = "";
	bool hi = rtp_cmdline_get(c->cmdline, "isolcpus", iso, sizeof(iso)) == 1;
	bool hn = rtp_cmdline_get(c->cmdline, "nohz_full", nohz, sizeof(nohz)) == 1;
	bool hr = rtp_cmdline_get(c->cmdline, "rcu_nocbs", rcu, sizeof(rcu)) == 1;

	suggest_cpus(c, sug, sizeof(sug));
	if (CPU_COUNT(&c->online) == 1) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "one CPU online: nothing to isolate");
		return;
	}
	if (!hi)
		rtp_appendf(missing, sizeof(missing), " isolcpus");
	if (!hn)
		rtp_appendf(missing, sizeof(missing), " nohz_full");
	if (!hr)
		rtp_appendf(missing, sizeof(missing), " rcu_nocbs");
	if (hi && hn && hr) {
		r->status = RTP_CHECK_PASS;
		seen(r, "isolcpus=%s nohz_full=%s rcu_nocbs=%s", iso, nohz, rcu);
		return;
	}
	r->status = RTP_CHECK_WARN;
	if (!hi && !hn && !hr)
		seen(r, "no isolcpus, nohz_full or rcu_nocbs: every CPU runs housekeeping work");
	else
		seen(r, "%s%s%s%s%s%s, no%s", hi ? "isolcpus=" : "", hi ? iso : "",
		     hn ? " nohz_full=" : "", hn ? nohz : "", hr ? " rcu_nocbs=" : "", hr ? rcu : "",
		     missing);
	fix(r, "boot with isolcpus=domain,managed_irq,%s nohz_full=%s rcu_nocbs=%s", sug, sug, sug);
}

