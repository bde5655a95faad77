// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --explain's output: the console lines of the kept windows and the
 * culprit table, and events.explain of the document (docs/explain.md,
 * docs/results.md).
 */
#include "explain_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "json.h"

static void fmt_ms(uint64_t ns, char *buf, size_t len)
{
	if (ns >= 1000000)
		snprintf(buf, len, "%.2f ms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.0f us", (double)ns / 1e3);
}

static const struct rtp_culprit *top(const struct rtp_tracecut *x)
{
	return x->ncul ? &x->cul[0] : NULL;
}

void rtp_explain_attribute(struct rtp_explain *ex, rtp_xbase_fn fn, void *arg)
{
	if (ex)
		rtp_xrun_attribute(&ex->run, fn, arg);
}

/* outliers not attributed: by cause, adding up to outliers - attributed */
static uint64_t not_attributed(const struct rtp_explain *ex)
{
	return ex->not_covered + ex->dropped + ex->run.nomem + ex->run.cause[RTP_XC_UNACCOUNTED] +
	       ex->run.cause[RTP_XC_SELF] + ex->run.cause[RTP_XC_NO_MAJORITY];
}

void rtp_explain_print(const struct rtp_explain *ex, FILE *f)
{
	uint64_t all = ex->outliers + ex->dropped, att = ex->run.cause[RTP_XC_ATTRIBUTED];
	int i;

	{
		char t[32];

		fmt_ms(ex->threshold_ns, t, sizeof(t));
		fprintf(f, "explain: %llu outliers above %s, %llu attributed to a culprit", (unsigned long long)all,
			t, (unsigned long long)att);
		if (all)
			fprintf(f, " (%.1f %%)", 100.0 * (double)att / (double)all);
	}
	if (not_attributed(ex)) {
		const struct { const char *name; uint64_t n; } why[] = {
			{ "trace not covering", ex->not_covered },
			{ "queue full", ex->dropped },
			{ "out of memory", ex->run.nomem },
			{ "unaccounted", ex->run.cause[RTP_XC_UNACCOUNTED] },
			{ "the thread itself", ex->run.cause[RTP_XC_SELF] },
			{ "no culprit with half", ex->run.cause[RTP_XC_NO_MAJORITY] },
		};
		const char *sep = "";
		size_t w;

		fprintf(f, ", %llu not (", (unsigned long long)not_attributed(ex));
		for (w = 0; w < sizeof(why) / sizeof(why[0]); w++)
			if (why[w].n) {
				fprintf(f, "%s%s %llu", sep, why[w].name, (unsigned long long)why[w].n);
				sep = ", ";
			}
		fprintf(f, ")");
	}
	fprintf(f, "; %d windows kept\n", ex->nkept);
	rtp_xrun_print(&ex->run, f, RTP_EXPLAIN_ROWS);
	for (i = 0; i < ex->nkept; i++) {
		const struct kept *k = &ex->kept[i];
		const struct rtp_culprit *c = top(&k->x);
		char lat[32], d[32], who[96];

		if (i == RTP_EXPLAIN_PRINT) {
			fprintf(f, "  ... %d more windows in the document (events.explained)\n", ex->nkept - i);
			break;
		}
		fmt_ms(k->n.wake_ns - k->n.release_ns, lat, sizeof(lat));
		if (!c) {
			fprintf(f, "  %s late on CPU %d: nothing else ran (the thread itself %s)\n", lat,
				k->n.cpu, (fmt_ms(k->x.self_ns, d, sizeof(d)), d));
			continue;
		}
		fmt_ms(c->ns, d, sizeof(d));
		if (c->kind == RTP_CK_IDLE)
			fprintf(f, "  %s late on CPU %d: the CPU was idle %s (the timer fired late: "
				"time the kernel does not see? see docs/explain.md)\n", lat, k->n.cpu, d);
		else if (c->kind == RTP_CK_TASK && c->stretch_ns > c->ns + c->ns / 20) {
			char st[32];

			fmt_ms(c->stretch_ns, st, sizeof(st));
			fprintf(f, "  %s late on CPU %d: %s ran %s (of a %s stretch)\n", lat, k->n.cpu,
				rtp_culprit_label(c, who, sizeof(who)), d, st);
		} else {
			fprintf(f, "  %s late on CPU %d: %s ran %s\n", lat, k->n.cpu,
				rtp_culprit_label(c, who, sizeof(who)), d);
		}
	}
	if (ex->err[0])
		fprintf(f, "explain: %s\n", ex->err);
}

void rtp_explain_json_unavailable(struct rtp_json *j, uint64_t threshold_ns, const char *why)
{
	rtp_json_begin_object(j, "explain");
	rtp_json_uint(j, "threshold_ns", threshold_ns);
	rtp_json_string(j, "status", "unavailable");
	rtp_json_string(j, "reason", why);
	rtp_json_end_object(j);
}

void rtp_explain_json(const struct rtp_explain *ex, struct rtp_json *j, uint64_t t0_ns)
{
	int i, c;

	rtp_json_begin_object(j, "explain");
	rtp_json_uint(j, "threshold_ns", ex->threshold_ns);
	rtp_json_string(j, "status", "on");
	rtp_json_string(j, "mode", ex->deferred ? "after-run" : "during-run");
	rtp_json_string(j, "reader_cpus", ex->reader_cpus);
	rtp_json_string(j, "tracefs", ex->dir);
	rtp_json_string(j, "events", ex->events);
	rtp_json_bool(j, "record_cmd", ex->record_cmd);
	rtp_json_int(j, "buffer_kb_per_cpu", ex->buffer_kb);
	rtp_json_string(j, "clock", "mono (us resolution)");
	rtp_json_string(j, "softirq_charged_to", ex->rt ? "task (PREEMPT_RT: the thread that ran it)" :
			"softirq (the vector)");
	rtp_json_uint(j, "outliers", ex->outliers + ex->dropped);
	rtp_json_uint(j, "attributed", ex->run.cause[RTP_XC_ATTRIBUTED]);
	rtp_json_string(j, "attributed_above", ex->run.base_known ? "the thread's p50" : "0 (no p50 known)");
	/* the same count under its old name: explained + not_explained = outliers */
	rtp_json_uint(j, "explained", ex->run.cause[RTP_XC_ATTRIBUTED]);
	rtp_json_uint(j, "not_explained", not_attributed(ex));
	rtp_json_begin_object(j, "not_explained_by");
	rtp_json_uint(j, "trace_not_covering", ex->not_covered);
	rtp_json_uint(j, "queue_full", ex->dropped);
	rtp_json_uint(j, "out_of_memory", ex->run.nomem);
	rtp_json_uint(j, "unaccounted", ex->run.cause[RTP_XC_UNACCOUNTED]);
	rtp_json_uint(j, "self", ex->run.cause[RTP_XC_SELF]);
	rtp_json_uint(j, "no_majority", ex->run.cause[RTP_XC_NO_MAJORITY]);
	rtp_json_end_object(j);
	rtp_json_uint(j, "covered", ex->covered);
	rtp_json_int(j, "windows_kept", ex->nkept);
	rtp_json_uint(j, "windows_sampled_out", ex->sampled_out);
	rtp_json_uint(j, "windows_over_cap", ex->over_cap);
	rtp_json_int(j, "keep_first", RTP_EXPLAIN_FIRST);
	rtp_json_int(j, "then_largest_of", RTP_EXPLAIN_EVERY);
	rtp_json_uint(j, "others_ns", ex->run.lost_ns);
	rtp_json_uint(j, "snapshots", ex->snapshots);
	rtp_json_uint(j, "read_errors", ex->failed);
	if (ex->err[0])
		rtp_json_string(j, "error", ex->err);
	rtp_xrun_json(&ex->run, j);
	rtp_json_end_object(j);

	rtp_json_begin_array(j, "explained");
	for (i = 0; i < ex->nkept; i++) {
		const struct kept *k = &ex->kept[i];
		const struct rtp_tracecut *x = &k->x;
		uint64_t win = k->n.wake_ns - k->n.release_ns;

		rtp_json_begin_object(j, NULL);
		rtp_json_double(j, "time_s", k->n.release_ns >= t0_ns ?
				(double)(k->n.release_ns - t0_ns) / 1e9 : 0.0);
		rtp_json_int(j, "cpu", k->n.cpu);
		rtp_json_int(j, "tid", k->n.tid);
		rtp_json_string(j, "metric", k->n.what);
		rtp_json_uint(j, "latency_ns", win);
		if (x->have_wakeup) {
			rtp_json_uint(j, "timer_late_ns", x->timer_late_ns);
			if (x->have_switch)
				rtp_json_uint(j, "woken_late_ns", x->woken_late_ns);
			rtp_json_string(j, "late_by", x->timer_late_ns >= x->woken_late_ns ?
					"timer-fired-late" : "woken-late");
			rtp_json_begin_object(j, "woken_by");
			if (x->waker.kind >= 0) {
				rtp_json_string(j, "kind", rtp_culprit_kind_name(x->waker.kind));
				rtp_json_string(j, "name", x->waker.kind == RTP_CK_IDLE ? "idle" : x->waker.name);
				if (x->waker.kind == RTP_CK_TASK)
					rtp_json_int(j, "pid", x->waker.id);
			} else {
				rtp_json_string(j, "kind", "unknown");
			}
			rtp_json_end_object(j);
		} else {
			rtp_json_string(j, "late_by", "unknown (no wake-up of the thread in the trace)");
			rtp_json_null(j, "woken_by");
			rtp_json_string(j, "woken_by_note", "no sched_wakeup of the thread on this CPU in the window: "
					"woken from another CPU (only the measured CPUs are traced), or it was not asleep");
		}
		rtp_json_uint(j, "self_ns", x->self_ns);
		rtp_json_uint(j, "unaccounted_ns", win > x->accounted_ns ? win - x->accounted_ns : 0);
		rtp_json_begin_array(j, "culprits");
		for (c = 0; c < x->ncul; c++) {
			const struct rtp_culprit *u = &x->cul[c];

			rtp_json_begin_object(j, NULL);
			rtp_json_string(j, "kind", rtp_culprit_kind_name(u->kind));
			rtp_json_string(j, "name", u->kind == RTP_CK_IDLE ? "idle" : u->name);
			rtp_culprit_json_who(j, u);
			rtp_json_uint(j, "ns", u->ns);
			if (u->kind == RTP_CK_TASK && u->stretch_ns)
				rtp_json_uint(j, "stretch_ns", u->stretch_ns);
			if (u->softirq_ns)
				rtp_json_uint(j, "softirq_ns", u->softirq_ns);
			rtp_json_double(j, "share", win ? (double)u->ns / (double)win : 0.0);
			rtp_json_uint(j, "count", u->count);
			rtp_json_end_object(j);
		}
		rtp_json_end_array(j);
		if (x->nothers) {
			rtp_json_uint(j, "others_ns", x->others_ns);
			rtp_json_int(j, "others", x->nothers);
		}
		rtp_json_end_object(j);
	}
	rtp_json_end_array(j);
}
