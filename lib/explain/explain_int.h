/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_EXPLAIN_INT_H
#define RTP_EXPLAIN_INT_H

/*
 * --explain's inside, shared by explain.c (the instance, the reader, the
 * windows) and explain_out.c (the console table and the document): not
 * for the benches, which use explain.h.
 */
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "culprits.h"
#include "explain.h"
#include "tracecut.h"

#define QLEN 4096			/* outliers handed over, not yet taken (after-run: all of the run) */
#define BUFFER_KB 1024			/* per CPU, main ring and snapshot each */
/*
 * After-run mode: the ring must hold every outlier's window from the first
 * one's snapshot to the run's end.  2048 KiB held 15 of 40 under hackbench
 * in the RT guest, 8192 all (docs/explain.md); at most 64 MiB in all
 * (ring and snapshot) when many CPUs are measured, never below 2048.
 */
#define BUFFER_KB_AFTER 8192
#define BUFFER_KB_AFTER_MIN 2048
#define BUFFER_KB_AFTER_ALL 32768
#define RTP_EXPLAIN_PRINT 10		/* console lines of windows at most */
#define RTP_EXPLAIN_ROWS 12		/* console lines of the culprit table at most */

struct note {
	int cpu, tid;
	uint64_t release_ns, wake_ns;
	const char *what;
};

struct slot {
	unsigned long seq;		/* Vyukov's bounded queue */
	struct note n;
};

enum kept_state { KEPT_PENDING, KEPT_DONE };

struct kept {
	struct note n;
	int state;
	struct rtp_tracecut x;
};

struct cpuev {
	struct rtp_xev *ev;
	size_t n, cap;
	size_t nprev;			/* the first nprev came from the read before */
	bool gap;			/* the newest read lost its oldest events: a gap at nprev */
};

struct rtp_explain {
	uint64_t threshold_ns;
	char dir[96];			/* the tracefs mount */
	char inst[192];			/* the instance */
	struct rtp_state *st;		/* the run's journal (NULL: none) */
	cpu_set_t measured;
	int maxcpu;
	bool deferred;			/* no CPU for the reader: read after the run */
	bool rt;			/* PREEMPT_RT: softirqs run in task context */
	int buffer_kb;			/* per CPU, ring and snapshot each */
	char reader_cpus[64];
	char events[512];		/* the events enabled, for the document */
	char untraced[RTP_XNAME];	/* the vector left out for its cost ("local_timer"), or "" */
	bool record_cmd;		/* the instance's comm cache on (another trace array has events) */
	int efd;
	pthread_t th;
	bool started, finished;
	int stop;			/* atomic */
	int quiet;			/* atomic: notes wake nobody (after-run mode, swapped) */

	struct slot q[QLEN];
	struct note batch[QLEN];	/* the reader's */
	unsigned long head;		/* atomic: producers */
	unsigned long tail;		/* the reader's */
	uint64_t dropped;		/* atomic: queue full */

	/* the reader's own (read by others only after the join) */
	uint64_t outliers;		/* taken from the queue */
	uint64_t covered;		/* of them, windows the trace covers (all cut into culprits) */
	uint64_t sampled_out, not_covered, over_cap, failed;
	struct note *pend;		/* after-run mode: every outlier, for after the run */
	size_t npend, cappend;
	struct rtp_xrun run;		/* the culprit table, every covered outlier */
	uint64_t snapshots;
	bool snapped;			/* deferred: the one swap done */
	uint64_t group, group_max;
	int group_slot;
	struct kept *kept;
	int nkept;
	struct cpuev *cpu;		/* [maxcpu + 1] */
	char err[160];
};

#endif /* RTP_EXPLAIN_INT_H */
