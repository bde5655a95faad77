// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * inversion: the classic three threads on one CPU, all SCHED_FIFO.
 *
 *   t0            low takes the lock and consumes 'hold' of CPU time in it
 *   t0 + hold/4   medium becomes runnable and consumes 'burn' of CPU time
 *   t0 + hold/2   high asks for the lock (its intended release)
 *
 * The high thread's wait is measured from its intended release, so with
 * PTHREAD_PRIO_PROTECT (where the delay moves before the lock call: the
 * holder runs at the ceiling and high cannot even run) it is not hidden;
 * the wait from the lock call is kept as a second figure.
 */
#include "lockstress.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "rt.h"
#include "run.h"

#define HIGH_CS_NS	10000ull	/* high's own work in the lock (CPU time) */
#define START_DELAY_NS	20000000ull

struct inv_proto {
	struct rtp_hist wait;		/* high: from the intended release */
	struct rtp_hist lock_wait;	/* high: from its lock call */
	struct rtp_hist remaining;	/* holder's CPU time left at high's release */
	struct rtp_hist interference;	/* time others held the CPU in [t0, acquisition] */
	int protocol;
	bool ran;
	uint64_t rounds;		/* iterations high went through */
	uint64_t valid;			/* recorded: low held the lock in time */
	uint64_t skipped;		/* low was late: nothing to measure */
	uint64_t timeouts;		/* high's bounded lock wait expired */
	uint64_t held_at_release;	/* high saw the holder inside the lock */
	uint64_t disturbed;		/* rounds with interference above the limit */
	uint64_t clean_max;		/* max wait of the undisturbed rounds */
	uint64_t clean;
	int holder_prio_max;		/* low's effective priority at the end of its section */
	int holder_prio_min;
	int stuck;			/* threads that did not end: left behind */
	bool recorded;			/* high ended: its record above was collected */
	double duration_s;
};

struct ls_inversion {
	int n;
	struct inv_proto p[LS_NPROTO];
	uint64_t period_ns, rel_med_ns, rel_high_ns, bound_ns;
	uint64_t disturb_ns;		/* interference above this: the round is not judged */
	int prio_low, prio_med, prio_high;
	int cpu;
	int err;
	char err_what[96];
};

enum { LOW, MED, HIGH, NROLE };
static const char *const role_names[NROLE] = { "low", "medium", "high" };

struct inv_run;

struct inv_thr {
	struct inv_run *r;
	int role;
};

/*
 * One protocol's run.  The threads get only this (heap) state: a thread
 * that does not end is left behind with it (ls_join), still running, so
 * nothing it may touch can live on a stack that returns or be read by the
 * report before it ended.  high records into 'rec' and low its priorities;
 * run_protocol copies each into the protocol's figures once its writer
 * ended.
 */
struct inv_run {
	struct ls_ctx *c;
	struct ls_inversion *inv;
	struct inv_proto rec;		/* high's record of the rounds */
	int prio_max, prio_min;		/* low's effective priority in its sections */
	struct inv_thr t[NROLE];	/* the threads' arguments */
	pthread_mutex_t m;
	struct rtp_gate gate;
	pthread_t th[NROLE];
	int err[NROLE];
	int done[NROLE];		/* atomics */
	uint64_t start_ns;		/* written before the second barrier */
	clockid_t clk[NROLE];		/* the threads' CPU-time clocks */
	uint64_t base_cpu[NROLE][2];	/* atomic: CPU time before the release of round k, at [k & 1] */
	uint64_t low_cpu_at_lock;	/* atomic */
	uint64_t holding;		/* atomic: k + 1 while low holds in round k */
	uint64_t ok_round;		/* atomic: k + 1 when low took the lock in time in round k */
};

static uint64_t clock_ns(clockid_t clk)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts))
		return 0;
	return rtp_ts_ns(&ts);
}

static void low_loop(struct inv_run *r)
{
	const struct ls_opts *o = &r->c->o;
	int fd = ls_open_self_stat(), prio;
	uint64_t k;

	for (k = 0; k < o->iterations && !ls_stopped(r->c); k++) {
		uint64_t t0 = r->start_ns + k * r->inv->period_ns, acq;

		__atomic_store_n(&r->base_cpu[LOW][k & 1], clock_ns(CLOCK_THREAD_CPUTIME_ID), __ATOMIC_RELEASE);
		if (!ls_sleep_until_or(t0, &r->c->stop, NULL))
			break;
		if (ls_mutex_lock_for(&r->m, r->inv->period_ns))
			continue;
		acq = rtp_now_ns(CLOCK_MONOTONIC);
		__atomic_store_n(&r->low_cpu_at_lock, clock_ns(CLOCK_THREAD_CPUTIME_ID),
				 __ATOMIC_RELAXED);
		__atomic_store_n(&r->holding, k + 1, __ATOMIC_RELEASE);
		if (acq - t0 < r->inv->rel_med_ns)
			__atomic_store_n(&r->ok_round, k + 1, __ATOMIC_RELEASE);
		ls_burn_cpu(o->hold_ns, NULL);
		prio = ls_effective_prio(fd);
		__atomic_store_n(&r->holding, 0, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&r->m);
		if (prio > r->prio_max)
			r->prio_max = prio;
		if (prio >= 0 && (r->prio_min < 0 || prio < r->prio_min))
			r->prio_min = prio;
	}
	if (fd >= 0)
		close(fd);
}

static void med_loop(struct inv_run *r)
{
	const struct ls_opts *o = &r->c->o;
	uint64_t k;

	for (k = 0; k < o->iterations && !ls_stopped(r->c); k++) {
		__atomic_store_n(&r->base_cpu[MED][k & 1], clock_ns(CLOCK_THREAD_CPUTIME_ID), __ATOMIC_RELEASE);
		if (!ls_sleep_until_or(r->start_ns + k * r->inv->period_ns + r->inv->rel_med_ns,
				       &r->c->stop, NULL))
			break;
		ls_burn_cpu(o->burn_ns, &r->c->stop);
	}
}

static void high_loop(struct inv_run *r)
{
	const struct ls_opts *o = &r->c->o;
	struct inv_proto *p = &r->rec;
	uint64_t k;

	for (k = 0; k < o->iterations && !ls_stopped(r->c); k++) {
		uint64_t t0 = r->start_ns + k * r->inv->period_ns;
		uint64_t rel = t0 + r->inv->rel_high_ns;
		uint64_t call, acq, rem = 0, ours = 0, inter;
		bool held;
		int ret, i;

		__atomic_store_n(&r->base_cpu[HIGH][k & 1], clock_ns(CLOCK_THREAD_CPUTIME_ID), __ATOMIC_RELEASE);
		if (!ls_sleep_until_or(rel, &r->c->stop, NULL))
			break;
		held = __atomic_load_n(&r->holding, __ATOMIC_ACQUIRE) == k + 1;
		if (held) {
			uint64_t used = clock_ns(r->clk[LOW]) -
				__atomic_load_n(&r->low_cpu_at_lock, __ATOMIC_RELAXED);

			rem = used < o->hold_ns ? o->hold_ns - used : 0;
		}
		call = rtp_now_ns(CLOCK_MONOTONIC);
		ret = ls_mutex_lock_for(&r->m, r->inv->period_ns);
		acq = rtp_now_ns(CLOCK_MONOTONIC);
		/* Everything in [t0, acq] is ours to run; what is not is interference. */
		for (i = 0; i < NROLE; i++)
			ours += clock_ns(r->clk[i]) - __atomic_load_n(&r->base_cpu[i][k & 1], __ATOMIC_ACQUIRE);
		inter = acq - t0 > ours ? acq - t0 - ours : 0;
		p->rounds++;
		if (ret) {
			p->timeouts++;
			rtp_hist_record_at(&p->wait, acq - rel, rel);
			continue;
		}
		ls_burn_cpu(HIGH_CS_NS, NULL);
		pthread_mutex_unlock(&r->m);
		if (__atomic_load_n(&r->ok_round, __ATOMIC_ACQUIRE) != k + 1) {
			p->skipped++;
			continue;
		}
		p->valid++;
		rtp_hist_record_at(&p->wait, acq - rel, rel);
		rtp_hist_record_at(&p->interference, inter, rel);
		if (inter > r->inv->disturb_ns) {
			p->disturbed++;
		} else {
			p->clean++;
			if (acq - rel > p->clean_max)
				p->clean_max = acq - rel;
		}
		rtp_hist_record_at(&p->lock_wait, acq - call, rel);
		if (held) {
			p->held_at_release++;
			rtp_hist_record_at(&p->remaining, rem, rel);
		}
	}
}

static void *inv_thread(void *arg)
{
	struct inv_thr *t = arg;
	struct inv_run *r = t->r;
	static const int offs[NROLE] = { 2, 1, 0 };
	int prio = r->c->o.priority - offs[t->role];

	r->err[t->role] = ls_thread_setup(r->inv->cpu, NULL, SCHED_FIFO, prio);
	/* no prefault: the stack was painted, so faulted in, when mapped (stack.h) */
	/* Through the gate once set up: start_ns written, or told to leave. */
	if (rtp_gate_pass(&r->gate, r->err[t->role]) && !ls_stopped(r->c)) {
		if (t->role == LOW)
			low_loop(r);
		else if (t->role == MED)
			med_loop(r);
		else
			high_loop(r);
	}
	__atomic_store_n(&r->done[t->role], 1, __ATOMIC_RELEASE);
	rtp_run_wake(r->c->run);
	return NULL;
}

static int all_done(void *arg)
{
	struct inv_run *r = arg;
	int i;

	for (i = 0; i < NROLE; i++)
		if (!__atomic_load_n(&r->done[i], __ATOMIC_ACQUIRE))
			return 0;
	return 1;
}

static int run_protocol(struct ls_ctx *c, struct ls_inversion *inv, struct inv_proto *p)
{
	struct inv_run *r;
	uint64_t t_begin, deadline;
	bool ended[NROLE];
	int i, ret, started = 0, stuck = 0;

	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->c = c;
	r->inv = inv;
	p->holder_prio_max = -1;
	p->holder_prio_min = -1;
	r->rec = *p;
	r->prio_max = -1;
	r->prio_min = -1;
	ret = ls_mutex_init(&r->m, p->protocol, inv->prio_high, PTHREAD_MUTEX_NORMAL);
	if (ret) {
		snprintf(inv->err_what, sizeof(inv->err_what), "create a %s mutex",
			 ls_protocol_names[p->protocol]);
		free(r);
		return ret;
	}
	rtp_gate_init(&r->gate);
	for (i = 0; i < NROLE; i++) {
		r->t[i].r = r;
		r->t[i].role = i;
		ret = ls_start(c, &r->gate, &r->th[i], inv_thread, &r->t[i], "inversion",
			       role_names[i], -1);
		if (ret)
			break;
		started++;
	}
	rtp_gate_ready(&r->gate);
	if (started < NROLE) {
		/* The gate opened to leave: the started threads return. */
		for (i = 0; i < started; i++)
			ls_join(c, r->th[i], rtp_now_ns(CLOCK_MONOTONIC) + 1000000000ull);
		if (!c->abandoned) {
			rtp_gate_destroy(&r->gate);
			pthread_mutex_destroy(&r->m);
			free(r);
		}
		return ret;
	}
	for (i = 0; i < NROLE; i++)
		if (r->err[i] && !ret) {
			ret = r->err[i];
			snprintf(inv->err_what, sizeof(inv->err_what),
				 "set SCHED_FIFO %d on CPU %d for the %s thread",
				 c->o.priority - (2 - i), inv->cpu, role_names[i]);
		}
	for (i = 0; i < NROLE && !ret; i++) {
		if (pthread_getcpuclockid(r->th[i], &r->clk[i])) {
			ret = -ENOTSUP;
			snprintf(inv->err_what, sizeof(inv->err_what), "read the %s thread's CPU clock",
				 role_names[i]);
		}
	}
	t_begin = rtp_now_ns(CLOCK_MONOTONIC);
	r->start_ns = t_begin + START_DELAY_NS;
	rtp_gate_open(&r->gate, !ret);	/* on an error, the threads leave */
	deadline = r->start_ns + c->o.iterations * inv->period_ns + inv->period_ns;
	ls_supervise(c, deadline, 50000000ull, all_done, r);
	/* Every wait in the threads is bounded by a period. */
	deadline = rtp_now_ns(CLOCK_MONOTONIC) + 3 * inv->period_ns + 1000000000ull;
	for (i = 0; i < NROLE; i++) {
		ended[i] = !ls_join(c, r->th[i], deadline);
		if (!ended[i]) {
			rtp_warn("inversion: the %s thread did not end", role_names[i]);
			ret = ret ? ret : -ETIMEDOUT;
			stuck++;
		}
	}
	/* What a thread left behind may still write is not read. */
	if (ended[HIGH]) {
		*p = r->rec;
		p->recorded = true;
	}
	if (ended[LOW]) {
		p->holder_prio_max = r->prio_max;
		p->holder_prio_min = r->prio_min;
	}
	p->stuck = stuck;
	p->duration_s = (double)(rtp_now_ns(CLOCK_MONOTONIC) - r->start_ns) / 1e9;
	p->ran = !ret || ret == -ETIMEDOUT;
	if (c->abandoned)
		return ret;	/* threads may still use r */
	rtp_gate_destroy(&r->gate);
	pthread_mutex_destroy(&r->m);
	free(r);
	return ret;
}

static int inv_run(struct ls_ctx *c)
{
	struct ls_inversion *inv;
	int i, ret = 0;

	inv = calloc(1, sizeof(*inv));
	if (!inv)
		return -ENOMEM;
	c->inv = inv;
	inv->cpu = c->o.cpu;
	inv->prio_low = c->o.priority - 2;
	inv->prio_med = c->o.priority - 1;
	inv->prio_high = c->o.priority;
	inv->rel_med_ns = c->o.hold_ns / 4;
	inv->rel_high_ns = c->o.hold_ns / 2;
	/* Half of every period idle: RT throttling (95 % per second) never starts. */
	inv->period_ns = 2 * (c->o.hold_ns + c->o.burn_ns + HIGH_CS_NS) + 2000000ull;
	inv->bound_ns = c->o.hold_ns + ls_margin_ns(&c->o);
	inv->disturb_ns = ls_margin_ns(&c->o) / 2;
	for (i = 0; i < c->o.nproto && !ls_stopped(c); i++) {
		struct inv_proto *p = &inv->p[inv->n++];

		p->protocol = c->o.proto[i];
		rtp_hist_init(&p->wait);
		rtp_hist_init(&p->lock_wait);
		rtp_hist_init(&p->remaining);
		rtp_hist_init(&p->interference);
		if (!c->o.co.quiet)
			printf("inversion: protocol %s, %llu iterations of %.3f s...\n",
			       ls_protocol_names[p->protocol], (unsigned long long)c->o.iterations,
			       (double)inv->period_ns / 1e9);
		fflush(stdout);
		ret = run_protocol(c, inv, p);
		if (ret && ret != -ETIMEDOUT) {
			inv->err = ret;
			if (!c->start_failed)	/* that one was said already */
				rtp_error("inversion: cannot %s: %s", inv->err_what, strerror(-ret));
			return 0;	/* reported; the verdict says error */
		}
		if (c->abandoned)
			break;
	}
	return 0;
}

static bool proto_bounded(const struct ls_inversion *inv, const struct inv_proto *p)
{
	return p->clean && !p->timeouts && p->clean_max <= inv->bound_ns;
}

static void inv_print(const struct ls_ctx *c)
{
	const struct ls_inversion *inv = c->inv;
	char a[24], b[24], d[24], e[24], f[24], g[24], h[24], x[32];
	int i;

	if (!inv)
		return;
	printf("\ninversion: CPU %d, SCHED_FIFO low %d / medium %d / high %d; low holds the lock "
	       "for %s of CPU time, medium burns %s from +%s, high asks at +%s\n",
	       inv->cpu, inv->prio_low, inv->prio_med, inv->prio_high,
	       rtp_format_ns(c->o.hold_ns, a, sizeof(a)), rtp_format_ns(c->o.burn_ns, b, sizeof(b)),
	       rtp_format_ns(inv->rel_med_ns, d, sizeof(d)), rtp_format_ns(inv->rel_high_ns, e, sizeof(e)));
	printf("high's lock wait, from its intended release (and from its lock call); bound %s "
	       "(hold + margin); rounds where other tasks took more than %s of the CPU are not "
	       "judged (dist)\n", rtp_format_ns(inv->bound_ns, a, sizeof(a)),
	       rtp_format_ns(inv->disturb_ns, b, sizeof(b)));
	printf("%-8s %6s %6s %12s %12s %12s %12s %12s %12s %6s %5s %12s  %s\n", "protocol",
	       "valid", "skip", "p50", "p99", "max", "p50 call", "max call", "remain p50", "prio",
	       "dist", "max undist", "verdict");
	for (i = 0; i < inv->n; i++) {
		const struct inv_proto *p = &inv->p[i];
		bool ctl = c->o.control && p->protocol == LS_PROTO_NONE;

		if (!p->wait.count) {
			printf("%-8s %6llu %6llu  (no samples%s)\n", ls_protocol_names[p->protocol],
			       (unsigned long long)p->valid, (unsigned long long)p->skipped,
			       p->recorded ? "" : ": the high thread did not end");
			continue;
		}
		printf("%-8s %6llu %6llu %12s %12s %12s %12s %12s %12s %6d %5llu %12s  %s%s\n",
		       ls_protocol_names[p->protocol], (unsigned long long)p->valid,
		       (unsigned long long)p->skipped,
		       rtp_format_ns(rtp_hist_percentile(&p->wait, 50), a, sizeof(a)),
		       rtp_format_ns(rtp_hist_percentile(&p->wait, 99), b, sizeof(b)),
		       rtp_format_ns(p->wait.max, d, sizeof(d)),
		       rtp_format_ns(rtp_hist_percentile(&p->lock_wait, 50), e, sizeof(e)),
		       rtp_format_ns(p->lock_wait.max, f, sizeof(f)),
		       p->remaining.count ? rtp_format_ns(rtp_hist_percentile(&p->remaining, 50), g, sizeof(g)) : "-",
		       p->holder_prio_max, (unsigned long long)p->disturbed,
		       p->clean ? rtp_format_ns(p->clean_max, h, sizeof(h)) : "-",
		       !p->clean ? "not judged" : proto_bounded(inv, p) ?
		       (ctl ? "bounded (control: FAIL)" : "bounded") : (ctl ? "UNBOUNDED (control)" : "UNBOUNDED"),
		       p->timeouts ? (snprintf(x, sizeof(x), " (%llu timeouts)",
					       (unsigned long long)p->timeouts), x) : "");
	}
}

static void inv_json_metrics(const struct ls_ctx *c, struct rtp_json *j)
{
	const struct ls_inversion *inv = c->inv;
	static const char *const names[4] = {
		"inversion_wait", "inversion_lock_wait", "inversion_holder_remaining",
		"inversion_interference",
	};
	int i, k;

	if (!inv)
		return;
	for (i = 0; i < inv->n; i++) {
		const struct inv_proto *p = &inv->p[i];
		const struct rtp_hist *h[4] = {
			&p->wait, &p->lock_wait, &p->remaining, &p->interference,
		};

		for (k = 0; k < 4; k++) {
			ls_json_metric_begin(j, names[k]);
			rtp_json_string(j, "scenario", "inversion");
			rtp_json_string(j, "protocol", ls_protocol_names[p->protocol]);
			rtp_json_int(j, "cpu", inv->cpu);
			rtp_json_string(j, "thread", k == 2 ? "low" : "high");
			ls_json_metric_end(j, h[k]);
		}
	}
}

static void inv_json_facts(const struct ls_ctx *c, struct rtp_json *j)
{
	const struct ls_inversion *inv = c->inv;
	int i;

	if (!inv)
		return;
	rtp_json_begin_object(j, "inversion");
	rtp_json_int(j, "cpu", inv->cpu);
	rtp_json_int(j, "priority_low", inv->prio_low);
	rtp_json_int(j, "priority_medium", inv->prio_med);
	rtp_json_int(j, "priority_high", inv->prio_high);
	rtp_json_uint(j, "hold_ns", c->o.hold_ns);
	rtp_json_uint(j, "burn_ns", c->o.burn_ns);
	rtp_json_uint(j, "medium_release_ns", inv->rel_med_ns);
	rtp_json_uint(j, "high_release_ns", inv->rel_high_ns);
	rtp_json_uint(j, "high_cs_ns", HIGH_CS_NS);
	rtp_json_uint(j, "period_ns", inv->period_ns);
	rtp_json_uint(j, "bound_ns", inv->bound_ns);
	rtp_json_uint(j, "disturbed_above_ns", inv->disturb_ns);
	rtp_json_uint(j, "iterations", c->o.iterations);
	rtp_json_begin_array(j, "protocols");
	for (i = 0; i < inv->n; i++) {
		const struct inv_proto *p = &inv->p[i];

		rtp_json_begin_object(j, NULL);
		rtp_json_string(j, "protocol", ls_protocol_names[p->protocol]);
		rtp_json_uint(j, "rounds", p->rounds);
		rtp_json_uint(j, "valid", p->valid);
		rtp_json_uint(j, "skipped", p->skipped);
		rtp_json_uint(j, "timeouts", p->timeouts);
		rtp_json_int(j, "stuck_threads", p->stuck);
		rtp_json_bool(j, "recorded", p->recorded);
		rtp_json_uint(j, "held_at_release", p->held_at_release);
		rtp_json_uint(j, "disturbed", p->disturbed);
		rtp_json_uint(j, "undisturbed", p->clean);
		if (p->clean)
			rtp_json_uint(j, "undisturbed_wait_max_ns", p->clean_max);
		if (p->interference.count)
			rtp_json_uint(j, "interference_max_ns", p->interference.max);
		if (p->wait.count) {
			rtp_json_uint(j, "wait_p50_ns", rtp_hist_percentile(&p->wait, 50));
			rtp_json_uint(j, "wait_max_ns", p->wait.max);
			rtp_json_uint(j, "lock_wait_p50_ns", rtp_hist_percentile(&p->lock_wait, 50));
			rtp_json_uint(j, "lock_wait_max_ns", p->lock_wait.max);
		}
		if (p->remaining.count)
			rtp_json_uint(j, "holder_remaining_p50_ns", rtp_hist_percentile(&p->remaining, 50));
		if (p->holder_prio_max >= 0) {
			rtp_json_int(j, "holder_prio_max", p->holder_prio_max);
			rtp_json_int(j, "holder_prio_min", p->holder_prio_min);
		} else {
			rtp_json_null(j, "holder_prio_max");
		}
		rtp_json_bool(j, "bounded", proto_bounded(inv, p));
		rtp_json_double(j, "duration_s", p->duration_s);
		rtp_json_end_object(j);
	}
	rtp_json_end_array(j);
	rtp_json_end_object(j);
}

static void inv_verdict(const struct ls_ctx *c, struct rtp_verdict *v, char *reason, size_t len)
{
	const struct ls_inversion *inv = c->inv;
	char name[64], list[128] = "", unjudged[160] = "", ctl[96] = "";
	int i, bad = 0, nj = 0;

	if (!inv)
		return;
	if (inv->err) {
		v->status = RTP_ERROR;
		snprintf(reason, len, "inversion could not run: %s", inv->err_what);
		return;
	}
	for (i = 0; i < inv->n; i++) {
		const struct inv_proto *p = &inv->p[i];

		snprintf(name, sizeof(name), "max inversion_wait protocol=%s",
			 ls_protocol_names[p->protocol]);
		if (!p->recorded) {
			/* left behind: "threads left stuck" (ls_decide) fails the run */
			snprintf(unjudged + strlen(unjudged), sizeof(unjudged) - strlen(unjudged),
				 "%s%s: the high thread did not end", nj++ ? ", " : "",
				 ls_protocol_names[p->protocol]);
			continue;
		}
		if (!p->timeouts && !p->clean) {
			if (v->status == RTP_PASS)
				v->status = RTP_ERROR;
			snprintf(unjudged + strlen(unjudged), sizeof(unjudged) - strlen(unjudged),
				 "%s%s: no undisturbed round", nj++ ? ", " : "",
				 ls_protocol_names[p->protocol]);
			continue;
		}
		if (c->o.control && p->protocol == LS_PROTO_NONE) {
			/* the control: the inversion planted must show, unbounded */
			snprintf(name, sizeof(name), "max inversion_wait protocol=none (control)");
			rtp_verdict_check(v, name, ">", (double)inv->bound_ns / 1e3,
					  p->timeouts ? (double)INFINITY : (double)p->clean_max / 1e3, "us");
			if (proto_bounded(inv, p))
				snprintf(ctl, sizeof(ctl), "; the control (none) stayed bounded: no inversion was planted");
			continue;
		}
		rtp_verdict_check(v, name, "<=", (double)inv->bound_ns / 1e3,
				  p->timeouts ? (double)INFINITY : (double)p->clean_max / 1e3, "us");
		if (!proto_bounded(inv, p)) {
			bad++;
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 bad > 1 ? ", " : "", ls_protocol_names[p->protocol]);
		}
	}
	if (bad && nj)
		snprintf(reason, len, "inversion unbounded with %s (bound %.3f ms); not judged "
			 "with %s%s", list, (double)inv->bound_ns / 1e6, unjudged, ctl);
	else if (bad)
		snprintf(reason, len, "inversion unbounded with %s (bound %.3f ms)%s", list,
			 (double)inv->bound_ns / 1e6, ctl);
	else if (nj)
		snprintf(reason, len, "inversion not judged with %s%s", unjudged, ctl);
	else if (*ctl)
		snprintf(reason, len, "inversion bounded with every protocol judged%s", ctl);
	else if (c->o.control)
		snprintf(reason, len, "inversion bounded with every protocol judged; unbounded "
			 "with the control, none (bound %.3f ms)", (double)inv->bound_ns / 1e6);
	else
		snprintf(reason, len, "inversion bounded with every protocol run");
}

static void inv_destroy(struct ls_ctx *c)
{
	free(c->inv);
	c->inv = NULL;
}

const struct ls_scenario_ops ls_inversion_ops = {
	.name = "inversion",
	.run = inv_run,
	.print = inv_print,
	.json_metrics = inv_json_metrics,
	.json_facts = inv_json_facts,
	.verdict = inv_verdict,
	.destroy = inv_destroy,
};
