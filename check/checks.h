/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_CHECKS_H
#define RTP_CHECKS_H

/*
 * Inside rtproof check: what the group files (kernel.c, cpu.c, irq.c,
 * memory.c, audio.c) share: the helpers in util.c and the context in
 * check.c, whose table calls them.  Only check/ includes it.
 */

#include <dirent.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "check.h"
#include "strbuf.h"

#define L RTP_PROFILE_BIT(RTP_PROFILE_LATENCY)
#define A RTP_PROFILE_BIT(RTP_PROFILE_AUDIO)

/* ---- reading below the root (util.c) ---------------------------------- */

/* <root>PATH into buf. */
void rpath(const struct rtp_check_ctx *c, const char *path, char *buf, size_t len);
/* rtp_check_read of a path built from fmt. */
int readf(const struct rtp_check_ctx *c, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Opens <root>PATH (its full name into dir); NULL, the check skipped, when it cannot. */
DIR *opendir_or_skip(const struct rtp_check_ctx *c, struct rtp_check_result *r,
		     const char *path, char *dir, size_t len);
/* A file, gzip-compressed or plain, into a malloc'd string of at most max bytes. */
char *slurp_gz(const char *path, size_t max);
int read_cpulist(const struct rtp_check_ctx *c, const char *path, cpu_set_t *set);
/* Calls fn(pid, comm) for each process under <root>/proc; stops when it returns nonzero. */
void each_proc(const struct rtp_check_ctx *c,
	       int (*fn)(const struct rtp_check_ctx *c, const char *pid, const char *comm, void *arg),
	       void *arg);

/* ---- the result's lines ------------------------------------------------ */

void seen(struct rtp_check_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void fix(struct rtp_check_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends to a line, keeping it one line. */

/* ---- small facts ------------------------------------------------------- */

void fmt_cpus(const cpu_set_t *s, char *buf, size_t len);
/* The CPU list of isolcpus=[flags,]LIST: the part from the first digit on. */
int isolcpus_list(const char *val, cpu_set_t *set);
bool has_word(const char *hay, const char *w);
/* passwd or group line: field i (0-based) of a ':' line into out. */
bool field(const char *line, int i, char *out, size_t len);
/* The check skipped for want of a kernel config; returns NULL. */
const char *no_config(const struct rtp_check_ctx *c, struct rtp_check_result *r);
bool rt_kernel(const struct rtp_check_ctx *c);
/* A knob that should read 0 (timer migration, KSM, NUMA balancing). */
struct zero_knob {
	const char *path, *name;
	const char *good, *bad, *fix;
	enum rtp_check_status absent;	/* an unreadable file: PASS (not in this kernel) or SKIP */
	const char *absent_seen;	/* PASS: the line; SKIP: after "<root><path> unreadable" */
};
void check_zero_knob(const struct rtp_check_ctx *c, struct rtp_check_result *r,
		     const struct zero_knob *k);
/* The user is in group gid (primary or listed in /etc/group). */
bool user_in_gid(const struct rtp_check_ctx *c, gid_t gid);

/* ---- the checks, by group: one table entry each ------------------------ */

#define RTP_CHECK_FN(name) void name(const struct rtp_check_ctx *c, struct rtp_check_result *r)

/* kernel.c */
RTP_CHECK_FN(check_preempt);
RTP_CHECK_FN(check_threadirqs);
RTP_CHECK_FN(check_hrtimers);
RTP_CHECK_FN(check_nohz);
RTP_CHECK_FN(check_clocksource);
RTP_CHECK_FN(check_rt_throttle);
RTP_CHECK_FN(check_timer_migration);
RTP_CHECK_FN(check_mitigations);
RTP_CHECK_FN(check_virt);
/* cpu.c */
RTP_CHECK_FN(check_governor);
RTP_CHECK_FN(check_boost);
RTP_CHECK_FN(check_cstates);
RTP_CHECK_FN(check_dma_latency);
RTP_CHECK_FN(check_smt);
RTP_CHECK_FN(check_isolation);
/* irq.c */
RTP_CHECK_FN(check_irq_affinity);
RTP_CHECK_FN(check_irqbalance);
/* memory.c: memory, and the limits on locking it and on priorities */
RTP_CHECK_FN(check_thp);
RTP_CHECK_FN(check_swappiness);
RTP_CHECK_FN(check_ksm);
RTP_CHECK_FN(check_numa_balancing);
RTP_CHECK_FN(check_rtprio);
RTP_CHECK_FN(check_memlock);
RTP_CHECK_FN(check_limits_files);
/* audio.c */
RTP_CHECK_FN(check_audio_group);
RTP_CHECK_FN(check_sound_cards);
RTP_CHECK_FN(check_sound_irq);
RTP_CHECK_FN(check_irq_prio);
RTP_CHECK_FN(check_usb_autosuspend);
RTP_CHECK_FN(check_ktimers);

#endif /* RTP_CHECKS_H */
