// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The measuring thread.  Between wake-ups: a clock read, a histogram
 * update and a few compares; nothing else (no printf, malloc, locks or
 * syscalls besides the sleep and the clock).
 */
#include "cyclic.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "rt.h"
#include "run.h"

static void spike(struct cyclic_thread *t, uint64_t when, uint64_t lat)
{
	int i, lo = 0;

	t->spikes_total++;
	if (t->nspikes < CYCLIC_MAX_SPIKES) {
		t->spikes[t->nspikes].when_ns = when;
		t->spikes[t->nspikes].lat_ns = lat;
		t->nspikes++;
		return;
	}
	/* Keep the largest: replace the smallest kept one. */
	for (i = 1; i < CYCLIC_MAX_SPIKES; i++)
		if (t->spikes[i].lat_ns < t->spikes[lo].lat_ns)
			lo = i;
	if (lat > t->spikes[lo].lat_ns) {
		t->spikes[lo].when_ns = when;
		t->spikes[lo].lat_ns = lat;
	}
}

/* Keeps the thread's CYCLIC_TOP largest samples; called only above top_min. */
static void top_note(struct cyclic_thread *t, uint64_t when, uint64_t lat)
{
	int i;

	if (t->ntop < CYCLIC_TOP) {
		t->top[t->ntop].when_ns = when;
		t->top[t->ntop].lat_ns = lat;
		if (++t->ntop < CYCLIC_TOP)
			return;
	} else {
		t->top[t->top_lo].when_ns = when;
		t->top[t->top_lo].lat_ns = lat;
	}
	t->top_lo = 0;
	for (i = 1; i < CYCLIC_TOP; i++)
		if (t->top[i].lat_ns < t->top[t->top_lo].lat_ns)
			t->top_lo = i;
	t->top_min = t->top[t->top_lo].lat_ns;
}

static void breaktrace(struct cyclic_thread *t, uint64_t lat)
{
	struct cyclic_shared *sh = t->sh;
	char msg[128];
	int n;

	if (__atomic_exchange_n(&sh->broke, 1, __ATOMIC_ACQ_REL))
		return;
	/* The run ends here: the syscalls below are outside the measurement. */
	if (sh->tracing_on_fd >= 0) {
		n = snprintf(msg, sizeof(msg), "rtproof-cyclic: hit latency threshold (%llu > %llu ns) on thread %d\n",
			     (unsigned long long)lat, (unsigned long long)sh->o->breaktrace_ns, t->id);
		if (sh->trace_marker_fd >= 0 && write(sh->trace_marker_fd, msg, (size_t)n) < 0) {
			/* reported by main as missing marks; nothing to do here */
		}
		if (write(sh->tracing_on_fd, "0", 1) < 0) {
			/* idem */
		}
	}
	sh->break_lat_ns = lat;
	sh->break_thread = t->id;
	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELEASE);
}

static inline void account(struct cyclic_thread *t, const struct cyclic_opts *o,
			   uint64_t release, uint64_t now)
{
	uint64_t lat;

	t->last_handled_ns = release;
	if (__builtin_expect(now < release, 0)) {
		t->early++;
		return;
	}
	lat = now - release;
	t->last_ns = now;
	rtp_hist_record_at(&t->hist, lat, release);
	if (t->us_hist) {
		uint64_t us = lat / 1000;

		if (us < o->histogram_us)
			t->us_hist[us]++;
		else
			t->us_overflow++;
	}
	if (__builtin_expect(lat > t->top_min, 0) && t->top)
		top_note(t, release - t->sh->start_ns, lat);
	if (o->spike_ns && lat > o->spike_ns)
		spike(t, release - t->sh->start_ns, lat);
	if (o->breaktrace_ns && lat > o->breaktrace_ns)
		breaktrace(t, lat);
	if (__builtin_expect(lat > t->sh->explain_ns, 0))
		rtp_explain_note(t->sh->run->ex, t->cpu, t->tid, release, now, "wakeup_latency");
}

static int setup(struct cyclic_thread *t)
{
	const struct cyclic_opts *o = t->sh->o;
	struct rtp_sched s = { .policy = o->policy, .priority = o->priority };

	t->tid = rtp_gettid();
	if (o->policy == SCHED_DEADLINE) {
		s.runtime_ns = t->interval_ns / 10 > 50000 ? t->interval_ns / 10 : 50000;
		s.deadline_ns = t->interval_ns;
		s.period_ns = t->interval_ns;
	}
	/*
	 * A deadline task's affinity must span its root domain: it runs unpinned (cpu -1).
	 * No stack prefault: the stack was painted, so faulted in, when mapped (stack.h).
	 */
	return rtp_thread_setup(t->cpu, NULL, &s, RTP_THREAD_TIMERSLACK, 0, &t->err_what);
}

/*
 * Test only (--test-stop-race): after the first sample, wait before the
 * sleep until the run is told to stop, and a little longer, so the first
 * stop signal lands just before the thread blocks: the stop must still be
 * prompt.
 */
static void stop_race(struct cyclic_shared *sh)
{
	struct timespec ms = { 0, 1000000 };

	while (!__atomic_load_n(&sh->stop, __ATOMIC_ACQUIRE))
		nanosleep(&ms, NULL);
	nanosleep(&ms, NULL);
	nanosleep(&ms, NULL);
}

/*
 * Of k releases from 'first' on, those inside the duration: a wake-up so late
 * that it passed the end must not count releases after it as missed (they
 * are no releases of this run; samples + missed = releases holds exactly).
 */
static uint64_t releases_within(const struct cyclic_shared *sh, uint64_t interval_ns,
				uint64_t first, uint64_t k)
{
	uint64_t in;

	if (!sh->end_ns)
		return k;
	if (first > sh->end_ns)
		return 0;
	in = (sh->end_ns - first) / interval_ns + 1;
	return k < in ? k : in;
}

/* k releases from 'from' on passed over: those inside the duration are missed. */
static void miss(struct cyclic_thread *t, uint64_t from, uint64_t k)
{
	uint64_t in = releases_within(t->sh, t->interval_ns, from, k);

	RTP_ST(&t->missed, RTP_LD(&t->missed) + in);
	if (in)
		t->last_handled_ns = from + (in - 1) * t->interval_ns;
}

static void run_nanosleep(struct cyclic_thread *t, const struct cyclic_opts *o)
{
	struct cyclic_shared *sh = t->sh;
	uint64_t next = t->first_release_ns, now, cycles = 0;
	struct timespec ts;
	int ret;

	while (!__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) {
		if (o->relative) {
			uint64_t before = rtp_now_ns(CLOCK_MONOTONIC);
			uint64_t wait = cycles ? t->interval_ns : (next > before ? next - before : 0);

			if (sh->end_ns && before + wait > sh->end_ns) {
				t->ended_by_duration = true;
				break;
			}
			ts = rtp_ns_ts(wait);
			next = before + wait;
			ret = clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
		} else {
			if (sh->end_ns && next > sh->end_ns) {
				t->ended_by_duration = true;
				break;
			}
			if (__builtin_expect(o->test_stop_race, 0) && cycles)
				stop_race(sh);
			ts = rtp_ns_ts(next);
			ret = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		}
		if (ret == EINTR)
			continue;	/* woken to stop, or to be re-slept: no sample */
		now = rtp_now_ns(CLOCK_MONOTONIC);
		account(t, o, next, now);
		cycles++;
		if (o->co.loops && cycles >= o->co.loops)
			break;
		if (o->relative)
			continue;
		next += t->interval_ns;
		if (now >= next) {
			uint64_t k = (now - next) / t->interval_ns + 1;

			miss(t, next, k);
			next += k * t->interval_ns;
		}
	}
}

static void run_timerfd(struct cyclic_thread *t, const struct cyclic_opts *o)
{
	struct cyclic_shared *sh = t->sh;
	struct itimerspec its;
	uint64_t served = 0, cycles = 0, exp, now, release;
	ssize_t n;
	int fd;

	fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (fd < 0) {
		t->err = -errno;
		t->err_what = "create its timerfd";
		return;
	}
	its.it_value = rtp_ns_ts(t->first_release_ns);
	its.it_interval = rtp_ns_ts(t->interval_ns);
	if (timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL)) {
		t->err = -errno;
		t->err_what = "arm its timerfd";
		close(fd);
		return;
	}
	while (!__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) {
		if (sh->end_ns && t->first_release_ns + served * t->interval_ns > sh->end_ns) {
			t->ended_by_duration = true;
			break;
		}
		n = read(fd, &exp, sizeof(exp));
		if (n != sizeof(exp))
			continue;	/* EINTR: check the stop flag */
		now = rtp_now_ns(CLOCK_MONOTONIC);
		release = t->first_release_ns + served * t->interval_ns;
		account(t, o, release, now);
		served += exp;
		if (exp > 1)
			miss(t, release + t->interval_ns, exp - 1);
		cycles++;
		if (o->co.loops && cycles >= o->co.loops)
			break;
	}
	close(fd);
}

/*
 * Through the gate after its first release (the VM stalled it): the
 * releases already past are counted missed, and the thread starts at the
 * next one, so the gate's own wake-up is never taken for a timer latency.
 */
static void skip_late_start(struct cyclic_thread *t)
{
	uint64_t now = rtp_now_ns(CLOCK_MONOTONIC), k;

	if (now <= t->first_release_ns)
		return;
	k = (now - t->first_release_ns) / t->interval_ns + 1;
	miss(t, t->first_release_ns, k);
	t->first_release_ns += k * t->interval_ns;
}

void *cyclic_thread_main(void *arg)
{
	struct cyclic_thread *t = arg;
	struct cyclic_shared *sh = t->sh;
	const struct cyclic_opts *o = sh->o;
	uint64_t first;

	t->err = setup(t);
	if (!rtp_gate_pass(&sh->gate, t->err) || __atomic_load_n(&sh->stop, __ATOMIC_ACQUIRE))
		goto out;
	t->first_release_ns = sh->start_ns + (uint64_t)t->id * o->offset_ns;
	first = t->first_release_ns;
	skip_late_start(t);
	if (o->timer == CYCLIC_TIMERFD)
		run_timerfd(t, o);
	else
		run_nanosleep(t, o);
	if (!o->relative && t->last_handled_ns)
		t->releases = (t->last_handled_ns - first) / t->interval_ns + 1;
out:
	__atomic_store_n(&t->done, true, __ATOMIC_RELEASE);
	rtp_run_wake(sh->run);
	return NULL;
}
