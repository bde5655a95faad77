/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_IRQLAT_BENCH_H
#define RTP_IRQLAT_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "driver.h"
#include "hist.h"

/*
 * rtproof-irqlat: the stages of an interrupt's way to user space.
 * Sources, best first: the rtproof_irqlat module, the kernel's timerlat
 * tracer, /dev/rtc0 periodic interrupts; a user-space timer fallback
 * (which measures no interrupt) only when asked for.
 */
enum irqlat_source { SRC_AUTO = -1, SRC_MODULE = 0, SRC_TIMERLAT, SRC_RTC, SRC_USER, SRC_N };
const char *irqlat_source_name(enum irqlat_source s);
/* What the source measures, for humans and the result document. */
const char *irqlat_source_label(enum irqlat_source s);

struct irqlat_opts {
	struct rtp_common co;		/* -D, -q, --json, --load, --no-mlockall */
	enum irqlat_source source;
	uint64_t interval_ns;
	int priority;			/* the reader's SCHED_FIFO priority; 0: SCHED_OTHER */
	int irq_prio;			/* 0: leave the IRQ thread alone */
	int cpu;			/* -1: do not pin */
	uint64_t delay_ns;		/* module: planted primary-handler delay */
	bool delay_set;
	const char *device;		/* module device (default RTP_IRQLAT_DEVICE) */
	const char *rtc;		/* default /dev/rtc0 */
	const char *tracefs;		/* default: /sys/kernel/tracing, then debug/tracing */
	const char *sysfs_module;	/* default /sys/module/rtproof_irqlat */
	bool osnoise;			/* timerlat: record the osnoise noise events */
};

#define IRQLAT_HELP_SHOWN RTP_HELP_SHOWN
RTP_BENCH_OPTIONS_DECLARE(irqlat);
extern const struct rtp_bench_ops irqlat_ops;
/* 0, IRQLAT_HELP_SHOWN, or an exit code after printing the error. */
int irqlat_parse(struct irqlat_opts *o, int argc, char **argv);

/* The stages every source fills what it can of. */
enum irqlat_stage {
	ST_IRQ,		/* a->b: irq_latency */
	ST_THREAD,	/* b->c: thread_wakeup */
	ST_USER,	/* c->d: user_wakeup */
	ST_TOTAL,	/* a->d: total */
	ST_ENTRY,	/* a->hard-IRQ entry: hardirq_entry, before any planted delay */
	ST_N
};
extern const char *const irqlat_stage_names[ST_N];

/* Per-source metric name of each stage (NULL: the source has no such stage). */
const char *irqlat_metric_name(enum irqlat_source s, enum irqlat_stage st);

struct irqlat_stats {
	struct rtp_hist h[ST_N];
	uint64_t records;
	uint64_t unordered;		/* a <= b <= c <= d did not hold: not recorded */
	uint64_t reader_not_waiting;	/* no (d): the reader was not blocked at (c) */
	uint64_t reader_not_waiting_at_start;	/* of those, before the reader first waited */
	bool reader_waited;		/* a record has found the reader blocked */
	uint64_t seq_gaps;		/* events missing between records */
	uint64_t next_seq;
	uint64_t last_dropped, last_busy, last_overruns;
	uint32_t flags_and, flags_or;
	uint64_t delay_ns_seen;		/* planted delay of the last record */
	uint32_t thread_pid;
	bool any;
};

void irqlat_stats_init(struct irqlat_stats *s);

/* One module record, as the kernel hands it (see rtproof_irqlat.h). */
struct rtp_irqlat_record;
/* Folds a module record in; returns false if its stages are out of order. */
bool irqlat_account_record(struct irqlat_stats *s, const struct rtp_irqlat_record *r);

/*
 * One timerlat trace line: "... #123 context    irq timer_latency  1234 ns".
 * Returns 1 and fills *ctx (0 irq, 1 thread, 2 user-ret), *seq and *ns,
 * 0 for a line of another kind, never negative.
 */
int irqlat_parse_timerlat(const char *line, int *ctx, uint64_t *seq, uint64_t *ns);

/*
 * The osnoise tracer's noise events, as trace_pipe prints them while the
 * timerlat (or osnoise) tracer runs:
 *   <task>-<pid> [000] d.h1. 2.90: irq_noise: local_timer:236 start 2.90 duration 2581 ns
 * kinds nmi_noise, irq_noise, softirq_noise, thread_noise.  1 with the CPU,
 * the kind, the duration and what interfered (the text before "start",
 * cut to wlen), 0 for any other line.
 */
enum irqlat_noise_kind { NOISE_NMI, NOISE_IRQ, NOISE_SOFTIRQ, NOISE_THREAD, NOISE_N };
extern const char *const irqlat_noise_names[NOISE_N];
int irqlat_parse_osnoise(const char *line, int *cpu, int *kind, uint64_t *ns, char *what, size_t wlen);

/* Is IRQ threading forced: PREEMPT_RT, or threadirqs on the command line? */
const char *irqlat_forced_threading(bool rt_kernel, const char *cmdline);

/*
 * The IRQ thread named "irq/<irq>-<name>" (or with any irq when irq < 0):
 * a kernel thread (PF_KTHREAD in <proc>/PID/stat), never a task that only
 * took the name; those are counted in ignored.
 */
struct irqlat_thread {
	bool found;
	int pid;
	char comm[32];
	int policy;
	int priority;
	int orig_priority;		/* before --irq-prio */
	int orig_policy;
	bool prio_set;
	bool own;			/* a thread of this process (timerlat_fd): --irq-prio
					 * is its priority from the start, nothing to restore */	int ignored;			/* tasks with the name that are not kernel threads */
	int ignored_pid;		/* the first of them */
};
int irqlat_find_irq_thread(const char *proc, int irq, const char *name, struct irqlat_thread *t);
/* The kernel thread whose comm is exactly comm (e.g. "timerlat/0"). */
int irqlat_find_comm(const char *proc, const char *comm, struct irqlat_thread *t);
/* Matches a comm against "irq/<irq>-<name>" (irq < 0: any). */
bool irqlat_comm_matches(const char *comm, int irq, const char *name);

/* The whole program; returns its exit code. */
int irqlat_main(int argc, char **argv);

#endif /* RTP_IRQLAT_BENCH_H */
