// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The PipeWire backend's main loop (pipewire.c has the stream): the
 * server's connection, the registry, and the profiler's records, each
 * incomplete cycle of this node's graph an xrun put down to the node that
 * had not finished (pwprof.c); then the summary and the document's
 * events.pipewire.  It runs on the audio thread while the bench runs, on
 * main while it opens and closes, never on both at once.
 */
#include "pwdev.h"

#ifndef RTP_NO_PIPEWIRE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "json.h"
#include "rt.h"
#include "run.h"

/* ---- the main loop: the server, the registry, the profiler ------------------- */

static void pwb_core_done(void *arg, uint32_t id, int seq)
{
	struct pw_dev *d = ((struct audio_ctx *)arg)->dev;

	if (id == PW_ID_CORE && seq == d->sync_seq)
		d->synced = true;
}

static void pwb_core_error(void *arg, uint32_t id, int seq, int res, const char *message)
{
	struct pw_dev *d = ((struct audio_ctx *)arg)->dev;

	(void)seq;
	if (id != PW_ID_CORE || res != -EPIPE || __atomic_load_n(&d->gone, __ATOMIC_ACQUIRE))
		return;
	snprintf(d->gone_reason, sizeof(d->gone_reason), "it closed the connection: %s",
		 message ? message : strerror(-res));
	__atomic_store_n(&d->gone, 1, __ATOMIC_RELEASE);
}

const struct pw_core_events audio_pw_core_events = {
	PW_VERSION_CORE_EVENTS,
	.done = pwb_core_done,
	.error = pwb_core_error,
};

static struct audio_step *step_at(struct audio_ctx *c, uint64_t since_start_ns)
{
	int k = __atomic_load_n(&c->step, __ATOMIC_ACQUIRE);

	while (k > 0 && c->steps[k].start_ns > since_start_ns)
		k--;
	return &c->steps[k];
}

/* One more xrun at start_ns (CLOCK_MONOTONIC); its place in c->xrun[], or -1. */
static int count_xrun(struct audio_ctx *c, uint64_t start_ns)
{
	uint64_t at = start_ns > c->start_ns ? start_ns - c->start_ns : 0;
	struct audio_step *s = step_at(c, at);

	RTP_ST(&c->xruns, RTP_LD(&c->xruns) + 1);
	RTP_ST(&s->xruns, RTP_LD(&s->xruns) + 1);
	if (c->nxrun >= AUDIO_MAX_XRUNS)
		return -1;
	memset(&c->xrun[c->nxrun], 0, sizeof(c->xrun[0]));
	c->xrun[c->nxrun].at_ns = at;
	return c->nxrun++;
}

static void blame(struct pw_dev *d, const char *name, uint32_t id)
{
	unsigned i;

	for (i = 0; i < BLAME && d->blame[i].n; i++)
		if (d->blame[i].id == id && !strcmp(d->blame[i].name, name))
			break;
	if (i == BLAME) {
		d->blame_other++;
		return;
	}
	if (!d->blame[i].n) {
		snprintf(d->blame[i].name, sizeof(d->blame[i].name), "%s", name);
		d->blame[i].id = id;
	}
	d->blame[i].n++;
}

/*
 * This node's own late call behind the incomplete cycle that ended at
 * next_ns: one due before then and ended at most 4 cycles before it, the
 * worst of them (a call held back for many cycles covers each).  Calls
 * run one after another, each for a later cycle: in the ring both the
 * end and the cycle due are in order, so those that fit are one short run,
 * found by a binary search on the end.
 */
static const struct pw_overrun *own_overrun(struct pw_dev *d, uint64_t next_ns, uint64_t period_ns)
{
	uint64_t q = __atomic_load_n(&d->ov_seq, __ATOMIC_ACQUIRE), a, b, k;
	const struct pw_overrun *best = NULL;

	a = q > OV_RING ? q - OV_RING : 0;
	b = q;
	while (a < b) {
		uint64_t m = a + (b - a) / 2;

		if (d->ov[m % OV_RING].end_ns + 4 * period_ns < next_ns)
			a = m + 1;
		else
			b = m;
	}
	for (k = a; k < q; k++) {
		const struct pw_overrun *o = &d->ov[k % OV_RING];
		uint64_t w = o->lateness_ns + (o->end_ns - o->wake_ns);

		if (o->wake_ns - o->lateness_ns >= next_ns)
			break;
		if (!best || w > best->lateness_ns + (best->end_ns - best->wake_ns))
			best = o;
	}
	return best;
}

static void fill_own(struct audio_xrun *x, const struct pw_overrun *o)
{
	x->lateness_ns = o->lateness_ns;
	x->margin_ns = o->margin_ns;
	x->work_ns = o->end_ns - o->wake_ns;
	x->gap_ns = o->end_ns > o->deadline_ns ? o->end_ns - o->deadline_ns : 0;
}

/*
 * This node's late call for the cycle due at due_ns; without one, with
 * nearby the worst one around it (own_overrun), else NULL.
 */
static const struct pw_overrun *own_call(struct pw_dev *d, uint64_t due_ns, uint64_t period_ns, bool nearby)
{
	uint64_t q = __atomic_load_n(&d->ov_seq, __ATOMIC_ACQUIRE), k;

	for (k = q; k > 0 && q - k < OV_RING; k--)
		if (d->ov[(k - 1) % OV_RING].start_ns == due_ns)
			return &d->ov[(k - 1) % OV_RING];
	return nearby ? own_overrun(d, due_ns + period_ns, period_ns) : NULL;
}

static void close_pend(struct audio_ctx *c, struct pw_dev *d, const struct pw_pend *p)
{
	uint64_t period_ns = audio_frames_ns(c->cfg.period, c->cfg.rate);
	const struct pw_overrun *o = own_overrun(d, p->next_ns, period_ns);
	struct audio_xrun *x = p->idx >= 0 ? &c->xrun[p->idx] : NULL;
	enum audio_xrun_cause cause;

	if (p->driver)
		cause = AUDIO_CAUSE_SERVER;
	else if (!p->self)
		cause = AUDIO_CAUSE_OTHER_CLIENT;
	else	/* running past the deadline is its work; never run, its wake-up */
		cause = o ? o->cause : p->rank == 3 ? AUDIO_CAUSE_WORK : AUDIO_CAUSE_LATE_WAKEUP;
	if (x) {
		x->cause = cause;
		snprintf(x->culprit, sizeof(x->culprit), "%s", p->name);
		if (o)
			fill_own(x, o);
	}
	c->xrun_causes[cause]++;
}

static bool pend_ready(struct pw_dev *d, const struct pw_pend *p, uint64_t now, uint64_t period_ns)
{
	return !p->self || own_overrun(d, p->next_ns, period_ns) || now > p->arrived_ns + LINE_WAIT_NS;
}

/*
 * A complete cycle the driver itself began late: clock.nsec is when it was
 * due (a timer driver's timerfd), the driver's signal time when it began.
 * Late by half a cycle or more counts as the server's lateness; when this
 * node then finished past the cycle's deadline (the next one's start),
 * the cycle is an xrun, the server's: no node kept it from completing,
 * and no record says incomplete (a timer driver catches up, cycle after
 * cycle, once it runs again).  On PREEMPT_RT a timerfd expires in
 * ktimers/N, so an RT thread above FIFO 1 holds the driver back.
 */
static void late_cycle(struct audio_ctx *c, struct pw_dev *d, const struct audio_pw_cycle *cy,
		       uint64_t period_ns, bool device_xrun)
{
	uint64_t due = (uint64_t)cy->nsec, late;
	const struct pw_overrun *o;
	unsigned i;
	int idx;

	if (!period_ns || cy->driver.signal_ns <= 0 || (uint64_t)cy->driver.signal_ns <= due + period_ns / 2 ||
	    due <= d->last_server_late_ns)
		return;
	d->last_server_late_ns = due;
	late = (uint64_t)cy->driver.signal_ns - due;
	d->server_late++;
	if (late > d->server_late_max_ns)
		d->server_late_max_ns = late;
	/* a cycle the driver's own xrun counted already is the device's */
	if (device_xrun)
		return;
	for (i = 0; i < cy->nfollowers; i++)
		if (cy->follower[i].id == d->node_id)
			break;
	if (i == cy->nfollowers || cy->follower[i].finish_ns <= 0 ||
	    (uint64_t)cy->follower[i].finish_ns <= due + period_ns || due <= d->last_late_ns)
		return;
	d->last_late_ns = due;
	d->late_complete++;
	c->xrun_causes[AUDIO_CAUSE_SERVER]++;
	idx = count_xrun(c, due);
	if (idx < 0)
		return;
	c->xrun[idx].cause = AUDIO_CAUSE_SERVER;
	snprintf(c->xrun[idx].culprit, sizeof(c->xrun[idx].culprit), "%s", cy->driver.name);
	o = own_call(d, due, period_ns, true);
	if (o)
		fill_own(&c->xrun[idx], o);
	else
		c->xrun[idx].lateness_ns = late;
}

static void pwb_record(void *arg, const struct audio_pw_cycle *cy)
{
	struct audio_ctx *c = arg;
	struct pw_dev *d = c->dev;
	uint64_t period_ns, start;
	struct pw_pend *p;
	int k;

	d->records++;
	if (!audio_pw_has_follower(cy, d->node_id) || cy->nsec <= 0 || !cy->rate) {
		d->records_other++;	/* another driver's graph */
		return;
	}
	if (!d->have_driver || d->driver_id != cy->driver.id) {
		d->driver_changes += d->have_driver;
		d->have_driver = true;
		d->driver_id = cy->driver.id;
		snprintf(d->driver, sizeof(d->driver), "%s", cy->driver.name);
		snprintf(d->clock_name, sizeof(d->clock_name), "%s", cy->clock_name);
		d->have_xc = false;
	}
	if ((uint64_t)cy->nsec > d->last_nsec)
		d->last_nsec = (uint64_t)cy->nsec;
	k = audio_pw_culprit(cy);
	period_ns = audio_frames_ns((uint64_t)(cy->duration > 0 ? cy->duration : 0), cy->rate);
	/* an incomplete record's clock is the next cycle's: the unfinished one began a cycle before */
	start = k == AUDIO_PW_COMPLETE ? (uint64_t)cy->nsec : (uint64_t)cy->nsec - period_ns;
	if (!d->go_ns || start < d->go_ns || (d->end_ns && start >= d->end_ns)) {
		d->xc_last = cy->xrun_count;	/* outside the measured run */
		d->have_xc = true;
		return;
	}
	if (!d->have_xc) {
		d->have_xc = true;
		d->xc_last = cy->xrun_count;
	}
	if (k == AUDIO_PW_COMPLETE) {
		bool device_xrun = d->xc_last != cy->xrun_count;

		/* the driver's own xruns (an ALSA driver's underruns) in a complete cycle: the device's */
		for (; d->xc_last != cy->xrun_count; d->xc_last++) {
			int idx = count_xrun(c, start);

			d->driver_xruns++;
			c->xrun_causes[AUDIO_CAUSE_DEVICE]++;
			if (idx >= 0) {
				const struct pw_overrun *o = own_call(d, start, period_ns, false);

				c->xrun[idx].cause = AUDIO_CAUSE_DEVICE;
				snprintf(c->xrun[idx].culprit, sizeof(c->xrun[idx].culprit), "%s", d->driver);
				if (o)	/* this node's late call in that cycle, if it had one */
					fill_own(&c->xrun[idx], o);
			}
		}
		late_cycle(c, d, cy, period_ns, device_xrun);
		return;
	}
	d->xc_last = cy->xrun_count;
	if ((uint64_t)cy->nsec == d->last_incomplete_ns)
		return;		/* the same cycle again (0.3.65 sends it twice) */
	d->last_incomplete_ns = (uint64_t)cy->nsec;
	d->incomplete++;
	if (d->pend_tail - d->pend_head >= PENDS)	/* the oldest waits no longer */
		close_pend(c, d, &d->pend[d->pend_head++ % PENDS]);
	p = &d->pend[d->pend_tail++ % PENDS];
	memset(p, 0, sizeof(*p));
	p->next_ns = (uint64_t)cy->nsec;
	p->arrived_ns = rtp_now_ns(CLOCK_MONOTONIC);
	p->driver = k == AUDIO_PW_DRIVER;
	if (p->driver) {
		snprintf(p->name, sizeof(p->name), "%s", cy->driver.name);
		blame(d, cy->driver.name, cy->driver.id);
	} else {
		const struct audio_pw_node *n = &cy->follower[k];

		p->self = n->id == d->node_id;
		p->rank = audio_pw_rank(n);
		snprintf(p->name, sizeof(p->name), "%s", n->name);
		blame(d, n->name, n->id);
	}
	p->idx = count_xrun(c, start);
}

static void pwb_profile(void *arg, const struct spa_pod *pod)
{
	struct audio_ctx *c = arg;
	struct pw_dev *d = c->dev;

	if (pod)
		audio_pw_parse_profile(pod, SPA_POD_SIZE(pod), &d->cy, pwb_record, c);
}

static const struct pw_profiler_events pwb_profiler_events = {
	PW_VERSION_PROFILER_EVENTS,
	.profile = pwb_profile,
};

static void pwb_global(void *arg, uint32_t id, uint32_t permissions, const char *type,
		       uint32_t version, const struct spa_dict *props)
{
	struct audio_ctx *c = arg;
	struct pw_dev *d = c->dev;

	(void)permissions;
	(void)version;
	(void)props;
	if (d->profiler || !d->profiler_module || !type || strcmp(type, PW_TYPE_INTERFACE_Profiler))
		return;
	d->profiler = pw_registry_bind(d->registry, id, type, PW_VERSION_PROFILER, 0);
	if (d->profiler)
		d->f.proxy_add_object_listener(d->profiler, &d->profiler_listener,
					       &pwb_profiler_events, c);
}

const struct pw_registry_events audio_pw_registry_events = {
	PW_VERSION_REGISTRY_EVENTS,
	.global = pwb_global,
};

/* Closes the incomplete cycles whose culprit's call is in (or waited long enough). */
void audio_pw_attribute(struct audio_ctx *c, struct pw_dev *d, bool final)
{
	uint64_t period_ns = audio_frames_ns(c->cfg.period, c->cfg.rate);
	uint64_t now = rtp_now_ns(CLOCK_MONOTONIC);

	if (!d->profiler) {
		/* No profiler: only this node's own late calls are seen, each an xrun. */
		uint64_t q = __atomic_load_n(&d->ov_seq, __ATOMIC_ACQUIRE);

		if (q - d->ov_done > OV_RING)
			d->ov_done = q - OV_RING;
		for (; d->ov_done < q; d->ov_done++) {
			const struct pw_overrun *o = &d->ov[d->ov_done % OV_RING];
			int idx = count_xrun(c, o->start_ns);

			c->xrun_causes[o->cause]++;
			if (idx >= 0) {
				c->xrun[idx].cause = o->cause;
				snprintf(c->xrun[idx].culprit, sizeof(c->xrun[idx].culprit), "%s", AUDIO_PW_NODE);
				fill_own(&c->xrun[idx], o);
			}
		}
		return;
	}
	while (d->pend_head != d->pend_tail) {
		const struct pw_pend *p = &d->pend[d->pend_head % PENDS];

		if (!final && !pend_ready(d, p, now, period_ns))
			break;
		d->pend_head++;
		close_pend(c, d, p);
	}
}


/* ---- report ------------------------------------------------------------------ */

static const char *policy_name(int policy)
{
	return policy == SCHED_FIFO ? "SCHED_FIFO" : policy == SCHED_RR ? "SCHED_RR" :
	       policy == SCHED_OTHER ? "SCHED_OTHER" : policy < 0 ? "unknown" : "other";
}

void audio_pw_config(const struct audio_ctx *c, const char *timing)
{
	const struct audio_config *g = &c->cfg;
	char pt[24];

	rtp_format_ns(audio_frames_ns(g->period, g->rate), pt, sizeof(pt));
	printf("  graph's: %s, %u frames per cycle (the quantum), %u Hz, %u channel%s, FLOAT_LE\n",
	       c->o->capture ? "capture (input stream)" : "playback (output stream)", g->period,
	       g->rate, g->channels, g->channels == 1 ? "" : "s");
	printf("  timing: %s\n", timing);
	printf("  cycle %s; a node's deadline is the next cycle's start\n", pt);
}

void audio_pw_summary(const struct audio_ctx *c)
{
	const struct pw_dev *d = c->dev;
	unsigned i;

	if (!d)
		return;
	printf("PipeWire: node '%s' (id %u) on server '%s', driver '%s'; data thread %s", AUDIO_PW_NODE,
	       d->node_id, d->server, d->have_driver ? d->driver : "unknown", policy_name(d->policy));
	if (d->policy == SCHED_FIFO || d->policy == SCHED_RR)
		printf(" %d", d->priority);
	printf(" (read back from the thread; client-rt.conf's module-rt sets it)\n");
	if (d->profiler) {
		printf("  profiler: %llu records of this graph; incomplete cycles %llu",
		       (unsigned long long)(d->records - d->records_other),
		       (unsigned long long)d->incomplete);
		for (i = 0; i < BLAME && d->blame[i].n; i++)
			printf("%s%s %llu", i ? ", " : " (", d->blame[i].name,
			       (unsigned long long)d->blame[i].n);
		printf("%s; the driver's own xruns %llu\n", i ? ")" : "",
		       (unsigned long long)d->driver_xruns);
		printf("  cycles the driver began late (over half a cycle): %llu, the worst by %.3f ms; "
		       "completed past their deadline (xruns, the server's): %llu\n",
		       (unsigned long long)d->server_late, d->server_late_max_ns / 1e6,
		       (unsigned long long)d->late_complete);
	} else {
		printf("  no profiler bound (none in the server, or its client module did not load): "
		       "other nodes' overruns go unseen, only this node's own late cycles count\n");
	}
	printf("  missed cycles %llu, quantum changes %llu; times: pw_time.now (the driver's "
	       "cycle start) against CLOCK_MONOTONIC, ns\n", (unsigned long long)RTP_LD(&d->missed_cycles),
	       (unsigned long long)RTP_LD(&d->quantum_changes));
}

void audio_pw_events(const struct audio_ctx *c, struct rtp_json *j)
{
	const struct pw_dev *d = c->dev;
	unsigned i;

	if (!d)
		return;
	rtp_json_begin_object(j, "pipewire");
	rtp_json_string(j, "server", d->server);
	rtp_json_string(j, "library_version", d->version);
	rtp_json_string(j, "node", AUDIO_PW_NODE);
	rtp_json_uint(j, "node_id", d->node_id);
	if (d->have_driver) {
		rtp_json_string(j, "driver", d->driver);
		rtp_json_uint(j, "driver_id", d->driver_id);
		rtp_json_string(j, "driver_clock", d->clock_name);
	} else {
		rtp_json_null(j, "driver");
	}
	rtp_json_uint(j, "driver_changes", d->driver_changes);
	rtp_json_begin_object(j, "data_thread");
	rtp_json_int(j, "tid", RTP_LD(&d->tid));
	rtp_json_string(j, "policy", policy_name(d->policy));
	if (d->priority >= 0)
		rtp_json_int(j, "priority", d->priority);
	else
		rtp_json_null(j, "priority");
	rtp_json_end_object(j);
	rtp_json_bool(j, "realtime", d->policy == SCHED_FIFO || d->policy == SCHED_RR);
	rtp_json_bool(j, "profiler", d->profiler != NULL);
	rtp_json_uint(j, "profiler_records", d->records - d->records_other);
	rtp_json_uint(j, "incomplete_cycles", d->incomplete);
	rtp_json_begin_array(j, "incomplete_by_node");
	for (i = 0; i < BLAME && d->blame[i].n; i++) {
		rtp_json_begin_object(j, NULL);
		rtp_json_string(j, "node", d->blame[i].name);
		rtp_json_uint(j, "id", d->blame[i].id);
		rtp_json_uint(j, "cycles", d->blame[i].n);
		rtp_json_end_object(j);
	}
	rtp_json_end_array(j);
	rtp_json_uint(j, "incomplete_other_nodes", d->blame_other);
	rtp_json_uint(j, "driver_xruns", d->driver_xruns);
	rtp_json_uint(j, "server_late_cycles", d->server_late);
	rtp_json_uint(j, "server_late_max_ns", d->server_late_max_ns);
	rtp_json_uint(j, "late_complete_cycles", d->late_complete);
	rtp_json_uint(j, "missed_cycles", RTP_LD(&d->missed_cycles));
	rtp_json_uint(j, "quantum_changes", RTP_LD(&d->quantum_changes));
	rtp_json_uint(j, "time_errors", RTP_LD(&d->time_errors));
	rtp_json_string(j, "clock", "pw_time.now (the driver's clock.nsec) and the call, CLOCK_MONOTONIC, ns");
	if (__atomic_load_n(&d->gone, __ATOMIC_ACQUIRE))
		rtp_json_string(j, "shutdown_reason", d->gone_reason);
	rtp_json_end_object(j);
}

#endif
