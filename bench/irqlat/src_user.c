// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-irqlat source "user": a user-space timer only, no interrupt stage. */
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

static void user_probe(struct irqlat_run *r, char *why, size_t len)
{
	(void)r;
	snprintf(why, len, "%s",
		 "not chosen automatically: it measures no interrupt (--source user runs it)");
}

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
		rtp_hist_record_at(&r->st.h[ST_TOTAL], now - release, release);
		if (__builtin_expect(now - release > r->run->explain_ns, 0))
			rtp_explain_note(r->run->ex, -1, 0, release, now, "total");
		r->st.records++;
		release += r->o.interval_ns;
		while (release <= now) {
			r->user_missed++;
			release += r->o.interval_ns;
		}
		__atomic_store_n(&r->events, r->st.records, __ATOMIC_RELEASE);
		if (r->o.co.loops && r->st.records >= r->o.co.loops)
			break;
	}
	return NULL;
}

static void user_json_events(const struct irqlat_run *r, struct rtp_json *j)
{
	rtp_json_uint(j, "missed", r->user_missed);
}

const struct irqlat_source_ops irqlat_user_ops = {
	.probe = user_probe,
	.reader = user_reader,
	.json_events = user_json_events,
};
