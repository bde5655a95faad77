// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The timer-paced backend: a virtual playback device for machines without
 * a sound card, like jackd's dummy driver.  Its hardware pointer advances
 * by one period at every period boundary of an absolute CLOCK_MONOTONIC
 * schedule that starts when the stream starts; the application's writes
 * go into a real ring buffer (as with mmap access).  The xrun rule is
 * ALSA's: the device needs the next frame and none was written, i.e. the
 * buffer ran dry.  Like ALSA, the stream then stops; recovery prefills
 * and restarts it on a new schedule.
 */
#include "audio.h"

#include <alsa/asoundlib.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run.h"

/* The device's position at now, in whole periods since t0. */
static uint64_t vdev_hw(const struct audio_vdev *v, uint64_t now)
{
	uint64_t hw = now > v->t0_ns ? audio_ns_frames(now - v->t0_ns, v->rate) : 0;

	return hw - hw % v->period;
}

/*
 * --hide-xruns, the buffer ran dry before now: the device played silence
 * and the next period the application writes goes in at the next period
 * boundary.  Returns that position (frames since t0).
 */
static uint64_t vdev_resume_at(const struct audio_vdev *v, uint64_t now)
{
	return vdev_hw(v, now) + v->period;
}

static bool vdev_hiding(const struct audio_vdev *v, uint64_t now)
{
	return v->hide_xruns && now >= v->t0_ns + audio_frames_ns(v->written, v->rate);
}

void audio_vdev_hide(struct audio_vdev *v, uint64_t now)
{
	uint64_t dry = v->t0_ns + audio_frames_ns(v->written, v->rate), at;

	if (!vdev_hiding(v, now))
		return;
	at = vdev_resume_at(v, now);
	v->hidden++;
	v->hidden_ns += audio_frames_ns(at, v->rate) + v->t0_ns - dry;
	if (audio_frames_ns(at, v->rate) + v->t0_ns - dry > v->hidden_max_ns)
		v->hidden_max_ns = audio_frames_ns(at, v->rate) + v->t0_ns - dry;
	v->written = at;	/* silence played up to here */
}

void audio_vdev_state(const struct audio_vdev *v, uint64_t now, struct audio_wake *w)
{
	uint64_t written = vdev_hiding(v, now) ? vdev_resume_at(v, now) : v->written;
	uint64_t dry = v->t0_ns + audio_frames_ns(written, v->rate);
	uint64_t free_from = written + v->period - v->buffer;	/* written >= buffer */
	uint64_t hw;

	w->now_ns = now;
	w->t_dry_ns = dry;
	w->t_avail_ns = v->t0_ns + audio_frames_ns(free_from, v->rate);
	w->xrun_at_ns = w->xrun_dur_ns = 0;
	if (now >= dry) {
		w->event = AUDIO_XRUN;
		w->xrun_at_ns = dry;
		w->xrun_dur_ns = now - dry;
		w->avail = v->buffer;
		return;
	}
	w->event = AUDIO_OK;
	hw = vdev_hw(v, now);
	w->avail = v->buffer - (written - hw);
}

static int timer_open(struct audio_ctx *c, char *why, size_t len)
{
	const struct audio_opts *o = c->o;
	struct audio_vdev *v = &c->vdev;
	int width = snd_pcm_format_physical_width((snd_pcm_format_t)o->format);

	if (width <= 0) {
		snprintf(why, len, "format %s has no sample width", o->format_name);
		return -EINVAL;
	}
	memset(v, 0, sizeof(*v));
	v->rate = o->rate;
	v->capture = o->capture;
	v->period = o->period;
	v->buffer = (uint64_t)o->period * o->periods;
	v->hide_xruns = o->hide_xruns;
	v->frame_bytes = (size_t)width / 8 * o->channels;
	if (!v->frame_bytes)
		v->frame_bytes = 1;
	v->ring = calloc(v->buffer, v->frame_bytes);
	if (!v->ring) {
		snprintf(why, len, "out of memory for the virtual buffer");
		return -ENOMEM;
	}
	c->cfg.rate = o->rate;
	c->cfg.channels = o->channels;
	c->cfg.format = o->format;
	c->cfg.period = o->period;
	c->cfg.periods = o->periods;
	c->cfg.buffer = v->buffer;
	c->cfg.access = "virtual";
	snprintf(c->cfg.pcm_name, sizeof(c->cfg.pcm_name), "timer");
	snprintf(c->cfg.card, sizeof(c->cfg.card), "virtual device paced by CLOCK_MONOTONIC");
	return 0;
}

static int timer_start(struct audio_ctx *c)
{
	struct audio_vdev *v = &c->vdev;

	memset(v->ring, 0, v->buffer * v->frame_bytes);	/* prefill / empty */
	v->written = v->buffer;
	if (!v->capture)
		c->prefilled += v->buffer;
	v->t0_ns = rtp_now_ns(CLOCK_MONOTONIC);			/* explicit start */
	return 0;
}

static int timer_wait(struct audio_ctx *c, struct audio_wake *w)
{
	struct audio_vdev *v = &c->vdev;
	struct timespec ts;

	for (;;) {
		audio_vdev_state(v, rtp_now_ns(CLOCK_MONOTONIC), w);
		if (w->event != AUDIO_OK || w->avail >= v->period)
			return w->event == AUDIO_XRUN ? -EPIPE : 0;
		ts = rtp_ns_ts(w->t_avail_ns);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
	}
}

static int timer_write(struct audio_ctx *c, struct audio_wake *w)
{
	struct audio_vdev *v = &c->vdev;
	uint64_t off = v->written % v->buffer;
	uint64_t now = rtp_now_ns(CLOCK_MONOTONIC);
	struct audio_wake st;

	audio_vdev_hide(v, now);
	audio_vdev_state(v, now, &st);
	if (st.event == AUDIO_XRUN) {
		*w = st;
		return -EPIPE;
	}
	/* The ring is a whole number of periods: a period never wraps. */
	if (v->capture)
		memcpy(c->silence, v->ring + off * v->frame_bytes, (size_t)v->period * v->frame_bytes);
	else
		memcpy(v->ring + off * v->frame_bytes, c->silence, (size_t)v->period * v->frame_bytes);
	v->written += v->period;
	return 0;
}

static int timer_recover(struct audio_ctx *c, int err)
{
	(void)c;
	(void)err;
	return 0;
}

static void timer_close(struct audio_ctx *c)
{
	free(c->vdev.ring);
	c->vdev.ring = NULL;
}

const struct audio_backend_ops audio_timer_ops = {
	.name = "timer",
	.label = "timer backend (virtual device, no sound card)",
	.tag = " [timer backend: virtual device]",
	.timing = "virtual device: exact, from its schedule",
	.exact = true,
	.open = timer_open,
	.start = timer_start,
	.wait = timer_wait,
	.write = timer_write,
	.recover = timer_recover,
	.close = timer_close,
};
