// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-irqlat: sources, stages, record accounting, parsers. */
#include "irqlat.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procstat.h"
#include "rt.h"
#include "sysinfo.h"
#include "../../kernel/module/rtproof_irqlat.h"

static const char *const src_names[SRC_N] = { "module", "timerlat", "rtc", "user" };

static const char *const src_labels[SRC_N] = {
	"rtproof_irqlat.ko: a software interrupt raised from a hard hrtimer, primary "
	"handler in hard-IRQ context, threaded handler in irq/N-rtproof, a reader "
	"blocked in read(); all four stages",
	"the kernel's timerlat tracer: its per-CPU hrtimer's IRQ latency and its "
	"timerlat/N thread's wake-up latency, as the kernel timestamps them",
	"/dev/rtc0 periodic interrupts, realfeel-style: the error of each interval "
	"between a blocked reader's wake-ups against the programmed period; the "
	"RTC class emulates periodic interrupts with an hrtimer (no RTC hardware "
	"interrupt, no IRQ thread is on this path)",
	"user-space fallback: a SCHED_FIFO thread's clock_nanosleep wake-up; no "
	"interrupt handler or IRQ thread is measured, this is not an IRQ latency",
};

const char *irqlat_source_name(enum irqlat_source s)
{
	return s >= 0 && s < SRC_N ? src_names[s] : "auto";
}

const char *irqlat_source_label(enum irqlat_source s)
{
	return s >= 0 && s < SRC_N ? src_labels[s] : "";
}

const char *const irqlat_stage_names[ST_N] = {
	"irq_latency", "thread_wakeup", "user_wakeup", "total", "hardirq_entry",
};

const char *irqlat_metric_name(enum irqlat_source s, enum irqlat_stage st)
{
	switch (s) {
	case SRC_MODULE:
		return irqlat_stage_names[st];
	case SRC_TIMERLAT:
		/* timerlat's thread latency runs from the expiry: a "total" to its thread */
		return st == ST_IRQ ? "irq_latency" : st == ST_TOTAL ? "thread_latency" :
		       st == ST_USER ? "user_return_latency" : NULL;
	case SRC_RTC:
		return st == ST_TOTAL ? "rtc_interval_error" : NULL;
	case SRC_USER:
		return st == ST_TOTAL ? "user_timer_wakeup" : NULL;
	default:
		return NULL;
	}
}

void irqlat_stats_init(struct irqlat_stats *s)
{
	int i;

	memset(s, 0, offsetof(struct irqlat_stats, records));
	for (i = 0; i < ST_N; i++)
		rtp_hist_init(&s->h[i]);
	s->records = s->unordered = s->reader_not_waiting = s->seq_gaps = 0;
	s->reader_not_waiting_at_start = 0;
	s->reader_waited = false;
	s->next_seq = 0;
	s->last_dropped = s->last_busy = s->last_overruns = 0;
	s->flags_and = ~0u;
	s->flags_or = 0;
	s->delay_ns_seen = 0;
	s->thread_pid = 0;
	s->any = false;
}

bool irqlat_account_record(struct irqlat_stats *s, const struct rtp_irqlat_record *r)
{
	bool waiting = r->flags & RTP_IRQLAT_F_READER_WAITING;

	s->records++;
	if (s->any && r->seq > s->next_seq)
		s->seq_gaps += r->seq - s->next_seq;
	s->next_seq = r->seq + 1;
	s->any = true;
	s->flags_and &= r->flags;
	s->flags_or |= r->flags;
	s->last_dropped = r->dropped;
	s->last_busy = r->busy;
	s->last_overruns = r->overruns;
	s->delay_ns_seen = r->delay_ns;
	s->thread_pid = r->thread_pid;
	if (r->hardirq_entry_ns < r->expiry_ns || r->hardirq_ns < r->hardirq_entry_ns ||
	    r->thread_ns < r->hardirq_ns ||
	    (waiting && r->wake_ns < r->thread_ns)) {
		s->unordered++;
		return false;
	}
	rtp_hist_record_at(&s->h[ST_ENTRY], r->hardirq_entry_ns - r->expiry_ns, r->expiry_ns);
	rtp_hist_record_at(&s->h[ST_IRQ], r->hardirq_ns - r->expiry_ns, r->expiry_ns);
	rtp_hist_record_at(&s->h[ST_THREAD], r->thread_ns - r->hardirq_ns, r->expiry_ns);
	if (!waiting) {
		s->reader_not_waiting++;
		if (!s->reader_waited)
			s->reader_not_waiting_at_start++;
		return true;
	}
	s->reader_waited = true;
	rtp_hist_record_at(&s->h[ST_USER], r->wake_ns - r->thread_ns, r->expiry_ns);
	rtp_hist_record_at(&s->h[ST_TOTAL], r->wake_ns - r->expiry_ns, r->expiry_ns);
	return true;
}

/*
 * timerlat's trace_pipe (6.1):
 *   <idle>-0  [000] d.h1.  105.58: #1     context    irq timer_latency      1234 ns
 *   timerlat/0-12 [000] ....  105.58: #1  context thread timer_latency      5678 ns
 * and, where the kernel has timerlat_fd, "context user-ret".
 */
int irqlat_parse_timerlat(const char *line, int *ctx, uint64_t *seq, uint64_t *ns)
{
	const char *p = strstr(line, " context ");
	const char *h;
	char kind[16], unit[8];
	unsigned long long s, v;
	int n = 0;

	if (!p)
		return 0;
	for (h = p; h > line && h[-1] != '#'; h--)
		;
	if (h == line)
		return 0;
	if (sscanf(h, "%llu", &s) != 1)
		return 0;
	if (sscanf(p, " context %15s timer_latency %llu %7s%n", kind, &v, unit, &n) != 3 || !n)
		return 0;
	if (strcmp(unit, "ns"))
		return 0;
	if (!strcmp(kind, "irq"))
		*ctx = 0;
	else if (!strcmp(kind, "thread"))
		*ctx = 1;
	else if (!strcmp(kind, "user-ret"))
		*ctx = 2;
	else
		return 0;
	*seq = s;
	*ns = v;
	return 1;
}

const char *const irqlat_noise_names[NOISE_N] = { "nmi", "irq", "softirq", "thread" };

int irqlat_parse_osnoise(const char *line, int *cpu, int *kind, uint64_t *ns, char *what, size_t wlen)
{
	static const char *const tags[NOISE_N] = { ": nmi_noise:", ": irq_noise:", ": softirq_noise:",
						   ": thread_noise:" };
	const char *p = NULL, *b, *e, *d;
	unsigned long long v;
	char unit[8];
	int k, c;

	for (k = 0; k < NOISE_N && !p; k++)
		p = strstr(line, tags[k]);
	if (!p)
		return 0;
	k--;
	/* the CPU: the first "[NNN]" before the event name */
	for (b = line; (b = strchr(b, '[')) && b < p; b++)
		if (sscanf(b, "[%d]", &c) == 1 && c >= 0)
			break;
	if (!b || b >= p)
		return 0;
	d = strstr(p, " duration ");
	if (!d || sscanf(d, " duration %llu %7s", &v, unit) != 2 || strcmp(unit, "ns"))
		return 0;
	p += strlen(tags[k]);
	while (*p == ' ')
		p++;
	e = strstr(p, "start ");
	if (!e || e > d)
		e = d;
	while (e > p && e[-1] == ' ')
		e--;
	if (wlen) {
		size_t n = (size_t)(e - p) < wlen - 1 ? (size_t)(e - p) : wlen - 1;

		memcpy(what, p, n);
		what[n] = 0;
	}
	*cpu = c;
	*kind = k;
	*ns = v;
	return 1;
}

const char *irqlat_forced_threading(bool rt_kernel, const char *cmdline)
{
	const char *p = cmdline;

	if (rt_kernel)
		return "forced (PREEMPT_RT)";
	while (p && (p = strstr(p, "threadirqs"))) {
		bool start = p == cmdline || isspace((unsigned char)p[-1]);
		bool end = !p[10] || isspace((unsigned char)p[10]);

		if (start && end)
			return "forced (threadirqs)";
		p += 10;
	}
	return "not forced";
}

bool irqlat_comm_matches(const char *comm, int irq, const char *name)
{
	char want[64];
	const char *p;
	size_t n;

	if (strncmp(comm, "irq/", 4))
		return false;
	p = comm + 4;
	if (irq >= 0) {
		snprintf(want, sizeof(want), "%d-", irq);
		if (strncmp(p, want, strlen(want)))
			return false;
		p += strlen(want);
	} else {
		if (!isdigit((unsigned char)*p))
			return false;
		while (isdigit((unsigned char)*p))
			p++;
		if (*p++ != '-')
			return false;
	}
	/* comm is cut at 15 characters: a truncated name matches its prefix */
	n = strlen(p);
	if (!n)
		return false;
	if (strlen(comm) >= 15)
		return !strncmp(p, name, n);
	return !strcmp(p, name);
}

static int find_thread(const char *proc, int irq, const char *name, bool exact,
		       struct irqlat_thread *t)
{
	struct dirent *de;
	DIR *d;

	memset(t, 0, sizeof(*t));
	d = opendir(proc);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char path[512], comm[64];

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "%s/%s/comm", proc, de->d_name);
		if (rtp_read_file(path, comm, sizeof(comm)))
			continue;
		if (exact ? strcmp(comm, name) : !irqlat_comm_matches(comm, irq, name))
			continue;
		/* a name anyone can take (PR_SET_NAME): only a kernel thread is the IRQ thread */
		if (rtp_proc_kthread(proc, atoi(de->d_name), NULL) != 1) {
			if (!t->ignored++)
				t->ignored_pid = atoi(de->d_name);
			continue;
		}
		t->found = true;
		t->pid = atoi(de->d_name);
		snprintf(t->comm, sizeof(t->comm), "%s", comm);
		break;
	}
	closedir(d);
	if (!t->found)
		return -ENOENT;
	{
		struct rtp_sched s;

		if (!rtp_sched_get(t->pid, &s)) {
			t->policy = s.policy;
			t->priority = s.priority;
		} else {
			t->policy = -1;
		}
	}
	t->orig_policy = t->policy;
	t->orig_priority = t->priority;
	return 0;
}

int irqlat_find_irq_thread(const char *proc, int irq, const char *name, struct irqlat_thread *t)
{
	return find_thread(proc, irq, name, false, t);
}

int irqlat_find_comm(const char *proc, const char *comm, struct irqlat_thread *t)
{
	return find_thread(proc, -1, comm, true, t);
}
