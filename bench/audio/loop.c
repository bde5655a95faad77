// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The audio thread and the planted-stall thread.  Between wake-ups the
 * audio thread only reads the clock, asks the device for its state,
 * updates histograms and writes periods; no printf, malloc or locks.
 */
#include "audio.h"

#include <errno.h>
#include <sys/prctl.h>
#include <time.h>

#include "rt.h"
#include "run.h"

static int start(struct audio_ctx *c)
{
	int ret = c->ops->start(c);

	c->dry_ns = rtp_now_ns(CLOCK_MONOTONIC) + audio_frames_ns(c->cfg.buffer, c->cfg.rate);
	c->dry_counted = false;	/* a rough count until the first refill */
	return ret;
}

/*
 * The slack before a wake-up past the end of the queued audio (by this
 * program's count) is called an xrun the device did not report: the
 * device's own timing error.  At every in-time wake-up after a refill, the
 * device's t_dry is compared with the count made at the refill; the slack
 * is twice the largest difference seen plus a frame, at least a frame, at
 * most half a period (and half a period until 8 wake-ups have been seen).
 * Differences over half a period are events, not timing error: not learnt.
 */
static void learn_slack(struct audio_ctx *c, const struct audio_wake *w)
{
	uint64_t half = audio_frames_ns(c->cfg.period, c->cfg.rate) / 2;
	uint64_t frame = audio_frames_ns(1, c->cfg.rate), dev;

	if (!c->dry_counted || w->now_ns > c->dry_ns)
		return;
	dev = w->t_dry_ns > c->dry_ns ? w->t_dry_ns - c->dry_ns : c->dry_ns - w->t_dry_ns;
	if (dev > half)
		return;
	if (dev > c->dry_dev_max_ns)
		c->dry_dev_max_ns = dev;
	if (++c->dry_dev_n < 8)
		return;
	c->unreported_slack_ns = 2 * c->dry_dev_max_ns + frame;
	if (c->unreported_slack_ns > half)
		c->unreported_slack_ns = half;
}

const char *audio_cause_name(enum audio_xrun_cause cause)
{
	switch (cause) {
	case AUDIO_CAUSE_LATE_WAKEUP:
		return "late-wakeup";
	case AUDIO_CAUSE_WORK:
		return "work-overran-margin";
	case AUDIO_CAUSE_OTHER_CLIENT:
		return "other-client";
	case AUDIO_CAUSE_SERVER:
		return "server";
	default:
		return "device";
	}
}

void audio_record_call(struct audio_ctx *c, struct audio_step *s, uint64_t lateness_ns, uint64_t margin_ns,
		       uint64_t work_ns, uint64_t at_ns)
{
	rtp_hist_record_at(&c->lateness, lateness_ns, at_ns);
	rtp_hist_record_at(&c->margin, margin_ns, at_ns);
	rtp_hist_record_at(&c->work, work_ns, at_ns);
	rtp_relaxed_max(&s->max_lateness_ns, lateness_ns);
	rtp_relaxed_min(&s->min_margin_ns, margin_ns);
	rtp_relaxed_max(&s->max_work_ns, work_ns);
	RTP_ST(&c->wakeups, RTP_LD(&c->wakeups) + 1);
	RTP_ST(&s->wakeups, RTP_LD(&s->wakeups) + 1);
	RTP_ST(&c->periods, RTP_LD(&c->periods) + 1);
}

enum audio_xrun_cause audio_backlog_cause(uint64_t prev_work_ns, uint64_t cycle_ns,
					  enum audio_xrun_cause prev_cause)
{
	return 2 * prev_work_ns >= cycle_ns ? AUDIO_CAUSE_WORK : prev_cause;
}

enum audio_xrun_cause audio_overrun_cause(bool backlog, enum audio_xrun_cause backlog_cause,
					  bool past_deadline, bool woken_late, uint64_t lateness_ns,
					  uint64_t work_ns)
{
	if (backlog)
		return backlog_cause;
	return past_deadline || woken_late || lateness_ns >= work_ns ? AUDIO_CAUSE_LATE_WAKEUP : AUDIO_CAUSE_WORK;
}

void audio_judge_call(struct audio_prev_call *prev, uint64_t due, uint64_t now, uint64_t end,
		      uint64_t period, uint64_t skipped, uint64_t lat, struct audio_call *k)
{
	uint64_t next = due + period;
	/*
	 * Was the previous call still working when the first cycle of this
	 * call (the first missed one, if any) began?  Then any lateness here is
	 * this call's own backlog.  If not, cycles missed are a wake-up that
	 * many cycles late (its deadline long gone).
	 */
	enum audio_xrun_cause backlog_cause = audio_backlog_cause(prev->work_ns, period, prev->cause);

	k->backlog = prev->have && prev->end_ns > due - skipped * period;
	k->lat = lat;
	k->margin = next > now ? next - now : 0;
	k->work = end > now ? end - now : 0;
	k->woken_late = skipped && !k->backlog;
	if (k->woken_late) {
		k->lat += skipped * period;
		k->margin = 0;
	}
	prev->have = true;
	prev->end_ns = end;
	prev->cause = AUDIO_CAUSE_WORK;
	prev->work_ns = k->work;
	k->overran = end > next || k->woken_late;
	k->cause = k->overran ? audio_overrun_cause(k->backlog, backlog_cause, now >= next, k->woken_late,
						    k->lat, k->work) : AUDIO_CAUSE_WORK;
}

enum audio_xrun_cause audio_xrun_cause(const struct audio_xrun_facts *f)
{
	if (f->by_write) {
		/* The wake-up itself was past what the buffer absorbs. */
		if (f->lateness_ns >= f->slack_ns)
			return AUDIO_CAUSE_LATE_WAKEUP;
		/*
		 * In time, but the work outlasted the audio still queued: the
		 * larger share of the slack is to blame, the wake-up's lateness
		 * or the work (a wake-up that left 30 us, then 40 us of work,
		 * is a late wake-up).
		 */
		if (f->work_ns >= f->margin_ns)
			return f->lateness_ns >= f->work_ns ? AUDIO_CAUSE_LATE_WAKEUP : AUDIO_CAUSE_WORK;
		return AUDIO_CAUSE_DEVICE;
	}
	/* Found by the wake-up: was the thread still working when the audio ran out? */
	if (f->busy_until_ns >= f->stop_ns)
		return AUDIO_CAUSE_WORK;
	/* The device stopped well before its own timestamps said it would. */
	if (f->stop_ns + f->tolerance_ns < f->expected_dry_ns)
		return AUDIO_CAUSE_DEVICE;
	return AUDIO_CAUSE_LATE_WAKEUP;
}

/*
 * Within the window (a buffer and a period: a device notices an xrun at a
 * pointer update) and, by the device's own stamp, stopped while the audio
 * written since was still queued: the same xrun, noticed late.  A stream
 * that stopped after that audio ran out ran dry again: a second xrun.  With
 * nothing written since, there was nothing to run dry on: the same xrun,
 * whenever the device stamped it (its timer starved too, then caught up).
 */
bool audio_same_xrun(uint64_t unreported_at_ns, uint64_t now_ns, uint64_t window_ns,
		     uint64_t stop_ns, bool queued_since, uint64_t queued_until_ns)
{
	return unreported_at_ns && now_ns - unreported_at_ns <= window_ns &&
	       (!queued_since || stop_ns < queued_until_ns);
}

/* Who found the xrun: the wake-up (the device's report or this program's count), or a write. */
enum found { FOUND_WAIT, FOUND_COUNT, FOUND_WRITE };

/*
 * Counts an xrun or a suspend and keeps it in the list.  FOUND_COUNT
 * (unreported): the device still says it is running, but by its own
 * earlier timestamps the queued audio ran out before this wake-up (a stall
 * longer than the buffer can wrap the hardware pointer unseen, and ALSA
 * then plays stale audio).
 *
 * One lateness and one margin per wake-up: a wake-up that finds the xrun
 * records its own (with no margin left) here; an xrun found by a write has
 * had its wake-up's recorded already (wake gives them, with the work time
 * up to the failed write, for the xrun's cause).
 */
static int count(struct audio_ctx *c, const struct audio_wake *w, enum found how,
		 const struct audio_xrun_facts *wake, uint64_t *lat_out)
{
	int idx = -1;

	struct audio_step *s = &c->steps[__atomic_load_n(&c->step, __ATOMIC_RELAXED)];
	uint64_t held = audio_frames_ns(c->cfg.buffer - c->cfg.period, c->cfg.rate);
	bool suspend = w->event == AUDIO_SUSPEND, unreported = how == FOUND_COUNT;
	struct audio_xrun_facts f = { 0 };
	enum audio_xrun_cause cause;
	uint64_t gap, lat;

	if (how == FOUND_WRITE) {
		f = *wake;
		lat = f.lateness_ns;
	} else {
		uint64_t due = unreported ? UINT64_MAX : w->t_avail_ns;

		/*
		 * The period was due a buffer-less-a-period before the audio ran
		 * out.  A device may notice the xrun late (its interrupt or timer
		 * starved too): then our own count of when the audio ran out is
		 * the earlier.
		 */
		if (!suspend && c->dry_ns > held && c->dry_ns - held < due)
			due = c->dry_ns - held;
		if (due == UINT64_MAX)
			due = w->now_ns;
		lat = w->now_ns > due ? w->now_ns - due : 0;
		if (!suspend) {
			/* The wake-up that found the xrun: it shows in the histogram. */
			rtp_hist_record_at(&c->lateness, lat, w->now_ns);
			rtp_hist_record_at(&c->margin, 0, w->now_ns);
			rtp_relaxed_max(&s->max_lateness_ns, lat);
			rtp_relaxed_min(&s->min_margin_ns, 0);
		}
		/* --explain: every xrun, from when the period was due to the wake-up */
		if (!suspend && lat && c->run && c->run->ex)
			rtp_explain_note(c->run->ex, c->audio_cpu, 0, due, w->now_ns, "xrun");
		f.lateness_ns = lat;
		f.slack_ns = held;
		f.stop_ns = unreported ? c->dry_ns : w->xrun_at_ns;
		f.busy_until_ns = c->busy_until_ns;
		f.expected_dry_ns = c->dry_ns;
		f.tolerance_ns = audio_frames_ns(c->cfg.period, c->cfg.rate);
	}
	if (lat_out)
		*lat_out = lat;
	cause = suspend ? AUDIO_CAUSE_DEVICE : audio_xrun_cause(&f);
	gap = !suspend && w->now_ns > c->dry_ns ? w->now_ns - c->dry_ns : 0;

	/*
	 * The device reporting, soon after, an xrun we counted unreported: the
	 * same one, noticed late (the pointer update caught up).  Merge them.
	 */
	if (!suspend && !unreported &&
	    audio_same_xrun(c->unreported_at_ns, w->now_ns, c->merge_window_ns, w->xrun_at_ns,
			    c->queued_since_unreported, c->dry_ns)) {
		c->unreported_at_ns = 0;
		c->xruns_unreported--;
		c->xrun_total_ns += w->xrun_dur_ns;
		if (w->xrun_dur_ns > c->xrun_max_ns)
			c->xrun_max_ns = w->xrun_dur_ns;
		idx = c->unreported_idx;
		if (idx >= 0) {
			c->xrun[idx].dur_ns = w->xrun_dur_ns;
			c->xrun[idx].unreported = false;
			c->xrun[idx].merged = true;
		}
		c->unreported_idx = -1;
		return idx;
	}
	c->unreported_at_ns = unreported ? w->now_ns : 0;
	c->queued_since_unreported = false;
	c->unreported_idx = -1;

	if (suspend) {
		RTP_ST(&c->suspends, RTP_LD(&c->suspends) + 1);
	} else {
		RTP_ST(&c->xruns, RTP_LD(&c->xruns) + 1);
		RTP_ST(&s->xruns, RTP_LD(&s->xruns) + 1);
		if (unreported)
			c->xruns_unreported++;
		c->xrun_causes[cause]++;
		c->xrun_total_ns += w->xrun_dur_ns;
		c->xrun_gap_total_ns += gap;
		if (w->xrun_dur_ns > c->xrun_max_ns)
			c->xrun_max_ns = w->xrun_dur_ns;
	}
	if (c->nxrun < AUDIO_MAX_XRUNS) {
		struct audio_xrun *x = &c->xrun[c->nxrun++];
		uint64_t at = suspend ? w->now_ns : unreported ? c->dry_ns : w->xrun_at_ns;

		x->at_ns = at > c->start_ns ? at - c->start_ns : 0;
		x->dur_ns = w->xrun_dur_ns;
		x->gap_ns = gap;
		x->lateness_ns = lat;
		x->margin_ns = how == FOUND_WRITE ? f.margin_ns : 0;
		x->work_ns = how == FOUND_WRITE ? f.work_ns : 0;
		x->cause = cause;
		x->suspend = suspend;
		x->unreported = unreported;
		x->merged = false;
		x->dry_abs_ns = c->dry_ns;
		idx = c->nxrun - 1;
		if (unreported)
			c->unreported_idx = idx;
	}
	return suspend ? -1 : idx;
}

/* An xrun or a suspend the device reported: count, recover, restart. */
static int event(struct audio_ctx *c, const struct audio_wake *w, int err, enum found how,
		 const struct audio_xrun_facts *wake)
{
	int idx, ret;
	uint64_t t;

	idx = count(c, w, how, wake, NULL);
	ret = c->ops->recover(c, err);
	if (ret < 0)
		return ret;
	ret = start(c);
	/* The silence lasts until the restarted stream plays again. */
	t = rtp_now_ns(CLOCK_MONOTONIC);
	if (idx >= 0 && t > c->xrun[idx].dry_abs_ns) {
		struct audio_xrun *x = &c->xrun[idx];
		uint64_t g = t - x->dry_abs_ns;

		c->xrun_gap_total_ns += g - x->gap_ns;
		x->gap_ns = g;
	}
	return ret;
}

static int run(struct audio_ctx *c)
{
	const uint64_t period = c->cfg.period;
	const uint64_t held = audio_frames_ns(c->cfg.buffer - period, c->cfg.rate);
	struct audio_wake w, xw;
	uint64_t lat, margin, units, n, i, end;
	int ret;

	c->unreported_slack_ns = audio_frames_ns(period, c->cfg.rate) / 2;
	c->merge_window_ns = audio_frames_ns(c->cfg.buffer + period, c->cfg.rate);
	c->unreported_idx = -1;
	ret = start(c);
	if (ret < 0) {
		c->err_what = "start the stream";
		return ret;
	}
	while (!__atomic_load_n(&c->stop, __ATOMIC_RELAXED)) {
		struct audio_step *s;
		struct audio_xrun_facts wake = { .by_write = true, .slack_ns = held };

		ret = c->ops->wait(c, &w);
		if (ret == -EPIPE || ret == -ESTRPIPE) {
			if (w.event == AUDIO_XRUN) {	/* a wake-up, late: its lateness is recorded */
				s = &c->steps[__atomic_load_n(&c->step, __ATOMIC_RELAXED)];
				RTP_ST(&c->wakeups, RTP_LD(&c->wakeups) + 1);
				RTP_ST(&s->wakeups, RTP_LD(&s->wakeups) + 1);
			}
			ret = event(c, &w, ret, FOUND_WAIT, NULL);
			if (ret < 0) {
				c->err_what = "recover from an xrun";
				return ret;
			}
			continue;
		}
		if (ret < 0) {
			c->err_what = "wait for the device";
			return ret;
		}
		RTP_ST(&c->wakeups, RTP_LD(&c->wakeups) + 1);
		if (w.avail < period) {
			RTP_ST(&c->spurious, RTP_LD(&c->spurious) + 1);
			continue;
		}
		s = &c->steps[__atomic_load_n(&c->step, __ATOMIC_RELAXED)];
		RTP_ST(&s->wakeups, RTP_LD(&s->wakeups) + 1);
		if (__builtin_expect(w.now_ns > c->dry_ns + c->unreported_slack_ns, 0)) {
			w.xrun_dur_ns = 0;	/* the device saw nothing */
			count(c, &w, FOUND_COUNT, NULL, &wake.lateness_ns);
			wake.margin_ns = 0;
		} else {
			if (w.now_ns >= w.t_avail_ns) {
				lat = w.now_ns - w.t_avail_ns;
			} else {
				lat = 0;
				c->early++;
			}
			if (__builtin_expect(lat > c->run->explain_ns, 0))
				rtp_explain_note(c->run->ex, c->audio_cpu, 0, w.t_avail_ns, w.now_ns,
						 "lateness");
			margin = w.t_dry_ns > w.now_ns ? w.t_dry_ns - w.now_ns : 0;
			rtp_hist_record_at(&c->lateness, lat, w.now_ns);
			rtp_hist_record_at(&c->margin, margin, w.now_ns);
			rtp_relaxed_max(&s->max_lateness_ns, lat);
			rtp_relaxed_min(&s->min_margin_ns, margin);
			wake.lateness_ns = lat;
			wake.margin_ns = margin;
			learn_slack(c, &w);
		}

		units = __atomic_load_n(&c->dsp_units, __ATOMIC_RELAXED);
		n = w.avail / period;
		for (i = 0; i < n; i++) {
			audio_dsp_run(&c->dsp, units);
			ret = c->ops->write(c, &xw);	/* xw: what a failed write saw */
			if (ret < 0)
				break;
			RTP_ST(&c->periods, RTP_LD(&c->periods) + 1);
		}
		if (i) {
			c->dry_ns = w.t_dry_ns + audio_frames_ns(i * period, c->cfg.rate);
			c->dry_counted = true;
			c->queued_since_unreported = true;
		}
		end = rtp_now_ns(CLOCK_MONOTONIC);
		c->busy_until_ns = end;
		rtp_hist_record_at(&c->work, end - w.now_ns, w.now_ns);
		rtp_relaxed_max(&s->max_work_ns, end - w.now_ns);
		if (ret == -EPIPE || ret == -ESTRPIPE) {
			wake.work_ns = xw.now_ns > w.now_ns ? xw.now_ns - w.now_ns : 0;
			ret = event(c, &xw, ret, FOUND_WRITE, &wake);
			if (ret < 0) {
				c->err_what = "recover from an xrun";
				return ret;
			}
		} else if (ret < 0) {
			c->err_what = "write to the device";
			return ret;
		}
	}
	return 0;
}

static int setup(struct audio_ctx *c)
{
	struct rtp_sched s = { .policy = SCHED_FIFO, .priority = c->o->priority };
	int ret;

	ret = rtp_thread_setup(c->audio_cpu, NULL, &s, RTP_THREAD_TIMERSLACK, 0 /* stack painted */,
			       &c->err_what);
	if (ret)
		return ret;
	/* Calibrate where the work will run: this CPU, this priority. */
	ret = audio_dsp_calibrate(&c->dsp);
	if (ret)
		c->err_what = "calibrate the DSP load";
	return ret;
}

void *audio_thread_main(void *arg)
{
	struct audio_ctx *c = arg;

	c->err = setup(c);
	/* Main checks err and sets the load, then opens the gate: go, or leave. */
	if (rtp_gate_pass(&c->gate, c->err) && !__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE))
		c->err = c->ops->run ? c->ops->run(c) : run(c);
	if (!c->end_ns)	/* a server backend may have ended the run before its last reports */
		c->end_ns = rtp_now_ns(CLOCK_MONOTONIC);
	__atomic_store_n(&c->done, true, __ATOMIC_RELEASE);
	rtp_run_wake(c->run);
	return NULL;
}

/*
 * --plant-stall: the planted truth.  A SCHED_FIFO 99 thread on the audio
 * thread's CPU spins for stall_ns every stall_every_ns (the first half a
 * period in), so the audio thread cannot run: when the stall outlasts the
 * buffer, exactly one xrun per stall must be seen.
 */
void *audio_stall_main(void *arg)
{
	struct audio_ctx *c = arg;
	const struct audio_opts *o = c->o;
	struct rtp_sched s = { .policy = SCHED_FIFO, .priority = 99 };
	uint64_t next, now, until;
	struct timespec ts;
	int n;

	pthread_setname_np(pthread_self(), "rtp-stall");	/* what --explain names */
	if (rtp_pin_cpu(0, c->audio_cpu) || rtp_sched_set(0, &s)) {
		__atomic_store_n(&c->stall_err, 1, __ATOMIC_RELEASE);
		return NULL;	/* main reports it: no stall was planted */
	}
	/* no prefault: its stack was painted, so faulted in, when mapped */
	/* Wait for the start (polling: this thread takes no part in the barrier). */
	ts = rtp_ns_ts(1000000);
	while (!__atomic_load_n(&c->go, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE))
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
	next = c->start_ns + o->stall_every_ns / 2;
	while (!__atomic_load_n(&c->stop, __ATOMIC_RELAXED)) {
		now = rtp_now_ns(CLOCK_MONOTONIC);
		if (now < next) {
			/* Sleep in slices to notice the stop flag. */
			uint64_t wake = next - now > 50000000ull ? now + 50000000ull : next;

			ts = rtp_ns_ts(wake);
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
			continue;
		}
		n = __atomic_load_n(&c->nstalls, __ATOMIC_RELAXED);
		if (n >= AUDIO_MAX_STALLS)
			break;
		now = rtp_now_ns(CLOCK_MONOTONIC);
		until = now + o->stall_ns;
		while (rtp_now_ns(CLOCK_MONOTONIC) < until)
			;
		c->stall_at[n] = now - c->start_ns;
		c->stall_len[n] = rtp_now_ns(CLOCK_MONOTONIC) - now;
		__atomic_store_n(&c->nstalls, n + 1, __ATOMIC_RELEASE);
		next += o->stall_every_ns;
	}
	return NULL;
}
