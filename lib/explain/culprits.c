// SPDX-License-Identifier: GPL-2.0-or-later
/* --explain over the run: the culprit table and the attribution of every covered outlier. */
#include "culprits.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define HASH 8192		/* > 2 * RTP_XROWS_MAX: open addressing stays short */

const char *rtp_xcause_name(int cause)
{
	static const char *const n[] = { "attributed", "unaccounted", "self", "no_majority" };

	return cause >= 0 && cause < RTP_XC_N ? n[cause] : "?";
}

static bool same(const struct rtp_culprit *a, const struct rtp_culprit *b)
{
	return a->kind == b->kind && a->id == b->id && !strcmp(a->name, b->name);
}

static unsigned hash(const struct rtp_culprit *c)
{
	unsigned h = (unsigned)c->kind * 2654435761u ^ (unsigned)c->id * 40503u;
	const unsigned char *p = (const unsigned char *)c->name;

	while (*p)
		h = h * 31 + *p++;
	return h % HASH;
}

/* the row of c: found, or a new one; -1 when the table is full */
static int row_of(struct rtp_xrun *r, const struct rtp_culprit *c, int *slots)
{
	unsigned h = hash(c);
	int i;

	for (;;) {
		i = slots[h] - 1;
		if (i < 0)
			break;
		if (same(&r->row[i].c, c))
			return i;
		h = (h + 1) % HASH;
	}
	if (r->nrow == RTP_XROWS_MAX)
		return -1;
	if (r->nrow == r->caprow) {
		int cap = r->caprow ? r->caprow * 2 : 64;
		struct rtp_xrow *p = realloc(r->row, (size_t)cap * sizeof(*p));

		if (!p)
			return -1;
		r->row = p;
		r->caprow = cap;
	}
	i = r->nrow++;
	memset(&r->row[i], 0, sizeof(r->row[i]));
	r->row[i].c = *c;
	r->row[i].c.ns = 0;
	r->row[i].c.stretch_ns = 0;
	r->row[i].c.softirq_ns = 0;
	r->row[i].c.count = 0;
	slots[h] = i + 1;
	return i;
}

static int *slots_of(struct rtp_xrun *r)
{
	if (!r->slot)
		r->slot = calloc(HASH, sizeof(*r->slot));
	return r->slot;
}

int rtp_xrun_add(struct rtp_xrun *r, const struct rtp_tracecut *x, int tid, const char *what)
{
	struct rtp_xout *o;
	uint64_t win = x->wake_ns - x->release_ns;
	int *slots = slots_of(r), k;

	if (r->nout == r->capout) {
		size_t cap = r->capout ? r->capout * 2 : 256;
		struct rtp_xout *p = realloc(r->out, cap * sizeof(*p));

		if (!p) {
			r->nomem++;
			return -ENOMEM;
		}
		r->out = p;
		r->capout = cap;
	}
	o = &r->out[r->nout++];
	memset(o, 0, sizeof(*o));
	o->tid = tid;
	o->what = what;
	o->lat_ns = win;
	o->self_ns = x->self_ns;
	o->unacc_ns = win > x->accounted_ns ? win - x->accounted_ns : 0;
	o->top = -1;
	r->lost_ns += x->others_ns;
	for (k = 0; k < x->ncul; k++) {
		const struct rtp_culprit *c = &x->cul[k];
		int i = slots ? row_of(r, c, slots) : -1;

		if (k == 0)
			o->top_ns = c->ns;
		if (i < 0) {
			r->lost_ns += c->ns;
			continue;
		}
		if (k == 0)
			o->top = i;
		r->row[i].c.ns += c->ns;
		r->row[i].c.softirq_ns += c->softirq_ns;
		r->row[i].c.count += c->count;
		if (c->stretch_ns > r->row[i].c.stretch_ns)
			r->row[i].c.stretch_ns = c->stretch_ns;
		if (c->ns > r->row[i].worst_ns)
			r->row[i].worst_ns = c->ns;
		r->row[i].outliers++;
	}
	return 0;
}

/* qsort_r's argument: the rows the indices name */
static int cmp_order(const void *a, const void *b, void *arg)
{
	const struct rtp_xrow *row = arg, *x = &row[*(const int *)a], *y = &row[*(const int *)b];

	if (x->c.ns != y->c.ns)
		return x->c.ns < y->c.ns ? 1 : -1;
	if (x->outliers != y->outliers)
		return x->outliers < y->outliers ? 1 : -1;
	return *(const int *)a - *(const int *)b;
}

void rtp_xrun_attribute(struct rtp_xrun *r, rtp_xbase_fn fn, void *arg)
{
	size_t k;
	int i;

	memset(r->cause, 0, sizeof(r->cause));
	for (i = 0; i < r->nrow; i++)
		r->row[i].attributed = 0;
	r->base_known = fn != NULL;
	for (k = 0; k < r->nout; k++) {
		struct rtp_xout *o = &r->out[k];
		uint64_t base = fn ? fn(arg, o->tid, o->what) : 0, above;

		/* the time above the thread's own p50; all of it when the p50 is not below the outlier */
		above = base < o->lat_ns ? o->lat_ns - base : o->lat_ns;
		if (o->top >= 0 && o->top_ns * 2 >= above)
			o->cause = RTP_XC_ATTRIBUTED;
		else if (o->unacc_ns * 2 >= above)
			o->cause = RTP_XC_UNACCOUNTED;
		else if (o->self_ns * 2 >= above)
			o->cause = RTP_XC_SELF;
		else
			o->cause = RTP_XC_NO_MAJORITY;
		r->cause[o->cause]++;
		if (o->cause == RTP_XC_ATTRIBUTED)
			r->row[o->top].attributed++;
	}
	/* the rows by time taken, through an index: the outliers name rows by number */
	free(r->order);
	r->order = r->nrow ? malloc((size_t)r->nrow * sizeof(*r->order)) : NULL;
	r->norder = r->order ? r->nrow : 0;
	for (i = 0; i < r->norder; i++)
		r->order[i] = i;
	if (r->norder)
		qsort_r(r->order, (size_t)r->norder, sizeof(*r->order), cmp_order, r->row);
}

static void fmt_t(uint64_t ns, char *buf, size_t len)
{
	if (ns >= 1000000)
		snprintf(buf, len, "%.2f ms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.0f us", (double)ns / 1e3);
}

void rtp_xrun_print(const struct rtp_xrun *r, FILE *f, int max)
{
	int i;

	if (!r->norder)
		return;
	fprintf(f, "explain: culprits over the run, by time taken in the outliers' windows:\n");
	fprintf(f, "  %10s %9s %11s %10s  %s\n", "time", "outliers", "attributed", "worst", "culprit");
	for (i = 0; i < r->norder; i++) {
		const struct rtp_xrow *w = &r->row[r->order[i]];
		char t[32], worst[32], who[96];

		if (i == max) {
			fprintf(f, "  ... %d more in the document (events.explain.by_culprit)\n", r->norder - i);
			break;
		}
		fmt_t(w->c.ns, t, sizeof(t));
		fmt_t(w->worst_ns, worst, sizeof(worst));
		fprintf(f, "  %10s %9u %11u %10s  %s\n", t, w->outliers, w->attributed, worst,
			rtp_culprit_label(&w->c, who, sizeof(who)));
	}
}

/* who a culprit is: a task's pid, policy and priority, the kernel's
 * kthread flag (not the comm: a task names itself), an IRQ's or a
 * softirq vector's number */
void rtp_culprit_json_who(struct rtp_json *j, const struct rtp_culprit *u)
{
	if (u->kind == RTP_CK_TASK) {
		rtp_json_int(j, "pid", u->id);
		rtp_json_string(j, "policy", u->policy);
		rtp_json_int(j, "prio", u->prio);
	}
	if (u->kind == RTP_CK_TASK && u->kthread >= 0)
		rtp_json_bool(j, "kthread", u->kthread == 1);
	else
		rtp_json_null(j, "kthread");
	if (u->kind == RTP_CK_IRQ || u->kind == RTP_CK_SOFTIRQ)
		rtp_json_int(j, u->kind == RTP_CK_IRQ ? "irq" : "vec", u->id);
}

void rtp_xrun_json(const struct rtp_xrun *r, struct rtp_json *j)
{
	int i;

	rtp_json_begin_array(j, "by_culprit");
	for (i = 0; i < r->norder; i++) {
		const struct rtp_xrow *w = &r->row[r->order[i]];
		const struct rtp_culprit *u = &w->c;

		rtp_json_begin_object(j, NULL);
		rtp_json_string(j, "name", u->kind == RTP_CK_IDLE ? "idle" : u->name);
		rtp_json_string(j, "kind", rtp_culprit_kind_name(u->kind));
		rtp_culprit_json_who(j, u);
		rtp_json_uint(j, "ns", u->ns);
		if (u->softirq_ns)
			rtp_json_uint(j, "softirq_ns", u->softirq_ns);
		rtp_json_uint(j, "outliers", w->outliers);
		rtp_json_uint(j, "attributed", w->attributed);
		rtp_json_uint(j, "worst_ns", w->worst_ns);
		if (u->kind == RTP_CK_TASK && u->stretch_ns)
			rtp_json_uint(j, "longest_stretch_ns", u->stretch_ns);
		rtp_json_end_object(j);
	}
	rtp_json_end_array(j);
}

void rtp_xrun_free(struct rtp_xrun *r)
{
	if (!r)
		return;
	free(r->row);
	free(r->out);
	free(r->slot);
	free(r->order);
	memset(r, 0, sizeof(*r));
}
