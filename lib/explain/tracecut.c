// SPDX-License-Identifier: GPL-2.0-or-later
/* --explain's analysis: trace lines to events, a latency window to culprits. */
#include "tracecut.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procstat.h"

/* ---- parsing ------------------------------------------------------------------ */

/* key at the start of s or after a space; returns where its value starts */
static const char *find_key(const char *s, const char *key)
{
	size_t kl = strlen(key);
	const char *p = s;

	while ((p = strstr(p, key))) {
		if (p == s || p[-1] == ' ' || p[-1] == '[')
			return p + kl;
		p += kl;
	}
	return NULL;
}

static bool key_int(const char *s, const char *key, int *v)
{
	const char *p = find_key(s, key);
	char *end;
	long l;

	if (!p)
		return false;
	l = strtol(p, &end, 10);
	if (end == p)
		return false;
	*v = (int)l;
	return true;
}

/* the value of key up to stop (a string such as " prev_pid="), or to the next space */
static bool key_str(const char *s, const char *key, const char *stop, char *buf, size_t len)
{
	const char *p = find_key(s, key), *e;
	size_t n;

	if (!p)
		return false;
	e = stop ? strstr(p, stop) : NULL;
	if (!e)
		e = p + strcspn(p, " ]\n");
	n = (size_t)(e - p);
	if (n >= len)
		n = len - 1;
	memcpy(buf, p, n);
	buf[n] = 0;
	return true;
}

/* "123.456789:" -> ns; false if the token is not a time stamp */
static bool parse_ts(const char *s, size_t len, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0, scale = 1000000000ull;
	size_t i = 0;
	bool dot = false, digits = false;

	if (len < 2 || s[len - 1] != ':')
		return false;
	for (i = 0; i + 1 < len; i++) {
		char c = s[i];

		if (c == '.' && !dot) {
			dot = true;
		} else if (c >= '0' && c <= '9') {
			digits = true;
			if (!dot) {
				if (sec > 1000000000000ull)
					return false;
				sec = sec * 10 + (uint64_t)(c - '0');
			} else if (scale > 1) {
				scale /= 10;
				frac += (uint64_t)(c - '0') * scale;
			}
		} else {
			return false;
		}
	}
	if (!dot || !digits)
		return false;
	*ns = sec * 1000000000ull + frac;
	return true;
}

static bool ends_with(const char *s, size_t len, const char *suf)
{
	size_t l = strlen(suf);

	return len >= l && !memcmp(s + len - l, suf, l);
}

int rtp_xev_parse(const char *line, struct rtp_xev *e)
{
	const char *p = line, *tok, *rest;
	char ev[64];
	size_t tl, el;
	int guard;

	if (!line || line[0] == '#')
		return 0;
	/* the CPU field: " [001] " after the task; comms may hold anything, so take the last */
	{
		const char *q = line, *found = NULL;

		while ((q = strstr(q, " ["))) {
			const char *d = q + 2;

			while (*d >= '0' && *d <= '9')
				d++;
			if (d > q + 2 && *d == ']')
				found = d + 1;
			q += 2;
		}
		if (!found)
			return 0;
		p = found;
	}
	memset(e, 0, sizeof(*e));
	/* tokens after the CPU: maybe irq flags, then the time stamp */
	for (guard = 0; guard < 4; guard++) {
		while (*p == ' ')
			p++;
		tok = p;
		tl = strcspn(p, " ");
		if (!tl)
			return 0;
		p += tl;
		if (parse_ts(tok, tl, &e->ts))
			break;
		/* the flags ("dNh2."): irqs-off, need-resched, then hardirq/softirq ('h', 'H' hard in soft) */
		if (tl >= 4 && tl <= 8 && (tok[2] == 'h' || tok[2] == 'H'))
			e->hardirq = true;
	}
	if (guard == 4)
		return 0;
	while (*p == ' ')
		p++;
	tok = p;
	el = strcspn(p, " ");
	if (el < 2 || tok[el - 1] != ':' || el - 1 >= sizeof(ev))
		return 0;
	memcpy(ev, tok, el - 1);
	ev[el - 1] = 0;
	el--;
	rest = tok + el + 1;
	while (*rest == ' ')
		rest++;

	if (!strcmp(ev, "sched_switch")) {
		e->type = XEV_SWITCH;
		if (!key_str(rest, "prev_comm=", " prev_pid=", e->pname, sizeof(e->pname)) ||
		    !key_int(rest, "prev_pid=", &e->ppid) || !key_int(rest, "prev_prio=", &e->pprio) ||
		    !key_str(rest, "next_comm=", " next_pid=", e->name, sizeof(e->name)) ||
		    !key_int(rest, "next_pid=", &e->pid) || !key_int(rest, "next_prio=", &e->prio))
			return 0;
		return 1;
	}
	if (!strcmp(ev, "sched_wakeup") || !strcmp(ev, "sched_wakeup_new")) {
		e->type = XEV_WAKEUP;
		if (!key_str(rest, "comm=", " pid=", e->name, sizeof(e->name)) ||
		    !key_int(rest, "pid=", &e->pid) || !key_int(rest, "prio=", &e->prio))
			return 0;
		return 1;
	}
	if (!strcmp(ev, "irq_handler_entry") || !strcmp(ev, "irq_handler_exit")) {
		e->type = ev[12] == 'e' && ev[13] == 'n' ? XEV_IRQ_ENTRY : XEV_IRQ_EXIT;
		if (!key_int(rest, "irq=", &e->num))
			return 0;
		if (e->type == XEV_IRQ_ENTRY)
			key_str(rest, "name=", NULL, e->name, sizeof(e->name));
		return 1;
	}
	if (!strcmp(ev, "softirq_entry") || !strcmp(ev, "softirq_exit")) {
		e->type = ev[8] == 'e' && ev[9] == 'n' ? XEV_SOFTIRQ_ENTRY : XEV_SOFTIRQ_EXIT;
		if (!key_int(rest, "vec=", &e->num))
			return 0;
		key_str(rest, "action=", NULL, e->name, sizeof(e->name));
		return 1;
	}
	if (!strcmp(ev, "hrtimer_expire_entry")) {
		e->type = XEV_HRTIMER;
		key_str(rest, "function=", NULL, e->name, sizeof(e->name));
		return 1;
	}
	if (!strncmp(ev, "hrtimer_", 8) || !strncmp(ev, "softirq_", 8) || !strncmp(ev, "irq_handler", 11))
		return 0;
	/* irq_vectors: local_timer_entry, reschedule_exit, call_function_single_entry... */
	if (ends_with(ev, el, "_entry") || ends_with(ev, el, "_exit")) {
		size_t l = ends_with(ev, el, "_entry") ? el - 6 : el - 5;

		e->type = ends_with(ev, el, "_entry") ? XEV_VEC_ENTRY : XEV_VEC_EXIT;
		if (l >= sizeof(e->name))
			l = sizeof(e->name) - 1;
		memcpy(e->name, ev, l);
		e->name[l] = 0;
		e->num = -1;
		key_int(rest, "vector=", &e->num);
		return 1;
	}
	e->type = XEV_OTHER;
	snprintf(e->name, sizeof(e->name), "%s", ev);
	return 1;
}

/* ---- the window ----------------------------------------------------------------- */

const char *rtp_culprit_kind_name(int kind)
{
	static const char *const n[] = { "task", "irq", "vector", "softirq", "idle" };

	return kind >= 0 && kind <= RTP_CK_IDLE ? n[kind] : "?";
}

#define MAXC 64

struct acc {
	struct rtp_culprit c[MAXC];
	int n;
	uint64_t lost_ns;	/* past MAXC distinct culprits */
};

static struct rtp_culprit *acc_get(struct acc *a, int kind, int id, const char *name, int kprio)
{
	int i;

	for (i = 0; i < a->n; i++)
		if (a->c[i].kind == kind && a->c[i].id == id &&
		    (kind != RTP_CK_VECTOR || !strcmp(a->c[i].name, name)))
			return &a->c[i];
	if (a->n == MAXC)
		return NULL;
	memset(&a->c[a->n], 0, sizeof(a->c[0]));
	a->c[a->n].kind = kind;
	a->c[a->n].id = id;
	a->c[a->n].kprio = kprio;
	a->c[a->n].kthread = -1;
	snprintf(a->c[a->n].name, sizeof(a->c[0].name), "%s", name);
	return &a->c[a->n++];
}

struct ctx {
	int kind;		/* RTP_CK_IRQ, RTP_CK_VECTOR, RTP_CK_SOFTIRQ */
	int id;
	char name[RTP_XNAME];
};

struct state {
	bool task_known;
	uint64_t since;		/* its switch-in; 0: before the trace */
	int pid, kprio;
	char comm[RTP_XNAME];
	int depth;
	struct ctx stack[8];
};

/*
 * The holder of the CPU now: the innermost interrupt context, else the
 * task.  On PREEMPT_RT (soft_in_task) a softirq runs in a task's context
 * (ksoftirqd/N, ktimers/N, the irq/N thread that raised it, or the task
 * that enabled bottom halves): that thread holds the CPU, at its own
 * policy and priority, and *soft says the time was softirq work.
 */
static struct rtp_culprit *holder(struct acc *a, const struct state *s, int tid, bool soft_in_task,
				  bool *self, bool *soft)
{
	*self = false;
	*soft = false;
	if (s->depth > 0) {
		const struct ctx *c = &s->stack[s->depth - 1];

		if (!(soft_in_task && c->kind == RTP_CK_SOFTIRQ && s->task_known && s->pid != 0))
			return acc_get(a, c->kind, c->id, c->name, 0);
		*soft = true;
	}
	if (!s->task_known)
		return NULL;
	if (s->pid == tid) {
		*self = true;
		return NULL;
	}
	return acc_get(a, s->pid == 0 ? RTP_CK_IDLE : RTP_CK_TASK, s->pid, s->comm, s->kprio);
}

/*
 * What holds the CPU now, as a culprit record: the innermost context,
 * else the task.  A wake-up written in hard-IRQ context with no hard IRQ
 * or vector open (nothing, or a softirq it interrupted) ran in the vector
 * that is not traced (x->untraced_vector: the local timer, whose entry and
 * exit are left out for their cost).  A device
 * IRQ's core also wakes its thread in hard-IRQ context after
 * irq_handler_exit; that wakes an IRQ thread, never a measured one.
 */
static void waker_now(const struct state *s, const struct rtp_xev *e, const struct rtp_tracecut *x,
		      struct rtp_culprit *w)
{
	bool soft_in_task = x->soft_in_task;

	memset(w, 0, sizeof(*w));
	w->kthread = -1;
	w->id = -1;
	if (e->hardirq && x->untraced_vector && x->untraced_vector[0] &&
	    (s->depth == 0 || s->stack[s->depth - 1].kind == RTP_CK_SOFTIRQ)) {
		w->kind = RTP_CK_VECTOR;
		snprintf(w->name, sizeof(w->name), "%s", x->untraced_vector);
		return;
	}
	/* on PREEMPT_RT a softirq's wake-up is its thread's, as its time is (holder()) */
	if (s->depth > 0 && !(soft_in_task && s->stack[s->depth - 1].kind == RTP_CK_SOFTIRQ &&
			      s->task_known && s->pid != 0)) {
		const struct ctx *c = &s->stack[s->depth - 1];

		w->kind = c->kind;
		w->id = c->id;
		snprintf(w->name, sizeof(w->name), "%s", c->name);
	} else if (s->task_known) {
		w->kind = s->pid == 0 ? RTP_CK_IDLE : RTP_CK_TASK;
		w->id = s->pid;
		w->kprio = s->kprio;
		snprintf(w->name, sizeof(w->name), "%s", s->comm);
	} else {
		w->kind = -1;	/* the trace does not say */
	}
}

static void push(struct state *s, int kind, int id, const char *name)
{
	if (s->depth == 8)
		return;
	s->stack[s->depth].kind = kind;
	s->stack[s->depth].id = id;
	snprintf(s->stack[s->depth].name, sizeof(s->stack[0].name), "%s", name);
	s->depth++;
}

static void pop(struct state *s, int kind, int id, const char *name)
{
	int i;

	/* the matching entry, innermost first; an exit whose entry was lost is ignored */
	for (i = s->depth - 1; i >= 0; i--) {
		const struct ctx *c = &s->stack[i];

		if (c->kind == kind && (kind == RTP_CK_VECTOR ? !strcmp(c->name, name) : c->id == id)) {
			s->depth = i;
			return;
		}
	}
}

/* d ns of the window to whoever holds the CPU: a culprit or the thread itself; false: nobody known. */
static bool charge(struct acc *a, const struct state *s, struct rtp_tracecut *x, uint64_t d)
{
	bool self, soft;
	struct rtp_culprit *h = holder(a, s, x->tid, x->soft_in_task, &self, &soft);

	if (h) {
		h->ns += d;
		if (soft)
			h->softirq_ns += d;
	} else if (self) {
		x->self_ns += d;
	}
	return h || self;
}

static int cmp_cul(const void *a, const void *b)
{
	const struct rtp_culprit *x = a, *y = b;

	return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : 0;
}

int rtp_tracecut_analyse(const struct rtp_xev *ev, size_t n, struct rtp_tracecut *x)
{
	struct acc *a;
	struct state s;
	uint64_t t, unknown_ns = 0;
	struct rtp_culprit *h;
	bool self, soft;
	size_t i;
	int k;

	x->covered = n > 0 && ev[0].ts <= x->release_ns;
	x->trace_from_ns = n ? ev[0].ts : 0;
	x->have_wakeup = x->have_switch = x->have_timer = false;
	x->wakeup_ns = x->switch_ns = x->timer_ns = 0;
	memset(&x->waker, 0, sizeof(x->waker));
	x->waker.kind = -1;
	x->timer_late_ns = x->woken_late_ns = x->self_ns = 0;
	x->accounted_ns = x->others_ns = 0;
	x->nothers = x->ncul = 0;
	if (!x->covered || x->wake_ns < x->release_ns)
		return -ENODATA;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	memset(&s, 0, sizeof(s));
	t = x->release_ns;
	for (i = 0; i < n; i++) {
		const struct rtp_xev *e = &ev[i];
		bool in = e->ts >= x->release_ns;

		if (e->ts > x->wake_ns)
			break;
		if (in && e->ts > t) {
			uint64_t d = e->ts - t;

			if (!charge(a, &s, x, d)) {
				if (s.depth == 0 && !s.task_known)
					unknown_ns += d;
				else
					a->lost_ns += d;
			}
			t = e->ts;
		}
		switch (e->type) {
		case XEV_SWITCH:
			/* the stretch of the task switched out, when it overlaps the window */
			if (in && e->ppid != x->tid && e->ppid != 0 && s.since && e->ts > x->release_ns) {
				h = acc_get(a, RTP_CK_TASK, e->ppid, e->pname, e->pprio);
				if (h && e->ts - s.since > h->stretch_ns)
					h->stretch_ns = e->ts - s.since;
			}
			s.since = e->ts;
			if (!s.task_known && unknown_ns && e->ppid != x->tid) {
				/* the task that held the CPU from the release: the one switched out */
				h = acc_get(a, e->ppid == 0 ? RTP_CK_IDLE : RTP_CK_TASK, e->ppid, e->pname, e->pprio);
				if (h) {
					h->ns += unknown_ns;
					h->count++;
				}
				unknown_ns = 0;
			}
			/* on PREEMPT_RT a softirq is the task's: it leaves with it (resumed, its exit pops nothing) */
			if (x->soft_in_task)
				while (s.depth > 0 && s.stack[s.depth - 1].kind == RTP_CK_SOFTIRQ)
					s.depth--;
			s.task_known = true;
			s.pid = e->pid;
			s.kprio = e->prio;
			snprintf(s.comm, sizeof(s.comm), "%s", e->name);
			if (in && e->pid == x->tid) {
				x->have_switch = true;
				x->switch_ns = e->ts;
			}
			if (in && e->pid != x->tid) {
				h = acc_get(a, e->pid == 0 ? RTP_CK_IDLE : RTP_CK_TASK, e->pid, e->name, e->prio);
				if (h)
					h->count++;
			}
			break;
		case XEV_WAKEUP:
			if (in && e->pid == x->tid) {
				x->have_wakeup = true;
				x->wakeup_ns = e->ts;
				waker_now(&s, e, x, &x->waker);
			}
			break;
		case XEV_HRTIMER:
			if (in && !strcmp(e->name, "hrtimer_wakeup")) {
				x->have_timer = true;
				x->timer_ns = e->ts;
			}
			break;
		case XEV_IRQ_ENTRY:
			push(&s, RTP_CK_IRQ, e->num, e->name);
			break;
		case XEV_IRQ_EXIT:
			pop(&s, RTP_CK_IRQ, e->num, "");
			break;
		case XEV_VEC_ENTRY:
			push(&s, RTP_CK_VECTOR, e->num, e->name);
			break;
		case XEV_VEC_EXIT:
			pop(&s, RTP_CK_VECTOR, e->num, e->name);
			break;
		case XEV_SOFTIRQ_ENTRY:
			push(&s, RTP_CK_SOFTIRQ, e->num, e->name);
			break;
		case XEV_SOFTIRQ_EXIT:
			pop(&s, RTP_CK_SOFTIRQ, e->num, "");
			break;
		default:
			break;
		}
		if (in && (e->type == XEV_IRQ_ENTRY || e->type == XEV_VEC_ENTRY ||
			   e->type == XEV_SOFTIRQ_ENTRY) && s.depth > 0) {
			h = holder(a, &s, x->tid, x->soft_in_task, &self, &soft);
			if (h && !soft)
				h->count++;
		}
	}
	/* the rest of the window, up to the wake-up */
	if (x->wake_ns > t) {
		uint64_t d = x->wake_ns - t;

		if (!charge(a, &s, x, d))
			a->lost_ns += d;
	}
	/* a holder never seen switching out: unknown, counted as not accounted */
	(void)unknown_ns;
	/* the wake-up before the switch; a timer expiry only before that wake-up */
	if (x->have_wakeup && x->have_switch && x->switch_ns < x->wakeup_ns)
		x->have_wakeup = false;
	if (x->have_timer && x->have_wakeup && x->timer_ns > x->wakeup_ns)
		x->have_timer = false;
	if (x->have_wakeup)
		x->timer_late_ns = x->wakeup_ns - x->release_ns;
	if (x->have_wakeup && x->have_switch)
		x->woken_late_ns = x->switch_ns - x->wakeup_ns;

	qsort(a->c, (size_t)a->n, sizeof(a->c[0]), cmp_cul);
	x->accounted_ns = x->self_ns;
	for (k = 0; k < a->n; k++) {
		if (!a->c[k].ns)
			continue;
		if (!a->c[k].count)
			a->c[k].count = 1;	/* it held the CPU at the release */
		x->accounted_ns += a->c[k].ns;
		if (x->ncul < RTP_XMAX_CULPRITS) {
			x->cul[x->ncul++] = a->c[k];
		} else {
			x->others_ns += a->c[k].ns;
			x->nothers++;
		}
	}
	free(a);
	return 0;
}

size_t rtp_tracecut_from(const struct rtp_xev *ev, size_t n, uint64_t release_ns)
{
	size_t lo = 0, hi = n;

	/* the first event after the release */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ev[mid].ts <= release_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo > 0) {
		lo--;
		if (ev[lo].type == XEV_SWITCH)
			return lo;
	}
	return 0;
}

static const char *policy_name(int p)
{
	switch (p) {
	case SCHED_FIFO: return "FIFO";
	case SCHED_RR: return "RR";
	case SCHED_OTHER: return "OTHER";
	case SCHED_BATCH: return "BATCH";
	case SCHED_IDLE: return "IDLE";
#ifdef SCHED_DEADLINE
	case SCHED_DEADLINE: return "DEADLINE";
#endif
	default: return "?";
	}
}

void rtp_tracecut_policies_in(struct rtp_tracecut *x, const char *proc)
{
	int i;

	for (i = 0; i < x->ncul; i++) {
		struct rtp_culprit *c = &x->cul[i];
		int p;

		c->kthread = -1;
		if (c->kind != RTP_CK_TASK)
			continue;
		c->kthread = c->id > 0 && c->name[0] ? rtp_proc_kthread(proc, c->id, c->name) : -1;
		/* the trace's prio decides; the live policy only tells FIFO from RR, OTHER from BATCH */
		p = c->id > 0 ? sched_getscheduler(c->id) : -1;
		if (c->kprio < 0) {
			snprintf(c->policy, sizeof(c->policy), "DEADLINE");
			c->prio = 0;
		} else if (c->kprio < 100) {
			snprintf(c->policy, sizeof(c->policy), "%s",
				 p == SCHED_FIFO || p == SCHED_RR ? policy_name(p) : "RT");
			c->prio = 99 - c->kprio;
		} else {
			snprintf(c->policy, sizeof(c->policy), "%s",
				 p == SCHED_BATCH || p == SCHED_IDLE ? policy_name(p) : "OTHER");
			c->prio = c->kprio - 120;
		}
	}
}

void rtp_tracecut_policies(struct rtp_tracecut *x)
{
	rtp_tracecut_policies_in(x, "/proc");
}

/* a name for the console: printable ASCII, the rest '?' */
static const char *printable(const char *name, char *buf, size_t len)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < len; i++)
		buf[i] = name[i] >= 0x20 && name[i] < 0x7f ? name[i] : '?';
	buf[i] = 0;
	return buf;
}

const char *rtp_culprit_label(const struct rtp_culprit *c, char *buf, size_t len)
{
	char name[RTP_XNAME];
	const char *what = c->kthread == 1 ? "kernel thread" : c->kthread == 0 ? "user" : "gone";

	printable(c->name, name, sizeof(name));
	switch (c->kind) {
	case RTP_CK_TASK:
		if (!strcmp(c->policy, "OTHER") || !strcmp(c->policy, "BATCH") || !strcmp(c->policy, "IDLE"))
			snprintf(buf, len, "%s[%d] (%s nice %d, %s)", name, c->id, c->policy, c->prio, what);
		else
			snprintf(buf, len, "%s[%d] (%s %d, %s)", name, c->id, c->policy[0] ? c->policy : "RT",
				 c->prio, what);
		break;
	case RTP_CK_IRQ:
		snprintf(buf, len, "irq %d %s", c->id, name);
		break;
	case RTP_CK_VECTOR:
		snprintf(buf, len, "%s interrupt", name);
		break;
	case RTP_CK_SOFTIRQ:
		snprintf(buf, len, "softirq %s", name[0] ? name : "?");
		break;
	default:
		snprintf(buf, len, "idle");
		break;
	}
	return buf;
}
