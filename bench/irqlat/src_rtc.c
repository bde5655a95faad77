// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-irqlat source "rtc": /dev/rtc0's periodic interrupts, realfeel-style. */
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

#include "json.h"
#include "kconfig.h"
#include "log.h"
#include "rt.h"
#include "run.h"
#include "sysinfo.h"
#include "../../kernel/module/rtproof_irqlat.h"

static void rtc_probe(struct irqlat_run *r, char *why, size_t len)
{
	const struct irqlat_opts *o = &r->o;

		if (access(o->rtc, F_OK)) {
		int k = rtp_kconfig_has(r->run->si.kernel_release, "CONFIG_RTC_CLASS");

		snprintf(why, len, "%s absent%s", o->rtc,
			 k == 0 ? " (kernel has no CONFIG_RTC_CLASS)" : "");
	} else if (access(o->rtc, R_OK)) {
		snprintf(why, len, "%s: %s (run as root)", o->rtc, strerror(errno));
	} else {
		why[0] = 0;
	}
}

static int rtc_setup(struct irqlat_run *r)
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
static void rtc_teardown(struct irqlat_run *r)
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
		if (r->o.co.loops && r->st.records >= r->o.co.loops)
			break;
	}
	/* Leave SCHED_OTHER before anything can turn the RTC off (see teardown). */
	{
		struct rtp_sched s = { .policy = SCHED_OTHER };

		rtp_sched_set(0, &s);
	}
	return NULL;
}

static void rtc_summary(const struct irqlat_run *r)
{
	printf("rtc: %lu Hz; interrupts missed by the reader %llu\n", r->rtc_hz,
	       (unsigned long long)r->rtc_missed);
}

static void rtc_json_params(const struct irqlat_run *r, struct rtp_json *j)
{
	rtp_json_string(j, "rtc", r->o.rtc);
	rtp_json_uint(j, "rtc_hz", r->rtc_hz);
}

static void rtc_json_events(const struct irqlat_run *r, struct rtp_json *j)
{
	rtp_json_uint(j, "missed", r->rtc_missed);
	rtp_json_uint(j, "drained_at_start", r->rtc_drained);
}

const struct irqlat_source_ops irqlat_rtc_ops = {
	.probe = rtc_probe,
	.setup = rtc_setup,
	.teardown = rtc_teardown,
	.reader = rtc_reader,
	.summary = rtc_summary,
	.json_params = rtc_json_params,
	.json_events = rtc_json_events,
};
