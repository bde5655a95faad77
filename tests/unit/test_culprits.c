// SPDX-License-Identifier: GPL-2.0-or-later
/* --explain over the run: the culprit table and the attribution rule (issue 26). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "explain/culprits.h"

static void cul(struct rtp_tracecut *x, int kind, int id, const char *name, uint64_t ns)
{
	struct rtp_culprit *c = &x->cul[x->ncul++];

	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->id = id;
	c->kthread = -1;
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->policy, sizeof(c->policy), "%s", kind == RTP_CK_TASK ? "OTHER" : "");
	c->ns = ns;
	c->count = 1;
	x->accounted_ns += ns;
}

/* a window of lat ns with self ns of the thread itself */
static void win(struct rtp_tracecut *x, uint64_t lat, uint64_t self)
{
	memset(x, 0, sizeof(*x));
	x->release_ns = 1000000;
	x->wake_ns = 1000000 + lat;
	x->self_ns = self;
	x->accounted_ns = self;
}

static uint64_t p50(void *arg, int tid, const char *what)
{
	(void)arg;
	(void)what;
	return tid == 7 ? 10000 : 0;
}

int main(void)
{
	struct rtp_xrun r;
	struct rtp_tracecut x;
	const struct rtp_xrow *w;
	char buf[4096];
	FILE *f;

	memset(&r, 0, sizeof(r));
	/* 1: hackbench 30 of 40 us: attributed with or without the p50 */
	win(&x, 40000, 2000);
	cul(&x, RTP_CK_TASK, 300, "hackbench", 30000);
	cul(&x, RTP_CK_VECTOR, -1, "local_timer", 4000);
	rtp_xrun_add(&r, &x, 7, "wakeup_latency");
	/* 2: hackbench 12 of 30 us: < half the window, but >= half of the 20 us above the p50 */
	win(&x, 30000, 1000);
	cul(&x, RTP_CK_TASK, 300, "hackbench", 12000);
	cul(&x, RTP_CK_SOFTIRQ, 9, "RCU", 8000);
	rtp_xrun_add(&r, &x, 7, "wakeup_latency");
	/* 3: the hog 150 of 200 us */
	win(&x, 200000, 1000);
	cul(&x, RTP_CK_TASK, 400, "zqhog", 150000);
	cul(&x, RTP_CK_TASK, 300, "hackbench", 40000);
	rtp_xrun_add(&r, &x, 7, "wakeup_latency");
	/* 4: 30 us of which 25 nobody: unaccounted */
	win(&x, 30000, 1000);
	cul(&x, RTP_CK_TASK, 300, "hackbench", 4000);
	rtp_xrun_add(&r, &x, 7, "wakeup_latency");
	/* 5: three named culprits of 10 us each in 40: none with half */
	win(&x, 40000, 0);
	cul(&x, RTP_CK_TASK, 301, "hackbench", 13000);
	cul(&x, RTP_CK_TASK, 302, "kworker/0:1", 13000);
	cul(&x, RTP_CK_IRQ, 24, "virtio0", 13000);
	rtp_xrun_add(&r, &x, 8, "wakeup_latency");

	rtp_xrun_attribute(&r, NULL, NULL);
	is_u64(r.cause[RTP_XC_ATTRIBUTED], 2, "without p50s: windows 1 and 3 attributed");
	is_u64(r.cause[RTP_XC_NO_MAJORITY], 2, "without p50s: 2 and 5 have no culprit with half");
	is_u64(r.cause[RTP_XC_UNACCOUNTED], 1, "window 4: unaccounted, never attributed");
	rtp_xrun_attribute(&r, p50, NULL);
	is_u64(r.cause[RTP_XC_ATTRIBUTED], 3, "above tid 7's p50 of 10 us: window 2 attributed too");
	is_u64(r.cause[RTP_XC_ATTRIBUTED] + r.cause[RTP_XC_UNACCOUNTED] + r.cause[RTP_XC_SELF] +
	       r.cause[RTP_XC_NO_MAJORITY], 5, "every covered outlier counted once");
	ok(r.norder == 7, "seven culprits (%d)", r.norder);
	w = &r.row[r.order[0]];
	ok(!strcmp(w->c.name, "zqhog") && w->c.ns == 150000 && w->outliers == 1 && w->attributed == 1 &&
	   w->worst_ns == 150000, "first by time taken: zqhog, 150 us, 1 outlier, attributed");
	w = &r.row[r.order[1]];
	ok(!strcmp(w->c.name, "hackbench") && w->c.id == 300 && w->c.ns == 86000 && w->outliers == 4 &&
	   w->attributed == 2 && w->worst_ns == 40000,
	   "then hackbench[300]: 86 us over 4 outliers, 2 attributed, worst 40 us");
	f = fmemopen(buf, sizeof(buf), "w");
	if (f) {
		rtp_xrun_print(&r, f, 2);
		fclose(f);
	}
	ok(strstr(buf, "zqhog[400]") && strstr(buf, "150 us") && strstr(buf, "... 5 more"),
	   "the console table: two rows, then how many more");
	rtp_xrun_free(&r);
	return tap_done();
}
