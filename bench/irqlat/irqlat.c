// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-irqlat: source choice, set-up, the run's supervision, the report. */
#include "irqlat_run.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "opt.h"
#include "result.h"
#include "rt.h"
#include "run.h"

#define TOOL "rtproof-irqlat"
#define TICK_NS 100000000ull
#define THREAD_STACK (256 * 1024)

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
	const char *rt = r->si.preempt;

	r->threading = irqlat_forced_threading(!strcmp(rt, "rt"), r->si.cmdline);
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
}

static int set_irq_prio(struct irqlat_run *r)
{
	struct rtp_sched s = { .policy = SCHED_FIFO, .priority = r->o.irq_prio };
	int ret;

	if (!r->o.irq_prio)
		return 0;
	if (!r->thr.found) {
		snprintf(r->err, sizeof(r->err), "--irq-prio %d: no IRQ thread for the %s source%s",
			 r->o.irq_prio, irqlat_source_name(r->src),
			 r->src == SRC_MODULE ? " (irq/N-rtproof not found)" : "");
		return -ENOENT;
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

	if (r->thr.prio_set && rtp_sched_set(r->thr.pid, &s))
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

static void summary(const struct irqlat_run *r, double secs)
{
	static const double p[3] = { 50, 99, 99.9 };
	int st, i;

	printf("\n%s: source %s, interval %llu us, %.3f s, %llu events, stopped by %s%s\n", TOOL,
	       irqlat_source_name(r->src), (unsigned long long)(r->o.interval_ns / 1000), secs,
	       (unsigned long long)r->st.records, r->stopped_by, r->stop_detail);
	printf("  measures: %s\n", irqlat_source_label(r->src));
	printf("kernel %s (preempt %s), IRQ threading %s%s\n", r->si.kernel_release, r->si.preempt,
	       r->threading, r->si.virtualized ? ", virtualized" : "");
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
	if (r->src == SRC_MODULE) {
		const struct rtp_irqlat_info *e = &r->mod_end;

		printf("events: fired %llu, delivered %llu, dropped (queue full) %llu, busy (line "
		       "still masked) %llu, timer overruns %llu, unordered %llu, reader not waiting %llu\n",
		       (unsigned long long)e->fired, (unsigned long long)e->delivered,
		       (unsigned long long)e->dropped, (unsigned long long)e->busy,
		       (unsigned long long)e->overruns, (unsigned long long)r->st.unordered,
		       (unsigned long long)r->st.reader_not_waiting);
		if (r->o.delay_set)
			printf("planted primary-handler delay: %llu us\n",
			       (unsigned long long)(r->o.delay_ns / 1000));
		if (r->mod_hold_us)
			printf("the module's hold_us is %llu us: the thread sleeps that long with the "
			       "line masked after each event (a truth test, not a normal run)\n",
			       (unsigned long long)r->mod_hold_us);
	} else if (r->src == SRC_TIMERLAT) {
		if (r->tl_user_err)
			printf("user-return latency: the timerlat_fd threads failed: %s\n",
			       strerror(-r->tl_user_err));
		else if (r->tl_user)
			printf("user-return latency: measured with user-space threads on timerlat_fd "
			       "(as rtla timerlat -u); thread_latency is their wake-up\n");
		else
			printf("user-return latency: %s\n", r->tl_user_offered ?
			       "the kernel offers timerlat_fd but osnoise/options could not be set" :
			       "not offered by this kernel (no osnoise/per_cpu/cpuN/timerlat_fd: "
			       "needs Linux 6.8 or later)");
	} else if (r->src == SRC_RTC) {
		printf("rtc: %lu Hz; interrupts missed by the reader %llu\n", r->rtc_hz,
		       (unsigned long long)r->rtc_missed);
	}
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

static void write_json(struct irqlat_run *r, struct rtp_result *res)
{
	struct rtp_json *j = &res->json;
	const struct irqlat_opts *o = &r->o;
	int st;

	rtp_json_begin_object(j, "params");
	rtp_json_string(j, "source", irqlat_source_name(r->src));
	rtp_json_string(j, "source_requested", o->source == SRC_AUTO ? "auto" : irqlat_source_name(o->source));
	rtp_json_string(j, "measures", irqlat_source_label(r->src));
	rtp_json_bool(j, "irq_latency", r->src != SRC_USER);
	rtp_json_double(j, "interval_us", (double)o->interval_ns / 1e3);
	if (o->duration_ns)
		rtp_json_double(j, "duration_s", (double)o->duration_ns / 1e9);
	else
		rtp_json_null(j, "duration_s");
	rtp_json_uint(j, "loops", o->loops);
	rtp_json_string(j, "reader_policy", o->priority ? "fifo" : "other");
	rtp_json_int(j, "reader_priority", o->priority);
	if (o->cpu >= 0)
		rtp_json_int(j, "cpu", o->cpu);
	else
		rtp_json_null(j, "cpu");
	rtp_json_double(j, "delay_us", (double)o->delay_ns / 1e3);
	rtp_json_bool(j, "delay_set", o->delay_set);
	rtp_json_string(j, "clock", "CLOCK_MONOTONIC");
	rtp_json_bool(j, "mlockall", r->mlocked);
	rtp_json_double(j, "max_latency_us", (double)o->max_latency_ns / 1e3);
	if (r->src == SRC_MODULE) {
		rtp_json_begin_object(j, "module");
		rtp_json_string(j, "device", o->device);
		rtp_json_uint(j, "abi", r->mod_start.abi);
		rtp_json_uint(j, "irq", r->mod_start.irq);
		rtp_json_uint(j, "period_ns", r->mod_start.period_ns);
		rtp_json_uint(j, "queue_len", r->mod_start.queue_len);
		rtp_json_uint(j, "timer_cpu", r->mod_start.cpu);
		rtp_json_bool(j, "kernel_forces_threading", r->mod_start.force_threading);
		rtp_json_uint(j, "hold_us", r->mod_hold_us);
		rtp_json_end_object(j);
	}
	if (r->src == SRC_TIMERLAT) {
		rtp_json_string(j, "tracefs", r->tracefs);
		rtp_json_bool(j, "user_return_offered", r->tl_user_offered);
		rtp_json_string(j, "workload", r->tl_user ? "user threads (timerlat_fd)" :
					       "kernel threads (timerlat/N)");
		if (r->tl_user)
			rtp_json_string(j, "user_threads", "one per CPU, pinned, SCHED_FIFO 95");
		if (r->tl_user_err)
			rtp_json_string(j, "user_return_error", strerror(-r->tl_user_err));
	}
	if (r->src == SRC_RTC) {
		rtp_json_string(j, "rtc", o->rtc);
		rtp_json_uint(j, "rtc_hz", r->rtc_hz);
	}
	json_thread(j, r);
	json_sources(j, r);
	rtp_json_end_object(j);

	rtp_json_begin_object(j, "load");
	rtp_json_string(j, "name", "unspecified");
	rtp_json_end_object(j);

	rtp_json_begin_array(j, "metrics");
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
	rtp_json_end_array(j);

	rtp_json_begin_object(j, "events");
	rtp_json_uint(j, "records", r->st.records);
	rtp_json_string(j, "stopped_by", r->stopped_by);
	if (r->src == SRC_MODULE) {
		const struct rtp_irqlat_info *e = &r->mod_end;

		rtp_json_uint(j, "fired", e->fired);
		rtp_json_uint(j, "delivered", e->delivered);
		rtp_json_uint(j, "dropped", e->dropped);
		rtp_json_uint(j, "busy", e->busy);
		rtp_json_uint(j, "overruns", e->overruns);
		rtp_json_uint(j, "seq_gaps", r->st.seq_gaps);
		rtp_json_uint(j, "unordered", r->st.unordered);
		rtp_json_uint(j, "reader_not_waiting", r->st.reader_not_waiting);
		rtp_json_uint(j, "undelivered_at_stop",
			      e->fired >= e->delivered + e->dropped ? e->fired - e->delivered - e->dropped : 0);
	} else if (r->src == SRC_TIMERLAT) {
		rtp_json_uint(j, "irq_samples", r->st.h[ST_IRQ].count);
		rtp_json_uint(j, "thread_samples", r->st.h[ST_TOTAL].count);
		rtp_json_uint(j, "lost_lines", r->tl_lost_lines);
	} else if (r->src == SRC_RTC) {
		rtp_json_uint(j, "missed", r->rtc_missed);
		rtp_json_uint(j, "drained_at_start", r->rtc_drained);
	} else {
		rtp_json_uint(j, "missed", r->user_missed);
	}
	rtp_json_end_object(j);
}

static void decide(struct irqlat_run *r, struct rtp_verdict *v)
{
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
		snprintf(v->reason, sizeof(v->reason), "no events arrived (stopped by %s)", r->stopped_by);
		return;
	}
	if (r->src == SRC_MODULE)
		rtp_verdict_check(v, "unordered records (a<=b<=c<=d)", "==", 0, (double)r->st.unordered,
				  "records");
	if (r->o.max_latency_ns) {
		char name[64];

		snprintf(name, sizeof(name), "max %s", hname);
		rtp_verdict_check(v, name, "<=", (double)r->o.max_latency_ns / 1e3,
				  (double)head->max / 1e3, "us");
	}
	if (v->status == RTP_FAIL && r->st.unordered)
		snprintf(v->reason, sizeof(v->reason), "%llu records with stages out of order",
			 (unsigned long long)r->st.unordered);
	else if (v->status == RTP_FAIL)
		snprintf(v->reason, sizeof(v->reason), "max %s %.1f us exceeds the budget of %.1f us",
			 hname, (double)head->max / 1e3, (double)r->o.max_latency_ns / 1e3);
	else if (r->o.max_latency_ns)
		snprintf(v->reason, sizeof(v->reason), "max %s %.1f us within the budget of %.1f us",
			 hname, (double)head->max / 1e3, (double)r->o.max_latency_ns / 1e3);
	else
		snprintf(v->reason, sizeof(v->reason), "no latency budget given (--max-latency): figures only");
}

static void skip_params(struct rtp_json *j, const void *arg)
{
	const struct irqlat_run *r = arg;

	rtp_json_string(j, "source", "none");
	rtp_json_string(j, "source_requested",
			r->o.source == SRC_AUTO ? "auto" : irqlat_source_name(r->o.source));
	json_sources(j, r);
}

static int skip(struct irqlat_run *r, struct rtp_result *res, bool have_json, int argc,
		char **argv, const char *why)
{
	if (!have_json)
		return RTP_EXIT_SKIP;
	return rtp_result_skip(res, TOOL, argc, argv, &r->si, &r->wall_start, why, skip_params, r);
}

static int no_source(struct irqlat_run *r, struct rtp_result *res, bool have_json, int argc,
		     char **argv)
{
	char why[512];
	int s;

	if (r->o.source != SRC_AUTO) {
		snprintf(why, sizeof(why), "%s: %s", irqlat_source_name(r->o.source), r->why[r->o.source]);
		rtp_error("cannot measure here: %s", why);
		return skip(r, res, have_json, argc, argv, why);
	}
	rtp_error("cannot measure here: no IRQ latency source can run");
	for (s = 0; s < SRC_N; s++)
		fprintf(stderr, "  %s: %s\n", irqlat_source_name((enum irqlat_source)s), r->why[s]);
	snprintf(why, sizeof(why), "no IRQ latency source: module: %s; timerlat: %s; rtc: %s",
		 r->why[SRC_MODULE], r->why[SRC_TIMERLAT], r->why[SRC_RTC]);
	return skip(r, res, have_json, argc, argv, why);
}

static int setup_source(struct irqlat_run *r)
{
	switch (r->src) {
	case SRC_MODULE:
		return irqlat_module_setup(r);
	case SRC_TIMERLAT:
		return irqlat_timerlat_setup(r);
	case SRC_RTC:
		return irqlat_rtc_setup(r);
	default:
		return 0;
	}
}

static void teardown_source(struct irqlat_run *r)
{
	switch (r->src) {
	case SRC_MODULE:
		irqlat_module_teardown(r);
		break;
	case SRC_TIMERLAT:
		irqlat_timerlat_teardown(r);
		break;
	case SRC_RTC:
		irqlat_rtc_teardown(r);
		break;
	default:
		break;
	}
}

static void noop_handler(int sig)
{
	(void)sig;
}

/* Tells the reader to stop and knocks it out of a blocking read or sleep. */
static void stop_reader(struct irqlat_run *r, pthread_t th)
{
	int i;

	__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&r->reader_done, __ATOMIC_ACQUIRE)) {
		struct timespec ts = { 0, 1000000 };

		pthread_kill(th, SIGUSR1);
		for (i = 0; i < 100 && !__atomic_load_n(&r->reader_done, __ATOMIC_ACQUIRE); i++)
			nanosleep(&ts, NULL);
	}
	pthread_join(th, NULL);
}

int irqlat_main(int argc, char **argv)
{
	struct rtp_result res;
	struct irqlat_run *r;
	struct rtp_verdict v;
	pthread_attr_t attr;
	struct sigaction sa;
	pthread_t th;
	bool have_json = false;
	char why[512];
	sigset_t sigs;
	uint64_t deadline = 0;
	int ret, code = RTP_EXIT_ERROR;

	r = calloc(1, sizeof(*r));
	if (!r) {
		rtp_error("out of memory");
		return RTP_EXIT_ERROR;
	}
	r->fd = -1;
	irqlat_stats_init(&r->st);
	ret = irqlat_parse(&r->o, argc, argv);
	if (ret) {
		code = ret == IRQLAT_HELP_SHOWN ? RTP_EXIT_PASS : ret;
		goto out_free;
	}
	if (rtp_run_begin(&sigs, &r->si, &r->wall_start, &res, r->o.json))
		goto out_free;
	have_json = r->o.json != NULL;

	irqlat_probe(r);
	r->src = choose(r);
	if (r->src == SRC_AUTO) {
		code = no_source(r, &res, have_json, argc, argv);
		have_json = false;
		goto out_free;
	}
	if (r->o.priority > 0 && !rtp_can_rt(r->o.priority, why, sizeof(why))) {
		rtp_error("cannot measure here: %s", why);
		code = skip(r, &res, have_json, argc, argv, why);
		have_json = false;
		goto out_free;
	}
	if (r->o.delay_set && r->src != SRC_MODULE) {
		rtp_error("--delay: only the module source can plant a delay (chosen: %s)",
			  irqlat_source_name(r->src));
		goto out_json;
	}
	if (r->o.mlock) {
		ret = rtp_mlock_all(256 * 1024);
		if (ret)
			rtp_warn("mlockall: %s; page faults may add latency", strerror(-ret));
		r->mlocked = !ret;
	}
	ret = setup_source(r);
	if (ret) {
		rtp_error("%s", r->err);
		goto out_source;
	}
	find_thread(r);
	if (set_irq_prio(r)) {
		rtp_error("%s", r->err);
		goto out_source;
	}
	if (!r->o.quiet)
		printf("%s: source %s: %s\n", TOOL, irqlat_source_name(r->src), irqlat_source_label(r->src));
	fflush(stdout);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = noop_handler;	/* no SA_RESTART: a blocked read returns EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, THREAD_STACK);
	r->start_ns = rtp_now_ns(CLOCK_MONOTONIC);
	ret = pthread_create(&th, &attr, irqlat_reader_main, r);
	pthread_attr_destroy(&attr);
	if (ret) {
		rtp_error("cannot start the reader thread: %s", strerror(ret));
		goto out_prio;
	}
	if (r->o.duration_ns)
		deadline = r->start_ns + r->o.duration_ns;
	r->stopped_by = "signal";
	for (;;) {
		uint64_t now = rtp_now_ns(CLOCK_MONOTONIC), wait = TICK_NS;

		if (__atomic_load_n(&r->reader_done, __ATOMIC_ACQUIRE)) {
			r->stopped_by = r->reader_err ? "error" : "loops";
			break;
		}
		if (deadline && now >= deadline) {
			r->stopped_by = "duration";
			break;
		}
		if (deadline && deadline - now < wait)
			wait = deadline - now;
		ret = rtp_signals_wait(&sigs, wait);
		if (ret > 0) {
			r->stopped_by = "signal";
			snprintf(r->stop_detail, sizeof(r->stop_detail), " (SIG%s)", sigabbrev_np(ret));
			break;
		}
	}
	stop_reader(r, th);
	r->end_ns = rtp_now_ns(CLOCK_MONOTONIC);
	restore_irq_prio(r);
	teardown_source(r);

	decide(r, &v);
	summary(r, (double)(r->end_ns - r->start_ns) / 1e9);
	printf("verdict: %s: %s\n", rtp_status_name(v.status), v.reason);
	if (have_json) {
		rtp_result_header(&res, TOOL, argc, argv, &r->si, &r->wall_start);
		write_json(r, &res);
		have_json = false;
		ret = rtp_result_commit(&res, (double)(r->end_ns - r->start_ns) / 1e9, &v);
		if (ret) {
			rtp_error("--json %s: cannot write: %s", r->o.json, strerror(-ret));
			v.status = RTP_ERROR;
		}
	}
	fflush(stdout);
	code = rtp_status_exit(v.status);
	goto out_free;

out_prio:
	restore_irq_prio(r);
out_source:
	teardown_source(r);
out_json:
	if (have_json)
		rtp_result_abort(&res);
out_free:
	free(r);
	return code;
}
