// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof check, interrupts: the IRQ affinity of isolated CPUs, irqbalance. */
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

void check_irq_affinity(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char dir[PATH_MAX + 64], iso[256], hk[256], bad[512] = "", path[128];
	int nbad = 0, nread = 0;
	cpu_set_t aff, house;
	struct dirent *d;
	DIR *dp;

	if (!CPU_COUNT(&c->isolated)) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "no isolated CPUs: no IRQ to keep off them");
		return;
	}
	fmt_cpus(&c->isolated, iso, sizeof(iso));
	CPU_XOR(&house, &c->online, &c->isolated);
	CPU_AND(&house, &house, &c->online);
	fmt_cpus(&house, hk, sizeof(hk));
	dp = opendir_or_skip(c, r, "/proc/irq", dir, sizeof(dir));
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/irq/%.16s/effective_affinity_list", d->d_name);
		if (read_cpulist(c, path, &aff) || !CPU_COUNT(&aff)) {
			snprintf(path, sizeof(path), "/proc/irq/%.16s/smp_affinity_list", d->d_name);
			if (read_cpulist(c, path, &aff))
				continue;
		}
		nread++;
		CPU_AND(&aff, &aff, &c->isolated);
		if (CPU_COUNT(&aff) && nbad++ < 8)
			rtp_appendf(bad, sizeof(bad), "%sIRQ %s", nbad > 1 ? ", " : "", d->d_name);
	}
	closedir(dp);
	if (!nread) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "no readable %s/N/smp_affinity_list", dir);
		return;
	}
	if (!nbad) {
		r->status = RTP_CHECK_PASS;
		seen(r, "none of %d IRQs may run on the isolated CPUs %s", nread, iso);
		return;
	}
	r->status = RTP_CHECK_FAIL;
	seen(r, "%d of %d IRQs may run on the isolated CPUs %s: %s%s", nbad, nread, iso, bad,
	     nbad > 8 ? ", ..." : "");
	fix(r, "for f in /proc/irq/*/smp_affinity_list; do echo %s > $f; done (boot: irqaffinity=%s)",
	    hk, hk);
}

/* Calls fn(pid, comm) for each process under <root>/proc; stops when it returns nonzero. */
static int find_irqbalance(const struct rtp_check_ctx *c, const char *pid, const char *comm, void *arg)
{
	(void)c;
	if (strcmp(comm, "irqbalance"))
		return 0;
	snprintf(arg, 32, "%s", pid);
	return 1;
}

void check_irqbalance(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char pid[32] = "";

	each_proc(c, find_irqbalance, pid);
	if (!pid[0]) {
		r->status = RTP_CHECK_PASS;
		seen(r, "irqbalance not running");
		return;
	}
	r->status = RTP_CHECK_WARN;
	seen(r, "irqbalance running (pid %s): it moves IRQs, the sound card's too, every 10 s", pid);
	fix(r, "systemctl disable --now irqbalance (or IRQBALANCE_BANNED_CPULIST=<RT CPUs> in "
	       "/etc/default/irqbalance)");
}

