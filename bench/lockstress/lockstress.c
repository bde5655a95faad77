// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-lockstress: setup, the scenarios in turn, the summary and the result document. */
#include "lockstress.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver.h"
#include "log.h"
#include "opt.h"
#include "rt.h"
#include "run.h"

static const struct ls_scenario_ops *const scenario_ops[LS_NSCEN] = {
	[LS_INVERSION] = &ls_inversion_ops,
	[LS_PICHAIN] = &ls_pichain_ops,
	[LS_CONTENTION] = &ls_contention_ops,
	[LS_SPINPREEMPT] = &ls_spinpreempt_ops,
	[LS_PERCPU] = &ls_percpu_ops,
	[LS_RWREC] = &ls_rwrec_ops,
};

struct load_arg {
	struct ls_ctx *c;
	int cpu;
};

static void *load_thread(void *arg)
{
	struct load_arg *a = arg;
	volatile unsigned sink = 0;
	unsigned i;

	ls_thread_setup(a->cpu, NULL, SCHED_OTHER, 0);
	while (!__atomic_load_n(&a->c->load_stop, __ATOMIC_RELAXED))
		for (i = 0; i < 100000; i++)
			sink += i;
	return NULL;
}

static struct load_arg *load_start(struct ls_ctx *c, cpu_set_t *used)
{
	struct load_arg *args;
	int cpu, n = 0;

	CPU_ZERO(used);
	if (c->o.burners != LS_BURNERS_CPU)
		return NULL;
	args = calloc(CPU_SETSIZE, sizeof(*args));
	c->load_th = calloc(CPU_SETSIZE, sizeof(*c->load_th));
	if (!args || !c->load_th) {
		free(args);
		rtp_warn("--burners cpu: out of memory; running without them");
		return NULL;
	}
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &c->online) || cpu == c->o.cpu)
			continue;
		args[n].c = c;
		args[n].cpu = cpu;
		pthread_attr_t attr;
		int ret = ls_thread_attr(c, &attr);

		if (!ret) {
			ret = pthread_create(&c->load_th[n], &attr, load_thread, &args[n]);
			pthread_attr_destroy(&attr);
		}
		if (ret)
			break;
		CPU_SET(cpu, used);
		n++;
	}
	c->nload = n;
	if (!n)
		rtp_warn("--burners cpu: no CPU besides CPU %d to load", c->o.cpu);
	return args;
}

static void load_stop(struct ls_ctx *c)
{
	int i;

	__atomic_store_n(&c->load_stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < c->nload; i++)
		ls_join(c, c->load_th[i], rtp_now_ns(CLOCK_MONOTONIC) + 2000000000ull);
	free(c->load_th);
	c->load_th = NULL;
}

static void json_names(struct rtp_json *j, const char *key, const int *idx, int n,
		       const char *const *names)
{
	int i;

	rtp_json_begin_array(j, key);
	for (i = 0; i < n; i++)
		rtp_json_string(j, NULL, names[idx[i]]);
	rtp_json_end_array(j);
}

static void ls_json_params(struct rtp_run *run, struct rtp_json *j)
{
	const struct ls_ctx *c = run->b;
	const struct ls_opts *o = &c->o;
	char buf[256];
	int i;

	json_names(j, "scenarios", o->scen, o->nscen, ls_scenario_names);
	json_names(j, "protocols", o->proto, o->nproto, ls_protocol_names);
	rtp_json_bool(j, "control", o->control);
	json_names(j, "kinds", o->kind, o->nkind, ls_kind_names);
	rtp_json_begin_array(j, "threads");
	for (i = 0; i < o->nthr; i++)
		rtp_json_int(j, NULL, o->threads[i]);
	rtp_json_end_array(j);
	rtp_json_uint(j, "iterations", o->iterations);
	rtp_json_double(j, "duration_s", (double)o->co.duration_ns / 1e9);
	rtp_json_string(j, "policy_rt", "fifo");
	rtp_json_int(j, "priority", o->priority);
	rtp_json_int(j, "cpu", o->cpu);
	rtp_format_cpulist(&o->cpus, buf, sizeof(buf));
	rtp_json_string(j, "cpus", buf);
	rtp_json_string(j, "policy", o->policy == SCHED_FIFO ? "fifo" : "other");
	rtp_json_uint(j, "hold_ns", o->hold_ns);
	rtp_json_uint(j, "burn_ns", o->burn_ns);
	rtp_json_uint(j, "margin_ns", ls_margin_ns(o));
	rtp_json_uint(j, "cs_ns", o->cs_ns);
	rtp_json_uint(j, "think_ns", o->think_ns);
	rtp_json_int(j, "read_share_pct", o->read_share);
	rtp_json_int(j, "chain", o->chain);
	rtp_json_uint(j, "watchdog_ns", o->watchdog_ns);
	rtp_json_uint(j, "spin_timeout_ns", o->spin_timeout_ns);
	rtp_json_uint(j, "attempt_timeout_ns", o->attempt_timeout_ns);
	rtp_json_int(j, "percpu_threads", o->percpu_threads);
	rtp_json_bool(j, "mlockall", run->mlocked);
	rtp_json_int(j, "supervisor_priority", c->supervisor_prio);
	rtp_json_bool(j, "test_break_lock", o->break_lock);
	rtp_json_bool(j, "test_plant_deadlock", o->plant_deadlock);
	rtp_json_string(j, "clock", "CLOCK_MONOTONIC");
}

/* Besides the --load label: the program's own --burners, when asked for. */
static void ls_json_load(struct rtp_run *run, struct rtp_json *j)
{
	const struct ls_ctx *c = run->b;
	char buf[256];

	rtp_json_string(j, "burners", c->o.burners == LS_BURNERS_CPU ? "cpu" : "none");
	if (c->o.burners == LS_BURNERS_CPU) {
		rtp_format_cpulist(&c->load_cpus, buf, sizeof(buf));
		rtp_json_string(j, "burner_cpus", buf);
		rtp_json_string(j, "burner_policy", "other");
	}
}

static void ls_json_metrics(struct rtp_run *run, struct rtp_json *j)
{
	const struct ls_ctx *c = run->b;
	int i;

	for (i = 0; i < c->o.nscen; i++)
		if (c->ran[c->o.scen[i]])
			scenario_ops[c->o.scen[i]]->json_metrics(c, j);
}

static void ls_json_events(struct rtp_run *run, struct rtp_json *j)
{
	const struct ls_ctx *c = run->b;

	rtp_json_int(j, "abandoned_threads", c->abandoned);
}

static void ls_json_extra(struct rtp_run *run, struct rtp_json *j)
{
	const struct ls_ctx *c = run->b;
	int i;

	rtp_json_begin_object(j, "scenarios");
	for (i = 0; i < c->o.nscen; i++)
		if (c->ran[c->o.scen[i]])
			scenario_ops[c->o.scen[i]]->json_facts(c, j);
	rtp_json_end_object(j);
}

static int ls_rt_prio(struct rtp_run *run)
{
	const struct ls_ctx *c = run->b;

	return ls_needs_rt(&c->o) ? c->o.priority : 0;
}

static int ls_setup(struct rtp_run *run, char *why, size_t len)
{
	struct ls_ctx *c = run->b;

	(void)why;
	(void)len;
	c->run = run;
	c->attr_set = true;
	if (rtp_cpus_online(&c->online))
		CPU_ZERO(&c->online);
	return 0;
}

static int ls_scenarios(struct rtp_run *run)
{
	struct ls_ctx *c = run->b;
	cpu_set_t mainset;
	uint64_t end_ns;
	int ret, i, load_stacks;

	/* Keep this (SCHED_OTHER) supervisor off the CPU of the one-CPU scenarios. */
	mainset = c->online;
	CPU_CLR(c->o.cpu, &mainset);
	if (CPU_COUNT(&mainset))
		rtp_pin_set(0, &mainset);
	/*
	 * With RT workers the supervisor (signals, durations, the pi-chain
	 * watchdog) runs above them, as pi_stress's watchdog does: a FIFO
	 * thread hogging the CPU must not delay the stop.  It sleeps nearly
	 * all the time.  Workers set their own policy explicitly.
	 */
	if (ls_needs_rt(&c->o)) {
		struct rtp_sched s = { .policy = SCHED_FIFO,
				       .priority = c->o.priority < 99 ? c->o.priority + 1 : 99 };

		ret = rtp_sched_set(0, &s);
		if (ret)
			rtp_warn("cannot raise the supervisor to SCHED_FIFO %d: %s", s.priority,
				 strerror(-ret));
		else
			c->supervisor_prio = s.priority;
	}
	c->load_args = load_start(c, &c->load_cpus);
	load_stacks = c->nstacks;

	c->start_ns = rtp_now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < c->o.nscen && !ls_stopped(c) && !c->abandoned; i++) {
		const struct ls_scenario_ops *ops = scenario_ops[c->o.scen[i]];

		ret = ops->run(c);
		if (c->start_failed) {
			/* a thread could not start (said): the run is not what was asked */
			load_stop(c);
			return RTP_EXIT_ERROR;
		}
		c->ran[c->o.scen[i]] = true;
		ls_stacks_release(c, load_stacks);
		if (ret)
			rtp_error("%s: %s", ops->name, strerror(-ret));
	}
	end_ns = rtp_now_ns(CLOCK_MONOTONIC);
	load_stop(c);
	ls_stacks_release(c, 0);
	run->stopped_by = c->signal ? "signal" : "end";
	run->duration_s = (double)(end_ns - c->start_ns) / 1e9;
	return 0;
}

static void ls_decide(struct rtp_run *run, struct rtp_verdict *v)
{
	struct ls_ctx *c = run->b;
	int i;

	for (i = 0; i < c->o.nscen; i++) {
		const struct ls_scenario_ops *ops = scenario_ops[c->o.scen[i]];
		char reason[256] = "";
		size_t l = strlen(v->reason);

		if (!c->ran[c->o.scen[i]])
			continue;
		ops->verdict(c, v, reason, sizeof(reason));
		if (*reason)
			snprintf(v->reason + l, sizeof(v->reason) - l, "%s%s", l ? "; " : "", reason);
	}
	if (c->abandoned) {
		size_t l = strlen(v->reason);

		snprintf(v->reason + l, sizeof(v->reason) - l, "%s%d threads stuck and left behind",
			 l ? "; " : "", c->abandoned);
		rtp_verdict_check(v, "threads left stuck", "==", 0, c->abandoned, "threads");
	}
	if (c->signal) {
		size_t l = strlen(v->reason);

		snprintf(v->reason + l, sizeof(v->reason) - l, "%sstopped early by SIG%s",
			 l ? "; " : "", sigabbrev_np(c->signal));
	}
}

static void ls_summary(struct rtp_run *run, const struct rtp_verdict *v)
{
	struct ls_ctx *c = run->b;
	int i;

	(void)v;
	printf("\n%s: %.3f s, kernel %s (preempt %s), %d CPUs%s%s\n", LS_TOOL, run->duration_s,
	       run->si.kernel_release, run->si.preempt, run->si.cpus_online,
	       run->si.virtualized ? ", virtualized" : "", c->nload ? ", burners: cpu" : "");
	for (i = 0; i < c->o.nscen; i++)
		if (c->ran[c->o.scen[i]])
			scenario_ops[c->o.scen[i]]->print(c);
	printf("\n");
}

static void ls_teardown(struct rtp_run *run)
{
	struct ls_ctx *c = run->b;
	int i;

	if (c->abandoned) {
		/* Threads are stuck in a lock that lives in memory they use: leave now. */
		fflush(stdout);
		fflush(stderr);
		_exit(run->code);
	}
	if (!c->attr_set)
		return;
	free(c->load_args);
	for (i = 0; i < LS_NSCEN; i++)
		scenario_ops[i]->destroy(c);
	ls_stacks_release(c, 0);
	free(c->stacks);
	c->stacks = NULL;
}

static void ls_json_resources(struct rtp_run *run, struct rtp_json *j)
{
	struct ls_ctx *c = run->b;

	rtp_json_uint(j, "stack_bytes_per_thread", LS_STACK_BYTES);
	rtp_json_uint(j, "stack_peak_bytes", c->stack_peak);
}

const struct rtp_bench_ops ls_ops = {
	.tool = LS_TOOL,
	.duration_help = "1s per case of contention, percpu and spin-preempt",
	RTP_BENCH_OPTIONS(ls, struct ls_ctx, struct ls_opts),
	.rt_prio = ls_rt_prio,
	.setup = ls_setup,
	.run = ls_scenarios,
	.decide = ls_decide,
	.summary = ls_summary,
	.teardown = ls_teardown,
	.params = ls_json_params,
	.load = ls_json_load,
	.metrics = ls_json_metrics,
	.events = ls_json_events,
	.extra = ls_json_extra,
	.resources = ls_json_resources,
};

/* The options alone (the unit and fuzz tests): the ops table's parse and check. */
int ls_parse(struct ls_opts *o, int argc, char **argv)
{
	return rtp_run_parse(&ls_ops, o, argc, argv);
}

int lockstress_main(int argc, char **argv)
{
	return rtp_run_tool(&ls_ops, argc, argv);
}
