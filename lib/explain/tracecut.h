/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_TRACECUT_H
#define RTP_TRACECUT_H

/*
 * The analysis behind --explain, apart from tracefs: one CPU's trace
 * lines parsed into events, and the window from a thread's intended
 * release to its actual wake-up cut into who held the CPU (tasks, hard
 * IRQs, system vectors, softirqs, idle).  Pure functions: unit-tested on
 * planted traces (tests/unit/test_tracecut.c).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rtp_xev_type {
	XEV_SWITCH,		/* sched_switch: prev -> next */
	XEV_WAKEUP,		/* sched_wakeup (and sched_wakeup_new) */
	XEV_IRQ_ENTRY,		/* irq_handler_entry: num = irq, name */
	XEV_IRQ_EXIT,
	XEV_SOFTIRQ_ENTRY,	/* softirq_entry: num = vec, name = action */
	XEV_SOFTIRQ_EXIT,
	XEV_VEC_ENTRY,		/* irq_vectors:<name>_entry (local_timer, reschedule...) */
	XEV_VEC_EXIT,
	XEV_HRTIMER,		/* hrtimer_expire_entry: name = function */
	XEV_OTHER,		/* osnoise, timerlat and the rest: counted only */
};

#define RTP_XNAME 24

struct rtp_xev {
	uint64_t ts;		/* ns of the trace clock (mono: CLOCK_MONOTONIC), us resolution */
	uint8_t type;
	int pid, prio;		/* switch: next; wakeup: the woken task */
	int ppid, pprio;	/* switch: prev */
	int num;		/* irq number, softirq vector */
	bool hardirq;		/* written in hard-IRQ context (the flags column's 'h' or 'H') */
	char name[RTP_XNAME];	/* switch/wakeup: comm (next); irq, softirq, vector, function */
	char pname[RTP_XNAME];	/* switch: prev comm */
};

/*
 * One line of a tracefs text file ("comm-pid [001] d..2. 123.456789:
 * sched_switch: ...").  Returns 1 with *e filled, 0 for a comment, a
 * line of another shape or an event of no interest; never reads past the
 * string.
 */
int rtp_xev_parse(const char *line, struct rtp_xev *e);

enum rtp_culprit_kind { RTP_CK_TASK, RTP_CK_IRQ, RTP_CK_VECTOR, RTP_CK_SOFTIRQ, RTP_CK_IDLE };
const char *rtp_culprit_kind_name(int kind);

struct rtp_culprit {
	int kind;
	int id;			/* pid, irq, softirq vector; -1: none */
	int kprio;		/* task: the kernel's prio (0..99 RT, 100..139 normal, -1 deadline) */
	char name[RTP_XNAME];	/* comm, irq name, softirq action, vector name */
	char policy[12];	/* task: "FIFO", "RR", "OTHER", "BATCH", "IDLE", "DEADLINE", "RT" */
	int prio;		/* task: the rt priority (1..99) or the nice value */
	uint64_t ns;		/* time held within the window */
	uint64_t stretch_ns;	/* task: its longest run on the CPU overlapping the window, from its
				 * switch-in (maybe before the release) to its switch-out */
	uint64_t softirq_ns;	/* task, on PREEMPT_RT: of ns, softirq work it ran */
	unsigned count;		/* times it started in the window */
	int kthread;		/* task: 1 a kernel thread, 0 not, -1 not known (gone); others -1 */
};

#define RTP_XMAX_CULPRITS 8

struct rtp_tracecut {
	/* in */
	int cpu, tid;
	uint64_t release_ns, wake_ns;
	bool soft_in_task;	/* PREEMPT_RT: softirqs run in task context, charged to that task */
	/*
	 * The system vector whose events were not recorded (for their cost:
	 * "local_timer"), or "" when every vector is traced.  A wake-up of the
	 * thread in hard-IRQ context with no IRQ handler or traced vector open
	 * then names it as the waker; its time stays with what it interrupted.
	 */
	const char *untraced_vector;
	/* out */
	bool covered;		/* the trace reaches back to the release */
	uint64_t trace_from_ns;	/* the oldest event of that CPU */
	bool have_wakeup, have_switch, have_timer;
	uint64_t wakeup_ns;	/* sched_wakeup of tid in the window */
	/*
	 * Who woke it: what held this CPU at that sched_wakeup (the timer
	 * vector, an IRQ, a softirq, a task: kind, id, name, kprio).  Without
	 * a sched_wakeup on this CPU the waker ran on another one (events are
	 * written on the CPU that runs the wake-up).
	 */
	struct rtp_culprit waker;
	uint64_t switch_ns;	/* the switch to tid */
	uint64_t timer_ns;	/* the hrtimer_wakeup expiry just before the wake-up */
	uint64_t timer_late_ns;	/* release -> wake-up event */
	uint64_t woken_late_ns;	/* wake-up event -> switch to the thread */
	uint64_t self_ns;	/* the thread itself, from its switch to the wake-up time */
	uint64_t accounted_ns;	/* all culprits, idle and self */
	uint64_t others_ns;	/* culprits ranked past RTP_XMAX_CULPRITS */
	int nothers;
	int ncul;
	struct rtp_culprit cul[RTP_XMAX_CULPRITS];	/* largest first; idle included */
};

/*
 * Cuts [release, wake] on one CPU's events (in time order) into culprits.
 * x->cpu, tid, release_ns and wake_ns are read; the rest is filled.
 * Returns 0, or -ENODATA when the trace does not reach back to the release
 * (x->covered false).  Task policies are left "" (rtp_tracecut_policies).
 */
int rtp_tracecut_analyse(const struct rtp_xev *ev, size_t n, struct rtp_tracecut *x);

/*
 * Where an analysis of a window released at release_ns may start in ev[n]
 * (time order): the last sched_switch at or before the release (its state
 * is then known), else 0.  Saves walking a long trace from its start once
 * per outlier; the result is the same.
 */
size_t rtp_tracecut_from(const struct rtp_xev *ev, size_t n, uint64_t release_ns);

/*
 * Fills each task's policy and priority (sched_getscheduler() while it
 * lives, else from kprio) and kthread: PF_KTHREAD in <proc>/PID/stat when
 * that pid still has the trace's comm, else -1.  The comm came from the
 * task itself and proves nothing; the flag is the kernel's.
 */
void rtp_tracecut_policies_in(struct rtp_tracecut *x, const char *proc);
/* rtp_tracecut_policies_in(x, "/proc") */
void rtp_tracecut_policies(struct rtp_tracecut *x);

/*
 * "rtp-spin[1234] (FIFO 99, user)", "ktimers/0[15] (FIFO 1, kernel thread)",
 * "hackbench[249] (OTHER nice 0, user)", "irq 24 virtio0", "softirq NET_RX",
 * "idle".  A task that had gone says "gone" for what it was.  Bytes of a
 * name outside printable ASCII are shown as '?' (a comm is the task's own
 * text: no terminal escapes through the console).
 */
const char *rtp_culprit_label(const struct rtp_culprit *c, char *buf, size_t len);

#endif /* RTP_TRACECUT_H */
