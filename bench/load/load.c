// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtproof-load: the ops table.  A worker thread runs the parts' rounds,
 * the parts taking turns round by round; the main thread supervises
 * (-D, SIGINT/SIGTERM: the rounds done stand).  A round's sample is its
 * time per operation, rounded up (never understated), in ns.
 */
#include "load.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "log.h"

static void *worker(void *arg)
{
	struct load_run *r = arg;
	uint64_t k;
	int p;

	for (k = 0; k < r->o.rounds && !atomic_load(&r->stop); k++)
		for (p = 0; p < LP_N && !atomic_load(&r->stop); p++) {
			struct load_part_state *s = &r->p[p];
			uint64_t ops = 0, ns = 0;
			int ret;

			if (!(r->o.parts & (1u << p)) || s->err)
				continue;
			ret = load_part_round((enum load_part)p, r->o.round_ns, r->cpu, &r->stop, &ops, &ns, s->why,
					      sizeof(s->why));
			if (ret) {
				s->err = ret;
				continue;
			}
			/* a round cut short by the stop counts only when whole enough to say something */
			if (!ops || (atomic_load(&r->stop) && ns * 2 < r->o.round_ns))
				continue;
			rtp_hist_record_at(&s->hist, (ns + ops - 1) / ops, rtp_now_ns(CLOCK_MONOTONIC));
			s->ops += ops;
			s->ns += ns;
		}
	atomic_store(&r->done, true);
	rtp_run_wake(r->run);
	return NULL;
}

static const char *load_watch(struct rtp_run *run, void *arg, uint64_t now, uint64_t *next_ns)
{
	struct load_run *r = arg;

	(void)run;
	(void)now;
	(void)next_ns;
	return atomic_load(&r->done) ? "rounds" : NULL;
}

static int first_cpu(int want)
{
	cpu_set_t set;
	int c;

	if (sched_getaffinity(0, sizeof(set), &set))
		return want >= 0 ? want : 0;
	if (want >= 0)
		return CPU_ISSET(want, &set) ? want : -1;
	for (c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			return c;
	return 0;
}

static int load_setup(struct rtp_run *run, char *why, size_t len)
{
	struct load_run *r = run->b;
	int p;

	r->run = run;
	r->cpu = first_cpu(r->o.cpu);
	if (r->cpu < 0) {
		snprintf(why, len, "--cpu %d is not among the CPUs this process may use", r->o.cpu);
		return RTP_EXIT_SKIP;
	}
	for (p = 0; p < LP_N; p++)
		rtp_hist_init(&r->p[p].hist);
	return 0;
}

static int load_run_parts(struct rtp_run *run)
{
	struct load_run *r = run->b;
	struct rtp_watch w = { .check = load_watch, .arg = r };
	int ret;

	run->first_ns = rtp_now_ns(CLOCK_MONOTONIC);
	ret = pthread_create(&r->worker, NULL, worker, r);
	if (ret) {
		rtp_error("the worker thread: %s", strerror(ret));
		return RTP_EXIT_ERROR;
	}
	if (r->o.co.duration_ns)
		w.deadline_ns = run->first_ns + r->o.co.duration_ns;
	rtp_run_supervise(run, &w);
	atomic_store(&r->stop, true);
	pthread_join(r->worker, NULL);
	run->last_ns = rtp_now_ns(CLOCK_MONOTONIC);
	run->duration_s = (double)(run->last_ns - run->first_ns) / 1e9;
	return 0;
}

static void load_decide(struct rtp_run *run, struct rtp_verdict *v)
{
	struct load_run *r = run->b;
	int p, ran = 0, failed = 0;

	for (p = 0; p < LP_N; p++) {
		if (!(r->o.parts & (1u << p)))
			continue;
		ran += r->p[p].hist.count > 0;
		failed += r->p[p].err != 0;
	}
	if (!ran) {
		v->status = RTP_ERROR;
		snprintf(v->reason, sizeof(v->reason), "no round of any part completed (stopped by %s)",
			 run->stopped_by);
		return;
	}
	if (failed) {
		v->status = RTP_ERROR;
		snprintf(v->reason, sizeof(v->reason), "%d part(s) could not run; the others' figures stand",
			 failed);
		return;
	}
	rtp_verdict_figures_only(v);
	snprintf(v->reason, sizeof(v->reason), "throughput has no budget");
}

static double ops_per_s(const struct load_part_state *s)
{
	return (double)s->ops / ((double)s->ns / 1e9);
}

static void load_summary(struct rtp_run *run, const struct rtp_verdict *v)
{
	struct load_run *r = run->b;
	int p;

	(void)v;
	printf("\n%s: %d part(s) on CPU %d, SCHED_OTHER, %llu round(s) of %.0f ms each, %.3f s, stopped by %s%s\n",
	       TOOL, __builtin_popcount(r->o.parts), r->cpu, (unsigned long long)r->o.rounds,
	       (double)r->o.round_ns / 1e6, run->duration_s, run->stopped_by, run->stop_detail);
	printf("kernel %s (preempt %s)\n", run->si.kernel_release, run->si.preempt);
	printf("%-9s %7s %13s %11s %11s %11s  %s\n", "part", "rounds", "ops/s", "p50 ns/op", "min ns/op",
	       "max ns/op", "one operation");
	for (p = 0; p < LP_N; p++) {
		const struct load_part_state *s = &r->p[p];

		if (!(r->o.parts & (1u << p)))
			continue;
		if (s->err) {
			printf("%-9s %7llu  could not run: %s\n", load_part_names[p], (unsigned long long)s->hist.count,
			       s->why);
			continue;
		}
		if (!s->hist.count) {
			printf("%-9s %7s  no round completed\n", load_part_names[p], "0");
			continue;
		}
		printf("%-9s %7llu %13.0f %11llu %11llu %11llu  %s\n", load_part_names[p],
		       (unsigned long long)s->hist.count, ops_per_s(s),
		       (unsigned long long)rtp_hist_percentile(&s->hist, 50), (unsigned long long)s->hist.min,
		       (unsigned long long)s->hist.max, load_part_ops[p]);
	}
}

static void load_json_params(struct rtp_run *run, struct rtp_json *j)
{
	struct load_run *r = run->b;
	int p;

	rtp_json_begin_array(j, "parts");
	for (p = 0; p < LP_N; p++)
		if (r->o.parts & (1u << p))
			rtp_json_string(j, NULL, load_part_names[p]);
	rtp_json_end_array(j);
	rtp_json_uint(j, "rounds", r->o.rounds);
	rtp_json_double(j, "round_ms", (double)r->o.round_ns / 1e6);
	rtp_json_int(j, "cpu", r->cpu);
	rtp_json_string(j, "policy", "other");
}

static void load_json_metrics(struct rtp_run *run, struct rtp_json *j)
{
	struct load_run *r = run->b;
	int p;

	for (p = 0; p < LP_N; p++) {
		const struct load_part_state *s = &r->p[p];

		if (!(r->o.parts & (1u << p)) || !s->hist.count)
			continue;
		rtp_json_begin_object(j, NULL);
		rtp_json_string(j, "name", "ns_per_op");
		rtp_json_string(j, "unit", "ns");
		rtp_json_string(j, "part", load_part_names[p]);
		rtp_json_string(j, "op", load_part_ops[p]);
		rtp_json_int(j, "cpu", r->cpu);
		rtp_json_uint(j, "ops", s->ops);
		rtp_json_double(j, "ops_per_s", ops_per_s(s));
		rtp_json_hist(j, &s->hist, true);
		rtp_json_end_object(j);
	}
}

static void load_json_events(struct rtp_run *run, struct rtp_json *j)
{
	struct load_run *r = run->b;
	int p;

	rtp_json_begin_object(j, "parts_failed");
	for (p = 0; p < LP_N; p++)
		if ((r->o.parts & (1u << p)) && r->p[p].err)
			rtp_json_string(j, load_part_names[p], r->p[p].why);
	rtp_json_end_object(j);
}

const struct rtp_bench_ops load_ops = {
	.tool = TOOL,
	.duration_help = "until every round is done, or SIGINT/SIGTERM",
	RTP_BENCH_OPTIONS(load, struct load_run, struct load_opts),
	.setup = load_setup,
	.run = load_run_parts,
	.decide = load_decide,
	.summary = load_summary,
	.params = load_json_params,
	.metrics = load_json_metrics,
	.events = load_json_events,
};

int load_parse(struct load_opts *o, int argc, char **argv)
{
	return rtp_run_parse(&load_ops, o, argc, argv);
}

int load_main(int argc, char **argv)
{
	return rtp_run_tool(&load_ops, argc, argv);
}
