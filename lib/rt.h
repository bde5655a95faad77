/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_RT_H
#define RTP_RT_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Locks current and future pages and touches stack_bytes of stack. */
int rtp_mlock_all(size_t stack_bytes);
/* Touches stack_bytes of the calling thread's stack (call in each RT thread). */
void rtp_prefault_stack(size_t stack_bytes);

/* Scheduling for one thread (tid 0 = caller), through sched_setattr(2). */
struct rtp_sched {
	int policy;		/* SCHED_FIFO, SCHED_RR, SCHED_OTHER, SCHED_DEADLINE, ... */
	int priority;		/* 1..99 for FIFO/RR; nice value for OTHER/BATCH */
	uint64_t runtime_ns;	/* SCHED_DEADLINE only */
	uint64_t deadline_ns;
	uint64_t period_ns;
};
int rtp_sched_set(pid_t tid, const struct rtp_sched *s);
int rtp_sched_get(pid_t tid, struct rtp_sched *s);
bool rtp_policy_is_rt(int policy);

/*
 * A measuring thread's set-up, called on the thread itself: pinned to cpu
 * (>= 0), else to set (when not NULL), scheduled as s, with
 * RTP_THREAD_TIMERSLACK a timer slack of 1 ns (SCHED_OTHER sleepers get
 * 50 us by default), then prefault bytes of its stack touched.  Returns 0,
 * or -errno with *what (when what is not NULL) naming the step that failed:
 * "pin to its CPU" or "set its scheduling policy".
 */
#define RTP_THREAD_TIMERSLACK 1u
int rtp_thread_setup(int cpu, const cpu_set_t *set, const struct rtp_sched *s, unsigned flags,
		     size_t prefault, const char **what);

/* Pins tid (0 = caller) to one CPU, or to a set. */
int rtp_pin_cpu(pid_t tid, int cpu);
int rtp_pin_set(pid_t tid, const cpu_set_t *set);

/*
 * Holds /dev/cpu_dma_latency open at value_us (PM QoS: the CPUs stay out
 * of deep idle states while the fd is open).  Returns the fd or -errno.
 */
int rtp_dma_latency_open(int32_t value_us);
void rtp_dma_latency_close(int fd);

/*
 * Can this process use real-time scheduling at priority prio?  Probes by
 * really switching a short-lived thread; when it cannot, 'why' says what
 * is missing (root, CAP_SYS_NICE, RLIMIT_RTPRIO, an RT cgroup budget).
 */
bool rtp_can_rt(int prio, char *why, size_t len);

/* Thread id of the caller. */
pid_t rtp_gettid(void);

#endif /* RTP_RT_H */
