// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-cyclic: setup, the run's supervision, and the report. */
#include "cyclic.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "ctlfile.h"
#include "driver.h"
#include "gate.h"
#include "log.h"
#include "opt.h"
#include "result.h"
#include "rt.h"
#include "run.h"
#include "sysinfo.h"

#define TOOL "rtproof-cyclic"
/*
 * The first release, after every thread is set up and waiting at the gate:
 * time for them to wake from it (a late one counts the releases it passed
 * as missed).
 */
#define START_DELAY_NS	2000000ull
#define TICK_NS		250000000ull	/* live display and stop checks */

struct cyclic_run {
	struct rtp_hist_wide all;		/* large, first */
	struct rtp_hist snap;		/* the live display's copy */
	struct cyclic_opts o;
	struct cyclic_shared sh;
	struct cyclic_thread *t;
	int n;
	struct rtp_run *run;
	bool set_up;
	int dma_fd;
	struct rtp_afile hist;
	bool have_hist;
	int live_lines;
};

/* µs text for humans: upper statistics round up, the minimum rounds down. */
static void fmt_lat(const struct cyclic_opts *o, char *buf, size_t len, uint64_t ns, bool up)
{
	if (o->nsecs)
		snprintf(buf, len, "%llu", (unsigned long long)ns);
	else if (up)
		snprintf(buf, len, "%.1f", ceil((double)ns / 100.0) / 10.0);
	else
		snprintf(buf, len, "%.1f", floor((double)ns / 100.0) / 10.0);
}

static void live(struct cyclic_run *r)
{
	const char *u = r->o.nsecs ? "ns" : "us";
	struct rtp_hist *snap = &r->snap;
	char mn[24], av[24], mx[24], p99[24];
	int i;

	if (r->live_lines)
		printf("\033[%dA", r->live_lines);
	for (i = 0; i < r->n; i++) {
		rtp_hist_snapshot(snap, &r->t[i].hist);
		if (!snap->count) {
			printf("T%-3d CPU%-3d waiting for the first release\033[K\n", i, r->t[i].cpu);
			continue;
		}
		fmt_lat(&r->o, mn, sizeof(mn), snap->min, false);
		fmt_lat(&r->o, av, sizeof(av), (uint64_t)llround(rtp_hist_mean(snap)), true);
		fmt_lat(&r->o, mx, sizeof(mx), snap->max, true);
		fmt_lat(&r->o, p99, sizeof(p99), rtp_hist_percentile(snap, 99), true);
		printf("T%-3d CPU%-3d count %10llu  min %8s %s  avg %8s %s  max %8s %s  p99 %8s %s  missed %llu\033[K\n",
		       i, r->t[i].cpu, (unsigned long long)snap->count, mn, u, av, u, mx, u, p99, u,
		       (unsigned long long)RTP_LD(&r->t[i].missed));
	}
	fflush(stdout);
	r->live_lines = r->n;
}

static void print_row(const struct cyclic_run *r, const char *t, const char *cpu,
		      const struct rtp_hist *h, uint64_t missed)
{
	char f[7][24];
	static const double p[4] = { 50, 99, 99.9, 99.99 };
	int i;

	if (!h->count) {
		printf("%4s %4s %10s  (no samples)\n", t, cpu, "0");
		return;
	}
	fmt_lat(&r->o, f[0], sizeof(f[0]), h->min, false);
	fmt_lat(&r->o, f[1], sizeof(f[1]), (uint64_t)llround(rtp_hist_mean(h)), true);
	for (i = 0; i < 4; i++)
		fmt_lat(&r->o, f[2 + i], sizeof(f[2 + i]), rtp_hist_percentile(h, p[i]), true);
	fmt_lat(&r->o, f[6], sizeof(f[6]), h->max, true);
	printf("%4s %4s %10llu %9s %9s %9s %9s %9s %9s %9s %8llu\n", t, cpu,
	       (unsigned long long)h->count, f[0], f[1], f[2], f[3], f[4], f[5], f[6],
	       (unsigned long long)missed);
}

struct spike_ref {
	uint64_t when_ns;
	uint64_t lat_ns;
	int thread;
	int cpu;
};

static int spike_cmp(const void *a, const void *b)
{
	const struct spike_ref *x = a, *y = b;

	return x->lat_ns < y->lat_ns ? 1 : x->lat_ns > y->lat_ns ? -1 : 0;
}

/* The largest spikes of all threads, largest first; returns how many. */
static int gather_spikes(const struct cyclic_run *r, struct spike_ref *out, int max)
{
	int i, k, n = 0;

	for (i = 0; i < r->n; i++)
		for (k = 0; k < r->t[i].nspikes && n < max; k++)
			out[n++] = (struct spike_ref){ r->t[i].spikes[k].when_ns, r->t[i].spikes[k].lat_ns,
						       i, r->t[i].cpu };
	qsort(out, (size_t)n, sizeof(*out), spike_cmp);
	return n;
}

static uint64_t total_missed(const struct cyclic_run *r)
{
	uint64_t m = 0;
	int i;

	for (i = 0; i < r->n; i++)
		m += r->t[i].missed;
	return m;
}

static uint64_t total_releases(const struct cyclic_run *r)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < r->n; i++)
		n += r->t[i].releases;
	return n;
}

static void cyclic_summary(struct rtp_run *run, const struct rtp_verdict *v)
{
	const struct cyclic_run *r = run->b;
	double secs = r->run->duration_s;
	const char *u = r->o.nsecs ? "ns" : "us";
	char a[16], b[16], interval[48], policy[16];
	int i;

	(void)v;

	rtp_format_ns(r->o.interval_ns, interval, sizeof(interval));
	if (r->o.distance_ns) {
		char d[16];

		rtp_format_ns(r->o.distance_ns, d, sizeof(d));
		snprintf(interval + strlen(interval), sizeof(interval) - strlen(interval),
			 " + %s per thread", d);
	}
	snprintf(policy, sizeof(policy), "%s", rtp_policy_name(r->o.policy));
	for (i = 0; policy[i]; i++)
		policy[i] = (char)toupper((unsigned char)policy[i]);
	printf("\n%s: %d thread%s, SCHED_%s %d, interval %s, %.3f s, stopped by %s%s\n",
	       TOOL, r->n, r->n == 1 ? "" : "s", policy, r->o.priority, interval, secs, r->run->stopped_by,
	       r->run->stop_detail);
	printf("kernel %s (preempt %s, from %s), clocksource %s%s\n", r->run->si.kernel_release,
	       r->run->si.preempt, r->run->si.preempt_source, r->run->si.clocksource,
	       r->run->si.virtualized ? ", virtualized" : "");
	if (r->o.policy == SCHED_DEADLINE)
		printf("SCHED_DEADLINE threads run unpinned: a deadline task's affinity must span "
		       "its root domain\n");
	printf("%4s %4s %10s %9s %9s %9s %9s %9s %9s %9s %8s\n", "T", "CPU", "samples",
	       "min", "avg", "p50", "p99", "p99.9", "p99.99", "max", "missed");
	printf("%4s %4s %10s %9s %9s %9s %9s %9s %9s %9s %8s\n", "", "", "", u, u, u, u, u, u, u,
	       "periods");
	for (i = 0; i < r->n; i++) {
		snprintf(a, sizeof(a), "%d", i);
		if (r->t[i].cpu < 0)
			snprintf(b, sizeof(b), "-");
		else
			snprintf(b, sizeof(b), "%d", r->t[i].cpu);
		print_row(r, a, b, &r->t[i].hist, r->t[i].missed);
	}
	if (r->n > 1)
		print_row(r, "all", "-", &r->all.h, total_missed(r));
	if (r->o.spike_ns) {
		struct spike_ref sp[CYCLIC_MAX_SPIKES];
		uint64_t total = 0;
		char thr[24], l[24];
		int n;

		n = gather_spikes(r, sp, CYCLIC_MAX_SPIKES);
		for (i = 0; i < r->n; i++)
			total += r->t[i].spikes_total;
		rtp_format_ns(r->o.spike_ns, thr, sizeof(thr));
		printf("spikes above %s: %llu%s\n", thr, (unsigned long long)total,
		       total > (uint64_t)n ? " (largest kept shown)" : "");
		if (n)
			printf("%12s %4s %4s %12s\n", "time (s)", "T", "CPU", r->o.nsecs ? "lat (ns)" : "lat (us)");
		for (i = 0; i < n; i++) {
			fmt_lat(&r->o, l, sizeof(l), sp[i].lat_ns, true);
			printf("%12.6f %4d %4d %12s\n", (double)sp[i].when_ns / 1e9, sp[i].thread,
			       sp[i].cpu, l);
		}
	}
}

/* cyclictest's text histogram, for the plotting recipes built around it. */
static void write_histfile(const struct cyclic_run *r, FILE *f)
{
	uint64_t b;
	int i;

	fprintf(f, "# Histogram\n");
	for (b = 0; b < r->o.histogram_us; b++) {
		/* cyclictest: "%06d " then the per-thread counts, tab-separated */
		fprintf(f, "%06llu ", (unsigned long long)b);
		for (i = 0; i < r->n; i++)
			fprintf(f, "%s%06llu", i ? "\t" : "", (unsigned long long)r->t[i].us_hist[b]);
		fputc('\n', f);
	}
	fprintf(f, "# Total:");
	for (i = 0; i < r->n; i++)
		fprintf(f, " %09llu", (unsigned long long)r->t[i].hist.count);
	fprintf(f, "\n# Min Latencies:");
	for (i = 0; i < r->n; i++)
		fprintf(f, " %05llu", (unsigned long long)(r->t[i].hist.count ? r->t[i].hist.min / 1000 : 0));
	fprintf(f, "\n# Avg Latencies:");
	for (i = 0; i < r->n; i++)
		fprintf(f, " %05llu", (unsigned long long)llround(rtp_hist_mean(&r->t[i].hist) / 1000));
	fprintf(f, "\n# Max Latencies:");
	for (i = 0; i < r->n; i++)
		fprintf(f, " %05llu", (unsigned long long)((r->t[i].hist.max + 999) / 1000));
	fprintf(f, "\n# Histogram Overflows:");
	for (i = 0; i < r->n; i++)
		fprintf(f, " %05llu", (unsigned long long)r->t[i].us_overflow);
	fprintf(f, "\n# Missed Periods:");
	for (i = 0; i < r->n; i++)
		fprintf(f, " %05llu", (unsigned long long)r->t[i].missed);
	fprintf(f, "\n# Units: bucket = 1 us of wake-up latency (truncated), Max rounded up\n");
}

static void cyclic_json_params(struct rtp_run *run, struct rtp_json *j)
{
	struct cyclic_run *r = run->b;
	const struct cyclic_opts *o = &r->o;
	char cpus[256];

	rtp_format_cpulist(&o->cpus, cpus, sizeof(cpus));
	rtp_json_string(j, "policy", rtp_policy_name(o->policy));
	rtp_json_int(j, "priority", o->priority);
	rtp_json_double(j, "interval_us", (double)o->interval_ns / 1e3);
	rtp_json_double(j, "distance_us", (double)o->distance_ns / 1e3);
	rtp_json_double(j, "offset_us", (double)o->offset_ns / 1e3);
	rtp_json_uint(j, "loops", o->co.loops);
	if (o->co.duration_ns)
		rtp_json_double(j, "duration_s", (double)o->co.duration_ns / 1e9);
	else
		rtp_json_null(j, "duration_s");
	rtp_json_int(j, "threads", r->n);
	rtp_json_string(j, "cpus", cpus);
	rtp_json_string(j, "placement", o->policy == SCHED_DEADLINE ?
			"unpinned (SCHED_DEADLINE: affinity spans the root domain)" :
			"pinned, one CPU per thread");
	rtp_json_string(j, "timer", o->timer == CYCLIC_TIMERFD ? "timerfd" :
			o->relative ? "nanosleep-relative" : "nanosleep-absolute");
	rtp_json_string(j, "clock", "CLOCK_MONOTONIC");
	rtp_json_bool(j, "mlockall", run->mlocked);
	if (r->dma_fd >= 0)
		rtp_json_int(j, "cpu_dma_latency_us", o->dma_latency_us);
	else
		rtp_json_null(j, "cpu_dma_latency_us");
	rtp_json_uint(j, "histogram_us", o->histogram_us);
	rtp_json_double(j, "max_latency_us", (double)o->co.max_latency_ns / 1e3);
	rtp_json_double(j, "breaktrace_us", (double)o->breaktrace_ns / 1e3);
	rtp_json_double(j, "spike_us", (double)o->spike_ns / 1e3);
}

static void cyclic_json_metrics(struct rtp_run *run, struct rtp_json *j)
{
	struct cyclic_run *r = run->b;
	int i;

	for (i = 0; i <= r->n; i++) {
		bool all = i == r->n;
		const struct rtp_hist *h = all ? &r->all.h : &r->t[i].hist;

		rtp_json_begin_object(j, NULL);
		rtp_json_string(j, "name", "wakeup_latency");
		rtp_json_string(j, "unit", "ns");
		if (all) {
			rtp_json_string(j, "cpu", "all");
			rtp_json_string(j, "thread", "all");
		} else {
			if (r->t[i].cpu < 0)
				rtp_json_string(j, "cpu", "any");
			else
				rtp_json_int(j, "cpu", r->t[i].cpu);
			rtp_json_int(j, "thread", i);
			rtp_json_double(j, "interval_us", (double)r->t[i].interval_ns / 1e3);
		}
		rtp_json_hist(j, h, true);
		rtp_json_uint(j, "missed", all ? total_missed(r) : r->t[i].missed);
		if (!r->o.relative)
			rtp_json_uint(j, "releases", all ? total_releases(r) : r->t[i].releases);
		rtp_json_end_object(j);
	}
}

static void cyclic_json_events(struct rtp_run *run, struct rtp_json *j)
{
	struct cyclic_run *r = run->b;
	uint64_t early = 0, spikes = 0;
	int i;

	rtp_json_uint(j, "missed", total_missed(r));
	for (i = 0; i < r->n; i++) {
		early += r->t[i].early;
		spikes += r->t[i].spikes_total;
	}
	rtp_json_uint(j, "early", early);
	rtp_json_uint(j, "spikes", spikes);
	rtp_json_uint(j, "overflow", r->all.h.overflow);
	if (r->sh.broke) {
		rtp_json_begin_object(j, "breaktrace");
		rtp_json_int(j, "thread", r->sh.break_thread);
		rtp_json_int(j, "cpu", r->t[r->sh.break_thread].cpu);
		rtp_json_uint(j, "latency_ns", r->sh.break_lat_ns);
		rtp_json_end_object(j);
	}
}

static int count_above(uint64_t lo, uint64_t hi, uint64_t count, void *arg)
{
	uint64_t *a = arg;

	(void)hi;
	if (lo > a[0])
		a[1] += count;
	return 0;
}

static int spike_time_cmp(const void *a, const void *b)
{
	const struct spike_ref *x = a, *y = b;

	if (x->when_ns != y->when_ns)
		return x->when_ns < y->when_ns ? -1 : 1;
	return x->thread - y->thread;
}

/*
 * "exceedances" (docs/results.md): every kept sample above a stated level
 * (the run's p99.9, or --spike's threshold), with time, CPU and thread,
 * declustered into episodes (one thread's samples less than the gap
 * apart) and events (episodes of any threads overlapping within the gap:
 * one stall of the machine seen on every CPU is one event).  Each thread
 * keeps its CYCLIC_TOP largest samples: "complete" says whether that was
 * all of them; "above" counts them all, from the histogram.
 */
static void json_exceedances(struct cyclic_run *r, struct rtp_json *j)
{
	uint64_t lim[2], gap = 10 * r->o.interval_ns, end = 0, emax = 0;
	struct spike_ref *sp;
	size_t n = 0, k, e = 0, nev = 0;
	int i, nthr = 0;
	bool *seen;

	if (gap < 1000000)
		gap = 1000000;
	lim[0] = r->o.spike_ns ? r->o.spike_ns : rtp_hist_percentile(&r->all.h, 99.9);
	lim[1] = r->all.h.overflow;
	if (r->o.spike_ns) {
		/* an arbitrary level splits a bucket: the exact count from the spike counters */
		lim[1] = 0;
		for (i = 0; i < r->n; i++)
			lim[1] += r->t[i].spikes_total;
	} else {
		/* p99.9 is a bucket's upper edge: the buckets above hold exactly those above it */
		rtp_hist_foreach(&r->all.h, count_above, lim);
	}
	for (i = 0; i < r->n; i++)
		n += (size_t)r->t[i].ntop;
	sp = calloc(n ? n : 1, sizeof(*sp));
	seen = calloc(r->n > 0 ? (size_t)r->n : 1, sizeof(*seen));
	if (!sp || !seen) {
		free(sp);
		free(seen);
		return;
	}
	for (i = 0, k = 0; i < r->n; i++)
		for (e = 0; e < (size_t)r->t[i].ntop; e++)
			if (r->t[i].top[e].lat_ns > lim[0])
				sp[k++] = (struct spike_ref){ r->t[i].top[e].when_ns, r->t[i].top[e].lat_ns, i,
							      r->t[i].cpu };
	n = k;
	qsort(sp, n, sizeof(*sp), spike_time_cmp);
	rtp_json_begin_object(j, "exceedances");
	rtp_json_uint(j, "level_ns", lim[0]);
	rtp_json_string(j, "level", r->o.spike_ns ? "--spike" : "p99.9");
	rtp_json_uint(j, "above", lim[1]);
	rtp_json_uint(j, "listed", n);
	rtp_json_bool(j, "complete", n == lim[1]);
	rtp_json_int(j, "kept_per_thread", CYCLIC_TOP);
	rtp_json_uint(j, "gap_ns", gap);
	rtp_json_begin_array(j, "samples");	/* [time_s, cpu, thread, latency_ns], by time */
	for (k = 0; k < n; k++) {
		rtp_json_begin_array(j, NULL);
		rtp_json_double(j, NULL, (double)sp[k].when_ns / 1e9);
		rtp_json_int(j, NULL, sp[k].cpu);
		rtp_json_int(j, NULL, sp[k].thread);
		rtp_json_uint(j, NULL, sp[k].lat_ns);
		rtp_json_end_array(j);
	}
	rtp_json_end_array(j);
	/* episodes: per thread, samples less than gap apart (sp is in time order) */
	rtp_json_begin_array(j, "episodes");	/* [start_s, end_s, cpu, thread, max_ns, samples] */
	for (i = 0; i < r->n; i++) {
		uint64_t st = 0, la = 0, mx = 0, cnt = 0;

		for (k = 0; k <= n; k++) {
			bool mine = k < n && sp[k].thread == i;

			if (mine && cnt && sp[k].when_ns - la < gap) {
				la = sp[k].when_ns;
				mx = sp[k].lat_ns > mx ? sp[k].lat_ns : mx;
				cnt++;
				continue;
			}
			if ((mine || k == n) && cnt) {
				rtp_json_begin_array(j, NULL);
				rtp_json_double(j, NULL, (double)st / 1e9);
				rtp_json_double(j, NULL, (double)la / 1e9);
				rtp_json_int(j, NULL, r->t[i].cpu);
				rtp_json_int(j, NULL, i);
				rtp_json_uint(j, NULL, mx);
				rtp_json_uint(j, NULL, cnt);
				rtp_json_end_array(j);
				cnt = 0;
			}
			if (mine) {
				st = la = sp[k].when_ns;
				mx = sp[k].lat_ns;
				cnt = 1;
			}
		}
	}
	rtp_json_end_array(j);
	/* events: any threads, samples less than gap apart */
	rtp_json_begin_array(j, "events");	/* [start_s, end_s, threads, max_ns] */
	for (k = 0; k <= n; k++) {
		if (k < n && nev && sp[k].when_ns - end < gap) {
			end = sp[k].when_ns;
			emax = sp[k].lat_ns > emax ? sp[k].lat_ns : emax;
			if (!seen[sp[k].thread]) {
				seen[sp[k].thread] = true;
				nthr++;
			}
			continue;
		}
		if (nev) {
			rtp_json_begin_array(j, NULL);
			rtp_json_double(j, NULL, (double)sp[e].when_ns / 1e9);
			rtp_json_double(j, NULL, (double)end / 1e9);
			rtp_json_int(j, NULL, nthr);
			rtp_json_uint(j, NULL, emax);
			rtp_json_end_array(j);
		}
		if (k < n) {
			memset(seen, 0, (size_t)r->n * sizeof(*seen));
			e = k;
			end = sp[k].when_ns;
			emax = sp[k].lat_ns;
			seen[sp[k].thread] = true;
			nthr = 1;
			nev = 1;
		}
	}
	rtp_json_end_array(j);
	rtp_json_end_object(j);
	free(sp);
	free(seen);
}

static void cyclic_json_extra(struct rtp_run *run, struct rtp_json *j)
{
	struct cyclic_run *r = run->b;
	struct spike_ref sp[CYCLIC_MAX_SPIKES];
	int i, n;

	json_exceedances(r, j);
	if (!r->o.spike_ns)
		return;
	n = gather_spikes(r, sp, CYCLIC_MAX_SPIKES);
	rtp_json_begin_object(j, "spikes");
	rtp_json_uint(j, "threshold_ns", r->o.spike_ns);
	rtp_json_begin_array(j, "largest");
	for (i = 0; i < n; i++) {
		rtp_json_begin_object(j, NULL);
		rtp_json_double(j, "time_s", (double)sp[i].when_ns / 1e9);
		rtp_json_int(j, "cpu", sp[i].cpu);
		rtp_json_int(j, "thread", sp[i].thread);
		rtp_json_uint(j, "latency_ns", sp[i].lat_ns);
		rtp_json_end_object(j);
	}
	rtp_json_end_array(j);
	rtp_json_end_object(j);
}

static void cyclic_json_resources(struct rtp_run *run, struct rtp_json *j)
{
	struct cyclic_run *r = run->b;
	size_t peak = 0, p;
	int i;

	for (i = 0; i < r->n; i++) {
		p = rtp_stack_peak(&r->t[i].stack);
		if (p > peak)
			peak = p;
	}
	rtp_json_uint(j, "hist_bytes_per_thread", sizeof(struct rtp_hist));
	rtp_json_uint(j, "thread_bytes", sizeof(struct cyclic_thread));
	rtp_json_uint(j, "stack_bytes_per_thread", r->n ? rtp_stack_size(&r->t[0].stack) : 0);
	rtp_json_uint(j, "stack_peak_bytes", peak);
}

static void cyclic_decide(struct rtp_run *run, struct rtp_verdict *v)
{
	struct cyclic_run *r = run->b;

	if (!r->all.h.count) {
		v->status = RTP_ERROR;
		snprintf(v->reason, sizeof(v->reason), "no samples were taken (stopped by %s)",
			 run->stopped_by);
		return;
	}
	if (r->o.co.max_latency_ns)
		rtp_verdict_check(v, "max wakeup_latency", "<=", (double)r->o.co.max_latency_ns / 1e3,
				  (double)r->all.h.max / 1e3, "us");
	if (r->sh.broke)
		rtp_verdict_check(v, "breaktrace", "<=", (double)r->o.breaktrace_ns / 1e3,
				  (double)r->sh.break_lat_ns / 1e3, "us");
	if (v->status == RTP_FAIL)
		snprintf(v->reason, sizeof(v->reason), "max %.1f us exceeds the %s of %.1f us",
			 (double)r->all.h.max / 1e3, r->sh.broke ? "breaktrace threshold" : "budget",
			 (double)(r->sh.broke ? r->o.breaktrace_ns : r->o.co.max_latency_ns) / 1e3);
	else if (r->o.co.max_latency_ns)
		snprintf(v->reason, sizeof(v->reason), "max %.1f us within the budget of %.1f us",
			 (double)r->all.h.max / 1e3, (double)r->o.co.max_latency_ns / 1e3);
	else if (r->o.breaktrace_ns)
		snprintf(v->reason, sizeof(v->reason), "max %.1f us within the breaktrace threshold of %.1f us",
			 (double)r->all.h.max / 1e3, (double)r->o.breaktrace_ns / 1e3);
	else {
		snprintf(v->reason, sizeof(v->reason),
			 "no latency budget given (--max-latency): max %.1f us, judged against nothing",
			 (double)r->all.h.max / 1e3);
		rtp_verdict_figures_only(v);
	}
}

static int open_tracemark(struct cyclic_run *r)
{
	const char *root;
	char path[128];

	for (size_t i = 0; (root = rtp_tracefs_candidate(i)); i++) {
		snprintf(path, sizeof(path), "%s/tracing_on", root);
		r->sh.tracing_on_fd = open(path, O_WRONLY | O_CLOEXEC);
		if (r->sh.tracing_on_fd < 0)
			continue;
		snprintf(path, sizeof(path), "%s/trace_marker", root);
		r->sh.trace_marker_fd = open(path, O_WRONLY | O_CLOEXEC);
		return 0;
	}
	return -errno;
}

static int cyclic_setup(struct rtp_run *run, char *why, size_t len)
{
	struct cyclic_run *r = run->b;
	int ret;

	(void)why;
	(void)len;
	r->run = run;
	r->dma_fd = -1;
	r->sh.trace_marker_fd = r->sh.tracing_on_fd = -1;
	r->set_up = true;
	if (r->o.histfile) {
		ret = rtp_afile_open(&r->hist, r->o.histfile);
		if (ret) {
			rtp_error("--histfile %s: cannot create: %s", r->o.histfile, strerror(-ret));
			return RTP_EXIT_ERROR;
		}
		r->have_hist = true;
	}
	if (r->o.tracemark && open_tracemark(r))
		rtp_warn("--tracemark: tracefs is not writable here; breaktrace will stop without a mark");
	return 0;
}

static int cyclic_rt_prio(struct rtp_run *run)
{
	struct cyclic_run *r = run->b;

	return rtp_policy_is_rt(r->o.policy) ? (r->o.priority > 0 ? r->o.priority : 1) : 0;
}

static int alloc_threads(struct cyclic_run *r)
{
	int i, c, ret;

	r->n = r->o.nthreads ? r->o.nthreads : CPU_COUNT(&r->o.cpus);
	r->t = aligned_alloc(64, sizeof(*r->t) * (size_t)r->n);
	if (!r->t) {
		rtp_error("out of memory for %d threads", r->n);
		return RTP_EXIT_ERROR;
	}
	memset(r->t, 0, sizeof(*r->t) * (size_t)r->n);
	for (i = 0, c = -1; i < r->n; i++) {
		do
			c = (c + 1) % CPU_SETSIZE;
		while (!CPU_ISSET(c, &r->o.cpus));
		r->t[i].id = i;
		r->t[i].cpu = r->o.policy == SCHED_DEADLINE ? -1 : c;
		r->t[i].interval_ns = r->o.interval_ns + (uint64_t)i * r->o.distance_ns;
		r->t[i].sh = &r->sh;
		rtp_hist_init(&r->t[i].hist);
		if (r->o.spike_ns) {
			r->t[i].spikes = calloc(CYCLIC_MAX_SPIKES, sizeof(*r->t[i].spikes));
			if (!r->t[i].spikes) {
				rtp_error("--spike: out of memory");
				return RTP_EXIT_ERROR;
			}
		}
		r->t[i].top = calloc(CYCLIC_TOP, sizeof(*r->t[i].top));
		if (!r->t[i].top) {
			rtp_error("thread %d: out of memory", i);
			return RTP_EXIT_ERROR;
		}
		ret = rtp_stack_alloc(&r->t[i].stack, CYCLIC_STACK_BYTES);
		if (ret) {
			rtp_error("thread %d: cannot map its stack: %s%s", i, strerror(-ret),
				  ret == -EAGAIN ? " (locked memory, ulimit -l)" : "");
			return RTP_EXIT_ERROR;
		}
		if (r->o.histogram_us) {
			r->t[i].us_hist = calloc(r->o.histogram_us, sizeof(uint64_t));
			if (!r->t[i].us_hist) {
				rtp_error("-h %llu: out of memory", (unsigned long long)r->o.histogram_us);
				return RTP_EXIT_ERROR;
			}
		}
	}
	rtp_hist_init_wide(&r->all);
	return 0;
}

static const char *cyclic_watch(struct rtp_run *run, void *arg, uint64_t now, uint64_t *next)
{
	struct cyclic_run *r = arg;
	const char *why = "loops";
	int i;

	(void)run;
	(void)now;
	(void)next;
	if (__atomic_load_n(&r->sh.broke, __ATOMIC_ACQUIRE))
		return "breaktrace";
	for (i = 0; i < r->n; i++) {
		if (!__atomic_load_n(&r->t[i].done, __ATOMIC_ACQUIRE)) {
			if (!r->o.co.quiet && isatty(STDOUT_FILENO))
				live(r);
			return NULL;
		}
		if (r->t[i].ended_by_duration)
			why = "duration";
	}
	return why;
}

static pthread_t cyclic_thread_of(void *arg, int i)
{
	return ((struct cyclic_run *)arg)->t[i].th;
}

static bool cyclic_done_of(void *arg, int i)
{
	return __atomic_load_n(&((struct cyclic_run *)arg)->t[i].done, __ATOMIC_ACQUIRE);
}

/* The last sample of all threads (CLOCK_MONOTONIC), 0: none. */
static uint64_t last_sample(const struct cyclic_run *r)
{
	uint64_t last = 0;
	int i;

	for (i = 0; i < r->n; i++)
		if (r->t[i].last_ns > last)
			last = r->t[i].last_ns;
	return last;
}

static int cyclic_threads(struct rtp_run *run)
{
	struct cyclic_run *r = run->b;
	struct rtp_watch w = { .check = cyclic_watch, .arg = r };
	pthread_attr_t attr;
	int ret, i, failed, started;

	ret = alloc_threads(r);
	if (ret)
		return ret;
	if (r->o.dma_latency_us >= 0) {
		r->dma_fd = rtp_dma_latency_open(r->o.dma_latency_us);
		if (r->dma_fd < 0)
			rtp_warn("/dev/cpu_dma_latency: %s; deep idle states may add latency",
				 strerror(-r->dma_fd));
	}
	if (r->o.main_affinity_set) {
		ret = rtp_pin_set(0, &r->o.main_affinity);
		if (ret)
			rtp_warn("--mainaffinity: %s", strerror(-ret));
	}
	rtp_run_interrupt_signal(SIGUSR1);

	r->sh.o = &r->o;
	r->sh.run = run;
	r->sh.explain_ns = run->explain_ns;
	rtp_gate_init(&r->sh.gate);
	/* Each on its own small stack: mlockall(MCL_FUTURE) locks all of it (8 MiB by default). */
	pthread_attr_init(&attr);
	for (i = 0; i < r->n; i++) {
		ret = rtp_stack_attr(&r->t[i].stack, &attr);
		if (!ret)
			ret = rtp_gate_create(&r->sh.gate, &r->t[i].th, &attr, cyclic_thread_main, &r->t[i]);
		if (ret) {
			char what[32];

			snprintf(what, sizeof(what), "thread %d", i);
			rtp_gate_create_error(NULL, what, ret);
			break;
		}
	}
	pthread_attr_destroy(&attr);
	started = i;
	failed = rtp_gate_ready(&r->sh.gate);
	for (i = 0; i < started; i++)
		if (r->t[i].err)
			rtp_error("thread %d (CPU %d): cannot %s: %s", i, r->t[i].cpu,
				  r->t[i].err_what, strerror(-r->t[i].err));
	if (started < r->n || failed) {
		rtp_gate_open(&r->sh.gate, false);
		for (i = 0; i < started; i++)
			pthread_join(r->t[i].th, NULL);
		return RTP_EXIT_ERROR;
	}
	r->sh.start_ns = rtp_now_ns(CLOCK_MONOTONIC) + START_DELAY_NS;
	/* The threads end themselves at the last release within the duration. */
	r->sh.end_ns = r->o.co.duration_ns ? r->sh.start_ns + r->o.co.duration_ns : 0;
	rtp_gate_open(&r->sh.gate, true);
	/* Past this, a thread that has not ended by itself is told to. */
	if (r->o.co.duration_ns)
		w.deadline_ns = r->sh.end_ns + 2 * r->t[r->n - 1].interval_ns +
				r->o.offset_ns * (uint64_t)r->n + 1000000000ull;
	if (!r->o.co.quiet && isatty(STDOUT_FILENO))
		w.tick_ns = TICK_NS;
	rtp_run_supervise(run, &w);
	__atomic_store_n(&r->sh.stop, 1, __ATOMIC_RELEASE);
	rtp_run_stop_threads(run, r->n, SIGUSR1, cyclic_thread_of, cyclic_done_of, r);
	for (i = 0; i < r->n; i++)
		pthread_join(r->t[i].th, NULL);
	if (r->sh.broke)
		run->stopped_by = "breaktrace";
	for (i = 0; i < r->n; i++)
		rtp_hist_merge(&r->all.h, &r->t[i].hist);
	/* From the first release to the last sample: the time actually measured. */
	run->first_ns = r->sh.start_ns;
	run->last_ns = last_sample(r);
	run->duration_s = run->last_ns > run->first_ns ?
			  (double)(run->last_ns - run->first_ns) / 1e9 : 0;
	return 0;
}

static int cyclic_outputs(struct rtp_run *run)
{
	struct cyclic_run *r = run->b;
	int ret;

	if (!r->o.histogram_us)
		return 0;
	if (!r->have_hist) {
		write_histfile(r, stdout);
		return 0;
	}
	write_histfile(r, r->hist.f);
	r->have_hist = false;
	ret = rtp_afile_commit(&r->hist);
	if (ret)
		rtp_error("--histfile %s: cannot write: %s", r->o.histfile, strerror(-ret));
	return ret;
}

static void cyclic_teardown(struct rtp_run *run)
{
	struct cyclic_run *r = run->b;
	int i;

	if (!r->set_up)
		return;
	if (r->have_hist)
		rtp_afile_abort(&r->hist);
	for (i = 0; r->t && i < r->n; i++) {
		free(r->t[i].us_hist);
		free(r->t[i].spikes);
		free(r->t[i].top);
		rtp_stack_free(&r->t[i].stack);
	}
	free(r->t);
	if (r->sh.run)
		rtp_gate_destroy(&r->sh.gate);
	rtp_dma_latency_close(r->dma_fd);
	if (r->sh.trace_marker_fd >= 0)
		close(r->sh.trace_marker_fd);
	if (r->sh.tracing_on_fd >= 0)
		close(r->sh.tracing_on_fd);
}

/* --explain: the CPUs the threads are pinned to (deadline threads: all they may use). */
static const char *cyclic_explain_cpus(struct rtp_run *run, cpu_set_t *set)
{
	struct cyclic_run *r = run->b;
	int n = r->o.nthreads ? r->o.nthreads : CPU_COUNT(&r->o.cpus), c;

	if (r->o.policy == SCHED_DEADLINE) {
		if (sched_getaffinity(0, sizeof(*set), set))
			CPU_ZERO(set);
		return NULL;
	}
	/* as alloc_threads() pins them: round-robin over -a's CPUs */
	for (c = 0; c < CPU_SETSIZE && n > 0; c++)
		if (CPU_ISSET(c, &r->o.cpus)) {
			CPU_SET(c, set);
			n--;
		}
	return NULL;
}

/* --explain: the thread's own p50 (wakeup_latency, the only figure it notes) */
static uint64_t cyclic_explain_base(struct rtp_run *run, int tid, const char *what)
{
	struct cyclic_run *r = run->b;
	int i;

	(void)what;
	for (i = 0; i < r->n; i++)
		if (r->t[i].tid == tid)
			return rtp_hist_percentile(&r->t[i].hist, 50);
	return 0;
}

const struct rtp_bench_ops cyclic_ops = {
	.tool = TOOL,
	.duration_help = "until the loops or SIGINT/SIGTERM",
	RTP_BENCH_OPTIONS(cyclic, struct cyclic_run, struct cyclic_opts),
	.takes = RTP_TAKES_LOOPS | RTP_TAKES_MAXLAT,
	.rt_prio = cyclic_rt_prio,
	.setup = cyclic_setup,
	.run = cyclic_threads,
	.decide = cyclic_decide,
	.summary = cyclic_summary,
	.outputs = cyclic_outputs,
	.teardown = cyclic_teardown,
	.params = cyclic_json_params,
	.metrics = cyclic_json_metrics,
	.events = cyclic_json_events,
	.extra = cyclic_json_extra,
	.resources = cyclic_json_resources,
	.explain_cpus = cyclic_explain_cpus,
	.explain_base = cyclic_explain_base,
};

/* The options alone (the unit and fuzz tests): the ops table's parse and check. */
int cyclic_parse(struct cyclic_opts *o, int argc, char **argv)
{
	return rtp_run_parse(&cyclic_ops, o, argc, argv);
}

int cyclic_main(int argc, char **argv)
{
	return rtp_run_tool(&cyclic_ops, argc, argv);
}
