// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * contention: N threads on M CPUs hammer one lock of a chosen kind.  Each
 * acquisition's wait is recorded; writers update a counter, a shadow copy
 * and a checksum under the lock, readers check that the counter and its
 * shadow agree.  At the end the counter must equal the writes and the
 * checksum the sum of the values the writers added: a lost update fails.
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

struct con_thread {
	struct rtp_hist wait;		/* first: large */
	struct con_run *r;
	int id;
	int cpu;
	pthread_t th;
	int err;
	int done;			/* atomic */
	uint64_t acq, reads, writes;
	uint64_t sum;			/* what this thread added to the checksum */
	uint64_t max_gap_ns;		/* longest stretch without the lock */
	uint64_t torn;			/* reads that saw counter != shadow */
	uint64_t end_ns;
};

struct con_case {
	struct rtp_hist_wide all;
	int kind;
	int nthreads;
	bool ran;
	int err;
	struct con_thread *t;
	double elapsed_s;
	uint64_t total, reads, writes;
	uint64_t counter, checksum, expect_sum;
	uint64_t lost;			/* writes - counter */
	bool checksum_ok;
	uint64_t torn;
	uint64_t max_gap_ns;
	uint64_t min_acq, max_acq;
};

struct ls_contention {
	int n;
	struct con_case *cases;
	int ncpu;
	int cpu[256];
	int prio;
	uint64_t lost_total;
	uint64_t torn_total;
	int bad_checksums;
	int errors;
};

struct con_run {
	/* the protected data, on a line of its own */
	uint64_t counter __attribute__((aligned(64)));
	uint64_t shadow;
	uint64_t checksum;
	union {
		pthread_mutex_t m;
		pthread_spinlock_t s;
		pthread_rwlock_t rw;
	} lock __attribute__((aligned(64)));
	int stop __attribute__((aligned(64)));	/* atomic */
	struct ls_ctx *c;
	struct con_case *cc;
	struct rtp_gate gate;
	uint64_t start_ns;
};

static int lock_init(struct con_run *r, int kind)
{
	pthread_rwlockattr_t ra;
	int ret;

	switch (kind) {
	case LS_MUTEX:
		return ls_mutex_init(&r->lock.m, LS_PROTO_NONE, 0, PTHREAD_MUTEX_NORMAL);
	case LS_PI_MUTEX:
		return ls_mutex_init(&r->lock.m, LS_PROTO_INHERIT, 0, PTHREAD_MUTEX_NORMAL);
	case LS_SPIN:
		return -pthread_spin_init(&r->lock.s, PTHREAD_PROCESS_PRIVATE);
	default:
		pthread_rwlockattr_init(&ra);
		pthread_rwlockattr_setkind_np(&ra, kind == LS_RWLOCK_WRITER ?
					      PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP :
					      PTHREAD_RWLOCK_PREFER_READER_NP);
		ret = pthread_rwlock_init(&r->lock.rw, &ra);
		pthread_rwlockattr_destroy(&ra);
		return -ret;
	}
}

static void lock_destroy(struct con_run *r, int kind)
{
	if (kind == LS_MUTEX || kind == LS_PI_MUTEX)
		pthread_mutex_destroy(&r->lock.m);
	else if (kind == LS_SPIN)
		pthread_spin_destroy(&r->lock.s);
	else
		pthread_rwlock_destroy(&r->lock.rw);
}

static inline void acquire(struct con_run *r, int kind, bool read)
{
	switch (kind) {
	case LS_MUTEX:
	case LS_PI_MUTEX:
		pthread_mutex_lock(&r->lock.m);
		break;
	case LS_SPIN:
		pthread_spin_lock(&r->lock.s);
		break;
	default:
		if (read)
			pthread_rwlock_rdlock(&r->lock.rw);
		else
			pthread_rwlock_wrlock(&r->lock.rw);
	}
}

static inline void release(struct con_run *r, int kind)
{
	switch (kind) {
	case LS_MUTEX:
	case LS_PI_MUTEX:
		pthread_mutex_unlock(&r->lock.m);
		break;
	case LS_SPIN:
		pthread_spin_unlock(&r->lock.s);
		break;
	default:
		pthread_rwlock_unlock(&r->lock.rw);
	}
}

static void work(struct con_thread *t)
{
	struct con_run *r = t->r;
	const struct ls_opts *o = &r->c->o;
	const int kind = r->cc->kind;
	const bool rw = kind == LS_RWLOCK || kind == LS_RWLOCK_WRITER;
	const bool broken = o->break_lock;
	uint64_t rng = ls_mix((uint64_t)t->id * 7919 + 1), last, seq = 0;

	ls_sleep_until(r->start_ns);
	last = r->start_ns;	/* a thread that starts late has gone without the lock since */
	while (!__atomic_load_n(&r->stop, __ATOMIC_RELAXED)) {
		bool read = false;
		uint64_t t_req, t_acq;

		if (rw) {
			rng = ls_mix(rng);
			read = (int)(rng % 100) < o->read_share;
		}
		t_req = rtp_now_ns(CLOCK_MONOTONIC);
		acquire(r, kind, read);
		t_acq = rtp_now_ns(CLOCK_MONOTONIC);
		rtp_hist_record_at(&t->wait, t_acq - t_req, t_req);
		if (t_acq - last > t->max_gap_ns)
			t->max_gap_ns = t_acq - last;
		last = t_acq;
		if (read) {
			uint64_t a = __atomic_load_n(&r->counter, __ATOMIC_RELAXED), b;

			ls_spin_wall(o->cs_ns);
			b = __atomic_load_n(&r->shadow, __ATOMIC_RELAXED);
			release(r, kind);
			t->torn += a != b;
			t->reads++;
		} else {
			uint64_t h = ls_mix(((uint64_t)t->id << 40) ^ seq++);
			uint64_t cnt = __atomic_load_n(&r->counter, __ATOMIC_RELAXED);
			uint64_t sum = __atomic_load_n(&r->checksum, __ATOMIC_RELAXED);

			if (broken)
				release(r, kind);	/* the planted bug: update outside the lock */
			ls_spin_wall(o->cs_ns);
			__atomic_store_n(&r->counter, cnt + 1, __ATOMIC_RELAXED);
			__atomic_store_n(&r->shadow, cnt + 1, __ATOMIC_RELAXED);
			__atomic_store_n(&r->checksum, sum + h, __ATOMIC_RELAXED);
			if (!broken)
				release(r, kind);
			t->sum += h;
			t->writes++;
		}
		t->acq++;
		ls_spin_wall(o->think_ns);
	}
	t->end_ns = rtp_now_ns(CLOCK_MONOTONIC);
	if (t->end_ns - last > t->max_gap_ns)
		t->max_gap_ns = t->end_ns - last;
}

static void *con_thread(void *arg)
{
	struct con_thread *t = arg;
	struct con_run *r = t->r;

	t->err = ls_thread_setup(t->cpu, NULL, r->c->o.policy, r->c->con->prio);
	if (rtp_gate_pass(&r->gate, t->err) && !__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE))
		work(t);
	__atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
	rtp_run_wake(r->c->run);
	return NULL;
}

static int stop_seen(void *arg)
{
	struct con_run *r = arg;

	return __atomic_load_n(&r->c->stop, __ATOMIC_RELAXED) ? 1 : 0;
}

static int run_case(struct ls_ctx *c, struct ls_contention *con, struct con_case *cc)
{
	struct con_run *r;
	uint64_t deadline;
	int i, ret, started = 0, stacks = c->nstacks;

	r = aligned_alloc(64, (sizeof(*r) + 63) & ~(size_t)63);
	cc->t = aligned_alloc(64, ((sizeof(*cc->t) * (size_t)cc->nthreads) + 63) & ~(size_t)63);
	if (!r || !cc->t) {
		free(r);
		return -ENOMEM;
	}
	memset(r, 0, sizeof(*r));
	memset(cc->t, 0, sizeof(*cc->t) * (size_t)cc->nthreads);
	r->c = c;
	r->cc = cc;
	ret = lock_init(r, cc->kind);
	if (ret) {
		free(r);
		return ret;
	}
	rtp_gate_init(&r->gate);
	for (i = 0; i < cc->nthreads; i++) {
		struct con_thread *t = &cc->t[i];

		t->r = r;
		t->id = i;
		t->cpu = con->cpu[i % con->ncpu];
		rtp_hist_init(&t->wait);
		ret = ls_start(c, &r->gate, &t->th, con_thread, t, "contention", "thread", i);
		if (ret)
			break;
		started++;
	}
	rtp_gate_ready(&r->gate);
	for (i = 0; i < started && !ret; i++) {
		if (cc->t[i].err) {
			rtp_error("contention: thread %d: cannot set %s on CPU %d: %s", i,
				  c->o.policy == SCHED_FIFO ? "SCHED_FIFO" : "SCHED_OTHER",
				  cc->t[i].cpu, strerror(-cc->t[i].err));
			ret = cc->t[i].err;
			__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
			break;
		}
	}
	r->start_ns = rtp_now_ns(CLOCK_MONOTONIC) + START_DELAY_NS;
	rtp_gate_open(&r->gate, !ret);
	if (!ret)
		ls_supervise(c, r->start_ns + c->o.co.duration_ns, 100000000ull, stop_seen, r);
	__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
	deadline = rtp_now_ns(CLOCK_MONOTONIC) + 2000000000ull + 10 * c->o.cs_ns + 10 * c->o.think_ns;
	for (i = 0; i < started; i++)
		if (ls_join(c, cc->t[i].th, deadline))
			rtp_error("contention: %s, thread %d did not stop (stuck in the lock)",
				  ls_kind_names[cc->kind], i);
	if (c->abandoned)
		return ret ? ret : -ETIMEDOUT;
	ls_stacks_release(c, stacks);
	if (ret) {
		lock_destroy(r, cc->kind);
		rtp_gate_destroy(&r->gate);
		free(r);
		return ret;
	}

	rtp_hist_init_wide(&cc->all);
	cc->min_acq = UINT64_MAX;
	{
		uint64_t end = r->start_ns;

		for (i = 0; i < cc->nthreads; i++) {
			struct con_thread *t = &cc->t[i];

			rtp_hist_merge(&cc->all.h, &t->wait);
			cc->total += t->acq;
			cc->reads += t->reads;
			cc->writes += t->writes;
			cc->expect_sum += t->sum;
			cc->torn += t->torn;
			if (t->max_gap_ns > cc->max_gap_ns)
				cc->max_gap_ns = t->max_gap_ns;
			if (t->acq < cc->min_acq)
				cc->min_acq = t->acq;
			if (t->acq > cc->max_acq)
				cc->max_acq = t->acq;
			if (t->end_ns > end)
				end = t->end_ns;
		}
		cc->elapsed_s = (double)(end - r->start_ns) / 1e9;
	}
	cc->counter = r->counter;
	cc->checksum = r->checksum;
	cc->lost = cc->writes > cc->counter ? cc->writes - cc->counter : 0;
	cc->checksum_ok = cc->checksum == cc->expect_sum && cc->counter == cc->writes;
	cc->ran = true;
	lock_destroy(r, cc->kind);
	rtp_gate_destroy(&r->gate);
	free(r);
	return 0;
}

static int con_run(struct ls_ctx *c)
{
	struct ls_contention *con;
	int i, k, cpu;

	con = calloc(1, sizeof(*con));
	if (!con)
		return -ENOMEM;
	c->con = con;
	for (cpu = 0; cpu < CPU_SETSIZE && con->ncpu < 256; cpu++)
		if (CPU_ISSET(cpu, &c->o.cpus))
			con->cpu[con->ncpu++] = cpu;
	con->prio = c->o.priority > 10 ? c->o.priority - 10 : 1;
	con->cases = calloc((size_t)(c->o.nkind * c->o.nthr), sizeof(*con->cases));
	if (!con->cases)
		return -ENOMEM;
	for (k = 0; k < c->o.nkind && !ls_stopped(c); k++) {
		for (i = 0; i < c->o.nthr && !ls_stopped(c); i++) {
			struct con_case *cc = &con->cases[con->n++];
			int ret;

			cc->kind = c->o.kind[k];
			cc->nthreads = c->o.threads[i];
			if (!c->o.co.quiet)
				printf("contention: %s, %d threads on %d CPUs, %.3f s...\n",
				       ls_kind_names[cc->kind], cc->nthreads, con->ncpu,
				       (double)c->o.co.duration_ns / 1e9);
			fflush(stdout);
			ret = run_case(c, con, cc);
			if (ret) {
				cc->err = ret;
				con->errors++;
				if (c->abandoned)
					return 0;
				continue;
			}
			con->lost_total += cc->lost;
			con->torn_total += cc->torn;
			con->bad_checksums += !cc->checksum_ok;
		}
	}
	return 0;
}

static void con_print(const struct ls_ctx *c)
{
	const struct ls_contention *con = c->con;
	char a[24], b[24], d[24], e[24];
	int i;

	if (!con)
		return;
	printf("\ncontention: %d CPUs, %s, critical section %s, think %s, read share %d %%%s\n",
	       con->ncpu, c->o.policy == SCHED_FIFO ? "SCHED_FIFO" : "SCHED_OTHER",
	       rtp_format_ns(c->o.cs_ns, a, sizeof(a)), rtp_format_ns(c->o.think_ns, b, sizeof(b)),
	       c->o.read_share, c->o.break_lock ? ", TEST: lock dropped before the update" : "");
	printf("%-14s %7s %14s %10s %10s %10s %8s %8s %12s %10s %s\n", "kind", "threads",
	       "acq/s", "p50 wait", "p99 wait", "max wait", "min shr", "max shr", "longest gap",
	       "lost upd", "check");
	for (i = 0; i < con->n; i++) {
		const struct con_case *cc = &con->cases[i];

		if (!cc->ran) {
			printf("%-14s %7d  (did not run: %s)\n", ls_kind_names[cc->kind], cc->nthreads,
			       cc->err ? strerror(-cc->err) : "stopped");
			continue;
		}
		printf("%-14s %7d %14.0f %10s %10s %10s %7.1f%% %7.1f%% %12s %10llu %s\n",
		       ls_kind_names[cc->kind], cc->nthreads,
		       cc->elapsed_s > 0 ? (double)cc->total / cc->elapsed_s : 0.0,
		       rtp_format_ns(rtp_hist_percentile(&cc->all.h, 50), a, sizeof(a)),
		       rtp_format_ns(rtp_hist_percentile(&cc->all.h, 99), b, sizeof(b)),
		       rtp_format_ns(cc->all.h.max, d, sizeof(d)),
		       cc->total ? 100.0 * (double)cc->min_acq / (double)cc->total : 0.0,
		       cc->total ? 100.0 * (double)cc->max_acq / (double)cc->total : 0.0,
		       rtp_format_ns(cc->max_gap_ns, e, sizeof(e)), (unsigned long long)cc->lost,
		       cc->checksum_ok && !cc->torn ? "ok" : "MISMATCH");
	}
}

static void con_json_metrics(const struct ls_ctx *c, struct rtp_json *j)
{
	const struct ls_contention *con = c->con;
	int i, k;

	if (!con)
		return;
	for (i = 0; i < con->n; i++) {
		const struct con_case *cc = &con->cases[i];

		if (!cc->ran)
			continue;
		for (k = 0; k <= cc->nthreads; k++) {
			bool all = k == cc->nthreads;

			ls_json_metric_begin(j, "contention_wait");
			rtp_json_string(j, "scenario", "contention");
			rtp_json_string(j, "kind", ls_kind_names[cc->kind]);
			rtp_json_int(j, "threads", cc->nthreads);
			if (all) {
				rtp_json_string(j, "thread", "all");
				rtp_json_string(j, "cpu", "all");
			} else {
				rtp_json_int(j, "thread", k);
				rtp_json_int(j, "cpu", cc->t[k].cpu);
				rtp_json_uint(j, "acquisitions", cc->t[k].acq);
				rtp_json_uint(j, "longest_gap_ns", cc->t[k].max_gap_ns);
			}
			ls_json_metric_end(j, all ? &cc->all.h : &cc->t[k].wait);
		}
	}
}

static void con_json_facts(const struct ls_ctx *c, struct rtp_json *j)
{
	const struct ls_contention *con = c->con;
	char cpus[256];
	int i;

	if (!con)
		return;
	rtp_format_cpulist(&c->o.cpus, cpus, sizeof(cpus));
	rtp_json_begin_object(j, "contention");
	rtp_json_string(j, "cpus", cpus);
	rtp_json_string(j, "policy", c->o.policy == SCHED_FIFO ? "fifo" : "other");
	if (c->o.policy == SCHED_FIFO)
		rtp_json_int(j, "priority", con->prio);
	rtp_json_uint(j, "cs_ns", c->o.cs_ns);
	rtp_json_uint(j, "think_ns", c->o.think_ns);
	rtp_json_int(j, "read_share_pct", c->o.read_share);
	rtp_json_uint(j, "duration_ns", c->o.co.duration_ns);
	rtp_json_bool(j, "test_break_lock", c->o.break_lock);
	rtp_json_uint(j, "lost_updates", con->lost_total);
	rtp_json_uint(j, "torn_reads", con->torn_total);
	rtp_json_begin_array(j, "cases");
	for (i = 0; i < con->n; i++) {
		const struct con_case *cc = &con->cases[i];

		rtp_json_begin_object(j, NULL);
		rtp_json_string(j, "kind", ls_kind_names[cc->kind]);
		rtp_json_int(j, "threads", cc->nthreads);
		rtp_json_bool(j, "ran", cc->ran);
		if (!cc->ran) {
			rtp_json_string(j, "error", cc->err ? strerror(-cc->err) : "stopped");
			rtp_json_end_object(j);
			continue;
		}
		rtp_json_double(j, "elapsed_s", cc->elapsed_s);
		rtp_json_uint(j, "acquisitions", cc->total);
		rtp_json_uint(j, "reads", cc->reads);
		rtp_json_uint(j, "writes", cc->writes);
		rtp_json_double(j, "acq_per_s", cc->elapsed_s > 0 ? (double)cc->total / cc->elapsed_s : 0);
		rtp_json_uint(j, "wait_p50_ns", rtp_hist_percentile(&cc->all.h, 50));
		rtp_json_uint(j, "wait_p99_ns", rtp_hist_percentile(&cc->all.h, 99));
		rtp_json_uint(j, "wait_max_ns", cc->all.h.max);
		rtp_json_uint(j, "min_thread_acquisitions", cc->min_acq);
		rtp_json_uint(j, "max_thread_acquisitions", cc->max_acq);
		rtp_json_double(j, "min_share", cc->total ? (double)cc->min_acq / (double)cc->total : 0);
		rtp_json_double(j, "max_share", cc->total ? (double)cc->max_acq / (double)cc->total : 0);
		rtp_json_double(j, "fairness", cc->max_acq ? (double)cc->min_acq / (double)cc->max_acq : 0);
		rtp_json_uint(j, "longest_gap_ns", cc->max_gap_ns);
		rtp_json_uint(j, "counter", cc->counter);
		rtp_json_uint(j, "checksum", cc->checksum);
		rtp_json_uint(j, "expected_checksum", cc->expect_sum);
		rtp_json_uint(j, "lost_updates", cc->lost);
		rtp_json_uint(j, "torn_reads", cc->torn);
		rtp_json_bool(j, "correct", cc->checksum_ok && !cc->torn);
		rtp_json_end_object(j);
	}
	rtp_json_end_array(j);
	rtp_json_end_object(j);
}

static void con_verdict(const struct ls_ctx *c, struct rtp_verdict *v, char *reason, size_t len)
{
	const struct ls_contention *con = c->con;

	if (!con)
		return;
	rtp_verdict_check(v, "contention lost updates", "==", 0, (double)con->lost_total, "updates");
	rtp_verdict_check(v, "contention checksum mismatches", "==", 0, (double)con->bad_checksums,
			  "cases");
	rtp_verdict_check(v, "contention torn reads", "==", 0, (double)con->torn_total, "reads");
	if (con->errors && v->status == RTP_PASS)
		v->status = RTP_ERROR;
	if (con->lost_total || con->bad_checksums || con->torn_total)
		snprintf(reason, len, "contention: %llu lost updates, %d checksum mismatches, "
			 "%llu torn reads", (unsigned long long)con->lost_total, con->bad_checksums,
			 (unsigned long long)con->torn_total);
	else if (con->errors)
		snprintf(reason, len, "contention: %d cases could not run", con->errors);
	else
		snprintf(reason, len, "contention: every counter and checksum exact");
}

static void con_destroy(struct ls_ctx *c)
{
	int i;

	if (!c->con)
		return;
	for (i = 0; i < c->con->n; i++)
		free(c->con->cases[i].t);
	free(c->con->cases);
	free(c->con);
	c->con = NULL;
}

const struct ls_scenario_ops ls_contention_ops = {
	.name = "contention",
	.run = con_run,
	.print = con_print,
	.json_metrics = con_json_metrics,
	.json_facts = con_json_facts,
	.verdict = con_verdict,
	.destroy = con_destroy,
};
