// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-lockstress: setup, the scenarios in turn, the summary and the result document. */
#include "lockstress.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	if (c->o.load != LS_LOAD_CPU)
		return NULL;
	args = calloc(CPU_SETSIZE, sizeof(*args));
	c->load_th = calloc(CPU_SETSIZE, sizeof(*c->load_th));
	if (!args || !c->load_th) {
		free(args);
		rtp_warn("--load cpu: out of memory; running without load");
		return NULL;
	}
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &c->online) || cpu == c->o.cpu)
			continue;
		args[n].c = c;
		args[n].cpu = cpu;
		if (pthread_create(&c->load_th[n], &c->attr, load_thread, &args[n]))
			break;
		CPU_SET(cpu, used);
		n++;
	}
	c->nload = n;
	if (!n)
		rtp_warn("--load cpu: no CPU besides CPU %d to load", c->o.cpu);
	return args;
}

static void load_stop(struct ls_ctx *c)
{
	int i;

	__atomic_store_n(&c->load_stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < c->nload; i++)
		ls_join(c, c->load_th[i], ls_now() + 2000000000ull);
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

static void write_params(const struct ls_ctx *c, struct rtp_json *j, const cpu_set_t *load_cpus)
{
	const struct ls_opts *o = &c->o;
	char buf[256];
	int i;

	rtp_json_begin_object(j, "params");
	json_names(j, "scenarios", o->scen, o->nscen, ls_scenario_names);
	json_names(j, "protocols", o->proto, o->nproto, ls_protocol_names);
	json_names(j, "kinds", o->kind, o->nkind, ls_kind_names);
	rtp_json_begin_array(j, "threads");
	for (i = 0; i < o->nthr; i++)
		rtp_json_int(j, NULL, o->threads[i]);
	rtp_json_end_array(j);
	rtp_json_uint(j, "iterations", o->iterations);
	rtp_json_double(j, "duration_s", (double)o->duration_ns / 1e9);
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
	rtp_json_bool(j, "mlockall", c->mlocked);
	rtp_json_int(j, "supervisor_priority", c->supervisor_prio);
	rtp_json_bool(j, "test_break_lock", o->break_lock);
	rtp_json_bool(j, "test_plant_deadlock", o->plant_deadlock);
	rtp_json_string(j, "clock", "CLOCK_MONOTONIC");
	rtp_json_end_object(j);

	rtp_json_begin_object(j, "load");
	rtp_json_string(j, "name", o->load == LS_LOAD_CPU ? "cpu" : "none");
	if (o->load == LS_LOAD_CPU) {
		rtp_format_cpulist(load_cpus, buf, sizeof(buf));
		rtp_json_string(j, "cpus", buf);
		rtp_json_string(j, "policy", "other");
	}
	rtp_json_end_object(j);
}

static int skip(struct ls_ctx *c, struct rtp_result *res, bool have_json, int argc,
		char **argv, const char *why)
{
	rtp_error("cannot measure here: %s", why);
	if (!have_json)
		return RTP_EXIT_SKIP;
	return rtp_result_skip(res, LS_TOOL, argc, argv, &c->si, &c->wall_start, why, NULL, NULL);
}

int lockstress_main(int argc, char **argv)
{
	struct rtp_result res;
	struct rtp_verdict v;
	struct ls_ctx *c;
	struct load_arg *load_args = NULL;
	cpu_set_t load_cpus, mainset;
	bool have_json = false, ran[LS_NSCEN] = { false };
	char why[512];
	uint64_t end_ns;
	int ret, i, code = RTP_EXIT_ERROR;

	c = calloc(1, sizeof(*c));
	if (!c) {
		rtp_error("out of memory");
		return RTP_EXIT_ERROR;
	}
	/* mlockall(MCL_FUTURE) would lock a default 8 MiB stack per thread. */
	pthread_attr_init(&c->attr);
	pthread_attr_setstacksize(&c->attr, LS_STACK_BYTES);
	ret = ls_parse(&c->o, argc, argv);
	if (ret) {
		code = ret == LS_HELP_SHOWN ? RTP_EXIT_PASS : ret;
		goto out_free;
	}
	/* Signals first: the threads inherit the mask; only this thread takes them. */
	if (rtp_run_begin(&c->sigs, &c->si, &c->wall_start, &res, c->o.json))
		goto out_free;
	have_json = c->o.json != NULL;
	if (rtp_cpus_online(&c->online))
		CPU_ZERO(&c->online);
	if (ls_needs_rt(&c->o) && !rtp_can_rt(c->o.priority, why, sizeof(why))) {
		code = skip(c, &res, have_json, argc, argv, why);
		goto out_free;
	}
	if (c->o.mlock) {
		ret = rtp_mlock_all(256 * 1024);
		if (ret)
			rtp_warn("mlockall: %s; page faults may add latency", strerror(-ret));
		c->mlocked = !ret;
	}
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
	load_args = load_start(c, &load_cpus);

	c->start_ns = ls_now();
	for (i = 0; i < c->o.nscen && !ls_stopped(c) && !c->abandoned; i++) {
		const struct ls_scenario_ops *ops = scenario_ops[c->o.scen[i]];

		ret = ops->run(c);
		ran[c->o.scen[i]] = true;
		if (ret)
			rtp_error("%s: %s", ops->name, strerror(-ret));
	}
	end_ns = ls_now();
	load_stop(c);
	free(load_args);

	memset(&v, 0, sizeof(v));
	v.status = RTP_PASS;
	for (i = 0; i < c->o.nscen; i++) {
		const struct ls_scenario_ops *ops = scenario_ops[c->o.scen[i]];
		char reason[256] = "";
		size_t l = strlen(v.reason);

		if (!ran[c->o.scen[i]])
			continue;
		ops->verdict(c, &v, reason, sizeof(reason));
		if (*reason)
			snprintf(v.reason + l, sizeof(v.reason) - l, "%s%s", l ? "; " : "", reason);
	}
	if (c->abandoned) {
		size_t l = strlen(v.reason);

		snprintf(v.reason + l, sizeof(v.reason) - l, "%s%d threads stuck and left behind",
			 l ? "; " : "", c->abandoned);
		rtp_verdict_check(&v, "threads left stuck", "==", 0, c->abandoned, "threads");
	}
	if (c->signal) {
		size_t l = strlen(v.reason);

		snprintf(v.reason + l, sizeof(v.reason) - l, "%sstopped early by SIG%s",
			 l ? "; " : "", sigabbrev_np(c->signal));
	}

	printf("\n%s: %.3f s, kernel %s (preempt %s), %d CPUs%s%s\n", LS_TOOL,
	       (double)(end_ns - c->start_ns) / 1e9, c->si.kernel_release, c->si.preempt,
	       c->si.cpus_online, c->si.virtualized ? ", virtualized" : "",
	       c->nload ? ", load: cpu burners" : "");
	for (i = 0; i < c->o.nscen; i++)
		if (ran[c->o.scen[i]])
			scenario_ops[c->o.scen[i]]->print(c);
	printf("\nverdict: %s: %s\n", rtp_status_name(v.status), v.reason);
	fflush(stdout);

	if (have_json) {
		struct rtp_json *j = &res.json;

		rtp_result_header(&res, LS_TOOL, argc, argv, &c->si, &c->wall_start);
		write_params(c, j, &load_cpus);
		rtp_json_begin_array(j, "metrics");
		for (i = 0; i < c->o.nscen; i++)
			if (ran[c->o.scen[i]])
				scenario_ops[c->o.scen[i]]->json_metrics(c, j);
		rtp_json_end_array(j);
		rtp_json_begin_object(j, "events");
		rtp_json_string(j, "stopped_by", c->signal ? "signal" : "end");
		if (c->signal)
			rtp_json_string(j, "signal", sigabbrev_np(c->signal));
		rtp_json_int(j, "abandoned_threads", c->abandoned);
		rtp_json_end_object(j);
		rtp_json_begin_object(j, "scenarios");
		for (i = 0; i < c->o.nscen; i++)
			if (ran[c->o.scen[i]])
				scenario_ops[c->o.scen[i]]->json_facts(c, j);
		rtp_json_end_object(j);
		have_json = false;
		ret = rtp_result_commit(&res, (double)(end_ns - c->start_ns) / 1e9, &v);
		if (ret) {
			rtp_error("--json %s: cannot write: %s", c->o.json, strerror(-ret));
			v.status = RTP_ERROR;
		}
	}
	code = rtp_status_exit(v.status);
	if (c->abandoned) {
		/* Threads are stuck in a lock that lives in memory they use: leave now. */
		fflush(stdout);
		fflush(stderr);
		_exit(code);
	}
	for (i = 0; i < LS_NSCEN; i++)
		scenario_ops[i]->destroy(c);
out_free:
	if (have_json)
		rtp_result_abort(&res);
	pthread_attr_destroy(&c->attr);
	free(c);
	return code;
}
