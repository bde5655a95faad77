// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-irqlat: source choice, set-up, the run's supervision, the report. */
#include "irqlat_run.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver.h"
#include "gate.h"
#include "log.h"
#include "opt.h"
#include "result.h"
#include "rt.h"
#include "run.h"

#define TOOL "rtproof-irqlat"
#define TICK_NS 100000000ull
/*
 * The reader's stack: measured ("stack_peak_bytes" in the document,
 * tests/integration/scale-stack.t); the timerlat reader keeps an 8 KiB
 * line buffer on it.
 */
#define IRQLAT_STACK_BYTES (36 * 1024)

static enum irqlat_source choose(struct irqlat_run *r)
{
	int s;

	if (r->o.source != SRC_AUTO)
		return r->why[r->o.source][0] && r->o.source != SRC_USER ? SRC_AUTO : r->o.source;
	for (s = SRC_MODULE; s <= SRC_RTC; s++)
		if (!r->why[s][0])
			return (enum irqlat_source)s;
	return SRC_AUTO;
}

/* The thread that runs the source's handler (or timerlat's measuring thread). */
static void find_thread(struct irqlat_run *r)
{
	const char *rt = r->run->si.preempt;

	r->threading = irqlat_forced_threading(!strcmp(rt, "rt"), r->run->si.cmdline);
	switch (r->src) {
	case SRC_MODULE:
		irqlat_find_irq_thread("/proc", r->irq, RTP_IRQLAT_IRQ_NAME, &r->thr);
		r->thr_note = "runs the module's threaded handler (stage c)";
		break;
	case SRC_RTC:
		irqlat_find_irq_thread("/proc", -1, "rtc0", &r->thr);
		r->thr_note = "the RTC's IRQ thread: not on the path measured (the periodic "
			      "interrupts are emulated by an hrtimer)";
		break;
	case SRC_TIMERLAT: {
		char name[16];

		if (r->tl_user) {
			irqlat_timerlat_user_thread(r);
			r->thr_note = "the suite's timerlat_fd user thread, as rtla timerlat -u's "
				      "(its wake-up is thread_latency, its return to user space "
				      "user_return_latency)";
			break;
		}
		snprintf(name, sizeof(name), "%d", r->o.cpu >= 0 ? r->o.cpu : 0);
		r->thr_note = "timerlat's measuring thread (no IRQ thread on its path: its "
			      "timer interrupt is handled in hard-IRQ context)";
		{
			char comm[32];

			snprintf(comm, sizeof(comm), "timerlat/%s", name);
			irqlat_find_comm("/proc", comm, &r->thr);
		}
		break;
	}
	default:
		r->thr_note = "no IRQ thread is involved";
		break;
	}
	if (r->thr.ignored)
		rtp_warn("%d task%s named like the IRQ thread %s not a kernel thread (pid %d%s): ignored",
			 r->thr.ignored, r->thr.ignored == 1 ? "" : "s", r->thr.ignored == 1 ? "is" : "are",
			 r->thr.ignored_pid, r->thr.ignored > 1 ? " and more" : "");
}

static int set_irq_prio(struct irqlat_run *r)
{
	struct rtp_sched s = { .policy = SCHED_FIFO, .priority = r->o.irq_prio };
	int ret;

	if (!r->o.irq_prio)
		return 0;
	if (!r->thr.found) {
		char also[96] = "";

		if (r->thr.ignored)
			snprintf(also, sizeof(also), "; pid %d has the name but is not a kernel thread",
				 r->thr.ignored_pid);
		snprintf(r->err, sizeof(r->err), "--irq-prio %d: no IRQ thread for the %s source%s%s",
			 r->o.irq_prio, irqlat_source_name(r->src),
			 r->src == SRC_MODULE ? " (irq/N-rtproof not found)" : "", also);
		return -ENOENT;
	}
	if (r->thr.own) {
		/* created at --irq-prio: thr holds what it runs at, as read back */
		r->thr.prio_set = true;
		if (r->thr.policy == SCHED_FIFO && r->thr.priority == r->o.irq_prio)
			return 0;
		snprintf(r->err, sizeof(r->err), "--irq-prio %d: %s (pid %d) runs at %s %d",
			 r->o.irq_prio, r->thr.comm, r->thr.pid, rtp_policy_name(r->thr.policy),
			 r->thr.priority);
		return -EIO;
	}
	ret = rtp_sched_set(r->thr.pid, &s);
	if (ret) {
		snprintf(r->err, sizeof(r->err), "--irq-prio %d: cannot set %s (pid %d): %s",
			 r->o.irq_prio, r->thr.comm, r->thr.pid, strerror(-ret));
		return ret;
	}
	r->thr.prio_set = true;
	r->thr.policy = SCHED_FIFO;
	r->thr.priority = r->o.irq_prio;
	return 0;
}

static void restore_irq_prio(struct irqlat_run *r)
{
	struct rtp_sched s = { .policy = r->thr.orig_policy, .priority = r->thr.orig_priority };

	if (r->thr.prio_set && !r->thr.own && rtp_sched_set(r->thr.pid, &s))
		rtp_warn("could not restore %s (pid %d) to %s %d", r->thr.comm, r->thr.pid,
			 rtp_policy_name(r->thr.orig_policy), r->thr.orig_priority);
}

static const char *sched_name(int policy)
{
	switch (policy) {
	case SCHED_FIFO:
		return "SCHED_FIFO";
	case SCHED_RR:
		return "SCHED_RR";
	case SCHED_OTHER:
		return "SCHED_OTHER";
	default:
		return rtp_policy_name(policy);
	}
}

static void fmt_us(char *buf, size_t len, uint64_t ns, bool up)
{
	if (up)
		snprintf(buf, len, "%.1f", ceil((double)ns / 100.0) / 10.0);
	else
		snprintf(buf, len, "%.1f", floor((double)ns / 100.0) / 10.0);
}

static const char *stage_span(enum irqlat_source s, enum irqlat_stage st)
{
	static const char *const mod[ST_N] = { "a->b", "b->c", "c->d", "a->d", "a->entry" };

	if (s == SRC_MODULE)
		return mod[st];
	if (s == SRC_TIMERLAT)
		return st == ST_IRQ ? "expiry->irq" : st == ST_USER ? "expiry->user" : "expiry->thread";
	if (s == SRC_RTC)
		return "|interval-period|";
	return "release->wake";
}

static void osnoise_summary(const struct irqlat_run *r);

static void irqlat_summary(struct rtp_run *run, const struct rtp_verdict *v)
{
	const struct irqlat_run *r = run->b;
	double secs = r->run->duration_s;
	static const double p[3] = { 50, 99, 99.9 };
	int st, i;

	(void)v;

	printf("\n%s: source %s, interval %llu us, %.3f s, %llu events, stopped by %s%s\n", TOOL,
	       irqlat_source_name(r->src), (unsigned long long)(r->o.interval_ns / 1000), secs,
	       (unsigned long long)r->st.records, r->run->stopped_by, r->run->stop_detail);
	printf("  measures: %s\n", irqlat_source_label(r->src));
	printf("kernel %s (preempt %s), IRQ threading %s%s\n", r->run->si.kernel_release, r->run->si.preempt,
	       r->threading, r->run->si.virtualized ? ", virtualized" : "");
	if (r->thr.found)
		printf("thread %s (pid %d): %s %d%s; %s\n", r->thr.comm, r->thr.pid,
		       sched_name(r->thr.policy), r->thr.priority,
		       r->thr.prio_set ? " (set by --irq-prio)" : "", r->thr_note);
	else if (r->src == SRC_MODULE || r->src == SRC_RTC)
		printf("thread: none found (%s)\n", r->thr_note);
	printf("%-20s %-17s %10s %9s %9s %9s %9s %9s\n", "stage", "span", "count", "min", "p50",
	       "p99", "p99.9", "max");
	printf("%-20s %-17s %10s %9s %9s %9s %9s %9s\n", "", "", "", "us", "us", "us", "us", "us");
	for (st = 0; st < ST_N; st++) {
		const char *name = irqlat_metric_name(r->src, (enum irqlat_stage)st);
		const struct rtp_hist *h = &r->st.h[st];
		char f[5][24];

		if (!name)
			continue;
		if (!h->count) {
			printf("%-20s %-17s %10s  (no samples)\n", name, stage_span(r->src, st), "0");
			continue;
		}
		fmt_us(f[0], sizeof(f[0]), h->min, false);
		for (i = 0; i < 3; i++)
			fmt_us(f[1 + i], sizeof(f[1 + i]), rtp_hist_percentile(h, p[i]), true);
		fmt_us(f[4], sizeof(f[4]), h->max, true);
		printf("%-20s %-17s %10llu %9s %9s %9s %9s %9s\n", name, stage_span(r->src, st),
		       (unsigned long long)h->count, f[0], f[1], f[2], f[3], f[4]);
	}
	if (irqlat_sources[r->src]->summary)
		irqlat_sources[r->src]->summary(r);
	osnoise_summary(r);
}

static void json_thread(struct rtp_json *j, const struct irqlat_run *r)
{
	rtp_json_begin_object(j, "irq_thread");
	rtp_json_bool(j, "found", r->thr.found);
	if (r->thr.found) {
		rtp_json_string(j, "name", r->thr.comm);
		rtp_json_int(j, "pid", r->thr.pid);
		rtp_json_string(j, "policy", rtp_policy_name(r->thr.policy));
		rtp_json_int(j, "priority", r->thr.priority);
		rtp_json_bool(j, "priority_set", r->thr.prio_set);
		if (r->thr.prio_set) {
			rtp_json_string(j, "original_policy", rtp_policy_name(r->thr.orig_policy));
			rtp_json_int(j, "original_priority", r->thr.orig_priority);
		}
	}
	rtp_json_string(j, "note", r->thr_note ? r->thr_note : "");
	rtp_json_string(j, "threading", r->threading ? r->threading : "unknown");
	if (r->src == SRC_MODULE && r->st.any) {
		rtp_json_bool(j, "primary_in_hardirq", r->st.flags_and & RTP_IRQLAT_F_PRIMARY_HARDIRQ);
		rtp_json_bool(j, "timer_in_hardirq", r->st.flags_and & RTP_IRQLAT_F_TIMER_HARDIRQ);
		rtp_json_bool(j, "handler_in_kthread", r->st.flags_and & RTP_IRQLAT_F_THREAD_KTHREAD);
		rtp_json_int(j, "handler_pid", r->st.thread_pid);
	}
	rtp_json_end_object(j);
}

static void json_sources(struct rtp_json *j, const struct irqlat_run *r)
{
	int s;

	rtp_json_begin_object(j, "sources");
	for (s = 0; s < SRC_N; s++)
		rtp_json_string(j, irqlat_source_name((enum irqlat_source)s),
				r->why[s][0] && s != SRC_USER ? r->why[s] : "available");
	rtp_json_end_object(j);
}

static void irqlat_json_params(struct rtp_run *run, struct rtp_json *j)
{
	struct irqlat_run *r = run->b;
	const struct irqlat_opts *o = &r->o;

	rtp_json_string(j, "source", irqlat_source_name(r->src));
	rtp_json_string(j, "source_requested", o->source == SRC_AUTO ? "auto" : irqlat_source_name(o->source));
	rtp_json_string(j, "measures", irqlat_source_label(r->src));
	rtp_json_bool(j, "irq_latency", r->src != SRC_USER);
	rtp_json_double(j, "interval_us", (double)o->interval_ns / 1e3);
	if (o->co.duration_ns)
		rtp_json_double(j, "duration_s", (double)o->co.duration_ns / 1e9);
	else
		rtp_json_null(j, "duration_s");
	rtp_json_uint(j, "loops", o->co.loops);
	rtp_json_string(j, "reader_policy", o->priority ? "fifo" : "other");
	rtp_json_int(j, "reader_priority", o->priority);
	if (o->cpu >= 0)
		rtp_json_int(j, "cpu", o->cpu);
	else
		rtp_json_null(j, "cpu");
	rtp_json_double(j, "delay_us", (double)o->delay_ns / 1e3);
	rtp_json_bool(j, "delay_set", o->delay_set);
	rtp_json_string(j, "clock", "CLOCK_MONOTONIC");
	rtp_json_bool(j, "mlockall", run->mlocked);
	rtp_json_double(j, "max_latency_us", (double)o->co.max_latency_ns / 1e3);
	if (irqlat_sources[r->src]->json_params)
		irqlat_sources[r->src]->json_params(r, j);
	json_thread(j, r);
	json_sources(j, r);
}

static void irqlat_json_metrics(struct rtp_run *run, struct rtp_json *j)
{
	struct irqlat_run *r = run->b;
	const struct irqlat_opts *o = &r->o;
	int st;

	for (st = 0; st < ST_N; st++) {
		const char *name = irqlat_metric_name(r->src, (enum irqlat_stage)st);

		if (!name)
			continue;
		if (r->src == SRC_TIMERLAT && st == ST_USER && !r->st.h[st].count)
			continue;	/* not offered: said in params */
		rtp_json_begin_object(j, NULL);
		rtp_json_string(j, "name", name);
		rtp_json_string(j, "unit", "ns");
		rtp_json_string(j, "span", stage_span(r->src, st));
		if (o->cpu >= 0)
			rtp_json_int(j, "cpu", o->cpu);
		else if (r->src == SRC_MODULE)
			rtp_json_int(j, "cpu", (int)r->mod_start.cpu);
		else
			rtp_json_string(j, "cpu", "all");	/* not pinned: any CPU's samples */
		rtp_json_int(j, "thread", 0);
		rtp_json_hist(j, &r->st.h[st], true);
		rtp_json_end_object(j);
	}
}

/* Why no noise was recorded ("" when it was). */
static const char *osnoise_why(const struct irqlat_run *r)
{
	if (r->osn_on)
		return "";
	if (!r->o.osnoise)
		return "not asked for (--osnoise, with the timerlat source)";
	if (r->src != SRC_TIMERLAT && r->why[SRC_TIMERLAT][0]) {
		static char buf[400];	/* the summary and the document, one thread */

		snprintf(buf, sizeof(buf), "not available: the osnoise events come with the "
			 "timerlat tracer, and here timerlat: %s", r->why[SRC_TIMERLAT]);
		return buf;
	}
	if (r->src != SRC_TIMERLAT)
		return "not available with this source: the osnoise events come with the timerlat "
		       "tracer (--source timerlat)";
	return r->osn_why[0] ? r->osn_why : "not available";
}

/*
 * "osnoise": per-CPU interference beside the latencies, from the osnoise
 * tracer's noise events during the timerlat run; or why there is none.
 */
static void irqlat_json_extra(struct rtp_run *run, struct rtp_json *j)
{
	struct irqlat_run *r = run->b;
	int c, k;

	rtp_json_begin_object(j, "osnoise");
	rtp_json_bool(j, "recorded", r->osn_on);
	if (!r->osn_on) {
		rtp_json_string(j, "reason", osnoise_why(r));
		rtp_json_end_object(j);
		return;
	}
	rtp_json_string(j, "source", "the osnoise tracer's trace events nmi_noise, irq_noise, "
			"softirq_noise and thread_noise, emitted by the timerlat tracer's hooks during "
			"the run");
	rtp_json_string(j, "note", "every interference on the CPU, the tracer's own interrupts "
			"(local_timer, irq_work) included; hardware noise needs the osnoise tracer's "
			"workload and is not counted here");
	rtp_json_double(j, "window_s", run->duration_s);
	rtp_json_uint(j, "events_of_cpus_not_listed", r->osn_other_cpus);
	rtp_json_begin_array(j, "cpus");
	for (c = 0; c < IRQLAT_NOISE_CPUS; c++) {
		const struct irqlat_noise *n = &r->osn[c];
		uint64_t tot = 0, mx = 0, cnt = 0;
		int km = -1;

		for (k = 0; k < NOISE_N; k++) {
			tot += n->total_ns[k];
			cnt += n->count[k];
			if (n->count[k] && (km < 0 || n->max_ns[k] > mx)) {
				mx = n->max_ns[k];
				km = k;
			}
		}
		if (!cnt && c != (r->o.cpu >= 0 ? r->o.cpu : 0))
			continue;	/* a CPU the tracer did not measure */
		rtp_json_begin_object(j, NULL);
		rtp_json_int(j, "cpu", c);
		rtp_json_uint(j, "noise_ns", tot);
		rtp_json_uint(j, "max_single_ns", mx);
		if (km >= 0) {
			rtp_json_string(j, "max_single_kind", irqlat_noise_names[km]);
			rtp_json_string(j, "max_single_what", n->max_what[km]);
		}
		for (k = 0; k < NOISE_N; k++) {
			rtp_json_begin_object(j, irqlat_noise_names[k]);
			rtp_json_uint(j, "count", n->count[k]);
			rtp_json_uint(j, "total_ns", n->total_ns[k]);
			rtp_json_uint(j, "max_ns", n->max_ns[k]);
			rtp_json_end_object(j);
		}
		rtp_json_end_object(j);
	}
	rtp_json_end_array(j);
	rtp_json_end_object(j);
}

static void osnoise_summary(const struct irqlat_run *r)
{
	int c, k;

	if (!r->osn_on) {
		if (r->o.osnoise)
			printf("osnoise: %s\n", osnoise_why(r));
		return;
	}
	printf("osnoise (noise events during the run, per CPU; us):\n");
	printf("  %-4s %12s %12s %16s %16s %16s %16s\n", "cpu", "noise us", "max single",
	       "nmi n/max us", "irq n/max us", "softirq n/max us", "thread n/max us");
	for (c = 0; c < IRQLAT_NOISE_CPUS; c++) {
		const struct irqlat_noise *n = &r->osn[c];
		uint64_t tot = 0, mx = 0, cnt = 0;
		char f[NOISE_N][32];

		for (k = 0; k < NOISE_N; k++) {
			tot += n->total_ns[k];
			cnt += n->count[k];
			mx = n->max_ns[k] > mx ? n->max_ns[k] : mx;
			snprintf(f[k], sizeof(f[k]), "%llu/%.1f", (unsigned long long)n->count[k],
				 ceil((double)n->max_ns[k] / 100.0) / 10.0);
		}
		if (!cnt && c != (r->o.cpu >= 0 ? r->o.cpu : 0))
			continue;
		printf("  %-4d %12.1f %12.1f %16s %16s %16s %16s\n", c, ceil((double)tot / 100.0) / 10.0,
		       ceil((double)mx / 100.0) / 10.0, f[0], f[1], f[2], f[3]);
	}
}

static void irqlat_json_events(struct rtp_run *run, struct rtp_json *j)
{
	struct irqlat_run *r = run->b;

	rtp_json_uint(j, "records", r->st.records);
	irqlat_sources[r->src]->json_events(r, j);
}

static void irqlat_decide(struct rtp_run *run, struct rtp_verdict *v)
{
	struct irqlat_run *r = run->b;

	const struct rtp_hist *head = &r->st.h[ST_TOTAL];
	const char *hname = irqlat_metric_name(r->src, ST_TOTAL);

	memset(v, 0, sizeof(*v));
	v->status = RTP_PASS;
	if (r->reader_err) {
		v->status = RTP_ERROR;
		snprintf(v->reason, sizeof(v->reason), "the reader could not %s: %s",
			 r->reader_err_what, strerror(-r->reader_err));
		return;
	}
	if (!r->st.records) {
		v->status = RTP_ERROR;
		snprintf(v->reason, sizeof(v->reason), "no events arrived (stopped by %s)", run->stopped_by);
		return;
	}
	if (r->src == SRC_MODULE)
		rtp_verdict_check(v, "unordered records (a<=b<=c<=d)", "==", 0, (double)r->st.unordered,
				  "records");
	if (r->o.co.max_latency_ns) {
		char name[64];

		snprintf(name, sizeof(name), "max %s", hname);
		rtp_verdict_check(v, name, "<=", (double)r->o.co.max_latency_ns / 1e3,
				  (double)head->max / 1e3, "us");
	}
	if (v->status == RTP_FAIL && r->st.unordered)
		snprintf(v->reason, sizeof(v->reason), "%llu records with stages out of order",
			 (unsigned long long)r->st.unordered);
	else if (v->status == RTP_FAIL)
		snprintf(v->reason, sizeof(v->reason), "max %s %.1f us exceeds the budget of %.1f us",
			 hname, (double)head->max / 1e3, (double)r->o.co.max_latency_ns / 1e3);
	else if (r->o.co.max_latency_ns)
		snprintf(v->reason, sizeof(v->reason), "max %s %.1f us within the budget of %.1f us",
			 hname, (double)head->max / 1e3, (double)r->o.co.max_latency_ns / 1e3);
	else {
		snprintf(v->reason, sizeof(v->reason),
			 "no latency budget given (--max-latency): max %s %.1f us, judged against nothing",
			 hname, (double)head->max / 1e3);
		rtp_verdict_figures_only(v);
	}
}

static void irqlat_skip_params(struct rtp_run *run, struct rtp_json *j)
{
	const struct irqlat_run *r = run->b;

	rtp_json_string(j, "source", "none");
	rtp_json_string(j, "source_requested",
			r->o.source == SRC_AUTO ? "auto" : irqlat_source_name(r->o.source));
	json_sources(j, r);
}

/* No source can run: each one's reason, then the skip. */
static int irqlat_pick(struct rtp_run *run, char *why, size_t len)
{
	struct irqlat_run *r = run->b;
	int s;

	r->run = run;
	r->fd = -1;
	irqlat_stats_init(&r->st);
	irqlat_probe(r);
	r->src = choose(r);
	if (r->src != SRC_AUTO)
		return 0;
	if (r->o.source != SRC_AUTO) {
		snprintf(why, len, "%s: %s", irqlat_source_name(r->o.source), r->why[r->o.source]);
		rtp_error("cannot measure here: %s", why);
		return RTP_EXIT_SKIP;
	}
	rtp_error("cannot measure here: no IRQ latency source can run");
	for (s = 0; s < SRC_N; s++)
		fprintf(stderr, "  %s: %s\n", irqlat_source_name((enum irqlat_source)s), r->why[s]);
	snprintf(why, len, "no IRQ latency source: module: %s; timerlat: %s; rtc: %s",
		 r->why[SRC_MODULE], r->why[SRC_TIMERLAT], r->why[SRC_RTC]);
	return RTP_EXIT_SKIP;
}

static int setup_source(struct irqlat_run *r)
{
	return irqlat_sources[r->src]->setup ? irqlat_sources[r->src]->setup(r) : 0;
}

static void teardown_source(struct irqlat_run *r)
{
	if (irqlat_sources[r->src]->teardown)
		irqlat_sources[r->src]->teardown(r);
}

static pthread_t irqlat_thread_of(void *arg, int i)
{
	(void)i;
	return ((struct irqlat_run *)arg)->reader_th;
}

static bool irqlat_done_of(void *arg, int i)
{
	(void)i;
	return __atomic_load_n(&((struct irqlat_run *)arg)->reader_done, __ATOMIC_ACQUIRE);
}

/* The source's reader, then a wake-up for the supervise loop. */
static void *reader(void *arg)
{
	struct irqlat_run *r = arg;

	irqlat_reader_main(r);
	rtp_run_wake(r->run);
	return NULL;
}

static const char *irqlat_watch(struct rtp_run *run, void *arg, uint64_t now, uint64_t *next)
{
	struct irqlat_run *r = arg;

	(void)run;
	(void)now;
	(void)next;
	if (__atomic_load_n(&r->reader_done, __ATOMIC_ACQUIRE))
		return r->reader_err ? "error" : "loops";
	return NULL;
}

static int irqlat_rt_prio(struct rtp_run *run)
{
	return ((struct irqlat_run *)run->b)->o.priority;
}

static int irqlat_setup(struct rtp_run *run, char *why, size_t len)
{
	struct irqlat_run *r = run->b;

	(void)why;
	(void)len;
	if (r->o.delay_set && r->src != SRC_MODULE) {
		rtp_error("--delay: only the module source can plant a delay (chosen: %s)",
			  irqlat_source_name(r->src));
		return RTP_EXIT_ERROR;
	}
	return 0;
}

/*
 * The source itself is set up once memory is locked (the driver's mlockall
 * comes after setup()): the module's timer starts with the open, and
 * events with no reader waiting yet would lose their user stage.
 */
static int irqlat_source_start(struct irqlat_run *r)
{
	r->set_up = true;
	if (setup_source(r)) {
		rtp_error("%s", r->err);
		return RTP_EXIT_ERROR;
	}
	find_thread(r);
	r->prio_set = true;
	if (set_irq_prio(r)) {
		rtp_error("%s", r->err);
		return RTP_EXIT_ERROR;
	}
	return 0;
}

static void irqlat_teardown(struct rtp_run *run)
{
	struct irqlat_run *r = run->b;

	if (r->prio_set)
		restore_irq_prio(r);
	r->prio_set = false;
	if (r->set_up)
		teardown_source(r);
	r->set_up = false;
}

static int irqlat_reader(struct rtp_run *run)
{
	struct irqlat_run *r = run->b;
	struct rtp_watch w = { .check = irqlat_watch, .arg = r };
	pthread_attr_t attr;
	int ret;

	ret = irqlat_source_start(r);
	if (ret)
		return ret;
	if (!r->o.co.quiet)
		printf("%s: source %s: %s\n", TOOL, irqlat_source_name(r->src), irqlat_source_label(r->src));
	fflush(stdout);
	rtp_run_interrupt_signal(SIGUSR1);	/* a blocked read returns EINTR */
	/* its own small stack: mlockall(MCL_FUTURE) locks all of it */
	ret = -rtp_stack_alloc(&r->reader_stack, IRQLAT_STACK_BYTES);
	pthread_attr_init(&attr);
	if (!ret)
		ret = -rtp_stack_attr(&r->reader_stack, &attr);
	r->start_ns = rtp_now_ns(CLOCK_MONOTONIC);
	if (!ret)
		ret = pthread_create(&r->reader_th, &attr, reader, r);
	pthread_attr_destroy(&attr);
	if (ret) {
		rtp_gate_create_error(NULL, "the reader thread", -ret);
		rtp_stack_free(&r->reader_stack);
		return RTP_EXIT_ERROR;
	}
	if (r->o.co.duration_ns)
		w.deadline_ns = r->start_ns + r->o.co.duration_ns;
	rtp_run_supervise(run, &w);
	__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
	rtp_run_stop_threads(run, 1, SIGUSR1, irqlat_thread_of, irqlat_done_of, r);
	pthread_join(r->reader_th, NULL);
	r->reader_stack_peak = rtp_stack_peak(&r->reader_stack);
	rtp_stack_free(&r->reader_stack);
	r->end_ns = rtp_now_ns(CLOCK_MONOTONIC);
	run->duration_s = (double)(r->end_ns - r->start_ns) / 1e9;
	irqlat_teardown(run);
	return 0;
}

/*
 * --explain: the reader's CPU (and the module's timer CPU); unpinned, all
 * it may use.  The timerlat source is the kernel's own thread: rtla
 * timerlat -a explains that one.
 */
static const char *irqlat_explain_cpus(struct rtp_run *run, cpu_set_t *set)
{
	struct irqlat_run *r = run->b;

	if (r->src == SRC_TIMERLAT)
		return "the timerlat source measures the kernel's own thread and hands over no "
		       "release times (rtla timerlat -a explains that one)";
	if (r->src == SRC_RTC)
		return "the rtc source hands over no release times to explain from";
	if (r->o.cpu >= 0)
		CPU_SET(r->o.cpu, set);
	else if (sched_getaffinity(0, sizeof(*set), set))
		CPU_ZERO(set);
	return NULL;
}

/* --explain: the p50 of the total (a->d), the only figure it notes */
static uint64_t irqlat_explain_base(struct rtp_run *run, int tid, const char *what)
{
	struct irqlat_run *r = run->b;

	(void)tid;
	(void)what;
	return rtp_hist_percentile(&r->st.h[ST_TOTAL], 50);
}

static void irqlat_json_resources(struct rtp_run *run, struct rtp_json *j)
{
	struct irqlat_run *r = run->b;

	rtp_json_uint(j, "hist_bytes_per_thread", sizeof(struct rtp_hist) * ST_N);
	rtp_json_uint(j, "stack_bytes_per_thread", IRQLAT_STACK_BYTES);
	rtp_json_uint(j, "stack_peak_bytes", r->reader_stack_peak);
}

const struct rtp_bench_ops irqlat_ops = {
	.tool = TOOL,
	.duration_help = "10 s, or until the loops with -l",
	RTP_BENCH_OPTIONS(irqlat, struct irqlat_run, struct irqlat_opts),
	.takes = RTP_TAKES_LOOPS | RTP_TAKES_MAXLAT,
	.probe = irqlat_pick,
	.rt_prio = irqlat_rt_prio,
	.setup = irqlat_setup,
	.run = irqlat_reader,
	.decide = irqlat_decide,
	.summary = irqlat_summary,
	.teardown = irqlat_teardown,
	.params = irqlat_json_params,
	.skip_params = irqlat_skip_params,
	.metrics = irqlat_json_metrics,
	.events = irqlat_json_events,
	.extra = irqlat_json_extra,
	.explain_cpus = irqlat_explain_cpus,
	.explain_base = irqlat_explain_base,
	.resources = irqlat_json_resources,
};

/* The options alone (the unit and fuzz tests): the ops table's parse and check. */
int irqlat_parse(struct irqlat_opts *o, int argc, char **argv)
{
	return rtp_run_parse(&irqlat_ops, o, argc, argv);
}

int irqlat_main(int argc, char **argv)
{
	return rtp_run_tool(&irqlat_ops, argc, argv);
}
