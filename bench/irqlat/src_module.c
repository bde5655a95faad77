// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtproof-irqlat source "module": rtproof_irqlat.ko's software interrupt,
 * all four stages (expiry, hard IRQ, IRQ thread, reader's wake-up).
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

#include "ctlfile.h"
#include "driver.h"
#include "json.h"
#include "kconfig.h"
#include "log.h"
#include "rt.h"
#include "run.h"
#include "state.h"
#include "sysinfo.h"
#include "../../kernel/module/rtproof_irqlat.h"

static void module_probe(struct irqlat_run *r, char *why, size_t len)
{
	const struct irqlat_opts *o = &r->o;

		if (access(o->device, F_OK))
		snprintf(why, len, "%s absent (load rtproof_irqlat.ko)", o->device);
	else if (access(o->device, R_OK))
		snprintf(why, len, "%s: %s (run as root)", o->device, strerror(errno));
	else
		why[0] = 0;
}

static int module_param_path(const struct irqlat_run *r, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/parameters/%s", r->o.sysfs_module, name);
	return 0;
}

static int module_setup(struct irqlat_run *r)
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
		/* recorded first (lib/state.h): a killed run's delay is undone by the next */
		if (r->mod_have_saved) {
			ret = rtp_state_record_write(r->run ? r->run->state : NULL, p, v);
			if (ret)
				rtp_warn("%s: cannot record it in the state journal: %s; "
					 "a killed run leaves the delay planted", p, strerror(-ret));
		}
		ret = rtp_ctl_write_u64(p, o->delay_ns / 1000);
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
	ret = rtp_ctl_write_u64(p, o->interval_ns / 1000);
	if (ret) {
		snprintf(r->err, sizeof(r->err), "-i %llu: cannot set the module's period (%s): %s",
			 (unsigned long long)(o->interval_ns / 1000), p, strerror(-ret));
		return ret;
	}
	module_param_path(r, "cpu", p, sizeof(p));
	ret = rtp_ctl_write_u64(p, o->cpu >= 0 ? (uint64_t)o->cpu : 0);
	if (o->cpu < 0)
		ret = rtp_ctl_write(p, "-1\n");
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

static void module_teardown(struct irqlat_run *r)
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
		if (rtp_ctl_write_u64(p, r->mod_saved_delay_us))
			rtp_warn("%s: could not restore %llu", p, (unsigned long long)r->mod_saved_delay_us);
		else
			rtp_state_forget(r->run ? r->run->state : NULL, p);
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
			/* --explain: expiry (a) to the reader's wake-up (d), on the reader's CPU */
			if (rec[i].flags & RTP_IRQLAT_F_READER_WAITING && rec[i].wake_ns > rec[i].expiry_ns &&
			    rec[i].wake_ns - rec[i].expiry_ns > r->run->explain_ns)
				rtp_explain_note(r->run->ex, -1, 0, rec[i].expiry_ns, rec[i].wake_ns, "total");
		}
		__atomic_store_n(&r->events, r->st.records, __ATOMIC_RELEASE);
		if (r->o.co.loops && r->st.records >= r->o.co.loops)
			break;
	}
out:
	return NULL;
}

static void module_summary(const struct irqlat_run *r)
{
	const struct rtp_irqlat_info *e = &r->mod_end;

	printf("events: fired %llu, delivered %llu, dropped (queue full) %llu, busy (line "
	       "still masked) %llu, timer overruns %llu, unordered %llu, reader not waiting %llu "
	       "(%llu of them before it first waited)\n",
	       (unsigned long long)e->fired, (unsigned long long)e->delivered,
	       (unsigned long long)e->dropped, (unsigned long long)e->busy,
	       (unsigned long long)e->overruns, (unsigned long long)r->st.unordered,
	       (unsigned long long)r->st.reader_not_waiting,
	       (unsigned long long)r->st.reader_not_waiting_at_start);
	if (r->o.delay_set)
		printf("planted primary-handler delay: %llu us\n",
		       (unsigned long long)(r->o.delay_ns / 1000));
	if (r->mod_hold_us)
		printf("the module's hold_us is %llu us: the thread sleeps that long with the "
		       "line masked after each event (a truth test, not a normal run)\n",
		       (unsigned long long)r->mod_hold_us);
}

static void module_json_params(const struct irqlat_run *r, struct rtp_json *j)
{
	rtp_json_begin_object(j, "module");
	rtp_json_string(j, "device", r->o.device);
	rtp_json_uint(j, "abi", r->mod_start.abi);
	rtp_json_uint(j, "irq", r->mod_start.irq);
	rtp_json_uint(j, "period_ns", r->mod_start.period_ns);
	rtp_json_uint(j, "queue_len", r->mod_start.queue_len);
	rtp_json_uint(j, "timer_cpu", r->mod_start.cpu);
	rtp_json_bool(j, "kernel_forces_threading", r->mod_start.force_threading);
	rtp_json_uint(j, "hold_us", r->mod_hold_us);
	rtp_json_end_object(j);
}

static void module_json_events(const struct irqlat_run *r, struct rtp_json *j)
{
	const struct rtp_irqlat_info *e = &r->mod_end;

	rtp_json_uint(j, "fired", e->fired);
	rtp_json_uint(j, "delivered", e->delivered);
	rtp_json_uint(j, "dropped", e->dropped);
	rtp_json_uint(j, "busy", e->busy);
	rtp_json_uint(j, "overruns", e->overruns);
	rtp_json_uint(j, "seq_gaps", r->st.seq_gaps);
	rtp_json_uint(j, "unordered", r->st.unordered);
	rtp_json_uint(j, "reader_not_waiting", r->st.reader_not_waiting);
	rtp_json_uint(j, "reader_not_waiting_at_start", r->st.reader_not_waiting_at_start);
	rtp_json_uint(j, "undelivered_at_stop",
		      e->fired >= e->delivered + e->dropped ? e->fired - e->delivered - e->dropped : 0);
}

const struct irqlat_source_ops irqlat_module_ops = {
	.probe = module_probe,
	.setup = module_setup,
	.teardown = module_teardown,
	.reader = module_reader,
	.summary = module_summary,
	.json_params = module_json_params,
	.json_events = module_json_events,
};
