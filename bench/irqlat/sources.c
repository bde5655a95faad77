// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtproof-irqlat: the sources' probes, set-up, reader threads and
 * tear-down.  Each reader thread runs at the reader's priority and does
 * only its read, the clock and the histogram updates in its loop.  A read
 * that blocks is ended by SIGUSR1 from the main thread, so a source gone
 * silent cannot hold the run.
 */
#include "irqlat_run.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/rtc.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "rt.h"
#include "run.h"
#include "sysinfo.h"
#include "../../kernel/module/rtproof_irqlat.h"

#define STACK_PREFAULT	(64 * 1024)

/* ---- small file helpers ---------------------------------------------- */

static int write_str(const char *path, const char *val)
{
	size_t n = strlen(val);
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_TRUNC);
	ssize_t w;

	if (fd < 0)
		return -errno;
	w = write(fd, val, n);
	if (w < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	close(fd);
	return (size_t)w == n ? 0 : -EIO;
}

static int write_u64(const char *path, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)v);
	return write_str(path, buf);
}

/* Does the running kernel's config say SYM is set?  1 yes, 0 no, -1 unknown. */
static int kconfig_has(const struct rtp_sysinfo *si, const char *sym)
{
	char path[256], line[512], want[128], notset[160];
	FILE *f;
	int found = -1;
	bool gz = false;

	snprintf(path, sizeof(path), "/boot/config-%s", si->kernel_release);
	f = fopen(path, "re");
	if (!f && access("/proc/config.gz", R_OK) == 0) {
		f = popen("gzip -dc /proc/config.gz 2>/dev/null", "r");
		gz = true;
	}
	if (!f)
		return -1;
	snprintf(want, sizeof(want), "%s=", sym);
	snprintf(notset, sizeof(notset), "# %s is not set", sym);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, want, strlen(want))) {
			found = 1;
			break;
		}
		if (!strncmp(line, notset, strlen(notset)))
			found = 0;
	}
	if (found < 0)
		found = 0;
	if (gz)
		pclose(f);
	else
		fclose(f);
	return found;
}

/* ---- probes ------------------------------------------------------------ */

static const char *find_tracefs(const struct irqlat_opts *o, char *buf, size_t len)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char p[512];
	size_t i;

	if (o->tracefs) {
		snprintf(buf, len, "%s", o->tracefs);
		return buf;
	}
	for (i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), "%s/available_tracers", roots[i]);
		if (access(p, F_OK) == 0) {
			snprintf(buf, len, "%s", roots[i]);
			return buf;
		}
	}
	return NULL;
}

void irqlat_probe(struct irqlat_run *r)
{
	const struct irqlat_opts *o = &r->o;
	char *why;
	char p[600], buf[4096];

	/* module */
	why = r->why[SRC_MODULE];
	if (access(o->device, F_OK))
		snprintf(why, IRQLAT_WHY, "%s absent (load rtproof_irqlat.ko)", o->device);
	else if (access(o->device, R_OK))
		snprintf(why, IRQLAT_WHY, "%s: %s (run as root)", o->device, strerror(errno));
	else
		why[0] = 0;

	/* timerlat */
	why = r->why[SRC_TIMERLAT];
	why[0] = 0;
	if (!find_tracefs(o, r->tracefs, sizeof(r->tracefs))) {
		int k = kconfig_has(&r->si, "CONFIG_TIMERLAT_TRACER");

		if (k == 0)
			snprintf(why, IRQLAT_WHY, "tracer not available (kernel has no CONFIG_TIMERLAT_TRACER)");
		else
			snprintf(why, IRQLAT_WHY, "tracefs not mounted (mount -t tracefs nodev /sys/kernel/tracing)%s",
				 k == 1 ? "; the kernel has CONFIG_TIMERLAT_TRACER" : "");
	} else {
		int e;

		snprintf(p, sizeof(p), "%s/available_tracers", r->tracefs);
		e = -rtp_read_file(p, buf, sizeof(buf));
		if (e) {
			snprintf(why, IRQLAT_WHY, "%s: %s%s", p, strerror(e),
				 e == EACCES || e == EPERM ? " (run as root)" : "");
		} else if (!strstr(buf, "timerlat")) {
			snprintf(why, IRQLAT_WHY, "tracer not available (kernel has no CONFIG_TIMERLAT_TRACER)");
		} else {
			snprintf(p, sizeof(p), "%s/current_tracer", r->tracefs);
			e = -rtp_read_file(p, buf, sizeof(buf));
			if (e)
				snprintf(why, IRQLAT_WHY, "%s: %s", p, strerror(e));
			else if (strcmp(buf, "nop") && strcmp(buf, "timerlat"))
				snprintf(why, IRQLAT_WHY, "tracefs is busy: current_tracer is %s", buf);
			else if (access(p, W_OK))
				snprintf(why, IRQLAT_WHY, "%s: not writable (run as root)", p);
		}
	}

	/* rtc */
	why = r->why[SRC_RTC];
	if (access(o->rtc, F_OK)) {
		int k = kconfig_has(&r->si, "CONFIG_RTC_CLASS");

		snprintf(why, IRQLAT_WHY, "%s absent%s", o->rtc,
			 k == 0 ? " (kernel has no CONFIG_RTC_CLASS)" : "");
	} else if (access(o->rtc, R_OK)) {
		snprintf(why, IRQLAT_WHY, "%s: %s (run as root)", o->rtc, strerror(errno));
	} else {
		why[0] = 0;
	}

	snprintf(r->why[SRC_USER], IRQLAT_WHY, "%s",
		 "not chosen automatically: it measures no interrupt (--source user runs it)");
}

/* ---- module ------------------------------------------------------------ */

static int module_param_path(const struct irqlat_run *r, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/parameters/%s", r->o.sysfs_module, name);
	return 0;
}

int irqlat_module_setup(struct irqlat_run *r)
{
	const struct irqlat_opts *o = &r->o;
	struct rtp_irqlat_info in;
	char p[600], v[64];
	int ret;

	module_param_path(r, "delay_us", p, sizeof(p));
	if (!rtp_read_file(p, v, sizeof(v))) {
		r->mod_saved_delay_us = strtoull(v, NULL, 10);
		r->mod_have_saved = true;
	}
	if (o->delay_set) {
		ret = write_u64(p, o->delay_ns / 1000);
		if (ret) {
			snprintf(r->err, sizeof(r->err), "--delay %llu: cannot write %s: %s",
				 (unsigned long long)(o->delay_ns / 1000), p, strerror(-ret));
			return ret;
		}
	}
	module_param_path(r, "hold_us", p, sizeof(p));
	if (!rtp_read_file(p, v, sizeof(v)))
		r->mod_hold_us = strtoull(v, NULL, 10);
	module_param_path(r, "period_us", p, sizeof(p));
	ret = write_u64(p, o->interval_ns / 1000);
	if (ret) {
		snprintf(r->err, sizeof(r->err), "-i %llu: cannot set the module's period (%s): %s",
			 (unsigned long long)(o->interval_ns / 1000), p, strerror(-ret));
		return ret;
	}
	module_param_path(r, "cpu", p, sizeof(p));
	ret = write_u64(p, o->cpu >= 0 ? (uint64_t)o->cpu : 0);
	if (o->cpu < 0)
		ret = write_str(p, "-1\n");
	if (ret) {
		snprintf(r->err, sizeof(r->err), "--cpu %d: cannot set the module's CPU (%s): %s",
			 o->cpu, p, strerror(-ret));
		return ret;
	}
	r->fd = open(o->device, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		ret = -errno;
		snprintf(r->err, sizeof(r->err), "%s: cannot open: %s%s", o->device, strerror(errno),
			 errno == EBUSY ? " (another reader has it open)" : "");
		return ret;
	}
	if (ioctl(r->fd, RTP_IRQLAT_IOC_INFO, &in)) {
		ret = -errno;
		snprintf(r->err, sizeof(r->err), "%s: info ioctl: %s", o->device, strerror(errno));
		return ret;
	}
	if (in.abi != RTP_IRQLAT_ABI || in.record_size != sizeof(struct rtp_irqlat_record)) {
		snprintf(r->err, sizeof(r->err),
			 "%s: module ABI %u with %u-byte records; this program speaks ABI %u (%zu bytes): "
			 "rebuild one of them", o->device, in.abi, in.record_size, RTP_IRQLAT_ABI,
			 sizeof(struct rtp_irqlat_record));
		return -EPROTO;
	}
	r->mod_start = in;
	r->irq = (int)in.irq;
	return 0;
}

void irqlat_module_teardown(struct irqlat_run *r)
{
	char p[600];

	if (r->fd >= 0) {
		if (ioctl(r->fd, RTP_IRQLAT_IOC_INFO, &r->mod_end) == 0)
			r->mod_have_end = true;
		close(r->fd);
		r->fd = -1;
	}
	if (r->o.delay_set && r->mod_have_saved) {
		module_param_path(r, "delay_us", p, sizeof(p));
		if (write_u64(p, r->mod_saved_delay_us))
			rtp_warn("%s: could not restore %llu", p, (unsigned long long)r->mod_saved_delay_us);
	}
}

/*
 * Blocks in read() itself (not in poll()): the module stamps (d) when its
 * wait in read() returns, and counts a reader as waiting only while it is
 * on the device's wait queue.  The main thread ends a read with SIGUSR1.
 */
static void *module_reader(void *arg)
{
	struct irqlat_run *r = arg;
	struct rtp_irqlat_record rec[64];

	for (;;) {
		ssize_t n;
		size_t i, k;

		if (__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE))
			break;
		n = read(r->fd, rec, sizeof(rec));
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			r->reader_err = -errno;
			r->reader_err_what = "read the module's records";
			break;
		}
		k = (size_t)n / sizeof(rec[0]);
		for (i = 0; i < k; i++) {
			if (rec[i].abi != RTP_IRQLAT_ABI || rec[i].size != sizeof(rec[0])) {
				r->reader_err = -EPROTO;
				r->reader_err_what = "understand a record (ABI mismatch)";
				goto out;
			}
			irqlat_account_record(&r->st, &rec[i]);
		}
		__atomic_store_n(&r->events, r->st.records, __ATOMIC_RELEASE);
		if (r->o.loops && r->st.records >= r->o.loops)
			break;
	}
out:
	return NULL;
}

/* ---- timerlat ---------------------------------------------------------- */

static void tl_path(const struct irqlat_run *r, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", r->tracefs, name);
}

/* One per CPU: blocks in read() on the CPU's timerlat_fd; each return is
 * a timer wake-up, each next read() the return to user space the tracer
 * timestamps ("context user-ret"). */
struct tl_user_arg {
	struct irqlat_run *r;
	int cpu;
};
static struct tl_user_arg tl_user_args[IRQLAT_TL_MAX_USER];

static void *tl_user_thread(void *arg)
{
	const struct tl_user_arg *a = arg;
	struct irqlat_run *r = a->r;
	char p[600], b;
	int fd, ret;

	ret = rtp_pin_cpu(0, a->cpu);	/* timerlat_fd refuses an unpinned opener */
	if (!ret) {
		/* SCHED_FIFO 95, as the kernel's own timerlat/N threads: above
		 * the trace reader, which would otherwise delay them */
		struct rtp_sched s = { .policy = SCHED_FIFO, .priority = IRQLAT_TL_USER_PRIO };

		ret = rtp_sched_set(0, &s);
	}
	snprintf(p, sizeof(p), "%s/osnoise/per_cpu/cpu%d/timerlat_fd", r->tracefs, a->cpu);
	fd = ret ? -1 : open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = ret ? ret : -errno, z = 0;

		__atomic_compare_exchange_n(&r->tl_user_err, &z, e, false, __ATOMIC_ACQ_REL,
					    __ATOMIC_ACQUIRE);
		return NULL;
	}
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
	int c, ret;

	for (c = 0; c < n && r->tl_nuser < IRQLAT_TL_MAX_USER; c++) {
		if (r->o.cpu >= 0 && c != r->o.cpu)
			continue;
		tl_user_args[r->tl_nuser] = (struct tl_user_arg){ .r = r, .cpu = c };
		ret = pthread_create(&r->tl_user_thr[r->tl_nuser], NULL, tl_user_thread,
				     &tl_user_args[r->tl_nuser]);
		if (ret)
			return -ret;
		r->tl_nuser++;
	}
	return 0;
}

int irqlat_timerlat_setup(struct irqlat_run *r)
{
	char p[600], v[64];
	int ret;

	tl_path(r, "current_tracer", p, sizeof(p));
	rtp_read_file(p, r->tl_saved_tracer, sizeof(r->tl_saved_tracer));
	tl_path(r, "tracing_on", p, sizeof(p));
	rtp_read_file(p, r->tl_saved_on, sizeof(r->tl_saved_on));
	tl_path(r, "osnoise/timerlat_period_us", p, sizeof(p));
	rtp_read_file(p, r->tl_saved_period, sizeof(r->tl_saved_period));
	tl_path(r, "osnoise/cpus", p, sizeof(p));
	rtp_read_file(p, r->tl_saved_cpus, sizeof(r->tl_saved_cpus));
	r->tl_touched = true;

	tl_path(r, "current_tracer", p, sizeof(p));
	ret = write_str(p, "nop\n");
	if (ret)
		goto fail;
	tl_path(r, "osnoise/timerlat_period_us", p, sizeof(p));
	ret = write_u64(p, r->o.interval_ns / 1000);
	if (ret)
		goto fail;
	if (r->o.cpu >= 0) {
		tl_path(r, "osnoise/cpus", p, sizeof(p));
		snprintf(v, sizeof(v), "%d\n", r->o.cpu);
		ret = write_str(p, v);
		if (ret)
			goto fail;
	}
	tl_path(r, "trace", p, sizeof(p));
	ret = write_str(p, "");
	if (ret)
		goto fail;
	tl_path(r, "osnoise/per_cpu/cpu0/timerlat_fd", p, sizeof(p));
	r->tl_user_offered = access(p, F_OK) == 0;
	if (r->tl_user_offered) {
		/* user-space workload: the kernel's timerlat/N threads stay off */
		tl_path(r, "osnoise/options", p, sizeof(p));
		if (!rtp_read_file(p, r->tl_saved_options, sizeof(r->tl_saved_options)) &&
		    !write_str(p, "NO_OSNOISE_WORKLOAD\n"))
			r->tl_user = true;
	}
	tl_path(r, "tracing_on", p, sizeof(p));
	ret = write_str(p, "1\n");
	if (ret)
		goto fail;
	/* The tracer first: it cannot change while trace_pipe is open (EBUSY). */
	tl_path(r, "current_tracer", p, sizeof(p));
	ret = write_str(p, "timerlat\n");
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
	return ret;
}

void irqlat_timerlat_teardown(struct irqlat_run *r)
{
	char p[600];

	if (!r->tl_touched)
		return;
	tl_user_stop(r);
	if (r->fd >= 0) {
		close(r->fd);	/* first: the tracer cannot change while it is open */
		r->fd = -1;
	}
	tl_path(r, "current_tracer", p, sizeof(p));
	if (write_str(p, "nop\n"))
		rtp_warn("%s: could not stop the timerlat tracer", p);
	if (r->tl_saved_period[0]) {
		tl_path(r, "osnoise/timerlat_period_us", p, sizeof(p));
		write_str(p, r->tl_saved_period);
	}
	if (r->tl_saved_cpus[0]) {
		tl_path(r, "osnoise/cpus", p, sizeof(p));
		write_str(p, r->tl_saved_cpus);
	}
	if (r->tl_user && !strstr(r->tl_saved_options, "NO_OSNOISE_WORKLOAD")) {
		tl_path(r, "osnoise/options", p, sizeof(p));
		write_str(p, "OSNOISE_WORKLOAD\n");
	}
	if (r->tl_saved_on[0]) {
		tl_path(r, "tracing_on", p, sizeof(p));
		write_str(p, r->tl_saved_on);
	}
	if (r->tl_saved_tracer[0] && strcmp(r->tl_saved_tracer, "nop")) {
		tl_path(r, "current_tracer", p, sizeof(p));
		write_str(p, r->tl_saved_tracer);
	}
	r->tl_touched = false;
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

	for (;;) {
		ssize_t n;
		char *line, *nl;

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
		have += (size_t)n;
		buf[have] = 0;
		line = buf;
		while ((nl = strchr(line, '\n'))) {
			uint64_t seq, ns;
			int ctx;

			*nl = 0;
			if (irqlat_parse_timerlat(line, &ctx, &seq, &ns)) {
				if (ctx == 0) {
					rtp_hist_record(&r->st.h[ST_IRQ], ns);
				} else if (ctx == 1) {
					rtp_hist_record(&r->st.h[ST_TOTAL], ns);
					r->st.records++;
				} else {
					rtp_hist_record(&r->st.h[ST_USER], ns);
				}
			} else if (strstr(line, "LOST")) {
				r->tl_lost_lines++;
			}
			line = nl + 1;
		}
		have = (size_t)(buf + have - line);
		memmove(buf, line, have);
		if (have >= sizeof(buf) - 1)
			have = 0;	/* a line longer than the buffer: not timerlat's */
		__atomic_store_n(&r->events, r->st.records, __ATOMIC_RELEASE);
		if (r->o.loops && r->st.records >= r->o.loops)
			break;
	}
	return NULL;
}

/* ---- rtc ----------------------------------------------------------------- */

int irqlat_rtc_setup(struct irqlat_run *r)
{
	unsigned long freq = (unsigned long)(1000000000ull / r->o.interval_ns);

	if (freq < 2 || freq > 8192 || freq * r->o.interval_ns != 1000000000ull) {
		snprintf(r->err, sizeof(r->err),
			 "-i %llu: the RTC needs a whole number of Hz, 2..8192 (e.g. -i 1000 = 1000 Hz, "
			 "-i 2000 = 500 Hz)", (unsigned long long)(r->o.interval_ns / 1000));
		return -EINVAL;
	}
	r->rtc_hz = freq;
	r->rtc_period_ns = 1000000000ull / freq;
	r->fd = open(r->o.rtc, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		snprintf(r->err, sizeof(r->err), "%s: cannot open: %s", r->o.rtc, strerror(errno));
		return -errno;
	}
	if (ioctl(r->fd, RTC_IRQP_SET, freq)) {
		snprintf(r->err, sizeof(r->err), "%s: RTC_IRQP_SET %lu Hz: %s%s", r->o.rtc, freq,
			 strerror(errno), errno == EACCES ? " (above /proc/sys/dev/rtc/max-user-freq)" : "");
		return -errno;
	}
	if (ioctl(r->fd, RTC_PIE_ON, 0)) {
		snprintf(r->err, sizeof(r->err), "%s: RTC_PIE_ON: %s", r->o.rtc, strerror(errno));
		return -errno;
	}
	r->rtc_pie_on = true;
	return 0;
}

/*
 * Called from the main thread, which never leaves SCHED_OTHER: on the RT
 * kernel a SCHED_FIFO task turning periodic interrupts off spins waiting
 * for the ktimers thread and freezes a one-CPU machine.
 */
void irqlat_rtc_teardown(struct irqlat_run *r)
{
	if (r->fd < 0)
		return;
	if (r->rtc_pie_on && ioctl(r->fd, RTC_PIE_OFF, 0))
		rtp_warn("%s: RTC_PIE_OFF: %s", r->o.rtc, strerror(errno));
	r->rtc_pie_on = false;
	close(r->fd);
	r->fd = -1;
}

static void *rtc_reader(void *arg)
{
	struct irqlat_run *r = arg;
	struct pollfd pfd = { .fd = r->fd, .events = POLLIN };
	uint64_t last = 0;
	unsigned long drain;

	/* Interrupts that came before the reader got here are not wake-ups:
	 * take them without measuring, so the clock starts at a blocked read. */
	while (poll(&pfd, 1, 0) > 0 && read(r->fd, &drain, sizeof(drain)) > 0)
		r->rtc_drained++;
	for (;;) {
		unsigned long data;
		uint64_t now, n, want, err;
		ssize_t got;

		if (__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE))
			break;
		got = read(r->fd, &data, sizeof(data));	/* blocks; SIGUSR1 ends it */
		now = rtp_now_ns(CLOCK_MONOTONIC);
		if (got < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			r->reader_err = -errno;
			r->reader_err_what = "read the RTC";
			break;
		}
		n = data >> 8;	/* interrupts since the last read */
		if (!last) {
			last = now;
			continue;	/* the first wake-up only starts the clock */
		}
		if (n > 1)
			r->rtc_missed += n - 1;
		want = n * r->rtc_period_ns;
		err = now - last > want ? now - last - want : want - (now - last);
		rtp_hist_record(&r->st.h[ST_TOTAL], err);
		last = now;
		r->st.records++;
		__atomic_store_n(&r->events, r->st.records, __ATOMIC_RELEASE);
		if (r->o.loops && r->st.records >= r->o.loops)
			break;
	}
	/* Leave SCHED_OTHER before anything can turn the RTC off (see teardown). */
	{
		struct rtp_sched s = { .policy = SCHED_OTHER };

		rtp_sched_set(0, &s);
	}
	return NULL;
}

/* ---- user-space fallback ------------------------------------------------- */

static void *user_reader(void *arg)
{
	struct irqlat_run *r = arg;
	uint64_t release = rtp_now_ns(CLOCK_MONOTONIC) + r->o.interval_ns;

	for (;;) {
		struct timespec ts = rtp_ns_ts(release);
		uint64_t now;

		if (__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE))
			break;
		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
			continue;
		now = rtp_now_ns(CLOCK_MONOTONIC);
		rtp_hist_record(&r->st.h[ST_TOTAL], now - release);
		r->st.records++;
		release += r->o.interval_ns;
		while (release <= now) {
			r->user_missed++;
			release += r->o.interval_ns;
		}
		__atomic_store_n(&r->events, r->st.records, __ATOMIC_RELEASE);
		if (r->o.loops && r->st.records >= r->o.loops)
			break;
	}
	return NULL;
}

/* ---- the reader thread's common set-up ----------------------------------- */

void *irqlat_reader_main(void *arg)
{
	struct irqlat_run *r = arg;
	int ret;

	if (r->o.cpu >= 0) {
		ret = rtp_pin_cpu(0, r->o.cpu);
		if (ret) {
			r->reader_err = ret;
			r->reader_err_what = "pin the reader";
			goto out;
		}
	}
	if (r->o.priority > 0) {
		struct rtp_sched s = { .policy = SCHED_FIFO, .priority = r->o.priority };

		ret = rtp_sched_set(0, &s);
		if (ret) {
			r->reader_err = ret;
			r->reader_err_what = "set SCHED_FIFO";
			goto out;
		}
	}
	rtp_prefault_stack(STACK_PREFAULT);
	switch (r->src) {
	case SRC_MODULE:
		module_reader(r);
		break;
	case SRC_TIMERLAT:
		timerlat_reader(r);
		break;
	case SRC_RTC:
		rtc_reader(r);
		break;
	default:
		user_reader(r);
		break;
	}
out:
	__atomic_store_n(&r->reader_done, 1, __ATOMIC_RELEASE);
	return NULL;
}
