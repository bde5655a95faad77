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

#define STACK_PREFAULT (64 * 1024)

static inline void step_max(uint64_t *p, uint64_t v)
{
	if (v > RTP_LD(p))
		RTP_ST(p, v);
}

static inline void step_min(uint64_t *p, uint64_t v)
{
	if (v < RTP_LD(p))
		RTP_ST(p, v);
}

/* An xrun or a suspend: count it, keep it in the list, recover, restart. */
static int event(struct audio_ctx *c, const struct audio_wake *w, int err)
{
	struct audio_step *s = &c->steps[__atomic_load_n(&c->step, __ATOMIC_RELAXED)];
	uint64_t lat = w->now_ns > w->t_avail_ns ? w->now_ns - w->t_avail_ns : 0;
	bool suspend = w->event == AUDIO_SUSPEND;
	int ret;

	if (suspend) {
		RTP_ST(&c->suspends, RTP_LD(&c->suspends) + 1);
	} else {
		RTP_ST(&c->xruns, RTP_LD(&c->xruns) + 1);
		RTP_ST(&s->xruns, RTP_LD(&s->xruns) + 1);
		c->xrun_total_ns += w->xrun_dur_ns;
		if (w->xrun_dur_ns > c->xrun_max_ns)
			c->xrun_max_ns = w->xrun_dur_ns;
		/* The wake-up that found the xrun was late: it shows in the histogram. */
		rtp_hist_record(&c->lateness, lat);
		rtp_hist_record(&c->margin, 0);
		step_max(&s->max_lateness_ns, lat);
		step_min(&s->min_margin_ns, 0);
	}
	if (c->nxrun < AUDIO_MAX_XRUNS) {
		struct audio_xrun *x = &c->xrun[c->nxrun++];
		uint64_t at = suspend ? w->now_ns : w->xrun_at_ns;

		x->at_ns = at > c->start_ns ? at - c->start_ns : 0;
		x->dur_ns = w->xrun_dur_ns;
		x->lateness_ns = lat;
		x->suspend = suspend;
	}
	ret = c->ops->recover(c, err);
	if (ret < 0)
		return ret;
	return c->ops->start(c);
}

static int run(struct audio_ctx *c)
{
	const uint64_t period = c->cfg.period;
	struct audio_wake w;
	uint64_t lat, margin, units, n, i, end;
	int ret;

	ret = c->ops->start(c);
	if (ret < 0) {
		c->err_what = "start the stream";
		return ret;
	}
	while (!__atomic_load_n(&c->stop, __ATOMIC_RELAXED)) {
		struct audio_step *s;

		ret = c->ops->wait(c, &w);
		if (ret == -EPIPE || ret == -ESTRPIPE) {
			ret = event(c, &w, ret);
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
		if (w.now_ns >= w.t_avail_ns) {
			lat = w.now_ns - w.t_avail_ns;
		} else {
			lat = 0;
			c->early++;
		}
		margin = w.t_dry_ns > w.now_ns ? w.t_dry_ns - w.now_ns : 0;
		rtp_hist_record(&c->lateness, lat);
		rtp_hist_record(&c->margin, margin);
		s = &c->steps[__atomic_load_n(&c->step, __ATOMIC_RELAXED)];
		RTP_ST(&s->wakeups, RTP_LD(&s->wakeups) + 1);
		step_max(&s->max_lateness_ns, lat);
		step_min(&s->min_margin_ns, margin);

		units = __atomic_load_n(&c->dsp_units, __ATOMIC_RELAXED);
		n = w.avail / period;
		for (i = 0; i < n; i++) {
			audio_dsp_run(&c->dsp, units);
			ret = c->ops->write(c, &w);
			if (ret < 0)
				break;
			RTP_ST(&c->periods, RTP_LD(&c->periods) + 1);
		}
		end = rtp_now_ns(CLOCK_MONOTONIC);
		rtp_hist_record(&c->work, end - w.now_ns);
		step_max(&s->max_work_ns, end - w.now_ns);
		if (ret == -EPIPE || ret == -ESTRPIPE) {
			ret = event(c, &w, ret);
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

	if (c->audio_cpu >= 0) {
		ret = rtp_pin_cpu(0, c->audio_cpu);
		if (ret) {
			c->err_what = "pin the audio thread to its CPU";
			return ret;
		}
	}
	ret = rtp_sched_set(0, &s);
	if (ret) {
		c->err_what = "set SCHED_FIFO";
		return ret;
	}
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	rtp_prefault_stack(STACK_PREFAULT);
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
	pthread_barrier_wait(&c->ready);	/* main checks err, sets the load */
	pthread_barrier_wait(&c->ready);	/* go */
	if (!c->err && !__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE))
		c->err = run(c);
	c->end_ns = rtp_now_ns(CLOCK_MONOTONIC);
	__atomic_store_n(&c->done, true, __ATOMIC_RELEASE);
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

	if (rtp_pin_cpu(0, c->audio_cpu) || rtp_sched_set(0, &s)) {
		pthread_barrier_wait(&c->ready);
		pthread_barrier_wait(&c->ready);
		return NULL;	/* main sees nstalls == 0 and says so */
	}
	rtp_prefault_stack(STACK_PREFAULT);
	pthread_barrier_wait(&c->ready);
	pthread_barrier_wait(&c->ready);
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
