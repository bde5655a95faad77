// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-audio: setup, the run's supervision (and the sweep), the report. */
#include "audio.h"

#include <alsa/asoundlib.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "driver.h"
#include "gate.h"
#include "log.h"
#include "opt.h"
#include "result.h"
#include "rt.h"
#include "run.h"
#include "sysinfo.h"

#define TOOL "rtproof-audio"
#define TICK_NS		50000000ull	/* stop, sweep and progress checks */

struct audio_run {
	struct audio_ctx c;		/* large, first */
	struct audio_opts o;
	struct rtp_run *run;
	char backend_note[512];
	bool opened;
	int first_xrun_step;		/* sweep: -1 none */
	bool consumption_bad;
	double consumed_s, elapsed_s;
};

static const char *backend_label(const struct audio_run *r)
{
	return r->c.ops->label ? r->c.ops->label : "ALSA backend";
}


static uint64_t buffer_ns(const struct audio_run *r)
{
	return audio_frames_ns(r->c.cfg.buffer, r->c.cfg.rate);
}

static uint64_t period_ns(const struct audio_run *r)
{
	return audio_frames_ns(r->c.cfg.period, r->c.cfg.rate);
}

/* ---- report ------------------------------------------------------------- */

/* How wake-ups are placed against the device: params.granted.timing. */
static const char *pointer_timing(const struct audio_run *r)
{
	if (r->c.ops->timing)
		return r->c.ops->timing;
	return r->c.cfg.batch ? "batch device (pointer in period steps): times from the period boundaries" :
	       "pointer and timestamp of each status";
}

/* How finely the device's pointer places a moment: 0 when exact (timer, PipeWire). */
static uint64_t resolution_ns(const struct audio_run *r)
{
	return r->c.ops->exact || !r->c.cfg.rate ? 0 : audio_frames_ns(1, r->c.cfg.rate);
}

static void print_config(const struct audio_run *r)
{
	const struct audio_opts *o = &r->o;
	const struct audio_config *g = &r->c.cfg;
	char pt[24], bt[24];

	rtp_format_ns(period_ns(r), pt, sizeof(pt));
	rtp_format_ns(buffer_ns(r), bt, sizeof(bt));
	printf("%s: %s, device %s (%s)\n", TOOL, backend_label(r), g->pcm_name, g->card);
	if (r->c.ops->config) {		/* a server backend: the server's configuration */
		r->c.ops->config(&r->c, pointer_timing(r));
		return;
	}
	printf("  asked:   %s, %u frames x %u periods, %u Hz, %u ch, %s, %s\n",
	       o->capture ? "capture (xruns are overruns)" : "playback", o->period, o->periods,
	       o->rate, o->channels, o->format_name, o->access == AUDIO_ACCESS_MMAP ? "mmap" : "rw");
	printf("  granted: %u frames x %u periods (buffer %llu frames), %u Hz, %u ch, %s, %s\n",
	       g->period, g->periods, (unsigned long long)g->buffer, g->rate, g->channels,
	       snd_pcm_format_name((snd_pcm_format_t)g->format), g->access);
	if (resolution_ns(r)) {
		char q[24];

		rtp_format_ns(resolution_ns(r), q, sizeof(q));
		printf("  timing: %s; lateness and margin known to %s (one frame: the pointer moves in whole frames)\n",
		       pointer_timing(r), q);
	} else {
		printf("  timing: %s\n", pointer_timing(r));
	}
	if (g->rate != o->rate || g->period != o->period || g->periods != o->periods ||
	    g->channels != o->channels || g->format != o->format)
		printf("  note: the device granted another configuration than asked; the figures are for the granted one\n");
	if (r->c.audio_cpu >= 0)
		printf("  period %s, buffer %s; audio thread SCHED_FIFO %d on CPU %d\n", pt, bt,
		       o->priority, r->c.audio_cpu);
	else
		printf("  period %s, buffer %s; audio thread SCHED_FIFO %d, not pinned\n", pt, bt,
		       o->priority);
	if (r->backend_note[0])
		printf("  note: %s\n", r->backend_note);
	if (g->device_note[0])
		printf("  note: %s\n", g->device_note);
}

static void audio_summary(struct rtp_run *run, const struct rtp_verdict *v)
{
	const struct audio_run *r = run->b;
	double secs = r->run->duration_s;
	const struct audio_ctx *c = &r->c;
	char a[24], b[24], d[24];
	int i;

	(void)v;

	printf("\n");
	print_config(r);
	printf("  kernel %s (preempt %s), clocksource %s%s; %.3f s, stopped by %s%s\n",
	       r->run->si.kernel_release, r->run->si.preempt, r->run->si.clocksource,
	       r->run->si.virtualized ? ", virtualized" : "", secs, r->run->stopped_by,
	       r->run->stop_detail);
	if (r->o.sweep || r->o.dsp_load_pct > 0) {
		printf("  DSP: %.1f units/us calibrated (one unit: a biquad over %d samples)\n",
		       c->dsp.units_per_ns * 1e3, AUDIO_DSP_BLOCK);
	}
	if (!r->o.sweep && r->o.dsp_load_pct > 0) {
		rtp_format_ns((uint64_t)((double)period_ns(r) * r->o.dsp_load_pct / 100.0), a, sizeof(a));
		rtp_format_ns(period_ns(r), b, sizeof(b));
		printf("  DSP load %.1f %%: %s of work per %s period\n", r->o.dsp_load_pct, a, b);
	}
	printf("  %-17s %10s %11s %11s %11s %11s %11s %11s\n", "", "samples", "min", "p50",
	       "p99", "p99.9", "p99.99", "max");
	audio_print_row("wake-up lateness", &c->lateness);
	audio_print_row("buffer margin", &c->margin);
	audio_print_row("work time", &c->work);
	if (r->o.duplex)
		audio_print_row("round trip", &c->roundtrip);
	printf("  wake-ups %llu, periods written %llu, spurious wake-ups %llu, early %llu\n",
	       (unsigned long long)c->wakeups, (unsigned long long)c->periods,
	       (unsigned long long)c->spurious, (unsigned long long)c->early);
	audio_print_hist("wake-up lateness", &c->lateness);
	audio_print_hist("buffer margin", &c->margin);
	if (r->o.duplex) {
		printf("duplex: capture %s (%s), impulses sent %llu, back %llu, lost %llu, "
		       "capture overruns %llu\n", c->duplex_pcm,
		       c->duplex_linked ? "linked: one start" : "not linked: started apart",
		       (unsigned long long)c->impulses_sent, (unsigned long long)c->impulses_found,
		       (unsigned long long)c->impulses_lost, (unsigned long long)c->capture_xruns);
		if (c->impulses_found)
			printf("  capture index - playback index of the impulse: %lld .. %lld frames\n",
			       (long long)c->delay_min_frames, (long long)c->delay_max_frames);
	}
	rtp_format_ns(c->xrun_total_ns, a, sizeof(a));
	rtp_format_ns(c->xrun_max_ns, b, sizeof(b));
	rtp_format_ns(c->xrun_gap_total_ns, d, sizeof(d));
	printf("xruns: %llu (device's total %s, longest %s; audio gaps %s), suspends: %llu\n",
	       (unsigned long long)c->xruns, a, b, d, (unsigned long long)c->suspends);
	if (c->xruns_unreported)
		printf("  %llu of them not reported by the device: it still said running, but its\n"
		       "  own timestamps put the end of the queued audio before the wake-up\n",
		       (unsigned long long)c->xruns_unreported);
	rtp_format_ns(c->unreported_slack_ns, a, sizeof(a));
	if (!c->ops->run)
		printf("  an xrun the device does not report is seen when its gap exceeds %s\n", a);
	if (r->o.hide_xruns) {
		rtp_format_ns(c->vdev.hidden_ns, a, sizeof(a));
		rtp_format_ns(c->vdev.hidden_max_ns, b, sizeof(b));
		printf("  --hide-xruns: the virtual device hid %llu xruns (silence %s, longest %s)\n",
		       (unsigned long long)c->vdev.hidden, a, b);
	}
	if (c->xruns)
		printf("  causes: late wake-up %llu, work overran the margin %llu, device %llu, "
		       "other client %llu, server %llu\n",
		       (unsigned long long)c->xrun_causes[AUDIO_CAUSE_LATE_WAKEUP],
		       (unsigned long long)c->xrun_causes[AUDIO_CAUSE_WORK],
		       (unsigned long long)c->xrun_causes[AUDIO_CAUSE_DEVICE],
		       (unsigned long long)c->xrun_causes[AUDIO_CAUSE_OTHER_CLIENT],
		       (unsigned long long)c->xrun_causes[AUDIO_CAUSE_SERVER]);
	if (c->ops->summary)
		c->ops->summary(c);
	if (c->nxrun)
		printf("  %12s %12s %12s %12s %12s %12s  %s\n", "time (s)", "duration", "gap",
		       "lateness", "margin", "work", "cause");
	for (i = 0; i < c->nxrun; i++) {
		char m[24], w[24];

		rtp_format_ns(c->xrun[i].dur_ns, a, sizeof(a));
		rtp_format_ns(c->xrun[i].lateness_ns, b, sizeof(b));
		rtp_format_ns(c->xrun[i].gap_ns, d, sizeof(d));
		rtp_format_ns(c->xrun[i].margin_ns, m, sizeof(m));
		rtp_format_ns(c->xrun[i].work_ns, w, sizeof(w));
		printf("  %12.6f %12s %12s %12s %12s %12s  %s%s%s%s\n", (double)c->xrun[i].at_ns / 1e9, a, d, b,
		       m, w, c->xrun[i].suspend ? "device" : audio_cause_name(c->xrun[i].cause),
		       c->xrun[i].culprit[0] ? " " : "", c->xrun[i].culprit,
		       c->xrun[i].suspend ? "  (suspend)" :
		       c->xrun[i].unreported ? "  (not reported by the device)" :
		       c->xrun[i].merged ? "  (reported late by the device)" : "");
	}
	if (c->nxrun && c->ops->run)
		printf("  (lateness, margin and work: this client's cycle that missed its deadline,\n"
		       "   0 when it was in time; gap: how far its work ran past the deadline; the\n"
		       "   name after the cause: the client the server named, JACK's log or\n"
		       "   PipeWire's profiler)\n");
	else if (c->nxrun)
		printf("  (duration: the device's, status minus trigger time, as aplay and jackd\n"
		       "   report it; gap: from the end of the queued audio until the stream played\n"
		       "   again, by this program's count; lateness and margin: the wake-up's;\n"
		       "   work: from the wake-up to the write that failed, 0 when the wake-up\n"
		       "   found the xrun)\n");
	if ((uint64_t)c->nxrun < c->xruns + c->suspends)
		printf("  (the first %d kept)\n", c->nxrun);
	if (r->o.stall_ns) {
		int n = __atomic_load_n(&c->nstalls, __ATOMIC_ACQUIRE);

		rtp_format_ns(r->o.stall_ns, a, sizeof(a));
		printf("planted stalls: %d of %s (SCHED_FIFO 99 on CPU %d)%s\n", n, a, c->audio_cpu,
		       c->stall_err ? ": the stall thread could not be set up" : "");
		for (i = 0; i < n; i++) {
			rtp_format_ns(c->stall_len[i], d, sizeof(d));
			printf("  %12.6f %12s\n", (double)c->stall_at[i] / 1e9, d);
		}
	}
	if (r->o.sweep) {
		printf("sweep: %-8s %8s %10s %12s %12s %12s\n", "load", "xruns", "wake-ups",
		       "worst wake", "min margin", "max work");
		for (i = 0; i < c->nsteps && i <= __atomic_load_n(&c->step, __ATOMIC_ACQUIRE); i++) {
			const struct audio_step *s = &c->steps[i];

			rtp_format_ns(s->max_lateness_ns, a, sizeof(a));
			rtp_format_ns(s->min_margin_ns == UINT64_MAX ? 0 : s->min_margin_ns, b, sizeof(b));
			rtp_format_ns(s->max_work_ns, d, sizeof(d));
			printf("       %6.1f %% %8llu %10llu %12s %12s %12s\n", s->load_pct,
			       (unsigned long long)s->xruns, (unsigned long long)s->wakeups, a,
			       s->min_margin_ns == UINT64_MAX ? "-" : b, d);
		}
	}
	if (!r->o.sweep) {	/* a sweep's work is the last step's: no one buffer fits it */
		struct audio_advice adv;

		audio_advise(c, &adv);
		audio_advice_print(&adv, c->cfg.rate, secs);
	}
}

/* ---- result document ---------------------------------------------------- */

static void json_metric(struct rtp_json *j, const char *name, const struct rtp_hist *h)
{
	rtp_json_begin_object(j, NULL);
	rtp_json_string(j, "name", name);
	rtp_json_string(j, "unit", "ns");
	rtp_json_string(j, "thread", "audio");
	rtp_json_hist(j, h, true);
	rtp_json_end_object(j);
}

static void audio_json_params(struct rtp_run *run, struct rtp_json *j)
{
	const struct audio_run *r = run->b;
	const struct audio_opts *o = &r->o;
	const struct audio_ctx *c = &r->c;
	const struct audio_config *g = &c->cfg;

	rtp_json_string(j, "backend", c->ops->name);
	if (r->backend_note[0])
		rtp_json_string(j, "backend_note", r->backend_note);
	rtp_json_string(j, "device", o->device);
	rtp_json_string(j, "stream", o->capture ? "capture" : o->duplex ? "duplex" : "playback");
	if (o->duplex)
		rtp_json_string(j, "duplex_device", o->duplex);
	rtp_json_begin_object(j, "requested");
	rtp_json_uint(j, "rate", o->rate);
	rtp_json_uint(j, "channels", o->channels);
	rtp_json_string(j, "format", o->format_name);
	rtp_json_uint(j, "period_frames", o->period);
	rtp_json_uint(j, "periods", o->periods);
	rtp_json_string(j, "access", o->access == AUDIO_ACCESS_MMAP ? "mmap" : "rw");
	rtp_json_end_object(j);
	rtp_json_begin_object(j, "granted");
	rtp_json_uint(j, "rate", g->rate);
	rtp_json_uint(j, "channels", g->channels);
	rtp_json_string(j, "format", snd_pcm_format_name((snd_pcm_format_t)g->format));
	rtp_json_uint(j, "period_frames", g->period);
	rtp_json_uint(j, "periods", g->periods);
	rtp_json_uint(j, "buffer_frames", g->buffer);
	rtp_json_string(j, "access", g->access);
	rtp_json_string(j, "pcm", g->pcm_name);
	rtp_json_string(j, "card", g->card);
	rtp_json_bool(j, "batch", g->batch);
	rtp_json_string(j, "timing", pointer_timing(r));
	rtp_json_uint(j, "resolution_ns", resolution_ns(r));
	if (g->driver[0])
		rtp_json_string(j, "driver", g->driver);
	rtp_json_bool(j, "timer_driven", g->timer_driven);
	if (g->device_note[0])
		rtp_json_string(j, "device_note", g->device_note);
	rtp_json_uint(j, "period_ns", period_ns(r));
	rtp_json_uint(j, "buffer_ns", buffer_ns(r));
	rtp_json_end_object(j);
	rtp_json_string(j, "policy", "fifo");
	rtp_json_int(j, "priority", o->priority);
	if (c->audio_cpu >= 0)
		rtp_json_int(j, "cpu", c->audio_cpu);
	else
		rtp_json_null(j, "cpu");
	if (o->co.duration_ns)
		rtp_json_double(j, "duration_s", (double)o->co.duration_ns / 1e9);
	else
		rtp_json_null(j, "duration_s");
	rtp_json_double(j, "dsp_load_pct", o->dsp_load_pct);
	rtp_json_double(j, "dsp_units_per_us", c->dsp.units_per_ns * 1e3);
	rtp_json_bool(j, "sweep", o->sweep);
	if (o->sweep) {
		rtp_json_double(j, "sweep_step_pct", o->sweep_step_pct);
		rtp_json_double(j, "sweep_max_pct", o->sweep_max_pct);
		rtp_json_double(j, "step_time_s", (double)o->step_ns / 1e9);
		rtp_json_double(j, "sweep_require_pct", o->sweep_require_pct);
	}
	rtp_json_bool(j, "hide_xruns", o->hide_xruns);
	if (o->stall_ns) {
		rtp_json_uint(j, "plant_stall_ns", o->stall_ns);
		rtp_json_uint(j, "plant_stall_every_ns", o->stall_every_ns);
	}
	rtp_json_string(j, "clock", "CLOCK_MONOTONIC");
	rtp_json_bool(j, "mlockall", run->mlocked);
}

static void audio_json_metrics(struct rtp_run *run, struct rtp_json *j)
{
	const struct audio_run *r = run->b;
	const struct audio_ctx *c = &r->c;

	json_metric(j, "wakeup_lateness", &c->lateness);
	json_metric(j, "buffer_margin", &c->margin);
	json_metric(j, "work_time", &c->work);
	if (r->o.duplex)
		json_metric(j, "roundtrip_latency", &c->roundtrip);
}

static void audio_json_events(struct rtp_run *run, struct rtp_json *j)
{
	const struct audio_run *r = run->b;
	const struct audio_opts *o = &r->o;
	const struct audio_ctx *c = &r->c;
	int i, n;

	rtp_json_uint(j, "xruns", c->xruns);
	rtp_json_uint(j, "xrun_total_ns", c->xrun_total_ns);
	rtp_json_uint(j, "xrun_max_ns", c->xrun_max_ns);
	rtp_json_uint(j, "xrun_gap_total_ns", c->xrun_gap_total_ns);
	rtp_json_uint(j, "xruns_unreported", c->xruns_unreported);
	rtp_json_begin_object(j, "xrun_causes");
	for (i = 0; i < AUDIO_CAUSE_N; i++)
		rtp_json_uint(j, audio_cause_name((enum audio_xrun_cause)i), c->xrun_causes[i]);
	rtp_json_end_object(j);
	rtp_json_uint(j, "suspends", c->suspends);
	rtp_json_uint(j, "wakeups", c->wakeups);
	rtp_json_uint(j, "periods_written", c->periods);
	rtp_json_uint(j, "spurious_wakeups", c->spurious);
	rtp_json_uint(j, "early_wakeups", c->early);
	rtp_json_double(j, "audio_written_s", r->consumed_s);
	rtp_json_begin_array(j, "xrun_list");
	for (i = 0; i < c->nxrun; i++) {
		rtp_json_begin_object(j, NULL);
		rtp_json_string(j, "kind", c->xrun[i].suspend ? "suspend" : "xrun");
		rtp_json_bool(j, "reported", !c->xrun[i].unreported);
		rtp_json_bool(j, "reported_late", c->xrun[i].merged);
		rtp_json_double(j, "time_s", (double)c->xrun[i].at_ns / 1e9);
		rtp_json_uint(j, "duration_ns", c->xrun[i].dur_ns);
		rtp_json_uint(j, "gap_ns", c->xrun[i].gap_ns);
		rtp_json_uint(j, "lateness_ns", c->xrun[i].lateness_ns);
		rtp_json_uint(j, "margin_ns", c->xrun[i].margin_ns);
		rtp_json_uint(j, "work_ns", c->xrun[i].work_ns);
		rtp_json_string(j, "cause", c->xrun[i].suspend ? "device" :
				audio_cause_name(c->xrun[i].cause));
		if (c->xrun[i].culprit[0])
			rtp_json_string(j, "culprit", c->xrun[i].culprit);
		else if (c->ops->run)
			rtp_json_null(j, "culprit");
		rtp_json_end_object(j);
	}
	rtp_json_end_array(j);
	rtp_json_bool(j, "xrun_list_truncated", (uint64_t)c->nxrun < c->xruns + c->suspends);
	if (!o->sweep) {
		struct audio_advice adv;

		audio_advise(c, &adv);
		audio_advice_json(&adv, j);
	}
	rtp_json_uint(j, "unreported_slack_ns", c->unreported_slack_ns);
	rtp_json_uint(j, "merge_window_ns", c->merge_window_ns);
	if (c->ops->events)
		c->ops->events(c, j);
	if (o->hide_xruns) {
		rtp_json_begin_object(j, "hidden_by_device");
		rtp_json_uint(j, "xruns", c->vdev.hidden);
		rtp_json_uint(j, "silence_ns", c->vdev.hidden_ns);
		rtp_json_uint(j, "longest_ns", c->vdev.hidden_max_ns);
		rtp_json_end_object(j);
	}
	if (o->stall_ns) {
		n = __atomic_load_n(&c->nstalls, __ATOMIC_ACQUIRE);
		rtp_json_int(j, "stalls_planted", n);
		rtp_json_begin_array(j, "stall_list");
		for (i = 0; i < n; i++) {
			rtp_json_begin_object(j, NULL);
			rtp_json_double(j, "time_s", (double)c->stall_at[i] / 1e9);
			rtp_json_uint(j, "duration_ns", c->stall_len[i]);
			rtp_json_end_object(j);
		}
		rtp_json_end_array(j);
	}
	if (o->duplex) {
		rtp_json_begin_object(j, "duplex");
		rtp_json_string(j, "capture_pcm", c->duplex_pcm);
		rtp_json_bool(j, "linked", c->duplex_linked);
		rtp_json_uint(j, "impulses_sent", c->impulses_sent);
		rtp_json_uint(j, "impulses_found", c->impulses_found);
		rtp_json_uint(j, "impulses_lost", c->impulses_lost);
		rtp_json_uint(j, "capture_overruns", c->capture_xruns);
		if (c->impulses_found) {
			rtp_json_int(j, "delay_min_frames", c->delay_min_frames);
			rtp_json_int(j, "delay_max_frames", c->delay_max_frames);
		} else {
			rtp_json_null(j, "delay_min_frames");
			rtp_json_null(j, "delay_max_frames");
		}
		rtp_json_end_object(j);
	}
	if (o->sweep) {
		int last = __atomic_load_n(&c->step, __ATOMIC_ACQUIRE);

		rtp_json_begin_object(j, "sweep");
		if (r->first_xrun_step >= 0)
			rtp_json_double(j, "first_xrun_load_pct", c->steps[r->first_xrun_step].load_pct);
		else
			rtp_json_null(j, "first_xrun_load_pct");
		if (r->first_xrun_step > 0)
			rtp_json_double(j, "max_clean_load_pct", c->steps[r->first_xrun_step - 1].load_pct);
		else if (r->first_xrun_step < 0 && last >= 0 && c->steps[last].wakeups)
			rtp_json_double(j, "max_clean_load_pct", c->steps[last].load_pct);
		else
			rtp_json_null(j, "max_clean_load_pct");
		rtp_json_begin_array(j, "steps");
		for (i = 0; i < c->nsteps && i <= last; i++) {
			const struct audio_step *s = &c->steps[i];

			rtp_json_begin_object(j, NULL);
			rtp_json_double(j, "load_pct", s->load_pct);
			rtp_json_uint(j, "dsp_units", s->units);
			rtp_json_double(j, "start_s", (double)s->start_ns / 1e9);
			rtp_json_uint(j, "xruns", s->xruns);
			rtp_json_uint(j, "wakeups", s->wakeups);
			rtp_json_uint(j, "max_lateness_ns", s->max_lateness_ns);
			if (s->min_margin_ns == UINT64_MAX)
				rtp_json_null(j, "min_margin_ns");
			else
				rtp_json_uint(j, "min_margin_ns", s->min_margin_ns);
			rtp_json_uint(j, "max_work_ns", s->max_work_ns);
			rtp_json_end_object(j);
		}
		rtp_json_end_array(j);
		rtp_json_end_object(j);
	}
}

/* ---- verdict ------------------------------------------------------------ */

static void audio_decide(struct rtp_run *run, struct rtp_verdict *v)
{
	const struct audio_run *r = run->b;
	const struct audio_ctx *c = &r->c;
	double secs = run->duration_s;
	char head[256], worst[24], margin[24];
	const char *label = c->ops->tag ? c->ops->tag : "";

	if (c->err && c->err_detail[0]) {
		v->status = RTP_ERROR;
		snprintf(v->reason, sizeof(v->reason), "%s (the figures cover the run until then)",
			 c->err_detail);
		return;
	}
	if (c->err) {
		v->status = RTP_ERROR;
		snprintf(v->reason, sizeof(v->reason), "the audio thread could not %s: %s",
			 c->err_what ? c->err_what : "run", c->err < 0 ? snd_strerror(c->err) : "?");
		return;
	}
	if (!c->lateness.count) {
		v->status = RTP_ERROR;
		snprintf(v->reason, sizeof(v->reason), "no period was written (stopped by %s)",
			 run->stopped_by);
		return;
	}
	if (r->consumption_bad) {
		v->status = RTP_ERROR;
		snprintf(v->reason, sizeof(v->reason),
			 "the device took %.1f s of audio in %.1f s: it does not play or record in real time "
			 "(ALSA's null plugin does this); no figure of this run means anything",
			 r->consumed_s, r->elapsed_s);
		return;
	}
	if (r->o.duplex && c->impulses_sent && !c->impulses_found && !c->xruns) {
		v->status = RTP_ERROR;
		snprintf(v->reason, sizeof(v->reason),
			 "--duplex: none of %llu impulses came back: is %s a loopback of %s?",
			 (unsigned long long)c->impulses_sent, r->o.duplex, r->o.device);
		return;
	}
	audio_headline(head, sizeof(head), c->xruns, secs, &c->cfg);
	rtp_format_ns(c->lateness.max, worst, sizeof(worst));
	rtp_format_ns(c->margin.min, margin, sizeof(margin));
	if (r->o.sweep) {
		const struct audio_step *s = r->first_xrun_step >= 0 ? &c->steps[r->first_xrun_step] : NULL;
		double clean = r->first_xrun_step > 0 ? c->steps[r->first_xrun_step - 1].load_pct :
			       r->first_xrun_step < 0 ? c->steps[c->nsteps - 1].load_pct : 0;

		char at[64];

		audio_shape(at, sizeof(at), &c->cfg);
		if (r->o.sweep_require_pct > 0)
			rtp_verdict_check(v, "DSP load without xruns", ">=", r->o.sweep_require_pct,
					  clean, "%");
		if (s)
			snprintf(v->reason, sizeof(v->reason),
				 "first xrun at %.1f %% DSP load (%.1f %% ran clean) at %s, %u Hz%s%s",
				 s->load_pct, clean, at, c->cfg.rate, label,
				 v->status == RTP_FAIL ? ": below --sweep-require" : "");
		else
			snprintf(v->reason, sizeof(v->reason), "no xrun up to %.1f %% DSP load at %s, %u Hz%s",
				 clean, at, c->cfg.rate, label);
		if (r->o.sweep_require_pct <= 0)
			rtp_verdict_figures_only(v);	/* no --sweep-require: nothing to meet */
		return;
	}
	rtp_verdict_check(v, "xruns", "==", 0, (double)c->xruns, "count");
	rtp_verdict_check(v, "suspends", "==", 0, (double)c->suspends, "count");
	if (r->o.co.max_latency_ns)	/* rtproof run --profile audio: the period minus its work */
		rtp_verdict_check(v, "max wakeup_lateness", "<=", (double)r->o.co.max_latency_ns / 1e3,
				  (double)c->lateness.max / 1e3, "us");
	snprintf(v->reason, sizeof(v->reason), "%s%s", head, label);
	if (c->xruns) {
		static const char *const what[AUDIO_CAUSE_N] = {
			[AUDIO_CAUSE_LATE_WAKEUP] = "late wake-up",
			[AUDIO_CAUSE_WORK] = "work overran the margin",
			[AUDIO_CAUSE_DEVICE] = "device",
			[AUDIO_CAUSE_OTHER_CLIENT] = "another client",
			[AUDIO_CAUSE_SERVER] = "the server",
		};
		const char *sep = "; xrun causes: ";
		int k;

		for (k = 0; k < AUDIO_CAUSE_N; k++) {
			if (!c->xrun_causes[k])
				continue;
			snprintf(v->reason + strlen(v->reason), sizeof(v->reason) - strlen(v->reason),
				 "%s%s %llu", sep, what[k], (unsigned long long)c->xrun_causes[k]);
			sep = ", ";
			if (k == AUDIO_CAUSE_OTHER_CLIENT)
				audio_culprits(c, v->reason + strlen(v->reason),
					       sizeof(v->reason) - strlen(v->reason));
		}
	}
	snprintf(v->reason + strlen(v->reason), sizeof(v->reason) - strlen(v->reason),
		 "; worst wake-up %s%s; smallest margin %s%s", worst,
		 !r->o.co.max_latency_ns ? "" : c->lateness.max > r->o.co.max_latency_ns ?
		 " (over the --max-latency budget)" : " (within the --max-latency budget)", margin,
		 c->suspends ? "; the stream was suspended" : "");
	if (r->o.duplex && c->impulses_found) {
		char rt[24];

		rtp_format_ns(c->roundtrip.max, rt, sizeof(rt));
		snprintf(v->reason + strlen(v->reason), sizeof(v->reason) - strlen(v->reason),
			 "; round trip up to %s", rt);
	} else if (r->o.duplex) {
		snprintf(v->reason + strlen(v->reason), sizeof(v->reason) - strlen(v->reason),
			 "; no round trip measured (%llu impulses sent, the xruns cancelled them)",
			 (unsigned long long)c->impulses_sent);
	}
}

static void audio_skip_params(struct rtp_run *run, struct rtp_json *j)
{
	const struct audio_run *r = run->b;

	rtp_json_string(j, "backend", r->o.backend == AUDIO_BACKEND_TIMER ? "timer" :
			r->o.backend == AUDIO_BACKEND_ALSA ? "alsa" :
			r->o.backend == AUDIO_BACKEND_JACK ? "jack" :
			r->o.backend == AUDIO_BACKEND_PIPEWIRE ? "pipewire" : "auto");
	rtp_json_string(j, "device", r->o.device);
}

static void alsa_quiet(const char *file, int line, const char *function, int err,
		       const char *fmt, ...)
{
	(void)file;
	(void)line;
	(void)function;
	(void)err;
	(void)fmt;
}

/* Opens the backend the options ask for; 0, or an exit code. */
static int open_backend(struct audio_run *r, char *why, size_t len)
{
	struct audio_ctx *c = &r->c;
	int ret;

	if (r->o.backend == AUDIO_BACKEND_TIMER) {
		c->ops = &audio_timer_ops;
		snprintf(r->backend_note, sizeof(r->backend_note),
			 "timer backend chosen: a virtual device paced by CLOCK_MONOTONIC, no sound card");
		return c->ops->open(c, why, len) ? RTP_EXIT_ERROR : 0;
	}
	if (r->o.backend == AUDIO_BACKEND_JACK || r->o.backend == AUDIO_BACKEND_PIPEWIRE) {
		c->ops = r->o.backend == AUDIO_BACKEND_JACK ? &audio_jack_ops : &audio_pipewire_ops;
		ret = c->ops->open(c, why, len);
		return !ret ? 0 : c->cannot_open ? RTP_EXIT_SKIP : RTP_EXIT_ERROR;
	}
	c->ops = &audio_alsa_ops;
	/* A probe of the default device: ALSA's complaints would only confuse. */
	if (r->o.backend == AUDIO_BACKEND_AUTO && !r->o.device_given)
		snd_lib_error_set_handler(alsa_quiet);
	ret = c->ops->open(c, why, len);
	snd_lib_error_set_handler(NULL);
	if (!ret && c->cfg.timer_driven)
		audio_ktimers_note("/proc", c->cfg.driver, r->o.priority, c->cfg.device_note,
				   sizeof(c->cfg.device_note));
	if (!ret)
		return 0;
	if (!c->cannot_open)
		return RTP_EXIT_ERROR;	/* opened, but refused the parameters */
	if (r->o.backend == AUDIO_BACKEND_ALSA || r->o.device_given)
		return RTP_EXIT_SKIP;
	snprintf(r->backend_note, sizeof(r->backend_note),
		 "no sound card: %s; using the timer backend (a virtual device paced by "
		 "CLOCK_MONOTONIC)", why);
	c->cannot_open = false;
	c->ops = &audio_timer_ops;
	return c->ops->open(c, why, len) ? RTP_EXIT_ERROR : 0;
}

static void set_step(struct audio_run *r, int k, uint64_t now)
{
	struct audio_ctx *c = &r->c;

	c->steps[k].start_ns = now > c->start_ns ? now - c->start_ns : 0;
	__atomic_store_n(&c->dsp_units, c->steps[k].units, __ATOMIC_RELAXED);
	__atomic_store_n(&c->step, k, __ATOMIC_RELEASE);
}

static void progress(const struct audio_run *r, uint64_t now)
{
	const struct audio_ctx *c = &r->c;

	printf("  %7.1f s: %llu wake-ups, %llu xruns\n", (double)(now - c->start_ns) / 1e9,
	       (unsigned long long)RTP_LD(&c->wakeups), (unsigned long long)RTP_LD(&c->xruns));
	fflush(stdout);
}

static int audio_rt_prio(struct rtp_run *run)
{
	const struct audio_run *r = run->b;

	return r->o.stall_ns ? 99 : r->o.priority;
}

static int audio_setup(struct rtp_run *run, char *why, size_t len)
{
	struct audio_run *r = run->b;
	struct audio_ctx *c = &r->c;
	char msg[600];
	size_t fb;
	int ret, i;

	r->run = run;
	r->first_xrun_step = -1;
	c->o = &r->o;
	c->run = run;
	ret = open_backend(r, msg, sizeof(msg));
	if (ret == RTP_EXIT_SKIP && c->ops->run) {	/* a server backend */
		snprintf(why, len, "%s", msg);
		r->opened = true;	/* teardown closes what open() left */
		return RTP_EXIT_SKIP;
	}
	if (ret == RTP_EXIT_SKIP) {
		snprintf(why, len, "no sound card: %s", msg);
		return RTP_EXIT_SKIP;
	}
	if (ret) {
		rtp_error("%s", msg);
		r->opened = c->ops->run != NULL;	/* a server backend may have started a server */
		return RTP_EXIT_ERROR;
	}
	r->opened = true;
	if (c->ops->run) {
		/* A server backend: one cycle per period, the server's buffering apart. */
	} else if (c->cfg.period == 0 || c->cfg.buffer < 2 * (uint64_t)c->cfg.period) {
		rtp_error("device granted %u frames x %u periods: need at least two periods",
			  c->cfg.period, c->cfg.periods);
		return RTP_EXIT_ERROR;
	}
	fb = (size_t)snd_pcm_format_physical_width((snd_pcm_format_t)c->cfg.format) / 8 * c->cfg.channels;
	c->silence = calloc(c->cfg.period, fb ? fb : 1);
	if (!c->silence) {
		rtp_error("out of memory");
		return RTP_EXIT_ERROR;
	}
	snd_pcm_format_set_silence((snd_pcm_format_t)c->cfg.format, c->silence,
				   c->cfg.period * c->cfg.channels);
	rtp_hist_init(&c->lateness);
	rtp_hist_init(&c->margin);
	rtp_hist_init(&c->work);
	rtp_hist_init(&c->roundtrip);
	audio_dsp_init(&c->dsp);
	c->audio_cpu = r->o.cpu;
	if (r->o.stall_ns && c->audio_cpu < 0) {
		cpu_set_t online;

		c->audio_cpu = 0;
		if (!rtp_cpus_online(&online))
			for (i = 0; i < CPU_SETSIZE; i++)
				if (CPU_ISSET(i, &online))
					c->audio_cpu = i;	/* the last online CPU */
	}
	for (i = 0; i < AUDIO_MAX_STEPS; i++)
		c->steps[i].min_margin_ns = UINT64_MAX;
	return 0;
}

struct watch_state {
	struct audio_run *r;
	uint64_t step_deadline;
	uint64_t next_progress;
};

static const char *audio_watch(struct rtp_run *run, void *arg, uint64_t now, uint64_t *next)
{
	struct watch_state *ws = arg;
	struct audio_run *r = ws->r;
	struct audio_ctx *c = &r->c;
	int k, i;

	(void)run;
	if (__atomic_load_n(&c->done, __ATOMIC_ACQUIRE))
		return c->stop_why ? c->stop_why : "error";
	if (r->o.sweep) {
		k = __atomic_load_n(&c->step, __ATOMIC_ACQUIRE);
		/* PipeWire's profiler reports an xrun up to a second late: its step may be past */
		for (i = 0; i <= k && !RTP_LD(&c->steps[i].xruns); i++)
			;
		if (i <= k) {
			r->first_xrun_step = i;
			if (!r->o.co.quiet)
				printf("  sweep: first xrun at %.1f %% DSP load\n", c->steps[i].load_pct);
			return "sweep (first xrun)";
		}
		if (now >= ws->step_deadline) {
			if (!r->o.co.quiet)
				printf("  sweep: %.1f %% DSP load: no xrun in %.1f s\n",
				       c->steps[k].load_pct, (double)r->o.step_ns / 1e9);
			if (k + 1 >= c->nsteps)
				return "sweep (all steps clean)";
			set_step(r, k + 1, now);
			ws->step_deadline += r->o.step_ns;
		}
		*next = ws->step_deadline;
	}
	if (!r->o.co.quiet && !r->o.sweep && isatty(STDOUT_FILENO)) {
		if (now >= ws->next_progress) {
			progress(r, now);
			ws->next_progress += 1000000000ull;
		}
		if (ws->next_progress < *next)
			*next = ws->next_progress;
	}
	return NULL;
}

static int audio_audio(struct rtp_run *run)
{
	struct audio_run *r = run->b;
	struct audio_ctx *c = &r->c;
	struct watch_state ws = { .r = r };
	struct rtp_watch w = { .check = audio_watch, .arg = &ws, .tick_ns = TICK_NS };
	pthread_attr_t attr;
	int ret, i, setup_err = 0;

	rtp_gate_init(&c->gate);
	/* Small stacks of their own: mlockall(MCL_FUTURE) locks all of a stack (8 MiB by default). */
	ret = rtp_stack_alloc(&c->stack, AUDIO_STACK_BYTES);
	if (!ret && r->o.stall_ns)
		ret = rtp_stack_alloc(&c->stall_stack, AUDIO_STACK_BYTES);
	pthread_attr_init(&attr);
	if (!ret)
		ret = rtp_stack_attr(&c->stack, &attr);
	if (!ret)
		ret = rtp_gate_create(&c->gate, &c->th, &attr, audio_thread_main, c);
	pthread_attr_destroy(&attr);
	if (ret) {
		rtp_gate_create_error(NULL, "the audio thread", ret);
		rtp_gate_destroy(&c->gate);
		return RTP_EXIT_ERROR;
	}
	if (r->o.stall_ns) {
		/* Not through the gate: it waits for c->go, so a failure here cannot hang. */
		pthread_attr_init(&attr);
		ret = -rtp_stack_attr(&c->stall_stack, &attr);
		if (!ret)
			ret = pthread_create(&c->stall_th, &attr, audio_stall_main, c);
		pthread_attr_destroy(&attr);
		if (ret) {
			rtp_gate_create_error(NULL, "the stall thread (--plant-stall)", -ret);
			setup_err = -ret;
		} else {
			c->stall_started = true;
		}
	}
	if (rtp_gate_ready(&c->gate)) {
		rtp_error("cannot %s: %s", c->err_what, strerror(-c->err));
		setup_err = c->err;
	}
	if (setup_err)
		__atomic_store_n(&c->stop, 1, __ATOMIC_RELEASE);
	/* The load per step, now that the DSP speed is known. */
	if (r->o.sweep) {
		c->nsteps = (int)floor((r->o.sweep_max_pct - r->o.dsp_load_pct) / r->o.sweep_step_pct + 1e-9);
		for (i = 0; i < c->nsteps; i++)
			c->steps[i].load_pct = r->o.dsp_load_pct + (i + 1) * r->o.sweep_step_pct;
	} else {
		c->nsteps = 1;
		c->steps[0].load_pct = r->o.dsp_load_pct;
	}
	for (i = 0; i < c->nsteps; i++)
		c->steps[i].units = audio_dsp_units(&c->dsp, c->steps[i].load_pct, period_ns(r));
	c->start_ns = rtp_now_ns(CLOCK_MONOTONIC);
	set_step(r, 0, c->start_ns);
	if (!r->o.co.quiet && !setup_err) {
		char run_for[48], shape[64];

		if (r->o.sweep)
			snprintf(run_for, sizeof(run_for), "a DSP load sweep");
		else if (r->o.co.duration_ns)
			snprintf(run_for, sizeof(run_for), "for %.1f s", (double)r->o.co.duration_ns / 1e9);
		else
			snprintf(run_for, sizeof(run_for), "until SIGINT/SIGTERM");
		audio_shape(shape, sizeof(shape), &c->cfg);
		printf("%s: %s, %s, %u Hz; running %s\n", TOOL, backend_label(r), shape, c->cfg.rate,
		       run_for);
		if (r->backend_note[0])
			printf("  note: %s\n", r->backend_note);
		if (r->o.sweep)
			printf("  sweep: %d steps of %.1f s, %.1f %% .. %.1f %% DSP load\n", c->nsteps,
			       (double)r->o.step_ns / 1e9, c->steps[0].load_pct,
			       c->steps[c->nsteps - 1].load_pct);
		fflush(stdout);
	}
	rtp_gate_open(&c->gate, !setup_err);	/* go, or leave */
	__atomic_store_n(&c->go, 1, __ATOMIC_RELEASE);
	if (setup_err) {
		pthread_join(c->th, NULL);
		if (c->stall_started)
			pthread_join(c->stall_th, NULL);
		rtp_gate_destroy(&c->gate);
		return RTP_EXIT_ERROR;
	}
	if (r->o.co.duration_ns)
		w.deadline_ns = c->start_ns + r->o.co.duration_ns;
	ws.step_deadline = c->start_ns + r->o.step_ns;
	ws.next_progress = c->start_ns + 1000000000ull;
	rtp_run_supervise(run, &w);
	__atomic_store_n(&c->stop, 1, __ATOMIC_RELEASE);
	pthread_join(c->th, NULL);
	if (c->stall_started)
		pthread_join(c->stall_th, NULL);
	c->stack_peak = rtp_stack_peak(&c->stack);
	rtp_gate_destroy(&c->gate);
	if (c->err && c->err_detail[0])
		rtp_error("%s", c->err_detail);
	else if (c->err && !strcmp(run->stopped_by, "error"))
		rtp_error("the audio thread could not %s: %s", c->err_what, snd_strerror(c->err));

	/* A device that swallows audio faster than real time measures nothing. */
	{
		uint64_t written = c->prefilled + c->periods * c->cfg.period;
		uint64_t restarts = c->xruns + c->suspends + 1;
		double elapsed = (double)(c->end_ns - c->start_ns) / 1e9;
		double allowed = elapsed + (double)restarts * (double)buffer_ns(r) / 1e9;

		r->consumed_s = (double)audio_frames_ns(written, c->cfg.rate) / 1e9;
		r->elapsed_s = elapsed;
		r->consumption_bad = r->consumed_s > 1.5 * allowed + 0.01;
	}
	run->duration_s = (double)(c->end_ns - c->start_ns) / 1e9;
	return 0;
}

static void audio_teardown(struct rtp_run *run)
{
	struct audio_run *r = run->b;

	if (r->opened)
		r->c.ops->close(&r->c);
	r->opened = false;
	free(r->c.silence);
	r->c.silence = NULL;
	rtp_stack_free(&r->c.stack);
	rtp_stack_free(&r->c.stall_stack);
}

static void audio_json_resources(struct rtp_run *run, struct rtp_json *j)
{
	struct audio_run *r = run->b;

	rtp_json_uint(j, "hist_bytes_per_thread", 4 * sizeof(struct rtp_hist));
	rtp_json_uint(j, "stack_bytes_per_thread", rtp_stack_size(&r->c.stack));
	rtp_json_uint(j, "stack_peak_bytes", r->c.stack_peak);
}

/* --explain: the audio thread's CPU; unpinned, all it may use. */
static const char *audio_explain_cpus(struct rtp_run *run, cpu_set_t *set)
{
	struct audio_run *r = run->b;

	if (r->c.audio_cpu >= 0)
		CPU_SET(r->c.audio_cpu, set);
	else if (sched_getaffinity(0, sizeof(*set), set))
		CPU_ZERO(set);
	return NULL;
}

/* --explain: the audio thread's p50 lateness (an xrun's window is a late wake-up too) */
static uint64_t audio_explain_base(struct rtp_run *run, int tid, const char *what)
{
	struct audio_run *r = run->b;

	(void)tid;
	(void)what;
	return rtp_hist_percentile(&r->c.lateness, 50);
}

const struct rtp_bench_ops audio_ops = {
	.tool = TOOL,
	.duration_help = "until SIGINT/SIGTERM; with --sweep, its steps",
	RTP_BENCH_OPTIONS(audio, struct audio_run, struct audio_opts),
	.rt_prio = audio_rt_prio,
	.setup = audio_setup,
	.run = audio_audio,
	.decide = audio_decide,
	.takes = RTP_TAKES_MAXLAT,	/* the worst wake-up lateness (rtproof run --profile audio) */
	.summary = audio_summary,
	.teardown = audio_teardown,
	.params = audio_json_params,
	.skip_params = audio_skip_params,
	.metrics = audio_json_metrics,
	.events = audio_json_events,
	.explain_cpus = audio_explain_cpus,
	.explain_base = audio_explain_base,
	.resources = audio_json_resources,
};

/* The options alone (the unit and fuzz tests): the ops table's parse and check. */
int audio_parse(struct audio_opts *o, int argc, char **argv)
{
	return rtp_run_parse(&audio_ops, o, argc, argv);
}

int audio_main(int argc, char **argv)
{
	return rtp_run_tool(&audio_ops, argc, argv);
}
