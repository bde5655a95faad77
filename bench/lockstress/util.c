// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtproof-lockstress: what the scenarios share: thread stacks and starts,
 * thread setup, CPU burners, bounded waits.  It calls no scenario.
 */
#include "lockstress.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gate.h"
#include "rt.h"
#include "run.h"
#include "stack.h"

int ls_thread_attr(struct ls_ctx *c, pthread_attr_t *attr)
{
	struct rtp_stack *s;
	int ret;

	if (c->nstacks == c->stacks_cap) {
		int cap = c->stacks_cap ? 2 * c->stacks_cap : 16;

		s = realloc(c->stacks, (size_t)cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		c->stacks = s;
		c->stacks_cap = cap;
	}
	s = &c->stacks[c->nstacks];
	ret = rtp_stack_alloc(s, LS_STACK_BYTES);
	if (ret)
		return ret;
	c->nstacks++;
	pthread_attr_init(attr);
	ret = rtp_stack_attr(s, attr);
	if (ret)
		pthread_attr_destroy(attr);
	return ret;
}

/* Stacks from index 'from' on, of threads all joined: their peak is kept, they are unmapped. */
void ls_stacks_release(struct ls_ctx *c, int from)
{
	size_t p;

	if (c->abandoned)
		return;	/* a stuck thread may still run on one */
	while (c->nstacks > from) {
		struct rtp_stack *s = &c->stacks[--c->nstacks];

		p = rtp_stack_peak(s);
		if (p > c->stack_peak)
			c->stack_peak = p;
		rtp_stack_free(s);
	}
}

int ls_start(struct ls_ctx *c, struct rtp_gate *g, pthread_t *th, void *(*fn)(void *),
	     void *arg, const char *scenario, const char *what, int idx)
{
	pthread_attr_t attr;
	char name[64];
	int ret = ls_thread_attr(c, &attr);

	if (!ret) {
		ret = rtp_gate_create(g, th, &attr, fn, arg);
		pthread_attr_destroy(&attr);
	} else {
		rtp_gate_open(g, false);	/* as a failed create does: the started ones leave */
	}
	if (!ret)
		return 0;
	if (idx >= 0)
		snprintf(name, sizeof(name), "%s %d", what, idx);
	else
		snprintf(name, sizeof(name), "the %s thread", what);
	rtp_gate_create_error(scenario, name, ret);
	__atomic_store_n(&c->start_failed, true, __ATOMIC_RELEASE);
	return ret;
}

int ls_thread_setup(int cpu, const cpu_set_t *set, int policy, int prio)
{
	struct rtp_sched s = { .policy = policy, .priority = rtp_policy_is_rt(policy) ? prio : 0 };

	return rtp_thread_setup(cpu, set, &s, 0, 0, NULL);
}

void ls_burn_cpu(uint64_t ns, const int *stop)
{
	uint64_t start = rtp_now_ns(CLOCK_THREAD_CPUTIME_ID);
	volatile unsigned sink = 0;
	unsigned i;

	for (;;) {
		for (i = 0; i < 256; i++)
			sink += i;
		if (rtp_now_ns(CLOCK_THREAD_CPUTIME_ID) - start >= ns)
			break;
		if (stop && __atomic_load_n(stop, __ATOMIC_RELAXED))
			break;
	}
}

void ls_spin_wall(uint64_t ns)
{
	uint64_t start;

	if (!ns)
		return;
	start = rtp_now_ns(CLOCK_MONOTONIC);
	while (rtp_now_ns(CLOCK_MONOTONIC) - start < ns)
		__asm__ __volatile__("" ::: "memory");
}

void ls_sleep_until(uint64_t t_ns)
{
	struct timespec ts = rtp_ns_ts(t_ns);

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

bool ls_sleep_until_or(uint64_t t_ns, const int *stop1, const int *stop2)
{
	for (;;) {
		uint64_t now = rtp_now_ns(CLOCK_MONOTONIC), next;

		if ((stop1 && __atomic_load_n(stop1, __ATOMIC_RELAXED)) ||
		    (stop2 && __atomic_load_n(stop2, __ATOMIC_RELAXED)))
			return false;
		if (now >= t_ns)
			return true;
		/* Slices of 50 ms to see a stop; the last one ends exactly at t_ns. */
		next = t_ns - now > 50000000ull ? now + 50000000ull : t_ns;
		ls_sleep_until(next);
	}
}

/*
 * Deadlines on CLOCK_MONOTONIC: a step of the wall clock (NTP, date -s, a
 * resumed VM) can neither end a wait early, a false timeout that reads as
 * an unbounded inversion, nor stretch it.  pthread_mutex_clocklock on a
 * priority-inheritance mutex needs FUTEX_LOCK_PI2 (Linux 5.14).
 *
 * ThreadSanitizer (GCC 12's) intercepts the timed calls but not the
 * clock-taking ones: a lock or a join it does not see makes it report
 * false races.  The -fsanitize=thread build therefore keeps the
 * CLOCK_REALTIME calls; every other build uses CLOCK_MONOTONIC.
 */
#if defined(__SANITIZE_THREAD__)
#define LS_WAIT_MONOTONIC 0
#define LS_WAIT_CLOCK CLOCK_REALTIME
#else
#define LS_WAIT_MONOTONIC 1
#define LS_WAIT_CLOCK CLOCK_MONOTONIC
#endif

struct timespec ls_deadline(uint64_t timeout_ns)
{
	struct timespec ts;

	clock_gettime(LS_WAIT_CLOCK, &ts);
	return rtp_ns_ts(rtp_ts_ns(&ts) + timeout_ns);
}

int ls_mutex_lock_for(pthread_mutex_t *m, uint64_t timeout_ns)
{
	struct timespec dl = ls_deadline(timeout_ns);

#if LS_WAIT_MONOTONIC
	return pthread_mutex_clocklock(m, CLOCK_MONOTONIC, &dl);
#else
	return pthread_mutex_timedlock(m, &dl);
#endif
}

int ls_rwlock_rdlock_for(pthread_rwlock_t *rw, uint64_t timeout_ns)
{
	struct timespec dl = ls_deadline(timeout_ns);

#if LS_WAIT_MONOTONIC
	return pthread_rwlock_clockrdlock(rw, CLOCK_MONOTONIC, &dl);
#else
	return pthread_rwlock_timedrdlock(rw, &dl);
#endif
}

int ls_rwlock_wrlock_for(pthread_rwlock_t *rw, uint64_t timeout_ns)
{
	struct timespec dl = ls_deadline(timeout_ns);

#if LS_WAIT_MONOTONIC
	return pthread_rwlock_clockwrlock(rw, CLOCK_MONOTONIC, &dl);
#else
	return pthread_rwlock_timedwrlock(rw, &dl);
#endif
}

int ls_open_self_stat(void)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)rtp_gettid());
	return open(path, O_RDONLY | O_CLOEXEC);
}

int ls_effective_prio(int fd)
{
	char buf[1024], *p;
	ssize_t n;
	int field, prio;

	if (fd < 0)
		return -1;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	/* Field 3 (state) follows ") "; "priority" is field 18. */
	p += 2;
	for (field = 3; field < 18 && p; field++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (!p || sscanf(p, "%d", &prio) != 1)
		return -1;
	/* For RT tasks the kernel shows -1 - rt_priority (boosts included). */
	return prio < 0 ? -1 - prio : 0;
}

int ls_mutex_init(pthread_mutex_t *m, int protocol, int ceiling, int type)
{
	pthread_mutexattr_t a;
	int ret;

	ret = pthread_mutexattr_init(&a);
	if (ret)
		return -ret;
	ret = pthread_mutexattr_settype(&a, type);
	if (!ret)
		ret = pthread_mutexattr_setprotocol(&a, protocol == LS_PROTO_INHERIT ?
						    PTHREAD_PRIO_INHERIT : protocol == LS_PROTO_PROTECT ?
						    PTHREAD_PRIO_PROTECT : PTHREAD_PRIO_NONE);
	if (!ret && protocol == LS_PROTO_PROTECT)
		ret = pthread_mutexattr_setprioceiling(&a, ceiling);
	if (!ret)
		ret = pthread_mutex_init(m, &a);
	pthread_mutexattr_destroy(&a);
	return -ret;
}

struct ls_watch {
	struct ls_ctx *c;
	int (*done)(void *arg);
	void *arg;
	int ret;
};

static const char *ls_watch_check(struct rtp_run *r, void *arg, uint64_t now, uint64_t *next)
{
	struct ls_watch *w = arg;

	(void)r;
	(void)now;
	(void)next;
	if (w->done && (w->ret = w->done(w->arg)))
		return "done";
	if (ls_stopped(w->c)) {
		w->ret = -1;
		return "stopped";
	}
	return NULL;
}

/* The driver's supervise loop, with the scenario's done() and the run's stop flag. */
int ls_supervise(struct ls_ctx *c, uint64_t until_ns, uint64_t tick_ns,
		 int (*done)(void *arg), void *arg)
{
	struct ls_watch w = { c, done, arg, 0 };
	struct rtp_watch rw = { .deadline_ns = until_ns, .tick_ns = tick_ns,
				.check = ls_watch_check, .arg = &w };
	const char *why = rtp_run_supervise(c->run, &rw);

	if (!strcmp(why, "signal")) {
		c->signal = c->run->signal;
		__atomic_store_n(&c->stop, 1, __ATOMIC_RELEASE);
		return -1;
	}
	return strcmp(why, "duration") ? w.ret : 0;
}

int ls_join(struct ls_ctx *c, pthread_t th, uint64_t deadline_ns)
{
	uint64_t now = rtp_now_ns(CLOCK_MONOTONIC);
	struct timespec ts = ls_deadline(deadline_ns > now ? deadline_ns - now : 0);
	int ret;

#if LS_WAIT_MONOTONIC
	ret = pthread_clockjoin_np(th, NULL, CLOCK_MONOTONIC, &ts);
#else
	ret = pthread_timedjoin_np(th, NULL, &ts);
#endif
	if (ret == ETIMEDOUT) {
		/*
		 * Left behind, detached: it may still end before the run
		 * does (_exit, ls_teardown), and a finished thread nobody
		 * joins is a leak to ThreadSanitizer.
		 */
		pthread_detach(th);
		c->abandoned++;
		return -ETIMEDOUT;
	}
	return -ret;
}

void ls_json_metric_begin(struct rtp_json *j, const char *name)
{
	rtp_json_begin_object(j, NULL);
	rtp_json_string(j, "name", name);
	rtp_json_string(j, "unit", "ns");
}

void ls_json_metric_end(struct rtp_json *j, const struct rtp_hist *h)
{
	rtp_json_hist(j, h, true);
	rtp_json_end_object(j);
}
