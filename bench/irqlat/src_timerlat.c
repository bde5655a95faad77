// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-irqlat source "timerlat": the kernel's timerlat tracer, through tracefs. */
#include "irqlat_run.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/rtc.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "ctlfile.h"
#include "driver.h"
#include "json.h"
#include "runlock.h"
#include "kconfig.h"
#include "log.h"
#include "rt.h"
#include "run.h"
#include "state.h"
#include "sysinfo.h"
#include "../../kernel/module/rtproof_irqlat.h"

static const char *find_tracefs(const struct irqlat_opts *o, char *buf, size_t len)
{
	static const char *const need[] = { "available_tracers", NULL };

	if (o->tracefs) {
		snprintf(buf, len, "%s", o->tracefs);
		return buf;
	}
	return rtp_tracefs_root(need, buf, len) ? NULL : buf;
}

static void timerlat_probe(struct irqlat_run *r, char *why, size_t len)
{
	const struct irqlat_opts *o = &r->o;
	char p[600], buf[4096];

		why[0] = 0;
	if (!find_tracefs(o, r->tracefs, sizeof(r->tracefs))) {
		int k = rtp_kconfig_has(r->run->si.kernel_release, "CONFIG_TIMERLAT_TRACER");

		if (k == 0)
			snprintf(why, len, "tracer not available (kernel has no CONFIG_TIMERLAT_TRACER)");
		else
			snprintf(why, len, "tracefs not mounted (mount -t tracefs nodev /sys/kernel/tracing)%s",
				 k == 1 ? "; the kernel has CONFIG_TIMERLAT_TRACER" : "");
	} else {
		int e;

		snprintf(p, sizeof(p), "%s/available_tracers", r->tracefs);
		e = -rtp_read_file(p, buf, sizeof(buf));
		if (e) {
			snprintf(why, len, "%s: %s%s", p, strerror(e),
				 e == EACCES || e == EPERM ? " (run as root)" : "");
		} else if (!strstr(buf, "timerlat")) {
			snprintf(why, len, "tracer not available (kernel has no CONFIG_TIMERLAT_TRACER)");
		} else {
			snprintf(p, sizeof(p), "%s/current_tracer", r->tracefs);
			e = -rtp_read_file(p, buf, sizeof(buf));
			if (e)
				snprintf(why, len, "%s: %s", p, strerror(e));
			else if (strcmp(buf, "nop") && strcmp(buf, "timerlat"))
				snprintf(why, len, "tracefs is busy: current_tracer is %s", buf);
			else if (access(p, W_OK))
				snprintf(why, len, "%s: not writable (run as root)", p);
		}
	}
}

static void tl_path(const struct irqlat_run *r, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", r->tracefs, name);
}

/* Writes val to the tracefs file name; buf keeps its path for the error. */
static int tl_write(const struct irqlat_run *r, const char *name, const char *val, char *buf, size_t len)
{
	tl_path(r, name, buf, len);
	return rtp_ctl_write(buf, val);
}

/*
 * The state journal (lib/state.h): each setting is recorded with the value
 * to put back before it is first changed, so a run killed before its
 * teardown is undone by the next one; the teardown forgets them again.
 */
static struct rtp_state *tl_journal(const struct irqlat_run *r)
{
	return r->run ? r->run->state : NULL;
}

static void tl_record(const struct irqlat_run *r, const char *name, const char *old)
{
	char p[600];
	int ret;

	tl_path(r, name, p, sizeof(p));
	ret = rtp_state_record_write(tl_journal(r), p, old);
	if (ret)
		rtp_warn("%s: cannot record it in the state journal: %s; a killed run leaves it changed",
			 p, strerror(-ret));
}

static const char *const tl_recorded[] = {
	"current_tracer", "tracing_on", "osnoise/timerlat_period_us", "osnoise/cpus",
	"osnoise/options",
};

static void tl_forget(const struct irqlat_run *r)
{
	char p[600];
	size_t i;

	for (i = 0; i < sizeof(tl_recorded) / sizeof(tl_recorded[0]); i++) {
		tl_path(r, tl_recorded[i], p, sizeof(p));
		rtp_state_forget(tl_journal(r), p);
	}
}

/* One per CPU: blocks in read() on the CPU's timerlat_fd; each return is
 * a timer wake-up, each next read() the return to user space the tracer
 * timestamps ("context user-ret"). */
struct tl_user_arg {
	struct irqlat_run *r;
	int cpu;
	int idx;
};
static struct tl_user_arg tl_user_args[IRQLAT_TL_MAX_USER];

static void *tl_user_thread(void *arg)
{
	const struct tl_user_arg *a = arg;
	struct irqlat_run *r = a->r;
	char p[600], b;
	int fd, ret;

	snprintf(p, sizeof(p), "timerlatu/%d", a->cpu);	/* rtla -u's name */
	pthread_setname_np(pthread_self(), p);
	ret = rtp_pin_cpu(0, a->cpu);	/* timerlat_fd refuses an unpinned opener */
	if (!ret) {
		/* SCHED_FIFO 95, as the kernel's own timerlat/N threads (above
		 * the trace reader, which would otherwise delay them), or
		 * --irq-prio's priority */
		struct rtp_sched s = { .policy = SCHED_FIFO,
				       .priority = r->o.irq_prio ? r->o.irq_prio : IRQLAT_TL_USER_PRIO };

		ret = rtp_sched_set(0, &s);
	}
	snprintf(p, sizeof(p), "%s/osnoise/per_cpu/cpu%d/timerlat_fd", r->tracefs, a->cpu);
	fd = ret ? -1 : open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = ret ? ret : -errno, z = 0;

		__atomic_compare_exchange_n(&r->tl_user_err, &z, e, false, __ATOMIC_ACQ_REL,
					    __ATOMIC_ACQUIRE);
		__atomic_store_n(&r->tl_user_tid[a->idx], -1, __ATOMIC_RELEASE);
		return NULL;
	}
	__atomic_store_n(&r->tl_user_tid[a->idx], (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE))
		if (read(fd, &b, 1) < 0 && errno != EINTR)
			break;
	close(fd);
	return NULL;
}

static void tl_user_stop(struct irqlat_run *r)
{
	int i;

	__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < r->tl_nuser; i++)
		pthread_join(r->tl_user_thr[i], NULL);	/* each wakes within one period */
	r->tl_nuser = 0;
}

static int tl_user_start(struct irqlat_run *r)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	pthread_attr_t attr;
	int c, ret = 0;

	long smin = sysconf(_SC_THREAD_STACK_MIN);
	size_t stack = IRQLAT_TL_USER_STACK;

	/* where pages are larger (64 KiB), the minimum is: glibc's 8 MiB default never */
	if (smin > 0 && (size_t)smin > stack)
		stack = (size_t)smin;
	pthread_attr_init(&attr);
	ret = pthread_attr_setstacksize(&attr, stack);
	if (ret) {
		pthread_attr_destroy(&attr);
		return -ret;
	}
	for (c = 0; c < n && r->tl_nuser < IRQLAT_TL_MAX_USER; c++) {
		if (r->o.cpu >= 0 && c != r->o.cpu)
			continue;
		tl_user_args[r->tl_nuser] = (struct tl_user_arg){ .r = r, .cpu = c, .idx = r->tl_nuser };
		r->tl_user_cpu[r->tl_nuser] = c;
		r->tl_user_tid[r->tl_nuser] = 0;
		ret = pthread_create(&r->tl_user_thr[r->tl_nuser], &attr, tl_user_thread,
				     &tl_user_args[r->tl_nuser]);
		if (ret)
			break;
		r->tl_nuser++;
	}
	pthread_attr_destroy(&attr);
	if (ret)
		return -ret;
	/* Until each thread is pinned, prioritised and holds its timerlat_fd
	 * (up to 2 s): the document then describes the threads that ran. */
	for (c = 0; c < 2000; c++) {
		int i, pending = 0;

		for (i = 0; i < r->tl_nuser; i++)
			pending += __atomic_load_n(&r->tl_user_tid[i], __ATOMIC_ACQUIRE) == 0;
		if (!pending)
			break;
		struct timespec ts = rtp_ns_ts(1000000);

		nanosleep(&ts, NULL);
	}
	return 0;
}

/* The measuring thread of the timerlat_fd workload: ours, timerlatu/N. */
void irqlat_timerlat_user_thread(struct irqlat_run *r)
{
	int i, tid = 0;

	for (i = 0; i < r->tl_nuser; i++)
		if (r->o.cpu < 0 ? r->tl_user_cpu[i] == 0 : r->tl_user_cpu[i] == r->o.cpu) {
			tid = __atomic_load_n(&r->tl_user_tid[i], __ATOMIC_ACQUIRE);
			break;
		}
	memset(&r->thr, 0, sizeof(r->thr));
	if (tid <= 0)
		return;
	struct rtp_sched now;

	if (rtp_sched_get(tid, &now))
		return;
	r->thr.found = true;
	r->thr.own = true;
	r->thr.pid = tid;
	snprintf(r->thr.comm, sizeof(r->thr.comm), "timerlatu/%d", r->tl_user_cpu[i]);
	r->thr.policy = now.policy;
	r->thr.priority = now.priority;
	r->thr.orig_policy = SCHED_FIFO;
	r->thr.orig_priority = IRQLAT_TL_USER_PRIO;
}

/*
 * --osnoise: the osnoise tracer's noise events (nmi, irq, softirq, thread
 * interference), which the timerlat tracer's hooks emit while it runs, into
 * the same trace_pipe; each one's "enable" is saved and put back.
 */
static void osnoise_events_on(struct irqlat_run *r)
{
	char p[600];
	int k, ret = 0;

	for (k = 0; k < NOISE_N; k++) {
		snprintf(p, sizeof(p), "%s/events/osnoise/%s_noise/enable", r->tracefs,
			 irqlat_noise_names[k]);
		ret = rtp_read_file(p, r->osn_saved[k], sizeof(r->osn_saved[k]));
		if (ret) {
			snprintf(r->osn_why, sizeof(r->osn_why),
				 "not available: %s: %s (the kernel has no osnoise trace events)", p,
				 strerror(-ret));
			break;
		}
	}
	for (k = 0; !ret && k < NOISE_N; k++) {
		snprintf(p, sizeof(p), "%s/events/osnoise/%s_noise/enable", r->tracefs,
			 irqlat_noise_names[k]);
		rtp_state_record_write(tl_journal(r), p, r->osn_saved[k][0] == '1' ? "1" : "0");
		ret = rtp_ctl_write(p, "1\n");
		if (ret)
			snprintf(r->osn_why, sizeof(r->osn_why), "not available: %s: %s", p,
				 strerror(-ret));
		else
			r->osn_set = k + 1;	/* put back at the end */
	}
	if (ret)
		return;		/* not all kinds: none recorded, rather than zeros */
	r->osn_on = true;
	r->osn_why[0] = 0;
}

static void osnoise_events_off(struct irqlat_run *r)
{
	char p[600];
	int k;

	for (k = 0; k < r->osn_set; k++) {
		snprintf(p, sizeof(p), "%s/events/osnoise/%s_noise/enable", r->tracefs,
			 irqlat_noise_names[k]);
		if (rtp_ctl_write(p, r->osn_saved[k][0] == '1' ? "1\n" : "0\n"))
			rtp_warn("%s: could not be restored", p);
		else
			rtp_state_forget(tl_journal(r), p);
	}
	r->osn_set = 0;
}

static void osnoise_account(struct irqlat_run *r, const char *line)
{
	struct irqlat_noise *n;
	char what[48];
	uint64_t ns;
	int cpu, k;

	if (!irqlat_parse_osnoise(line, &cpu, &k, &ns, what, sizeof(what)))
		return;
	if (cpu >= IRQLAT_NOISE_CPUS) {
		r->osn_other_cpus++;
		return;
	}
	n = &r->osn[cpu];
	n->count[k]++;
	n->total_ns[k] += ns;
	if (ns > n->max_ns[k] || n->count[k] == 1) {
		n->max_ns[k] = ns;
		snprintf(n->max_what[k], sizeof(n->max_what[k]), "%s", what);
	}
}

#ifndef TRACEFS_MAGIC
#define TRACEFS_MAGIC 0x74726163
#endif

/*
 * The tracer is one per kernel: one rtproof run at a time on it (issue 23
 * item 6), or two runs would rewrite each other's settings and read each
 * other's samples.  The lock is "timerlat" for the kernel's tracefs (all
 * its mounts are one), else named by the directory's device and inode (a
 * --tracefs of plain files in the tests: its own lock).
 */
static int tl_lock(struct irqlat_run *r)
{
	struct statfs fs;
	struct stat st;
	char name[64];
	int holder, ret;

	if (!statfs(r->tracefs, &fs) && fs.f_type == TRACEFS_MAGIC)
		snprintf(name, sizeof(name), "timerlat");
	else if (!stat(r->tracefs, &st))
		snprintf(name, sizeof(name), "timerlat-%lu-%lu", (unsigned long)st.st_dev,
			 (unsigned long)st.st_ino);
	else
		return 0;	/* no tracefs: the set-up's own error says so */
	ret = rtp_runlock_take(NULL, name, &r->tl_lock, &holder);
	if (ret == -EBUSY) {
		if (holder > 0)
			snprintf(r->err, sizeof(r->err), "timerlat: the timerlat tracer (%s) is in use by "
				 "another rtproof run (pid %d)", r->tracefs, holder);
		else
			snprintf(r->err, sizeof(r->err), "timerlat: the timerlat tracer (%s) is in use by "
				 "another rtproof run", r->tracefs);
		return ret;
	}
	if (ret) {
		snprintf(r->err, sizeof(r->err), "timerlat: lock %s: %s%s", r->tl_lock.path, strerror(-ret),
			 ret == -EPERM ? " (a link, or a directory others can write)" : "");
		return ret;
	}
	r->tl_locked = true;
	return 0;
}

static void tl_unlock(struct irqlat_run *r)
{
	if (r->tl_locked)
		rtp_runlock_release(&r->tl_lock);
	r->tl_locked = false;
}

static int timerlat_setup(struct irqlat_run *r)
{
	char p[600], v[64];
	int ret;

	ret = tl_lock(r);
	if (ret)
		return ret;
	tl_path(r, "current_tracer", p, sizeof(p));
	rtp_read_file(p, r->tl_saved_tracer, sizeof(r->tl_saved_tracer));
	tl_path(r, "tracing_on", p, sizeof(p));
	rtp_read_file(p, r->tl_saved_on, sizeof(r->tl_saved_on));
	tl_path(r, "osnoise/timerlat_period_us", p, sizeof(p));
	rtp_read_file(p, r->tl_saved_period, sizeof(r->tl_saved_period));
	tl_path(r, "osnoise/cpus", p, sizeof(p));
	rtp_read_file(p, r->tl_saved_cpus, sizeof(r->tl_saved_cpus));
	r->tl_touched = true;

	tl_record(r, "current_tracer", r->tl_saved_tracer[0] ? r->tl_saved_tracer : "nop");
	ret = tl_write(r, "current_tracer", "nop\n", p, sizeof(p));
	if (ret)
		goto fail;
	if (r->tl_saved_period[0])
		tl_record(r, "osnoise/timerlat_period_us", r->tl_saved_period);
	tl_path(r, "osnoise/timerlat_period_us", p, sizeof(p));
	ret = rtp_ctl_write_u64(p, r->o.interval_ns / 1000);
	if (ret)
		goto fail;
	if (r->o.cpu >= 0) {
		snprintf(v, sizeof(v), "%d\n", r->o.cpu);
		if (r->tl_saved_cpus[0])
			tl_record(r, "osnoise/cpus", r->tl_saved_cpus);
		ret = tl_write(r, "osnoise/cpus", v, p, sizeof(p));
		if (ret)
			goto fail;
	}
	ret = tl_write(r, "trace", "", p, sizeof(p));
	if (ret)
		goto fail;
	tl_path(r, "osnoise/per_cpu/cpu0/timerlat_fd", p, sizeof(p));
	r->tl_user_offered = access(p, F_OK) == 0;
	if (r->tl_user_offered) {
		/* user-space workload: the kernel's timerlat/N threads stay off */
		tl_path(r, "osnoise/options", p, sizeof(p));
		if (!rtp_read_file(p, r->tl_saved_options, sizeof(r->tl_saved_options))) {
			/* what the teardown writes back: the workload on, unless it was off */
			if (!strstr(r->tl_saved_options, "NO_OSNOISE_WORKLOAD"))
				tl_record(r, "osnoise/options", "OSNOISE_WORKLOAD");
			tl_path(r, "osnoise/options", p, sizeof(p));
			if (!rtp_ctl_write(p, "NO_OSNOISE_WORKLOAD\n"))
				r->tl_user = true;
		}
	}
	if (r->o.osnoise)
		osnoise_events_on(r);
	if (r->tl_saved_on[0])
		tl_record(r, "tracing_on", r->tl_saved_on);
	ret = tl_write(r, "tracing_on", "1\n", p, sizeof(p));
	if (ret)
		goto fail;
	/* The tracer first: it cannot change while trace_pipe is open (EBUSY). */
	ret = tl_write(r, "current_tracer", "timerlat\n", p, sizeof(p));
	if (ret)
		goto fail;
	tl_path(r, "trace_pipe", p, sizeof(p));
	r->fd = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (r->fd < 0) {
		ret = -errno;
		goto fail;
	}
	if (r->tl_user) {
		ret = tl_user_start(r);
		if (ret) {
			snprintf(p, sizeof(p), "timerlat_fd user threads");
			goto fail;
		}
	}
	return 0;
fail:
	snprintf(r->err, sizeof(r->err), "timerlat: %s: %s", p, strerror(-ret));
	return ret;	/* the lock stays until the teardown has put the tracer back */
}

static void timerlat_teardown(struct irqlat_run *r)
{
	char p[600];

	if (!r->tl_touched) {
		tl_unlock(r);
		return;
	}
	tl_user_stop(r);
	if (r->fd >= 0) {
		close(r->fd);	/* first: the tracer cannot change while it is open */
		r->fd = -1;
	}
	if (tl_write(r, "current_tracer", "nop\n", p, sizeof(p)))
		rtp_warn("%s: could not stop the timerlat tracer", p);
	osnoise_events_off(r);
	if (r->tl_saved_period[0]) {
		tl_write(r, "osnoise/timerlat_period_us", r->tl_saved_period, p, sizeof(p));
	}
	if (r->tl_saved_cpus[0]) {
		tl_write(r, "osnoise/cpus", r->tl_saved_cpus, p, sizeof(p));
	}
	if (r->tl_user && !strstr(r->tl_saved_options, "NO_OSNOISE_WORKLOAD")) {
		tl_write(r, "osnoise/options", "OSNOISE_WORKLOAD\n", p, sizeof(p));
	}
	if (r->tl_saved_on[0]) {
		tl_write(r, "tracing_on", r->tl_saved_on, p, sizeof(p));
	}
	if (r->tl_saved_tracer[0] && strcmp(r->tl_saved_tracer, "nop")) {
		tl_write(r, "current_tracer", r->tl_saved_tracer, p, sizeof(p));
	}
	tl_forget(r);
	r->tl_touched = false;
	tl_unlock(r);
}

/*
 * timerlat's kernel thread is created as SCHED_OTHER and raises itself to
 * SCHED_FIFO (95 in 6.1) when it first runs, after the set-up has looked
 * it up: its scheduling is read again once its first sample has arrived
 * (it has run by then).  An --irq-prio given for it was overwritten by
 * that raise, so it is applied again here, the kernel's own setting taken
 * as the original; the samples of the first batch ran at the kernel's.
 */
static void tl_thread_started(struct irqlat_run *r)
{
	struct irqlat_thread t;
	char comm[32];

	if (r->tl_user)
		return;		/* our own timerlatu/N threads: described at the start */
	snprintf(comm, sizeof(comm), "timerlat/%d", r->o.cpu >= 0 ? r->o.cpu : 0);
	if (irqlat_find_comm("/proc", comm, &t))
		return;		/* gone: keep what the set-up saw */
	if (r->thr.prio_set && t.pid == r->thr.pid) {
		struct rtp_sched s = { .policy = SCHED_FIFO, .priority = r->o.irq_prio };

		t.prio_set = true;
		if (rtp_sched_set(t.pid, &s) == 0) {
			struct rtp_sched now;

			if (rtp_sched_get(t.pid, &now) == 0) {
				t.policy = now.policy;
				t.priority = now.priority;
			}
		}
	}
	r->thr = t;
}

/*
 * The trace is read without blocking, in batches every TL_BATCH_NS: a
 * reader waiting on trace_pipe is woken through irq_work from inside the
 * timer interrupt for every sample, and that self-interrupt would sit in
 * front of the very thread latency being measured.
 */
#define TL_BATCH_NS 20000000ull

static void *timerlat_reader(void *arg)
{
	struct irqlat_run *r = arg;
	char buf[8192];
	size_t have = 0;
	bool thread_seen = false;

	for (;;) {
		ssize_t n;
		char *line, *nl;
		uint64_t at;	/* the series' time: when the batch was read */

		if (__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE))
			break;
		n = read(r->fd, buf + have, sizeof(buf) - 1 - have);
		if (n < 0) {
			if (errno == EAGAIN) {
				struct timespec ts = rtp_ns_ts(TL_BATCH_NS);

				nanosleep(&ts, NULL);
				continue;
			}
			if (errno == EINTR)
				continue;
			r->reader_err = -errno;
			r->reader_err_what = "read trace_pipe";
			break;
		}
		at = rtp_now_ns(CLOCK_MONOTONIC);
		have += (size_t)n;
		buf[have] = 0;
		line = buf;
		while ((nl = strchr(line, '\n'))) {
			uint64_t seq, ns;
			int ctx;

			*nl = 0;
			if (irqlat_parse_timerlat(line, &ctx, &seq, &ns)) {
				if (ctx == 0) {
					rtp_hist_record_at(&r->st.h[ST_IRQ], ns, at);
				} else if (ctx == 1) {
					rtp_hist_record_at(&r->st.h[ST_TOTAL], ns, at);
					r->st.records++;
				} else {
					rtp_hist_record_at(&r->st.h[ST_USER], ns, at);
				}
			} else if (strstr(line, "LOST")) {
				r->tl_lost_lines++;
			} else if (r->osn_on) {
				osnoise_account(r, line);
			}
			line = nl + 1;
		}
		have = (size_t)(buf + have - line);
		memmove(buf, line, have);
		if (have >= sizeof(buf) - 1)
			have = 0;	/* a line longer than the buffer: not timerlat's */
		__atomic_store_n(&r->events, r->st.records, __ATOMIC_RELEASE);
		if (!thread_seen && r->st.records) {
			thread_seen = true;
			tl_thread_started(r);
		}
		if (r->o.co.loops && r->st.records >= r->o.co.loops)
			break;
	}
	return NULL;
}

static void timerlat_summary(const struct irqlat_run *r)
{
	if (r->tl_user_err)
		printf("user-return latency: the timerlat_fd threads failed: %s\n",
		       strerror(-r->tl_user_err));
	else if (r->tl_user)
		printf("user-return latency: measured with user-space threads on timerlat_fd "
		       "(as rtla timerlat -u); thread_latency is their wake-up\n");
	else
		printf("user-return latency: %s\n", r->tl_user_offered ?
		       "the kernel offers timerlat_fd but osnoise/options could not be set" :
		       "not offered by this kernel (no osnoise/per_cpu/cpuN/timerlat_fd: "
		       "needs Linux 6.8 or later)");
}

static void timerlat_json_params(const struct irqlat_run *r, struct rtp_json *j)
{
	rtp_json_string(j, "tracefs", r->tracefs);
	rtp_json_bool(j, "user_return_offered", r->tl_user_offered);
	rtp_json_string(j, "workload", r->tl_user ? "user threads (timerlat_fd)" :
				       "kernel threads (timerlat/N)");
	if (r->tl_user) {
		char d[64];

		/* as tl_user_thread() sets it */
		snprintf(d, sizeof(d), "one per CPU, pinned, SCHED_FIFO %d",
			 r->o.irq_prio ? r->o.irq_prio : IRQLAT_TL_USER_PRIO);
		rtp_json_string(j, "user_threads", d);
	}
	if (r->tl_user_err)
		rtp_json_string(j, "user_return_error", strerror(-r->tl_user_err));
}

static void timerlat_json_events(const struct irqlat_run *r, struct rtp_json *j)
{
	rtp_json_uint(j, "irq_samples", r->st.h[ST_IRQ].count);
	rtp_json_uint(j, "thread_samples", r->st.h[ST_TOTAL].count);
	rtp_json_uint(j, "lost_lines", r->tl_lost_lines);
}

const struct irqlat_source_ops irqlat_timerlat_ops = {
	.probe = timerlat_probe,
	.setup = timerlat_setup,
	.teardown = timerlat_teardown,
	.reader = timerlat_reader,
	.summary = timerlat_summary,
	.json_params = timerlat_json_params,
	.json_events = timerlat_json_events,
};
