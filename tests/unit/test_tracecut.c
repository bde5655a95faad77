// SPDX-License-Identifier: GPL-2.0-or-later
/* --explain's analysis on planted traces: who held the CPU, for how long. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "explain/tracecut.h"

/* A 2 ms FIFO 99 spinner from 100.000000; the release at 100.000500;
 * a timer vector, a device IRQ and a softirq inside the spin; the
 * measured thread (tid 600) switched in at 100.002000, awake 10 us later. */
static const char *const trace[] = {
	"# tracer: nop",
	"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION",
	"          <idle>-0       [001] d..2.    99.999000: sched_switch: prev_comm=swapper/1 prev_pid=0 "
	"prev_prio=120 prev_state=R ==> next_comm=swapper/1 next_pid=0 next_prio=120",
	"          <idle>-0       [001] d.h2.   100.000000: sched_wakeup: comm=rtp-spin pid=500 prio=0 target_cpu=001",
	"          <idle>-0       [001] d..2.   100.000000: sched_switch: prev_comm=swapper/1 prev_pid=0 "
	"prev_prio=120 prev_state=R ==> next_comm=rtp-spin next_pid=500 next_prio=0",
	"        rtp-spin-500     [001] d.h1.   100.000500: local_timer_entry: vector=236",
	"        rtp-spin-500     [001] d.h2.   100.000501: hrtimer_expire_entry: hrtimer=00000000a1b2c3d4 "
	"function=hrtimer_wakeup now=100000501000",
	"        rtp-spin-500     [001] d.h3.   100.000503: sched_wakeup: comm=rtproof-cyclic pid=600 prio=19 target_cpu=001",
	"        rtp-spin-500     [001] d.h1.   100.000506: local_timer_exit: vector=236",
	"        rtp-spin-500     [001] d.h1.   100.001000: irq_handler_entry: irq=24 name=virtio0",
	"        rtp-spin-500     [001] d.h1.   100.001100: irq_handler_exit: irq=24 ret=handled",
	"        rtp-spin-500     [001] ..s1.   100.001100: softirq_entry: vec=3 [action=NET_RX]",
	"        rtp-spin-500     [001] ..s1.   100.001300: softirq_exit: vec=3 [action=NET_RX]",
	"        rtp-spin-500     [001] d..2.   100.002000: sched_switch: prev_comm=rtp-spin prev_pid=500 "
	"prev_prio=0 prev_state=S ==> next_comm=rtproof-cyclic next_pid=600 next_prio=19",
	"  rtproof-cyclic-600     [001] d..2.   100.002500: sched_switch: prev_comm=rtproof-cyclic prev_pid=600 "
	"prev_prio=19 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120",
};
#define N (sizeof(trace) / sizeof(trace[0]))

static int parse_all(struct rtp_xev *ev)
{
	size_t i;
	int n = 0;

	for (i = 0; i < N; i++)
		n += rtp_xev_parse(trace[i], &ev[n]);
	return n;
}

static const struct rtp_culprit *find(const struct rtp_tracecut *x, int kind, const char *name)
{
	int i;

	for (i = 0; i < x->ncul; i++)
		if (x->cul[i].kind == kind && !strcmp(x->cul[i].name, name))
			return &x->cul[i];
	return NULL;
}

static void put(const char *root, const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/*
 * Issue 23 item 4: a culprit's comm is the task's own text.  Its kind
 * (kernel thread or not) comes from /proc/PID/stat's PF_KTHREAD, and only
 * while that pid still has the comm the trace saw.
 */
static void test_kthread(const struct rtp_tracecut *x0)
{
	static struct rtp_tracecut x;
	char root[64], buf[128];

	snprintf(root, sizeof(root), "%s/rtp-xproc.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root)) {
		tap_skip("mkdtemp failed", "culprits' kernel-thread flag on a fake /proc");
		return;
	}
	x = *x0;
	x.ncul = 4;
	memset(&x.cul[1], 0, 3 * sizeof(x.cul[0]));
	/* 0: rtp-spin pid 500 as a user task; 1: ktimers/0 pid 15 a kernel thread;
	 * 2: a user task named ktimers/1; 3: pid 700 gone */
	x.cul[1].kind = RTP_CK_TASK;
	x.cul[1].id = 15;
	x.cul[1].kprio = 98;
	snprintf(x.cul[1].name, sizeof(x.cul[1].name), "ktimers/0");
	x.cul[2] = x.cul[1];
	x.cul[2].id = 501;
	snprintf(x.cul[2].name, sizeof(x.cul[2].name), "ktimers/1");
	x.cul[3] = x.cul[1];
	x.cul[3].id = 700;
	snprintf(x.cul[3].name, sizeof(x.cul[3].name), "rtp-gone");
	{
		char d[128];

		snprintf(d, sizeof(d), "%s/500", root);
		mkdir(d, 0755);
		snprintf(d, sizeof(d), "%s/15", root);
		mkdir(d, 0755);
		snprintf(d, sizeof(d), "%s/501", root);
		mkdir(d, 0755);
	}
	put(root, "500/stat", "500 (rtp-spin) R 400 500 400 0 -1 4194560 0 0 0 0\n");
	put(root, "15/stat", "15 (ktimers/0) S 2 0 0 0 -1 2129984 0 0 0 0\n");
	put(root, "501/stat", "501 (ktimers/1) S 400 501 400 0 -1 4194560 0 0 0 0\n");
	rtp_tracecut_policies_in(&x, root);
	ok(x.cul[0].kthread == 0, "rtp-spin: a user task (%d)", x.cul[0].kthread);
	ok(x.cul[1].kthread == 1 && !strncmp(rtp_culprit_label(&x.cul[1], buf, sizeof(buf)),
					      "ktimers/0[15] (", 15) && strstr(buf, " 1, kernel thread)"),
	   "ktimers/0[15]: a kernel thread: %s", buf);
	ok(x.cul[2].kthread == 0 && strstr(rtp_culprit_label(&x.cul[2], buf, sizeof(buf)), "[501]") &&
	   strstr(buf, ", user)"), "a user task named ktimers/1 says so: %s", buf);
	ok(x.cul[3].kthread == -1 && strstr(rtp_culprit_label(&x.cul[3], buf, sizeof(buf)), ", gone)"),
	   "a task gone: not known: %s", buf);
	/* the pid reused by another task: not known */
	put(root, "500/stat", "500 (bash) S 400 500 400 0 -1 4194560 0 0 0 0\n");
	rtp_tracecut_policies_in(&x, root);
	ok(x.cul[0].kthread == -1, "pid 500 now runs another comm: not known");
	/* a kernel thread's longer /proc name (kworker/0:1-events) matches the trace's comm */
	snprintf(x.cul[1].name, sizeof(x.cul[1].name), "kworker/0:1");
	put(root, "15/stat", "15 (kworker/0:1-events) I 2 0 0 0 -1 69238880 0 0 0 0\n");
	rtp_tracecut_policies_in(&x, root);
	ok(x.cul[1].kthread == 1, "kworker/0:1 against /proc's kworker/0:1-events: a kernel thread");
	/* a comm with a terminal escape: shown as '?' on the console */
	snprintf(x.cul[2].name, sizeof(x.cul[2].name), "a\033]0;x\007b\n");
	rtp_culprit_label(&x.cul[2], buf, sizeof(buf));
	ok(!strchr(buf, '\033') && !strchr(buf, '\007') && !strchr(buf, '\n') &&
	   !strncmp(buf, "a?]0;x?b?[501]", 14), "control bytes in a comm are shown as '?': %s", buf);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd))
			tap_diag("could not remove %s", root);
	}
}

/*
 * Issue 26 item 4: on PREEMPT_RT a softirq runs in a thread (ktimers/1
 * here, FIFO 1): that thread held the CPU, at its priority.  On a stock
 * kernel the same events charge the softirq vector.
 */
static const char *const rt_trace[] = {
	"          <idle>-0       [001] d..2.   200.000050: sched_switch: prev_comm=swapper/1 prev_pid=0 "
	"prev_prio=120 prev_state=R ==> next_comm=ktimers/1 next_pid=15 next_prio=98",
	"       ktimers/1-15      [001] ..s1.   200.000060: softirq_entry: vec=1 [action=TIMER]",
	"       ktimers/1-15      [001] d.h1.   200.000200: irq_handler_entry: irq=24 name=virtio0",
	"       ktimers/1-15      [001] d.h1.   200.000220: irq_handler_exit: irq=24 ret=handled",
	"       ktimers/1-15      [001] ..s1.   200.000300: softirq_exit: vec=1 [action=TIMER]",
	"       ktimers/1-15      [001] d..2.   200.000310: sched_switch: prev_comm=ktimers/1 prev_pid=15 "
	"prev_prio=98 prev_state=S ==> next_comm=rtproof-cyclic next_pid=600 next_prio=19",
};

static void test_rt(void)
{
	struct rtp_xev ev[8];
	struct rtp_tracecut x;
	const struct rtp_culprit *c;
	size_t i, n = 0;

	for (i = 0; i < sizeof(rt_trace) / sizeof(rt_trace[0]); i++)
		n += (size_t)rtp_xev_parse(rt_trace[i], &ev[n]);
	memset(&x, 0, sizeof(x));
	x.cpu = 1;
	x.tid = 600;
	x.release_ns = 200000100000ull;
	x.wake_ns = 200000320000ull;
	ok(!rtp_tracecut_analyse(ev, n, &x) && (c = find(&x, RTP_CK_SOFTIRQ, "TIMER")) && c->ns == 180000 &&
	   (c = find(&x, RTP_CK_TASK, "ktimers/1")) && c->ns == 10000,
	   "stock: the softirq TIMER held 180 us, ktimers/1 10 us");
	x.soft_in_task = true;
	ok(!rtp_tracecut_analyse(ev, n, &x) && !find(&x, RTP_CK_SOFTIRQ, "TIMER") &&
	   (c = find(&x, RTP_CK_TASK, "ktimers/1")) && c->ns == 190000 && c->softirq_ns == 180000 &&
	   c->kprio == 98 && c->count == 1,
	   "PREEMPT_RT: ktimers/1 (kernel prio 98: FIFO 1) held 190 us, 180 of them softirq work, once");
	ok((c = find(&x, RTP_CK_IRQ, "virtio0")) && c->ns == 20000,
	   "PREEMPT_RT: a hard IRQ inside the thread's softirq is still the IRQ's (20 us)");
	is_u64(rtp_tracecut_from(ev, n, x.release_ns), 0, "the analysis starts at the switch before the release");

	/* a wake-up from a softirq in ktimers/1: the vector on stock, the thread on PREEMPT_RT */
	{
		struct rtp_xev w;

		ok(rtp_xev_parse("       ktimers/1-15      [001] d.s2.   200.000250: sched_wakeup: "
				 "comm=rtproof-cyclic pid=600 prio=19 target_cpu=001", &w) == 1, "a wake-up in a softirq");
		memmove(&ev[5], &ev[4], (n - 4) * sizeof(ev[0]));
		ev[4] = w;
		n++;
		x.soft_in_task = false;
		ok(!rtp_tracecut_analyse(ev, n, &x) && x.have_wakeup && x.waker.kind == RTP_CK_SOFTIRQ &&
		   !strcmp(x.waker.name, "TIMER"), "stock: woken by the softirq TIMER");
		x.soft_in_task = true;
		ok(!rtp_tracecut_analyse(ev, n, &x) && x.have_wakeup && x.waker.kind == RTP_CK_TASK &&
		   x.waker.id == 15 && !strcmp(x.waker.name, "ktimers/1") && x.waker.kprio == 98,
		   "PREEMPT_RT: woken by ktimers/1 (kernel prio 98)");
	}
}

/*
 * The local timer's entry and exit left out (their cost, docs/explain.md
 * "What it costs"): the trace above without them.  The wake-up, written in
 * hard-IRQ context with no IRQ handler open, names the untraced vector as
 * the waker; the vector's own time stays with the task it interrupted.
 */
static void test_untraced_vector(const struct rtp_xev *all, int nall)
{
	struct rtp_xev ev[32], w;
	struct rtp_tracecut x;
	const struct rtp_culprit *c;
	int i, n = 0;

	for (i = 0; i < nall; i++)
		if (all[i].type != XEV_VEC_ENTRY && all[i].type != XEV_VEC_EXIT && all[i].type != XEV_HRTIMER)
			ev[n++] = all[i];
	memset(&x, 0, sizeof(x));
	x.cpu = 1;
	x.tid = 600;
	x.release_ns = 100000500000ull;
	x.wake_ns = 100002010000ull;
	x.untraced_vector = "local_timer";
	ok(!rtp_tracecut_analyse(ev, (size_t)n, &x) && x.have_wakeup && x.timer_late_ns == 3000 &&
	   x.waker.kind == RTP_CK_VECTOR && !strcmp(x.waker.name, "local_timer"),
	   "untraced timer vector: a hard-IRQ wake-up with nothing open is the vector's");
	ok(x.ncul && x.cul[0].kind == RTP_CK_TASK && x.cul[0].ns == 1200000 &&
	   !find(&x, RTP_CK_VECTOR, "local_timer") && x.accounted_ns == 1510000,
	   "untraced timer vector: its 6 us stay with rtp-spin (1200 us), nothing unaccounted");
	is_u64(x.woken_late_ns, 1497000, "untraced timer vector: woken late by 1497 us as before");
	x.untraced_vector = "";
	ok(!rtp_tracecut_analyse(ev, (size_t)n, &x) && x.waker.kind == RTP_CK_TASK && x.waker.id == 500,
	   "every vector traced: the same wake-up is the task's that held the CPU");
	/* the untraced timer interrupting a softirq ('H'): the vector woke it, not the softirq */
	{
		struct rtp_xev y[8];
		struct rtp_tracecut z = x;
		size_t m = 0;

		m += (size_t)rtp_xev_parse("          <idle>-0       [001] d..2.   300.000000: sched_switch: "
					   "prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> "
					   "next_comm=dd next_pid=70 next_prio=120", &y[m]);
		m += (size_t)rtp_xev_parse("              dd-70      [001] ..s1.   300.000010: softirq_entry: vec=9 "
					   "[action=RCU]", &y[m]);
		m += (size_t)rtp_xev_parse("              dd-70      [001] dNH3.   300.000030: sched_wakeup: "
					   "comm=rtproof-cyclic pid=600 prio=89 target_cpu=001", &y[m]);
		m += (size_t)rtp_xev_parse("              dd-70      [001] ..s1.   300.000050: softirq_exit: vec=9 "
					   "[action=RCU]", &y[m]);
		m += (size_t)rtp_xev_parse("              dd-70      [001] d..2.   300.000052: sched_switch: "
					   "prev_comm=dd prev_pid=70 prev_prio=120 prev_state=R+ ==> "
					   "next_comm=rtproof-cyclic next_pid=600 next_prio=89", &y[m]);
		z.untraced_vector = "local_timer";
		z.release_ns = 300000005000ull;
		z.wake_ns = 300000055000ull;
		ok(m == 5 && !rtp_tracecut_analyse(y, m, &z) && z.waker.kind == RTP_CK_VECTOR &&
		   !strcmp(z.waker.name, "local_timer") && (c = find(&z, RTP_CK_SOFTIRQ, "RCU")) && c->ns == 40000,
		   "a hard-IRQ wake-up inside a softirq: the untraced vector woke it, the softirq held 40 us");
		z.untraced_vector = "";
		ok(!rtp_tracecut_analyse(y, m, &z) && z.waker.kind == RTP_CK_SOFTIRQ && !strcmp(z.waker.name, "RCU"),
		   "every vector traced: the same wake-up is the softirq's");
	}
	/* a wake-up from process context (no 'h') is the task's whatever is untraced */
	ok(rtp_xev_parse("        rtp-spin-500     [001] d..3.   100.000503: sched_wakeup: "
			 "comm=rtproof-cyclic pid=600 prio=19 target_cpu=001", &w) == 1 && !w.hardirq,
	   "a wake-up in process context");
	for (i = 0; i < n; i++)
		if (ev[i].type == XEV_WAKEUP && ev[i].pid == 600)
			ev[i] = w;
	x.untraced_vector = "local_timer";
	ok(!rtp_tracecut_analyse(ev, (size_t)n, &x) && x.waker.kind == RTP_CK_TASK && x.waker.id == 500 &&
	   (c = find(&x, RTP_CK_TASK, "rtp-spin")) && c->ns == 1200000,
	   "a process-context wake-up with the vector untraced: the task's");
}

int main(void)
{
	struct rtp_xev ev[32], e;
	struct rtp_tracecut x;
	const struct rtp_culprit *c;
	char buf[64];
	int n, ret;

	n = parse_all(ev);
	is_u64(n, N - 2, "every event line parses, the comments do not");
	ok(ev[0].type == XEV_SWITCH && ev[0].ts == 99999000000ull, "a switch and its time stamp (us -> ns)");
	ok(ev[2].type == XEV_SWITCH && ev[2].pid == 500 && ev[2].prio == 0 && !strcmp(ev[2].name, "rtp-spin") &&
	   ev[2].ppid == 0 && !strcmp(ev[2].pname, "swapper/1"), "sched_switch: prev and next, comm, pid, prio");
	ok(ev[3].type == XEV_VEC_ENTRY && !strcmp(ev[3].name, "local_timer") && ev[3].num == 236,
	   "irq_vectors: local_timer_entry, vector 236");
	ok(ev[4].type == XEV_HRTIMER && !strcmp(ev[4].name, "hrtimer_wakeup"), "hrtimer_expire_entry: its function");
	ok(ev[5].type == XEV_WAKEUP && ev[5].pid == 600 && ev[5].prio == 19, "sched_wakeup: pid and prio");
	ok(ev[7].type == XEV_IRQ_ENTRY && ev[7].num == 24 && !strcmp(ev[7].name, "virtio0"), "irq_handler_entry");
	ok(ev[9].type == XEV_SOFTIRQ_ENTRY && ev[9].num == 3 && !strcmp(ev[9].name, "NET_RX"), "softirq_entry: action");

	ok(rtp_xev_parse("  kworker/u4:1 x-77  [000] d..2.  5.000001: sched_switch: prev_comm=kworker/u4:1 x "
			 "prev_pid=77 prev_prio=120 prev_state=R+ ==> next_comm=a [b] next_pid=8 next_prio=98", &e) == 1 &&
	   !strcmp(e.pname, "kworker/u4:1 x") && !strcmp(e.name, "a [b]") && e.ppid == 77 && e.pid == 8,
	   "comms with spaces and brackets");
	ok(rtp_xev_parse("  bash-1 [000] 5.000001: sched_wakeup: comm=x pid=2 prio=120 target_cpu=000", &e) == 1 &&
	   e.ts == 5000001000ull, "no flags column");
	ok(ev[5].hardirq && !ev[0].hardirq && !ev[9].hardirq && !e.hardirq,
	   "the flags column: hard-IRQ context ('h') told apart from process and softirq context");
	ok(rtp_xev_parse("           <...>-177     [000] dNH4.     8.287915: sched_wakeup: comm=rtproof-cyclic "
			 "pid=177 prio=19 target_cpu=000", &e) == 1 && e.hardirq && e.pid == 177 &&
	   e.ts == 8287915000ull, "no comm recorded (<...>), hard IRQ inside a softirq ('H')");
	ok(rtp_xev_parse("garbage [x] line", &e) == 0 && rtp_xev_parse("", &e) == 0 &&
	   rtp_xev_parse("  a-1 [000] d..2. 5.0: sched_switch: prev_comm=a", &e) == 0,
	   "garbage and truncated lines are refused");

	memset(&x, 0, sizeof(x));
	x.cpu = 1;
	x.tid = 600;
	x.release_ns = 100000500000ull;
	x.wake_ns = 100002010000ull;
	ret = rtp_tracecut_analyse(ev, (size_t)n, &x);
	ok(ret == 0 && x.covered, "the window is covered");
	ok(x.ncul >= 4 && x.cul[0].kind == RTP_CK_TASK && !strcmp(x.cul[0].name, "rtp-spin"), "rtp-spin first");
	is_u64(x.cul[0].ns, 1194000, "rtp-spin held 1194 us of the window (1500 less 306 of interrupts)");
	is_u64(x.cul[0].stretch_ns, 2000000, "its stretch: 2 ms from switch-in to switch-out");
	is_u64(x.cul[0].kprio, 0, "kernel prio 0 (FIFO 99)");
	c = find(&x, RTP_CK_SOFTIRQ, "NET_RX");
	ok(c && c->ns == 200000 && c->count == 1, "softirq NET_RX: 200 us, once");
	c = find(&x, RTP_CK_IRQ, "virtio0");
	ok(c && c->ns == 100000 && c->id == 24, "irq 24 virtio0: 100 us");
	c = find(&x, RTP_CK_VECTOR, "local_timer");
	ok(c && c->ns == 6000, "local_timer vector: 6 us");
	ok(x.have_wakeup && x.timer_late_ns == 3000, "timer fired late by 3 us (release to wake-up)");
	ok(x.have_switch && x.woken_late_ns == 1497000, "woken late by 1497 us (wake-up to switch)");
	ok(x.have_timer && x.timer_ns == 100000501000ull, "the hrtimer_wakeup expiry");
	ok(x.waker.kind == RTP_CK_VECTOR && !strcmp(x.waker.name, "local_timer"),
	   "woken by the local_timer vector (the wake-up inside it)");
	is_u64(x.self_ns, 10000, "the thread itself: 10 us");
	is_u64(x.accounted_ns, 1510000, "everything in the window accounted");
	x.cul[0].kprio = 0;
	snprintf(x.cul[0].policy, sizeof(x.cul[0].policy), "FIFO");
	x.cul[0].prio = 99;
	x.cul[0].kthread = 0;
	ok(!strcmp(rtp_culprit_label(&x.cul[0], buf, sizeof(buf)), "rtp-spin[500] (FIFO 99, user)"),
	   "label: %s", buf);
	test_kthread(&x);
	{
		struct rtp_tracecut y = x;
		size_t from = rtp_tracecut_from(ev, (size_t)n, x.release_ns);

		ok(from == 2 && !rtp_tracecut_analyse(ev + from, (size_t)n - from, &y) &&
		   y.ncul == x.ncul && y.cul[0].ns == 1194000 && y.cul[0].stretch_ns == 2000000 &&
		   y.accounted_ns == x.accounted_ns, "from the last switch before the release: the same cut (%zu)", from);
	}

	/* the trace starts after the release: not covered */
	x.release_ns = 99998000000ull;
	ret = rtp_tracecut_analyse(ev, (size_t)n, &x);
	ok(ret == -ENODATA && !x.covered && x.ncul == 0, "a window older than the trace: -ENODATA");

	/* no switch before the release: the task switched out first held the CPU */
	x.release_ns = 99999500000ull;
	ret = rtp_tracecut_analyse(ev + 2, (size_t)n - 2, &x);
	ok(ret == -ENODATA, "the first event after the release: not covered");
	x.release_ns = 100000600000ull;
	ret = rtp_tracecut_analyse(ev + 3, (size_t)n - 3, &x);
	ok(ret == 0 && x.ncul && !strcmp(x.cul[0].name, "rtp-spin") && x.cul[0].ns == 1100000,
	   "the task at the release learnt from its switch-out (%llu ns)",
	   (unsigned long long)(x.ncul ? x.cul[0].ns : 0));
	test_rt();
	test_untraced_vector(ev, n);
	return tap_done();
}
