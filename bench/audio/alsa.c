// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ALSA backend.  Playback of silence (or capture) with the hardware parameters
 * asked for (the granted ones are reported), avail_min = one period, an
 * explicit start after a full prefill, and status timestamps on
 * CLOCK_MONOTONIC, so that each wake-up can be placed against the moment
 * the period became free: tstamp - (avail - period) / rate.
 */
#include "audio.h"

#include <alsa/asoundlib.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "run.h"

struct alsa_dev {
	snd_pcm_t *pcm;
	snd_pcm_status_t *st;
	bool mmap;
	bool capture;
	int wait_ms;
};

static uint64_t ts_ns(const snd_htimestamp_t *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000ull + (uint64_t)ts->tv_nsec;
}

#define TRY(call, what)								\
	do {									\
		err = (call);							\
		if (err < 0) {							\
			snprintf(why, len, "ALSA device '%s': cannot set %s: %s",	\
				 o->device, what, snd_strerror(err));		\
			goto out_close;						\
		}								\
	} while (0)

static int alsa_open(struct audio_ctx *c, char *why, size_t len)
{
	const struct audio_opts *o = c->o;
	snd_pcm_hw_params_t *hw;
	snd_pcm_sw_params_t *sw;
	snd_pcm_info_t *info;
	snd_pcm_uframes_t period, buffer, boundary;
	snd_pcm_format_t fmt;
	unsigned rate, periods, channels;
	struct alsa_dev *d;
	int err, dir = 0;

	d = calloc(1, sizeof(*d));
	if (!d) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	d->capture = o->capture;
	err = snd_pcm_open(&d->pcm, o->device, o->capture ? SND_PCM_STREAM_CAPTURE :
			   SND_PCM_STREAM_PLAYBACK, 0);
	if (err < 0) {
		snprintf(why, len, "cannot open ALSA device '%s': %s", o->device, snd_strerror(err));
		c->cannot_open = true;
		free(d);
		return err;
	}
	snd_pcm_hw_params_alloca(&hw);
	snd_pcm_sw_params_alloca(&sw);
	snd_pcm_info_alloca(&info);
	TRY(snd_pcm_hw_params_any(d->pcm, hw), "any hardware parameters");
	d->mmap = o->access == AUDIO_ACCESS_MMAP;
	TRY(snd_pcm_hw_params_set_access(d->pcm, hw, d->mmap ? SND_PCM_ACCESS_MMAP_INTERLEAVED :
					 SND_PCM_ACCESS_RW_INTERLEAVED),
	    d->mmap ? "mmap access" : "read/write access");
	TRY(snd_pcm_hw_params_set_format(d->pcm, hw, (snd_pcm_format_t)o->format), "the format");
	TRY(snd_pcm_hw_params_set_channels(d->pcm, hw, o->channels), "the channel count");
	rate = o->rate;
	TRY(snd_pcm_hw_params_set_rate_near(d->pcm, hw, &rate, &dir), "the rate");
	period = o->period;
	dir = 0;
	TRY(snd_pcm_hw_params_set_period_size_near(d->pcm, hw, &period, &dir), "the period size");
	periods = o->periods;
	dir = 0;
	TRY(snd_pcm_hw_params_set_periods_near(d->pcm, hw, &periods, &dir), "the number of periods");
	TRY(snd_pcm_hw_params(d->pcm, hw), "the hardware parameters");

	snd_pcm_hw_params_get_rate(hw, &rate, &dir);
	snd_pcm_hw_params_get_channels(hw, &channels);
	snd_pcm_hw_params_get_format(hw, &fmt);
	snd_pcm_hw_params_get_period_size(hw, &period, &dir);
	snd_pcm_hw_params_get_periods(hw, &periods, &dir);
	snd_pcm_hw_params_get_buffer_size(hw, &buffer);
	c->cfg.rate = rate;
	c->cfg.channels = channels;
	c->cfg.format = fmt;
	c->cfg.period = (unsigned)period;
	c->cfg.periods = periods;
	c->cfg.buffer = buffer;
	c->cfg.access = d->mmap ? "mmap" : "rw";
	snprintf(c->cfg.pcm_name, sizeof(c->cfg.pcm_name), "%s", snd_pcm_name(d->pcm));
	if (snd_pcm_info(d->pcm, info) >= 0)
		snprintf(c->cfg.card, sizeof(c->cfg.card), "card %d: %s (%s)",
			 snd_pcm_info_get_card(info), snd_pcm_info_get_id(info),
			 snd_pcm_info_get_name(info));
	else
		snprintf(c->cfg.card, sizeof(c->cfg.card), "plugin %s (no card)",
			 snd_pcm_type_name(snd_pcm_type(d->pcm)));

	TRY(snd_pcm_sw_params_current(d->pcm, sw), "software parameters");
	TRY(snd_pcm_sw_params_get_boundary(sw, &boundary), "the boundary");
	TRY(snd_pcm_sw_params_set_avail_min(d->pcm, sw, period), "avail_min");
	TRY(snd_pcm_sw_params_set_start_threshold(d->pcm, sw, boundary), "an explicit start");
	TRY(snd_pcm_sw_params_set_stop_threshold(d->pcm, sw, buffer), "the stop threshold");
	TRY(snd_pcm_sw_params_set_tstamp_mode(d->pcm, sw, SND_PCM_TSTAMP_ENABLE), "timestamps");
	TRY(snd_pcm_sw_params_set_tstamp_type(d->pcm, sw, SND_PCM_TSTAMP_TYPE_MONOTONIC),
	    "monotonic timestamps");
	TRY(snd_pcm_sw_params(d->pcm, sw), "the software parameters");
	err = snd_pcm_status_malloc(&d->st);
	if (err < 0) {
		snprintf(why, len, "out of memory");
		goto out_close;
	}
	/* Wake at least every second to see the stop flag on a stalled device. */
	d->wait_ms = 1000;
	c->dev = d;
	return 0;

out_close:
	snd_pcm_close(d->pcm);
	free(d);
	return err;
}

/* Fills w from the status: the stream's state, avail and timestamps. */
static int status(struct audio_ctx *c, struct alsa_dev *d, struct audio_wake *w)
{
	snd_htimestamp_t ts, trig;
	snd_pcm_uframes_t avail;
	snd_pcm_state_t state;
	uint64_t tstamp, buffer = c->cfg.buffer, period = c->cfg.period;
	int err;

	err = snd_pcm_status(d->pcm, d->st);
	w->now_ns = rtp_now_ns(CLOCK_MONOTONIC);
	if (err < 0)
		return err;
	state = snd_pcm_status_get_state(d->st);
	snd_pcm_status_get_htstamp(d->st, &ts);
	tstamp = ts_ns(&ts);
	if (!tstamp || tstamp > w->now_ns)
		tstamp = w->now_ns;	/* a plugin without timestamps */
	w->xrun_at_ns = w->xrun_dur_ns = 0;
	if (state == SND_PCM_STATE_XRUN) {
		uint64_t at;

		snd_pcm_status_get_trigger_htstamp(d->st, &trig);
		at = ts_ns(&trig);
		if (!at || at > tstamp)
			at = tstamp;
		w->event = AUDIO_XRUN;
		w->xrun_at_ns = at;
		w->xrun_dur_ns = tstamp - at;	/* as aplay and jackd report it */
		w->avail = buffer;
		w->t_dry_ns = at;
		w->t_avail_ns = at - audio_frames_ns(buffer - period, c->cfg.rate);
		return -EPIPE;
	}
	if (state == SND_PCM_STATE_SUSPENDED) {
		w->event = AUDIO_SUSPEND;
		w->avail = 0;
		w->t_avail_ns = w->t_dry_ns = w->now_ns;
		return -ESTRPIPE;
	}
	avail = snd_pcm_status_get_avail(d->st);
	w->event = AUDIO_OK;
	w->avail = avail;
	w->t_avail_ns = avail >= period ? tstamp - audio_frames_ns(avail - period, c->cfg.rate) : tstamp;
	w->t_dry_ns = tstamp + (avail < buffer ? audio_frames_ns(buffer - avail, c->cfg.rate) : 0);
	return 0;
}

static int event_of(struct audio_ctx *c, struct alsa_dev *d, int err, struct audio_wake *w)
{
	int ret;

	if (err != -EPIPE && err != -ESTRPIPE)
		return err;
	ret = status(c, d, w);
	if (ret == -EPIPE || ret == -ESTRPIPE)
		return ret;
	/* The call failed but the status no longer says why: trust the call. */
	w->event = err == -EPIPE ? AUDIO_XRUN : AUDIO_SUSPEND;
	w->xrun_at_ns = w->now_ns;
	w->xrun_dur_ns = 0;
	return err;
}

static int put_silence(struct audio_ctx *c, struct alsa_dev *d, snd_pcm_uframes_t frames)
{
	const snd_pcm_channel_area_t *areas;
	snd_pcm_uframes_t off, n;
	snd_pcm_sframes_t done;
	int err;

	while (frames) {
		if (!d->mmap) {
			n = frames < c->cfg.period ? frames : c->cfg.period;
			done = d->capture ? snd_pcm_readi(d->pcm, c->silence, n) :
			       snd_pcm_writei(d->pcm, c->silence, n);
			if (done < 0)
				return (int)done;
			frames -= (snd_pcm_uframes_t)done;
			continue;
		}
		done = snd_pcm_avail_update(d->pcm);
		if (done < 0)
			return (int)done;
		n = frames;
		err = snd_pcm_mmap_begin(d->pcm, &areas, &off, &n);
		if (err < 0)
			return err;
		if (!n)
			return -EAGAIN;
		if (!d->capture)	/* capture: the frames are consumed as they are */
			snd_pcm_areas_silence(areas, off, c->cfg.channels, n,
					      (snd_pcm_format_t)c->cfg.format);
		done = snd_pcm_mmap_commit(d->pcm, off, n);
		if (done < 0)
			return (int)done;
		frames -= (snd_pcm_uframes_t)done;
	}
	return 0;
}

static int alsa_start(struct audio_ctx *c)
{
	struct alsa_dev *d = c->dev;
	snd_pcm_state_t s = snd_pcm_state(d->pcm);
	int err;

	if (s == SND_PCM_STATE_RUNNING)
		return 0;	/* resumed after a suspend */
	if (s != SND_PCM_STATE_PREPARED) {
		err = snd_pcm_prepare(d->pcm);
		if (err < 0)
			return err;
	}
	if (!d->capture) {
		err = put_silence(c, d, c->cfg.buffer);	/* prefill */
		if (err < 0)
			return err;
		c->prefilled += c->cfg.buffer;
	}
	return snd_pcm_start(d->pcm);
}

static int alsa_wait(struct audio_ctx *c, struct audio_wake *w)
{
	struct alsa_dev *d = c->dev;
	int err;

	err = snd_pcm_wait(d->pcm, d->wait_ms);
	if (err < 0)
		return event_of(c, d, err, w);
	return status(c, d, w);
}

static int alsa_write(struct audio_ctx *c, struct audio_wake *w)
{
	struct alsa_dev *d = c->dev;
	int err;

	err = put_silence(c, d, c->cfg.period);
	if (err < 0)
		return event_of(c, d, err, w);
	return 0;
}

static int alsa_recover(struct audio_ctx *c, int err)
{
	struct alsa_dev *d = c->dev;

	return snd_pcm_recover(d->pcm, err, 1);
}

static void alsa_close(struct audio_ctx *c)
{
	struct alsa_dev *d = c->dev;

	if (!d)
		return;
	snd_pcm_drop(d->pcm);
	snd_pcm_close(d->pcm);
	snd_pcm_status_free(d->st);
	free(d);
	c->dev = NULL;
}

const struct audio_backend_ops audio_alsa_ops = {
	.name = "alsa",
	.open = alsa_open,
	.start = alsa_start,
	.wait = alsa_wait,
	.write = alsa_write,
	.recover = alsa_recover,
	.close = alsa_close,
};
