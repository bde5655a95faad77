// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtproof check: the context and the table of checks.  The checks live by
 * group in kernel.c, cpu.c, irq.c, memory.c and audio.c, the helpers they
 * share in util.c.  Every file is read below c->root, so the tests run the
 * same code on fake trees.
 */
#include "check.h"
#include "checks.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "opt.h"
#include "sysinfo.h"

const char *rtp_check_status_name(enum rtp_check_status s)
{
	switch (s) {
	case RTP_CHECK_PASS: return "pass";
	case RTP_CHECK_WARN: return "warn";
	case RTP_CHECK_FAIL: return "fail";
	case RTP_CHECK_SKIP: return "skip";
	}
	return "?";
}

int rtp_check_parse_profile(const char *s, enum rtp_check_profile *out)
{
	if (!strcmp(s, "latency"))
		*out = RTP_PROFILE_LATENCY;
	else if (!strcmp(s, "audio"))
		*out = RTP_PROFILE_AUDIO;
	else
		return -EINVAL;
	return 0;
}

const char *rtp_check_profile_name(enum rtp_check_profile p)
{
	return p == RTP_PROFILE_AUDIO ? "audio" : "latency";
}

/* ---- the context ------------------------------------------------------- */
static void add_group(struct rtp_check_ctx *c, const char *name)
{
	for (int i = 0; i < c->ngroups; i++)
		if (!strcmp(c->groups[i], name))
			return;
	if (c->ngroups < RTP_CHECK_MAX_GROUPS)
		snprintf(c->groups[c->ngroups++], sizeof(c->groups[0]), "%s", name);
}

static bool member_of(const char *members, const char *user)
{
	const char *p = members;
	size_t n = strlen(user);

	while (*p) {
		size_t k = strcspn(p, ",");

		if (k == n && !strncmp(p, user, n))
			return true;
		p += k;
		if (*p)
			p++;
	}
	return false;
}

static int lookup_user(struct rtp_check_ctx *c, const char *name, uid_t uid)
{
	char *pw = rtp_check_slurp(c, "/etc/passwd", 1 << 22), *gr;
	const char *line;

	c->user_found = false;
	for (line = pw; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		char f0[64], f2[32], f3[32];

		if (!field(line, 0, f0, sizeof(f0)) || !field(line, 2, f2, sizeof(f2)) ||
		    !field(line, 3, f3, sizeof(f3)))
			continue;
		if ((name && !strcmp(f0, name)) || (!name && (uid_t)strtoul(f2, NULL, 10) == uid &&
						    isdigit((unsigned char)f2[0]))) {
			snprintf(c->user, sizeof(c->user), "%s", f0);
			c->uid = (uid_t)strtoul(f2, NULL, 10);
			c->gid = (gid_t)strtoul(f3, NULL, 10);
			c->user_found = true;
			break;
		}
	}
	free(pw);
	if (!c->user_found) {
		if (name)
			return -ESRCH;
		snprintf(c->user, sizeof(c->user), "%u", (unsigned)uid);
		c->uid = uid;
		c->gid = getgid();
	}
	gr = rtp_check_slurp(c, "/etc/group", 1 << 22);
	for (int pass = 0; pass < 2; pass++) {
		/* Primary group first, then the memberships. */
		for (line = gr; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
			char f0[64], f2[32], f3[4096];

			if (!field(line, 0, f0, sizeof(f0)) || !field(line, 2, f2, sizeof(f2)) ||
			    !field(line, 3, f3, sizeof(f3)))
				continue;
			if (pass == 0 && isdigit((unsigned char)f2[0]) &&
			    (gid_t)strtoul(f2, NULL, 10) == c->gid)
				add_group(c, f0);
			if (pass == 1 && member_of(f3, c->user))
				add_group(c, f0);
		}
	}
	free(gr);
	return 0;
}

static char *load_config(struct rtp_check_ctx *c)
{
	char p[PATH_MAX + 256];
	char *cfg;

	snprintf(p, sizeof(p), "%s/boot/config-%s", c->root, c->release);
	cfg = c->release[0] ? slurp_gz(p, 1 << 24) : NULL;
	if (!cfg) {
		snprintf(p, sizeof(p), "%s/proc/config.gz", c->root);
		cfg = slurp_gz(p, 1 << 24);
	}
	if (cfg)
		snprintf(c->config_src, sizeof(c->config_src), "%s", p + strlen(c->root));
	return cfg;
}

int rtp_check_init(struct rtp_check_ctx *c, const char *root, enum rtp_check_profile profile,
		   const char *user, const cpu_set_t *cpus, int audio_prio)
{
	struct stat st;
	char val[1024];
	cpu_set_t s;
	size_t n;
	int ret;

	memset(c, 0, sizeof(*c));
	c->profile = profile;
	c->audio_prio = audio_prio;
	if (root && strcmp(root, "/")) {
		n = strlen(root);
		while (n > 1 && root[n - 1] == '/')
			n--;
		if (n >= sizeof(c->root))
			return -ENAMETOOLONG;
		memcpy(c->root, root, n);
		c->root[n] = '\0';
		if (stat(c->root, &st))
			return -errno;
		if (!S_ISDIR(st.st_mode))
			return -ENOTDIR;
	}
	rtp_check_read(c, "/proc/sys/kernel/osrelease", c->release, sizeof(c->release));
	rtp_check_read(c, "/proc/sys/kernel/version", c->version, sizeof(c->version));
	rtp_check_read(c, "/proc/cmdline", c->cmdline, sizeof(c->cmdline));
	c->config = load_config(c);

	if (read_cpulist(c, "/sys/devices/system/cpu/online", &c->online) || !CPU_COUNT(&c->online)) {
		if (c->root[0] || rtp_cpus_online(&c->online))
			CPU_ZERO(&c->online);
	}
	read_cpulist(c, "/sys/devices/system/cpu/isolated", &c->isolated);
	if (rtp_cmdline_get(c->cmdline, "isolcpus", val, sizeof(val)) == 1 && !isolcpus_list(val, &s))
		CPU_OR(&c->isolated, &c->isolated, &s);
	if (cpus) {
		c->cpus = *cpus;
		snprintf(c->cpus_why, sizeof(c->cpus_why), "--cpus");
	} else if (CPU_COUNT(&c->isolated)) {
		c->cpus = c->isolated;
		snprintf(c->cpus_why, sizeof(c->cpus_why), "isolated");
	} else {
		c->cpus = c->online;
		snprintf(c->cpus_why, sizeof(c->cpus_why), "online");
	}

	if (user) {
		ret = lookup_user(c, user, 0);
		if (ret)
			return ret;
		c->user_is_self = c->uid == getuid();
	} else {
		const char *sudo = getenv("SUDO_USER");

		if (getuid() == 0 && !c->root[0] && sudo && *sudo && !lookup_user(c, sudo, 0)) {
			c->user_is_self = false;
		} else {
			lookup_user(c, NULL, getuid());
			c->user_is_self = true;
		}
	}
	return 0;
}

void rtp_check_free(struct rtp_check_ctx *c)
{
	free(c->config);
	c->config = NULL;
}

/* ---- the table --------------------------------------------------------- */

static const struct rtp_check_def checks[] = {
	{ "preempt", "kernel", "preemption model", L | A, check_preempt },
	{ "threadirqs", "kernel", "threaded IRQ handlers", A, check_threadirqs },
	{ "hrtimers", "kernel", "high-resolution timers", L | A, check_hrtimers },
	{ "nohz", "kernel", "tickless CPUs (NO_HZ_FULL)", 0, check_nohz },
	{ "clocksource", "kernel", "clocksource", L | A, check_clocksource },
	{ "rt_throttle", "kernel", "RT throttling", L, check_rt_throttle },
	{ "timer_migration", "kernel", "timer migration", 0, check_timer_migration },
	{ "mitigations", "kernel", "CPU vulnerability mitigations", 0, check_mitigations },
	{ "virt", "kernel", "hypervisor and steal time", L, check_virt },
	{ "governor", "cpu", "cpufreq governor", L | A, check_governor },
	{ "boost", "cpu", "frequency boost", 0, check_boost },
	{ "cstates", "cpu", "idle states", L, check_cstates },
	{ "dma_latency", "cpu", "/dev/cpu_dma_latency", L, check_dma_latency },
	{ "smt", "cpu", "SMT siblings", L, check_smt },
	{ "isolation", "cpu", "isolcpus, nohz_full, rcu_nocbs", 0, check_isolation },
	{ "irq_affinity", "cpu", "IRQ affinity of isolated CPUs", L, check_irq_affinity },
	{ "irqbalance", "cpu", "irqbalance", 0, check_irqbalance },
	{ "thp", "memory", "transparent hugepages", 0, check_thp },
	{ "swappiness", "memory", "swappiness", 0, check_swappiness },
	{ "ksm", "memory", "KSM", 0, check_ksm },
	{ "numa_balancing", "memory", "NUMA balancing", 0, check_numa_balancing },
	{ "rtprio", "limits", "RLIMIT_RTPRIO", L | A, check_rtprio },
	{ "memlock", "limits", "RLIMIT_MEMLOCK", L | A, check_memlock },
	{ "limits_files", "limits", "/etc/security/limits.d", 0, check_limits_files },
	{ "audio_group", "limits", "audio group", A, check_audio_group },
	{ "sound_cards", "audio", "sound cards", A, check_sound_cards },
	{ "sound_irq", "audio", "sound IRQs not shared", A, check_sound_irq },
	{ "irq_prio", "audio", "sound IRQ thread priority", A, check_irq_prio },
	{ "usb_autosuspend", "audio", "USB autosuspend", A, check_usb_autosuspend },
	{ "ktimers", "audio", "timer thread priority (PREEMPT_RT)", A, check_ktimers },
};

size_t rtp_check_count(void)
{
	return sizeof(checks) / sizeof(checks[0]);
}

const struct rtp_check_def *rtp_check_get(size_t i)
{
	return i < rtp_check_count() ? &checks[i] : NULL;
}

int rtp_check_find(const char *id)
{
	for (size_t i = 0; i < rtp_check_count(); i++)
		if (!strcmp(checks[i].id, id))
			return (int)i;
	return -ENOENT;
}

void rtp_check_run(const struct rtp_check_ctx *c, size_t i, struct rtp_check_result *r)
{
	memset(r, 0, sizeof(*r));
	if (i >= rtp_check_count()) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "no such check");
		return;
	}
	checks[i].run(c, r);
	if (r->status == RTP_CHECK_FAIL && !(checks[i].fail_in & RTP_PROFILE_BIT(c->profile)))
		r->status = RTP_CHECK_WARN;
	if (r->status == RTP_CHECK_PASS)
		r->fix[0] = '\0';
}
