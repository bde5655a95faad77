// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * percpu: the -RT tree's "locked per-CPU variable" in user space.  Threads
 * that may migrate between the CPUs of --cpus update counters:
 *
 *   percpu-lock   the counter of the CPU they run on, behind that CPU's own
 *                 lock: a thread preempted or migrated after sched_getcpu()
 *                 still updates safely, it just takes another CPU's lock
 *   global-lock   one counter behind one lock
 *   atomic        the per-CPU counter with an atomic add, no lock
 *
 * Reports updates/s and the wait (lock call to acquisition; for atomic the
 * add itself), and checks that the counters sum exactly to the updates.
 */
#include "lockstress.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "opt.h"
#include "rt.h"

#define START_DELAY_NS 20000000ull

enum { PC_PERCPU, PC_GLOBAL, PC_ATOMIC, PC_NVAR };
static const char *const var_names[PC_NVAR] = { "percpu-lock", "global-lock", "atomic" };

struct pc_slot {
	pthread_mutex_t m;
	uint64_t count;
} __attribute__((aligned(64)));

struct pc_thr {
	struct rtp_hist wait;
	struct pc_run *r;
	int idx;
	pthread_t th;
	int err;
	uint64_t ops;
	uint64_t migrations;		/* CPU changed between two updates */
	uint64_t moved_in_section;	/* CPU changed while holding the per-CPU lock */
	uint64_t end_ns;
	int cur_cpu;			/* atomic: where its last update ran (for the migrator) */
};

struct pc_var {
	struct rtp_hist_wide all;
	bool ran;
	int err;
	double elapsed_s;
	uint64_t ops, sum, lost, migrations, moved_in_section;
};

struct ls_percpu {
	struct pc_var v[PC_NVAR];
	int nthreads;
	int nslots;
	int prio;
	uint64_t lost_total;
	int errors;
};

struct pc_run {
	struct pc_slot *slot;		/* per CPU, indexed by CPU number */
	struct pc_slot global;
	int nslots;
	int var;
	int stop __attribute__((aligned(64)));
	struct ls_ctx *c;
	struct rtp_gate gate;
	uint64_t start_ns;
	struct pc_thr *t;
	unsigned tick;			/* the migrator's state (supervisor only) */
	int moved;
};

static struct pc_slot *slot_of(struct pc_run *r, int cpu)
{
	return &r->slot[cpu >= 0 && cpu < r->nslots ? cpu : 0];
}

static void pc_work(struct pc_thr *t)
{
	struct pc_run *r = t->r;
	const struct ls_opts *o = &r->c->o;
	const bool broken = o->break_lock;
	int last = -1;

	ls_sleep_until(r->start_ns);
	while (!__atomic_load_n(&r->stop, __ATOMIC_RELAXED)) {
		uint64_t t_req = rtp_now_ns(CLOCK_MONOTONIC), t_acq, cnt;
		int cpu = sched_getcpu();
		struct pc_slot *s = r->var == PC_GLOBAL ? &r->global : slot_of(r, cpu);

		__atomic_store_n(&t->cur_cpu, cpu, __ATOMIC_RELAXED);

		if (r->var == PC_ATOMIC) {
			__atomic_fetch_add(&s->count, 1, __ATOMIC_RELAXED);
			t_acq = rtp_now_ns(CLOCK_MONOTONIC);
		} else {
			pthread_mutex_lock(&s->m);
			t_acq = rtp_now_ns(CLOCK_MONOTONIC);
			cnt = __atomic_load_n(&s->count, __ATOMIC_RELAXED);
			if (broken)
				pthread_mutex_unlock(&s->m);	/* the planted bug */
			ls_spin_wall(o->cs_ns);
			__atomic_store_n(&s->count, cnt + 1, __ATOMIC_RELAXED);
			if (r->var == PC_PERCPU && sched_getcpu() != cpu)
				t->moved_in_section++;
			if (!broken)
				pthread_mutex_unlock(&s->m);
		}
		rtp_hist_record_at(&t->wait, t_acq - t_req, t_req);
		t->ops++;
		if (last >= 0 && cpu != last)
			t->migrations++;
		last = cpu;
		ls_spin_wall(o->think_ns);
	}
	t->end_ns = rtp_now_ns(CLOCK_MONOTONIC);
}

static void *pc_thread(void *arg)
{
	struct pc_thr *t = arg;
	struct pc_run *r = t->r;

	/* The whole set: the threads are meant to migrate. */
	t->err = ls_thread_setup(-1, &r->c->o.cpus, r->c->o.policy, r->c->pcp->prio);
	if (rtp_gate_pass(&r->gate, t->err) && !__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE))
		pc_work(t);
	rtp_run_wake(r->c->run);
	return NULL;
}

/*
 * The supervisor's tick: pins one thread to one CPU other than the one it
 * last ran on, the next tick gives it the whole set back, so migrations
 * happen often (and some in the section), however little the scheduler
 * moves the threads by itself (a loaded host: none in a 400 ms run once).
 */
static int migrate(void *arg)
{
	struct pc_run *r = arg;
	const cpu_set_t *all = &r->c->o.cpus;
	int n = r->c->pcp->nthreads, k, cpu, i, here, ncpu = CPU_COUNT(all);
	cpu_set_t one;

	if (r->tick++ & 1) {
		pthread_setaffinity_np(r->t[r->moved].th, sizeof(*all), all);
		return 0;
	}
	r->moved = (int)((r->tick / 2) % (unsigned)n);
	here = __atomic_load_n(&r->t[r->moved].cur_cpu, __ATOMIC_RELAXED);
	k = (int)((r->tick / 2 / (unsigned)n) % (unsigned)ncpu);
	for (cpu = 0, i = -1; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, all) && ++i == k)
			break;
	/* the next CPU of the set instead, where that one is where it ran */
	if (cpu == here && ncpu > 1)
		for (i = 1; i < CPU_SETSIZE; i++)
			if (CPU_ISSET((cpu + i) % CPU_SETSIZE, all)) {
				cpu = (cpu + i) % CPU_SETSIZE;
				break;
			}
	CPU_ZERO(&one);
	CPU_SET(cpu < CPU_SETSIZE ? cpu : 0, &one);
	pthread_setaffinity_np(r->t[r->moved].th, sizeof(one), &one);
	return 0;
}

static int run_var(struct ls_ctx *c, struct ls_percpu *pc, int var)
{
	struct pc_var *v = &pc->v[var];
	struct pc_run *r;
	uint64_t deadline, end;
	int i, ret = 0, started, stacks = c->nstacks;

	r = aligned_alloc(64, (sizeof(*r) + 63) & ~(size_t)63);
	if (!r)
		return -ENOMEM;
	memset(r, 0, sizeof(*r));
	r->c = c;
	r->var = var;
	r->nslots = pc->nslots;
	r->slot = aligned_alloc(64, sizeof(*r->slot) * (size_t)pc->nslots);
	r->t = aligned_alloc(64, ((sizeof(*r->t) * (size_t)pc->nthreads) + 63) & ~(size_t)63);
	if (!r->slot || !r->t) {
		free(r->slot);
		free(r->t);
		free(r);
		return -ENOMEM;
	}
	memset(r->slot, 0, sizeof(*r->slot) * (size_t)pc->nslots);
	memset(r->t, 0, sizeof(*r->t) * (size_t)pc->nthreads);
	for (i = 0; i < pc->nslots; i++)
		pthread_mutex_init(&r->slot[i].m, NULL);
	pthread_mutex_init(&r->global.m, NULL);
	rtp_gate_init(&r->gate);
	for (i = 0; i < pc->nthreads; i++) {
		r->t[i].r = r;
		r->t[i].idx = i;
		rtp_hist_init(&r->t[i].wait);
		ret = ls_start(c, &r->gate, &r->t[i].th, pc_thread, &r->t[i], "percpu", "thread", i);
		if (ret)
			break;
	}
	started = i;
	rtp_gate_ready(&r->gate);
	for (i = 0; i < started; i++)
		if (r->t[i].err && !ret) {
			ret = r->t[i].err;
			rtp_error("percpu: thread %d: cannot set its CPUs and policy: %s", i,
				  strerror(-ret));
			__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
		}
	r->start_ns = rtp_now_ns(CLOCK_MONOTONIC) + START_DELAY_NS;
	rtp_gate_open(&r->gate, !ret);
	if (!ret)
		ls_supervise(c, r->start_ns + c->o.co.duration_ns, 5000000ull, migrate, r);
	__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
	deadline = rtp_now_ns(CLOCK_MONOTONIC) + 2000000000ull + 10 * c->o.cs_ns + 10 * c->o.think_ns;
	for (i = 0; i < started; i++)
		if (ls_join(c, r->t[i].th, deadline))
			rtp_error("percpu: %s, thread %d did not stop", var_names[var], i);
	if (c->abandoned)
		return ret ? ret : -ETIMEDOUT;
	ls_stacks_release(c, stacks);
	rtp_hist_init_wide(&v->all);
	end = r->start_ns;
	for (i = 0; i < pc->nthreads; i++) {
		const struct pc_thr *t = &r->t[i];

		rtp_hist_merge(&v->all.h, &t->wait);
		v->ops += t->ops;
		v->migrations += t->migrations;
		v->moved_in_section += t->moved_in_section;
		if (t->end_ns > end)
			end = t->end_ns;
	}
	v->sum = r->global.count;
	for (i = 0; i < pc->nslots; i++)
		v->sum += r->slot[i].count;
	v->lost = v->ops > v->sum ? v->ops - v->sum : 0;
	v->elapsed_s = (double)(end - r->start_ns) / 1e9;
	v->ran = !ret;
	for (i = 0; i < pc->nslots; i++)
		pthread_mutex_destroy(&r->slot[i].m);
	pthread_mutex_destroy(&r->global.m);
	rtp_gate_destroy(&r->gate);
	free(r->slot);
	free(r->t);
	free(r);
	return ret;
}

static int pc_run_fn(struct ls_ctx *c)
{
	struct ls_percpu *pc;
	int var, cpu, ret;

	pc = calloc(1, sizeof(*pc));
	if (!pc)
		return -ENOMEM;
	c->pcp = pc;
	pc->nthreads = c->o.percpu_threads ? c->o.percpu_threads : 2 * CPU_COUNT(&c->o.cpus);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &c->online) || CPU_ISSET(cpu, &c->o.cpus))
			pc->nslots = cpu + 1;
	if (pc->nslots < 1)
		pc->nslots = 1;
	pc->prio = c->o.priority > 10 ? c->o.priority - 10 : 1;
	for (var = 0; var < PC_NVAR && !ls_stopped(c); var++) {
		if (!c->o.co.quiet)
			printf("percpu: %s, %d migrating threads, %.3f s...\n", var_names[var],
			       pc->nthreads, (double)c->o.co.duration_ns / 1e9);
		fflush(stdout);
		ret = run_var(c, pc, var);
		if (ret) {
			pc->v[var].err = ret;
			pc->errors++;
			if (c->abandoned)
				break;
			continue;
		}
		pc->lost_total += pc->v[var].lost;
	}
	return 0;
}

static void pc_print(const struct ls_ctx *c)
{
	const struct ls_percpu *pc = c->pcp;
	char a[24], b[24], d[24], cpus[128];
	int var;

	if (!pc)
		return;
	rtp_format_cpulist(&c->o.cpus, cpus, sizeof(cpus));
	printf("\npercpu: %d threads free to migrate over CPUs %s, %s, section %s, think %s%s\n",
	       pc->nthreads, cpus, c->o.policy == SCHED_FIFO ? "SCHED_FIFO" : "SCHED_OTHER",
	       rtp_format_ns(c->o.cs_ns, a, sizeof(a)), rtp_format_ns(c->o.think_ns, b, sizeof(b)),
	       c->o.break_lock ? ", TEST: lock dropped before the update" : "");
	printf("%-12s %14s %10s %10s %10s %11s %9s %12s %s\n", "variant", "updates/s", "p50 wait",
	       "p99 wait", "max wait", "migrations", "moved in", "lost updates", "sum");
	for (var = 0; var < PC_NVAR; var++) {
		const struct pc_var *v = &pc->v[var];

		if (!v->ran)
			continue;
		printf("%-12s %14.0f %10s %10s %10s %11llu %9llu %12llu %s\n", var_names[var],
		       v->elapsed_s > 0 ? (double)v->ops / v->elapsed_s : 0.0,
		       rtp_format_ns(rtp_hist_percentile(&v->all.h, 50), a, sizeof(a)),
		       rtp_format_ns(rtp_hist_percentile(&v->all.h, 99), b, sizeof(b)),
		       rtp_format_ns(v->all.h.max, d, sizeof(d)), (unsigned long long)v->migrations,
		       (unsigned long long)v->moved_in_section, (unsigned long long)v->lost,
		       v->sum == v->ops ? "exact" : "MISMATCH");
	}
}

static void pc_json_metrics(const struct ls_ctx *c, struct rtp_json *j)
{
	const struct ls_percpu *pc = c->pcp;
	int var;

	if (!pc)
		return;
	for (var = 0; var < PC_NVAR; var++) {
		const struct pc_var *v = &pc->v[var];

		if (!v->ran)
			continue;
		ls_json_metric_begin(j, "percpu_wait");
		rtp_json_string(j, "scenario", "percpu");
		rtp_json_string(j, "variant", var_names[var]);
		rtp_json_int(j, "threads", pc->nthreads);
		rtp_json_string(j, "thread", "all");
		ls_json_metric_end(j, &v->all.h);
	}
}

static void pc_json_facts(const struct ls_ctx *c, struct rtp_json *j)
{
	const struct ls_percpu *pc = c->pcp;
	int var;

	if (!pc)
		return;
	rtp_json_begin_object(j, "percpu");
	rtp_json_int(j, "threads", pc->nthreads);
	rtp_json_bool(j, "test_break_lock", c->o.break_lock);
	rtp_json_uint(j, "lost_updates", pc->lost_total);
	rtp_json_begin_array(j, "variants");
	for (var = 0; var < PC_NVAR; var++) {
		const struct pc_var *v = &pc->v[var];

		rtp_json_begin_object(j, NULL);
		rtp_json_string(j, "variant", var_names[var]);
		rtp_json_bool(j, "ran", v->ran);
		if (v->ran) {
			rtp_json_double(j, "elapsed_s", v->elapsed_s);
			rtp_json_uint(j, "updates", v->ops);
			rtp_json_double(j, "updates_per_s", v->elapsed_s > 0 ? (double)v->ops / v->elapsed_s : 0);
			rtp_json_uint(j, "wait_p50_ns", rtp_hist_percentile(&v->all.h, 50));
			rtp_json_uint(j, "wait_p99_ns", rtp_hist_percentile(&v->all.h, 99));
			rtp_json_uint(j, "wait_max_ns", v->all.h.max);
			rtp_json_uint(j, "migrations", v->migrations);
			rtp_json_uint(j, "moved_in_section", v->moved_in_section);
			rtp_json_uint(j, "sum", v->sum);
			rtp_json_uint(j, "lost_updates", v->lost);
			rtp_json_bool(j, "exact", v->sum == v->ops);
		} else if (v->err) {
			rtp_json_string(j, "error", strerror(-v->err));
		}
		rtp_json_end_object(j);
	}
	rtp_json_end_array(j);
	rtp_json_end_object(j);
}

static void pc_verdict(const struct ls_ctx *c, struct rtp_verdict *v, char *reason, size_t len)
{
	const struct ls_percpu *pc = c->pcp;

	if (!pc)
		return;
	rtp_verdict_check(v, "percpu lost updates", "==", 0, (double)pc->lost_total, "updates");
	if (pc->errors && v->status == RTP_PASS)
		v->status = RTP_ERROR;
	if (pc->lost_total)
		snprintf(reason, len, "percpu: %llu lost updates", (unsigned long long)pc->lost_total);
	else if (pc->errors)
		snprintf(reason, len, "percpu: %d variants could not run", pc->errors);
	else
		snprintf(reason, len, "percpu: every sum exact");
}

static void pc_destroy(struct ls_ctx *c)
{
	free(c->pcp);
	c->pcp = NULL;
}

const struct ls_scenario_ops ls_percpu_ops = {
	.name = "percpu",
	.run = pc_run_fn,
	.print = pc_print,
	.json_metrics = pc_json_metrics,
	.json_facts = pc_json_facts,
	.verdict = pc_verdict,
	.destroy = pc_destroy,
};
