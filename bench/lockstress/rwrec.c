// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rwlock-recursion: what this platform's locks do when a thread takes a
 * lock again.  Each attempt is a timed call (--attempt-timeout), so a
 * deadlock comes back as ETIMEDOUT and is reported as a fact:
 *
 *   read-recursion-writer-waiting  a reader takes the read lock again while
 *                                  a writer waits (per rwlock kind); the
 *                                  -RT tree made rwsems read-recursive
 *   read-after-write, write-after-read, write-after-write  by one thread
 *   mutex-relock                   a mutex of each type taken twice
 */
#include "lockstress.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

#define MAX_FACTS 16
#define SLACK_NS 1000000000ull	/* an attempt may overrun its timeout by this much */

struct rw_fact {
	char test[48];
	char lock[40];
	int ret;			/* 0, or the errno the second call returned */
	uint64_t elapsed_ns;
	bool bounded;
	char writer[64];		/* read-recursion: what the waiting writer got */
};

struct ls_rwrec {
	int n;
	struct rw_fact f[MAX_FACTS];
	int overruns;
	int errors;
};

static const char *outcome(int ret)
{
	switch (ret) {
	case 0: return "success";
	case ETIMEDOUT: return "deadlock";
	case EDEADLK: return "EDEADLK";
	default: return "error";
	}
}

static struct rw_fact *add(struct ls_ctx *c, const char *test, const char *lock)
{
	struct ls_rwrec *rw = c->rwr;
	struct rw_fact *f;

	if (rw->n >= MAX_FACTS)
		return NULL;
	f = &rw->f[rw->n++];
	snprintf(f->test, sizeof(f->test), "%s", test);
	snprintf(f->lock, sizeof(f->lock), "%s", lock);
	return f;
}

static void finish(struct ls_ctx *c, struct rw_fact *f, int ret, uint64_t t0)
{
	f->ret = ret;
	f->elapsed_ns = rtp_now_ns(CLOCK_MONOTONIC) - t0;
	f->bounded = f->elapsed_ns <= c->o.attempt_timeout_ns + SLACK_NS;
	if (!f->bounded)
		c->rwr->overruns++;
	if (ret && ret != ETIMEDOUT && ret != EDEADLK)
		c->rwr->errors++;
}

static int rwlock_make(pthread_rwlock_t *rw, int kind)
{
	pthread_rwlockattr_t a;
	int ret;

	pthread_rwlockattr_init(&a);
	pthread_rwlockattr_setkind_np(&a, kind);
	ret = pthread_rwlock_init(rw, &a);
	pthread_rwlockattr_destroy(&a);
	return ret;
}

/* On the heap with its lock: a writer that does not end keeps both (left behind). */
struct writer_arg {
	pthread_rwlock_t rw;
	uint64_t timeout_ns;
	int calling;			/* atomic */
	int ret;
	uint64_t waited_ns;
};

static void *writer(void *arg)
{
	struct writer_arg *w = arg;
	uint64_t t0 = rtp_now_ns(CLOCK_MONOTONIC);

	__atomic_store_n(&w->calling, 1, __ATOMIC_RELEASE);
	w->ret = ls_rwlock_wrlock_for(&w->rw, w->timeout_ns);
	w->waited_ns = rtp_now_ns(CLOCK_MONOTONIC) - t0;
	if (!w->ret)
		pthread_rwlock_unlock(&w->rw);
	return NULL;
}

static void read_recursion(struct ls_ctx *c, int kind, const char *name)
{
	const uint64_t to = c->o.attempt_timeout_ns;
	struct writer_arg *w;
	struct rw_fact *f = add(c, "read-recursion-writer-waiting", name);
	pthread_t th;
	uint64_t t0;
	pthread_attr_t attr;
	int ret, held = 0, i;

	if (!f)
		return;
	w = calloc(1, sizeof(*w));
	if (!w)
		return;
	if (rwlock_make(&w->rw, kind))
		goto out_free;
	if (pthread_rwlock_rdlock(&w->rw))
		goto out;
	held = 1;
	w->timeout_ns = 4 * to + SLACK_NS;
	ret = ls_thread_attr(c, &attr);
	if (!ret) {
		ret = pthread_create(&th, &attr, writer, w);
		pthread_attr_destroy(&attr);
	}
	if (ret) {
		snprintf(f->writer, sizeof(f->writer), "could not start the writer");
		c->rwr->errors++;
		goto out_unlock;
	}
	t0 = rtp_now_ns(CLOCK_MONOTONIC);
	while (!__atomic_load_n(&w->calling, __ATOMIC_ACQUIRE) && rtp_now_ns(CLOCK_MONOTONIC) - t0 < to)
		ls_sleep_until(rtp_now_ns(CLOCK_MONOTONIC) + 1000000ull);
	ls_sleep_until(rtp_now_ns(CLOCK_MONOTONIC) + 20000000ull);	/* the writer is now blocked in wrlock */
	t0 = rtp_now_ns(CLOCK_MONOTONIC);
	ret = ls_rwlock_rdlock_for(&w->rw, to);
	finish(c, f, ret, t0);
	if (!ret)
		held++;
	for (i = 0; i < held; i++)
		pthread_rwlock_unlock(&w->rw);
	held = 0;
	if (ls_join(c, th, rtp_now_ns(CLOCK_MONOTONIC) + w->timeout_ns + SLACK_NS)) {
		snprintf(f->writer, sizeof(f->writer), "stuck");
		return;		/* the writer still uses w and its lock: leave both */
	}
	snprintf(f->writer, sizeof(f->writer), "%s after %.3f ms",
		 w->ret ? strerror(w->ret) : "acquired", (double)w->waited_ns / 1e6);
out_unlock:
	for (i = 0; i < held; i++)
		pthread_rwlock_unlock(&w->rw);
out:
	pthread_rwlock_destroy(&w->rw);
out_free:
	free(w);
}

/* The same thread: first lock (write if first_write), then the second, timed. */
static void same_thread(struct ls_ctx *c, const char *test, bool first_write, bool second_write)
{
	struct rw_fact *f = add(c, test, "rwlock");
	pthread_rwlock_t rw;
	uint64_t t0;
	int ret;

	if (!f || rwlock_make(&rw, PTHREAD_RWLOCK_PREFER_READER_NP))
		return;
	if (first_write ? pthread_rwlock_wrlock(&rw) : pthread_rwlock_rdlock(&rw))
		goto out;
	t0 = rtp_now_ns(CLOCK_MONOTONIC);
	ret = second_write ? ls_rwlock_wrlock_for(&rw, c->o.attempt_timeout_ns) :
			     ls_rwlock_rdlock_for(&rw, c->o.attempt_timeout_ns);
	finish(c, f, ret, t0);
	if (!ret)
		pthread_rwlock_unlock(&rw);
	pthread_rwlock_unlock(&rw);
out:
	pthread_rwlock_destroy(&rw);
}

static void mutex_relock(struct ls_ctx *c, const char *name, int protocol, int type)
{
	struct rw_fact *f = add(c, "mutex-relock", name);
	pthread_mutex_t m;
	uint64_t t0;
	int ret;

	if (!f || ls_mutex_init(&m, protocol, 0, type))
		return;
	pthread_mutex_lock(&m);
	t0 = rtp_now_ns(CLOCK_MONOTONIC);
	ret = ls_mutex_lock_for(&m, c->o.attempt_timeout_ns);
	finish(c, f, ret, t0);
	if (!ret)
		pthread_mutex_unlock(&m);
	pthread_mutex_unlock(&m);
	pthread_mutex_destroy(&m);
}

static int rw_run(struct ls_ctx *c)
{
	c->rwr = calloc(1, sizeof(*c->rwr));
	if (!c->rwr)
		return -ENOMEM;
	if (!c->o.co.quiet)
		printf("rwlock-recursion: timed attempts of %.3f s each...\n",
		       (double)c->o.attempt_timeout_ns / 1e9);
	fflush(stdout);
	read_recursion(c, PTHREAD_RWLOCK_PREFER_READER_NP, "rwlock (prefer-reader, default)");
	if (!ls_stopped(c) && !c->abandoned)
		read_recursion(c, PTHREAD_RWLOCK_PREFER_WRITER_NP, "rwlock (prefer-writer)");
	if (!ls_stopped(c) && !c->abandoned)
		read_recursion(c, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP,
			       "rwlock (prefer-writer-nonrecursive)");
	if (ls_stopped(c) || c->abandoned)
		return 0;
	same_thread(c, "read-after-write", true, false);
	same_thread(c, "write-after-read", false, true);
	same_thread(c, "write-after-write", true, true);
	if (ls_stopped(c))
		return 0;
	mutex_relock(c, "mutex (normal)", LS_PROTO_NONE, PTHREAD_MUTEX_NORMAL);
	mutex_relock(c, "mutex (errorcheck)", LS_PROTO_NONE, PTHREAD_MUTEX_ERRORCHECK);
	mutex_relock(c, "mutex (recursive)", LS_PROTO_NONE, PTHREAD_MUTEX_RECURSIVE);
	mutex_relock(c, "pi-mutex (normal)", LS_PROTO_INHERIT, PTHREAD_MUTEX_NORMAL);
	return 0;
}

static void rw_print(const struct ls_ctx *c)
{
	const struct ls_rwrec *rw = c->rwr;
	char a[24];
	int i;

	if (!rw)
		return;
	printf("\nrwlock-recursion: second acquisition by the same thread, bounded by %s "
	       "(a timeout is reported as deadlock)\n", rtp_format_ns(c->o.attempt_timeout_ns, a, sizeof(a)));
	printf("%-30s %-36s %-9s %12s  %s\n", "test", "lock", "outcome", "returned in", "writer");
	for (i = 0; i < rw->n; i++) {
		const struct rw_fact *f = &rw->f[i];

		printf("%-30s %-36s %-9s %12s  %s%s\n", f->test, f->lock, outcome(f->ret),
		       rtp_format_ns(f->elapsed_ns, a, sizeof(a)), f->writer[0] ? f->writer : "-",
		       f->bounded ? "" : " (OVERRAN its bound)");
	}
}

static void rw_json_metrics(const struct ls_ctx *c, struct rtp_json *j)
{
	(void)c;
	(void)j;	/* facts only */
}

static void rw_json_facts(const struct ls_ctx *c, struct rtp_json *j)
{
	const struct ls_rwrec *rw = c->rwr;
	int i;

	if (!rw)
		return;
	rtp_json_begin_object(j, "rwlock-recursion");
	rtp_json_uint(j, "attempt_timeout_ns", c->o.attempt_timeout_ns);
	rtp_json_begin_array(j, "facts");
	for (i = 0; i < rw->n; i++) {
		const struct rw_fact *f = &rw->f[i];

		rtp_json_begin_object(j, NULL);
		rtp_json_string(j, "test", f->test);
		rtp_json_string(j, "lock", f->lock);
		rtp_json_string(j, "outcome", outcome(f->ret));
		rtp_json_string(j, "errno", f->ret ? strerrorname_np(f->ret) : "0");
		rtp_json_uint(j, "elapsed_ns", f->elapsed_ns);
		rtp_json_bool(j, "bounded", f->bounded);
		if (f->writer[0])
			rtp_json_string(j, "writer", f->writer);
		rtp_json_end_object(j);
	}
	rtp_json_end_array(j);
	rtp_json_end_object(j);
}

static void rw_verdict(const struct ls_ctx *c, struct rtp_verdict *v, char *reason, size_t len)
{
	const struct ls_rwrec *rw = c->rwr;

	if (!rw)
		return;
	rtp_verdict_check(v, "rwlock-recursion attempts over their bound", "==", 0, rw->overruns,
			  "attempts");
	if (rw->errors && v->status == RTP_PASS)
		v->status = RTP_ERROR;
	snprintf(reason, len, "rwlock-recursion: %d facts recorded%s", rw->n,
		 rw->overruns ? ", some attempts overran their bound" :
		 rw->errors ? ", some attempts failed unexpectedly" : "");
}

static void rw_destroy(struct ls_ctx *c)
{
	free(c->rwr);
	c->rwr = NULL;
}

const struct ls_scenario_ops ls_rwrec_ops = {
	.name = "rwlock-recursion",
	.run = rw_run,
	.print = rw_print,
	.json_metrics = rw_json_metrics,
	.json_facts = rw_json_facts,
	.verdict = rw_verdict,
	.destroy = rw_destroy,
};
