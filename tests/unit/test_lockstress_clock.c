// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtproof-lockstress: the timed waits must not follow the wall clock.  A
 * step of CLOCK_REALTIME (NTP, an administrator, a VM resumed) between
 * reading the clock and waiting must neither end a wait early (a false
 * timeout: an "UNBOUNDED" inversion verdict) nor stretch it (a watchdog
 * that never fires).
 *
 * The step is modelled in this process: clock_gettime() is interposed so
 * that CLOCK_REALTIME reads an hour off the kernel's, as if the wall clock
 * had been stepped by an hour just after it was read.  The kernel's futex
 * waits keep the real clock.  CLOCK_MONOTONIC is untouched.
 */
#include "../../bench/lockstress/lockstress.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "run.h"
#include "tap.h"

#define HOUR_NS 3600000000000ll
#define TIMEOUT_NS 300000000ull		/* the wait asked for: 300 ms */
#define RELEASE_NS 900000000ull	/* when the holder lets go, if it does */

static int64_t realtime_offset_ns;	/* set before the threads start */

int clock_gettime(clockid_t id, struct timespec *ts)
{
	int ret = (int)syscall(SYS_clock_gettime, id, ts);

	if (!ret && id == CLOCK_REALTIME && realtime_offset_ns) {
		int64_t ns = (int64_t)ts->tv_sec * 1000000000ll + ts->tv_nsec + realtime_offset_ns;

		ts->tv_sec = ns / 1000000000ll;
		ts->tv_nsec = ns % 1000000000ll;
	}
	return ret;
}

enum what { MUTEX, RDLOCK, WRLOCK };

struct waiter {
	enum what what;
	pthread_mutex_t *m;
	pthread_rwlock_t *rw;
	int ret;
	uint64_t waited_ns;
};

static void *wait_thread(void *arg)
{
	struct waiter *w = arg;
	uint64_t t0 = rtp_now_ns(CLOCK_MONOTONIC);

	switch (w->what) {
	case MUTEX:
		w->ret = ls_mutex_lock_for(w->m, TIMEOUT_NS);
		if (!w->ret)
			pthread_mutex_unlock(w->m);
		break;
	case RDLOCK:
		w->ret = ls_rwlock_rdlock_for(w->rw, TIMEOUT_NS);
		if (!w->ret)
			pthread_rwlock_unlock(w->rw);
		break;
	default:
		w->ret = ls_rwlock_wrlock_for(w->rw, TIMEOUT_NS);
		if (!w->ret)
			pthread_rwlock_unlock(w->rw);
		break;
	}
	w->waited_ns = rtp_now_ns(CLOCK_MONOTONIC) - t0;
	return NULL;
}

/*
 * The lock is held by this thread for RELEASE_NS; a waiter asks for it with
 * a 300 ms timeout and must time out after 300 ms of CLOCK_MONOTONIC,
 * whatever the wall clock says.  Before the fix, a wall clock an hour
 * ahead ended the wait at once, and one an hour behind let it run until
 * the holder let go (0.9 s) and take the lock.
 */
static void one(enum what what, int64_t offset_ns, const char *step)
{
	static const char *const names[] = { "mutex", "rwlock read", "rwlock write" };
	pthread_mutex_t m;
	pthread_rwlock_t rw;
	struct waiter w = { .what = what, .m = &m, .rw = &rw, .ret = -1 };
	pthread_t th;
	uint64_t t0;

	ls_mutex_init(&m, LS_PROTO_INHERIT, 0, PTHREAD_MUTEX_NORMAL);
	pthread_rwlock_init(&rw, NULL);
	if (what == MUTEX)
		pthread_mutex_lock(&m);
	else
		pthread_rwlock_wrlock(&rw);
	realtime_offset_ns = offset_ns;
	t0 = rtp_now_ns(CLOCK_MONOTONIC);
	if (pthread_create(&th, NULL, wait_thread, &w)) {
		ok(0, "%s: cannot start the waiter", names[what]);
		goto out;
	}
	ls_sleep_until(t0 + RELEASE_NS);
	if (what == MUTEX)
		pthread_mutex_unlock(&m);
	else
		pthread_rwlock_unlock(&rw);
	pthread_join(th, NULL);
	ok(w.ret == ETIMEDOUT && w.waited_ns >= TIMEOUT_NS && w.waited_ns < TIMEOUT_NS + 500000000ull,
	   "%s, wall clock %s: a 300 ms timed lock times out after 300 ms (%s after %.1f ms)",
	   names[what], step, w.ret == ETIMEDOUT ? "timed out" : w.ret ? strerror(w.ret) : "acquired",
	   (double)w.waited_ns / 1e6);
out:
	realtime_offset_ns = 0;
	pthread_rwlock_destroy(&rw);
	pthread_mutex_destroy(&m);
}

static void *sleeper(void *arg)
{
	(void)arg;
	ls_sleep_until(rtp_now_ns(CLOCK_MONOTONIC) + RELEASE_NS);
	return NULL;
}

static void join(int64_t offset_ns, const char *step)
{
	struct ls_ctx *c = calloc(1, sizeof(*c));
	pthread_t th;
	uint64_t t0, waited;
	int ret;

	if (!c || pthread_create(&th, NULL, sleeper, NULL)) {
		ok(0, "join: cannot start the thread");
		free(c);
		return;
	}
	realtime_offset_ns = offset_ns;
	t0 = rtp_now_ns(CLOCK_MONOTONIC);
	ret = ls_join(c, th, t0 + TIMEOUT_NS);
	waited = rtp_now_ns(CLOCK_MONOTONIC) - t0;
	realtime_offset_ns = 0;
	ok(ret == -ETIMEDOUT && waited >= TIMEOUT_NS && waited < TIMEOUT_NS + 500000000ull,
	   "join, wall clock %s: a thread still running is given up after 300 ms (%s after %.1f ms)",
	   step, ret == -ETIMEDOUT ? "timed out" : ret ? strerror(-ret) : "joined", (double)waited / 1e6);
	if (ret)
		pthread_join(th, NULL);
	free(c);
}

int main(void)
{
	enum what w;

	for (w = MUTEX; w <= WRLOCK; w++) {
		one(w, -HOUR_NS, "stepped an hour ahead");
		one(w, HOUR_NS, "stepped an hour back");
	}
	join(-HOUR_NS, "stepped an hour ahead");
	join(HOUR_NS, "stepped an hour back");
	return tap_done();
}
