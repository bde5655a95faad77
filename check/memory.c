// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof check, memory (hugepages, swappiness, KSM, NUMA balancing) and
 * the limits on locking it and on real-time priorities. */
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

void check_thp(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char v[128];

	if (rtp_check_read(c, "/sys/kernel/mm/transparent_hugepage/enabled", v, sizeof(v))) {
		r->status = RTP_CHECK_PASS;
		seen(r, "no transparent hugepages in this kernel");
		return;
	}
	if (strstr(v, "[always]")) {
		r->status = RTP_CHECK_WARN;
		seen(r, "transparent_hugepage %s: page faults and khugepaged compact memory at any time", v);
		fix(r, "echo madvise > /sys/kernel/mm/transparent_hugepage/enabled "
		       "(boot: transparent_hugepage=madvise)");
		return;
	}
	r->status = RTP_CHECK_PASS;
	seen(r, "transparent_hugepage %s", v);
}

void check_swappiness(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	bool noswap = false;
	char v[32], *swaps;

	if (rtp_check_read(c, "/proc/sys/vm/swappiness", v, sizeof(v))) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "%s/proc/sys/vm/swappiness unreadable", c->root);
		return;
	}
	if (atoi(v) <= 10) {
		r->status = RTP_CHECK_PASS;
		seen(r, "swappiness %s", v);
		return;
	}
	/* Without swap there is nothing to swap out (only the header line). */
	swaps = rtp_check_slurp(c, "/proc/swaps", 1 << 16);
	if (swaps) {
		char *nl = strchr(swaps, '\n');

		noswap = !nl || !nl[1];
		free(swaps);
	}
	if (noswap) {
		r->status = RTP_CHECK_PASS;
		seen(r, "swappiness %s, but no swap is configured (%s/proc/swaps)", v, c->root);
		return;
	}
	r->status = RTP_CHECK_WARN;
	seen(r, "swappiness %s: memory not locked is swapped out early, and faults back in late", v);
	fix(r, "sysctl -w vm.swappiness=10 (keep it in /etc/sysctl.d/)");
}

void check_ksm(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	static const struct zero_knob k = {
		.path = "/sys/kernel/mm/ksm/run", .name = "ksm run",
		.good = ": not merging pages",
		.bad = ": ksmd scans and merges pages, a write to a merged page faults",
		.fix = "echo 0 > /sys/kernel/mm/ksm/run",
		.absent = RTP_CHECK_PASS, .absent_seen = "no KSM in this kernel",
	};

	check_zero_knob(c, r, &k);
}

void check_numa_balancing(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	static const struct zero_knob k = {
		.path = "/proc/sys/kernel/numa_balancing", .name = "numa_balancing",
		.good = "",
		.bad = ": pages are unmapped to sample access, each sample a fault",
		.fix = "sysctl -w kernel.numa_balancing=0",
		.absent = RTP_CHECK_PASS, .absent_seen = "no NUMA balancing in this kernel",
	};

	check_zero_knob(c, r, &k);
}

/* ---- limits ------------------------------------------------------------ */

/* Every limits file pam_limits reads, in its order. */
static void read_limits_conf(const struct rtp_check_ctx *c, struct rtp_limits_conf *lc)
{
	char dir[PATH_MAX + 64], rel[PATH_MAX];
	struct dirent **names = NULL;
	char *t;
	int n;

	memset(lc, 0, sizeof(*lc));
	t = rtp_check_slurp(c, "/etc/security/limits.conf", 1 << 20);
	if (t)
		rtp_parse_limits_conf(lc, t, "/etc/security/limits.conf", c->user, c->groups, c->ngroups);
	free(t);
	rpath(c, "/etc/security/limits.d", dir, sizeof(dir));
	n = scandir(dir, &names, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		size_t len = strlen(names[i]->d_name);

		if (len > 5 && !strcmp(names[i]->d_name + len - 5, ".conf") && names[i]->d_name[0] != '.') {
			snprintf(rel, sizeof(rel), "/etc/security/limits.d/%s", names[i]->d_name);
			t = rtp_check_slurp(c, rel, 1 << 20);
			if (t)
				rtp_parse_limits_conf(lc, t, rel, c->user, c->groups, c->ngroups);
			free(t);
		}
		free(names[i]);
	}
	free(names);
}

/* A capability bit of the process (self only) from <root>/proc/self/status. */
static bool self_cap(const struct rtp_check_ctx *c, int bit)
{
	char *st = rtp_check_slurp(c, "/proc/self/status", 1 << 16);
	const char *p = st ? strstr(st, "CapEff:") : NULL;
	unsigned long long caps = 0;

	if (p)
		caps = strtoull(p + 7, NULL, 16);
	free(st);
	return caps >> bit & 1;
}

static void fmt_limit(unsigned long long v, bool bytes, char *buf, size_t len)
{
	if (v == RTP_LIMIT_UNLIMITED)
		snprintf(buf, len, "unlimited");
	else if (bytes)
		snprintf(buf, len, "%llu KiB", v / 1024);
	else
		snprintf(buf, len, "%llu", v);
}

enum { LIM_RTPRIO, LIM_MEMLOCK };

static void check_limit(const struct rtp_check_ctx *c, struct rtp_check_result *r, int which)
{
	const bool rtprio = which == LIM_RTPRIO;
	/* rtproof-cyclic's default priority, or the audio thread's. */
	const unsigned long long need = rtprio ? (c->profile == RTP_PROFILE_AUDIO ?
						  (unsigned long long)c->audio_prio : 95ull)
					       : 64ull << 20;
	struct rtp_limits_conf lc;
	const struct rtp_limit_entry *e;
	unsigned long long soft = 0, hard = 0, conf = 0;
	char text[4096], a[32], b[32], cf[PATH_MAX + 64] = "";
	bool cap = false, self = false;

	read_limits_conf(c, &lc);
	e = rtprio ? &lc.rtprio : &lc.memlock;
	if (e->set) {
		conf = e->soft == RTP_LIMIT_UNLIMITED || rtprio ? e->soft : e->soft * 1024;
		fmt_limit(conf, !rtprio, a, sizeof(a));
		snprintf(cf, sizeof(cf), "%s grants %s", e->where, a);
	} else {
		snprintf(cf, sizeof(cf), "no limits file grants %s", rtprio ? "rtprio" : "memlock");
	}
	if (c->user_is_self && !rtp_check_read(c, "/proc/self/limits", text, sizeof(text)) &&
	    !rtp_parse_proc_limits(text, rtprio ? "Max realtime priority" : "Max locked memory",
				   &soft, &hard)) {
		self = true;
		cap = self_cap(c, rtprio ? 23 : 14);	/* CAP_SYS_NICE, CAP_IPC_LOCK */
	} else if (e->set) {
		soft = conf;
		hard = e->hard == RTP_LIMIT_UNLIMITED || rtprio ? e->hard : e->hard * 1024;
	} else {
		/* pam_limits sets nothing: the kernel's defaults. */
		soft = hard = rtprio ? 0 : 8ull << 20;
	}
	fmt_limit(soft, !rtprio, a, sizeof(a));
	fmt_limit(hard, !rtprio, b, sizeof(b));
	seen(r, "%s %s: soft %s, hard %s (%s; %s)", c->user, rtprio ? "RLIMIT_RTPRIO" : "RLIMIT_MEMLOCK",
	     a, b, self ? "this process" : e->set ? "from the limits files" : "the kernel's default", cf);
	if (rtprio)
		fix(r, "echo '@audio - rtprio 95' >> /etc/security/limits.d/99-realtime.conf; "
		       "usermod -aG audio %s; log in again", c->user);
	else
		fix(r, "echo '@audio - memlock unlimited' >> /etc/security/limits.d/99-realtime.conf; "
		       "usermod -aG audio %s; log in again", c->user);
	if (cap || (c->uid == 0 && !c->user_is_self)) {
		r->status = RTP_CHECK_PASS;
		rtp_appendf(r->seen, sizeof(r->seen), ": %s, which the limit does not bind",
		       cap ? (rtprio ? "has CAP_SYS_NICE" : "has CAP_IPC_LOCK") : "root");
		return;
	}
	if (soft == RTP_LIMIT_UNLIMITED || soft >= need) {
		r->status = RTP_CHECK_PASS;
		return;
	}
	fmt_limit(need, !rtprio, a, sizeof(a));
	if (rtprio)
		r->status = soft == 0 ? RTP_CHECK_FAIL : RTP_CHECK_WARN;
	else
		r->status = RTP_CHECK_FAIL;
	rtp_appendf(r->seen, sizeof(r->seen), ": below %s", a);
	if (self && e->set && (conf == RTP_LIMIT_UNLIMITED || conf > soft))
		rtp_appendf(r->seen, sizeof(r->seen), ", the file's grant is not in effect for this session");
}

void check_rtprio(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	check_limit(c, r, LIM_RTPRIO);
}

void check_memlock(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	check_limit(c, r, LIM_MEMLOCK);
}

void check_limits_files(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	struct rtp_limits_conf lc;
	char a[32], b[32];

	read_limits_conf(c, &lc);
	if (lc.rtprio.set)
		fmt_limit(lc.rtprio.soft, false, a, sizeof(a));
	if (lc.memlock.set)
		fmt_limit(lc.memlock.soft == RTP_LIMIT_UNLIMITED ? RTP_LIMIT_UNLIMITED
								  : lc.memlock.soft * 1024, true, b, sizeof(b));
	seen(r, "for %s: rtprio %s%s%s, memlock %s%s%s", c->user,
	     lc.rtprio.set ? a : "not set", lc.rtprio.set ? " at " : "", lc.rtprio.set ? lc.rtprio.where : "",
	     lc.memlock.set ? b : "not set", lc.memlock.set ? " at " : "",
	     lc.memlock.set ? lc.memlock.where : "");
	fix(r, "printf '@audio - rtprio 95\\n@audio - memlock unlimited\\n' > "
	       "/etc/security/limits.d/99-realtime.conf; usermod -aG audio %s", c->user);
	if (lc.rtprio.set && lc.rtprio.soft > 0 && lc.memlock.set &&
	    (lc.memlock.soft == RTP_LIMIT_UNLIMITED || lc.memlock.soft >= 64 * 1024)) {
		r->status = RTP_CHECK_PASS;
		return;
	}
	if (c->uid == 0) {
		r->status = RTP_CHECK_PASS;
		rtp_appendf(r->seen, sizeof(r->seen), ": root needs none (CAP_SYS_NICE, CAP_IPC_LOCK)");
		return;
	}
	r->status = RTP_CHECK_WARN;
	rtp_appendf(r->seen, sizeof(r->seen), " in %s/etc/security/limits.conf and limits.d/*.conf", c->root);
}

