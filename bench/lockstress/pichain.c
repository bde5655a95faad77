// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pi-chain: nested PI mutexes across a chain of threads on one CPU.
 * Thread i holds M[i] and waits for M[i+1]; the bottom thread holds the
 * last mutex and works 'hold' of CPU time.  A burner, below the top thread
 * but above every other chain thread, becomes runnable before the top asks
 * for M[1]: only if the boost propagates down the chain does the bottom
 * preempt the burner and the top get its lock within hold + margin.
 *
 * A watchdog (as in pi_stress) watches every lock wait: one longer than
 * --watchdog is a stall; the wait-for graph (thread -> mutex -> owner) is
 * followed to tell a deadlock (a cycle) from a stalled chain.  All lock
 * waits are timed, so the threads come back even from a real deadlock.
 */
#include "lockstress.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "log.h"
#include "rt.h"

#define MAXC		8
#define LINK_CS_NS	10000ull
#define START_DELAY_NS	20000000ull
#define TICK_NS		10000000ull

struct ls_pichain {
	struct rtp_hist wait;		/* top: from its intended release to M[1] */
	int n;
	int prio[MAXC];
	int burner_prio;
	int cpu;
	uint64_t period_ns, step_ns, bound_ns;
	uint64_t rounds, valid, skipped, timeouts;
	uint64_t boost_reads, propagated;
	uint64_t disturb_ns;		/* interference above this: the round is not judged */
	uint64_t disturbed, clean, clean_max;
	struct rtp_hist interference;
	int bottom_prio_max;
	bool stalled, deadlock;
	uint64_t detect_ns;		/* the stalled wait's age when the watchdog fired */
	uint64_t cycle_age_ns;		/* since the cycle closed (its newest wait began) */
	char graph[512];
	int err;
	char err_what[96];
	double duration_s;
};

struct pic_thr {
	struct pic_run *r;
	int idx;			/* 0 = top; n = the burner */
	pthread_t th;
	int err;
	int done;			/* atomic */
	int waiting_on;			/* atomic: mutex index or -1 */
	uint64_t wait_since;		/* atomic: 0 when not waiting */
	uint64_t base_cpu[2];		/* atomic: CPU time before the release of round k, at [k & 1] */
};

struct pic_run {
	struct ls_ctx *c;
	struct ls_pichain *pc;
	pthread_mutex_t m[MAXC];
	int owner[MAXC];		/* atomic: thread index or -1 */
	struct pic_thr t[MAXC + 1];
	clockid_t clk[MAXC + 1];
	struct rtp_gate gate;
	uint64_t start_ns;
	uint64_t ok_round;		/* atomic */
	int stop;			/* atomic: the watchdog fired */
};

static bool stopping(const struct pic_run *r)
{
	return __atomic_load_n(&r->stop, __ATOMIC_RELAXED) || ls_stopped(r->c);
}

static int tlock(struct pic_run *r, struct pic_thr *t, int m)
{
	int ret;

	__atomic_store_n(&t->waiting_on, m, __ATOMIC_RELEASE);
	__atomic_store_n(&t->wait_since, rtp_now_ns(CLOCK_MONOTONIC), __ATOMIC_RELEASE);
	/* Twice the watchdog: it fires first and sees the graph intact. */
	ret = ls_mutex_lock_for(&r->m[m], 2 * r->c->o.watchdog_ns);
	if (!ret)
		__atomic_store_n(&r->owner[m], t->idx, __ATOMIC_RELEASE);
	__atomic_store_n(&t->wait_since, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&t->waiting_on, -1, __ATOMIC_RELEASE);
	return ret;
}

static void tunlock(struct pic_run *r, int m)
{
	__atomic_store_n(&r->owner[m], -1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&r->m[m]);
}

static uint64_t release_of(const struct pic_run *r, int idx)
{
	const struct ls_pichain *pc = r->pc;

	if (idx == pc->n)		/* the burner, after every chain thread but the top */
		return (uint64_t)(pc->n - 1) * pc->step_ns;
	if (idx == 0)
		return (uint64_t)pc->n * pc->step_ns;
	return (uint64_t)(pc->n - 1 - idx) * pc->step_ns;
}

static void store_base(struct pic_thr *t, uint64_t k)
{
	__atomic_store_n(&t->base_cpu[k & 1], rtp_now_ns(CLOCK_THREAD_CPUTIME_ID), __ATOMIC_RELEASE);
}

/* Wall time in [t0, now] that none of the scenario's threads ran: someone else's. */
static uint64_t interference(struct pic_run *r, uint64_t k, uint64_t t0, uint64_t now)
{
	uint64_t ours = 0;
	struct timespec ts;
	int i;

	for (i = 0; i <= r->pc->n; i++) {
		if (clock_gettime(r->clk[i], &ts))
			return 0;
		ours += rtp_ts_ns(&ts) -
			__atomic_load_n(&r->t[i].base_cpu[k & 1], __ATOMIC_ACQUIRE);
	}
	return now - t0 > ours ? now - t0 - ours : 0;
}

static void bottom_loop(struct pic_run *r, struct pic_thr *t)
{
	struct ls_pichain *pc = r->pc;
	const struct ls_opts *o = &r->c->o;
	int fd = ls_open_self_stat(), me = pc->n - 1, prio;
	uint64_t k;

	for (k = 0; k < o->iterations && !stopping(r); k++) {
		uint64_t t0 = r->start_ns + k * pc->period_ns;

		store_base(t, k);
		if (!ls_sleep_until_or(t0, &r->stop, &r->c->stop))
			break;
		if (tlock(r, t, me))
			continue;
		if (rtp_now_ns(CLOCK_MONOTONIC) - t0 < pc->step_ns)
			__atomic_store_n(&r->ok_round, k + 1, __ATOMIC_RELEASE);
		ls_burn_cpu(o->hold_ns, NULL);
		prio = ls_effective_prio(fd);
		if (prio > pc->bottom_prio_max)
			pc->bottom_prio_max = prio;
		pc->boost_reads++;
		pc->propagated += prio == pc->prio[0];
		if (o->plant_deadlock && !tlock(r, t, 0))	/* the planted cycle */
			tunlock(r, 0);
		tunlock(r, me);
	}
	if (fd >= 0)
		close(fd);
}

static void link_loop(struct pic_run *r, struct pic_thr *t)
{
	struct ls_pichain *pc = r->pc;
	const struct ls_opts *o = &r->c->o;
	uint64_t k;

	for (k = 0; k < o->iterations && !stopping(r); k++) {
		uint64_t t0 = r->start_ns + k * pc->period_ns, rel = t0 + release_of(r, t->idx), acq;
		uint64_t inter;
		int ret;

		store_base(t, k);
		if (!ls_sleep_until_or(rel, &r->stop, &r->c->stop))
			break;
		if (tlock(r, t, t->idx)) {
			if (!t->idx)
				pc->timeouts++;
			continue;
		}
		ret = tlock(r, t, t->idx + 1);
		acq = rtp_now_ns(CLOCK_MONOTONIC);
		inter = t->idx ? 0 : interference(r, k, t0, acq);
		if (!ret) {
			ls_burn_cpu(LINK_CS_NS, NULL);
			tunlock(r, t->idx + 1);
		}
		tunlock(r, t->idx);
		if (t->idx)
			continue;
		pc->rounds++;
		if (ret) {
			pc->timeouts++;
			rtp_hist_record_at(&pc->wait, acq - rel, rel);
		} else if (__atomic_load_n(&r->ok_round, __ATOMIC_ACQUIRE) != k + 1) {
			pc->skipped++;
		} else {
			pc->valid++;
			rtp_hist_record_at(&pc->wait, acq - rel, rel);
			rtp_hist_record_at(&pc->interference, inter, rel);
			if (inter > pc->disturb_ns) {
				pc->disturbed++;
			} else {
				pc->clean++;
				if (acq - rel > pc->clean_max)
					pc->clean_max = acq - rel;
			}
		}
	}
}

static void burner_loop(struct pic_run *r, struct pic_thr *t)
{
	const struct ls_opts *o = &r->c->o;
	uint64_t k;

	for (k = 0; k < o->iterations && !stopping(r); k++) {
		store_base(t, k);
		if (!ls_sleep_until_or(r->start_ns + k * r->pc->period_ns + release_of(r, r->pc->n),
				       &r->stop, &r->c->stop))
			break;
		ls_burn_cpu(o->burn_ns, &r->stop);
	}
}

static void *pic_thread(void *arg)
{
	struct pic_thr *t = arg;
	struct pic_run *r = t->r;
	struct ls_pichain *pc = r->pc;
	int prio = t->idx == pc->n ? pc->burner_prio : pc->prio[t->idx], i;
	bool ok = true;

	t->err = ls_thread_setup(pc->cpu, NULL, SCHED_FIFO, prio);
	/* no prefault: the stack was painted, so faulted in, when mapped (stack.h) */
	ok = rtp_gate_pass(&r->gate, t->err);
	for (i = 0; i <= pc->n; i++)
		ok &= !r->t[i].err;
	if (ok && !stopping(r)) {
		if (t->idx == pc->n)
			burner_loop(r, t);
		else if (t->idx == pc->n - 1)
			bottom_loop(r, t);
		else
			link_loop(r, t);
	}
	__atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
	rtp_run_wake(r->c->run);
	return NULL;
}

/* Follows the wait-for graph from thread 'from'; writes it; returns true on a cycle. */
static bool follow(struct pic_run *r, int from, uint64_t now)
{
	struct ls_pichain *pc = r->pc;
	bool seen[MAXC] = { false };
	uint64_t newest = 0;
	size_t len = 0;
	int i = from, m, o;

	pc->graph[0] = 0;
	while (i >= 0 && i < pc->n && !seen[i]) {
		uint64_t ws = __atomic_load_n(&r->t[i].wait_since, __ATOMIC_ACQUIRE);

		seen[i] = true;
		m = __atomic_load_n(&r->t[i].waiting_on, __ATOMIC_ACQUIRE);
		if (m < 0 || !ws) {
			len += (size_t)snprintf(pc->graph + len, sizeof(pc->graph) - len,
						"T%d is not waiting (runnable: starved or working)", i);
			return false;
		}
		if (ws > newest)
			newest = ws;
		o = __atomic_load_n(&r->owner[m], __ATOMIC_ACQUIRE);
		len += (size_t)snprintf(pc->graph + len, sizeof(pc->graph) - len,
					"T%d waits for M%d (held by %s%d); ", i, m, o >= 0 ? "T" : "nobody: ", o >= 0 ? o : 0);
		if (len >= sizeof(pc->graph))
			len = sizeof(pc->graph) - 1;
		if (o < 0)
			return false;
		if (seen[o]) {
			pc->cycle_age_ns = now - newest;
			snprintf(pc->graph + len, sizeof(pc->graph) - len, "a cycle");
			return true;
		}
		i = o;
	}
	return false;
}

static int watchdog(void *arg)
{
	struct pic_run *r = arg;
	struct ls_pichain *pc = r->pc;
	uint64_t now = rtp_now_ns(CLOCK_MONOTONIC), oldest = 0;
	int i, who = -1;
	bool all = true;

	for (i = 0; i <= pc->n; i++)
		all &= __atomic_load_n(&r->t[i].done, __ATOMIC_ACQUIRE);
	if (all)
		return 1;
	for (i = 0; i < pc->n; i++) {
		uint64_t ws = __atomic_load_n(&r->t[i].wait_since, __ATOMIC_ACQUIRE);

		if (ws && now > ws && now - ws > r->c->o.watchdog_ns && (!oldest || ws < oldest)) {
			oldest = ws;
			who = i;
		}
	}
	if (who < 0)
		return 0;
	pc->stalled = true;
	pc->detect_ns = now - oldest;
	pc->deadlock = follow(r, who, now);
	__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
	return 2;
}

static int pic_run_fn(struct ls_ctx *c)
{
	struct ls_pichain *pc;
	struct pic_run *r;
	uint64_t deadline;
	int i, ret = 0, started = 0;

	pc = calloc(1, sizeof(*pc));
	r = calloc(1, sizeof(*r));
	if (!pc || !r) {
		free(pc);
		free(r);
		return -ENOMEM;
	}
	c->pic = pc;
	rtp_hist_init(&pc->wait);
	rtp_hist_init(&pc->interference);
	pc->n = c->o.chain;
	pc->cpu = c->o.cpu;
	pc->prio[0] = c->o.priority;
	pc->burner_prio = c->o.priority - 1;
	for (i = 1; i < pc->n; i++)
		pc->prio[i] = c->o.priority - 1 - i;
	pc->step_ns = c->o.hold_ns / (2 * (uint64_t)(pc->n + 1));
	pc->period_ns = 2 * (c->o.hold_ns + c->o.burn_ns + (uint64_t)pc->n * LINK_CS_NS) + 2000000ull;
	pc->bound_ns = c->o.hold_ns + (uint64_t)pc->n * LINK_CS_NS + ls_margin_ns(&c->o);
	pc->bottom_prio_max = -1;
	pc->disturb_ns = ls_margin_ns(&c->o) / 2;
	r->c = c;
	r->pc = pc;
	for (i = 0; i < pc->n; i++) {
		ret = ls_mutex_init(&r->m[i], LS_PROTO_INHERIT, 0, PTHREAD_MUTEX_NORMAL);
		if (ret) {
			snprintf(pc->err_what, sizeof(pc->err_what), "create a PI mutex");
			pc->err = ret;
			free(r);
			return ret;
		}
		r->owner[i] = -1;
	}
	if (!c->o.co.quiet)
		printf("pi-chain: %d threads, %llu iterations of %.3f s%s...\n", pc->n,
		       (unsigned long long)c->o.iterations, (double)pc->period_ns / 1e9,
		       c->o.plant_deadlock ? " (TEST: planted deadlock)" : "");
	fflush(stdout);
	rtp_gate_init(&r->gate);
	for (i = 0; i <= pc->n; i++) {
		r->t[i].r = r;
		r->t[i].idx = i;
		r->t[i].waiting_on = -1;
		ret = ls_start(c, &r->gate, &r->t[i].th, pic_thread, &r->t[i], "pi-chain", "thread", i);
		if (ret) {
			pc->err = ret;
			snprintf(pc->err_what, sizeof(pc->err_what), "start thread %d", i);
			break;
		}
		started++;
	}
	rtp_gate_ready(&r->gate);
	if (started <= pc->n) {
		/* The gate opened to leave: the started threads return. */
		for (i = 0; i < started; i++)
			ls_join(c, r->t[i].th, rtp_now_ns(CLOCK_MONOTONIC) + 1000000000ull);
		if (!c->abandoned) {
			rtp_gate_destroy(&r->gate);
			for (i = 0; i < pc->n; i++)
				pthread_mutex_destroy(&r->m[i]);
			free(r);
		}
		return ret;
	}
	for (i = 0; i <= pc->n; i++)
		if (r->t[i].err && !pc->err) {
			pc->err = r->t[i].err;
			snprintf(pc->err_what, sizeof(pc->err_what), "set SCHED_FIFO %d on CPU %d",
				 i == pc->n ? pc->burner_prio : pc->prio[i], pc->cpu);
		}
	for (i = 0; i <= pc->n && !pc->err; i++) {
		if (pthread_getcpuclockid(r->t[i].th, &r->clk[i])) {
			pc->err = -ENOTSUP;
			snprintf(pc->err_what, sizeof(pc->err_what), "read thread %d's CPU clock", i);
			r->t[0].err = pc->err;	/* the threads see it and leave */
		}
	}
	r->start_ns = rtp_now_ns(CLOCK_MONOTONIC) + START_DELAY_NS;
	rtp_gate_open(&r->gate, !pc->err);
	deadline = r->start_ns + (c->o.iterations + 1) * pc->period_ns + 2 * c->o.watchdog_ns;
	if (!pc->err)
		ls_supervise(c, deadline, TICK_NS, watchdog, r);
	__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
	deadline = rtp_now_ns(CLOCK_MONOTONIC) + 2 * c->o.watchdog_ns + pc->period_ns + 1000000000ull;
	for (i = 0; i <= pc->n; i++)
		if (ls_join(c, r->t[i].th, deadline))
			rtp_warn("pi-chain: thread %d did not end", i);
	pc->duration_s = (double)(rtp_now_ns(CLOCK_MONOTONIC) - r->start_ns) / 1e9;
	if (c->abandoned)
		return 0;
	rtp_gate_destroy(&r->gate);
	for (i = 0; i < pc->n; i++)
		pthread_mutex_destroy(&r->m[i]);
	free(r);
	if (pc->err && !c->start_failed)	/* a thread's start failure was said already */
		rtp_error("pi-chain: cannot %s: %s", pc->err_what, strerror(-pc->err));
	return 0;
}

static void pic_print(const struct ls_ctx *c)
{
	const struct ls_pichain *pc = c->pic;
	char a[24], b[24], d[24], e[24];
	int i;

	if (!pc)
		return;
	printf("\npi-chain: %d PI mutexes on CPU %d, priorities top %d", pc->n, pc->cpu, pc->prio[0]);
	for (i = 1; i < pc->n; i++)
		printf(" > T%d %d", i, pc->prio[i]);
	printf(", burner %d burns %s; bottom holds %s%s\n", pc->burner_prio,
	       rtp_format_ns(c->o.burn_ns, a, sizeof(a)), rtp_format_ns(c->o.hold_ns, b, sizeof(b)),
	       c->o.plant_deadlock ? " (TEST: planted deadlock)" : "");
	if (!pc->wait.count)
		printf("top's wait: no samples\n");
	else
		printf("top's wait from its release: p50 %s, p99 %s, max %s (bound %s); %llu valid, "
		       "%llu skipped, %llu timeouts\n",
		       rtp_format_ns(rtp_hist_percentile(&pc->wait, 50), a, sizeof(a)),
		       rtp_format_ns(rtp_hist_percentile(&pc->wait, 99), b, sizeof(b)),
		       rtp_format_ns(pc->wait.max, d, sizeof(d)), rtp_format_ns(pc->bound_ns, e, sizeof(e)),
		       (unsigned long long)pc->valid, (unsigned long long)pc->skipped,
		       (unsigned long long)pc->timeouts);
	if (pc->disturbed)
		printf("%llu rounds not judged: other tasks took more than %s of the CPU; max of "
		       "the others %s\n", (unsigned long long)pc->disturbed,
		       rtp_format_ns(pc->disturb_ns, a, sizeof(a)), rtp_format_ns(pc->clean_max, b, sizeof(b)));
	printf("boost propagated to the bottom (ran at priority %d) in %llu of %llu rounds\n",
	       pc->prio[0], (unsigned long long)pc->propagated, (unsigned long long)pc->boost_reads);
	if (pc->stalled)
		printf("watchdog: %s after %s (watchdog %s): %s\n",
		       pc->deadlock ? "DEADLOCK" : "STALLED CHAIN", rtp_format_ns(pc->detect_ns, a, sizeof(a)),
		       rtp_format_ns(c->o.watchdog_ns, b, sizeof(b)), pc->graph);
	else
		printf("watchdog: no lock wait exceeded %s\n", rtp_format_ns(c->o.watchdog_ns, a, sizeof(a)));
}

static void pic_json_metrics(const struct ls_ctx *c, struct rtp_json *j)
{
	const struct ls_pichain *pc = c->pic;

	if (!pc)
		return;
	ls_json_metric_begin(j, "pi_chain_wait");
	rtp_json_string(j, "scenario", "pi-chain");
	rtp_json_int(j, "chain", pc->n);
	rtp_json_int(j, "cpu", pc->cpu);
	rtp_json_string(j, "thread", "top");
	ls_json_metric_end(j, &pc->wait);
}

static void pic_json_facts(const struct ls_ctx *c, struct rtp_json *j)
{
	const struct ls_pichain *pc = c->pic;
	int i;

	if (!pc)
		return;
	rtp_json_begin_object(j, "pi-chain");
	rtp_json_int(j, "chain", pc->n);
	rtp_json_int(j, "cpu", pc->cpu);
	rtp_json_begin_array(j, "priorities");
	for (i = 0; i < pc->n; i++)
		rtp_json_int(j, NULL, pc->prio[i]);
	rtp_json_end_array(j);
	rtp_json_int(j, "burner_priority", pc->burner_prio);
	rtp_json_uint(j, "hold_ns", c->o.hold_ns);
	rtp_json_uint(j, "burn_ns", c->o.burn_ns);
	rtp_json_uint(j, "period_ns", pc->period_ns);
	rtp_json_uint(j, "bound_ns", pc->bound_ns);
	rtp_json_uint(j, "watchdog_ns", c->o.watchdog_ns);
	rtp_json_bool(j, "test_plant_deadlock", c->o.plant_deadlock);
	rtp_json_uint(j, "rounds", pc->rounds);
	rtp_json_uint(j, "valid", pc->valid);
	rtp_json_uint(j, "skipped", pc->skipped);
	rtp_json_uint(j, "timeouts", pc->timeouts);
	rtp_json_uint(j, "disturbed", pc->disturbed);
	rtp_json_uint(j, "undisturbed", pc->clean);
	rtp_json_uint(j, "disturbed_above_ns", pc->disturb_ns);
	if (pc->clean)
		rtp_json_uint(j, "undisturbed_wait_max_ns", pc->clean_max);
	if (pc->interference.count)
		rtp_json_uint(j, "interference_max_ns", pc->interference.max);
	rtp_json_uint(j, "boost_reads", pc->boost_reads);
	rtp_json_uint(j, "boost_propagated", pc->propagated);
	if (pc->bottom_prio_max >= 0)
		rtp_json_int(j, "bottom_prio_max", pc->bottom_prio_max);
	else
		rtp_json_null(j, "bottom_prio_max");
	rtp_json_bool(j, "stalled", pc->stalled);
	rtp_json_bool(j, "deadlock", pc->deadlock);
	if (pc->stalled) {
		rtp_json_uint(j, "detected_after_ns", pc->detect_ns);
		if (pc->deadlock)
			rtp_json_uint(j, "cycle_age_ns", pc->cycle_age_ns);
		rtp_json_string(j, "wait_graph", pc->graph);
	}
	if (pc->err)
		rtp_json_string(j, "error", pc->err_what);
	rtp_json_double(j, "duration_s", pc->duration_s);
	rtp_json_end_object(j);
}

static void pic_verdict(const struct ls_ctx *c, struct rtp_verdict *v, char *reason, size_t len)
{
	const struct ls_pichain *pc = c->pic;

	if (!pc)
		return;
	if (pc->err) {
		v->status = RTP_ERROR;
		snprintf(reason, len, "pi-chain could not run: %s", pc->err_what);
		return;
	}
	rtp_verdict_check(v, "pi-chain stalls and deadlocks", "==", 0, pc->stalled, "");
	if (!pc->stalled && !pc->timeouts && !pc->clean) {
		if (v->status == RTP_PASS)
			v->status = RTP_ERROR;
		snprintf(reason, len, "pi-chain: no undisturbed round to judge");
		return;
	}
	rtp_verdict_check(v, "max pi_chain_wait", "<=", (double)pc->bound_ns / 1e3,
			  pc->timeouts || !pc->clean ? (double)INFINITY :
			  (double)pc->clean_max / 1e3, "us");
	if (pc->stalled)
		snprintf(reason, len, "pi-chain: %s detected by the watchdog", pc->deadlock ?
			 "deadlock" : "stalled chain");
	else if (pc->timeouts || pc->clean_max > pc->bound_ns)
		snprintf(reason, len, "pi-chain: top's wait %.3f ms above the bound %.3f ms",
			 (double)pc->clean_max / 1e6, (double)pc->bound_ns / 1e6);
	else
		snprintf(reason, len, "pi-chain: boost propagated, wait bounded");
}

static void pic_destroy(struct ls_ctx *c)
{
	free(c->pic);
	c->pic = NULL;
}

const struct ls_scenario_ops ls_pichain_ops = {
	.name = "pi-chain",
	.run = pic_run_fn,
	.print = pic_print,
	.json_metrics = pic_json_metrics,
	.json_facts = pic_json_facts,
	.verdict = pic_verdict,
	.destroy = pic_destroy,
};
