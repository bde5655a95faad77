/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_SYSINFO_H
#define RTP_SYSINFO_H

#include <stdbool.h>
#include <stddef.h>

struct rtp_sysinfo {
	char hostname[256];
	char kernel_release[128];
	char kernel_version[256];
	char machine[32];
	char preempt[16];		/* rt, full, voluntary, none, lazy, unknown */
	char preempt_source[64];	/* where the model was read */
	char cmdline[4096];
	int cpus_online;
	char cpus_online_list[256];
	char cpu_model[256];
	char clocksource[64];
	bool virtualized;
	char hypervisor[64];		/* what told us: "cpuid", "kvm", "docker"... */
};

/* Reads everything it can; fields it cannot read stay "" / "unknown". */
int rtp_sysinfo_read(struct rtp_sysinfo *si);

/*
 * The preemption model from the evidence, strongest first: the contents
 * of /sys/kernel/realtime, `uname -v`, /sys/kernel/debug/sched/preempt
 * (PREEMPT_DYNAMIC: the active model is in parentheses), the kernel
 * config with the boot command line's preempt= (for dynamic kernels).
 * Any input may be NULL.  Writes the model and a word naming the source.
 */
struct rtp_preempt_evidence {
	const char *realtime;		/* /sys/kernel/realtime */
	const char *uname_version;	/* uname -v */
	const char *sched_preempt;	/* /sys/kernel/debug/sched/preempt */
	const char *config;		/* kernel .config text */
	const char *cmdline;		/* /proc/cmdline */
};
void rtp_preempt_model(const struct rtp_preempt_evidence *ev,
		       char *model, size_t mlen, char *source, size_t slen);

/* Reads a whole small file into buf (NUL-terminated, trailing newline cut). */
int rtp_read_file(const char *path, char *buf, size_t len);

#endif /* RTP_SYSINFO_H */
